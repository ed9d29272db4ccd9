"""Rules that read a whole file before each reference is decided, and after: the submodule paths
of .gitmodules, the SOA serial that goes with a zone's edits (a zone's names: zone_rules.py), and
the length a length-prefixed string (PHP, RESP, netstring, a chunk of a chunked body, a HAR's
sizes) carries with its text, and a WARC record's digests over the block the edits change."""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import replace

from renamer import lazy_re, length_prefixed, web_archives
from renamer.formats import Format
from renamer.occurrences import Match
from renamer.sweep.model import Edit, apply_edits


def with_serial(fmt: Format, data: bytes, edits: list[Edit]) -> tuple[list[Edit], tuple[str, str] | None]:
    """A zone file whose records change gets its SOA serial bumped in the same edit: BIND and
    CoreDNS's file plugin reload a zone only when its serial grows. Zone records with no usable
    SOA here (an $INCLUDE file, a serial out of range) are said to be left unbumped."""
    found = fmt.serial(data, dt.date.today())
    if found is None:
        return edits, None
    start, end, new, old_serial, new_serial = found
    if not new:
        return edits, (old_serial, "")  # a placeholder a deploy fills in, or none to bump
    if any(e.start < end and start < e.end for e in edits):
        return edits, None  # never: a serial holds no name or address
    return sorted([*edits, Edit(start, end, new)], key=lambda e: e.start), (old_serial, new_serial)


def with_lengths(data: bytes, edits: list[Edit]) -> list[Edit]:
    """The edits, plus the length of each length-prefixed string whose text they change
    (length_prefixed.py: PHP's `s:N:"..."`, Redis RESP `$N`, netstrings `N:...,`; break-it round
    21, finding 28: a WordPress option's `s:17:"web01.lab.example"` rewritten to a shorter name
    kept its 17, and unserialize() then fails; t28 finding 18: a Redis AOF refuses to load). A
    string inside another's text (a serialized value serialized again, a netstring of netstrings)
    counts the inner's new length too. An edit across a string's edge changes no length (it is no
    such string's text). A chunk of a chunked HTTP body gets its hex size line (its case and
    width kept), and a HAR's sizes follow the strings they count (web_archives.py; g31)."""
    if not edits:
        return edits
    spans = [(*span, 10) for span in length_prefixed.spans(data)]
    spans += [(*span, 16) for span in length_prefixed.hex_spans(data)]
    measures = [m for m in web_archives.har_measures(data) if m.problem is None] \
        if web_archives.might_be_har(data) else []
    if not spans and not measures:
        return edits
    added: list[Edit] = []
    # inner first
    for digits, digits_end, begin, end, length, radix in sorted(spans, key=lambda s: s[3] - s[2]):
        inside = [e for e in (*edits, *added) if begin <= e.start and e.end <= end]
        if any(e.start < end and begin < e.end and e not in inside for e in edits):
            continue
        grown = sum(len(e.new) - (e.end - e.start) for e in inside)
        if grown:
            added.append(Edit(digits, digits_end, _spelled(length + grown, data[digits:digits_end], radix)))
    for measure in measures:
        grown = _grown(edits, measure.regions)
        if grown:
            added.append(Edit(measure.start, measure.end, str(measure.value + grown).encode()))
    return sorted([*edits, *added], key=lambda e: e.start) if added else edits


def _spelled(length: int, old: bytes, radix: int) -> bytes:
    """`length` as `old` spelled its number: decimal, or hex in its case and zero-padded width."""
    if radix == 10:
        return str(length).encode()
    text = format(length, "X" if any(c in b"ABCDEF" for c in old) else "x")
    return (text.rjust(len(old), "0") if old.startswith(b"0") else text).encode()


def _grown(edits: list[Edit], regions: tuple[tuple[int, int], ...]) -> int:
    """How many bytes `edits` add to `regions` (an edit across a region's edge: counted whole)."""
    return sum(len(e.new) - (e.end - e.start) for e in edits
               if any(e.start < end and start < e.end for start, end in regions))


def measured_problem(data: bytes, edits: list[Edit]) -> str | None:
    """Why `edits` (the file's final edits, lengths included) cannot be written where a number
    measures their bytes and cannot follow them: a body declared chunked whose chunks do not land,
    a HAR size that counts something else; or None (g31)."""
    if not edits:
        return None
    for begin in length_prefixed.unread_chunked(data):
        edit = next((e for e in edits if e.start >= begin), None)
        if edit is not None:
            return (f"line {_line(data, edit.start)}: a body declared `Transfer-Encoding: chunked` "
                    f"(line {_line(data, begin)}) whose chunk sizes do not land on their data: which "
                    "size line the edit changes cannot be told; fix the chunks, or keep the file")
    for measure in web_archives.har_measures(data) if web_archives.might_be_har(data) else ():
        if measure.problem is not None and _grown(edits, measure.regions):
            return (f"line {_line(data, measure.start)}: {measure.problem}; the edit would leave it "
                    "stating the old size: capture the page again, or keep the file")
    return None


def with_digests(data: bytes, edits: list[Edit]) -> tuple[list[Edit], str | None]:
    """The edits, plus each WARC digest (WARC-Block-Digest, WARC-Payload-Digest) computed again
    over its record's block as the edits leave it (web_archives.py; g31: the Content-Length
    followed, the digest went stale unseen); or the reason it cannot be: a digest renamer cannot
    compute, or one that is not the digest of its block as it stands (it covers what cannot be
    told). A digest left stale is never written."""
    if not edits:
        return edits, None
    digests = web_archives.warc_digests(data)
    added: list[Edit] = []
    for digest in digests:
        begin, end = digest.block
        inside = [e for e in edits if begin <= e.start and e.end <= end]
        if not inside:
            continue
        if digest.problem is not None:
            return edits, (f"line {_line(data, digest.start)}: {digest.problem}; the edits would leave it "
                           "stale: fix the digest, or keep the file")
        block = apply_edits(data[begin:end], [Edit(e.start - begin, e.end - begin, e.new) for e in inside])
        payload = web_archives.covered(block, digest.covers)
        if payload is None:
            return edits, (f"line {_line(data, digest.start)}: {digest.name} covers the record's HTTP "
                           "body, which the edits leave unreadable; fix the record, or keep the file")
        value = web_archives.spell(hashlib.new(digest.algorithm, payload).digest(), digest.spelling)
        added.append(Edit(digest.start, digest.end, value))
    if added:
        return sorted([*edits, *added], key=lambda e: e.start), None
    return edits, None


def _line(data: bytes, at: int) -> int:
    return data.count(b"\n", 0, at) + 1


_SUBMODULE_PATH = lazy_re.compile(rb"^[ \t]*(?:path[ \t]*=|\[submodule\b)")


def submodule_paths_refused(data: bytes, matches: list[Match]) -> list[Match]:
    """In .gitmodules a `path =` line or a section name follows the submodule's checkout and
    its folder in .git/modules: rewritten alone, git no longer finds the submodule."""
    out = []
    for m in matches:
        line = data[data.rfind(b"\n", 0, m.start) + 1:]
        out.append(replace(m, refused="submodule") if _SUBMODULE_PATH.match(line) else m)
    return out
