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
* a folder the pattern names inside `inventories/` or `inventory/` is an Ansible inventory named after
  its concern (`inventories/backup/`): live (break-it round 16, #2); elsewhere a file in a
  `host_vars/` or `group_vars/` folder below it, or an inventory file by its name (`hosts.ini`), is
  the live inventory or a copy of one: `undecided`;
* anything else under the folder is a record, as before.

Only a preset's classes are read so: a record class of your own is your decision and always holds.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from renamer import lazy_re

Verdict = Literal["record", "live", "undecided"]

# The folders holding roles or charts by the name of what they do, and what a role's or chart's own
# folders are called.
_UNIT_DIRS = {
    "roles": frozenset({"tasks", "handlers", "defaults", "vars", "meta", "templates", "files", "library",
                        "module_utils", "filter_plugins", "lookup_plugins", "tests"}),
    "charts": frozenset({"templates", "charts", "crds", "files", "ci"}),
}
# An inventory's vars folders: `host_vars/backup/` holds the vars of the host named `backup`, and
# Ansible reads every file below it (break-it round 9, #2).
_VARS_DIRS = frozenset({"host_vars", "group_vars"})
# Folders of Ansible inventories, one per concern (`inventories/backup/`, break-it round 16, #2).
_INVENTORY_DIRS = frozenset({"inventories", "inventory"})
# An Ansible inventory file by its name (`hosts`, `hosts.ini`, `inventory.yml`).
# A bare `hosts` is as often a copy of /etc/hosts: its content decides (`live_by_content`).
_INVENTORY_NAME = lazy_re.compile(r"(?i)^(?:hosts\.(?:ini|ya?ml)|inventory(?:\.(?:ini|ya?ml|cfg|toml))?)$")
_INI_GROUP = lazy_re.compile(rb"(?m)^\[[^\]\s]+\][ \t]*\r?$")
# An INI inventory under any name (`prod.ini`, `lab`): a `[group]` header over a bare host line.
_INI_HOSTS = lazy_re.compile(rb"(?m)^\[[^\]\s:]+\][ \t]*\r?\n(?:[ \t]*(?:[#;].*)?\r?\n)*"
                        rb"[A-Za-z0-9_][\w.-]*[ \t]*\r?$")
# An Ansible role's folders (and a Helm chart's templates/): what runs, never a note.
_ROLE_PARTS = frozenset({"tasks", "handlers", "defaults", "vars", "meta", "templates"})
# Live by their name alone.
_LIVE_NAME = lazy_re.compile(
    r"(?i)^(?:(?:docker-)?compose(?:[._-][\w.-]+)?\.ya?ml|[\w.-]+\.compose\.ya?ml|\.env"
    r"|Dockerfile(?:\.[\w.-]+)?|Containerfile|[\w.-]+\.dockerfile|kustomization\.ya?ml|Chart\.ya?ml"
    r"|helmfile\.ya?ml|ansible\.cfg|[\w.-]+\.(?:tf|tfvars|nomad|j2|jinja2?)"
    r"|[\w.@-]+\.(?:service|timer|socket|path|mount|automount|target))$")
# A dated folder name (2024-05-01, 20240501), as classify.FILE_DATE reads a file name.
_DATED = lazy_re.compile(r"(?<!\d)\d{4}-?\d{2}-?\d{2}(?!\d)")
# Live by their content (as scaffold_live.py reads them for init).
_YAML = lazy_re.compile(r"(?i)\.ya?ml$")
_MANIFEST = (re.compile(rb"(?m)^apiVersion:[ \t]*\S"), re.compile(rb"(?m)^kind:[ \t]*\S"))
_COMPOSE = lazy_re.compile(rb"(?m)^services:[ \t]*(?:#.*)?\r?$")
_PLAY = lazy_re.compile(rb"(?m)^-[ \t]+(?:hosts:|import_playbook:|ansible\.builtin\.import_playbook:)"
                   rb"|^-[ \t]+name:.*\r?\n[ \t]+hosts:")
# An Ansible inventory by its content: YAML's top-level `all:` over `hosts:`/`children:`, or an INI
# host line setting a connection variable (`nas ansible_host=10.0.40.30`): break-it round 16, #2.
_YAML_INVENTORY = (re.compile(rb"(?m)^all:[ \t]*(?:#.*)?\r?$"),
                   re.compile(rb"(?m)^[ \t]+(?:hosts|children):"))
_INI_INVENTORY = lazy_re.compile(rb"(?m)^[^\s#;=\[]+(?:[ \t]+\w+=\S+)*[ \t]+"
                            rb"ansible_(?:host|user|port|connection)=\S+(?:[ \t]+\w+=\S+)*[ \t]*\r?$")
_WILDCARD = lazy_re.compile(r"(?<!\\)[*?\[]")
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
        below = parts[depth + 1:]
        unit = _unit(parts, depth)
        if unit is not None:
            return Claim("live", unit, folder)
        copied = copy_by_path(below)
        if copied is not None:
            return Claim("record", copied, folder)
        inventory = _inventory(parts, depth)
        if inventory is not None:
            return Claim("live", inventory, folder)
        why = structure(below)
        return Claim("undecided", why, folder) if why else Claim("record", "", folder)


def _unit(parts: list[str], depth: int) -> str | None:
    """Why the folder at `depth` is, or lies inside, an Ansible role or a Helm chart (`roles/backup/`
    holding `tasks/` or files of its own, `roles/web/files/backup/`), or None: a role folder holding
    other folders (`roles/archive/oldrole/tasks/`) is a folder of roles, no role."""
    for at in range(depth):
        kind = parts[at].lower()
        if kind in _VARS_DIRS:  # Ansible's own layout: whatever the host or group is called
            owner = "host" if kind == "host_vars" else "group"
            if at + 1 == depth:
                return f"the vars of the Ansible {owner} {parts[depth]}, not a copy by its name"
            return f"inside the vars of the Ansible {owner} {parts[at + 1]}, {'/'.join(parts[: at + 2])}/"
        if kind not in _UNIT_DIRS or at + 1 > depth:
            continue
        what = "an Ansible role" if kind == "roles" else "a Helm chart"
        role = "/".join(parts[: at + 2])
        inside = parts[at + 2] if len(parts) > at + 3 else None  # the role's own folder under it, if any
        if inside is not None and inside not in _UNIT_DIRS[kind]:
            continue
        if at + 1 == depth:
            return f"{what} named after what it does"
        return f"inside {what}, {role}/"
    return None


def _inventory(parts: list[str], depth: int) -> str | None:
    """Why the folder at `depth` is, or lies inside, an Ansible inventory named after its concern
    (`inventories/backup/`, `inventory/archive/group_vars/all.yml`: break-it round 16, #2), or None.
    Asked after the dated folders and machine trees, which still say copy."""
    for at in range(depth):
        if parts[at].lower() in _INVENTORY_DIRS:
            if at + 1 == depth:
                return f"an Ansible inventory named after what it is for, in {'/'.join(parts[: at + 1])}/"
            return f"inside the Ansible inventory {'/'.join(parts[: at + 2])}/"
    return None


def copy_by_path(below: list[str]) -> str | None:
    """Why a file is a copy by its path below a folder named for copies (`below`: its folders and
    name under it), or None: a dated folder (`2024-05-01/compose.yml`), or a machine's file tree
    (`host1/etc/systemd/system/x.service`, `etc/nginx/nginx.conf`)."""
    folders = below[:-1]
    if any(_DATED.search(part) for part in folders):
        return "a dated folder"
    if any(part in _TREE for part in folders[:2]):
        return "a machine's file tree"
    return None


def in_unit(folder: str) -> bool:
    """Whether `folder` (`roles/backup`, `roles/web/files/backup`) is an Ansible role or a Helm chart,
    or lies inside one: named after what it does, never a copy by its name."""
    parts = folder.removesuffix("/**").split("/")
    return _unit([*parts, ""], len(parts) - 1) is not None


def structure(below: list[str]) -> str | None:
    """What makes a file live configuration by its path (`below`: its folders and name under the
    folder the preset names), or None."""
    name = below[-1]
    part = next((p for p in below[:-1] if p in _ROLE_PARTS), None)
    if part == "templates":
        return "in a templates/ folder, an Ansible role's or a Helm chart's"
    if part is not None:
        return f"in a {part}/ folder, an Ansible role's"
    # an inventory's vars or hosts file: the live inventory or a copy of one (break-it round 16, #2)
    vars_dir = next((p for p in below[:-1] if p.lower() in _VARS_DIRS), None)
    if vars_dir is not None:
        return (f"in a {vars_dir}/ folder, an Ansible inventory's variables (the live inventory, or a "
                "copy of one)")
    if _INVENTORY_NAME.match(name):
        return f"{name} is an Ansible inventory by its name (the live inventory, or a copy of one)"
    if _LIVE_NAME.match(name):
        return f"{name} is live configuration by its name"
    return None


def live_by_content(name: str, data: bytes, executable: bool) -> str | None:
    """What makes a file the preset keeps by its folder's name live by its content, or None:
    an executable or a `#!` script, a Kubernetes manifest (top-level `apiVersion` and `kind`), an
    Ansible playbook (a play with `hosts:`), a compose file under another name (top-level
    `services:`), an Ansible inventory under another name (YAML's `all:` over `hosts:`/`children:`,
    an INI host line with `ansible_host=`...: break-it round 16, #2). Asked only of a file that
    holds an old value, whose bytes the sweep has read (break-it round 9, #2): the path alone cannot
    say, the content says it is something that runs."""
    if data.startswith(b"#!"):
        return f"{name} is a script (its #! line)"
    if executable:
        return f"{name} is executable"
    if name.lower() == "hosts" and _INI_GROUP.search(data):
        return f"{name} is an Ansible inventory (a [group] header; /etc/hosts has none)"
    if (name.lower().endswith(".ini") or "." not in name) and _INI_HOSTS.search(data):
        return f"{name} is an Ansible inventory (a [group] of bare host lines)"
    if b"ansible_" in data and _INI_INVENTORY.search(data):
        return f"{name} is an Ansible inventory (a host line with ansible_ connection variables)"
    if not _YAML.search(name):
        return None
    if b"all:" in data and all(p.search(data) for p in _YAML_INVENTORY):
        return f"{name} is an Ansible inventory (all: with hosts: or children:)"
    if all(p.search(data) for p in _MANIFEST):
        return f"{name} is a Kubernetes manifest (apiVersion and kind)"
    if _PLAY.search(data):
        return f"{name} is an Ansible playbook (a play with hosts:)"
    if _COMPOSE.search(data):
        return f"{name} is a compose file (top-level services:)"
    return None


def named_folder(pattern: str) -> str | None:
    """The folder a `current` pattern names literally (`stacks/backup/**` -> `stacks/backup`): its
    segments before the first wildcard, for a pattern anchored by a `/` before its end; None for
    `**`, `*.yml`, a negation or an unanchored name. Such a pattern is your decision about that
    folder, and beats a preset's guess from the folder's name."""
    if pattern.startswith("!") or "/" not in pattern.rstrip("/"):
        return None
    literal: list[str] = []
    for segment in pattern.strip("/").split("/"):
        if _WILDCARD.search(segment):
            break
        literal.append(re.sub(r"\\(.)", r"\1", segment))
    return "/".join(literal) or None


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
