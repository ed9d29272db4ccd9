"""The campaign's result values, per repo and per phase: plain and frozen, rendered by render.py."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

# plan: ready (something to change), nothing (nothing to change), done (the move's branch is there
# already), blocked (an unclassified file, a refusal, an error: nothing is written anywhere), skipped.
PlanState = Literal["ready", "nothing", "done", "blocked", "skipped"]
# apply: applied (now), already (done before: left alone), nothing, failed (rolled back), skipped.
ApplyOutcome = Literal["applied", "already", "nothing", "failed", "skipped"]
# push: pushed (now), already (the remote has this very branch), nothing (the last plan found nothing
# to change), not-applied, failed, skipped.
PushOutcome = Literal["pushed", "already", "nothing", "not-applied", "failed", "skipped"]


@dataclass(frozen=True)
class RepoPlan:
    name: str
    state: PlanState
    why: str = ""  # blocked or skipped: the reason, one line
    clone: str = ""  # cloned, fetched
    base: str = ""  # the default branch the move's branch starts from
    files: int = 0  # files to change
    replacements: int = 0
    renames: int = 0
    kept: int = 0
    residual: int = 0
    collisions: int = 0
    unclassified: tuple[str, ...] = ()  # the unclassified files holding an old value
    refusals: tuple[str, ...] = ()  # what a sweep that writes would refuse on: path: problem
    commits: tuple[tuple[str, str], ...] = ()  # done: the move's commits (sha, role)
    swept: bool = False  # the sweep was planned (the counts above are its)
    # done, the default branch moved on since: the references the merge would bring (None: unknown)
    late_left: int | None = 0

    @property
    def left(self) -> int | None:
        """References still to deal with in this repo: to rewrite, residual, unclassified; None
        where no sweep was planned (skipped, or blocked before: a clone that failed)."""
        if self.state == "done":
            return self.late_left
        if not self.swept:
            return None
        return self.replacements + self.residual + len(self.unclassified)


@dataclass(frozen=True)
class CampaignPlan:
    name: str
    branch: str
    repos: tuple[RepoPlan, ...]

    @property
    def blocked(self) -> list[RepoPlan]:
        return [r for r in self.repos if r.state == "blocked"]


@dataclass(frozen=True)
class RepoApply:
    name: str
    outcome: ApplyOutcome
    why: str = ""
    commits: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class CampaignApply:
    plan: CampaignPlan
    repos: tuple[RepoApply, ...] = ()  # empty when the plan refused: nothing written

    @property
    def refused(self) -> bool:
        return bool(self.plan.blocked)

    @property
    def ok(self) -> bool:
        return not self.refused and all(r.outcome in ("applied", "already", "nothing", "skipped")
                                        for r in self.repos)


@dataclass(frozen=True)
class RepoPush:
    name: str
    outcome: PushOutcome
    branch: str = ""
    target: str = ""  # where it went
    why: str = ""
    proposal: str = ""  # the forge's answer (a pull request's URL), or its failure


@dataclass(frozen=True)
class CampaignPush:
    name: str
    forge: str | None  # gh, glab, or None: the branch names are printed
    repos: tuple[RepoPush, ...]

    @property
    def ok(self) -> bool:
        return all(r.outcome in ("pushed", "already", "nothing", "skipped") and "failed" not in r.proposal
                   for r in self.repos)


@dataclass(frozen=True)
class RepoStatus:
    name: str
    state: str  # not cloned, not planned, a plan state, failed, applied, pushed
    why: str = ""
    left: int | None = None  # references left (None: unknown until a plan)
    commits: tuple[tuple[str, str], ...] = ()
    changed: str = ""  # the rewrite commit's Renamer-Changed
    pushed: bool = False


@dataclass(frozen=True)
class CampaignStatus:
    name: str
    branch: str
    repos: tuple[RepoStatus, ...] = field(default_factory=tuple)

    @property
    def done(self) -> int:
        return sum(1 for r in self.repos if r.state in ("applied", "pushed", "nothing"))

    @property
    def left(self) -> int | None:
        counts = [r.left for r in self.repos]
        return None if any(c is None for c in counts) else sum(c or 0 for c in counts)
