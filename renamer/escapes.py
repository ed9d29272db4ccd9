"""Old values spelled with escapes that a consumer decodes before it reads the name.

`ana\\u002dml2` (JSON, YAML and TOML strings, JavaScript), `ana\\x2Dml2` (YAML double-quoted,
Python, JavaScript, C), `ana\\055ml2` (octal: Python, C, bash `$'...'`), `ana\\u{2d}ml2`
(JavaScript, Rust), `\\N{HYPHEN-MINUS}` (Python), `ana%2Dml2` (a URL's percent-encoding, any hex
case, any character: `10%2E250%2E50%2E54`; a UTF-8 sequence such as `b%C3%BCcher` is one
character) and `ana&#45;ml2` (an HTML or XML character reference) all read `ana-ml2`, while the
bytes spell no old value; so does `an\\a-ml2` in an unquoted shell word, which drops a backslash
before an ordinary character. An escape of a non-ASCII character (`b\\u00fccher`) decodes to
its UTF-8 bytes, which an IDNA name's Unicode form matches. An escape also makes boundaries the
bytes do not show: `http%3A%2F%2Fana-ml2%3A8000` (a URL inside a query string) names the host
after `%2F`, and `ana-ml2%30` is `ana-ml20`, another name.

The decoded reading (each escape replaced by its character) is matched where the file holds an
escape, and each occurrence is decided by what the escapes are:

* none inside it, only around it: a plain match (`%2Fana-ml2`), rewritten as usual;
* escapes the format decodes wherever they stand (`Format.escapes`: JSON's `\\u`, which occurs
  only inside strings and decodes to exactly its character), or percent-escapes inside a URL
  (`scheme://` before it with no blank, quote or bracket between): rewritten to the new value
  in the same style, each character escaped in the old spelling escaped the same way in the new
  one (`ana%2Dml2` -> `fv%2Dml1`);
* anything else: refused `encoded` (verify fails on it), since whether the consumer decodes it
  depends on where it stands (`\\x2d` in a YAML plain scalar is four characters);
* a match in the bytes that an adjacent escape continues (`ana-ml2%30`, `\\x61ana-ml2`): no
  longer the old value once decoded, so refused `encoded` as well, never rewritten; no match at
  all where the format decodes that escape for certain (JSON's `x\\u002dana-ml2` is x-ana-ml2).

A second reading drops every single backslash before a name character (`\\4`, `\\n` too: a
shell reads them as `4` and `n`, where C reads octal and a newline), and what only it spells,
where no match stands, is refused `encoded`.

Cost: a file is decoded only when it holds `\\`, `%` or `&#`, and matched again only when an
escape of a name character is found, or dropping backslashes adds a needle.
"""

from __future__ import annotations

import bisect
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from renamer import lazy_re
from renamer.occurrences import Match
from renamer.unicode_names import folded_matches, might_fold

# An escaped backslash first (`\\x2d` is a backslash, then `x2d`), so a run is read in pairs.
# Then every spelling of one character: `\\x2d`, `\\u002d`, `\\u{2d}` (JavaScript, Rust),
# `\\U0000002d`, `\\N{HYPHEN-MINUS}` (Python), octal `\\055` (Python, C, bash `$'...'`), a
# percent-encoded UTF-8 sequence (`%C3%BC` is one character, ü), `%2D`, `&#x2d;`, `&#45;`; last,
# RTF's `\\'30` (a byte in hex: Word writes any character so, LibreOffice every one beyond ASCII)
# and its `\\u48?` (a decimal code point, then the fallback an older reader shows: t35 finding
# 07); last, a backslash before an ordinary name character (`an\\a-ml2`: an unquoted shell word reads
# `ana-ml2`), never the letters of the usual escapes and regex classes (`\\n`, `\\b`, `\\d`...).
_ESCAPE = lazy_re.compile(
    rb"\\\\|\\x[0-9A-Fa-f]{2}|\\u[0-9A-Fa-f]{4}|\\u\{[0-9A-Fa-f]{1,6}\}|\\U[0-9A-Fa-f]{8}"
                     rb"|\\N\{[A-Za-z0-9 -]{1,80}\}|\\[0-7]{1,3}"
                     rb"|%[C-Fc-f][0-9A-Fa-f](?:%[89ABab][0-9A-Fa-f]){1,3}|%[0-9A-Fa-f]{2}"
                     rb"|&#[xX][0-9A-Fa-f]{1,6};|&#[0-9]{1,7};"
                     rb"|\\'[0-9A-Fa-f]{2}|\\u-?[0-9]{1,5} ?(?:\?|\\'[0-9A-Fa-f]{2})"
                     rb"|\\[aijlmoqyCFHIJMOTVY89._:-]")
# Where names are in presentation format (a zone file, BIND's, NSD's or Unbound's configuration),
# RFC 1035 5.1 has two escapes only: `\\DDD`, a DECIMAL byte (`ana\\045ml2` is ana-ml2, `ana\\055ml2`
# ana7ml2), and a backslash before any other character, that character (`\\x2d` is `x2d`, `%2D` no
# escape at all). An escaped dot is a dot inside a label, no name character here.
# A character beyond ASCII is its UTF-8 octets, one `\\DDD` each (`m\\195\\188ller` is müller).
_DECIMAL_ESCAPE = lazy_re.compile(rb"\\\\|\\(?:19[4-9]|2[0-4][0-9])(?:\\(?:12[89]|1[3-8][0-9]|19[01])){1,3}"
                             rb"|\\[0-9]{3}|\\[A-Za-z_:-]")
_RTF_DIGITS = lazy_re.compile(rb"-?[0-9]+")
_NAME_CHARS = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_:")
_NAME_BYTES = frozenset(bytes([c]) for c in _NAME_CHARS)
# What ends a URL before a match, on its line: a blank, a quote, a bracket.
_URL_START = lazy_re.compile(rb"[A-Za-z][A-Za-z0-9+.-]*://[^\s\"'<>()\[\]{}`]*\Z")
ENCODED = "encoded"


class Finder(Protocol):
    needles: tuple[bytes, ...]

    def find(self, data: bytes) -> list[Match]: ...

    def might_hold_zone_label(self, data: bytes) -> bool: ...


@dataclass(frozen=True)
class _Escape:
    at: int  # where its character stands in the decoded bytes
    start: int  # its span in the original
    end: int
    char: int  # the character it spells (a code point)
    style: str  # "x", "u", "u{", "U", "N", "o" (octal), "d" (`\\DDD`), "%", "&#x", "&#", "lit" (`\\a`)
    upper: bool  # hex digits in upper case
    out: bytes  # what it decodes to: the character in UTF-8


def might_hold_escape(data: bytes) -> bool:
    """The cheap prefilter: the bytes that start an escape."""
    return b"%" in data or b"\\" in data or b"&#" in data


def _escapes(data: bytes, decimal: bool = False) -> list[_Escape]:
    """Each escape of `data`, in order; `decimal`: `\\DDD` is RFC 1035's decimal, not octal."""
    out = []
    shift = 0  # bytes the escapes before this one removed
    for x in (_DECIMAL_ESCAPE if decimal else _ESCAPE).finditer(data):
        text = x.group()
        if text == b"\\\\":
            continue
        read = _read(text, decimal)
        if read is None:
            continue  # no character (a surrogate, an unknown name, invalid UTF-8): left as written
        style, digits, char = read
        spelled = chr(char).encode("utf-8")
        out.append(_Escape(x.start() - shift, x.start(), x.end(), char, style,
                           any(c in b"ABCDEF" for c in digits), spelled))
        shift += len(text) - len(spelled)
    return out


def _read(text: bytes, decimal: bool = False) -> tuple[str, bytes, int] | None:
    """An escape's style, its digits and the code point it spells."""
    if decimal and len(text) == 2:  # presentation format: `\x` is the letter x
        return "lit", b"", text[1]
    if text.startswith(b"&#"):
        style = "&#x" if text[2:3] in b"xX" else "&#"
        digits = text[3:-1] if style == "&#x" else text[2:-1]
        char = int(digits, 16 if style == "&#x" else 10)
    elif text.startswith(b"%"):
        style, digits = "%", text.replace(b"%", b"")
        try:
            decoded = bytes.fromhex(digits.decode()).decode("utf-8")
        except UnicodeDecodeError:
            return None
        if len(decoded) != 1:
            return None
        char = ord(decoded)
    elif text.startswith(b"\\'"):  # RTF: a byte of the document's code page; ASCII is the same in all
        style, digits = "'", text[2:]
        char = int(digits, 16)
        if char >= 0x80:
            return None  # which character depends on \\ansicpg: not matched decoded
    elif text.startswith(b"\\u") and (text.endswith(b"?") or b"'" in text):  # RTF `\\u48?`
        style, digits = "rtf-u", _RTF_DIGITS.match(text, 2).group()  # type: ignore[union-attr]
        char = int(digits)
        if char < 0:
            char += 65536  # RTF writes a code point over 32767 as a signed 16-bit number
    elif text.startswith(b"\\N{"):
        try:
            char = ord(unicodedata.lookup(text[3:-1].decode()))
        except KeyError:
            return None
        style, digits = "N", b""
    elif text.startswith(b"\\u{"):
        style, digits = "u{", text[3:-1]
        char = int(digits, 16)
    elif decimal and len(text) > 4 and text.count(b"\\") > 1:  # UTF-8 octets, one \DDD each
        style, digits = "d", text[1:]
        try:
            decoded = bytes(int(octet) for octet in text[1:].split(b"\\")).decode("utf-8")
        except UnicodeDecodeError:
            return None
        if len(decoded) != 1:
            return None
        char = ord(decoded)
    elif decimal and len(text) == 4 and text[1:].isdigit():
        style, digits = "d", text[1:]
        char = int(digits)
        if char > 255:
            return None  # BIND refuses `\256`: no byte
    elif text[1:2] in b"01234567":  # `\8`, `\9`: no octal digit, a backslash before a name character
        style, digits = "o", text[1:]
        char = int(digits, 8)
    elif text[1:2] in b"xuU":
        style, digits = text[1:2].decode(), text[2:]
        char = int(digits, 16)
    else:
        style, digits, char = "lit", b"", text[1]
    if char > 0x10FFFF or 0xD800 <= char < 0xE000:
        return None  # half of a surrogate pair: not matched decoded
    return style, digits, char


def decoded(data: bytes) -> bytes:
    """`data` with every escape this module reads decoded: what a consumer that decodes them reads."""
    return _decoded(data, _escapes(data))


def _decoded(data: bytes, escapes: list[_Escape]) -> bytes:
    parts, last = [], 0
    for e in escapes:
        parts += [data[last:e.start], e.out]
        last = e.end
    parts.append(data[last:])
    return b"".join(parts)


def might_escape(finder: Finder, data: bytes) -> bool:
    """Can the decoded reading spell an old value the bytes do not? (First pass: an escape of a
    name character, and a needle in the decoded bytes.)"""
    if not might_hold_escape(data):
        return False
    if _might_backslash(finder, data):
        return True
    # A zone's relative owner spelled with escapes (`\\097na-ml2` under `$ORIGIN ana.lan.`): the
    # name an old FQDN's first label makes, which is no needle (sweep/zone_rules.py reads it).
    if b"\\" in data and finder.might_hold_zone_label(data):
        return True
    # The octal and the decimal reading of `\\055` both: which one the file's format uses is not
    # known before the file is classified (a prefilter may over-approximate).
    readings = [False, True] if _THREE_DIGITS.search(data) else [False]
    for decimal in readings:
        escapes = _escapes(data, decimal)
        if any(_spells_name(e) for e in escapes):
            decoded = _decoded(data, escapes)
            if any(needle in decoded for needle in finder.needles) or might_fold(finder, decoded):
                return True
    return False


_THREE_DIGITS = lazy_re.compile(rb"\\[0-9]{3}")


def _might_backslash(finder: Finder, data: bytes) -> bool:
    if b"\\" not in data:
        return False
    bare = data.replace(b"\\", b"")
    return any(bare.count(n) > data.count(n) for n in finder.needles)


# A single backslash before a name character: an unquoted shell word drops it (`an\\na-ml2`,
# `10.250.50\\.5\\4` read ana-ml2 and the address), whatever the letter or digit.
_BACKSLASHED = lazy_re.compile(rb"\\\\|\\(?=[A-Za-z0-9._:-])")


def _backslashed(finder: Finder, data: bytes, matches: list[Match],
                 decided: Sequence[tuple[int, int]]) -> list[Match]:
    """`matches` with the old values only the reading without those backslashes spells added,
    refused `encoded` (a C or Python string reads `\\n` as a newline: never certain), where no
    match already stands."""
    if not _might_backslash(finder, data):
        return matches
    cuts = [x.start() for x in _BACKSLASHED.finditer(data) if x.end() - x.start() == 1]
    if not cuts:
        return matches
    parts, last = [], 0
    for at in cuts:
        parts.append(data[last:at])
        last = at + 1
    parts.append(data[last:])
    joined = b"".join(parts)
    in_joined = [at - index for index, at in enumerate(cuts)]  # where each one was cut
    added = []
    for d in finder.find(joined):
        first, last = bisect.bisect_right(in_joined, d.start), bisect.bisect_left(in_joined, d.end)
        if first >= last:
            continue  # no backslash inside: the bytes spell it (or it is another name there)
        start, end = d.start + first, d.end + last
        if any(m.start < end and start < m.end for m in matches) or _overlaps(decided, start, end):
            continue
        added.append(Match(start, end, data[start:end].decode("utf-8", "replace"), d.new, d.kind,
                           d.derived, d.refused if d.refused is not None else ENCODED, d.kept))
    return sorted([*matches, *added], key=lambda m: m.start) if added else matches


def escaped_matches(finder: Finder, data: bytes, matches: list[Match], *, decodes: tuple[str, ...],
                    decimal: bool = False, decided: Sequence[tuple[int, int]] = ()) -> list[Match]:
    """`matches` as the decoded reading has them: occurrences spelled with escapes added
    (rewritten in style where that is certain, else refused `encoded`), and matches an escape
    continues refused. `decodes`: the escape styles the file's format decodes wherever they
    stand; `decimal`: names are in presentation format (a zone file, a name server's
    configuration), where `\\DDD` is decimal (RFC 1035 5.1); `decided`: the spans of a zone's
    names that its rules read decoded and decided already (sweep/zone_rules.py), left as they are."""
    return _backslashed(finder, data, _escaped(finder, data, matches, decodes, decimal, decided), decided)


def _overlaps(spans: Sequence[tuple[int, int]], start: int, end: int) -> bool:
    return any(a < end and start < b for a, b in spans)


def _escaped(finder: Finder, data: bytes, matches: list[Match], decodes: tuple[str, ...],
             decimal: bool, decided: Sequence[tuple[int, int]]) -> list[Match]:
    if not might_hold_escape(data):
        return matches
    escapes = _escapes(data, decimal)
    if not escapes:
        return matches
    if not any(_spells_name(e) or data[e.end:e.end + 1] in _NAME_BYTES for e in escapes):
        return matches  # no escape spells a name's character or stands right before one
    positions, starts = [e.at for e in escapes], [e.start for e in escapes]
    removed = [0]  # bytes the first i escapes removed from the original
    for e in escapes:
        removed.append(removed[-1] + e.end - e.start - len(e.out))
    found = []
    decoded = _decoded(data, escapes)
    readings = finder.find(decoded)
    # what the decoded text spells once normalised too (`bu%CC%88cher`: NFD, percent-encoded): refused
    # `encoded`, since whether a consumer decodes and then normalises is not certain
    direct = {id(d) for d in readings}
    readings = folded_matches(finder, decoded, readings)
    for d in readings:
        if id(d) not in direct and d.refused is None and d.kept is None:
            d.refused = ENCODED
    for d in readings:
        first = bisect.bisect_left(positions, d.start)
        last = bisect.bisect_left(positions, d.end)
        inside = escapes[first:last]
        start, end = d.start + removed[first], d.end + removed[last]
        if not _overlaps(decided, start, end):
            found.append((start, end, inside, d))
    # A reading that only drops backslashes before ordinary characters loses to the bytes: a
    # regex's `ana\\-ml2` is its own spelling (forms.py), rewritten `fv\\-ml1`.
    found = [f for f in found if not (f[2] and all(e.style == "lit" for e in f[2]) and any(
        f[0] < m.end and m.start < f[1] for m in matches))]
    spans = {(start, end) for start, end, inside, _ in found if not inside}
    out: list[Match] = []
    for m in matches:
        if (m.start, m.end) in spans or any(s < m.end and m.start < e for s, e, inside, _ in found if inside):
            continue  # the decoded reading has it (added below), or spells it with escapes
        touching = _touching(escapes, starts, m) if not _overlaps(decided, m.start, m.end) else []
        if touching and all(e.style in decodes for e in touching):
            continue  # certainly another name once decoded: JSON's `x\u002dana-ml2` is x-ana-ml2
        if touching and m.refused is None and m.kept is None:
            m.refused = ENCODED  # `ana-ml2%30` reads ana-ml20, if it is decoded
        out.append(m)
    for start, end, inside, d in found:
        if not inside:
            if any(m.start == start and m.end == end for m in matches):
                out.append(next(m for m in matches if m.start == start and m.end == end))
            elif d.refused == "pattern" and any(m.refused == "pattern" and m.start < end and start < m.end
                                                for m in matches):
                continue  # the pattern the bytes hold already (a declared one: `"^web0[12]\."`)
            else:  # a boundary an escape made: `%2Fana-ml2`
                out.append(Match(start, end, d.old, d.new, d.kind, d.derived, d.refused, d.kept))
            continue
        spelled = data[start:end].decode("ascii", "replace")
        certain = d.refused is None and d.kept is None and _certain(data, start, inside, decodes)
        new = _in_style(d.new, inside) if certain else d.new
        out.append(Match(start, end, spelled, new, d.kind, d.derived,
                         d.refused if d.refused is not None or certain else ENCODED, d.kept))
    return sorted(out, key=lambda m: m.start)


def _spells_name(e: _Escape) -> bool:
    """A character of a name: ASCII, or any other (a U-label's `ü`)."""
    return e.char in _NAME_CHARS or e.char >= 0x80


def _touching(escapes: list[_Escape], starts: list[int], m: Match) -> list[_Escape]:
    """The escapes of a name character right before or after `m`."""
    at = bisect.bisect_left(starts, m.start) - 1
    near = escapes[max(at, 0):at + 3]
    # `\\a` beside a name is no evidence of another name (`C:\\ana-ml2`, a regex's `\\.`).
    return [e for e in near if e.char in _NAME_CHARS and e.style != "lit"
            and (e.end == m.start or e.start == m.end)]


def _certain(data: bytes, start: int, inside: list[_Escape], decodes: tuple[str, ...]) -> bool:
    styles = {e.style for e in inside}
    if len(styles) != 1:
        return False
    style = styles.pop()
    if style in decodes:
        return True
    if style != "%":
        return False
    line = data.rfind(b"\n", 0, start) + 1
    return _URL_START.search(data[max(line, start - 2048):start]) is not None


def _in_style(new: str, inside: list[_Escape]) -> str:
    """`new` with each separator the old spelling escaped escaped the same way (`ana\\u002dml2` ->
    `fv\\u002dml1`); an escaped letter or digit (`10.0.40.\\u00311`) is no style of the name's
    own, and the new name is written plain there (break-it round 8: `\\u00310.0.50.2\\u0031`)."""
    styles = {chr(e.char): e for e in inside if not chr(e.char).isalnum()}
    out = []
    for ch in new:
        e = styles.get(ch)
        out.append(ch if e is None else _spell(ord(ch), e))
    return "".join(out)


def _spell(char: int, like: _Escape) -> str:
    width = {"x": 2, "u": 4, "U": 8, "%": 2, "&#x": 2}.get(like.style, 0)
    if like.style == "&#":
        return f"&#{char};"
    if like.style == "d":  # RFC 1035: a byte each, a character beyond ASCII its UTF-8 octets
        return "".join(f"\\{octet:03d}" for octet in chr(char).encode("utf-8"))
    digits = f"{char:0{width}X}" if like.upper else f"{char:0{width}x}"
    prefix = {"%": "%", "&#x": "&#x"}.get(like.style, "\\" + like.style)
    return f"{prefix}{digits};" if like.style == "&#x" else f"{prefix}{digits}"
