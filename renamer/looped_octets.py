"""Last octets a loop makes from literal numbers, under a shrink (t31-33 finding 25).

`for i in range(150, 160): print(f"10.0.48.{i}")`, a shell's `for i in $(seq 150 160); do ping
10.0.48.$i; done` or `{150..160}`, Jinja's `{% for i in range(150, 160) %}10.0.48.{{ i }}`: the head
`10.0.48.` is a moved network's, the loop's numbers are written in the file. Where they are certain
(formatted_values.bounded reads the loop), the addresses are known: one that a shrink leaves
outside the new network refuses the sweep, as the literal address would, and as Terraform's
`[for i in range(150, 160) : cidrhost(local.lan, i)]` is (t29-33 12). A loop renamer cannot read
stays the `composed-address` or `pattern` residual it was. Pure.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence
from dataclasses import replace

from renamer import formatted_values, lazy_re
from renamer.occurrences import Match
from renamer.prefix_moves import OUTSIDE, PrefixMove

# A three-octet head, then one variable in a template: `{i}`, `$i`, `${i}`, `{{ i }}`.
_NAME = rb"[A-Za-z_][A-Za-z0-9_]*"
_HEAD = lazy_re.compile(rb"((?:[0-9]{1,3}\.){3})(\{\{[ \t]*" + _NAME + rb"[ \t]*\}\}|\$\{" + _NAME + rb"\}"
                   rb"|\$" + _NAME + rb"|\{" + _NAME + rb"\})")
_REASONS = ("composed-address", "pattern")


def refused(data: bytes, matches: list[Match], moves: Sequence[PrefixMove]) -> list[Match]:
    """`matches` with each `composed-address` or `pattern` residual whose head and loop make an
    address a shrink leaves outside the new network made a refusal (`outside-prefix`)."""
    shrunk = [m for m in moves if m.old.version == 4 and m.new.prefixlen > m.old.prefixlen]
    if not shrunk or not any(m.refused in _REASONS for m in matches):
        return matches
    out = list(matches)
    for index, m in enumerate(matches):
        if m.refused not in _REASONS:
            continue
        start = max(0, m.start - 16)
        head = next((x for x in _HEAD.finditer(data, start, m.end + 40)
                     if x.start() <= m.start + 1 and x.end(1) >= m.start), None)
        if head is None:
            continue
        variable = head.group(2).decode("ascii").strip("${} \t")
        bound = formatted_values.bounded(data, head.start(2), variable)
        if bound is None or not bound.values or any(not 0 <= v <= 255 for v in bound.values):
            continue
        prefix = head.group(1).decode("ascii")
        for value in bound.values:
            address = ipaddress.IPv4Address(f"{prefix}{value}")
            move = next((mv for mv in shrunk if mv.offset_of(address) is not None), None)
            if move is not None and not move.fits(address):
                written = head.group().decode("ascii")
                note = f"`{written}` makes {address} ({bound.why}): {move.why_not(address)}"
                out[index] = replace(m, refused=OUTSIDE, note=note)
                break
    return out
