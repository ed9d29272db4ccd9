"""A preset's folder pattern is evidence, not proof (break-it round 8, #1; the sibling of issue 27
item 13's `tests/` folder): `records-common` keeps `**/backup/**`, `**/archive/**`, `**/journal/**`
as history, and a role, chart or service is often named after what it does (`roles/backup/`,
`roles/archive/tasks/main.yml`, `roles/journal/templates/journal-upload.conf.j2`). Pure, by path:

* a file a class's file-name pattern covers (`**/*.bak`, `**/CHANGELOG*`) is a record, wherever it is;
* a folder the pattern names whose parent is `roles/` or `charts/` is an Ansible role or a Helm chart
  named after what it does: live, none of its files a record by the folder's name (`live`);
* a file below the folder that is structurally live configuration (an Ansible role's tasks, handlers,
  defaults, vars, meta or templates, a Jinja template, Terraform, Nomad, a systemd unit, a compose
  file, a kustomization, a chart, a Dockerfile, a `.env`) is a copy or the live thing, and the path
  cannot say which (`undecided`): the sweep leaves it unclassified, with why, so verify fails until
  a person decides; `renamer init` decides from the content (scaffold_live.py) and writes it down;
* unless its path below the folder says copy: a dated folder (`backups/2024-05-01/compose.yml`) or a
  machine's file tree (`backups/host1/etc/systemd/system/x.service`);
* anything else under the folder is a record, as before.

Only a preset's classes are read so: a record class of your own is your decision and always holds.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

Verdict = Literal["record", "live", "undecided"]

# The folder holding a role or chart by the name of what it does.
_UNIT_PARENTS = frozenset({"roles", "charts"})
# An Ansible role's folders (and a Helm chart's templates/): what runs, never a note.
_ROLE_PARTS = frozenset({"tasks", "handlers", "defaults", "vars", "meta", "templates"})
# Live by their name alone.
_LIVE_NAME = re.compile(
    r"(?i)^(?:(?:docker-)?compose(?:[._-][\w.-]+)?\.ya?ml|[\w.-]+\.compose\.ya?ml|\.env"
    r"|Dockerfile(?:\.[\w.-]+)?|Containerfile|[\w.-]+\.dockerfile|kustomization\.ya?ml|Chart\.ya?ml"
    r"|helmfile\.ya?ml|[\w.-]+\.(?:tf|tfvars|nomad|j2|jinja2?)"
    r"|[\w.@-]+\.(?:service|timer|socket|path|mount|automount|target))$")
# A dated folder name (2024-05-01, 20240501), as classify.FILE_DATE reads a file name.
_DATED = re.compile(r"(?<!\d)\d{4}-?\d{2}-?\d{2}(?!\d)")
# A machine's file tree copied whole: `backups/host1/etc/...`.
_TREE = frozenset({"etc", "usr", "var", "opt", "srv", "home", "root", "boot", "lib"})


@dataclass(frozen=True)
class Claim:
    verdict: Verdict
    why: str = ""  # what the file is, for `live` and `undecided`
    folder: str = ""  # the folder the preset's pattern names, `roles/backup`


class Patterns(Protocol):
    def match_file(self, path: str) -> bool: ...


# classify.PathPatterns (given, not imported: classify asks this module)
Compile = Callable[[Sequence[str]], Patterns]


class FolderClaims:
    """One preset record class's patterns, split into file-name patterns and folder patterns."""

    def __init__(self, patterns: Sequence[str], compile_: Compile) -> None:
        self._files = compile_([p for p in patterns if not _is_folder(p)])
        self._folders = compile_([p for p in patterns if _is_folder(p)])

    def claim(self, path: str) -> Claim:
        """Whether the class keeps `path` (which one of its patterns matches) as a record."""
        if self._files.match_file(path):
            return Claim("record")
        parts = path.split("/")
        depth = next((d for d in range(len(parts) - 1)
                      if self._folders.match_file("/".join(parts[: d + 1]) + "/x")), None)
        if depth is None:
            return Claim("record")
        folder = "/".join(parts[: depth + 1])
        if depth > 0 and parts[depth - 1].lower() in _UNIT_PARENTS:
            kind = "an Ansible role" if parts[depth - 1].lower() == "roles" else "a Helm chart"
            return Claim("live", f"{kind} named after what it does", folder)
        below = parts[depth + 1:]
        if any(_DATED.search(p) for p in below[:-1]) or (len(below) > 1 and below[0] in _TREE) or (
                len(below) > 2 and below[1] in _TREE):
            return Claim("record")
        why = structure(below)
        return Claim("undecided", why, folder) if why else Claim("record")


def structure(below: list[str]) -> str | None:
    """What makes a file live configuration by its path (`below`: its folders and name under the
    folder the preset names), or None."""
    name = below[-1]
    part = next((p for p in below[:-1] if p in _ROLE_PARTS), None)
    if part is not None:
        return f"in a {part}/ folder, an Ansible role's or a Helm chart's"
    if _LIVE_NAME.match(name):
        return f"{name} is live configuration by its name"
    return None


def _is_folder(pattern: str) -> bool:
    return pattern.endswith("/**")


class PresetClaims:
    """Every class of a preset, asked together (renamer init): the claim of the first class that
    keeps the file, else the first that leaves it undecided, else a live one; None when no class
    covers the file."""

    def __init__(self, classes: Sequence[tuple[str, Sequence[str]]], compile_: Compile) -> None:
        self._classes = [(name, compile_(patterns), FolderClaims(patterns, compile_))
                         for name, patterns in classes]

    def claim(self, path: str) -> tuple[str, Claim] | None:
        found: list[tuple[str, Claim]] = [(name, claims.claim(path)) for name, spec, claims in self._classes
                                          if spec.match_file(path)]
        for verdict in ("record", "undecided", "live"):
            for name, claim in found:
                if claim.verdict == verdict:
                    return name, claim
        return None
