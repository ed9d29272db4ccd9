"""Names under a renamed host's name (break-it round 10, finding 8).

`sub.ana-ml2` is another name (the host-name rule: a `.` on the left is no boundary), and stays so
where nothing says what `ana-ml2` is. But where the parent is provably the renamed host's DNS name
(an old FQDN key, `ana-ml2.ana.lan`; the old short name followed by the domain of an FQDN key; a
zone whose own `ana-ml2` the sweep renames), a name under it (`grafana.ana-ml2.ana.lan`,
`*.ana-ml2.ana.lan`, `*.ana-ml2` in that zone) is in that host's subtree: its service names, its
wildcard, a certificate's name. Left as it is, it hangs under a name that no longer exists (while
vhosts built from the new host name ask for names under the new one); rewritten, it is a new name
DNS, certificates and clients must follow. Neither is safe to do silently: each is a residual
`subdomain`, or follows the host where `options.subdomains: follow` says so.
"""

from __future__ import annotations

import functools
import re
import weakref
from dataclasses import dataclass

from renamer.formats.zone_names import zone_names
from renamer.match import Matcher
from renamer.occurrences import Match
from renamer.sweep.lines import Spans

HINT = ("a name under a renamed host's DNS name (its service names, a wildcard, a certificate's name): "
        "left as it is, it stays under a name that no longer exists, while what is built from the new "
        "host name (a vhost `<svc>.{{ inventory_hostname }}.<domain>`) asks for names under the new one; "
        "renamed, it is a new DNS name that records, certificates and clients must follow too; decide by "
        "hand, keep it with a keep rule, or set `options.subdomains: follow` to rename names under a "
        "renamed host with it")
# Before the `.` that joins a label to the parent: a label's last character, a wildcard, or the end
# of a template expression (`{{ svc }}.pug.lab.lan`, `${svc}.pug.lab.lan`).
_BEFORE = rb"[A-Za-z0-9_*}\)-]"
_ENDS = frozenset(bytes([c]) for c in b" \t\r\n\"'`=,;:/@<>[]()")


@dataclass(frozen=True)
class Parent:
    name: str  # an old name, lower case, no final dot: `pug.lab.lan`
    new: str  # what the sweep makes of it: `wolf.lab.lan`


@dataclass(frozen=True)
class _Prepared:
    parents: tuple[Parent, ...]
    labels: frozenset[bytes]  # each parent's first label after a `.`: the prefilter


_PREPARED: weakref.WeakKeyDictionary[Matcher, _Prepared] = weakref.WeakKeyDictionary()


def _prepared(matcher: Matcher) -> _Prepared:
    """Once per matcher (a scan asks for every file)."""
    known = _PREPARED.get(matcher)
    if known is None:
        found = _parents(matcher.hosts)
        known = _Prepared(found, frozenset(b"." + p.name.split(".")[0].encode("ascii", "replace")
                                           for p in found))
        _PREPARED[matcher] = known
    return known


def parents(matcher: Matcher) -> list[Parent]:
    return list(_prepared(matcher).parents)


def _parents(hosts: tuple[tuple[str, str], ...]) -> tuple[Parent, ...]:
    """The old names whose subtree is the renamed host's: every old FQDN key, and every old short
    name under the domain of an FQDN key (`pug` + `lab.lan` of `nas.lab.lan`)."""
    lowered = {old.lower(): new for old, new in hosts}
    domains = {old.split(".", 1)[1] for old in lowered if "." in old}
    out = {old: new for old, new in lowered.items() if "." in old}
    for old, new in lowered.items():
        if "." in old:
            continue
        for domain in domains:
            out.setdefault(f"{old}.{domain}", f"{new}.{domain}")
    return tuple(Parent(old, new) for old, new in sorted(out.items(), key=lambda item: -len(item[0])))


@functools.lru_cache(maxsize=16)
def _pattern(names: tuple[str, ...], any_case: bool) -> re.Pattern[bytes]:
    """One pass for every parent: a `.` after a label (or `*`, a template's end), then a parent
    that ends the name (no label character, no `.label` after it)."""
    alternatives = b"|".join(re.escape(name.encode("ascii", "replace")) for name in names)
    return re.compile(rb"(?:(?<=" + _BEFORE + rb")|" + _LEADING + rb")\.(" + alternatives
                      + rb")(?![A-Za-z0-9_-])(?!\.[A-Za-z0-9_-])", re.IGNORECASE if any_case else 0)


# A leading dot where a name starts (break-it round 22, finding 15): nginx `server_name .pug.lab`,
# squid `dstdomain .pug.lab`, `NO_PROXY=localhost,.pug.lab`, curl/Go's no_proxy: the host and every
# name under it.
_LEADING = rb"(?<![^ \t\n,=\"'(`])"
# A regex's escaped-dot tail under a parent (`~^(?<sub>.+)\.pug\.lab$`, Traefik's
# HostRegexp(`^.+\\.pug\\.lab$`) in a string): one or two backslashes before each dot, after a label
# character, a wildcard, a quantifier or a group's end.
_ESCAPED_BEFORE = rb"(?<=[A-Za-z0-9_*+?)\]}-])"


@functools.lru_cache(maxsize=16)
def _escaped_pattern(names: tuple[str, ...]) -> re.Pattern[bytes]:
    dot = rb"(?:\\{1,2})\."
    alternatives = b"|".join(dot.join(re.escape(label.encode("ascii", "replace"))
                                      for label in name.split(".")) for name in names)
    return re.compile(_ESCAPED_BEFORE + dot + rb"(" + alternatives + rb")(?![A-Za-z0-9_-])"
                      rb"(?!" + dot + rb"[A-Za-z0-9_-])", re.IGNORECASE)


def _text_hits(data: bytes, found: list[Parent], any_case: bool) -> list[tuple[int, int, Parent, int]]:
    """(start, end of the parent as written, the parent, the start of the whole name)."""
    out = []
    by_name = {p.name: p for p in found}
    for hit in _pattern(tuple(p.name for p in found), any_case).finditer(data):
        parent = by_name.get(hit.group(1).decode("ascii", "replace").lower())
        if parent is None:  # another case where case counts
            continue
        left = hit.start()  # the whole name, a template's expression included: for the report
        while left > 0 and data[left - 1:left] not in _ENDS:
            if data[left - 1:left] == b"}":  # `{{ svc }}`, `${svc}`: the expression whole
                opened = data.rfind(b"{", data.rfind(b"\n", 0, left) + 1, left - 1)
                if opened >= 0:
                    left = opened
                    while left > 0 and data[left - 1:left] in (b"{", b"$"):
                        left -= 1
                    continue
            left -= 1
        out.append((hit.start(1), hit.end(1), parent, left))
    if b"\\" in data:
        for hit in _escaped_pattern(tuple(p.name for p in found)).finditer(data):
            name = hit.group(1).replace(b"\\", b"").decode("ascii", "replace").lower()
            parent = by_name.get(name)
            if parent is not None:
                left = hit.start()
                while left > 0 and data[left - 1:left] not in _ENDS:
                    left -= 1
                out.append((hit.start(1), hit.end(1), parent, left))
    return out


def subdomain_matches(data: bytes, matches: list[Match], matcher: Matcher, *, follow: bool,
                      zone_like: bool, origin: str | None = None, apex: str | None = None,
                      any_case: bool = False,
                      relative: list[tuple[int, int, str, str]] | None = None) -> list[Match]:
    """`matches` with each name under a renamed host's name added: refused `subdomain`, or (with
    `follow`) rewritten as the host is, its part naming the parent replaced. `relative`: names
    the file writes relative to a zone outside a zone file (tool_names.relative_names: a
    Terraform dns record's `name = "*.pug"` beside `zone = "ana.lan."`, an OctoDNS key)."""
    prepared = _prepared(matcher)
    lowered = data.lower() if any_case or zone_like else data
    if not zone_like and not relative and not any(label in lowered for label in prepared.labels):
        return matches
    found = list(prepared.parents)
    if relative:  # `*.pug` relative to the record's zone `ana.lan.`: under `pug.ana.lan`
        shorts = {old.lower(): new for old, new in matcher.hosts if "." not in old}
        known = {p.name for p in found}
        for zone in {z.lower() for _, _, _, z in relative}:
            for short, new in shorts.items():
                if f"{short}.{zone}" not in known:
                    found.append(Parent(f"{short}.{zone}", f"{new}.{zone}"))
                    known.add(f"{short}.{zone}")
    if zone_like:  # names relative to the zone's origin: `*.pug` under `pug.lab.lan.`
        shorts = {old.lower(): new for old, new in matcher.hosts if "." not in old}
        known = {p.name for p in found}
        for name in zone_names(data, origin, apex).names:
            zone = (name.origin or "").rstrip(".")
            if zone and name.spelled is None:
                for short, new in shorts.items():
                    if f"{short}.{zone}" not in known:
                        found.append(Parent(f"{short}.{zone}", f"{new}.{zone}"))
                        known.add(f"{short}.{zone}")
    if not found or not any(b"." + p.name.split(".")[0].encode() in lowered for p in found):
        return matches
    taken = Spans([(m.start, m.end) for m in matches])
    added: list[Match] = []
    last = -1  # the end of the last name added: hits come in file order
    hits = _text_hits(data, found, any_case or zone_like)
    if zone_like:
        hits += _zone_hits(data, found, origin, apex)
    if relative:
        hits += _relative_hits(relative, found)
    for start, end, parent, left in sorted(hits, key=lambda h: (h[0], -h[1])):
        if start < last or taken.overlaps(start, end):
            continue
        written = data[start:end].decode("ascii", "replace")
        whole = data[left:end].decode("ascii", "replace")
        spelling = _new_spelling(written, parent)
        if spelling is None or not follow:
            note = f"`{whole}` is a name under `{parent.name}`, which this sweep renames to `{parent.new}`"
            if follow and spelling is None:
                note += (" (a regular expression's escaped spelling: it cannot follow as a name)"
                         if "\\" in written else " (out of this zone: it cannot follow as a relative name)")
            added.append(Match(start, end, written, spelling or parent.new, "host", refused="subdomain",
                               note=note))
        else:
            added.append(Match(start, end, written, spelling, "host",
                               note=f"`{whole}` is under `{parent.name}` (options.subdomains: follow)"))
        last = end
    return sorted(matches + added, key=lambda m: m.start) if added else matches


def _new_spelling(written: str, parent: Parent) -> str | None:
    """The new spelling of the parent's part as written: the whole parent, or (relative, in a zone)
    its labels above the origin, where the new name lies under the same origin."""
    lower = written.lower()
    if lower == parent.name:
        return parent.new
    if parent.name.startswith(lower + "."):  # relative: `pug` of `pug.lab.lan` in the lab.lan zone
        zone = parent.name[len(lower) + 1:]
        return parent.new[:-len(zone) - 1] if parent.new.endswith("." + zone) else None
    return None


def _relative_hits(relative: list[tuple[int, int, str, str]],
                   found: list[Parent]) -> list[tuple[int, int, Parent, int]]:
    """Names written relative to a zone (`*.pug`, `_acme-challenge.pug` in zone ana.lan) under a
    parent: the span of the parent's relative labels (`pug`)."""
    out = []
    for start, end, text, zone in relative:
        zone = zone.lower()
        absolute = f"{text}.{zone}".lower()
        for parent in found:
            if not absolute.endswith("." + parent.name) or len(absolute) <= len(parent.name) + 1 \
                    or not parent.name.endswith("." + zone):
                continue
            part = parent.name[:-len(zone) - 1]
            if text.lower().endswith("." + part):
                out.append((end - len(part), end, parent, start))
                break
    return out


def _zone_hits(data: bytes, found: list[Parent], origin: str | None,
               apex: str | None) -> list[tuple[int, int, Parent, int]]:
    """Relative names of a zone under a parent: `*.pug`, `grafana.pug` read against `lab.lan.`."""
    out = []
    for name in zone_names(data, origin, apex).names:
        if name.spelled is not None or name.text.endswith(".") or not name.origin or name.role == "origin":
            continue
        absolute = f"{name.text}.{name.origin.rstrip('.')}".lower()
        for parent in found:
            if absolute.endswith("." + parent.name) and len(absolute) > len(parent.name) + 1:
                relative = parent.name[:-len(name.origin.rstrip(".")) - 1] if parent.name.endswith(
                    "." + name.origin.rstrip(".").lower()) else None
                if not relative or not name.text.lower().endswith("." + relative):
                    continue
                out.append((name.end - len(relative), name.end, parent, name.start))
                break
    return out
