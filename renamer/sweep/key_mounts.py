"""Where a key written in one place is read under another path (break-it round 6, findings 1, 2, 5).

* A Terraform module call's arguments: `module "dns" { source = "./modules/dns"  hosts = { pug =
  ... } }` is `var.hosts.pug` inside modules/dns (a local source only, `./` or `../`: a registry
  module is not the repo's). Each caller gives the module its own value: the callers' keys are
  what the module's `var.` references read.
* A Helm parent chart's values (Helm merges them over the subchart's): chart/values.yaml's
  `web.hosts.pug` is `.Values.hosts.pug` in chart/charts/web, its `global.x` is `.Values.global.x`
  in every subchart, and a library chart (`type: library`) renders with its parent's values as
  they are (`$.Values.hosts.pug`).
* A data file loaded by a relative path (`lookup('file', 'data/net.yml')`, Terraform's
  `file("${path.module}/data/net.yml")`): the file is the one Ansible's search path (the role's
  `files/`, `tasks/` and folder, then the play's `files/` and folder) or the module's folder
  gives, never another file of the same name; where only a variable leads to it, the one file of
  that name, else every candidate (which one is read cannot be told).

Pure but for `is_file` probes: paths in, paths out.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from renamer import lazy_re
from renamer.formats.yaml_source import parse_yaml_text

_MODULE = lazy_re.compile(r'^[ \t]*module[ \t]+"(?P<label>[^"\n]+)"[ \t]*\{')
_SOURCE = lazy_re.compile(r'^[ \t]*source[ \t]*=[ \t]*"(?P<source>[^"\n]*)"')
_LIBRARY = lazy_re.compile(r"^type[ \t]*:[ \t]*['\"]?library['\"]?[ \t]*(?:#.*)?$", re.MULTILINE)
_NAME = re.compile(r"^name[ \t]*:[ \t]*['\"]?(?P<name>[^'\"#\s]+)", re.MULTILINE)
# A template's variable prefix before a loaded path: `{{ role_path }}/`, `${path.module}/`.
_PREFIX = lazy_re.compile(r"^(?:\{\{\s*(?P<jinja>[A-Za-z_]\w*)\s*\}\}|\$\{\s*(?P<hcl>[A-Za-z_][\w.]*)\s*\})/")


def module_calls(text: str) -> list[tuple[int, int, str, str]]:
    """Each `module "label" { ... }` block of a `.tf` file: its first and last 1-based line, its
    label and its `source` ("" where it has none)."""
    out = []
    lines = text.split("\n")
    number = 0
    while number < len(lines):
        found = _MODULE.match(lines[number])
        if found is None:
            number += 1
            continue
        depth, source, first = 0, "", number
        while number < len(lines):
            line = re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', lines[number].split("#")[0].split("//")[0])
            if depth == 1 and (src := _SOURCE.match(lines[number])) is not None:
                source = src.group("source")
            depth += line.count("{") - line.count("}")
            if depth <= 0:
                break
            number += 1
        out.append((first + 1, number + 1, found.group("label"), source))
        number += 1
    return out


def module_folder(rel: str, source: str) -> str | None:
    """The repo folder a call in `rel` with `source` names; None for a source not in the repo."""
    if not source.startswith(("./", "../")):
        return None
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(rel), source))
    return None if joined.startswith("../") or joined == ".." else ("" if joined == "." else joined)


def subchart_name(chart: str, text: str) -> set[str]:
    """The names a parent's values give a subchart's block: its folder's, and its Chart.yaml's."""
    names = {posixpath.basename(chart)}
    found = _NAME.search(text)
    if found is not None:
        names.add(found.group("name"))
    return names


@dataclass(frozen=True)
class Dependency:
    """One entry of a Chart.yaml's `dependencies` (break-it round 7, finding 7)."""

    folder: str  # the subchart's folder in the repo: `file://` repository, else charts/<name>
    names: frozenset[str]  # the parent's values block it reads: its alias where it has one, and its name
    # `import-values`: (child path, parent path) pairs; a plain string `x` is (exports.x, top)
    imports: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]


def dependencies(chart: str, chart_yaml: str) -> list[Dependency]:
    """The dependencies chart folder `chart` declares in its Chart.yaml text."""
    top = parse_yaml_text(chart_yaml, pure=True)  # a Chart.yaml is small
    entries = top.get("dependencies") if isinstance(top, dict) else None
    out = []
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            continue
        name = entry["name"]
        repository = entry.get("repository")
        local = (repository[len("file://"):]
                 if isinstance(repository, str) and repository.startswith("file://") else None)
        folder = posixpath.normpath(posixpath.join(chart, local) if local
                                    else posixpath.join(chart, "charts", name))
        names = {name} | ({entry["alias"]} if isinstance(entry.get("alias"), str) else set())
        out.append(Dependency("" if folder == "." else folder, frozenset(names),
                              _imports(entry.get("import-values"))))
    return out


def _imports(value: Any) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    out = []
    for item in value if isinstance(value, list) else []:
        if isinstance(item, str):
            out.append((("exports", *item.split(".")), ()))
        elif (isinstance(item, dict) and isinstance(item.get("child"), str)
              and isinstance(item.get("parent"), str)):
            parent = tuple(p for p in item["parent"].split(".") if p)
            out.append((tuple(item["child"].split(".")), parent))
    return tuple(out)


def is_library(chart_yaml: str) -> bool:
    return _LIBRARY.search(chart_yaml) is not None


def parent_of(chart: str) -> str | None:
    """The folder a subchart sits under (`chart` for `chart/charts/web`), else None."""
    parent, _, _ = chart.rpartition("/")
    holder, _, name = parent.rpartition("/")
    if name != "charts":
        return None
    return holder


def loaded_files(rel: str, loaded: str, hcl: bool, files: Collection[str],
                 exists: Callable[[str], bool]) -> tuple[list[str], bool]:
    """The repo files a load of path `loaded` in file `rel` may read, and whether the load's own
    search path decides it (False: only a name's likeness, and more than one is ambiguous)."""
    loaded = loaded.replace("\\", "/")
    folder = posixpath.dirname(rel)
    prefix = _PREFIX.match(loaded)
    if prefix is not None:
        variable = prefix.group("jinja") or prefix.group("hcl")
        loaded = loaded[prefix.end():]
        if variable in ("path.module", "path.root") and hcl:
            return _existing([_join(folder, loaded)], exists), True
        role = _role(rel)
        if variable == "role_path" and role is not None:
            return _existing([_join(role, loaded)], exists), True
        if variable == "playbook_dir" and role is None:
            return _existing([_join(folder, loaded)], exists), True
    elif "{{" not in loaded and "${" not in loaded and not loaded.startswith("/"):
        if hcl:  # Terraform runs in the root module's folder; `path.module` is the usual spelling
            return _existing([_join(folder, loaded)], exists), True
        role = _role(rel)
        search = ([f"{role}/files", f"{role}/tasks", role] if role is not None else [])
        search += [f"{folder}/files" if folder else "files", folder]
        # Ansible takes the first that exists: a file there holding no key still decides it.
        return _existing([_join(base, loaded) for base in search], exists)[:1], True
    tail = loaded.split("}/")[-1].lstrip("./")
    return sorted(r for r in files if r == tail or r.endswith("/" + tail)), False


def _role(rel: str) -> str | None:
    """The role folder of a file in `roles/<name>/...`."""
    parts = rel.split("/")
    if "roles" in parts[:-2]:
        at = len(parts) - 1 - parts[::-1].index("roles")
        if at + 2 < len(parts):
            return "/".join(parts[:at + 2])
    return None


def _join(folder: str, path: str) -> str:
    joined = posixpath.normpath(posixpath.join(folder, path)) if folder else posixpath.normpath(path)
    return joined


def _existing(paths: list[str], exists: Callable[[str], bool]) -> list[str]:
    return [p for p in dict.fromkeys(paths) if not p.startswith("../") and exists(p)]
