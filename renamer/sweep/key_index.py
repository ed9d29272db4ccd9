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

A key moves only where the sweep provably rewrites it (break-it round 6): its file is a
current-state text file within `max_file_size` and its line is not exempt; a key also reads where
it is given (sweep/key_mounts.py: a module call's arguments, a parent chart's values, the data
file a load's search path gives); a live key kept beside a renamed one at the reader's path, or a
load that may read two files, is a `key-reference`; `hostvars.pug` follows the inventory host's
fate; and a kept line whose key moves is refused (`kept-reference`) before anything is written.

Break-it round 7: every other consumer of an inventory host's name (renamer/host_refs.py) and its
`host_vars/NAME` path follow the host's fate too (`host_path`); a file the sweep skips (a NUL,
UTF-16) is read for its kept keys though git grep -I leaves it out; a dependency's alias and
`import-values` mount values between charts; and a key that a residual reference may read is
held back with it (`held`: fate `held`, a `key-reference` at the key), so no half is written.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Literal

from renamer import (
    compose_refs,
    host_refs,
    jq_refs,
    key_literals,
    key_paths,
    key_refs,
    lazy_re,
    py_refs,
    sealed,
    traefik_refs,
    vcs_listing,
    vcs_status,
    work,
)
from renamer.classify import CURRENT, EXCLUDED, RECORD, FileClass
from renamer.errors import RenamerError
from renamer.formats import siblings
from renamer.formats.yaml_rt import inventory_host_lines
from renamer.key_paths import Dialect
from renamer.key_refs import ANY, KeyRef
from renamer.occurrences import Match
from renamer.project import LoadedProject
from renamer.sweep import held_words, key_mounts, vars_names
from renamer.sweep.content import classify_bytes

# `unsure`: which file is read cannot be told (two data files a load may mean): never followed.
# `held`: a key the sweep would rename, held back with a reference to it that cannot follow.
Fate = Literal["moves", "stays", "new", "unsure", "held"]
_DIALECTS: dict[str, Dialect] = {".yml": "yaml", ".yaml": "yaml", ".json": "yaml", ".toml": "toml",
                                 ".ini": "ini", ".cfg": "ini", ".tf": "hcl", ".tfvars": "hcl", ".hcl": "hcl"}
# Ansible's folders of YAML files that need no suffix.
_YAML_FOLDERS = ("group_vars/", "host_vars/", "defaults/", "vars/")
_READ_LIMIT = 4 * 1024 * 1024
# A line loading a data file into a variable (git grep's extended regex, then Python's).
_LOADS = r"(from_yaml|from_json|yamldecode|jsondecode)"
# A program's load of a data file (py_refs.py: break-it round 9, finding 3).
_PY_LOADS = r"(yaml\.(safe_|full_|unsafe_)?load|json\.load|tomllib\.load|toml\.load)"
_BINDING = lazy_re.compile(r"""^\s*(?P<name>[A-Za-z_]\w*)\s*[:=]""")
_LOADED = lazy_re.compile(r"""['"](?P<path>[^'"\n]*\.(?:ya?ml|json))['"]""")
_ALIAS = r"""^\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*["']?\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}["']?\s*$"""
# Documents (`docs/hosts.rst`), never read as inventories whatever their name.
_PROSE = (".md", ".markdown", ".rst", ".adoc", ".txt", ".html", ".org", ".tex")
# Ansible inventory files: a folder named inventory, or a file named hosts/inventory (any suffix).
_INVENTORY = lazy_re.compile(r"(?:^|/)(?:inventor(?:y|ies)/|(?:hosts|inventory)(?:\.[A-Za-z0-9]+)?$)")
_INI_SECTION = lazy_re.compile(r"^\s*\[(?P<name>[^\]\s]+)\]")
# An INI inventory's host line is no mapping key: only `hostvars.pug` and its like read it.
_HOSTS_ONLY = "<inventory>"
# An INI inventory's group header, `[pug]`: what `groups['pug']` reads (break-it round 9, finding 3).
_GROUPS = "<groups>"


@dataclass(frozen=True)
class KeyDef:
    """A key named by an old or new host name, where it stands and whether the sweep moves it."""

    path: tuple[str, ...]
    rel: str
    line: int
    fate: Fate
    why: str = ""  # what keeps it (a record class, a keep rule, a file never rewritten), for `stays`
    scope: str | None = None  # mounted: the module or chart folder that reads it under `path`
    record: bool = False  # a record's key: history, which a live reader never reads

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
        self._held: dict[tuple[str, int, str], str] | None = None  # (file, line, old name) -> why
        self._module_texts: dict[str, bytes] = {}  # folder -> its `.tf` files' text
        # env file (or bind-mounted file) -> the compose file reading it, and whether it mounts it
        self._env_files: dict[str, list[tuple[str, dict[str, bool]]]] = {}
        self._holders: dict[tuple[str, int, str], list[str]] = {}  # a reference -> the keys it holds
        # keys another rule holds, asked once when `held` is first computed (sweep/terraform_keys.py)
        self.seeds: Callable[[], dict[tuple[str, int, str], str]] | None = None
        self._held_hosts: dict[str, list[tuple[str, KeyDef]]] | None = None  # name -> (its project, host)

    def defs(self) -> list[KeyDef]:
        if self._defs is None:
            self._defs = self._read()
        return self._defs

    def _read(self) -> list[KeyDef]:
        names = sorted(self.olds | set(self.news))
        if not names:
            return []
        work.add("key index reads")  # once per scan: per forked worker at most (-vv)
        pattern = "|".join(re.sub(r"([.\\+*?\[\](){}|^$])", r"\\\1", n) for n in names)
        # Break-it round 7, finding 8: a file the sweep skips (binary for a NUL, UTF-16) still
        # defines keys, kept ones: listed with the text files (git's -I would leave it out), and a
        # wide one found by its NULs and read decoded (`_text`), within _READ_LIMIT.
        listed = vcs_status.worktree_files_holding(self.project.root, pattern, binary=True)
        if listed is not None:
            nul = vcs_status.worktree_files_holding(self.project.root, r"\x00", binary=True) or frozenset()
            wide = {rel for rel in nul - listed if dialect_of(rel) is not None
                    and re.search(pattern, self._text(rel)) is not None}
            listed = listed | wide
        files = sorted(listed) if listed is not None else self._walk(names)
        out: list[KeyDef] = []
        for rel in files:
            dialect = dialect_of(rel)
            if _INVENTORY.search(rel) and dialect in (None, "ini"):
                out.extend(self._inventory_hosts(rel, names))
            elif dialect is not None:
                out.extend(self._defs_in(rel, dialect, names))
        mounted = self._mounts({d.rel for d in out})
        loaded = [replace(d, path=(*prefix, *d.path), fate="unsure" if unsure and d.fate != "new" else d.fate)
                  for d in out for prefix, unsure in mounted.get(d.rel, ())]
        return out + loaded + self._module_arguments(out)

    def _module_arguments(self, defs: list[KeyDef]) -> list[KeyDef]:
        """A module call's arguments as the called module's `var.` keys (sweep/key_mounts.py)."""
        out: list[KeyDef] = []
        calls: dict[str, list[tuple[int, int, str, str]]] = {}
        for d in defs:
            if not d.rel.endswith(".tf") or len(d.path) < 3:
                continue
            if d.rel not in calls:
                calls[d.rel] = key_mounts.module_calls(self._text(d.rel))
            for first, last, label, source in calls[d.rel]:
                if not first <= d.line <= last:
                    continue
                # the block's own parts: `<module>` today, ("module", label) where labels are named
                rest = (d.path[1:] if d.path[0] == "<module>"
                        else d.path[2:] if d.path[:2] == ("module", label) else ())
                folder = key_mounts.module_folder(d.rel, source)
                if rest and folder is not None:
                    out.append(replace(d, path=("var", *rest), scope=folder))
        return out

    def _text(self, rel: str) -> str:
        """`rel`'s first 4 MiB as text: UTF-16 and UTF-32 decoded (such a file is skipped by the
        sweep, and its keys are kept)."""
        try:
            with open(self.project.root / rel, "rb") as handle:
                data = handle.read(_READ_LIMIT)
        except OSError:
            return ""
        return classify_bytes(data).data.decode("utf-8", "replace")

    def _inventory_hosts(self, rel: str, names: list[str]) -> list[KeyDef]:
        """An INI inventory's host lines (`pug ansible_host=...` under `[web]`) as `web.hosts.pug`,
        with the fate of the line (finding 4: `hostvars.pug` follows the host only where it moves)."""
        text = self._text(rel)
        found: list[key_paths.KeyDef] = []
        section = "ungrouped"
        for number, line in enumerate(text.split("\n"), start=1):
            head = _INI_SECTION.match(line)
            if head is not None:
                section = head.group("name")
                group = section.split(":")[0]
                if group in names:  # `[pug]`, `[pug:vars]`: a group of that name (`groups['pug']`)
                    found.append(key_paths.KeyDef((_GROUPS, group), number))
                continue
            words = line.split()
            if words and words[0] in names and ":" not in section:  # `[web:vars]` holds no host
                found.append(key_paths.KeyDef((section, "hosts", words[0]), number))
        return [replace(d, scope=_HOSTS_ONLY) for d in self._fated(rel, text, found)]

    def _mounts(self, rels: set[str]) -> dict[str, list[tuple[tuple[str, ...], bool]]]:
        """The variables a data file is loaded into, as the paths its keys are read under:
        `network: "{{ lookup('file', 'data/net.yml') | from_yaml }}"` (and `net: "{{ network }}"`
        beside it) reads data/net.yml's `hosts.pug` as `network.hosts.pug`; Terraform's
        `network = yamldecode(file("../data/net.yml"))` as `local.network.hosts.pug`."""
        if not rels:
            return {}
        lines = vcs_status.worktree_lines_matching(self.project.root, _LOADS) or []
        bound: dict[str, list[tuple[tuple[str, ...], bool]]] = {}  # file -> (prefix, which file unsure)
        names: dict[str, list[str]] = {}  # a variable bound to a file -> the files it may read
        # break-it round 11, finding 4: `yamldecode(file("net.yml")).hosts.pug` reads the file
        # inline, under a root of its own (key_refs.LOADED, read by this file: `_read_by`); the
        # whole file is read, as a call may span lines
        for rel in sorted({rel for rel, _line, _text in lines}):
            hcl = dialect_of(rel) == "hcl"
            for written in dict.fromkeys(key_refs.inline_loads(self._text(rel), hcl=hcl)):
                targets, decided = key_mounts.loaded_files(rel, written, hcl, sorted(rels),
                                                           lambda r: (self.project.root / r).is_file())
                targets = [t for t in targets if t in rels]
                for target in targets:
                    prefix = (_read_by(key_refs.LOADED.format(written), rel),)
                    bound.setdefault(target, []).append((prefix, not decided and len(targets) > 1))
        # break-it round 9, finding 3: `yaml.safe_load(open("inv.yaml"))["hosts"]["pug"]` in a
        # program: a relative path is the working folder's, the program's own or the repo's top
        programs = vcs_status.worktree_lines_matching(self.project.root, _PY_LOADS) or []
        for rel in sorted({rel for rel, _line, _text in programs if dialect_of(rel) != "hcl"}):
            folder = _folder(rel)
            for written in dict.fromkeys(py_refs.inline_loads(self._text(rel))):
                if written.startswith("/"):
                    continue
                candidates = dict.fromkeys(os.path.normpath(os.path.join(base, written)).replace(os.sep, "/")
                                           for base in (folder, ""))
                targets = [t for t in candidates if t in rels]
                for target in targets:
                    prefix = (_read_by(key_refs.LOADED.format(written), rel),)
                    bound.setdefault(target, []).append((prefix, len(targets) > 1))
        for rel, _line, text in lines:
            hcl = dialect_of(rel) == "hcl"
            binding = _BINDING.match(text)
            loaded = _LOADED.search(text)
            if binding is None or loaded is None:
                continue
            # break-it round 6, finding 5: the file the load's search path gives, not any of the name
            targets, decided = key_mounts.loaded_files(rel, loaded.group("path"), hcl, sorted(rels),
                                                       lambda r: (self.project.root / r).is_file())
            targets = [t for t in targets if t in rels]
            unsure = not decided and len(targets) > 1
            variable = binding.group("name")
            for target in targets:
                bound.setdefault(target, []).append((("local", variable) if hcl else (variable,), unsure))
                if not hcl:
                    names.setdefault(variable, []).append(target)
        if names:  # `network: "{{ prod_network }}"`: an alias reads the same file
            for _rel, _line, text in vcs_status.worktree_lines_matching(self.project.root, _ALIAS) or []:
                alias = re.match(_ALIAS, text)
                if alias is not None and alias.group(2) in names and alias.group(1) not in names:
                    for target in names[alias.group(2)]:
                        unsure = len(names[alias.group(2)]) > 1
                        bound[target].append(((alias.group(1),), unsure))
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
        if (self.project.root / rel).is_symlink():
            return []  # a link's target is read as itself
        text = self._text(rel)  # its first 4 MiB: a larger file is never rewritten, and is kept
        # Issue 30: only up to the last line where a name may stand as a key; most files holding
        # a name hold it as a value only, and are not parsed at all (-vv counts what is).
        region = key_paths.key_text(text, names)
        if not region:
            return []
        work.add("key index files")
        work.add("key index lines", region.count("\n") + 1)
        found = key_paths.key_defs_in(region, dialect, names)
        if not found:
            return []
        if rel.endswith((".tfvars", ".tfvars.json")):  # it sets variables: `var.hosts` reads its `hosts`
            found = [replace(d, path=("var", *d.path)) for d in found]
        return self._fated(rel, text, found)

    def _fated(self, rel: str, text: str, found: list[key_paths.KeyDef]) -> list[KeyDef]:
        """Each key with what the sweep will do to its line: moved only where the sweep rewrites
        that file and that line (break-it round 6, finding 6: a file skipped too large, binary,
        excluded is not rewritten, and neither is its key)."""
        klass = self.project.classifier.classify(rel)
        skipped = self._skipped(rel, klass)
        exempt = (self.project.classifier.line_exemptions(rel, text.split("\n"), [d.line - 1 for d in found])
                  if skipped is None else {})
        out = []
        for d in found:
            new = d.path[-1] in self.news and d.path[-1] not in self.olds
            if new:
                if skipped is None:
                    out.append(KeyDef(d.path, rel, d.line, "new"))
            elif skipped is None and d.line - 1 not in exempt:
                out.append(KeyDef(d.path, rel, d.line, "moves"))
            else:
                why = exempt[d.line - 1].reason if d.line - 1 in exempt else skipped or ""
                out.append(KeyDef(d.path, rel, d.line, "stays", why, record=klass.status == RECORD))
        return out

    def _skipped(self, rel: str, klass: FileClass) -> str | None:
        """Why the sweep does not rewrite `rel` (its class, or what its bytes are), or None."""
        if klass.status != CURRENT:
            return (klass.reason if klass.status == RECORD and klass.reason
                    else "excluded" if klass.status == EXCLUDED else klass.status)
        path = self.project.root / rel
        try:
            size = path.stat().st_size
            if size > self.project.config.max_file_size:
                return f"too-large: {size} bytes, over options.max_file_size, never rewritten"
            content = classify_bytes(path.read_bytes(), name=str(path))
        except OSError:
            return "unreadable"
        if content.kind == "text" and sealed.is_sops(content.data):  # its keys seal its values (sealed.py)
            return f"{sealed.SOPS}: never rewritten"
        return None if content.kind == "text" else f"{content.kind}: never rewritten"

    def decide(self, ref: KeyRef, rel: str = "") -> Decision | None:
        alone = self._decide(ref, rel, {})
        if alone is not None and alone[0] == "refuse":
            return alone  # its own reason, not the hold it causes
        return self._decide(ref, rel, self.held())

    def _decide(self, ref: KeyRef, rel: str, held: dict[tuple[str, int, str], str]) -> Decision | None:
        new = self.renames[ref.name]
        if ref.host:
            inventory = _holding(self._inventory(), held)
            if ref.path[0] in host_refs.CONSUMERS and not _naming(ref.name, new, inventory):
                return None  # `delegate_to: pug` with no inventory of the repo naming it: the plain rules
            return decide_host(ref, new, inventory)
        if ref.local:  # a compose service's name: its project's compose files (round 8, finding 4)
            return decide(ref, new, _holding(self._compose(ref.project or rel), held))
        return decide(ref, new, _holding(self.scoped(rel) if rel else self.defs(), held))

    def _compose(self, rel: str) -> list[KeyDef]:
        """The keys of the compose files in `rel`'s folder (one compose project)."""
        return [d for d in self.defs() if _folder(d.rel) == _folder(rel) and compose_refs.is_compose(d.rel)]

    def _implicated(self, ref: KeyRef, rel: str) -> list[KeyDef]:
        """The keys (inventory host lines) the sweep would rename that `ref` may read."""
        new = self.renames[ref.name]
        if ref.host:
            parents = ("hosts", _GROUPS, "children") if ref.path[0] == "groups" else ("hosts",)
            return [d for d in self._inventory() if d.fate == "moves" and len(d.path) >= 2
                    and d.path[-2] in parents and d.path[-1] == ref.name]
        defs = [d for d in (self._compose(ref.project or rel) if ref.local
                            else self.scoped(rel) if rel else self.defs())
                if d.fate in ("moves", "unsure")]
        at = [d for d in defs if d.path == ref.path]
        return at or ([] if ANY not in ref.path and any(d.path == (*ref.path[:-1], new) for d in self.defs())
                      else [d for d in defs if d.path[-1] == ref.name])

    def held(self) -> dict[tuple[str, int, str], str]:
        """The keys held back in this sweep (break-it round 7, finding 10): a key the sweep would
        rename, read by a reference that cannot follow (a `key-reference` residual), keeps its
        name with it, so that no half of the pair is written; then a reference that followed a
        held key is held too, until nothing more is. Each (file, line, old name) with why."""
        if self._held is not None:
            return self._held
        self._held = {}  # a reference decided while this is computed holds nothing yet
        # keys held for a reason of another rule's (a Terraform `for_each` key kept whole)
        held: dict[tuple[str, int, str], str] = dict(self.seeds()) if self.seeds is not None else {}
        held.update(self._kept_vars())
        for spot, why in self._own_name_folders().items():  # both kept: say both
            held[spot] = f"{held[spot]}; {why}" if spot in held else why
        held.update(self._own_name_maps())
        refs = list(self._references())
        while True:
            grown = False
            for rel, line, ref in refs:
                decided = self._decide(ref, rel, held)
                if decided is None or decided[0] != "refuse":
                    continue
                for d in self._implicated(ref, rel):
                    spot = (d.rel, d.line, ref.name)
                    if spot not in held:
                        held[spot] = (f"held back with `{ref.text}` at {rel}:{line}, which cannot follow it: "
                                      f"{decided[1]}")
                        self._holders.setdefault((rel, line, ref.name), []).append(d.where)
                        grown = True
            if not grown:
                break
        self._held = held
        return held

    def _own_name_folders(self) -> dict[tuple[str, int, str], str]:
        """The inventory hosts held back with a kept entry a play finds by the machine's own name
        (break-it round 17, #10): `query('fileglob', playbook_dir + '/../services/' +
        inventory_hostname + '/*')` or `src: services/{{ inventory_hostname }}/` reads
        `services/pug/` on pug, so where that entry keeps its name (`keep_paths`, a record, an
        excluded or unclassified file) each inventory line of the host keeps its name with it, and
        so do the host's readers (`hostvars['pug']`). One `git grep -l` for the own-name
        spellings, read only where an inventory of the repo renames a host."""
        moving = {d.path[-1] for d in self._inventory() if d.fate == "moves" and len(d.path) >= 2
                  and d.path[-2] == "hosts"}
        if not moving:
            return {}
        classifier = self.project.classifier
        readers = held_words.own_readers_in(self.project.root,
                                            lambda rel: classifier.classify(rel).status == CURRENT)
        if not readers:
            return {}
        kept: dict[str, str] = {}  # host -> the kept entry and the reader that finds it
        for where, reader in readers:
            for folder in held_words.folder_readings(where, reader.folder):
                for name in moving - kept.keys():
                    entry = f"{folder}/{reader.prefix}{name}{reader.suffix}".lstrip("/")
                    path = self.project.root / entry
                    if not path.exists():
                        continue
                    inside = (p for p in sorted(path.rglob("*")) if p.is_file())
                    probe = entry if path.is_file() else next(
                        (str(p.relative_to(self.project.root)) for p in inside), entry)
                    klass = classifier.classify(probe)
                    why = ("kept by keep_paths" if classifier.path_kept(probe)
                           else None if klass.status == CURRENT
                           else f"a {klass.reason or klass.status} record" if klass.status == RECORD
                           else klass.status)
                    if why is not None:
                        kept[name] = (f"{entry} ({why}), which {where} finds by the machine's own name: "
                                      f"it {reader.how}")
        out: dict[tuple[str, int, str], str] = {}
        for d in self._inventory():
            if d.fate == "moves" and len(d.path) >= 2 and d.path[-2] == "hosts" and d.path[-1] in kept:
                out[(d.rel, d.line, d.path[-1])] = (
                    f"held back with its files: {kept[d.path[-1]]}; renamed alone, the host "
                    f"{self.renames[d.path[-1]]} would find nothing there: move the entry with it (drop the "
                    "keep), or keep the inventory name too")
        return out

    def _kept_vars(self) -> dict[tuple[str, int, str], str]:
        """The inventory hosts and groups held back with their kept vars (break-it round 16, #14):
        Ansible reads `host_vars/pug/` (`pug.yml`, `pug`) and `group_vars/pug.yml` by the host's or
        group's inventory name, so an entry whose path keeps the old name (`keep_paths`, a record, an
        excluded or unclassified file) binds that name: the host renamed alone would silently lose
        every variable there. Each inventory line of such a host or group keeps its name with it (a
        `key-reference` residual, nothing of it written). Read only where an inventory of the repo
        renames a host or group (a cheap test), from one `git ls-files`."""
        moving = {d.path[-1] for d in self._inventory() if d.fate == "moves" and len(d.path) >= 2
                  and d.path[-2] in ("hosts", _GROUPS, "children")}
        if not moving:
            return {}
        try:
            listed = vcs_listing.ls_files(self.project.root, "--cached", "--others", "--exclude-standard")
        except RenamerError:
            return {}  # outside git: the plain path rules
        listed = [rel for rel in listed if "_vars/" in rel]  # git reads pathspecs literally here
        # (host_vars or group_vars, name) -> (the folder holding the vars folder, the kept path, why)
        kept: dict[tuple[str, str], list[tuple[str, str]]] = {}
        classifier = self.project.classifier
        for rel in dict.fromkeys(listed):
            found = vars_names.entry(rel)
            if found is None or found[1] not in moving:
                continue
            base, _, kind = found[0].rpartition("/")
            klass = classifier.classify(rel)
            why = ("kept by keep_paths" if classifier.path_kept(rel)
                   else None if klass.status == CURRENT
                   else f"a {klass.reason or klass.status} record" if klass.status == RECORD
                   else klass.status)
            if why is not None:
                kept.setdefault((kind, found[1]), []).append((base, f"{found[0]}/{found[2]} ({why})"))
        out: dict[tuple[str, int, str], str] = {}
        playbooks: dict[str, bool] = {}

        def beside_playbook(base: str) -> bool:  # `playbooks/host_vars/`: read for every inventory
            if base not in playbooks:
                playbooks[base] = vars_names.holds_playbook(self.project.root, base)
            return playbooks[base]

        for d in self._inventory():
            if d.fate != "moves" or len(d.path) < 2:
                continue
            kind = "host_vars" if d.path[-2] == "hosts" else "group_vars"
            # Ansible reads the vars beside the inventory, or beside a playbook (break-it round 17,
            # #10): a copy elsewhere (`backups/2024-05-01/host_vars/pug.yml`) is no vars of this inventory
            folder = _folder(d.rel)
            at = next((shown for base, shown in kept.get((kind, d.path[-1]), [])
                       if not base or base == folder or folder.startswith(base + "/")
                       or beside_playbook(base)), None)
            if at is None:
                continue
            owner = "host" if kind == "host_vars" else "group"
            out[(d.rel, d.line, d.path[-1])] = (
                f"held back with its vars: {at} keeps the name {d.path[-1]}, and Ansible reads the "
                f"{owner}'s variables from it by its inventory name; renamed alone, the {owner} "
                f"{self.renames[d.path[-1]]} would silently have none of them: move the vars with it "
                "(drop the keep), or keep the inventory name too")
        return out

    def _own_name_maps(self) -> dict[tuple[str, int, str], str]:
        """A map keyed by inventory host names, read by the machine's own name (break-it round 16,
        #18): `{{ peers[inventory_hostname].pubkey }}` reads `peers.pug` on the host pug, so the
        key and the inventory host are one name: where the key keeps its name (a keep marker, a
        record, a file never rewritten) while the host is renamed, the host's inventory lines are
        held with it, and where the key is renamed while the host keeps its name, the key is held:
        each a `key-reference` residual naming the reader, nothing of the pair written. Read only
        where an inventory of the repo names an old host, from one git grep of the work tree."""
        hosts = [d for d in self._inventory() if len(d.path) >= 2 and d.path[-2] == "hosts"
                 and d.path[-1] in self.olds and d.fate in ("moves", "stays")]
        if not hosts:
            return {}
        lines = vcs_status.worktree_lines_matching(self.project.root, _OWN_NAME_GREP) or []
        readers: dict[tuple[str, ...], str] = {}  # the map's path -> where a reader reads it
        for rel, number, text in lines:
            if self.project.classifier.classify(rel).status != CURRENT:
                continue
            for found in _OWN_NAME.finditer(text):
                path = tuple(word or quoted for word, quoted in _MAP_PART.findall(found.group("map")))
                if path and path[0] not in ("hostvars", "vars", "groups") and path not in readers:
                    readers[path] = f"`{found.group(0)}` at {rel}:{number}"
        if not readers:
            return {}
        out: dict[tuple[str, int, str], str] = {}
        config = self.project.config
        own = {config.display(p) for p in (config.path, *config.allowlist_paths)}  # renamer's own files
        for path, reader in readers.items():
            for name in sorted({h.path[-1] for h in hosts}):
                # a record's key is history, which no live reader reads
                keys = [d for d in self.defs() if d.scope is None and len(d.path) > len(path)
                        and d.path[-1] == name and d.path[-1 - len(path):-1] == path
                        and d.fate in ("moves", "stays") and not d.record and d.rel not in own]
                named = [h for h in hosts if h.path[-1] == name]
                for key in keys:
                    for host in named:
                        if key.fate == host.fate:
                            continue
                        if host.fate == "moves":  # the key stays: the host is held with it
                            out[(host.rel, host.line, name)] = (
                                f"held back with the key {key.dotted} at {key.where}, which keeps its name "
                                f"({key.why}) and which {reader} reads by the host's own name: renamed "
                                f"alone, the host {self.renames[name]} would read nothing there; rename "
                                "the key too (drop its keep), or keep the host")
                        else:  # the host stays: its key is held with it
                            out[(key.rel, key.line, name)] = (
                                f"held back with the inventory host {name} at {host.where}, which keeps "
                                f"its name ({host.why}), and which {reader} reads this key by: renamed "
                                "alone, the host would read nothing there")
        return out

    def _references(self) -> list[tuple[str, int, KeyRef]]:
        """Every key reference of the repo's current-state text files, with its file and line."""
        names = sorted(self.olds)
        if not names:
            return []
        pattern = "|".join(re.sub(r"([.\\+*?\[\](){}|^$])", r"\\\1", n) for n in names)
        listed = vcs_status.worktree_files_holding(self.project.root, pattern)
        if listed is None:
            return []  # outside git: no hold (the references themselves are still decided)
        out = []
        for rel in sorted(listed):
            if (self.project.classifier.classify(rel).status != CURRENT
                    or self._skipped(rel, _CURRENT) is not None):
                continue
            try:
                with open(self.project.root / rel, "rb") as handle:
                    data = handle.read(self.project.config.max_file_size + 1)
            except OSError:
                continue
            for ref in _all_refs(data, rel, self.olds, partial(self.module_text, rel),
                                  partial(self.env_project, rel)):
                out.append((rel, data.count(b"\n", 0, ref.start) + 1, ref))
        return out

    def env_project(self, rel: str) -> tuple[str, bool] | None:
        """The compose file (in `rel`'s folder or the one above, with a line where an old or new
        name may stand as a key) whose services read `rel` as an env file (`env_file:`, or the
        project's `.env`), or bind-mount it (True), or None. Read from those folders alone, not
        from the key index, which a file with no reference never reads (issue 30)."""
        folder = _folder(rel)
        for base in dict.fromkeys((folder, _folder(folder) if folder else folder)):
            for compose, targets in self._env_files_in(base):
                if rel in targets:
                    return compose, targets[rel]
        return None

    def _env_files_in(self, folder: str) -> list[tuple[str, dict[str, bool]]]:
        """Each compose file of `folder` that may define a service named by an old or new name,
        with the files its services read (`env_refs`'s `mounted`: True for a bind mount)."""
        if folder not in self._env_files:
            found: list[tuple[str, dict[str, bool]]] = []
            names = sorted(self.olds | set(self.news))
            try:
                listed = sorted(p.name for p in (self.project.root / folder).iterdir() if p.is_file())
            except OSError:
                listed = []
            for name in listed:
                compose = f"{folder}/{name}" if folder else name
                if not compose_refs.is_compose(compose):
                    continue
                text = self._text(compose)
                if not key_paths.key_text(text, names):
                    continue
                targets: dict[str, bool] = {}
                for written, mounted in [(".env", False), *((w, False) for w in compose_refs.env_files(text)),
                                         *((w, True) for w in compose_refs.mounted_files(text))]:
                    if written.startswith("/") or "$" in written:
                        continue
                    target = os.path.normpath(os.path.join(folder, written)).replace(os.sep, "/")
                    if not target.startswith("../"):
                        targets.setdefault(target, mounted)
                found.append((compose, targets))
            self._env_files[folder] = found
        return self._env_files[folder]

    def module_text(self, rel: str) -> bytes:
        """The text of every `.tf` file in `rel`'s folder (its Terraform module), read once."""
        folder = _folder(rel)
        if folder not in self._module_texts:
            parts = []
            base = self.project.root / folder
            try:
                listed = sorted(p for p in base.iterdir() if p.suffix == ".tf" and p.is_file()
                                and not p.is_symlink())
            except OSError:
                listed = []
            for path in listed:
                try:
                    parts.append(path.read_bytes()[:_READ_LIMIT])
                except OSError:
                    continue
            self._module_texts[folder] = b"\n".join(parts)
        return self._module_texts[folder]

    def holding(self, rel: str, line: int, name: str) -> list[str]:
        """The keys (file:line) the reference to `name` at rel:line holds back."""
        self.held()
        return self._holders.get((rel, line, name), [])

    def hold(self, rel: str, data: bytes, matches: list[Match]) -> list[Match]:
        """`matches` with those of a held key refused (`key-reference`): not written this sweep."""
        if not matches or (self._defs is None and not self._may_define(rel)):
            return matches  # no key can stand here: the index is not read for it (issue 30)
        if not any(d.rel == rel for d in self.defs()):
            return matches  # no key here: the repo's references are not read for it
        held = self.held()
        if not held or not any(spot[0] == rel for spot in held):
            return matches
        out = []
        for m in matches:
            why = held.get((rel, data.count(b"\n", 0, m.start) + 1, m.old))
            if why is not None and m.refused is None and m.kept is None:
                m = replace(m, refused="key-reference", note=why)
            out.append(m)
        return out

    def held_hosts(self) -> dict[str, list[tuple[str, KeyDef]]]:
        """Each inventory host held back in this sweep (a reader that cannot follow it, its kept
        vars, a map read by its own name): its name -> (the folder of its Ansible project, its
        inventory line). Read only where the repo has an inventory file naming an old host
        (`_INVENTORY`, one git grep), so that a repo with none never reads the key index for it."""
        if self._held_hosts is None:
            self._held_hosts = {}
            names = sorted(self.olds)
            # A repo with no inventory-like path at all (the listing, not a walk of every file's
            # bytes: tests/sweep/test_work_counts.py bounds the tree greps) holds no host so.
            try:
                paths = vcs_listing.ls_files(self.project.root, "--cached", "--others", "--exclude-standard")
            except RenamerError:
                paths = []
            if not any(_INVENTORY.search(rel) for rel in paths):
                names = []
            pattern = "|".join(re.sub(r"([.\\+*?\[\](){}|^$])", r"\\\1", n) for n in names)
            listed = vcs_status.worktree_files_holding(self.project.root, pattern) if names else None
            if listed and any(_INVENTORY.search(rel) for rel in listed):
                held = self.held()
                for d in _holding(self._inventory(), held):
                    # held in this sweep, or kept by a keep rule, the inline marker, a file never
                    # rewritten (a record's is history, which no play reads)
                    if (len(d.path) >= 2 and d.path[-2] == "hosts" and d.path[-1] in self.olds
                            and (d.fate == "held" or (d.fate == "stays" and not d.record))
                            and self._inventory_host(d.rel, d.path[-1])):
                        project = _ansible_project(d.rel, lambda cfg: (self.project.root / cfg).is_file())
                        self._held_hosts.setdefault(d.path[-1], []).append((project, d))
        return self._held_hosts

    def _inventory_host(self, rel: str, name: str) -> bool:
        """Is `name` a host of `rel` read as an Ansible inventory (a YAML file whose top-level
        values are groups, `yaml_rt.inventory_host_lines`; else an INI one's host lines), not a
        `hosts:` mapping of some data file that only has an inventory's file name?"""
        if rel.lower().endswith(_PROSE):  # `docs/hosts.rst`: a table of hosts, no inventory
            return False
        text = self._text(rel)
        found = inventory_host_lines(text)
        if found is None:
            found = siblings.inventory_hosts(text) if dialect_of(rel) in (None, "ini") else []
        return any(host == name for host, _ in found)

    def hold_readers(self, rel: str, data: bytes, matches: list[Match]) -> list[Match]:
        """Break-it round 17, #16: an inventory host held back keeps its name in this sweep, so a
        play, a template or a variable (YAML, JSON, TOML) or a Python plugin or helper of its Ansible
        project naming it by that bare name (a host
        pattern or a loop list inside Jinja, `target_node: pug`, a safety list) still reads that
        host: each such match is held with it (`key-reference`, naming the host's line), never
        rewritten alone to a name the inventory does not have."""
        # a match another rule decided (a key reference followed, `groups['pug']` reading a
        # renamed group of one name) carries its note: that rule's decision stands
        wanted = [m for m in matches if m.refused is None and m.kept is None and m.note is None
                  and m.old in self.olds]
        # plays, roles, variables, templates and inventories read whole; elsewhere (a script, a
        # Makefile, CI) a line naming ansible (`ansible pug -m ping`)
        # (and any file beside a held host's inventory file: `inventory/groups.ini`)
        whole = _ANSIBLE_TEXT.search(rel) is not None or _INVENTORY.search(rel) is not None
        if not wanted:
            return matches
        hosts = self.held_hosts()
        if not hosts or not any(m.old in hosts for m in wanted):
            return matches
        # a Python file inside an Ansible project's own folder (a helper, a dynamic inventory)
        whole = whole or (rel.endswith(".py") and any(
            base and rel.startswith(base + "/") for held in hosts.values() for base, _ in held))
        if not whole and not any(_folder(d.rel) == _folder(rel) for held in hosts.values() for _, d in held):
            wanted = [m for m in wanted if _ANSIBLE_LINE.search(_line_of(data, m.start))]
        # a group of the same name (`[pug]`, `children: {pug:}`) is no host: its own fate stands
        groups = {d.line for d in self.defs() if d.rel == rel and len(d.path) >= 2
                  and d.path[-2] in (_GROUPS, "children")}
        out = []
        for m in matches:
            host = next((d for base, d in hosts.get(m.old, []) if not base or rel.startswith(base + "/")),
                        None) if m in wanted and data.count(b"\n", 0, m.start) + 1 not in groups else None
            if host is not None and (host.rel, host.line) != (rel, data.count(b"\n", 0, m.start) + 1):
                why = (f"in this sweep ({host.why.split(': ', 1)[0]})" if host.fate == "held"
                       else f"({host.why})")
                m = replace(m, refused="key-reference", note=(
                    f"held back with the inventory host {m.old} at {host.where}, which keeps its name {why}: "
                    f"this file of its Ansible project names it, and rewritten alone it would name a host "
                    f"{self.renames[m.old]} the inventory does not have; rename the inventory host (decide "
                    "what holds it, then rerun the sweep), or keep this line too"))
            out.append(m)
        return out

    def _may_define(self, rel: str) -> bool:
        """Can the index hold a key of `rel`? False only where `_read` would find none there: no
        keyed dialect and no inventory, or no line where a name may stand as a key
        (key_paths.key_text, on the text `_defs_in` reads). Asked before the index is read, so
        that a file whose old names are all values (most) does not read every keyed file of the
        repo, once in each forked worker (issue 30)."""
        dialect = dialect_of(rel)
        if _INVENTORY.search(rel) and dialect in (None, "ini"):
            return True  # its host lines: `_inventory_hosts`
        if dialect is None:
            return False
        names = sorted(self.olds | set(self.news))
        return bool(names) and key_paths.key_text(self._text(rel), names) != ""

    def _inventory(self) -> list[KeyDef]:
        return [d for d in self.defs() if d.scope in (None, _HOSTS_ONLY) and _INVENTORY.search(d.rel)]

    def host_path(self, rel: str) -> Decision | None:
        """What becomes of `host_vars/pug.yml` (`host_vars/pug/...`): it is the inventory host's
        vars, found by its name, so its path follows the host's fate (break-it round 7, finding 1);
        None: no old host name there, or no inventory of the repo names it (the plain path rules)."""
        found = _HOST_VARS.search(rel)
        if found is None or found.group("name") not in self.olds:
            return None
        name = found.group("name")
        inventory = self._inventory()
        if not _naming(name, self.renames[name], inventory):
            return None
        shown = rel[:found.end("name")] + (found.group("suffix") or "")
        return decide_host(KeyRef(0, 0, name, ("host_vars", name), shown, True, host=True),
                           self.renames[name], _holding(inventory, self.held()))

    def scoped(self, rel: str) -> list[KeyDef]:
        """The keys a reference in `rel` may read: its module's (a `.tf` file: the module's own
        files, shared files outside every module, its callers' arguments), its chart's (and what a
        parent chart gives it), else all but those mounted into a module or chart."""
        if rel not in self._scoped:
            defs = self.defs()
            chart = None if rel.endswith(".tf") else self._chart(rel)
            if rel.endswith(".tf"):  # a values.yaml beside it makes no chart of a module (round 6)
                module = _folder(rel)
                defs = [d for d in defs if d.scope == module or (d.scope is None and (
                    _folder(d.rel) == module or not self._module(_folder(d.rel))
                    or not d.rel.endswith((".tf", ".tfvars", ".tfvars.json"))))]
            elif chart is not None:
                defs = self._chart_defs(chart)
            else:
                defs = [d for d in defs if d.scope is None]
            self._scoped[rel] = defs
        return self._scoped[rel]

    def _chart_defs(self, chart: str) -> list[KeyDef]:
        """A chart's keys, with those its parent chart gives it (break-it round 6, finding 2):
        `<subchart>.x` as `x`, `global.x` as itself, all of them to a library chart."""
        own = self._own_chart_defs(chart)
        # import-values: a subchart's values read in this chart under the parent path (round 7)
        meta_here = self._text(f"{chart}/Chart.yaml" if chart else "Chart.yaml")
        for dependency in key_mounts.dependencies(chart, meta_here):
            for child, parent_path in dependency.imports:
                own += [replace(d, path=(*parent_path, *d.path[len(child):]))
                        for d in self._own_chart_defs(dependency.folder)
                        if d.path[:len(child)] == child and len(d.path) > len(child)]
        holder = key_mounts.parent_of(chart)
        if holder is None:
            return own
        parent = self._chart(f"{holder}/Chart.yaml" if holder else "Chart.yaml")
        if parent is None:
            return own
        meta = self._text(f"{chart}/Chart.yaml")
        names = key_mounts.subchart_name(chart, meta)
        # a dependency's alias is the values block Helm gives it (break-it round 7, finding 7)
        for dependency in key_mounts.dependencies(parent, self._text(f"{parent}/Chart.yaml" if parent
                                                                      else "Chart.yaml")):
            if dependency.folder == chart:
                names |= dependency.names
        library = key_mounts.is_library(meta)
        given = []
        for d in self._chart_defs(parent):
            if library or d.path[0] == "global":
                given.append(d)
            elif d.path[0] in names and len(d.path) > 1:
                given.append(replace(d, path=d.path[1:]))
        return own + given

    def _own_chart_defs(self, chart: str) -> list[KeyDef]:
        return [d for d in self.defs() if d.scope is None and self._chart(d.rel) == chart]

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


# Ansible reads a host's vars from host_vars/NAME, NAME.yml, NAME.yaml, NAME.json or NAME/ (a folder).
_HOST_VARS = lazy_re.compile(r"(?:^|/)host_vars/(?P<name>[^/]+?)(?P<suffix>\.(?:ya?ml|json))?(?:/|$)")


_CURRENT = FileClass(CURRENT, "", "")
# A map read by the machine's own name: `peers[inventory_hostname]`, `wg['peers'][ansible_hostname]`,
# `peers.get(inventory_hostname_short)` (break-it round 16, #18); git grep's extended regex, then Python's.
_OWN_NAME_GREP = r"(\[|get\()[[:space:]]*(inventory_hostname|ansible_hostname)"
_OWN_NAME = re.compile(r"""(?P<map>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*|\[\s*['"][^'"\]]+['"]\s*\])*)"""
                       r"""(?:\[\s*|\.get\(\s*)(?:inventory_hostname(?:_short)?|ansible_hostname)\s*[\]),]""")
_MAP_PART = lazy_re.compile(r"""([A-Za-z_]\w*)|\[\s*['"]([^'"\]]+)['"]\s*\]""")


# The files of an Ansible project that name inventory hosts by their bare names: plays, roles,
# variables (YAML) and templates.
# Plays, vars (JSON and TOML too: Ansible loads `vars_files: [nodes.json]`, `group_vars/web.json` as
# YAML), templates, and the project's Python plugins (break-it round 19, #5).
_ANSIBLE_TEXT = lazy_re.compile(r"(?:\.ya?ml|\.json|\.toml|\.j2|\.jinja2?|(?:^|/)templates/[^/]+"
                           r"|(?:^|/)(?:\w+_plugins|library|module_utils|plugins)/(?:[^/]+/)*[^/]+\.py)$")


_ANSIBLE_LINE = lazy_re.compile(
    rb"(?<![A-Za-z0-9_])ansible(?:-playbook|-console|-inventory)?(?![A-Za-z0-9_.-])")


def _line_of(data: bytes, at: int) -> bytes:
    start = data.rfind(b"\n", 0, at) + 1
    end = data.find(b"\n", at)
    return data[start:len(data) if end < 0 else end]


def _ansible_project(inventory: str, exists: Callable[[str], bool]) -> str:
    """The folder of the Ansible project an inventory file belongs to: the nearest folder above it
    holding an `ansible.cfg`, else the folder above its `inventory`/`inventories` folder, else the
    folder above its own ('' for the repo's root)."""
    parts = inventory.split("/")[:-1]
    for depth in range(len(parts), -1, -1):
        base = "/".join(parts[:depth])
        if exists(f"{base}/ansible.cfg" if base else "ansible.cfg"):
            return base
    for depth, part in enumerate(parts):
        if part in ("inventory", "inventories"):
            return "/".join(parts[:depth])
    return "/".join(parts[:-1])


def _holding(defs: list[KeyDef], held: dict[tuple[str, int, str], str]) -> list[KeyDef]:
    """`defs` with each held key's fate `held`."""
    if not held:
        return defs
    return [replace(d, fate="held", why=held[(d.rel, d.line, d.path[-1])])
            if d.fate in ("moves", "unsure") and (d.rel, d.line, d.path[-1]) in held else d for d in defs]


_NOT_ADDRESSES = frozenset({"local", "var", "each", "count", "path", "self", "terraform"})


def _all_refs(data: bytes, rel: str, olds: frozenset[str],
              module: Callable[[], bytes] | None = None,
              project: Callable[[], tuple[str, bool] | None] | None = None) -> list[KeyRef]:
    """Every key and host reference of `data` (key_refs.py, host_refs.py), by start; `module`
    gives the text of every `.tf` file of `rel`'s folder (key_literals.py reads a local there);
    `project` the compose file whose services read `rel` as an env file (asked only where a line
    `NAME=` holds an old name: it reads the key index)."""
    dialect = dialect_of(rel)
    refs = key_refs.key_refs(data, olds, hcl=dialect == "hcl") if key_refs.might_hold(data, olds) else []
    tfvars = rel.endswith(".tfvars")
    if dialect == "hcl" and module is not None and (tfvars or key_literals.might_hold(data)):
        # `pick = "pug"` read as `var.hosts[local.pick]` (break-it round 9, finding 3)
        taken = {r.start for r in refs}
        refs = sorted([*refs, *(r for r in key_literals.literal_refs(data, module(), olds, tfvars=tfvars)
                                if r.start not in taken)], key=lambda r: r.start)
    if dialect == "hcl":  # `terraform_data.x["pug"]`: an instance's key, no map's (sweep/terraform_keys.py)
        refs = [r for r in refs if not _instance_key(r)]
    # `yamldecode(file("net.yml")).hosts.pug`: the file as this file's load reads it (`_mounts`)
    refs = [replace(r, path=(_read_by(r.path[0], rel), *r.path[1:]))
            if r.path and r.path[0].startswith("<file:") else r for r in refs]
    extra = compose_refs.compose_refs(data, olds) if compose_refs.is_compose(rel) else []
    if project is not None and dialect != "hcl" and not compose_refs.is_compose(rel):
        # `DB_HOST=pug` in a service's env_file (break-it round 9, finding 3)
        env = compose_refs.env_refs(data, olds, "")
        mounted = compose_refs.env_refs(data, olds, "", mounted=True)
        compose = project() if env or mounted else None
        if compose is not None:
            extra += [replace(r, project=compose[0]) for r in (mounted if compose[1] else env)]
    if dialect != "hcl" and jq_refs.might_hold(data):  # `jq -r ".hosts.pug.ip"` (round 8, finding 9)
        extra += jq_refs.jq_refs(data, olds)
    if dialect != "hcl" and traefik_refs.might_hold(data):  # `middlewares: ["pug"]` (round 9, finding 3)
        extra += traefik_refs.traefik_refs(data, olds)
    if dialect != "hcl" and py_refs.might_hold(data):  # `yaml.safe_load(f)["hosts"]["pug"]` (round 9, 3)
        extra += [replace(r, path=(_read_by(r.path[0], rel), *r.path[1:])) if r.path[0].startswith("<file:")
                  else r for r in py_refs.py_refs(data, olds)]
    if extra:  # `depends_on: [pug]`: a compose service's name (round 8, finding 4)
        taken = {r.start for r in refs}
        refs = sorted([*refs, *(r for r in extra if r.start not in taken)], key=lambda r: r.start)
    if dialect != "hcl" and host_refs.might_hold(data, olds):
        # `delegate_to: pug`, `inventory_hostname == 'pug'`, `--limit pug`: the host's fate (round 7)
        taken = {r.start for r in refs}
        refs = sorted([*refs, *(r for r in host_refs.host_refs(data, olds, yaml=dialect == "yaml")
                                if r.start not in taken)], key=lambda r: r.start)
    return refs


def _read_by(root: str, rel: str) -> str:
    """An inline load's root (`<file:net.yml>`) as the file `rel` reads: the same written path
    in two folders is two files."""
    return f"{root[:-1]} read by {rel}>"


def _instance_key(ref: KeyRef) -> bool:
    """`terraform_data.x["pug"]`, `data.t.d["pug"]`, `module.m["pug"]`: a `for_each` instance's key."""
    root = ref.path[0] if ref.path else ""
    at = 3 if root == "data" else 2
    # a resource type is `provider_type` (`terraform_data`, `aws_instance`); a `for` variable seldom is
    return (ref.quoted and (root in ("module", "data") or "_" in root) and root not in _NOT_ADDRESSES
            and len(ref.path) == at + 1
            and "[" in ref.text and ref.path[at] == ref.name)


def _naming(old: str, new: str, inventory: list[KeyDef]) -> bool:
    """Does an inventory of the repo name the host (by its old name, or its new one already)?"""
    return any(len(d.path) >= 2 and d.path[-2] == "hosts" and d.path[-1] in (old, new) for d in inventory)


Decision = tuple[Literal["follow", "keep", "refuse"], str]


def decide(ref: KeyRef, new: str, defs: list[KeyDef]) -> Decision | None:
    """What becomes of a reference to old name `ref.name` (renamed `new`), and why, given the
    repo's keys of either name; None: no key of the repo has that name."""
    old = ref.name
    renamed_path = (*ref.path[:-1], new)
    moves = [d for d in defs if d.fate == "moves" and d.path == ref.path]
    stood = [d for d in defs if d.fate == "new" and d.path == renamed_path]
    stays = [d for d in defs if d.fate == "stays" and d.path == ref.path]
    unsure = [d for d in defs if d.fate == "unsure" and d.path == ref.path]
    shown = ".".join(ref.path)
    # a held key at its path, or (no key at its path) one of its name, as `candidates` below
    by_name = ANY in ref.path or not (moves or stood or stays or unsure)
    held = [d for d in defs if d.fate == "held" and (d.path == ref.path or (by_name and d.path[-1] == old))]
    if held:
        return "refuse", (f"`{ref.text}` reads the key {held[0].dotted} at {held[0].where}, which this sweep "
                          f"does not rename: it is {held[0].why}")
    # Break-it round 6: the reference follows only where every live key it may read moves; a
    # key the sweep keeps beside one it renames (two callers of a module, a kept subchart default
    # under a parent's override, a key-of-record on an exempt line) leaves it undecidable.
    live_stays = [d for d in stays if not d.record]
    if ANY not in ref.path and (unsure or ((moves or stood) and live_stays)):
        kept = live_stays[0] if live_stays else None
        renamed = (moves or stood)[0] if moves or stood else None
        if unsure:
            why = (f"which file it reads cannot be told: the key {shown} stands at "
                   + " and ".join(d.where for d in unsure))
        else:
            assert kept is not None and renamed is not None
            why = (f"the key {shown} is renamed {new} at {renamed.where} but kept at {kept.where} "
                   f"({kept.why}), and both are read there")
        return "refuse", f"`{ref.text}` reads a key the sweep both renames and keeps: {why}"
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
    kept_by_name = [d for d in defs if d.fate == "stays" and not d.record and d.why != "excluded"
                    and d.path[-1] == old]
    if not candidates and ref.quoted and kept_by_name:
        # break-it round 8, finding 4: a quoted key the plain rules would rewrite, read by a path no
        # key has (an alias, a computed mapping), while a live key of that name is kept
        d = kept_by_name[0]
        return "refuse", (f"`{ref.text}` reads a key {old} by a path no key of the repo has ({shown}), "
                          f"while the key {d.dotted} keeps its name at {d.where} ({d.why})")
    if not candidates:
        return None
    d = candidates[0]
    return "refuse", (f"`{ref.text}` reads a key {old} by a path no key of the repo has ({shown}), "
                      f"while the key {d.dotted} is renamed {new} at {d.where}")


def decide_host(ref: KeyRef, new: str, defs: list[KeyDef]) -> Decision:
    """`hostvars.pug`, `hostvars['pug']`, `groups.pug` follow the inventory host's fate (break-it
    round 6, finding 4): renamed everywhere, they follow; kept everywhere, they keep; else (kept
    in one inventory and renamed in another, or no inventory of the repo names it) a residual."""
    old = ref.name
    if ref.path[0] == "groups":  # `groups['pug']` reads the group pug, where one is defined
        groups = [d if d.fate != "new" else replace(d, fate="moves") for d in defs
                  if len(d.path) >= 2 and d.path[-2] in (_GROUPS, "children") and d.path[-1] in (old, new)]
        if groups:
            return _decide_group(ref, new, groups)
    # the host's new name standing already is the host moved before (verify after the sweep)
    hosts = [d if d.fate != "new" else replace(d, fate="moves") for d in defs
             if len(d.path) >= 2 and d.path[-2] == "hosts" and d.path[-1] in (old, new)]
    fates = {d.fate for d in hosts}
    if hosts and fates == {"moves"}:
        return "follow", (f"`{ref.text}` reads the inventory host {old}, renamed {new} at {hosts[0].where}: "
                          "it follows the host")
    if hosts and fates == {"stays"}:
        return "keep", (f"`{ref.text}` reads the inventory host {old} at {hosts[0].where}, which keeps its "
                        f"name ({hosts[0].why})")
    if not hosts:
        return "refuse", (f"`{ref.text}` reads an inventory host {old}, which no inventory file of the repo "
                          "names: whether it is renamed cannot be told")
    kept = next(d for d in hosts if d.fate != "moves")
    moved = [d for d in hosts if d.fate == "moves"]
    also = f", renamed {new} at {moved[0].where}" if moved else ""
    return "refuse", (f"`{ref.text}` reads the inventory host {old}, kept at {kept.where} ({kept.why})"
                      f"{also}: which it is after the sweep cannot be told")


def _decide_group(ref: KeyRef, new: str, groups: list[KeyDef]) -> Decision:
    """`groups['pug']` where an inventory defines a group pug: the group's fate, as a host's."""
    fates = {d.fate for d in groups}
    if fates == {"moves"}:
        return "follow", (f"`{ref.text}` reads the inventory group {ref.name}, renamed {new} at "
                          f"{groups[0].where}: it follows the group")
    if fates == {"stays"}:
        return "keep", (f"`{ref.text}` reads the inventory group {ref.name} at {groups[0].where}, which "
                        f"keeps its name ({groups[0].why})")
    kept = next(d for d in groups if d.fate != "moves")
    return "refuse", (f"`{ref.text}` reads the inventory group {ref.name}, kept at {kept.where} ({kept.why}) "
                      "and renamed elsewhere: which it is after the sweep cannot be told")


KEPT_REFERENCE = "kept-reference"  # a kept line whose target the sweep rewrites: refused


def _kept_lines(data: bytes, rel: str, refs: list[KeyRef], index: KeyIndex) -> dict[int, str]:
    """The exempt lines (0-based) holding a reference, and what keeps each."""
    lines = data.decode("utf-8", "replace").split("\n")
    wanted = [data.count(b"\n", 0, r.start) for r in refs]
    found = index.project.classifier.line_exemptions(rel, lines, wanted)
    return {i: e.reason for i, e in found.items()}


def key_matches(data: bytes, rel: str, matches: list[Match], index: KeyIndex) -> list[Match]:
    """`matches` with each key reference decided: followed (a match, rewritten), kept with its
    key (`key-of-record`), or refused (`key-reference`); see the module's docstring."""
    refs = _all_refs(data, rel, index.olds, lambda: index.module_text(rel), lambda: index.env_project(rel))
    if not refs:
        return matches
    by_start = {m.start: i for i, m in enumerate(matches)}
    out = list(matches)
    added: list[Match] = []
    kept = _kept_lines(data, rel, refs, index)
    for ref in refs:
        decided = index.decide(ref, rel)
        if decided is None:
            continue
        action: str = decided[0]
        why = decided[1]
        exempt = kept.get(data.count(b"\n", 0, ref.start))
        # a kept `delegate_to: pug` or `hosts: pug` is a play kept on the old host on purpose
        consumer = ref.host and ref.path[0] in host_refs.CONSUMERS
        if action == "follow" and exempt is not None and not consumer:
            # A line kept on purpose whose key the sweep renames would read a key that is gone:
            # refused before anything is written (break-it round 6, finding 3).
            action, why = "broken-keep", (
                f"`{ref.text}` is kept on purpose ({exempt}), but {why.split(': ', 1)[-1]}; after the "
                "sweep it reads a key that is gone: keep the key too (the marker or a keep rule on its "
                "line), or drop the keep here")
        at = by_start.get(ref.start)
        if at is not None and (out[at].refused is not None or out[at].kept is not None):
            continue  # a range, a pattern, an account: decided already
        base = (out[at] if at is not None
                else Match(ref.start, ref.end, ref.name, index.renames[ref.name], "host"))
        if action == "follow":
            decided_match = replace(base, note=why)
        elif action == "keep":
            decided_match = replace(base, kept="key-of-record", note=why)
        elif action == "broken-keep":
            decided_match = replace(base, refused=KEPT_REFERENCE, note=why)
        else:
            holds = index.holding(rel, data.count(b"\n", 0, ref.start) + 1, ref.name)
            if holds:  # round 7, finding 10: no half of the pair is written
                why += f"; held back with it, not renamed in this sweep: the key at {', '.join(holds)}"
            decided_match = replace(base, refused="key-reference", note=why)
        if at is not None:
            out[at] = decided_match
        elif not any(m.start < ref.end and ref.start < m.end for m in matches):
            added.append(decided_match)
    return sorted([*out, *added], key=lambda m: m.start) if added else out
