"""Addresses composed of variables and literal octets: `${LAB_PREFIX}.5`, `10.0.0.${HOST}`,
`${PTR}.${REV_ZONE}` (a reverse name), Terraform's `"${var.prefix}.5"`, Jinja's `{{ prefix }}.5`.

`--listen-address=${LAB_PREFIX}.5` beside `LAB_PREFIX=10.0.0` is 10.0.0.5 to every consumer, and
no byte spells it; the sweep rewrites no prefix (it is no address), so the old address stays live
and nothing said so. This module is the grammar: where templates and literal octets (and dots,
and a literal `in-addr.arpa` after them) stand together as one address-shaped word, bounded as
DESIGN bounds an address (no digit, letter or `.` on its left; no digit and no `.` followed by a
digit on its right). What each variable holds, and whether the word makes an old address, is
sweep/composed_addresses.py's. Pure: bytes in, spans out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from renamer import composed_names
from renamer.composed_names import Template

_OCTETS = re.compile(rb"[0-9.]*")
_OCTET_BYTES = frozenset(bytes([b]) for b in b"0123456789.")
_REVERSE = re.compile(rb"in-addr\.arpa(?![A-Za-z0-9-])", re.I)
_LEFT = re.compile(rb"[A-Za-z0-9.]")
# Where a composition may stand: a template's end before `.` and a digit or a template, a digit
# and `.` before a template, or a bare `$VAR.` before a template (its literal tail is checked by
# `might_hold` against the old addresses' last octets).
_PROBE = re.compile(rb"\}\.[0-9$%{]|[0-9]\.(?:\$[{A-Za-z_]|\{\{|%\{)"
                    rb"|\$[A-Za-z_][A-Za-z0-9_]*\.(?:\$|\{\{|%\{)")
_BARE_TAIL = rb"\$[A-Za-z_][A-Za-z0-9_]*\.(?:[0-9]{1,3}\.){0,2}"


@dataclass(frozen=True)
class Composition:
    """Templates and literal text forming one address-shaped word at [start, end)."""

    start: int
    end: int
    parts: tuple[str | Template, ...]
    text: str

    @property
    def templates(self) -> tuple[Template, ...]:
        return tuple(p for p in self.parts if isinstance(p, Template))


def literals(addresses: Iterable[str]) -> tuple[bytes, ...]:
    """One of these is in every file `might_hold` accepts: a template's end before a dot, a dot
    before a template, and `.` with each old address's last octet (`$P.5`)."""
    lasts = {b"." + old.rsplit(".", 1)[-1].encode() for old in addresses if ":" not in old}
    return tuple(sorted({b"}.", b".$", b".{{", b".%{", *lasts}))


def bare_tails(addresses: Iterable[str]) -> re.Pattern[bytes] | None:
    """`$P.5`, `$P.0.5`: a bare variable before the last octets of an old address."""
    tails = {old.rsplit(".", 1)[-1].encode() for old in addresses if ":" not in old}
    if not tails:
        return None
    alternatives = b"|".join(re.escape(t) for t in sorted(tails))
    return re.compile(_BARE_TAIL + b"(?:" + alternatives + rb")(?![0-9]|\.[0-9])")


def might_hold(data: bytes, needles: tuple[bytes, ...], bare: re.Pattern[bytes] | None) -> bool:
    """Can `data` hold a composed address? (A needle first: most files hold none.)"""
    if not any(needle in data for needle in needles):
        return False
    return bool(_PROBE.search(data)) or (bare is not None and b"$" in data and bool(bare.search(data)))


def find(data: bytes) -> list[Composition]:
    """Every address-shaped word holding a template and a literal dot (or two templates)."""
    out: list[Composition] = []
    covered = -1
    found = list(composed_names.templates(data))
    by_start = {t.start: t for t in found}
    for template in found:
        if template.start < covered:
            continue  # a template inside one already read (a default's nest), or in this run
        start = template.start
        while start > 0 and data[start - 1:start] in _OCTET_BYTES:
            start -= 1
        parts: list[str | Template] = [data[start:template.start].decode()] if start < template.start else []
        parts.append(template)
        at = template.end
        while True:
            octets = _OCTETS.match(data, at)
            stop = octets.end() if octets is not None else at
            if stop > at:
                parts.append(data[at:stop].decode())
            following = by_start.get(stop)
            at = stop
            if following is None:
                break
            parts.append(following)
            at = following.end
        if data[at - 1:at] == b"." and (reverse := _REVERSE.match(data, at)) is not None:
            parts.append(reverse.group().decode())
            at = reverse.end()
        while isinstance(parts[-1], str) and parts[-1].endswith("."):
            parts[-1] = parts[-1][:-1]  # `at ${P}.5.` ending a sentence
            at -= 1
            if not parts[-1]:
                parts.pop()
        covered = at
        texts = [p for p in parts if isinstance(p, str)]
        if not (any("." in t for t in texts) or len(parts) - len(texts) > 1):
            continue
        if start > 0 and _LEFT.match(data, start - 1) and data[start - 2:start] != b":-":
            continue  # `x.${P}.5`, `v1.${P}.5`: part of a longer word
        if data[at:at + 1].isdigit() or (data[at:at + 1] == b"." and data[at + 1:at + 2].isdigit()):
            continue
        out.append(Composition(start, at, tuple(parts), data[start:at].decode("utf-8", "replace")))
    return out
