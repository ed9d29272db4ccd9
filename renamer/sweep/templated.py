"""Names built from a domain variable the repo defines (break-it round 3, finding 9).

`url: https://ana-ml2.{{ domain }}/` beside `domain: ana.lan` in group_vars (or `ana-ml2.${DOMAIN}`
beside `DOMAIN=ana.lan` in an `.env`) is ana-ml2.ana.lan to every consumer, and no byte spells it.
Where the rename of that FQDN is not already followed by a plain rewrite of its label (a host
rename `ana-ml2 -> fv-ml1` with the FQDN's rename keeping the domain: `fv-ml1.{{ domain }}` is
then the new FQDN), it is a residual `templated-name` naming the variable and the file:line that
defines it as the old domain (or the template's own default, `default('ana.lan')`,
`${DOMAIN:-ana.lan}`); any plain match of the label inside it is refused with it (rewriting the
label alone would leave the old domain). A definition naming another variable (`DOMAIN=${BASE}`,
`domain: "{{ base_domain }}"`, Terraform's `var.base`) is followed to that one's definitions
(variable_values.py: bounded depth, cycles refused). Where the repo defines the variable nowhere
(or only through a variable defined nowhere, or a cycle), what it holds cannot be told: a
near-miss note saying which, never silence. A variable the repo defines only as other domains
makes no finding: the name is another machine. Only live files define (`Definitions.live`).

Each definition also has a fate (`Definitions.fate`): the sweep rewrites it, keeps it (an inline
marker, a keep rule, a dated section: its value stays old), or cannot tell (an unclassified file:
left for a person). A composed name reads the value the definition will hold (sweep/composed.py;
break-it round 5, finding A).

The definitions are asked of git (`git grep`, sweep/../vcs_status.py) once per variable and
process, and only for a file that holds `label.{{` or `label.$` for an old FQDN's label.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Literal

from renamer import lazy_re, loop_values, templated_names, variable_values, vcs_status
from renamer.classify import CURRENT, Classifier
from renamer.occurrences import Match
from renamer.sweep.content import classify_bytes
from renamer.templated_names import TemplatedName
from renamer.variable_values import Definition, Values

Fate = Literal["rewritten", "kept", "unknown"]
FateOf = Callable[[str, int], Fate]  # path, 1-based line -> what the sweep does to that definition


def _defining(name: str) -> str:
    """The ERE (PCRE alike) of a line that may define `name` (a regex: one name, escaped, or a
    group of them): `name:`, `name =`, and a Kubernetes container's `env:` item,
    `{name: HOST, value: pug}` or `- name: HOST` over `value: pug` (break-it round 19, finding 13:
    `$(HOST).$(DOMAIN)` reads the pod's own)."""
    return (rf"(^|[^A-Za-z0-9_]){name}[[:space:]]*[:=]"
            rf"|name[\"']?[[:space:]]*:[[:space:]]*[\"']?{name}[\"']?[[:space:]]*([,}}]|$)")


def _declaring(name: str) -> str:
    """The ERE of a Terraform `variable "NAME" {` line."""
    return rf"^[[:space:]]*variable[[:space:]]+\"{name}\"[[:space:]]*\{{"


_SPACE = "[ \t\n\r\f\v]"  # POSIX [[:space:]]


@functools.lru_cache(maxsize=4096)
def _readers(variable: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """`_defining` and `_declaring` of one variable in Python's syntax: which of a batch's lines
    that variable's own grep would have found."""
    return (re.compile(_defining(re.escape(variable)).replace("[[:space:]]", _SPACE)),
            re.compile(_declaring(re.escape(variable)).replace("[[:space:]]", _SPACE)))


_PLAIN = lazy_re.compile(r"[A-Za-z0-9_]+")
_WORD = lazy_re.compile(r"[A-Za-z0-9_]+")
_BATCH = 200  # variables a batched grep asks for at once

_KUBE_ENV_NAME = lazy_re.compile(r"\s*(?:-\s+)?\{?\s*[\"']?name[\"']?\s*:")


class Definitions:
    """Where the repo defines each variable (its work tree, through git grep), asked lazily; only
    lines of files `live` accepts count (a record's old `.env` defines nothing today)."""

    def __init__(self, root: Path, live: Callable[[str], bool] | None = None,
                 fate: FateOf | None = None) -> None:
        self.root = root
        self.live = live or (lambda _: True)
        self._fate = fate or (lambda _path, _line: "rewritten")
        self._found: dict[str, list[Definition]] = {}
        self._values: dict[tuple[str, str | None], Values] = {}

    def of(self, variable: str) -> list[Definition]:
        if variable not in self._found:
            name = re.escape(variable)
            lines = vcs_status.worktree_lines_matching(self.root, _defining(name)) or []
            self._found[variable] = self._defined(variable, lines) + self._terraform(variable)
        return self._found[variable]

    def prefetch(self, variables: list[str]) -> None:
        """Read the definitions of `variables` (a file's templates' own) in one git grep, before
        each is asked alone (issue 30: `NET=${O1}.${O2}.${O3}` asked three greps, then three more
        for the names each of those names)."""
        self._fetch(list(dict.fromkeys(v for v in variables if v not in self._found)))

    def _fetch(self, variables: list[str]) -> None:
        """`of` for each of `variables` (plain names), from one git grep per `_BATCH` of them."""
        if len(variables) < 2:
            return  # `of` greps for one alone, as cheaply
        for at in range(0, len(variables), _BATCH):
            chunk = [v for v in variables[at:at + _BATCH] if _PLAIN.fullmatch(v)]
            if len(chunk) < 2:
                continue
            either = "|".join(chunk)
            lines = vcs_status.worktree_lines_matching(
                self.root, f"{_defining(f'({either})')}|{_declaring(f'({either})')}")
            if lines is None:
                return  # git cannot say for the batch: `of` asks for each alone
            # Each variable a line may define stands in it as a whole word: only those are asked.
            asked = set(chunk)
            mine: dict[str, list[tuple[str, int, str]]] = {v: [] for v in chunk}
            declared: dict[str, list[tuple[str, int, str]]] = {v: [] for v in chunk}
            for line in lines:
                for variable in asked.intersection(_WORD.findall(line[2])):
                    defining, declaring = _readers(variable)
                    if defining.search(line[2]):
                        mine[variable].append(line)
                    if declaring.search(line[2]):
                        declared[variable].append(line)
            for variable in chunk:
                self._found[variable] = (self._defined(variable, mine[variable])
                                         + self._terraform(variable, declared[variable]))

    def _defined(self, variable: str, lines: list[tuple[str, int, str]]) -> list[Definition]:
        """The definitions of `variable` on `lines` (those `_defining` greps for)."""
        found = []
        for path, number, text in lines:
            value = templated_names.defined_value(text, variable)
            if value is None and self.live(path):
                value = self._kube_env(path, number, text, variable)
            if value is not None and self.live(path):
                found.append((path, number, value))
        return found

    def values(self, variable: str, near: str | None = None) -> Values:
        """What `variable` may hold, followed through the variables its definitions name; `near`:
        the file that reads it, whose own definitions, else its folder's (or the nearest folder
        above with any), win over the rest of the repo's (a compose file reads its own `.env`)."""
        scope = None if near is None else _scope(near, self.of(variable))
        if (variable, scope) not in self._values:
            lookup = self.of if scope is None else (lambda v: _nearest(self.of(v), near or ""))
            # Issue 30: each variable the definitions name cost two `git grep`s over the work tree
            # (0.3 s apiece on mailcow-dockerized, whose shell scripts define hundreds of variables
            # through each other). The resolution runs over what is known; the variables it asked
            # that no grep has read yet are read together, in one grep, and it runs again, until
            # it asks none: the last run is the one a grep per variable gave, at most DEPTH + 1
            # greps for the whole chain instead of two per variable.
            missing: list[str] = []

            def known(name: str) -> list[Definition]:
                if name in self._found:
                    return list(lookup(name))
                missing.append(name)
                return [("", 0, "")]  # a stand-in, so the expansion goes on to the names beside it

            while True:
                missing.clear()
                resolved = variable_values.resolve(variable, known)
                if not missing:
                    break
                self._fetch(list(dict.fromkeys(missing)))
                for name in list(missing):
                    self.of(name)  # what no batch read (one alone, a name no batch takes)
            self._values[(variable, scope)] = resolved
        return self._values[(variable, scope)]

    def list_items(self, variable: str, near: str | None = None, split: bool = False,
                   keys: bool = False) -> tuple[list[Definition], list[str]]:
        """The words of each list the repo defines `variable` as (`gpu_hosts: [pug, rex]`, a YAML
        block list below the key, Terraform's `default = ["pug"]`, on one line or several), each
        with the line spelling it; and why a definition gives no list (a loop walks it). `split`:
        a shell value's words (`HOSTS="pug rex"` for `for n in $HOSTS`); `keys`: a mapping's keys
        where a definition is one (`hosts = { pug = ..., rex = ... }` for Terraform's `for k, v in
        var.hosts` and `each.key`: break-it round 16, #10)."""
        found = self.of(variable)
        if near is not None:
            found = _nearest(found, near)
        if not found:
            return [], [f"`{variable}` is defined nowhere in the repo"]
        items: list[Definition] = []
        unknown: list[str] = []
        for path, line, raw in found:
            words = loop_values.shell_words(raw) if split else loop_values.list_items(raw)
            if words is not None:
                items += [(path, line, word) for word in words]
                continue
            block = self._block_list(path, line, raw) if raw.strip() in ("", "[") and not split else None
            if block is None and keys and raw.strip().startswith("{"):
                block = self._block_keys(path, line, raw)
            if block is None:
                unknown.append(f"`{variable}` is {raw or 'a mapping'} at {path}:{line}, no list of words")
            else:
                items += block
        return items, unknown

    def _block_list(self, path: str, line: int, raw: str) -> list[Definition] | None:
        """A list written below its key: YAML's `- word` lines, or an HCL list over several lines."""
        try:
            lines = (self.root / path).read_text("utf-8", "replace").splitlines()
        except OSError:
            return None
        out: list[Definition] = []
        if raw.strip() == "[":
            for number, text in enumerate(lines[line:], start=line + 1):
                word = text.strip().rstrip(",")
                if word.startswith("]"):
                    return out
                words = loop_values.list_items(f"[{word}]")
                if words is None:
                    return None
                out += [(path, number, w) for w in words]
            return None
        for number, text in enumerate(lines[line:], start=line + 1):
            item = re.match(r"\s*-\s+(.*?)\s*(?:#.*)?$", text)
            if item is None:
                if not text.strip() or text.lstrip().startswith("#"):
                    continue
                break
            words = loop_values.list_items(f"[{item.group(1)}]")
            if words is None or len(words) != 1:
                return None
            out.append((path, number, words[0]))
        return out or None

    def _block_keys(self, path: str, line: int, raw: str) -> list[Definition] | None:
        """The keys of a mapping opened at `path:line` (`{` alone, its keys below one a line, or
        `{ pug = "a", rex = "b" }` on the line), each with its line; None where a key is no plain
        word (an expression, `(var.x) = ...`) or the mapping does not close."""
        text = raw.strip()
        if text.endswith("}") and "{" not in text[1:-1]:
            keys = [_MAP_KEY.match(part) for part in text[1:-1].split(",") if part.strip()]
            if not keys or not all(keys):
                return None
            return [(path, line, k.group("key") or k.group("quoted")) for k in keys if k is not None]
        if text != "{":
            return None
        try:
            lines = (self.root / path).read_text("utf-8", "replace").splitlines()
        except OSError:
            return None
        out: list[Definition] = []
        depth = 0
        for number, body in enumerate(lines[line:], start=line + 1):
            stripped = body.strip()
            if not stripped or stripped.startswith(("#", "//")):
                continue
            if depth == 0:
                if stripped.startswith("}"):
                    return out
                key = _MAP_KEY.match(stripped)
                if key is None:
                    return None
                out.append((path, number, key.group("key") or key.group("quoted")))
            depth += stripped.count("{") + stripped.count("[") - stripped.count("}") - stripped.count("]")
            if depth < 0:
                return out
        return None

    def fate(self, path: str, line: int) -> Fate:
        """What the sweep does to the definition at `path:line`."""
        return self._fate(path, line)

    def _kube_env(self, path: str, number: int, text: str, variable: str) -> str | None:
        """The `value:` of a Kubernetes env item naming `variable` on line `number` (flow, or the
        block's next lines at the same indent); None where it holds none (`valueFrom:`)."""
        named = re.search(rf"[\"']?{re.escape(variable)}[\"']?\s*(?:[,}}]|$)", text)
        if not _KUBE_ENV_NAME.match(text) or named is None:
            return None
        flow = re.search(r"[{,]\s*[\"']?value[\"']?\s*:\s*(\"[^\"]*\"|'[^']*'|[^,}]+)", text)
        if flow is not None:
            return flow.group(1).strip().strip("\"'")
        try:
            lines = (self.root / path).read_text("utf-8", "replace").splitlines()
        except OSError:
            return None
        indent = len(text) - len(text.lstrip(" -"))
        for line in lines[number:number + 4]:
            stripped = line.lstrip(" ")
            if not stripped or stripped.startswith("-") or len(line) - len(stripped) != indent:
                return None
            value = templated_names.defined_value(line, "value")
            if value is not None:
                return value
        return None

    def _terraform(self, variable: str, blocks: list[tuple[str, int, str]] | None = None) -> list[Definition]:
        """`variable "NAME" { default = "value" }`: the default line of each such block (`blocks`:
        the lines `_declaring` greps for, where a batch read them already)."""
        if blocks is None:
            blocks = vcs_status.worktree_lines_matching(self.root, _declaring(re.escape(variable))) or []
        found = []
        for path, number, text in blocks:
            if not self.live(path):
                continue
            # A one-line block, `variable "prefix" { default = "10.0.40" }`: its default after the brace.
            body = text.split("{", 1)[1].rstrip().removesuffix("}")
            inline = templated_names.defined_value(body, "default")
            if inline is not None:
                found.append((path, number, inline))
                continue
            try:
                lines = (self.root / path).read_text("utf-8", "replace").splitlines()
            except OSError:
                continue
            for offset, text in enumerate(lines[number:], start=number + 1):
                if text.startswith("}"):
                    break
                value = templated_names.defined_value(text, "default")
                if value is not None:
                    found.append((path, offset, value))
                    break
        return found


class Fates:
    """`FateOf` from the allowlist: a current file's line is rewritten unless exempt (the inline
    marker, a keep rule, a dated section) or the file is one the sweep never rewrites (a link,
    over `max_size`, binary or another encoding: kept, break-it round 6, finding 6); any other
    live file (unclassified) is not the sweep's to rewrite, and what a person will make of it
    cannot be told."""

    def __init__(self, root: Path, classifier: Classifier, max_size: int | None = None,
                 held: Collection[tuple[str, int]] = (),
                 holds: Callable[[str, str], bool] | None = None) -> None:
        self.root = root
        self.classifier = classifier
        self.max_size = max_size
        self._lines: dict[str, list[str] | None] = {}  # None: a file the sweep never rewrites
        # Lines a composition elsewhere holds as they are (sweep/helm_tails.held_lines): kept.
        self.held = frozenset(held)
        # A line a composition of its own holds (path, its text; sweep/machine_search.line_holder): kept.
        self.holds = holds

    def __call__(self, path: str, line: int) -> Fate:
        if self.classifier.classify(path).status != CURRENT:
            return "unknown"
        if (path, line) in self.held:
            return "kept"
        if path not in self._lines:
            self._lines[path] = self._read(path)
        lines = self._lines[path]
        if lines is None:
            return "kept"
        if not 0 < line <= len(lines):
            return "unknown"
        if self.holds is not None and self.holds(path, lines[line - 1]):
            return "kept"
        return "kept" if self.classifier.line_exemptions(path, lines, [line - 1]) else "rewritten"


    def _read(self, path: str) -> list[str] | None:
        full = self.root / path
        try:
            if full.is_symlink() or (self.max_size is not None and full.stat().st_size > self.max_size):
                return None
            content = classify_bytes(full.read_bytes(), name=str(full))
        except OSError:
            return []
        return content.data.decode("utf-8", "replace").split("\n") if content.kind == "text" else None


# A mapping's key in HCL or YAML flow: `pug = ...`, `"pug.ana.lan" = ...`, `pug: ...`.
_MAP_KEY = lazy_re.compile(r"""\s*(?:(?P<key>[A-Za-z0-9_][A-Za-z0-9_.-]*)|"(?P<quoted>[^"]+)")\s*[=:]""")


def _nearest(found: list[Definition], near: str) -> list[Definition]:
    """The definitions in `near` itself, else in its folder or the nearest folder above holding
    any, else all of them."""
    same = [d for d in found if d[0] == near]
    if same:
        return same
    folder = near.rpartition("/")[0]
    while True:
        here = [d for d in found if d[0].rpartition("/")[0] == folder]
        if here or not folder:
            return here or _readable(found, near)
        folder = folder.rpartition("/")[0]


# Languages whose variables only their own files define (break-it round 19, finding 13): a Nix
# `${host}` is never a Helm value's `host:`, a Terraform `var.host` never an Ansible var.
_CLOSED = ((".tf", ".tfvars", ".tf.json", ".tfvars.json", ".hcl"), (".nix",))
_CHART_VALUES = lazy_re.compile(r"(?:^|/)values(?:[-.][^/]*)?\.ya?ml$")


def _readable(found: list[Definition], near: str) -> list[Definition]:
    """The definitions of the rest of the repo a file may read: one in a closed language reads only
    its own language's; a chart's values file (`values.yaml`, `values-prod.yaml`) is read only
    by the files under its folder (its templates)."""
    out = found
    for family in _CLOSED:
        if near.endswith(family):
            out = [d for d in out if d[0].endswith(family)]
            break
    return [d for d in out if not _CHART_VALUES.search(d[0])
            or near.startswith(d[0].rpartition("/")[0] + "/" if "/" in d[0] else "")]


def _scope(near: str, found: list[Definition]) -> str | None:
    """A cache key for `_nearest`: the folder (or file) whose definitions it picks."""
    picked = _nearest(found, near)
    if picked is found:
        return None
    if not picked or _fallback(found, near):
        return "\0" + near  # the rest of the repo, narrowed to what this file may read (one key a file)
    return picked[0][0] if picked[0][0] == near else picked[0][0].rpartition("/")[0] + "/"


def _fallback(found: list[Definition], near: str) -> bool:
    """Whether `_nearest` falls back to the rest of the repo for `near` (no definition in the file
    or a folder above it)."""
    folders = {d[0].rpartition("/")[0] for d in found}
    if any(d[0] == near for d in found):
        return False
    folder = near.rpartition("/")[0]
    while True:
        if folder in folders:
            return False
        if not folder:
            return True
        folder = folder.rpartition("/")[0]


# Left by templated_matches for the caller: (start, the name as written, what it may be, why).
Note = tuple[int, str, str, str]


def templated_matches(data: bytes, matches: list[Match], hosts: tuple[tuple[str, str], ...],
                      definitions: Definitions) -> tuple[list[Match], list[Note]]:
    """`matches` with each templated name the repo makes an old FQDN refused `templated-name`
    (`Match.note` says which variable, defined where); and a note for each one whose variable the
    repo defines nowhere."""
    labels = templated_names.labels_of(hosts)
    if not labels or not templated_names.might_hold(data, templated_names.literals(labels)):
        return matches, []
    renamed = dict(hosts)
    added: list[Match] = []
    notes: list[Note] = []
    for name in templated_names.find(data, labels):
        if any(m.refused is not None and m.start < name.end and name.start < m.end for m in matches):
            continue  # inside a range or a split already: one residual is enough
        values = definitions.values(name.variable)
        known = [(r.value, r.why()) for r in values.found]
        for old, new, domain in name.candidates:
            why = _why(name, old, domain, known)
            label = old[:len(old) - len(domain) - 1]
            follows = renamed.get(label)  # a plain rewrite of the label: right if the domain stays
            if why is not None:
                if follows is not None and new == f"{follows}.{domain}":
                    break
                added.append(Match(name.start, name.end, old, new, "host", refused="templated-name",
                                   note=why))
                break
            if not known:
                held = domain[:len(domain) - len(name.tail)] if name.tail else domain
                unknown = (values.unknown[0] if values.unknown
                           else f"`{name.variable}` is defined nowhere in the repo")
                notes.append((name.start, name.text, old,
                              f"templated: {unknown}; where it holds {held}, this is {old}"))
                break
    if not added:
        return matches, notes
    kept = [m for m in matches if not any(a.start < m.end and m.start < a.end for a in added)]
    return sorted([*kept, *added], key=lambda m: m.start), notes


def _why(name: TemplatedName, old: str, domain: str, known: list[tuple[str, str]]) -> str | None:
    """Why `name` is `old` (the variable, then `name.tail`, spelling `domain`): the definitions, or
    where the repo defines it nowhere the template's default, that make it so."""
    for value, why in known:
        if templated_names.same_domain(value, name.tail, domain):
            return f"{name.text} is {old}: {why}"
    default = name.default
    if not known and default is not None and templated_names.same_domain(default, name.tail, domain):
        return (f"{name.text} is {old}: `{name.variable}` is defined nowhere in the repo and its default "
                f"is {name.default}")
    return None

