"""BIND/CoreDNS zone files: find a zone by its content and bump its SOA serial.

A rename that edits a zone file is not seen by the name servers until the
zone's SOA serial grows: CoreDNS's ``file`` plugin re-reads a zone only when
the serial is larger than the one it holds, BIND's ``rndc reload`` (and every
secondary doing a zone transfer) likewise keeps the old data when the serial
did not grow. So every edit to a zone file must come with a larger serial.

Everything here works on bytes and is pure: no I/O, stdlib only. Zone files
are recognised by content, whatever their name (``db.lab``, ``lab.zone``,
``zones/lab``...): a ``$ORIGIN`` directive at a line start, or an SOA
record written as a record (owner/TTL/class, ``SOA``, then MNAME, RNAME and
the five numbers), so that prose mentioning "the SOA serial" is not a zone.

Written here, not with dnspython's `dns.tokenizer` (already a dependency): its tokens carry
a line number but no byte offset, and a serial bump must be a byte splice that leaves every
other byte of the file as it was (dnspython's `dns.zone` writes a zone anew).

The lexical rules followed are BIND's master-file rules (lib/dns/master.c):
``;`` starts a comment to the end of the line, ``"..."`` is one token (a ``;``
or ``(`` inside it is text), ``(`` and ``)`` are tokens of their own even
without blanks around them and, between them, newlines do not end a record,
a line that starts with a blank has no owner name, keywords are
case-insensitive, and a backslash escapes the next character.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterator

from renamer import lazy_re
from renamer.formats.base import UNBUMPED, BaseFormat, Serial

__all__ = ["CLASS_TOKEN", "GENERIC_TYPES", "TTL_TOKEN", "bumped_serial", "entries", "find_serial",
           "holds_records", "is_records", "is_zone", "placeholder_serial", "record_type", "serial_edit"]

# RFC 1982: a serial is an unsigned 32-bit number compared in sequence space.
SERIAL_MAX = 2**32 - 1

# One alternative per token kind; together they match every byte, so finditer
# walks the data without gaps. "\r" is a blank: CRLF files end lines at "\n".
# A quoted string cannot span lines in a master file (BIND reports unbalanced
# quotes), so an unterminated one stops at the end of its line.
_TOKEN = lazy_re.compile(
    rb"""
    (?P<nl>\n)
    |(?P<ws>[ \t\r\f\v]+)
    |(?P<comment>;[^\n]*)
    |(?P<open>\()
    |(?P<close>\))
    |(?P<quoted>"(?:[^"\\\n]|\\.)*"?)
    |(?P<word>(?:[^\s;()"\\]|\\.?)+)
    """,
    re.VERBOSE,
)

# A TTL is seconds or BIND's unit form (1h30m, 2W); the same syntax is allowed
# for the four SOA timers (refresh, retry, expire, minimum).
TTL_TOKEN = _TTL = re.compile(rb"(?:[0-9]+[wdhms]?)+", re.IGNORECASE)
CLASS_TOKEN = _CLASS = re.compile(rb"IN|CH|CHAOS|HS|HESIOD|CS|CLASS[0-9]+", re.IGNORECASE)
# MNAME and RNAME: host-name characters, "@", a wildcard or an escape. Stricter
# than BIND (which takes any escaped text) to keep prose such as "the SOA
# record, serial 5" from reading as a record; real zones never need more.
_NAME = re.compile(rb"(?:[A-Za-z0-9_*@/.-]|\\.)+")
_DECIMAL = lazy_re.compile(rb"[0-9]+")
_ORIGIN = lazy_re.compile(rb"^\$ORIGIN[ \t]+[^\s;]", re.IGNORECASE | re.MULTILINE)
# A Markdown code fence at a line start. No loadable zone has one (BIND would
# read "```" as an owner with no record after it), while Markdown documents
# often quote a whole SOA record inside a fence: such a file is documentation.
_FENCE = lazy_re.compile(rb"^(?:```|~~~)", re.MULTILINE)

_Span = tuple[int, int]


def entries(data: bytes) -> Iterator[tuple[bool, list[_Span]]]:
    """Each record or directive: whether it has an owner field, and its words' spans.

    Quoted strings count as words (they start with '"'); parentheses, blanks and
    comments are dropped, and a newline ends the entry only outside parentheses.
    """
    words: list[_Span] = []
    has_owner = False
    at_line_start = True
    depth = 0
    for m in _TOKEN.finditer(data):
        kind = m.lastgroup
        if kind == "nl":
            if depth == 0:
                if words:
                    yield has_owner, words
                    words = []
                at_line_start = True
            continue
        if at_line_start:
            # Only the first line of an entry decides: a blank there means the
            # owner is omitted (the previous record's owner is reused).
            has_owner = kind != "ws"
            at_line_start = False
        if kind == "open":
            depth += 1
        elif kind == "close":
            depth = max(depth - 1, 0)  # a stray ")" is BIND's error; ignore it
        elif kind in ("word", "quoted"):
            words.append(m.span())
    if words:
        yield has_owner, words


def _soa_serials(data: bytes) -> Iterator[_Span]:
    """The span of the serial field of each SOA record, in file order.

    A record counts when it reads [owner] [TTL] [class] SOA MNAME RNAME SERIAL
    REFRESH RETRY EXPIRE MINIMUM with exactly those seven data fields (BIND
    rejects more or fewer), TTL and class in either order, the four timers
    TTL-like. The serial itself is not checked here: see find_serial.
    """
    for has_owner, words in entries(data):
        tokens = [data[a:b] for a, b in words]
        i = 1 if has_owner else 0
        if has_owner and tokens[0].startswith(b"$"):
            continue  # $ORIGIN, $TTL, $INCLUDE, $GENERATE
        seen_ttl = seen_class = False
        while i < len(tokens):
            if not seen_ttl and _TTL.fullmatch(tokens[i]):
                seen_ttl = True
            elif not seen_class and _CLASS.fullmatch(tokens[i]):
                seen_class = True
            else:
                break
            i += 1
        if i >= len(tokens) or tokens[i].upper() != b"SOA":
            continue
        rdata = tokens[i + 1:]
        if (
            len(rdata) == 7
            and all(_NAME.fullmatch(name) for name in rdata[:2])
            and all(_TTL.fullmatch(timer) for timer in rdata[3:])
        ):
            yield words[i + 3]


def _plain_serial(token: bytes) -> bool:
    return _DECIMAL.fullmatch(token) is not None and int(token) <= SERIAL_MAX


# A serial a deploy step fills in (`SERIALNUMBERPLACEHOLDER` replaced by `sed` with the epoch, `@SERIAL@`,
# `%SERIAL%`, `${SERIAL}`): one word holding a letter. The zone is still a zone; its serial is not bumped.
_PLACEHOLDER = lazy_re.compile(rb"[A-Za-z0-9_@%${}-]*[A-Za-z][A-Za-z0-9_@%${}-]*")


def placeholder_serial(data: bytes) -> str | None:
    """The first SOA record's serial when it is a placeholder (see _PLACEHOLDER), else None."""
    if not _maybe_zone(data):
        return None
    for start, end in _soa_serials(data):
        token = data[start:end]
        return token.decode("ascii") if _PLACEHOLDER.fullmatch(token) else None
    return None


def _maybe_zone(data: bytes) -> bool:
    """The cheap prefilter: no "soa" and no "$origin" anywhere means no zone."""
    lowered = data.lower()  # one C-speed pass; faster than a case-insensitive regex
    return b"soa" in lowered or b"$origin" in lowered


def is_zone(data: bytes) -> bool:
    """Whether data is a BIND/CoreDNS zone file, judged by content only."""
    if not _maybe_zone(data) or _FENCE.search(data):
        return False
    if _ORIGIN.search(data):
        return True
    return any(_plain_serial(data[a:b]) or _PLACEHOLDER.fullmatch(data[a:b]) for a, b in _soa_serials(data))


# Record types a zone file holds, by mnemonic; RFC 3597's generic `TYPEnnn` is read as its mnemonic
# where it is one of these numbers (a DNSSEC or digest record written generically is still one).
GENERIC_TYPES: dict[int, bytes] = {
    1: b"A", 2: b"NS", 5: b"CNAME", 6: b"SOA", 12: b"PTR", 13: b"HINFO", 15: b"MX", 16: b"TXT",
    17: b"RP", 18: b"AFSDB", 21: b"RT", 28: b"AAAA", 29: b"LOC", 33: b"SRV", 35: b"NAPTR", 36: b"KX",
    39: b"DNAME", 43: b"DS", 44: b"SSHFP", 46: b"RRSIG", 47: b"NSEC", 48: b"DNSKEY", 50: b"NSEC3",
    51: b"NSEC3PARAM", 52: b"TLSA", 59: b"CDS", 60: b"CDNSKEY", 63: b"ZONEMD", 64: b"SVCB",
    65: b"HTTPS", 99: b"SPF", 256: b"URI", 257: b"CAA",
}
_KNOWN_TYPES = frozenset(GENERIC_TYPES.values())
_GENERIC = lazy_re.compile(rb"TYPE([0-9]{1,5})", re.IGNORECASE)


def record_type(token: bytes) -> bytes:
    """A record's type token in upper case, `TYPE46` read as RRSIG (RFC 3597)."""
    upper = token.upper()
    generic = _GENERIC.fullmatch(upper)
    if generic is not None:
        return GENERIC_TYPES.get(int(generic.group(1)), upper)
    return upper


def is_records(data: bytes) -> bool:
    """Whether data is zone records with no SOA or `$ORIGIN` of their own: a fragment a zone
    `$INCLUDE`s (or that nobody includes: then its origin is unknown). Every entry must read
    [owner] [TTL] [class] TYPE RDATA with a known type (or a `$TTL`/`$INCLUDE`/`$GENERATE`
    directive), and one record at least names its class (`IN`): a hosts file, an inventory or
    prose never reads so.

    The loop comes first: most files the sweep reads fail at their first entry (a YAML key, a
    shell line), where a search of the whole file for a class word would not (` in ` in prose)."""
    records, classed = 0, False
    for has_owner, words in entries(data):
        tokens = [data[a:b] for a, b in words]
        if has_owner and tokens[0].startswith(b"$"):
            if tokens[0].upper() not in (b"$TTL", b"$INCLUDE", b"$GENERATE", b"$ORIGIN"):
                return False
            continue
        i = 1 if has_owner else 0
        while i < len(tokens) and (_TTL.fullmatch(tokens[i]) or _CLASS.fullmatch(tokens[i])):
            classed = classed or _CLASS.fullmatch(tokens[i]) is not None
            i += 1
        kind = record_type(tokens[i]) if i < len(tokens) else b""
        if i + 1 >= len(tokens) or kind == b"SOA" or (
                kind not in _KNOWN_TYPES and not _GENERIC.fullmatch(kind)):
            return False  # no record, or a zone's own SOA (is_zone's)
        records += 1
    return records > 0 and classed and _FENCE.search(data) is None  # (a Markdown page's fenced block)


def holds_records(data: bytes) -> bool:
    """Whether data is zone records whose serial is not here to bump: a fragment (is_records),
    or a zone whose SOA record has a serial no bump can make (out of 32 bits, a placeholder is
    is_zone's). Only text that reads as a zone: a shell comment `# a 1.2.3.4`, an INI line
    `ns = ns1` or a Markdown table is no record (break-it round 4, finding 9)."""
    if is_records(data):
        return True
    return _maybe_zone(data) and not _FENCE.search(data) and next(_soa_serials(data), None) is not None


def find_serial(data: bytes) -> tuple[int, int] | None:
    """The byte span of the first SOA record's serial.

    None when there is no SOA record, or when the first one's serial is not a
    plain decimal number within 32 bits (a later SOA record is not tried: a
    zone has one SOA, and editing some other one would not reload anything).
    """
    if not _maybe_zone(data):
        return None
    for start, end in _soa_serials(data):
        return (start, end) if _plain_serial(data[start:end]) else None
    return None


def _is_date(digits: str) -> bool:
    try:
        datetime.date(int(digits[:4]), int(digits[4:6]), int(digits[6:8]))
    except ValueError:
        return False
    return True


def bumped_serial(old: str, today: datetime.date) -> str:
    """The next serial after old: date style (YYYYMMDDnn) stays date style.

    A date-style serial becomes today's first one (YYYYMMDD01), unless that
    would not grow it (already today's, or a date in the future): then old + 1.
    A serial that is not date style is a counter: old + 1. Raises ValueError
    when old is not a plain decimal number within 32 bits.
    """
    if not old.isascii() or not old.isdigit() or int(old) > SERIAL_MAX:
        raise ValueError(f"not an SOA serial: {old!r}")
    value = int(old) + 1
    if len(old) == 10 and _is_date(old):
        # nn = 99 plus one gives YYYYMMD(D+1)00, possibly no date any more
        # (20261131nn): that is the usual convention's own overflow, accepted.
        value = max(int(today.strftime("%Y%m%d")) * 100 + 1, value)
    if value > SERIAL_MAX:
        # RFC 1982 serial arithmetic: 4294967295 + 1 wraps to 0, and 0 is then
        # "greater" than 4294967295. We skip 0 and give 1 (also greater in
        # sequence space, being 2 ahead): people and some tools read serial 0
        # as "never set", and nothing is lost by stepping over it.
        value %= 2**32
        value = value or 1
    return str(value)


def serial_edit(data: bytes, today: datetime.date) -> tuple[int, int, bytes, str, str] | None:
    """(start, end, new serial bytes, old serial, new serial) for data's SOA.

    None when data is not a zone (see is_zone) or its SOA serial cannot be
    found (see find_serial). The edit is data[:start] + new + data[end:].
    """
    return _bumped(data, today) if is_zone(data) else None


def _bumped(data: bytes, today: datetime.date) -> Serial | None:
    span = find_serial(data)
    if span is None:
        return None
    start, end = span
    old = data[start:end].decode("ascii")
    new = bumped_serial(old, today)
    return start, end, new.encode("ascii"), old, new


class Zone(BaseFormat):
    """Claimed by content: a zone file may have any name."""

    name = "zone"
    structured = True  # two records with one owner name are a real conflict
    dns_names = True  # owners and targets are DNS names: ANA-ML2 is ana-ml2 (RFC 4343)

    def claims(self, path: str, name: str, data: bytes) -> bool:
        # A fragment (records with no SOA of their own, is_records) is zone data as well: its names
        # are DNS names, matched in any case, as in the zone that includes it.
        return is_zone(data) or is_records(data)

    def serial(self, data: bytes, today: datetime.date) -> Serial | None:
        placeholder = None if find_serial(data) else placeholder_serial(data)
        return _bumped(data, today) or ((0, 0, b"", placeholder, "") if placeholder else UNBUMPED)


FORMAT = Zone()
