"""Opaque tokens: encoded data a host name can stand inside, bounded like a name, which is no
reference to the host (break-it rounds 4 and 9). `/`, `+` and `=` are base64's letters, `-` and
`_` base64url's, `$` and `.` a crypt hash's, so `pug` stands whole in `q2Xo+pug/8a9Zk=`,
`$apr1$pug$Xyz...` or `AAAAB3NzaC1yc2E+pug/AAAA...`. Rewriting it makes another key or hash.

Only the bytes around a match are read (at most WINDOW each side): the first pass asks this of
its matches alone, never of every position of a file (issue 30).

* `base64`: a run of base64 (or base64url) letters holding the match, with a `+`, `/`, `=` (or
  `-`, `_`) beside it, that reads as encoded data: 20 or more letters whose neighbours change
  kind (upper, lower, digit) as randomly as a key's do (a path's words do not); or a shorter run,
  8 or more, ending in `=` padding or holding a `+` beside the name, whose other letters mix
  cases (`Ab+pug/Cd==`, `q2Xo+pug/8a9Zk=`); or an ssh key blob (`AAAA` and 24 or more letters:
  the wire format's length prefix), whatever its letters.
* `hash`: a crypt hash, `$id$[params$]salt$hash` (`$1$`, `$apr1$`, `$5$`, `$6$rounds=N$`, `$2b$12$`,
  `$y$`, `$argon2id$v=19$m=...`), the match in its salt or hash; or a run of 32 or more hex digits
  (a digest) or a UUID holding it.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

from renamer import lazy_re
from renamer.occurrences import Match

WINDOW = 4096  # how far a token is followed each side of a match
_BASE64 = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
_URLSAFE = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
_CRYPT = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789./+=,$-")
_HEX = frozenset(b"0123456789abcdefABCDEF-")
# What may stand beside a match for it to be inside a token at all: anything else is a name's
# own boundary (a blank, a quote, a dot, a colon), and the match is no token's.
BESIDE = frozenset(b"+/=$-_")
_MIXED = lazy_re.compile(rb"(?=[^A-Z]*[A-Z])(?=[^a-z]*[a-z])(?=[^0-9]*[0-9])")
_TWO_CASES = lazy_re.compile(rb"(?=[^A-Z]*[A-Z])(?=[^a-z]*[a-z])")
_CRYPT_HASH = lazy_re.compile(rb"\$(?:[0-9a-z]{1,2}|apr1|md5|sha1|y|gy|7|argon2(?:i|d|id)?|pbkdf2(?:-sha\d+)?"
                         rb"|scrypt)(?:\$[A-Za-z0-9./+=,-]*)+\$[A-Za-z0-9./+=]{8,}\Z")
_HEX_TOKEN = lazy_re.compile(
    rb"(?:[0-9a-fA-F]{32,}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}"
                        rb"-[0-9a-fA-F]{12})\Z")


def opaque(data: bytes, start: int, end: int) -> str | None:
    """Why data[start:end] is inside an opaque token (`base64`, `hash`), or None."""
    before, after = data[start - 1:start] if start else b"", data[end:end + 1]
    if not (before and before[0] in BESIDE) and not (after and after[0] in BESIDE):
        return None
    if data[max(0, start - 3):start] == b"://":
        return None  # a URL's host
    if data.rfind(b"$", max(0, start - 64), start) != -1 and _in_crypt(data, start, end):
        return "hash"
    near = data[max(0, start - 32):start] + data[end:end + 32]
    if near.lower() == near or near.upper() == near:  # encoded data mixes cases; a path's words seldom
        return "hash" if b"-" in (before, after) and _in_hex(data, start, end) else None
    if (before in (b"+", b"/") or after in (b"+", b"/", b"=")) and _in_base64(data, start, end, _BASE64,
                                                                                before, after):
        return "base64"
    if (before in (b"-", b"_") or after in (b"-", b"_")) and _in_base64(data, start, end, _URLSAFE,
                                                                        before, after):
        return "base64"
    if b"-" in (before, after) and _in_hex(data, start, end):
        return "hash"
    return None


def _table(letters: frozenset[int]) -> bytes:
    return bytes(ord("a") if i in letters else ord(" ") for i in range(256))


_TABLES: dict[frozenset[int], bytes] = {}


def _run(data: bytes, start: int, end: int, letters: frozenset[int]) -> tuple[int, int]:
    """The run of `letters` around start:end: a short window first, WINDOW bytes each side where the
    run reaches its edge (the bytes are mapped in C, never walked in Python)."""
    table = _TABLES.get(letters) or _TABLES.setdefault(letters, _table(letters))
    for window in (64, WINDOW):
        lo, hi = max(0, start - window), min(len(data), end + window)
        left = lo + data[lo:start].translate(table).rfind(b" ") + 1
        gap = data[end:hi].translate(table).find(b" ")
        right = hi if gap == -1 else end + gap
        if (left > lo or lo == 0) and (right < hi or hi == len(data)):
            break
    return left, right


def _in_base64(data: bytes, start: int, end: int, letters: frozenset[int],
               before: bytes, after: bytes) -> bool:
    standard = letters is _BASE64
    marks = b"+/" if standard else b"-_"
    left, right = _run(data, start, end, letters)
    pad = right
    while standard and pad < len(data) and pad - right < 2 and data[pad:pad + 1] == b"=":
        pad += 1
    padded = pad > right
    beside = (before and before in marks) or (after and after in marks) or (padded and right == end)
    if not beside:
        return False
    noise = (data[left:start] + data[end:right]).translate(None, marks)
    if standard and data[left:left + 4] == b"AAAA" and right - left >= 24:
        return True  # an ssh key blob: its length prefix
    if right - left >= 20 and len(noise) >= 14 and _MIXED.match(noise) is not None:
        return _switches(noise) >= (0.3 if padded else 0.4)
    if not standard or pad - left < 8 or _TWO_CASES.match(noise) is None:
        return False
    return padded or b"+" in (before, after)


def _switches(letters: bytes) -> float:
    """How often a neighbour changes kind (upper case, lower case, digit): random base64 about
    0.62 (26, 26 and 10 of its 62 letters), a path's words 0.1 to 0.35. Measured on 3,000
    random keys each with a name inside: 0.4 misses 3.5 % of 16-byte keys, 0.1 % of 32-byte ones."""
    kinds = [0 if 65 <= b <= 90 else 1 if 97 <= b <= 122 else 2 for b in letters]
    return sum(a != b for a, b in itertools.pairwise(kinds)) / max(1, len(kinds) - 1)


def _in_crypt(data: bytes, start: int, end: int) -> bool:
    left, right = _run(data, start, end, _CRYPT)
    first = data.find(b"$", left, start + 1)
    if first == -1:
        return False
    prefix = data[left:first]
    if prefix and not prefix.endswith(b"="):
        return False  # `x$1$...`: no hash's start (`key=$6$...` is one: its `=` a separator)
    return _CRYPT_HASH.match(data, first, right) is not None


def _in_hex(data: bytes, start: int, end: int) -> bool:
    left, right = _run(data, start, end, _HEX)
    token = data[left:right].strip(b"-")
    return _HEX_TOKEN.match(token) is not None


def with_opaque(data: bytes, matches: list[Match]) -> list[Match]:
    """`matches` with each one inside an opaque token kept, its reason the token's kind. Asked of
    the bytes as the file spells them: a lower-cased copy (the any-case pass) has lost a key's
    mixed case."""
    out = []
    for m in matches:
        if m.refused is None and m.kept is None:
            kind = opaque(data, m.start, m.end)
            if kind is not None:
                m = replace(m, kept=kind)
        out.append(m)
    return out
