"""Patterns and networks the new value falls under that the old one did not (issue 27, t35 finding 01).

`patterns.py` reads one direction: a glob or regex that matches an OLD value is a `pattern`
residual unless it matches the new value as well. The other direction was never asked: a rename
`web01 -> db03` (a free name of the db series) puts the web server under `hosts: "db*"` (Ansible
runs the postgresql role on it), under an earlier ssh `Host db*` block (ssh takes the first value
it obtains: `User postgres`, `ProxyJump bastion-db`), under a Prometheus relabel `regex:
"db0[0-9].*"` with `action: keep`; a move `10.0.0.70 -> 10.0.2.70` puts the host under an earlier
`iptables -s 10.0.2.64/28 -j DROP`. No byte of those lines spells an old value, so no match ever
found them, and the sweep said OK.

Here, for verify and the sweep alike: every current-state file line holding glob or regex syntax
or a network literal (one `git grep` over the work tree) is read, and

* each glob or regex token (patterns.py's token rules and grammar: `*`, `?`, classes, `\\d`,
  `.*`, `{n}`, an extglob) that matches a new host name or IPv4 address in full (a short name's
  FQDN in the pattern's own domain too) and does not match the old value it replaces;
* each IPv4 network literal in an access rule's context (access_nets: `allow`, `deny`, iptables
  `-s`/`-d`, `hosts allow`, `cidr_blocks`, an `except:` list, ...) that holds a new address and
  not the old one

is a residual `captured` at the pattern, naming what the new value now falls under. Nothing is
rewritten (a pattern stands for other machines; no edit of it is certain): a person decides
(choose another new value, narrow the pattern, or accept it: a keep rule, or the inline marker,
on the pattern's line keeps it, listed as kept).
A pattern that matches both values is not listed (it held the machine before and holds it
after); which of two patterns that both match is read first (ssh's first `Host` block) is not
compared: a known gap.
"""

from __future__ import annotations

import functools
import ipaddress
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from renamer import captured_forms, forms, host_sets, lazy_re, patterns, wide_access, work
from renamer.access_nets import NET, in_access_rule, network_of
from renamer.classify import CURRENT
from renamer.forked import available_cores, can_fork, fork_map
from renamer.project import LoadedProject
from renamer.sweep.model import KEPT, RESIDUAL, Reference
from renamer.vcs_status import worktree_files_holding

REASON = "captured"
LOST = "pattern"  # the other direction: patterns.py's reason (a set written for the old value)
# A line that may hold a glob or regex token, or an IPv4 network literal (git grep: PCRE and ERE
# read it alike; in ERE a backslash inside brackets is literal, a wider net, not a narrower one).
_LINES = (r"[*?|{%@]|\[[^]]+\]|\\[dDwW]|[0-9]/[0-9]|[Ww][Ii][Tt][Hh]|[Cc][Oo][Nn][Tt][Aa][Ii][Nn][Ss]"
          r"|_(beg|end|sub|dom)|-m[ \t]|[0-9]\.[0-9]+\.?([^0-9./]|$)")
# (and, t36 findings 01 and 02, the spellings captured_forms.py reads: a prefix test's word, a
# LIKE mask, a partial address, a range's ends (`A-B`, `range A B`, `dhcp-range=A,B`))
_LIMIT = 2 * 1024 * 1024  # a file larger than this is no configuration a pattern is read from
# On a 10/8 repo most files hold a `{` or a network literal: past this many, forked workers read
# them (this runs after the scan, in the parent, where it once was a third of a 16-core sweep).
_FORK_FROM = 256
_CHUNK = 64


def _v4(value: str) -> ipaddress.IPv4Address | None:
    try:
        return ipaddress.IPv4Address(value)
    except ValueError:
        return None


@functools.lru_cache(maxsize=1 << 16)
def _matched_in(token: bytes, values: tuple[str, ...]) -> str | None:
    """patterns._matched_in, once per token and values (pure): a repo repeats its patterns (a
    generated 10/8 repo of 2,000 files asked the same tokens thousands of times; issue 30)."""
    return patterns._matched_in(token, values)


def pattern_hits(data: bytes, pairs: Sequence[tuple[str, str]]) -> list[tuple[int, int, str, str]]:
    """(start, end, old, new) of each glob or regex token in `data` that matches a new value of
    `pairs` (old, new) in full and not its old value."""
    if not pairs or not any(sign in data for sign in (b"*", b"?", b"[", b"\\", b"{", b"+", b"|")):
        return []
    news = tuple(new for _, new in pairs)
    olds = dict((new, old) for old, new in pairs)
    # A token spelling the new value in full (`192[.]168[.]1[.]59:9100`, `(db03|web02)`) is that
    # machine's own pattern: the sweep writes it from the old value's, as it rewrites any exact
    # spelling inside a pattern (occurrences.with_patterns); not one written for other machines.
    own = {new: forms.regex_spellings(new) for new in news}
    runs = patterns.token_runs(data)
    seen: set[tuple[int, int]] = set()
    out = []
    for low, high in patterns._near_metas(data, runs):
        pos = low
        while pos < high:
            if runs[pos:pos + 1] != b"t":
                pos += 1
                continue
            start, end = patterns._token_around(data, pos, runs)
            pos = max(pos + 1, patterns._right_edge(runs, pos, patterns._MAX_TOKEN))
            if (start, end) in seen or end <= start or end - start > patterns._MAX_TOKEN:
                continue
            seen.add((start, end))
            token = data[start:end]
            if not patterns._META.search(token):
                continue
            new = _matched_in(token, news)
            if new is None:
                continue
            old = olds[new]
            # An address listed in a group of alternatives is one address_patterns.py rewrites in
            # place (`10.42.1.(91|92)` -> `10.42.1.(95|92)`); a host's group is left to a person.
            if any(spelling in token.lower() for spelling in own[new]) or _listed(token, new):
                continue
            if _matched_in(token, (old,)) == old:
                continue  # it held the machine before the rename and holds it after
            out.append((start, end, old, new))
    if b"|" in data and b"(" in data:  # `^db0(1|2|3)$`: a group of alternatives (patterns._alternations)
        reverse = {new: old for old, new in pairs}
        for hit in patterns._alternations(data, list(news), patterns.fragments(list(news)), reverse):
            if any(spelling in data[hit.start:hit.end].lower() for spelling in own[hit.old]) \
                    or _listed(data[hit.start:hit.end], hit.old):
                continue
            if not any(s < hit.end and hit.start < e for s, e, _, _ in out):
                out.append((hit.start, hit.end, reverse[hit.old], hit.old))
    return sorted(out)


def set_hits(data: bytes, pairs: Sequence[tuple[str, str]]) -> list[tuple[int, int, str, str]]:
    """(start, end, old, new) of each host set (Ansible's `db[01:05]`, a shell's `db{01..05}`,
    host_sets.py's shapes) one of whose names is a new value of `pairs`, and none its old value (a
    set naming the old value is host_sets' `range` residual already)."""
    if not pairs or not (b"[" in data or b"{" in data) or host_sets._GROUP.search(data) is None:
        return []
    news = {new: old for old, new in pairs}
    out: list[tuple[int, int, str, str]] = []
    done = -1
    for group in host_sets._GROUP.finditer(data):
        if group.start() < done:
            continue
        token = host_sets._pattern_around(data, group.start())
        if token is None:
            continue
        start, end, parts = token
        done = end
        names = {b"".join(text for text, _ in name).decode("utf-8", "replace")
                 for name in host_sets._expand(parts, ends_only=host_sets._count(parts) > host_sets.CAP)}
        for new, old in news.items():
            if new in names and old not in names:
                out.append((start, end, old, new))
                break
    return out


def _prefix(found: re.Match[bytes]) -> tuple[int, int] | None:
    """(the address as an integer, the prefix length) of a NET match spelled `a.b.c.d/N`, octets
    as ipaddress reads them; None for any other spelling (a dotted mask, a leading zero, an octet
    over 255), which network_of decides."""
    length = found.group("len")
    if len(length) > 2:
        return None
    value = 0
    for octet in found.group("addr").split(b"."):
        if (len(octet) > 1 and octet[:1] == b"0") or int(octet) > 255:
            return None
        value = value << 8 | int(octet)
    return value, int(length)


def _head(old: ipaddress.IPv4Address, new: ipaddress.IPv4Address) -> bytes:
    """The octets, with the dot after them, that every network literal holding `new` and not `old`
    begins with: its prefix is longer than the leading bits both share, so the whole octets of that
    prefix are `new`'s (ipaddress reads an octet only in its plain decimal spelling); b"" where
    the two differ in the first octet."""
    shared = 32 - (int(old) ^ int(new)).bit_length()
    octets = (shared + 1) // 8
    return b"".join(f"{part}.".encode() for part in str(new).split(".")[:octets])


def _inside(address: int, value: int, length: int) -> bool:
    return (address ^ value) >> (32 - length) == 0


def network_hits(data: bytes, pairs: Sequence[tuple[str, str]]) -> list[tuple[int, int, str, str, str]]:
    """(start, end, old, new, network) of each IPv4 network literal in an access rule's context
    that holds a new address of `pairs` and not its old one."""
    moved = [(o, n, ov, nv) for o, n in pairs if (ov := _v4(o)) is not None and (nv := _v4(n)) is not None]
    if not moved or (b"/" not in data and b"." not in data):
        return []
    ints = [(int(old_ip), int(new_ip)) for _, _, old_ip, new_ip in moved]
    heads = tuple(_head(old_ip, new_ip) for _, _, old_ip, new_ip in moved)
    if all(heads) and not any(head in data for head in heads):
        return []
    out = []
    for found in NET.finditer(data):
        if all(heads) and not found.group("addr").startswith(heads):
            continue  # it spells none of the new addresses' heads
        # On a 10/8 repo nearly every line holds a network literal: integer arithmetic turns away
        # those that hold no new address outside its old one before ipaddress parses anything.
        quick = _prefix(found)
        if quick is not None:
            value, length = quick
            if length >= 32 or not any(_inside(new, value, length) and not _inside(old, value, length)
                                       for old, new in ints):
                continue
        work.add("captured network parses")
        net = network_of(found)
        if net is None:
            continue
        for old, new, old_ip, new_ip in moved:
            if new_ip in net and old_ip not in net and in_access_rule(data, found.start()) \
                    and not wide_access.list_admits(data, found.start(), found.end(), old_ip):
                # (a list that admitted the old address beside it, prepared for the move: nothing
                # newly falls under it, t37-break finding 09)
                out.append((found.start(), found.end(), old, new, str(net)))
                break
    return out


def _place(data: bytes, start: int) -> tuple[int, int, str]:
    line_start = data.rfind(b"\n", 0, start) + 1
    line_end = data.find(b"\n", start)
    line_end = len(data) if line_end == -1 else line_end
    return (data.count(b"\n", 0, start) + 1, start - line_start + 1,
            data[line_start:line_end].decode("utf-8", "replace"))


_NAME_BYTE = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")


def spells(span: bytes, new: str) -> bool:
    """Whether `span` (a set's test: `startswith("db03")`, `hdr_beg db03`, `10.0.2.70-10.0.2.90`)
    spells `new` in full, as a word: the set names the machine itself. The sweep writes such a set
    from the old value's (it rewrites an exact spelling wherever it stands), so it held the old
    machine before as it holds the new one after: nothing newly falls under it."""
    lowered = span.lower()
    for spelling in forms.regex_spellings(new):
        at = lowered.find(spelling)
        while at != -1:
            end = at + len(spelling)
            if (at == 0 or lowered[at - 1] not in _NAME_BYTE) and \
                    (end == len(lowered) or lowered[end] not in _NAME_BYTE):
                return True
            at = lowered.find(spelling, at + 1)
    return False


_V4 = lazy_re.compile(rb"(?<![0-9.])[0-9]{1,3}(?:\.[0-9]{1,3}){3}(?![0-9])")


def _only(span: bytes, new: str) -> bool:
    """Whether every IPv4 address `span` spells is `new`."""
    found = [m.group().decode() for m in _V4.finditer(span)]
    return bool(found) and all(address == new for address in found)


_GROUP = lazy_re.compile(rb"\(\??:?([^()|]*(?:\|[^()|]*)+)\)")


def enumerates(token: bytes, new: str) -> bool:
    """Whether a group of alternatives in `token` lists `new` by name (`10.42.1.(95|92|93)`,
    `^(db03|web02)$`): whoever wrote it (the sweep writes it from the old value's alternative)
    meant that machine; only a wildcard takes in machines nobody listed."""
    text = token.replace(b"\\.", b".").replace(b"[.]", b".")
    groups = list(_GROUP.finditer(text))
    if not groups or len(groups) > 4:
        return False
    expansions = [b""]
    last = 0
    for group in groups:
        branches = group.group(1).split(b"|")
        expansions = [e + text[last:group.start()] + b for e in expansions for b in branches][:256]
        last = group.end()
    return any(spells(e + text[last:], new) for e in expansions)


def _listed(token: bytes, new: str) -> bool:
    return _v4(new) is not None and enumerates(token, new)


def file_references(path: str, data: bytes, hosts: Sequence[tuple[str, str]],
                    addresses: Sequence[tuple[str, str]]) -> list[Reference]:
    """The `captured` residuals of one file (pure: bytes in, references out)."""
    out = []
    for start, end, old, new in pattern_hits(data, [*hosts, *((o, n) for o, n in addresses if ":" not in o)]):
        line, column, text = _place(data, start)
        token = data[start:end].decode("utf-8", "replace")
        out.append(Reference(path, line, column, old, new, RESIDUAL, REASON,
                             f"`{token}` matches {new} and not {old}: after the rename {new} falls under "
                             "a pattern written for other machines", text.strip()))
    spans = [(r.line, r.column) for r in out]
    for start, end, old, new in set_hits(data, hosts):
        line, column, text = _place(data, start)
        if (line, column) in spans or spells(data[start:end], new):
            continue  # (a set naming the new value itself: the sweep wrote it from the old one's)
        token = data[start:end].decode("utf-8", "replace")
        out.append(Reference(path, line, column, old, new, RESIDUAL, REASON,
                             f"`{token}` names {new} and not {old}: after the rename {new} is a member of a "
                             "host set written for other machines", text.strip()))
    for start, _end, old, new, net in network_hits(data, addresses):
        line, column, text = _place(data, start)
        out.append(Reference(path, line, column, old, new, RESIDUAL, REASON,
                             f"{net} holds {new} and not {old}: after the move {new} falls under an "
                             "access rule written for other addresses", text.strip()))
    # t36 findings 01, 02: the sets decided with no glob syntax (captured_forms.py)
    addressed = [(o, n) for o, n in addresses if ":" not in o]
    taken = {(r.line, r.column) for r in out}
    ranges = captured_forms.range_hits(data, addressed)
    for start, end, old, new, what in (*captured_forms.operator_hits(data, [*hosts, *addressed]),
                                       *captured_forms.partial_hits(path, data, addressed),
                                       *captured_forms.like_hits(data, [*hosts, *addressed]), *ranges):
        line, column, text = _place(data, start)
        if (line, column) in taken:
            continue
        # A range is the machine's own only where it spans nothing else (`10.0.2.70-10.0.2.70`, as
        # the sweep writes a pool of one): `10.0.2.70-10.0.2.90` hands the rest to other machines.
        own = _only if (start, end, old, new, what) in ranges else spells
        if own(data[start:end], new):
            continue
        taken.add((line, column))
        out.append(Reference(path, line, column, old, new, RESIDUAL, REASON,
                             f"{new} passes {what} and {old} did not: after the rename {new} falls under "
                             "a set written for other machines", text.strip()))
    for start, _end, old, new, what in (*captured_forms.operator_hits(data, hosts, lost=True),
                                        *captured_forms.partial_hits(path, data, addressed, lost=True),
                                        *captured_forms.like_hits(data, [*hosts, *addressed], lost=True)):
        line, column, text = _place(data, start)
        if (line, column) in taken:
            continue
        taken.add((line, column))
        out.append(Reference(path, line, column, old, new, RESIDUAL, LOST,
                             f"{old} passed {what} and {new} does not: after the rename the set no longer "
                             "holds the moved machine; edit it by hand, or keep it with a keep rule",
                             text.strip()))
    return out


def captured(project: LoadedProject, prefixes: Sequence[str] = ()) -> list[Reference]:
    """Every `captured` residual of the work tree's current-state files (`prefixes`: only those
    inside them)."""
    renames = project.config.renames
    hosts, addresses = list(renames.hosts), list(renames.addresses)
    if not hosts and not addresses:
        return []
    paths = [path for path in sorted(worktree_files_holding(project.root, _LINES) or ())
             if not prefixes or any(p == "" or path == p or path.startswith(p + "/") for p in prefixes)]
    task = functools.partial(_chunk, project, hosts, addresses)
    chunks = [paths[start:start + _CHUNK] for start in range(0, len(paths), _CHUNK)]
    workers = available_cores()
    forked = len(paths) >= _FORK_FROM and workers >= 2 and can_fork()
    out: list[Reference] = []
    for refs, counted in (fork_map(task, chunks, workers) if forked else map(task, chunks)):
        out += refs
        if forked:
            work.merge(counted)  # a worker's counts are lost with it
    return out


def _chunk(project: LoadedProject, hosts: Sequence[tuple[str, str]], addresses: Sequence[tuple[str, str]],
           paths: Sequence[str]) -> tuple[list[Reference], Counter[str]]:
    """The `captured` residuals of the current-state files among `paths`, and the work counted."""
    before = Counter(work.COUNTS)
    out: list[Reference] = []
    for path in paths:
        if project.classifier.classify(path).status != CURRENT:
            continue
        try:
            data = (project.root / path).read_bytes()[:_LIMIT]
        except OSError:
            continue
        refs = file_references(path, data, hosts, addresses)
        if refs:
            out += _decided(project, path, data, refs)
    return out, work.since(before)


def _decided(project: LoadedProject, path: str, data: bytes, refs: list[Reference]) -> list[Reference]:
    """`refs` with each one on a line a keep rule, the inline marker or a dated section exempts
    kept (the person's decision: the pattern may take the machine in), not left a residual."""
    lines = data.decode("utf-8", "replace").split("\n")
    exempt = project.classifier.line_exemptions(path, lines, [r.line - 1 for r in refs])
    out = []
    for ref in refs:
        held = exempt.get(ref.line - 1)
        out.append(ref if held is None else replace(ref, status=KEPT, reason=held.reason,
                                                    note=f"{held.note} ({ref.note})"))
    return out
