"""Intended merges (renames.merges: two old values become one new one): the places where the two
would collide once both are rewritten. Each collision refuses the file's edits, naming both old
values; this is the one place that knows them, for every keyed format:

* by line, in any file: two mapping keys or `key=` lines of one parent, two INI/TOML sections,
  two hosts of one Ansible INI group (`web01 ansible_host=...`), two ssh `Host` blocks (ssh uses
  the first that matches: the second would never apply), two hosts-file entries or zone or
  dnsmasq records of one name and type with different data (two identical ones are one);
* by key path, where the format knows key paths (YAML, JSON, TOML): two keys of one mapping
  wherever they stand, a flow mapping or one-line JSON included (`{"web01": 1, "web02": 2}`).

The parsers' own structure check (sweep/scan.py) refuses these too, naming one key: this check
runs first so the refusal names both.
"""

from __future__ import annotations

import bisect
import ipaddress
import re
from collections.abc import Sequence
from dataclasses import dataclass

from renamer.formats import Format
from renamer.sweep.model import Edit, apply_edits

_SECTION = re.compile(r"^\s*\[\[?\s*(?P<key>[^\]]+?)\s*\]\]?\s*(?:[#;].*)?$")
_MAPPING = re.compile(r"""^(?P<indent>\s*)(?:-\s+)?(?P<q>["']?)(?P<key>[^\s:#="'{}\[\],]+)(?P=q)"""
                      r"\s*:(?:\s|$)")
_ASSIGN = re.compile(r"^(?P<indent>\s*)(?:export\s+)?(?P<key>[A-Za-z_][\w.-]*)\s*=")
_RECORD = re.compile(r"^(?P<key>[^\s;$]+)\s+(?:\d+[smhdw]?\s+)?(?:IN\s+)?"
                     r"(?P<type>A|AAAA|CNAME|PTR|MX|TXT|SRV|NS)\s+(?P<data>.+?)\s*(?:;.*)?$")
_DNSMASQ = re.compile(r"^(?P<type>host-record|cname|address|ptr-record|txt-record)=/?(?P<key>[^,/]+)[,/]"
                      r"(?P<data>.*)$")
# ssh_config: `Host web01 web01.lab` (`host = web01` is an INI or TOML key: values may merge).
_SSH_HOST = re.compile(r"^\s*(?:Host|host|HOST)\s+(?P<names>[^#=\s][^#=]*?)\s*(?:#.*)?$")
# A hosts file's line: an address, then its names.
_HOSTS_LINE = re.compile(r"^\s*(?P<address>[0-9A-Fa-f.:]+(?:%\w+)?)\s+(?P<names>[^#]+?)\s*(?:#.*)?$")
# An Ansible INI inventory's host line inside a group: a name, then only `var=value` pairs.
_INVENTORY_HOST = re.compile(r"^(?P<key>[A-Za-z0-9_.\-]+)(?:\s+[\w.]+=\S*)*\s*$")
_WORD = re.compile(r"\S+")


@dataclass(frozen=True)
class _Key:
    what: str  # what the two would become, said in the message: "key", "section", "A record"
    scope: str  # the parent (mapping line, INI section), the record type
    name: str


_Found = tuple[_Key, tuple[int, int], str]  # a key, its character span on its line, the record data


def merge_problem(data: bytes, edits: Sequence[Edit], merges: Sequence[tuple[str, tuple[str, ...]]],
                  fmt: Format | None = None) -> str | None:
    """Why the edits would collide two merged values in this file, naming both; None if they do not."""
    groups = {old.encode(): (new, set(olds)) for new, olds in merges for old in olds}
    merged = [e for e in edits if data[e.start:e.end] in groups]
    if len({data[e.start:e.end] for e in merged}) < 2:
        return None  # one old value alone cannot collide with another
    after = apply_edits(data, list(edits))
    shift, moved = 0, []  # each edit's offset in the rewritten bytes, for the line it lands on
    for e in sorted(edits, key=lambda e: e.start):
        if e in merged:
            moved.append((e.start + shift, data[e.start:e.end].decode()))
        shift += len(e.new) - (e.end - e.start)
    starts = [0]
    for line in after.split(b"\n")[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    keys = _keys(after.decode("utf-8", "replace").split("\n"))
    seen: dict[_Key, tuple[str, int, str]] = {}
    for start, old in moved:
        index = bisect.bisect_right(starts, start) - 1
        column = start - starts[index]
        found = next(((k, payload) for k, span, payload in keys.get(index, ())
                      if span[0] <= column < span[1]), None)
        if found is None:
            continue  # the value merges, not the key: `host: a` and `host: b` may both say `host: c`
        problem = _meets(seen, found[0], old, index, found[1], groups)
        if problem:
            return problem
    return _by_key_path(fmt, after, moved, starts, groups) if fmt is not None and fmt.keys else None


def _meets(seen: dict[_Key, tuple[str, int, str]], key: _Key, old: str, index: int, payload: str,
           groups: dict[bytes, tuple[str, set[str]]]) -> str | None:
    other = seen.setdefault(key, (old, index, payload))
    differs = not key.what.endswith(("record", "entry")) or other[2] != payload  # identical records are one
    if other[0] != old and other[0] in groups[old.encode()][1] and differs:
        return (f"{other[0]} (line {other[1] + 1}) and {old} (line {index + 1}) are merged into "
                f"{groups[old.encode()][0]}: both would become the {key.what} {key.name}; merge the two "
                "by hand (or keep one with a keep rule)")
    return None


def _by_key_path(fmt: Format, after: bytes, moved: list[tuple[int, str]], starts: list[int],
                 groups: dict[bytes, tuple[str, set[str]]]) -> str | None:
    """Two merged keys with one key path once rewritten, as the format locates them (a flow
    mapping, one-line JSON, a TOML inline table: what no line rule sees)."""
    text = after.decode("utf-8", "replace")
    offsets = [len(after[:start].decode("utf-8", "replace")) for start, _ in moved]
    located = fmt.locate(text, offsets)
    if located is None:
        return None
    seen: dict[_Key, tuple[str, int, str]] = {}
    for (start, old), (path, role) in zip(moved, located, strict=True):
        if role != "key" or path is None:
            continue
        index = bisect.bisect_right(starts, start) - 1
        problem = _meets(seen, _Key("key", "", path), old, index, "", groups)
        if problem:
            return problem
    return None


def _keys(lines: list[str]) -> dict[int, list[_Found]]:
    """Each line's keys (what two lines of a kind may not share), each key's character span, and
    the record data (two identical records are no conflict)."""
    out: dict[int, list[_Found]] = {}
    parents: list[tuple[int, str]] = []  # (indent, line) of the open YAML mappings
    section = ""
    for index, line in enumerate(lines):
        text = line.rstrip("\r")
        if not text.strip() or text.lstrip().startswith(("#", ";")):
            continue
        if m := _SECTION.match(text):
            section = m.group("key")
            out[index] = [(_Key("section", "", section), m.span("key"), "")]
            parents = []
            continue
        if m := _DNSMASQ.match(text):
            key = _Key(f"{m.group('type')} record", m.group("type"), m.group("key").lower())
            out[index] = [(key, m.span("key"), m.group("data"))]
            continue
        if m := _RECORD.match(text):
            kind = m.group("type").upper()
            key = _Key(f"{kind} record", kind, m.group("key").lower())
            out[index] = [(key, m.span("key"), m.group("data"))]
            continue
        if found := _words(text, _SSH_HOST, "names", "ssh Host block", "Host", ""):
            out[index] = found
            continue
        if (m := _HOSTS_LINE.match(text)) and _address(m.group("address")):
            out[index] = _words(text, _HOSTS_LINE, "names", "hosts-file entry", "hosts", m.group("address"),
                                lower=True)
            continue
        indent = len(text) - len(text.lstrip())
        while parents and parents[-1][0] >= indent:
            parents.pop()
        if m := _MAPPING.match(text) or _ASSIGN.match(text):
            scope = section + "\n" + "\n".join(p for _, p in parents)
            out[index] = [(_Key("key", scope, m.group("key")), m.span("key"), "")]
            parents.append((indent, text.strip()))
        elif section and (m := _INVENTORY_HOST.match(text)):
            name = f"{m.group('key')} of the inventory group [{section}]"
            out[index] = [(_Key("host", section, name), m.span("key"), "")]
    return out


def _words(text: str, pattern: re.Pattern[str], group: str, what: str, scope: str, payload: str,
           *, lower: bool = False) -> list[_Found]:
    """One key per word of a line's name list (`Host a b`, `10.0.0.1 a a.lan`)."""
    m = pattern.match(text)
    if m is None:
        return []
    base = m.start(group)
    return [(_Key(what, scope, w.group().lower() if lower else w.group()), (base + w.start(), base + w.end()),
             payload) for w in _WORD.finditer(m.group(group))]


def _address(text: str) -> bool:
    try:
        ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return False
    return True
