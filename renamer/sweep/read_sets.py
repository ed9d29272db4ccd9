"""Files one tool reads as one inventory or one project, wherever the pointer stands.

An Ansible inventory is every source `inventory =` in an `ansible.cfg`, `ANSIBLE_INVENTORY` or
the `-i` flags of one command line name: a folder is every file below it (Ansible reads a
folder's files and subfolders, `host_vars/`, `group_vars/` and dot names left out), and a host is
one identity across all of them: `pug` in `inventory/web.yml` renamed onto the `wolf` of
`inventory/db.ini` makes two machines one host, and `ansible-inventory` lists one (break-it
round 17, #4a). A compose project is every file `COMPOSE_FILE` in a `.env`, the `-f` flags of one
`docker compose` line, a compose file's `include:` and the default `compose.override.yaml`
beside `compose.yaml` name; compose merges services (and volumes, networks, configs, secrets)
of one name across them, so `pug` in `base.yaml` renamed onto the `wolf` of `db.yaml` is one
service (#4b). Break-it round 19, #6: `docker stack deploy -c a.yml -c b.yml` (stack merges its
compose files as compose does), ansible-navigator's `ansible.inventory.entries` (one inventory),
and an ssh config with the files its `Include` names (ssh takes the first `Host wolf` block that
matches, wherever it stands: the other machine can no longer be reached by name). Each set is
checked place by place (`yaml_rt.merged_identities`): one host or
service named again on purpose in two files (an override) and renamed together stays one.
"""

from __future__ import annotations

import posixpath
import shlex
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from renamer import lazy_re
from renamer.formats import siblings
from renamer.formats.yaml_rt import compose_names, inventory_host_lines, merged_identities
from renamer.formats.yaml_source import parse_yaml_text
from renamer.sweep.keyed import line_keys
from renamer.sweep.tool_names import ssh_included_files
from renamer.tool_names import ssh_includes

_READ = 256 * 1024
_CONFIGS = ("ansible.cfg", ".ansible.cfg")
# Ansible's inventory folder: what it never reads as a source (INVENTORY_IGNORE_EXTENSIONS,
# INVENTORY_IGNORE_PATTERNS' defaults).
_SKIPPED_PARTS = frozenset({"host_vars", "group_vars", "vars_plugins"})
_SKIPPED_ENDS = (".orig", ".cfg", ".retry", ".pyc", ".pyo", ".swp", ".bak", "~", ".rpm", ".md", ".txt",
                 ".rst")
# Where a command line naming an inventory or compose files stands.
_SCRIPTS = lazy_re.compile(
    r"(?:^|/)(?:[^/]+\.(?:sh|bash|mk|ps1)|Makefile|GNUmakefile|justfile|Justfile|\.justfile"
                      r"|Taskfile\.ya?ml|\.gitlab-ci\.ya?ml|\.github/workflows/[^/]+\.ya?ml|Jenkinsfile"
                      r"|\.woodpecker[^/]*\.ya?ml|\.drone\.ya?ml)$")
_INVENTORY_CFG = lazy_re.compile(r"(?m)^[ \t]*inventory[ \t]*[=:][ \t]*(?P<value>[^\n#;]+)")
_INVENTORY_ENV = lazy_re.compile(r"ANSIBLE_INVENTORY[\"']?[ \t]*[=:][ \t]*[\"']?(?P<value>[^\s\"']+)")
_COMPOSE_ENV = lazy_re.compile(
    r"(?m)^[ \t]*(?:export[ \t]+)?COMPOSE_FILE[ \t]*[=:][ \t]*[\"']?(?P<value>[^\s\"'#]+)")
_COMPOSE_SEPARATOR = lazy_re.compile(
    r"(?m)^[ \t]*(?:export[ \t]+)?COMPOSE_PATH_SEPARATOR[ \t]*=[ \t]*[\"']?(?P<sep>[^\s\"'])")
_COMMAND = lazy_re.compile(r"(?m)^.*(?:ansible(?:-playbook|-inventory)?|docker[ -]compose|podman[ -]compose"
                      r"|docker[ \t]+stack[ \t]+(?:deploy|up))\b.*$")
_NAVIGATOR = lazy_re.compile(r"\.?ansible-navigator\.(?:ya?ml|json)")
_COMPOSE_NAMES = ("compose.yaml", "compose.yml", "docker-compose.yaml", "docker-compose.yml")
_COMPOSE_LIKE = lazy_re.compile(r"(?:docker-)?compose[.-][\w.-]*\.ya?ml")
_OVERRIDES = ("compose.override.yaml", "compose.override.yml", "docker-compose.override.yaml",
              "docker-compose.override.yml")


def _read(root: Path, rel: str) -> str | None:
    try:
        return (root / rel).read_bytes()[:_READ].decode("utf-8", "replace")
    except OSError:
        return None


def _resolve(listed: set[str], folders: set[str], bases: Iterable[str], entry: str) -> str | None:
    """`entry` (a path as a tool is given it) against each of `bases` in turn: the first that
    names a listed file or a folder holding listed files."""
    entry = entry.strip().strip("\"'")
    if not entry or "://" in entry or "{" in entry or "$" in entry or entry.startswith(("/", "~")):
        return None
    for base in bases:
        target = posixpath.normpath(posixpath.join(base, entry) if base else entry)
        if target.startswith("../"):
            continue
        target = "" if target == "." else target
        if target in listed or target in folders:
            return target
    return None


def _below(paths: list[str], folder: str) -> list[str]:
    prefix = f"{folder}/" if folder else ""
    out = []
    for path in paths:
        if not path.startswith(prefix):
            continue
        parts = path[len(prefix):].split("/")
        if any(p.startswith(".") or p in _SKIPPED_PARTS for p in parts) or path.endswith(_SKIPPED_ENDS):
            continue
        out.append(path)
    return out


def _folders(paths: Iterable[str]) -> set[str]:
    out: set[str] = set()
    for path in paths:
        parts = path.split("/")[:-1]
        out.update("/".join(parts[:depth]) for depth in range(1, len(parts) + 1))
    return out


def _flags(line: str, flags: tuple[str, ...]) -> list[str]:
    """The values of `flags` (`-i X`, `-iX`, `--inventory=X`) on one command line."""
    try:
        words = shlex.split(line, comments=True)
    except ValueError:
        words = line.split()
    out = []
    for index, word in enumerate(words):
        for flag in flags:
            if word == flag and index + 1 < len(words):
                out.append(words[index + 1])
            elif flag.startswith("--") and word.startswith(flag + "="):
                out.append(word[len(flag) + 1:])
            elif not flag.startswith("--") and word.startswith(flag) and len(word) > len(flag):
                out.append(word[len(flag):])
    return out


def inventory_sets(paths: Iterable[str], root: Path) -> list[tuple[str, list[str]]]:
    """(where the pointer stands, the files of one inventory) for each `inventory =` of an
    `ansible.cfg`, each `ANSIBLE_INVENTORY=` and each command line's `-i` flags, where they name
    two or more files together (a folder, or a list)."""
    ordered = sorted(paths)
    listed = set(ordered)
    folders = _folders(ordered)
    out: dict[tuple[str, ...], str] = {}

    def add(where: str, base: str, entries: Iterable[str]) -> None:
        files: list[str] = []
        for entry in entries:
            target = _resolve(listed, folders, (base, ""), entry)
            if target is None:
                continue
            files += [target] if target in listed else _below(ordered, target)
        files = list(dict.fromkeys(files))
        if len(files) > 1:
            out.setdefault(tuple(files), where)

    for rel in ordered:
        name = rel.rpartition("/")[2]
        base = rel.rpartition("/")[0]
        if name in _CONFIGS or _SCRIPTS.search(rel) or name == ".env" or name.endswith(".env"):
            text = _read(root, rel)
            if text is None:
                continue
            if name in _CONFIGS:
                for found in _INVENTORY_CFG.finditer(text):
                    add(rel, base, found.group("value").split(","))
            for found in _INVENTORY_ENV.finditer(text):
                add(rel, base, found.group("value").split(","))
            if _SCRIPTS.search(rel):
                for found in _COMMAND.finditer(text):
                    if "ansible" in found.group():
                        add(rel, base, _flags(found.group(), ("-i", "--inventory", "--inventory-file")))
        if _NAVIGATOR.fullmatch(name):
            add(rel, base, _navigator_entries(root, rel))
    return [(where, list(files)) for files, where in sorted(out.items(), key=lambda item: item[1])]


def compose_sets(paths: Iterable[str], root: Path) -> list[tuple[str, list[str]]]:
    """(where the pointer stands, the files of one compose project) for each `COMPOSE_FILE` of a
    `.env` or script, each `docker compose` line's `-f` flags, each compose file's `include:`
    (one level and deeper), and a default compose file beside its default override."""
    ordered = sorted(paths)
    listed = set(ordered)
    folders = _folders(ordered)
    out: dict[tuple[str, ...], str] = {}

    def add(where: str, files: list[str]) -> None:
        files = list(dict.fromkeys(files))
        if len(files) > 1:
            out.setdefault(tuple(files), where)

    def resolved(base: str, entries: Iterable[str]) -> list[str]:
        found = (_resolve(listed, folders, (base, ""), entry) for entry in entries)
        return [f for f in found if f is not None and f in listed]

    for rel in ordered:
        base, _, name = rel.rpartition("/")
        if name == ".env" or name.endswith(".env") or _SCRIPTS.search(rel):
            text = _read(root, rel)
            if text is None:
                continue
            separator = _COMPOSE_SEPARATOR.search(text)
            for found in _COMPOSE_ENV.finditer(text):
                sep = separator.group("sep") if separator else (";" if ";" in found.group("value") else ":")
                add(rel, resolved(base, found.group("value").split(sep)))
            if _SCRIPTS.search(rel):
                for found in _COMMAND.finditer(text):
                    if "compose" in found.group():
                        add(rel, resolved(base, _flags(found.group(), ("-f", "--file"))))
                    if "stack" in found.group():  # `docker stack deploy -c a.yml -c b.yml`
                        add(rel, resolved(base, _flags(found.group(), ("-c", "--compose-file"))))
        if name in _COMPOSE_NAMES:
            override = next((f"{base}/{o}" if base else o for o in _OVERRIDES
                             if (f"{base}/{o}" if base else o) in listed), None)
            if override is not None:
                add(rel, [rel, override])
        if name in _COMPOSE_NAMES or name in _OVERRIDES or _COMPOSE_LIKE.fullmatch(name):
            files = [rel]
            _includes(root, rel, listed, files, set())
            add(rel, files)
    return [(where, list(files)) for files, where in sorted(out.items(), key=lambda item: item[1])]


def _navigator_entries(root: Path, rel: str) -> list[str]:
    """The inventories an ansible-navigator settings file names: `ansible.inventory.entries`
    (version 2), `inventories` (version 1)."""
    text = _read(root, rel)
    data: Any = parse_yaml_text(text) if text is not None and "inventor" in text else None
    top = data.get("ansible-navigator") if isinstance(data, dict) else None
    if not isinstance(top, dict):
        return []
    ansible = top.get("ansible")
    inventory = ansible.get("inventory") if isinstance(ansible, dict) else None
    entries = inventory.get("entries") if isinstance(inventory, dict) else top.get("inventories")
    return [e for e in entries if isinstance(e, str)] if isinstance(entries, list) else []


def ssh_sets(paths: Iterable[str], root: Path) -> list[tuple[str, list[str]]]:
    """(the including ssh config, it and the files its `Include` lines name, in ssh's order) for
    each config of the repo (a path naming ssh) that includes another file of the repo."""
    ordered = sorted(paths)
    listed = set(ordered)
    out = []
    for rel in ordered:
        if "ssh" not in rel.lower():
            continue
        text = _read(root, rel)
        if text is None or "nclude" not in text:
            continue
        files = [rel]
        for _start, _end, patterns in ssh_includes(text.encode()):
            files += [f for f in ssh_included_files(ordered, listed, rel, patterns) if f not in files]
        if len(files) > 1:
            out.append((rel, files))
    return out


def _ssh_places(path: str, text: str) -> dict[tuple[str, str], list[tuple[str, int]]]:
    out: dict[tuple[str, str], list[tuple[str, int]]] = {}
    for index, found in line_keys(text.split("\n"), records=False).items():
        for one in found:
            if one.key.what == "ssh Host block" and not any(c in one.key.name for c in "*?!"):
                out.setdefault(("ssh Host block", one.key.name), []).append((path, index + 1))
    return out


def ssh_collision(where: str, texts: Mapping[str, tuple[str, str]]) -> tuple[str, int, str] | None:
    """(path, line, why) where two `Host` blocks of one ssh config and the files it includes name
    one host after the edits, in two files: ssh applies the first, the other machine is lost."""
    merged = _merged(texts, _ssh_places)
    if merged is None:
        return None
    _, name, places, (path, line) = merged
    listed = ", ".join(f"{p}:{n}" for p, n in places)
    return (path, line, f"after the rename the ssh Host block {name!r} would stand twice in the files "
                        f"{where} reads as one config through `Include` ({listed}): ssh applies the first "
                        "that matches, so the other machine is no longer reached by that name; a renamed "
                        "Host would collide with an existing one")


def _includes(root: Path, rel: str, listed: set[str], into: list[str], seen: set[str]) -> None:
    """The files a compose file's `include:` names (a string, `path:` a string or a list), and
    theirs in turn."""
    if rel in seen:
        return
    seen.add(rel)
    text = _read(root, rel)
    if text is None or "include" not in text:
        return
    data: Any = parse_yaml_text(text)
    if not isinstance(data, dict) or not isinstance(data.get("include"), list):
        return
    base = rel.rpartition("/")[0]
    for entry in data["include"]:
        named = entry.get("path") if isinstance(entry, dict) else entry
        for one in named if isinstance(named, list) else [named]:
            if not isinstance(one, str):
                continue
            target = _resolve(listed, set(), (base,), one)
            if target is not None and target in listed:
                into.append(target)
                _includes(root, target, listed, into, seen)


def _inventory_places(path: str, text: str) -> dict[tuple[str, str], list[tuple[str, int]]]:
    yaml_hosts = inventory_host_lines(text)
    if yaml_hosts is not None:
        hosts = yaml_hosts
    elif siblings.is_ini_inventory(text):
        hosts = siblings.inventory_hosts(text)
    else:
        hosts = []
    out: dict[tuple[str, str], list[tuple[str, int]]] = {}
    for host, line in hosts:
        out.setdefault(("the Ansible inventory host", host), []).append((path, line))
    return out


# What `collisions.distinct` appends to each place of a new value where no version before the move
# is known (verify after a move by hand).
_APART = lazy_re.compile(r"-renamer\d+\.\d+$")


def _merged(texts: Mapping[str, tuple[str, str]], places: Any) -> tuple[str, str, list[Any], Any] | None:
    """The first identity two places of two files hold after the edits, which held two before.
    Where the text before is not known (each new value's places spelled apart), one name in two
    files is one identity: an override naming its base's service again, a host listed in a
    second inventory file, is what these readers are for, and cannot be told from a collision."""
    before: dict[tuple[str, str], list[tuple[str, int]]] = {}
    after: dict[tuple[str, str], list[tuple[str, int]]] = {}
    for path, (old, new) in sorted(texts.items()):
        for (what, name), lines in places(path, old).items():
            before.setdefault((what, _APART.sub("", name)), []).extend(lines)
        for key, lines in places(path, new).items():
            after.setdefault(key, []).extend(lines)
    merged = merged_identities(before, after)
    if merged is None or len({p for p, _ in merged[2]}) < 2:
        return None
    return merged


def inventory_collision(where: str, texts: Mapping[str, tuple[str, str]]) -> tuple[str, int, str] | None:
    """(path, line, why) where two hosts of one inventory (its files: path -> (before, after))
    are one host name after the edits, in two files; None otherwise."""
    merged = _merged(texts, _inventory_places)
    if merged is None:
        return None
    _, name, places, (path, line) = merged
    listed = ", ".join(f"{p}:{n}" for p, n in places)
    return (path, line, f"after the rename the Ansible inventory host {name!r} would stand for two machines "
                        f"in the files {where} makes one inventory ({listed}): Ansible keeps one host; a "
                        "renamed host would collide with an existing one")


def _compose_places(path: str, text: str) -> dict[tuple[str, str], list[tuple[str, int]]]:
    return {key: [(path, line) for line in lines] for key, lines in compose_names(text).items()}


def compose_collision(where: str, texts: Mapping[str, tuple[str, str]]) -> tuple[str, int, str] | None:
    """(path, line, why) where two services (volumes, networks, configs, secrets) of one compose
    project (its files: path -> (before, after)) are one name after the edits, in two files."""
    merged = _merged(texts, _compose_places)
    if merged is None:
        return None
    what, name, places, (path, line) = merged
    listed = ", ".join(f"{p}:{n}" for p, n in places)
    return (path, line, f"after the rename the compose {what} {name!r} would stand twice in the files "
                        f"{where} makes one project ({listed}): compose merges them into one; "
                        f"a renamed {what} would collide with an existing one")
