"""The deliberately looser pass behind `verify`'s near-misses.

Case-insensitive, `-`, `_` and `.` interchangeable inside a name, dashed
addresses (10-250-50-54). Whatever it finds that the exact rules did not is a
near-miss, so verify never shares a blind spot with the sweep.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable

_SEP = rb"[-_.]"


class LoosePass:
    def __init__(self, hosts: Iterable[str], addresses: Iterable[str]) -> None:
        parts: list[bytes] = []
        needles: set[bytes] = set()
        self._like: list[tuple[re.Pattern[bytes], str]] = []
        for old in hosts:
            tokens = [t.lower().encode() for t in re.split(r"[-_.]", old) if t]
            body = _SEP.join(re.escape(t) for t in tokens)
            parts.append(rb"(?<![A-Za-z0-9])" + body + rb"(?![A-Za-z0-9])")
            self._like.append((re.compile(b"(?i)" + body), old))
            needles |= _spellings(tokens[:3])
        for old in addresses:
            if ":" in old:
                continue
            octets = [o.encode() for o in old.split(".")]
            body = _SEP.join(octets)
            parts.append(rb"(?<![0-9])" + body + rb"(?![0-9])")
            self._like.append((re.compile(body), old))
            needles |= _spellings(octets)
        self.pattern = re.compile(b"(?i)" + b"|".join(parts)) if parts else None
        self.needles = tuple(sorted(needles))

    def find(self, data: bytes) -> list[tuple[int, int, str, str]]:
        """(start, end, spelling found, old value it resembles) for each loose hit."""
        if self.pattern is None:
            return []
        lowered = data.lower()
        if not any(n in lowered for n in self.needles):
            return []
        out = []
        for hit in self.pattern.finditer(data):
            text = hit.group()
            like = next((old for regex, old in self._like if regex.fullmatch(text)), "")
            out.append((hit.start(), hit.end(), text.decode("ascii", "replace"), like))
        return out


def _spellings(tokens: list[bytes]) -> set[bytes]:
    if len(tokens) == 1:
        return {tokens[0]}
    seps = itertools.product((b"-", b"_", b"."), repeat=len(tokens) - 1)
    out = set()
    for choice in seps:
        joined = tokens[0]
        for sep, token in zip(choice, tokens[1:], strict=True):
            joined += sep + token
        out.add(joined)
    return out
