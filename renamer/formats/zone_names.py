"""The DNS names of a zone file with what they mean: each owner, `$ORIGIN` and RDATA name, and the
origin it is read against, so that a relative `nas.local` under `$ORIGIN lab.example.` is known to
be `nas.local.lab.example.` and `54` under `$ORIGIN 50.250.10.in-addr.arpa.` the reverse name of
10.250.50.54. Pure: bytes in, names out (the sweep decides what they become: sweep/zone_rules.py).

BIND's rules (lib/dns/master.c): a name ending in `.` is absolute, `@` is the origin, any other
name is relative to the current origin; `$ORIGIN` sets the origin (itself read against the one
before it when relative); a record whose line starts with a blank has the previous owner. A name
is read with its escapes decoded (RFC 1035 5.1: `ana\\-ml2`, `\\097na-ml2` and `ana\\045ml2` are all
ana-ml2), so that every comparison, rewrite and move is made on what the name server reads; the
spelling in the file is kept beside it (`Name.spelled`).
"""

from __future__ import annotations

from dataclasses import dataclass

from renamer.formats.zone import CLASS_TOKEN, TTL_TOKEN, entries, record_type
from renamer.names import Reading, presentation_name, presentation_reading

__all__ = ["Name", "ZoneNames", "absolute", "includes", "zone_names"]

# Which RDATA fields are domain names, by record type: the index among the RDATA words. An SOA's
# RNAME is a mailbox and RP's fields are mailbox and TXT owner: not host names, left alone.
_NAME_FIELDS: dict[bytes, tuple[int, ...]] = {
    b"NS": (0,), b"CNAME": (0,), b"DNAME": (0,), b"PTR": (0,), b"SOA": (0,), b"MX": (1,),
    b"KX": (1,), b"AFSDB": (1,), b"RT": (1,), b"SRV": (3,), b"SVCB": (1,), b"HTTPS": (1,),
    b"NAPTR": (5,),
}
# Records only a DNSSEC signer writes (dnssec-signzone, a server's inline signing dumped to disk).
_SIGNER_OUTPUT = frozenset({b"RRSIG", b"NSEC", b"NSEC3", b"NSEC3PARAM"})
# Records whose owner name a parent's DS digest covers (RFC 4034 5.1.4), or that are that DS.
_KEY_TYPES = frozenset({b"DNSKEY", b"CDNSKEY", b"CDS", b"DS"})


@dataclass(frozen=True)
class Name:
    """A name of the file: its span, what it reads (escapes decoded), role and the origin it is
    read against, and how the file spells it where that differs (an escape)."""

    start: int
    end: int
    text: str  # the name with its escapes decoded: `ana-ml2` for `ana\045ml2`
    role: str  # "origin" ($ORIGIN's argument) | "owner" | "rdata"
    origin: str | None  # lower case, with its final dot ("lab.example."); None when unknown
    record: tuple[int, int]  # an owner's record(s), those with the owner omitted after it included
    spelled: str | None = None  # the bytes of the file where they hold an escape, else None

    @property
    def written(self) -> str:
        """The name as the file spells it."""
        return self.text if self.spelled is None else self.spelled


@dataclass(frozen=True)
class ZoneNames:
    apex: str | None  # the zone's own name: named.conf's, else the SOA owner's, else the first $ORIGIN
    names: tuple[Name, ...]
    # It holds a signer's output (RRSIG, NSEC, NSEC3, NSEC3PARAM records): signatures over each
    # RRset's bytes and denial chains over the owner names, which any edit breaks.
    signed: bool = False
    # The first SOA's owner, absolute, where it can be read: an SOA stands at its zone's apex, so
    # this is the origin the zone is loaded with (that of the lines before any $ORIGIN).
    soa: str | None = None
    # It holds a ZONEMD record (RFC 8976): a digest over every record of the zone, which any edit
    # makes wrong, so that a consumer verifying it rejects the whole zone.
    digested: bool = False
    # Where each owner of a key record (DNSKEY, CDNSKEY, CDS, DS) starts: a DS is a digest over its
    # owner name and key, so renaming that owner breaks the chain of trust from the parent.
    keyed: frozenset[int] = frozenset()
    # Each owner, `$ORIGIN` or RDATA name field spelled with escapes: (where it starts, how it reads).
    # Those whose reading is `opaque` somewhere (`pug\\.ana`: one label holding a dot) are no host
    # name, so they are not among `names`; a match on their bytes is decided by this reading.
    escaped: tuple[tuple[int, Reading], ...] = ()


def absolute(text: str, origin: str | None) -> str | None:
    """The absolute name (lower case, final dot) that `text` means under `origin`."""
    lowered = text.lower()
    if lowered == "@":
        return origin
    if lowered.endswith("."):
        return lowered
    if origin is None:
        return None
    return f"{lowered}." if origin == "." else f"{lowered}.{origin}"


def zone_names(data: bytes, origin: str | None = None, apex: str | None = None) -> ZoneNames:
    """Every owner, `$ORIGIN` and RDATA name of the zone in `data`, in file order. `origin`: where
    a named.conf (or another server's configuration) says which zone the file holds, the origin
    until the first `$ORIGIN`; `apex`: that zone's name (`origin` when not given)."""
    apex = apex or origin
    first_origin: str | None = None
    soa_owner: str | None = None
    names: list[Name] = []
    signed = digested = False
    keyed: set[int] = set()
    escaped: list[tuple[int, Reading]] = []

    def spelled(at: tuple[int, int]) -> None:
        if (reading := presentation_reading(data[at[0]:at[1]])) is not None:
            escaped.append((at[0], reading))

    owner_at = -1  # index in `names` of the last owner, whose record span grows
    for has_owner, words in entries(data):
        tokens = [data[a:b] for a, b in words]
        if has_owner and tokens[0].startswith(b"$"):
            if tokens[0].upper() == b"$ORIGIN" and len(tokens) > 1:
                spelled(words[1])
            if tokens[0].upper() == b"$ORIGIN" and len(tokens) > 1 and (read := _name(tokens[1])):
                start, end = words[1]
                names.append(Name(start, end, read[0], "origin", origin, (start, end), read[1]))
                origin = absolute(read[0], origin)
                first_origin = first_origin or origin
            elif tokens[0].upper() == b"$ORIGIN" and len(tokens) > 1 and (
                    opaque := presentation_reading(tokens[1])) is not None:
                # `$ORIGIN pug\\.ana.lan.`: the names under it are under a label no host name
                # spells, never an old name; its reading (`_` for the escaped dot) says so.
                origin = absolute(opaque.text, origin)
            owner_at = -1  # $INCLUDE, $GENERATE, $TTL: the next record names its owner
            continue
        i = 0
        if has_owner:
            spelled(words[0])
            read = _name(tokens[0])
            if read is None and b"\\" in tokens[0] and presentation_reading(tokens[0]) is not None:
                # An escaped owner no host name spells (`pug\\.ana`, one label): its record is read
                # on, so that its RDATA names are decided as any other's.
                owner_at = -1
                i = 1
            elif read is None:
                owner_at = -1
                # An owner that is no host name (an escaped dot, a template, a quoted string) is
                # no name read here, but what the record is still counts: a signature or a
                # digest stands over the whole zone.
                rest = _rest(tokens, 1)
                kind = record_type(rest[0]) if rest else b""
                signed = signed or kind in _SIGNER_OUTPUT
                digested = digested or kind == b"ZONEMD"
                continue
            else:
                start, end = words[0]
                names.append(Name(start, end, read[0], "owner", origin, (start, words[-1][1]), read[1]))
                owner_at = len(names) - 1
                i = 1
        elif owner_at >= 0:
            held = names[owner_at]
            names[owner_at] = Name(held.start, held.end, held.text, held.role, held.origin,
                                   (held.record[0], words[-1][1]), held.spelled)
        while i < len(tokens) and (TTL_TOKEN.fullmatch(tokens[i]) or CLASS_TOKEN.fullmatch(tokens[i])):
            i += 1
        if i >= len(tokens):
            continue
        kind = record_type(tokens[i])
        signed = signed or kind in _SIGNER_OUTPUT
        digested = digested or kind == b"ZONEMD"
        if kind in _KEY_TYPES and owner_at >= 0:
            keyed.add(names[owner_at].start)
        if kind == b"SOA" and soa_owner is None:
            soa_owner = absolute(names[owner_at].text, names[owner_at].origin) if owner_at >= 0 else origin
        for field in _NAME_FIELDS.get(kind, ()):
            at = i + 1 + field
            if at < len(tokens):
                spelled(words[at])
            if at < len(tokens) and (read := _name(tokens[at])) and read[0] != ".":
                start, end = words[at]
                names.append(Name(start, end, read[0], "rdata", origin, (start, end), read[1]))
    return ZoneNames(apex or soa_owner or first_origin, tuple(names), signed, soa_owner, digested,
                     frozenset(keyed), tuple(escaped))


def _name(token: bytes) -> tuple[str, str | None] | None:
    """(the name a token reads, its spelling where an escape makes it differ), or None where the
    token is no host name (a template: `{{ host }}`, `$GENERATE`'s `$`; a quoted string; an
    escaped dot): the exact matcher still sees its text."""
    read = presentation_name(token)
    if read is None:
        return None
    return read, (token.decode("ascii") if b"\\" in token else None)


def _rest(tokens: list[bytes], i: int) -> list[bytes]:
    """The tokens from the record type on: those after `i` past a TTL and a class."""
    while i < len(tokens) and (TTL_TOKEN.fullmatch(tokens[i]) or CLASS_TOKEN.fullmatch(tokens[i])):
        i += 1
    return tokens[i:]


def includes(data: bytes, origin: str | None) -> list[tuple[str, str]]:
    """(path as written, origin) of each `$INCLUDE path [origin]`: the included file is read
    against the origin given, else the one in force where the directive stands (RFC 1035 5.1)."""
    out = []
    for has_owner, words in entries(data):
        tokens = [data[a:b] for a, b in words]
        if not has_owner or not tokens[0].startswith(b"$"):
            continue
        directive = tokens[0].upper()
        if directive == b"$ORIGIN" and len(tokens) > 1 and (read := _name(tokens[1])):
            origin = absolute(read[0], origin)
        elif directive == b"$INCLUDE" and len(tokens) > 1:
            path = tokens[1].strip(b'"').decode("utf-8", "replace")
            given = (absolute(named[0], origin)
                     if len(tokens) > 2 and (named := _name(tokens[2])) else origin)
            if path and given is not None:
                out.append((path, given))
    return out
