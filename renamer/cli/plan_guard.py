"""verify's plan guard (terraform_plan.py): which directories, what accepts a replace, how it is shown."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from renamer import lazy_re
from renamer.allowlist import KeepRule
from renamer.errors import RenamerError
from renamer.project import LoadedProject
from renamer.terraform_plan import DESTRUCTIVE, Change, Guard, binary_path, run_plan
from renamer.words import plural

_INDEX = lazy_re.compile(r'\[(?:"(?:[^"\\]|\\.)*"|[^\]"]*)\]')  # an instance key: [0], ["a.b"]


def directories(project: LoadedProject, given: Sequence[Path]) -> list[tuple[Path, str]]:
    """`--terraform DIR`s (from the current folder) and renamer.yaml's `terraform:` list (from its
    folder), each once, with how it is shown; exit 2 for one that is no folder."""
    out: list[tuple[Path, str]] = []
    seen: set[Path] = set()
    for path in [*(Path.cwd() / p for p in given), *project.config.terraform_dirs]:
        resolved = path.resolve()
        shown = project.config.display(path)
        if not resolved.is_dir():
            raise RenamerError(f"{shown}: {'not a folder' if resolved.exists() else 'folder not found'}: "
                               "--terraform and renamer.yaml's `terraform:` name the folders terraform plans")
        if resolved not in seen:
            seen.add(resolved)
            out.append((resolved, shown))
    return out


def run_guards(project: LoadedProject, given: Sequence[Path], allowed: Sequence[str],
               timeout: float) -> list[Guard]:
    """Plan every directory; a delete or replace is accepted by `--allow-replace ADDR` or by a keep
    rule of a `.tf` file there whose `line_contains` is the address (its reason shown)."""
    folders = directories(project, given)
    if not folders:
        return []
    binary = binary_path(project.config.terraform_binary)
    guards = []
    for folder, shown in folders:
        found: list[KeepRule] | None = None  # read on the first delete or replace only

        def accept(change: Change, folder: Path = folder) -> str | None:
            nonlocal found
            names = _names(change)
            if names & set(allowed):
                return "--allow-replace"
            if found is None:  # the keep rules of the folder's `.tf` files, its local modules' too
                found = list({rule: None for tf in sorted(folder.rglob("*.tf"))
                              if not {".terraform", ".git"} & set(tf.relative_to(folder).parts)
                              for rule in project.classifier.keep_rules_for(project.config.display(tf))})
            rule = next((r for r in found if r.line_contains in names), None)
            return f"{rule.label} ({rule.reason})" if rule is not None else None

        spaces = local_workspaces(folder)
        if not spaces:
            guards.append(run_plan(folder, shown, binary, timeout, accept))
        for space in spaces:  # each workspace's state planned: a replace in prod only is one too
            guards.append(run_plan(folder, f"{shown} (workspace {space})", binary, timeout, accept,
                                   workspace=space))
    return guards


def local_workspaces(folder: Path) -> list[str]:
    """The workspaces of a folder's local backend where it has more than `default`
    (`terraform.tfstate.d/NAME/`), `default` first; [] where it has none (break-it round 20,
    finding 17: the plan of the selected workspace alone proved nothing of the others)."""
    try:
        named = sorted(d.name for d in (folder / "terraform.tfstate.d").iterdir() if d.is_dir())
    except OSError:
        return []
    return ["default", *(n for n in named if n != "default")] if named else []


def _names(change: Change) -> set[str]:
    """What may name a change's resource: its address, the address before a move, and either
    without instance keys (`module.m["a"].terraform_data.x[0]` is `module.m.terraform_data.x`)."""
    names = {change.address, *([change.previous] if change.previous else [])}
    return names | {_INDEX.sub("", n) for n in names}


def unmatched(guards: Sequence[Guard], allowed: Sequence[str]) -> list[str]:
    """The --allow-replace addresses no planned delete or replace carries: a typo accepts nothing."""
    names = {n for g in guards for c in g.changes if c.action in DESTRUCTIVE
             for n in _names(c)}
    return [a for a in allowed if a not in names]


def guard_lines(guards: Sequence[Guard]) -> list[str]:
    """`infra: terraform plan: error: terraform_data.web: replace, forced by triggers_replace; ...`"""
    lines = []
    for guard in guards:
        for change in guard.changes:
            if change.action in ("noop", "read", ""):
                continue
            level = "error" if change.fails else "ok"
            lines.append(f"{guard.directory}: {guard.binary} plan: {level}: {change.message()}")
    return lines


def guard_summary(guards: Sequence[Guard]) -> str:
    """`; terraform plan: 1 move, 1 replace not accepted (infra)`, for the verdict line."""
    if not guards:
        return ""
    failing = [c for g in guards for c in g.failing]
    moves = sum(1 for g in guards for c in g.changes if c.previous and c.previous != c.address)
    shown = ", ".join(g.directory for g in guards)
    failed = plural(len(failing), "delete or replace", "deletes or replaces")
    said = f"{plural(moves, 'move')}, {failed} not accepted"
    # -refresh=false: the state as recorded is planned against, no provider is asked
    return f"; {guards[0].binary} plan -refresh=false: {said} ({shown})"


def guard_data(guards: Sequence[Guard]) -> list[dict[str, Any]]:
    return [{"directory": g.directory, "binary": g.binary,
             "changes": [{"address": c.address, "action": c.action, "previous": c.previous,
                          "reason": c.reason, "forced_by": list(c.forced_by), "drift": c.drift,
                          "accepted": c.accepted,
                          "fails": c.fails, "message": c.message()} for c in g.changes]}
            for g in guards]
