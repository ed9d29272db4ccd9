"""The campaign use cases: one move over many repositories, each in a clone of its own.

plan (phase 1): clone or fetch each repo, plan its sweep; a repo with an unclassified file or a
refusal blocks the whole campaign, unless skipped. apply (phase 2): per repo, in depends_on order, on
the branch renamer/<move>, the sweep's commits and a verify that passes, or the clone rolled back to
where it was; dependants of a repo that failed are skipped. push (phase 3): the branch to the
repo's remote (never a default branch), a pull request where a forge CLI is there. status: the
burndown, read from the clones' branches and the campaign's record of its last plan.
"""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Callable, Collection
from dataclasses import replace
from pathlib import Path
from typing import Any

from renamer import interrupts
from renamer.atomic import save
from renamer.campaign import clones, forge
from renamer.campaign.config import Campaign, RepoEntry
from renamer.campaign.results import (
    CampaignApply,
    CampaignPlan,
    CampaignPush,
    CampaignStatus,
    PlanState,
    PushOutcome,
    RepoApply,
    RepoPlan,
    RepoPush,
    RepoStatus,
)
from renamer.config import CONFIG_NAME, Config
from renamer.config_load import load_config
from renamer.errors import ConfigError, Interrupted, RenamerError, UnsafeError
from renamer.formats.yaml_source import Problems
from renamer.idempotence import check_idempotent
from renamer.project import LoadedProject, project_of
from renamer.report.text import audit_markdown
from renamer.sites import site_hosts
from renamer.sweep.run import SweepRequest, audit, sweep, verify
from renamer.words import plural

Progress = Callable[[str], None]
RECORD = "campaign-state.json"  # in work_dir: what the last plan and apply found, per repo


def quiet(_: str) -> None:
    pass


def plan(campaign: Campaign, skip: Collection[str] = (), progress: Progress = quiet) -> CampaignPlan:
    """Phase 1: clone or fetch every repo not skipped, and plan its sweep. Writes nothing but the
    clones (checked out at the remote's default branch) and the campaign's record."""
    _check_skip(campaign, skip)
    with clones.campaign_lock(campaign):
        return _plan(campaign, skip, progress)


def _check_skip(campaign: Campaign, skip: Collection[str]) -> None:
    unknown = sorted(set(skip) - {r.name for r in campaign.repos})
    if unknown:
        raise ConfigError(f"--skip {unknown[0]}: no repo of that name in {campaign.path.name}")


def _plan(campaign: Campaign, skip: Collection[str], progress: Progress) -> CampaignPlan:
    repos: list[RepoPlan] = []
    for repo in campaign.repos:
        skipped = {r.name for r in repos if r.state == "skipped"}
        dep = next((d for d in repo.depends_on if d in skipped), None)
        if dep is not None and repo.name not in skip:  # a skipped repo's dependants are skipped too
            repos.append(RepoPlan(repo.name, "skipped", f"depends on {dep}, skipped"))
            continue
        progress(f"{repo.name}: planning")
        repos.append(_plan_repo(campaign, repo, skip))
    result = CampaignPlan(campaign.name, campaign.branch, tuple(repos))
    _record(campaign, {r.name: {"state": r.state, "why": r.why, "left": r.left} for r in repos})
    return result


def _plan_repo(campaign: Campaign, repo: RepoEntry, skip: Collection[str]) -> RepoPlan:
    if repo.name in skip:
        return RepoPlan(repo.name, "skipped", "--skip")
    notes = []
    try:
        clone, action = clones.ensure_clone(campaign, repo)
        base_branch = clones.default_branch(clone)
        base = f"refs/remotes/origin/{base_branch}"
        if campaign.branch == base_branch:
            raise UnsafeError(f"{campaign.branch} is the remote's default branch: a campaign never pushes "
                              "to one")
        unpushed = clones.unpublished(clone, repo, base_branch)
        if unpushed is not None:
            raise UnsafeError(unpushed)
        clones.fetch_pushed(clone, repo, campaign.branch)
        foreign = clones.adopt_remote_branch(clone, campaign, repo)
        if foreign is not None:
            raise UnsafeError(f"{foreign}; a push would not go: look at it, delete it there, or give the "
                              "move another name")
        if clones.is_checkout(repo) and clones.rev(clone, f"refs/remotes/origin/{campaign.branch}"):
            notes.append(f"the checkout's own {campaign.branch} (not pushed) is not the campaign's: "
                         "left alone")
        local = f"refs/heads/{campaign.branch}"
        if clones.rev(clone, local) is not None:
            unfinished = clones.verified(clone, campaign, local)
            if unfinished is None:
                commits = clones.move_commits(clone, campaign, base)
                late = clones.behind(clone, campaign.branch, base)
                late_left = _late_references(campaign, repo, clone, base) if late else 0
                count = ("references unknown (the merge conflicts)" if late_left is None
                         else plural(late_left, "reference") + " to rewrite after the merge")
                note = (f"; {base_branch} has {plural(late, 'commit')} since, not swept ({count}): "
                        "verify them after the merge" if late else "")
                return RepoPlan(repo.name, "done", f"{campaign.branch} is there{note}", action, base_branch,
                                commits=tuple(commits), late_left=late_left)
            notes.append(f"{campaign.branch} in the clone is not done ({unfinished}): apply makes it again")
        clones.start_clean(clone, base)
        project = _project(campaign, repo, clone)
        result = sweep(project, SweepRequest(dry_run=True, with_diff=False), hosts=site_hosts(project.config))
    except RenamerError as exc:
        return RepoPlan(repo.name, "blocked", str(exc))
    summary = result.summary
    unclassified = tuple(sorted({r.path for r in summary.unclassified}))
    refusals = tuple(f"{r.path}: {r.problem}" for r in result.refused)
    refusals += tuple(f"{path}: cannot read ({why})" for path, why in summary.skipped_files)
    why = ""
    if unclassified or refusals:
        parts = []
        if unclassified:
            parts.append(f"{plural(len(unclassified), 'unclassified file')} ({unclassified[0]}"
                         f"{', ...' if len(unclassified) > 1 else ''})")
        if refusals:
            parts.append(f"{plural(len(refusals), 'refusal')} ({refusals[0]})")
        why = "; ".join(parts)
    if summary.stuck:  # verify after the sweep would fail on them: apply could only roll back
        first = summary.stuck[0]
        stuck = (f"{plural(len(summary.stuck), 'residual')} ({_where(first)}): a reference the sweep "
                 "cannot rewrite, on which verify after the sweep would fail; fix it by hand in the repo")
        why = "; ".join(p for p in (why, stuck) if p)
    blocked = bool(why)
    if not blocked and notes:
        why = "; ".join(notes)
    state: PlanState = "blocked" if blocked else ("ready" if result.plan.changes else "nothing")
    return RepoPlan(repo.name, state, why, action, base_branch, summary.files_changed,
                    summary.replacement_total(), len(summary.renames), sum(summary.kept.values()),
                    len(summary.stuck), len(result.collisions), unclassified, refusals, swept=True)


def _late_references(campaign: Campaign, repo: RepoEntry, clone: Path, base: str) -> int | None:
    """The default branch moved on after the move's branch was made: the references the branch
    merged with it would still hold (a dry sweep of that merge, in the clone, undone after); None
    where the merge conflicts or the sweep cannot be planned."""
    clones.start_clean(clone, f"refs/heads/{campaign.branch}")
    try:
        clones.git(clone, "merge", "--no-commit", "--no-ff", "--quiet", base, check=False)
        conflicts = clones.git(clone, "diff", "--name-only", "--diff-filter=U", check=False)
        if clones.rev(clone, "MERGE_HEAD") is None or conflicts:
            return None
        project = _project(campaign, repo, clone)
        result = sweep(project, SweepRequest(dry_run=True, with_diff=False, allow_dirty=True),
                       hosts=site_hosts(project.config))
        summary = result.summary
        return summary.replacement_total() + len(summary.stuck) + len({r.path for r in summary.unclassified})
    except RenamerError:
        return None
    finally:
        clones.git(clone, "merge", "--abort", check=False)
        clones.start_clean(clone, f"refs/heads/{campaign.branch}")


def _where(reference: Any) -> str:
    return f"{reference.path}:{reference.line}"


def _project(campaign: Campaign, repo: RepoEntry, clone: Path) -> LoadedProject:
    """The repo's own renamer.yaml (or none) with the move's name and renames; its allowlist: the
    one campaign.yaml names for it (a file of the repo), else its renamer.yaml's, else the shared one."""
    own = clone / CONFIG_NAME
    if own.is_symlink():
        raise UnsafeError(f"renamer.yaml is a link (to {os.readlink(own)}): a campaign reads nothing of a "
                          "repo's outside its clone")
    config: Config = load_config(own, clone) if own.is_file() else campaign.template(clone)
    if own.is_file():  # a repo's own config reads files of that repo, nothing of the machine it is cloned on
        for path in (*config.allowlist_paths, config.dns_dir, *config.terraform_dirs):
            if clone.resolve() != path.resolve() and clone.resolve() not in path.resolve().parents:
                raise UnsafeError(f"renamer.yaml names {path.resolve()}, outside the repository: "
                                  "a campaign reads nothing of a repo's outside its clone")
    paths = config.allowlist_paths
    if repo.allowlist is not None:
        path = clone / repo.allowlist
        inside = clone.resolve() in path.resolve().parents
        if not inside or not path.is_file() or path.is_symlink():
            raise ConfigError(f"{campaign.path.name}:{repo.allowlist_line}: repos.{repo.name}.allowlist: "
                              f"{repo.allowlist} is no file of the repo")
        paths = (path,)
    elif not paths and campaign.allowlist is not None:
        paths = (campaign.allowlist,)
    if not paths:
        raise ConfigError(f"no allowlist: the repo has no renamer.yaml naming one, and {campaign.path.name} "
                          "gives it none (allowlist: for the repo, or a shared one)")
    config = replace(config, name=campaign.name, renames=campaign.renames, allowlist_paths=paths)
    # The move's renames were checked with the default options; this repo's (derived names,
    # variants) can make them rewrite their own output on a second sweep.
    problems = Problems(campaign.path.name)
    check_idempotent(config, {"renames": {}}, problems)
    if problems.items:
        raise ConfigError(f"{problems.items[0].render()} (with the options of the repo's renamer.yaml)")
    return project_of(clone, config)


def apply(campaign: Campaign, skip: Collection[str] = (), progress: Progress = quiet) -> CampaignApply:
    """Phases 1 and 2: nothing is written while any repo not skipped is blocked. Then, repo by repo
    in depends_on order, the sweep's commits on the branch renamer/<move> and a verify that passes;
    a repo that fails is rolled back to where its clone was, and its dependants are skipped."""
    _check_skip(campaign, skip)
    with clones.campaign_lock(campaign):
        return _apply(campaign, skip, progress)


def _apply(campaign: Campaign, skip: Collection[str], progress: Progress) -> CampaignApply:
    planned = _plan(campaign, skip, progress)
    if planned.blocked:
        return CampaignApply(planned)
    outcomes: dict[str, RepoApply] = {}
    # SIGTERM and SIGHUP as Ctrl-C, where not ignored (`nohup`)
    stopping = tuple(n for n in interrupts.STOPPING if signal.getsignal(n) is not signal.SIG_IGN)
    with interrupts.handled(stopping, interrupts.raise_interrupt):
        for repo, repo_plan in zip(campaign.repos, planned.repos, strict=True):
            progress(f"{repo.name}: applying")
            outcomes[repo.name] = _apply_repo(campaign, repo, repo_plan, outcomes)
    _record(campaign, {name: {"state": r.outcome, "why": r.why,
                              "left": 0 if r.outcome == "applied" else planned.repos[i].left}
                       for i, (name, r) in enumerate(outcomes.items())})
    return CampaignApply(planned, tuple(outcomes.values()))


def _apply_repo(campaign: Campaign, repo: RepoEntry, planned: RepoPlan,
                earlier: dict[str, RepoApply]) -> RepoApply:
    if planned.state == "skipped":
        return RepoApply(repo.name, "skipped", planned.why)
    for dep in repo.depends_on:
        if earlier[dep].outcome not in ("applied", "already", "nothing"):
            return RepoApply(repo.name, "skipped", f"depends on {dep}, {earlier[dep].outcome}")
    if planned.state == "done":
        return RepoApply(repo.name, "already", planned.why, planned.commits)
    if planned.state == "nothing":
        return RepoApply(repo.name, "nothing", "nothing to change")
    clone = campaign.clone_of(repo)
    base = f"refs/remotes/origin/{planned.base}"
    before = clones.rev(clone, "HEAD") or base
    try:
        clones.start_branch(clone, campaign, base)
        project = _project(campaign, repo, clone)
        hosts = site_hosts(project.config)
        result = sweep(project, SweepRequest(commit=True), hosts=hosts)
        if result.applied is not None and result.applied.interrupted:  # Ctrl-C the sweep deferred
            raise Interrupted("interrupted")
        if result.applied is None or not result.applied.commits:
            raise UnsafeError("the sweep made no commit")
        checked = verify(project, hosts=hosts)
        if not checked.ok:
            v = checked.verdict
            raise UnsafeError(f"verify fails after the sweep: {v.residual} residual, {v.unclassified} "
                              f"unclassified, {v.unreadable} unreadable, {v.expired} expired")
        if not clones.is_clean(clone):
            raise UnsafeError("the sweep left the work tree dirty")
        clones.mark_verified(clone, campaign)  # from here on, the branch is done
        commits = clones.move_commits(clone, campaign, base)
    except (Interrupted, KeyboardInterrupt):  # Ctrl-C, SIGTERM: the clone goes back, the campaign stops
        clones.roll_back(clone, campaign, before)
        raise Interrupted(f"interrupted during {repo.name}: its clone is rolled back to where it was; the "
                          "repos before it are done; `renamer campaign apply` again goes on") from None
    except RenamerError as exc:
        clones.roll_back(clone, campaign, before)
        # The sweep's advice for a commit that failed (`renamer sweep --commit` completes it from its
        # journal) is not the campaign's: the rollback removed both; apply again is the way on.
        reason = str(exc).split("; the rewrite of ", 1)[0]
        return RepoApply(repo.name, "failed", f"{reason}; rolled back")
    return RepoApply(repo.name, "applied", commits=tuple(commits))


def push(campaign: Campaign, skip: Collection[str] = (), forge_choice: str = "auto",
         progress: Progress = quiet) -> CampaignPush:
    """Phase 3: each repo's renamer/<move>, applied, pushed to its remote (the url, or a checkout's
    own origin), never forced and never to a default branch; then, with a forge CLI, a pull request
    whose body is the move's summary and the audit."""
    _check_skip(campaign, skip)
    tool = forge.find(forge_choice)
    record = _read_record(campaign)
    repos: list[RepoPush] = []
    with clones.campaign_lock(campaign):
        for repo in campaign.repos:
            if repo.name in skip:
                repos.append(RepoPush(repo.name, "skipped", why="--skip"))
                continue
            outcomes = {r.name: r.outcome for r in repos}
            dep = next((d for d in repo.depends_on if outcomes[d] in _NOT_THERE), None)
            if dep is not None:  # depends_on orders phase 3 too: nothing pushed or proposed before its own
                repos.append(RepoPush(repo.name, "skipped", why=f"depends on {dep}, {outcomes[dep]}"))
                continue
            progress(f"{repo.name}: pushing")
            repos.append(_push_repo(campaign, repo, tool, record.get(repo.name, {})))
    return CampaignPush(campaign.name, tool, tuple(repos))


def _push_repo(campaign: Campaign, repo: RepoEntry, tool: str | None, last: dict[str, Any]) -> RepoPush:
    branch = campaign.branch
    try:
        clone = clones.own_clone(campaign, repo)
        if clone is None:
            return RepoPush(repo.name, "not-applied", why="not cloned: run campaign apply first")
        base = clones.default_branch(clone)
        local = clones.rev(clone, f"refs/heads/{branch}")
        unfinished = clones.verified(clone, campaign, f"refs/heads/{branch}")
        if unfinished is not None and last.get("state") == "nothing":
            return RepoPush(repo.name, "nothing", why="the last plan found nothing to change")
        if unfinished is not None or local is None:
            return RepoPush(repo.name, "not-applied", why=f"no {branch} with the move's commits, verified"
                            + ("" if local is None else f" ({unfinished}): run campaign apply"))
        commits = clones.move_commits(clone, campaign, f"refs/remotes/origin/{base}")
        target = clones.push_target(repo)
        head = clones.remote_head(clone, target.url)
        if branch in (base, head):
            raise UnsafeError(f"{branch} is the remote's default branch: a campaign never pushes to one")
        owed = last.get("proposal") in ("pending", "failed") and last.get("head") == local
        if clones.remote_sha(clone, target.url, branch) == local:
            clones.git(clone, "update-ref", clones.pushed_ref(branch), f"refs/heads/{branch}")
            if tool is None or not owed:
                return RepoPush(repo.name, "already", branch, target.url, "the remote has this branch")
            outcome: PushOutcome = "already"
        else:
            if tool is not None:  # remembered before the push: a run cut short owes the pull request
                _note(campaign, repo.name, proposal="pending", head=local)
            clones.push(clone, target.url, branch)
            outcome = "pushed"
    except RenamerError as exc:
        return RepoPush(repo.name, "failed", branch, why=str(exc))
    if tool is None:
        return RepoPush(repo.name, outcome, branch, target.url)
    _note(campaign, repo.name, proposal="pending", head=local)
    try:
        title, body = _proposal(campaign, repo, clone, commits)
        answer = forge.propose(tool, clone, branch, base, title, body, clones.forge_repo(target.url))
    except RenamerError as exc:
        _note(campaign, repo.name, proposal="failed", head=local)
        return RepoPush(repo.name, outcome, branch, target.url, proposal=f"failed: {exc}")
    _note(campaign, repo.name, proposal="opened", head=local, url=answer)
    return RepoPush(repo.name, outcome, branch, target.url, proposal=answer)


def _proposal(campaign: Campaign, repo: RepoEntry, clone: Path,
              commits: list[tuple[str, str]]) -> tuple[str, str]:
    """The pull request's title and body: the rewrite commit's message, then the audit."""
    rewrite = next((sha for sha, role in reversed(commits) if role == "rewrite"), commits[-1][0])
    message = clones.git(clone, "log", "-1", "--format=%B", rewrite)
    title, _, rest = message.partition("\n")
    clones.start_clean(clone, f"refs/heads/{campaign.branch}")
    project = _project(campaign, repo, clone)
    found = audit(project)
    body = (f"{rest.strip()}\n\n{audit_markdown(campaign.name, found.summary, found.references, found.stale)}"
            f"\nOpened by `renamer campaign push` ({campaign.name}).\n")
    return title.strip(), body


def status(campaign: Campaign) -> CampaignStatus:
    """The burndown: per repo its state and the references left, read from the clone's branches
    (the move's commits and their trailers, what was pushed) and the record of the last plan and
    apply. Asks no remote and writes nothing."""
    record = _read_record(campaign)
    repos = []
    for repo in campaign.repos:
        last = record.get(repo.name, {})
        try:
            clone = clones.own_clone(campaign, repo)
            base = clones.default_branch(clone) if clone is not None else ""
        except RenamerError as exc:
            repos.append(RepoStatus(repo.name, "blocked", str(exc)))
            continue
        state = str(last.get("state", "not planned" if clone is not None else "not cloned"))
        if clone is None:  # never cloned, its clone failed, or it is gone: no branch to count
            if state in _DONE:
                state = "not cloned"
            repos.append(RepoStatus(repo.name, state, str(last.get("why", ""))))
            continue
        local = clones.rev(clone, f"refs/heads/{campaign.branch}")
        if local is not None and clones.verified(clone, campaign, f"refs/heads/{campaign.branch}") is None:
            commits = clones.move_commits(clone, campaign, f"refs/remotes/origin/{base}")
            pushed = clones.rev(clone, clones.pushed_ref(campaign.branch)) == local
            rewrite = next((sha for sha, role in commits if role == "rewrite"), None)
            changed = _trailer(clone, rewrite, "Renamer-Changed") if rewrite else ""
            state = "pushed" if pushed else "applied"
            why = ""
            if pushed and last.get("proposal") in ("pending", "failed") and last.get("head") == local:
                state, why = "pushed, no pull request", "campaign push again opens it"
            late = clones.behind(clone, campaign.branch, f"refs/remotes/origin/{base}")
            left: object = 0
            if late:  # what the last plan counted in the merge with the default branch, if it saw it
                behind = f"{base} has {plural(late, 'commit')} since, not swept"
                why = "; ".join(p for p in (why, behind) if p)
                left = last.get("left") if last.get("state") in ("done", "already") else None
            counted = left if isinstance(left, int) else None
            repos.append(RepoStatus(repo.name, state, why, counted, tuple(commits), changed, pushed))
            continue
        if state in _DONE:  # the record says done, the branch is gone or not finished
            state = "not planned"
        left = last.get("left") if state not in ("not planned", "not cloned") else None
        repos.append(RepoStatus(repo.name, state, str(last.get("why", "")),
                                left if isinstance(left, int) else None))
    return CampaignStatus(campaign.name, campaign.branch, tuple(repos))


_DONE = ("done", "already", "applied", "pushed")
_NOT_THERE = ("failed", "not-applied", "skipped")  # a dependency's push outcomes that skip its dependants


def _note(campaign: Campaign, name: str, **fields: str | None) -> None:
    """Fields of one repo's entry in the record, the others kept (push: the pull request owed)."""
    record = _read_record(campaign)
    record[name] = {**record.get(name, {}), **fields}
    _save_record(campaign, record)


def _trailer(clone: Path, sha: str, key: str) -> str:
    body = clones.git(clone, "log", "-1", "--format=%B", sha)
    for line in body.splitlines():
        if line.startswith(f"{key}: "):
            return line.split(": ", 1)[1].strip()
    return ""


def _record(campaign: Campaign, repos: dict[str, dict[str, Any]]) -> None:
    record = _read_record(campaign)
    for name, entry in repos.items():
        if entry["state"] == "skipped":  # not looked at this time: what was left is what the last plan saw
            earlier = record.get(name, {}).get("left")
            entry = {**entry, "left": earlier if isinstance(earlier, int) else None}
        record[name] = {**record.get(name, {}), **entry}
    _save_record(campaign, record)


def _save_record(campaign: Campaign, record: dict[str, dict[str, Any]]) -> None:
    campaign.work_dir.mkdir(parents=True, exist_ok=True)
    save(campaign.work_dir / RECORD, (json.dumps({"move": campaign.name, "repos": record}, indent=2,
                                                 sort_keys=True) + "\n").encode())


def _read_record(campaign: Campaign) -> dict[str, dict[str, Any]]:
    try:
        data = json.loads((campaign.work_dir / RECORD).read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("move") != campaign.name \
            or not isinstance(data.get("repos"), dict):
        return {}
    return {k: v for k, v in data["repos"].items() if isinstance(v, dict)}
