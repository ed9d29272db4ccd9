"""Intended merges (renames.merges: two old values become one new one): the places where the two
would collide once both are rewritten, found line by line in any format: two mapping keys or
`key=` lines of one parent, two INI/TOML sections, two zone records (or dnsmasq records) of one
owner and type with different data. Each collision refuses the file's edits, naming both old values.

YAML, JSON and TOML are parsed as well (sweep/scan.py): this check only gives the collision its
two names, and covers the formats no parser reads (INI, zone files, dnsmasq, .env).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass

from renamer.sweep.model import Edit, apply_edits

_SECTION = re.compile(r"^\s*\[\[?\s*(?P<key>[^\]]+?)\s*\]\]?\s*(?:[#;].*)?$")
_MAPPING = re.compile(r"""^(?P<indent>\s*)(?:-\s+)?(?P<q>["']?)(?P<key>[^\s:#="'{}\[\],]+)(?P=q)"""
                      r"\s*:(?:\s|$)")
_ASSIGN = re.compile(r"^(?P<indent>\s*)(?:export\s+)?(?P<key>[A-Za-z_][\w.-]*)\s*=")
_RECORD = re.compile(r"^(?P<key>[^\s;$]+)\s+(?:\d+[smhdw]?\s+)?(?:IN\s+)?"
                     r"(?P<type>A|AAAA|CNAME|PTR|MX|TXT|SRV|NS)\s+(?P<data>.+?)\s*(?:;.*)?$")
_DNSMASQ = re.compile(r"^(?P<type>host-record|cname|address|ptr-record|txt-record)=/?(?P<key>[^,/]+)[,/]"
                      r"(?P<data>.*)$")


@dataclass(frozen=True)
class _Key:
    kind: str  # what collides: "key", "section", "record"
    scope: str  # the parent (mapping line, INI section) or the record type
    name: str


def merge_problem(data: bytes, edits: Sequence[Edit],
                  merges: Sequence[tuple[str, tuple[str, ...]]]) -> str | None:
    """Why the edits would collide two merged values in this file, naming both; None if they do not."""
    groups = {old.encode(): (new, set(olds)) for new, olds in merges for old in olds}
    merged = [e for e in edits if data[e.start:e.end] in groups]
    if len({data[e.start:e.end] for e in merged}) < 2:
        return None  # one old value alone cannot collide with another
    after = apply_edits(data, list(edits))
    shift, moved = 0, []  # each edit's offset in the rewritten bytes, for the line it lands on
    for e in sorted(edits, key=lambda e: e.start):
        if e in merged:
            moved.append((e.start + shift, e.start + shift + len(e.new), data[e.start:e.end].decode()))
        shift += len(e.new) - (e.end - e.start)
    lines = after.decode("utf-8", "replace").split("\n")
    starts = [0]
    for line in after.split(b"\n")[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    keys = _keys(lines)
    seen: dict[_Key, tuple[str, int, str]] = {}
    for start, _end, old in moved:
        index = bisect.bisect_right(starts, start) - 1
        found = keys.get(index)
        if found is None:
            continue
        key, span, payload = found
        column = start - starts[index]
        if not span[0] <= column < span[1]:
            continue  # the value merges, not the key: `host: a` and `host: b` may both say `host: c`
        other = seen.setdefault(key, (old, index, payload))
        differs = key.kind != "record" or other[2] != payload  # two identical records are one
        if other[0] != old and other[0] in groups[old.encode()][1] and differs:
            what = {"key": "key", "section": "section", "record": f"{key.scope} record"}[key.kind]
            return (f"{other[0]} (line {other[1] + 1}) and {old} (line {index + 1}) are merged into "
                    f"{groups[old.encode()][0]}: both would become the {what} {key.name}; merge the two "
                    "by hand (or keep one with a keep rule)")
    return None


def _keys(lines: list[str]) -> dict[int, tuple[_Key, tuple[int, int], str]]:
    """Each line's key (what two lines of a kind may not share), the key's character span, and the
    record data (two identical records are no conflict)."""
    out: dict[int, tuple[_Key, tuple[int, int], str]] = {}
    parents: list[tuple[int, str]] = []  # (indent, line) of the open YAML mappings
    section = ""
    for index, line in enumerate(lines):
        text = line.rstrip("\r")
        if not text.strip() or text.lstrip().startswith(("#", ";")):
            continue
        if m := _SECTION.match(text):
            section = m.group("key")
            out[index] = (_Key("section", "", section), m.span("key"), "")
            parents = []
            continue
        if m := _DNSMASQ.match(text):
            key = _Key("record", m.group("type"), m.group("key").lower())
            out[index] = (key, m.span("key"), m.group("data"))
            continue
        if m := _RECORD.match(text):
            out[index] = (_Key("record", m.group("type").upper(), m.group("key").lower()), m.span("key"),
                          m.group("data"))
            continue
        indent = len(text) - len(text.lstrip())
        while parents and parents[-1][0] >= indent:
            parents.pop()
        if m := _MAPPING.match(text) or _ASSIGN.match(text):
            scope = section + "\n" + "\n".join(p for _, p in parents)
            out[index] = (_Key("key", scope, m.group("key")), m.span("key"), "")
            parents.append((indent, text.strip()))
    return out
