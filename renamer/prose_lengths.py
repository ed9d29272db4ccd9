"""A resized network's old length in the prose beside it (t31-33, finding 22).

onedr0p/cluster-template's `cluster.sample.toml` says "CIDR Cilium hands out to pods. /16 gives ~64K
pod IPs" over `# OPTIONAL. Default: "10.42.0.0/16"`; under `10.42.0.0/16: 10.244.0.0/15` the default
was rewritten and the prose kept `/16`, verify OK.

Here, in a comment paragraph (consecutive lines each a comment: `#`, `//`, `;`, `--`, Cisco's `!`;
with the code line right below it), a C block comment, or a single line, that spells a resized
move's old network (`10.42.0.0/16`), or its new one after the sweep (`10.244.0.0/15`), a
bare `/N` holding the old length elsewhere in the paragraph is a `mask` residual, never rewritten:
prose ("/16 gives ~64K pod IPs") is the operator's to reword. Pure: bytes and matches in, added
matches out (`Matcher.prose_lengths` under a resized move).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Sequence

from renamer import lazy_re
from renamer.occurrences import Match
from renamer.prefix_moves import MASK, PrefixMove

_COMMENT = lazy_re.compile(rb"(?m)^[ \t]*(?:#|//|;|--|!)[^\n]*\n?")
# A C block comment (`/* pods: 10.42.0.0/16\n   a /16 gives ~64K */`), and a code line (t32-33 finding 09).
_BLOCK = lazy_re.compile(rb"/\*.*?\*/", re.S)
_LINE = lazy_re.compile(rb"(?m)^[^\n]*\n?")
_NETWORK = lazy_re.compile(rb"(?<![0-9A-Za-z.:])(?P<net>[0-9]{1,3}(?:\.[0-9]{1,3}){3}/[0-9]{1,2}"
                      rb"|[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}/[0-9]{1,3})(?![0-9])")
_BARE = lazy_re.compile(rb"(?<![\w./:%-])/(?P<n>[0-9]{1,3})(?![\w/.])")


def prose(data: bytes, matches: list[Match], moves: Sequence[PrefixMove]) -> list[Match]:
    """`matches` with each bare old length in a comment paragraph naming a resized network."""
    resized = [move for move in moves if move.resized]
    if not resized or b"/" not in data:
        return matches
    added: list[Match] = []
    for start, end in _paragraphs(data):
        named = _named(data, start, end, resized)
        if not named:
            continue
        for bare in _BARE.finditer(data, start, end):
            n = int(bare.group("n"))
            move = next((m for m in named if m.old.prefixlen == n != m.new.prefixlen), None)
            if move is None or any(m.start < bare.end() and bare.start() < m.end for m in [*matches, *added]):
                continue
            text = bare.group().decode()
            note = (f"`{text}` in the prose beside {move.old} (moved to {move.new}) is its old length: "
                    f"reword it for /{move.new.prefixlen} by hand, or keep it with a keep rule")
            added.append(Match(bare.start(), bare.end(), text, text, "network", refused=MASK, note=note))
    return sorted([*matches, *added], key=lambda m: m.start) if added else matches


def _paragraphs(data: bytes) -> list[tuple[int, int]]:
    """Each comment paragraph with the code line right below it (`# /16 gives ~64K pod IPs` over
    `cluster_pod_cidr: "10.42.0.0/16"`), each C block comment, and each line on its own (a trailing
    `# a /16: ~64K service IPs`, a Markdown sentence beside the network): t32-33 finding 09."""
    out: list[tuple[int, int]] = []
    for line in _COMMENT.finditer(data):
        if out and out[-1][1] == line.start():
            out[-1] = (out[-1][0], line.end())
        else:
            out.append((line.start(), line.end()))
    below = []
    for start, end in out:
        code = _LINE.match(data, end)
        if code is not None and code.group().strip() and _COMMENT.match(data, end) is None:
            below.append((start, code.end()))
    lines = [(x.start(), x.end()) for x in _LINE.finditer(data) if x.group().strip()]
    blocks = [(x.start(), x.end()) for x in _BLOCK.finditer(data)] if b"/*" in data else []
    return [*below, *out, *blocks, *lines]


def _named(data: bytes, start: int, end: int, moves: Sequence[PrefixMove]) -> list[PrefixMove]:
    out = []
    for found in _NETWORK.finditer(data, start, end):
        try:
            net = ipaddress.ip_network(found.group("net").decode(), strict=True)
        except ValueError:
            continue
        out += [m for m in moves if net in (m.old, m.new) and m not in out]
    return out
