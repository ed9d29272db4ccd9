"""The campaign's results as text and as JSON documents. Here, not in report/: report/ is imported
by the campaign (the audit in a pull request's body), and no folder imports one that imports it back."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from renamer.campaign.results import (
    CampaignApply,
    CampaignPlan,
    CampaignPush,
    CampaignStatus,
    RepoPlan,
)
from renamer.documents import versioned
from renamer.words import plural


def _commits(commits: tuple[tuple[str, str], ...]) -> str:
    return ", ".join(f"{sha[:12]} {role}" for sha, role in commits)


def _plan_line(repo: RepoPlan) -> str:
    if repo.state in ("blocked", "skipped"):
        return repo.why
    if repo.state == "done":
        return f"{repo.why}: {plural(len(repo.commits), 'commit')} ({_commits(repo.commits)})"
    counts = (f"{plural(repo.files, 'file')} to change, {plural(repo.replacements, 'replacement')}, "
              f"{repo.renames} renamed, {repo.kept} kept, {repo.residual} residual, "
              f"{plural(repo.collisions, 'collision')}, 0 unclassified")
    return f"{counts} ({repo.clone}, from {repo.base})" + (f"; {repo.why}" if repo.why else "")


def _rows(rows: Sequence[tuple[str, str, str]]) -> list[str]:
    name_width = max((len(r[0]) for r in rows), default=0)
    state_width = max((len(r[1]) for r in rows), default=0)
    return [f"  {n.ljust(name_width)}  {s.ljust(state_width)}  {w}".rstrip() for n, s, w in rows]


def plan_text(result: CampaignPlan) -> str:
    lines = [f"campaign {result.name}: branch {result.branch}, {plural(len(result.repos), 'repo')}"]
    lines += _rows([(r.name, r.state, _plan_line(r)) for r in result.repos])
    for repo in result.repos:
        lines += [f"  {repo.name}: unclassified {path}" for path in repo.unclassified]
        lines += [f"  {repo.name}: refused {why}" for why in repo.refusals]
    blocked = result.blocked
    if blocked:
        names = ", ".join(r.name for r in blocked)
        lines.append(f"blocked: {plural(len(blocked), 'repo')} ({names}): nothing is written anywhere; "
                     f"fix what each names, or leave the repo out with --skip {blocked[0].name}")
    else:
        left = sum(r.left or 0 for r in result.repos)
        lines.append(f"ready: {plural(sum(r.state == 'ready' for r in result.repos), 'repo')} to apply, "
                     f"{plural(left, 'reference')} left")
    return "\n".join(lines) + "\n"


def apply_text(result: CampaignApply) -> str:
    if result.refused:
        return plan_text(result.plan)
    lines = [f"campaign {result.plan.name}: branch {result.plan.branch}"]
    rows: list[tuple[str, str, str]] = []
    for repo in result.repos:
        why = repo.why if repo.outcome != "applied" else ""
        if repo.commits:
            done = f"{plural(len(repo.commits), 'commit')} ({_commits(repo.commits)})"
            why = f"{done}; {why}" if why else done
        rows.append((repo.name, repo.outcome, why))
    lines += _rows(rows)
    counts = {o: sum(r.outcome == o for r in result.repos)
              for o in ("applied", "already", "nothing", "failed", "skipped")}
    lines.append(", ".join(f"{o} {n}" for o, n in counts.items()))
    return "\n".join(lines) + "\n"


def push_text(result: CampaignPush) -> str:
    lines = [f"campaign {result.name}: push ({'forge ' + result.forge if result.forge else 'no forge'})"]
    rows: list[tuple[str, str, str]] = []
    for repo in result.repos:
        if repo.outcome in ("pushed", "already"):
            what = f"{repo.branch} -> {repo.target}"
            if repo.proposal:
                what += f"; pull request: {repo.proposal}"
            elif repo.outcome == "pushed" and result.forge is None:
                what += "; no forge CLI: open the pull request from this branch"
        else:
            what = repo.why
        rows.append((repo.name, repo.outcome, what))
    lines += _rows(rows)
    return "\n".join(lines) + "\n"


def status_text(result: CampaignStatus) -> str:
    left = result.left
    counted = "references left unknown (plan first)" if left is None else plural(left, "reference") + " left"
    lines = [f"campaign {result.name}: {result.done} of {plural(len(result.repos), 'repo')} done, {counted}"]
    rows = []
    for repo in result.repos:
        if repo.commits:
            what = f"{result.branch}: {_commits(repo.commits)}"
            what += f"; {repo.changed}" if repo.changed else ""
            what += f"; {repo.why}" if repo.why else ""
        else:
            count = "" if repo.left is None else plural(repo.left, "reference") + " left"
            what = "; ".join(p for p in (count, repo.why) if p)
        rows.append((repo.name, repo.state, what))
    lines += _rows(rows)
    return "\n".join(lines) + "\n"


def _repo_dicts(items: tuple[Any, ...]) -> list[dict[str, Any]]:
    out = []
    for item in items:
        data = asdict(item)
        if "commits" in data:
            data["commits"] = [{"sha": sha, "role": role} for sha, role in item.commits]
        for key in ("unclassified", "refusals"):
            if key in data:
                data[key] = list(data[key])
        out.append(data)
    return out


def plan_data(result: CampaignPlan) -> dict[str, Any]:
    repos = [{**d, "left": r.left} for d, r in zip(_repo_dicts(result.repos), result.repos, strict=True)]
    return versioned({"name": result.name, "branch": result.branch,
                      "blocked": [r.name for r in result.blocked], "repos": repos})


def apply_data(result: CampaignApply) -> dict[str, Any]:
    return versioned({"name": result.plan.name, "branch": result.plan.branch, "ok": result.ok,
                      "refused": result.refused, "plan": plan_data(result.plan)["repos"],
                      "repos": _repo_dicts(result.repos)})


def push_data(result: CampaignPush) -> dict[str, Any]:
    return versioned({"name": result.name, "forge": result.forge, "ok": result.ok,
                      "repos": _repo_dicts(result.repos)})


def status_data(result: CampaignStatus) -> dict[str, Any]:
    return versioned({"name": result.name, "branch": result.branch, "done": result.done, "left": result.left,
                      "repos": _repo_dicts(result.repos)})
