"""A renamed mapping key and the references to it move together (break-it round 4, finding 2).

`net: {hosts: {pug: {ip: ...}}}` in group_vars is a key the sweep renames (`pug -> wolf`); the
template's `{{ net.hosts.pug.ip }}` reads it by path, and a `.` stands before the name, so the
plain rules never match it (DESIGN's left boundary), and after the sweep it reads a key that is
gone. Each reference to a key named by an old (or new) host name (renamer/key_refs.py) is
compared with the keys the repo defines by that name (renamer/key_paths.py, every YAML, JSON,
TOML, INI and HCL file holding the name, found by git grep once per scanner):

* its path is a key the sweep renames (a current-state file's key, on no exempt line), or the
  new name's key already stands at that path (the key moved before, the reference did not):
  the reference **follows**, rewritten by this sweep (a residual that fails verify until then,
  whose note names the key's file:line);
* its path is a key that keeps the old name (a record's, an exempt line's, an unclassified
  file's) and no renamed one: the reference is **kept** with it (`key-of-record`), and a quoted
  one (`net.hosts['pug']`), which the plain rules would rewrite, is not;
* its path is no key of the repo while a key of that name is renamed somewhere (a partial
  path `hosts.pug` beside `net.hosts.pug`, a variable part `net[site].pug`, an alias set in a
  template): which key it reads cannot be told, a residual `key-reference` naming both lines;
  nothing is rewritten there;
* no key of the repo has that name: no finding here (the plain rules, and the near-miss pass).

Two mappings with a key of one name are told apart by their whole path, never by the name; and
two charts or two Terraform modules by where they stand (break-it round 5, finding D): a
reference in a Helm chart (the nearest folder above holding `Chart.yaml` or `values.yaml`) reads
only the keys of that chart, a sub-chart being a chart of its own; one in a `.tf` file reads
only its module's (its folder's `.tf` and `.tfvars` files, and a `.tfvars` or data file outside
every module, which any module may be given). `charts/db`'s `hosts.pug` kept while
`charts/web`'s is renamed keeps db's references.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace
from typing import Literal

from renamer import key_paths, key_refs, vcs_status
from renamer.classify import CURRENT, EXCLUDED, RECORD
from renamer.key_paths import Dialect
from renamer.key_refs import ANY, KeyRef
from renamer.occurrences import Match
from renamer.project import LoadedProject

Fate = Literal["moves", "stays", "new"]
_DIALECTS: dict[str, Dialect] = {".yml": "yaml", ".yaml": "yaml", ".json": "yaml", ".toml": "toml",
                                 ".ini": "ini", ".cfg": "ini", ".tf": "hcl", ".tfvars": "hcl", ".hcl": "hcl"}
# Ansible's folders of YAML files that need no suffix.
_YAML_FOLDERS = ("group_vars/", "host_vars/", "defaults/", "vars/")
_READ_LIMIT = 4 * 1024 * 1024
# A line loading a data file into a variable (git grep's extended regex, then Python's).
_LOADS = r"(from_yaml|from_json|yamldecode|jsondecode)"
_BINDING = re.compile(r"""^\s*(?P<name>[A-Za-z_]\w*)\s*[:=]""")
_LOADED = re.compile(r"""['"](?P<path>[^'"\n]*\.(?:ya?ml|json))['"]""")
_ALIAS = r"""^\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*["']?\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}["']?\s*$"""


@dataclass(frozen=True)
class KeyDef:
    """A key named by an old or new host name, where it stands and whether the sweep moves it."""

    path: tuple[str, ...]
    rel: str
    line: int
    fate: Fate
    why: str = ""  # what keeps it (a record class, a keep rule), for `stays`

    @property
    def where(self) -> str:
        return f"{self.rel}:{self.line}"

    @property
    def dotted(self) -> str:
        return ".".join(self.path)


def dialect_of(rel: str) -> Dialect | None:
    suffix = os.path.splitext(rel)[1].lower()
    if suffix in _DIALECTS:
        return _DIALECTS[suffix]
    if not suffix and any(f"/{folder}" in f"/{rel}" for folder in _YAML_FOLDERS):
        return "yaml"
    return None


class KeyIndex:
    """The repo's keys named by an old or new host name, read once (lazily) per scanner."""

    def __init__(self, project: LoadedProject) -> None:
        self.project = project
        self.renames = dict(project.matcher.hosts)
        self.olds = frozenset(self.renames)
        self.news = {new: old for old, new in self.renames.items()}
        self._defs: list[KeyDef] | None = None
        self._scoped: dict[str, list[KeyDef]] = {}
        self._charts: dict[str, bool] = {}  # folder -> holds Chart.yaml or values.yaml
        self._modules: dict[str, bool] = {}  # folder -> holds a .tf file

    def defs(self) -> list[KeyDef]:
        if self._defs is None:
            self._defs = self._read()
        return self._defs

    def _read(self) -> list[KeyDef]:
        names = sorted(self.olds | set(self.news))
        if not names:
            return []
        pattern = "|".join(re.sub(r"([.\\+*?\[\](){}|^$])", r"\\\1", n) for n in names)
        listed = vcs_status.worktree_files_holding(self.project.root, pattern)
        files = sorted(listed) if listed is not None else self._walk(names)
        out: list[KeyDef] = []
        for rel in files:
            dialect = dialect_of(rel)
            if dialect is not None:
                out.extend(self._defs_in(rel, dialect, names))
        mounted = self._mounts({d.rel for d in out})
        return out + [replace(d, path=(*prefix, *d.path)) for d in out for prefix in mounted.get(d.rel, ())]

    def _mounts(self, rels: set[str]) -> dict[str, list[tuple[str, ...]]]:
        """The variables a data file is loaded into, as the paths its keys are read under:
        `network: "{{ lookup('file', 'data/net.yml') | from_yaml }}"` (and `net: "{{ network }}"`
        beside it) reads data/net.yml's `hosts.pug` as `network.hosts.pug`; Terraform's
        `network = yamldecode(file("../data/net.yml"))` as `local.network.hosts.pug`."""
        if not rels:
            return {}
        lines = vcs_status.worktree_lines_matching(self.project.root, _LOADS) or []
        bound: dict[str, list[tuple[str, ...]]] = {}
        names: dict[str, str] = {}  # a variable bound to a file -> that file
        for rel, _line, text in lines:
            binding = _BINDING.match(text)
            loaded = _LOADED.search(text)
            if binding is None or loaded is None:
                continue
            tail = loaded.group("path").replace("\\", "/").split("}/")[-1].lstrip("./")
            target = next((r for r in sorted(rels) if r == tail or r.endswith("/" + tail)), None)
            if target is None:
                continue
            variable = binding.group("name")
            hcl = dialect_of(rel) == "hcl"
            bound.setdefault(target, []).append(("local", variable) if hcl else (variable,))
            if not hcl:
                names[variable] = target
        if names:  # `network: "{{ prod_network }}"`: an alias reads the same file
            for _rel, _line, text in vcs_status.worktree_lines_matching(self.project.root, _ALIAS) or []:
                alias = re.match(_ALIAS, text)
                if alias is not None and alias.group(2) in names and alias.group(1) not in names:
                    bound[names[alias.group(2)]].append((alias.group(1),))
        return bound

    def _walk(self, names: list[str]) -> list[str]:
        """Outside git: every file under the root whose suffix is a keyed one."""
        found = []
        for folder, dirs, files in os.walk(self.project.root):
            dirs[:] = [d for d in dirs if d != ".git"]
            for name in files:
                rel = os.path.relpath(os.path.join(folder, name), self.project.root).replace(os.sep, "/")
                if dialect_of(rel) is not None:
                    found.append(rel)
        return found

    def _defs_in(self, rel: str, dialect: Dialect, names: list[str]) -> list[KeyDef]:
        klass = self.project.classifier.classify(rel)
        if klass.status == EXCLUDED:
            return []
        path = self.project.root / rel
        try:
            if path.is_symlink() or path.stat().st_size > _READ_LIMIT:
                return []
            text = path.read_bytes().decode("utf-8", "replace")
        except OSError:
            return []
        found = key_paths.key_defs(text, dialect, names)
        if not found:
            return []
        if rel.endswith((".tfvars", ".tfvars.json")):  # it sets variables: `var.hosts` reads its `hosts`
            found = [replace(d, path=("var", *d.path)) for d in found]
        exempt = (self.project.classifier.line_exemptions(rel, text.split("\n"), [d.line - 1 for d in found])
                  if klass.status == CURRENT else {})
        out = []
        for d in found:
            new = d.path[-1] in self.news and d.path[-1] not in self.olds
            if new:
                if klass.status == CURRENT:
                    out.append(KeyDef(d.path, rel, d.line, "new"))
            elif klass.status == CURRENT and d.line - 1 not in exempt:
                out.append(KeyDef(d.path, rel, d.line, "moves"))
            else:
                why = (exempt[d.line - 1].reason if d.line - 1 in exempt
                       else klass.reason if klass.status == RECORD and klass.reason else klass.status)
                out.append(KeyDef(d.path, rel, d.line, "stays", why))
        return out

    def decide(self, ref: KeyRef, rel: str = "") -> Decision | None:
        return decide(ref, self.renames[ref.name], self.scoped(rel) if rel else self.defs())

    def scoped(self, rel: str) -> list[KeyDef]:
        """The keys a reference in `rel` may read: its chart's, its module's, else all."""
        if rel not in self._scoped:
            defs = self.defs()
            chart = self._chart(rel)
            if chart is not None:
                defs = [d for d in defs if self._chart(d.rel) == chart]
            elif rel.endswith(".tf"):
                module = _folder(rel)
                defs = [d for d in defs if _folder(d.rel) == module or not self._module(_folder(d.rel))
                        or not d.rel.endswith((".tf", ".tfvars", ".tfvars.json"))]
            self._scoped[rel] = defs
        return self._scoped[rel]

    def _chart(self, rel: str) -> str | None:
        """The nearest folder above `rel` holding `Chart.yaml` or `values.yaml` (None: no chart)."""
        folder = _folder(rel)
        while True:
            if folder not in self._charts:
                base = self.project.root / folder
                self._charts[folder] = ((base / "Chart.yaml").is_file() or (base / "values.yaml").is_file())
            if self._charts[folder]:
                return folder
            if not folder:
                return None
            folder = _folder(folder)

    def _module(self, folder: str) -> bool:
        """Does `folder` hold a `.tf` file (a Terraform module)?"""
        if folder not in self._modules:
            base = self.project.root / folder
            try:
                self._modules[folder] = any(p.suffix == ".tf" and p.is_file() for p in base.iterdir())
            except OSError:
                self._modules[folder] = False
        return self._modules[folder]


def _folder(rel: str) -> str:
    return rel.rpartition("/")[0]


Decision = tuple[Literal["follow", "keep", "refuse"], str]


def decide(ref: KeyRef, new: str, defs: list[KeyDef]) -> Decision | None:
    """What becomes of a reference to old name `ref.name` (renamed `new`), and why, given the
    repo's keys of either name; None: no key of the repo has that name."""
    old = ref.name
    if ref.host:  # `hostvars.pug`: the inventory's host, renamed as `hostvars['pug']` is
        return "follow", (f"`{ref.text}` reads the inventory host {old} by attribute, renamed {new}: "
                          f"it follows as `{ref.path[0]}['{old}']` does")
    renamed_path = (*ref.path[:-1], new)
    moves = [d for d in defs if d.fate == "moves" and d.path == ref.path]
    stood = [d for d in defs if d.fate == "new" and d.path == renamed_path]
    stays = [d for d in defs if d.fate == "stays" and d.path == ref.path]
    shown = ".".join(ref.path)
    if ANY not in ref.path and moves:
        # a renamed key wins over a record's copy at the same path: the live one is read
        return "follow", (f"a reference to a renamed key: `{ref.text}` reads the key {shown}, renamed "
                          f"{new} at {moves[0].where}: the reference follows the key")
    if ANY not in ref.path and stood:
        return "follow", (f"a reference to a renamed key: `{ref.text}` reads the key {shown}, which is "
                          f"gone: it is {stood[0].dotted} at {stood[0].where} now, and the reference "
                          "follows it")
    if ANY not in ref.path and stays:
        d = stays[0]
        return "keep", f"`{ref.text}` reads the key {shown} at {d.where}, which keeps its name ({d.why})"
    candidates = [d for d in defs if (d.fate == "moves" and d.path[-1] == old)
                  or (d.fate == "new" and d.path[-1] == new)]
    if not candidates:
        return None
    d = candidates[0]
    return "refuse", (f"`{ref.text}` reads a key {old} by a path no key of the repo has ({shown}), "
                      f"while the key {d.dotted} is renamed {new} at {d.where}")


def key_matches(data: bytes, rel: str, matches: list[Match], index: KeyIndex) -> list[Match]:
    """`matches` with each key reference decided: followed (a match, rewritten), kept with its
    key (`key-of-record`), or refused (`key-reference`); see the module's docstring."""
    if not key_refs.might_hold(data, index.olds):
        return matches
    hcl = dialect_of(rel) == "hcl"
    refs = key_refs.key_refs(data, index.olds, hcl=hcl)
    if not refs:
        return matches
    by_start = {m.start: i for i, m in enumerate(matches)}
    out = list(matches)
    added: list[Match] = []
    for ref in refs:
        decided = index.decide(ref, rel)
        if decided is None:
            continue
        action, why = decided
        at = by_start.get(ref.start)
        if at is not None and (out[at].refused is not None or out[at].kept is not None):
            continue  # a range, a pattern, an account: decided already
        base = (out[at] if at is not None
                else Match(ref.start, ref.end, ref.name, index.renames[ref.name], "host"))
        if action == "follow":
            decided_match = replace(base, note=why)
        elif action == "keep":
            decided_match = replace(base, kept="key-of-record", note=why)
        else:
            decided_match = replace(base, refused="key-reference", note=why)
        if at is not None:
            out[at] = decided_match
        elif not any(m.start < ref.end and ref.start < m.end for m in matches):
            added.append(decided_match)
    return sorted([*out, *added], key=lambda m: m.start) if added else out
