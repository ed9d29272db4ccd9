"""Addresses composed of variables and literal octets: `${LAB_PREFIX}.5`, `10.0.0.${HOST}`,
`${PTR}.${REV_ZONE}` (a reverse name), Terraform's `"${var.prefix}.5"`, Jinja's `{{ prefix }}.5`.

`--listen-address=${LAB_PREFIX}.5` beside `LAB_PREFIX=10.0.0` is 10.0.0.5 to every consumer, and
no byte spells it; the sweep rewrites no prefix (it is no address), so the old address stays live
and nothing said so. This module is the grammar: where templates and literal octets (and dots,
and a literal `in-addr.arpa` after them) stand together as one address-shaped word, bounded as
DESIGN bounds an address (no digit, letter or `.` on its left; no digit and no `.` followed by a
digit on its right). Shell quotes between the parts are no part of the word (`"$NET".5`,
`${NET}'.5'`: the shell joins them), a plain arithmetic expansion is a template (`10.0.0.$((OCT))`),
and a template may hold the dot itself (`${IP}5` beside `IP=10.0.0.`): break-it round 7,
finding 13. What each variable holds, and whether the word makes an old address, is
sweep/composed_addresses.py's. Pure: bytes in, spans out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from renamer import composed_names, lazy_re
from renamer.composed_names import Template

_OCTETS = lazy_re.compile(rb"[0-9.]*")
_OCTET_BYTES = frozenset(bytes([b]) for b in b"0123456789.")
_REVERSE = lazy_re.compile(rb"in-addr\.arpa(?![A-Za-z0-9-])", re.I)
_LEFT = re.compile(rb"[A-Za-z0-9.]")
# Where a composition may stand: a template's end before `.` and a digit or a template, a digit
# and `.` before a template, or a bare `$VAR.` before a template (its literal tail is checked by
# `might_hold` against the old addresses' last octets); shell quotes may stand around the dot.
_PROBE = lazy_re.compile(rb"[})][\"']*\.[\"']*[0-9$%{]|[0-9]\.[\"']*(?:\$[{A-Za-z_(]|\{\{|%\{)"
                    rb"|\$[A-Za-z_][A-Za-z0-9_]*[\"']*\.[\"']*(?:\$|\{\{|%\{)|[A-Za-z0-9_][\"']+\.[\"']*[0-9]")
_BARE_TAIL = rb"\$[A-Za-z_][A-Za-z0-9_]*\.(?:[0-9]{1,3}\.){0,2}"
# `$((OCT))`, `$(( $OCT ))`: arithmetic of one variable is its value (anything more is computed).
_ARITHMETIC = lazy_re.compile(rb"\$\(\([ \t]*\$?\{?(?P<var>[A-Za-z_][A-Za-z0-9_]*)\}?[ \t]*\)\)")
_QUOTES = lazy_re.compile(rb"[\"']+")


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


def literals(addresses: Iterable[str], any_octet: bool = False) -> tuple[bytes, ...]:
    """One of these is in every file `might_hold` accepts: a template's end before a dot, a dot
    before a template, and `.` with each old address's last octet (`$P.5`; any octet, `.` and a
    digit, where a network is renamed: `any_octet`)."""
    v4 = [old for old in addresses if ":" not in old]
    lasts = {b"." + old.rsplit(".", 1)[-1].encode() for old in v4}
    if any_octet:
        lasts |= {b"." + bytes([digit]) for digit in b"0123456789"}
    held = {b"}" + suffix[:1] for suffix in _suffixes(v4)}  # `${IP}5`: the dot inside the value
    return tuple(sorted({b"}.", b".$", b".{{", b".%{", b'."', b".'", *lasts, *held}))


def _suffixes(addresses: Iterable[str]) -> set[bytes]:
    """Each tail of an old address that starts with a digit: what may follow a template holding
    the rest (`5`, `0.5`, `15` of 10.0.0.15)."""
    out = set()
    for old in addresses:
        raw = old.encode()
        out |= {raw[i:] for i in range(1, len(raw)) if raw[i:i + 1].isdigit()}
    return out


def bare_tails(addresses: Iterable[str], any_octet: bool = False) -> re.Pattern[bytes] | None:
    """`$P.5`, `$P.0.5`: a bare variable before the last octets of an old address; `}5`, `}0.5`: a
    template holding the address's head, dot and all. `any_octet` (a network renamed, break-it
    round 16 #15: `HOST=$PREFIX.5` beside `PREFIX=10.0.40`): any octets, each address of an old
    network being one."""
    v4 = [old for old in addresses if ":" not in old]
    tails = {old.rsplit(".", 1)[-1].encode() for old in v4}
    if any_octet:
        return re.compile(_BARE_TAIL + rb"[0-9]{1,3}(?![0-9]|\.[0-9])"
                          + rb"|[})][0-9]{1,3}(?:\.[0-9]{1,3}){0,2}(?![0-9]|\.[0-9])")
    if not tails:
        return None
    alternatives = b"|".join(re.escape(t) for t in sorted(tails))
    held = b"|".join(re.escape(t) for t in sorted(_suffixes(v4), key=lambda t: (-len(t), t)))
    return re.compile(_BARE_TAIL + b"(?:" + alternatives + rb")(?![0-9]|\.[0-9])"
                      + rb"|[})](?:" + held + rb")(?![0-9]|\.[0-9])")


# One of these stands in every match of _PROBE (a template's end, a dot, a quote between them):
# `in` tests first, since the probe's regex costs a pass over the whole file.
_JOINS = (b"}.", b").", b'}"', b"}'", b')"', b")'", b".$", b".{{", b".%{", b'."', b".'", b'".', b"'.")


def might_hold(data: bytes, needles: tuple[bytes, ...], bare: re.Pattern[bytes] | None) -> bool:
    """Can `data` hold a composed address? (A template's opener first, then a needle: four `in`
    tests reject most files, where the needles, `.54` among them, are in most of a dense repo's.)"""
    if not (b"$" in data or b"{{" in data or b"%{" in data or b"`" in data):
        return False  # every composition holds a template, and each template opens so
    if not any(needle in data for needle in needles):
        return False
    if any(join in data for join in _JOINS) and _PROBE.search(data):
        return True
    return bare is not None and b"$" in data and bool(bare.search(data))


def find(data: bytes) -> list[Composition]:
    """Every address-shaped word holding a template and literal octets (or two templates)."""
    out: list[Composition] = []
    covered = -1
    found = _templates(data)
    by_start = {t.start: t for t in found}
    for template in found:
        if template.start < covered:
            continue  # a template inside one already read (a default's nest), or in this run
        start = _left(data, template.start)
        head = _QUOTES.sub(b"", data[start:template.start]).decode()
        parts: list[str | Template] = [head] if head else []
        parts.append(template)
        at = template.end
        while True:
            stop = _right(data, at, by_start)
            if stop > at:
                parts.append(_QUOTES.sub(b"", data[at:stop]).decode())
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
        if not texts and len(parts) < 2:
            continue  # a template alone: no literal octet, nothing composed
        if start > 0 and _LEFT.match(data, start - 1) and data[start - 2:start] != b":-":
            continue  # `x.${P}.5`, `v1.${P}.5`: part of a longer word
        if data[at:at + 1].isdigit() or (data[at:at + 1] == b"." and data[at + 1:at + 2].isdigit()):
            continue
        out.append(Composition(start, at, tuple(parts), data[start:at].decode("utf-8", "replace")))
    return out


def _templates(data: bytes) -> list[Template]:
    """The templates of `data` and its plain arithmetic expansions, in order (a variable inside an
    arithmetic expansion is the expansion's)."""
    arithmetic = [Template(m.start(), m.end(), (m.group("var").decode(),))
                  for m in _ARITHMETIC.finditer(data)]
    inside = [t for t in composed_names.templates(data)
              if not any(a.start <= t.start < a.end for a in arithmetic)]
    return sorted([*inside, *arithmetic], key=lambda t: t.start)


def _left(data: bytes, pos: int) -> int:
    """Where the word's literal octets before `pos` begin, shell quotes among them skipped
    (`10.0.0."$OCT"`) where octets stand before the quotes."""
    start = pos
    while start > 0:
        if data[start - 1:start] in _OCTET_BYTES:
            start -= 1
            continue
        quotes = start
        while quotes > 0 and data[quotes - 1:quotes] in (b'"', b"'"):
            quotes -= 1
        if quotes == start or quotes == 0 or data[quotes - 1:quotes] not in _OCTET_BYTES:
            break
        start = quotes
    return start


def _right(data: bytes, at: int, templates: dict[int, Template]) -> int:
    """Where the word's literal octets from `at` end, shell quotes among them skipped where octets
    or a template follow the quotes (`"$NET".5`, `${NET}'.5'`)."""
    while True:
        octets = _OCTETS.match(data, at)
        stop = octets.end() if octets is not None else at
        quotes = _QUOTES.match(data, stop)
        if quotes is None:
            return stop
        after = quotes.end()
        if data[after:after + 1] in _OCTET_BYTES or after in templates:
            at = after
            continue
        return stop
