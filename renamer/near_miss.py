"""The deliberately looser pass behind `verify`'s near-misses.

Case-insensitive, `-`, `_` and `.` interchangeable inside a name, dashed
addresses (10-250-50-54). Whatever it finds that the exact rules did not is a
near-miss, so verify never shares a blind spot with the sweep.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from renamer import work
from renamer.match import positions

# A separator, also as a regular expression escapes it (\. \\. [.]): an escaped spelling that the
# exact forms miss (ANA\-ML2) is still a near-miss.
_SEP = rb"(?:\\{1,2}[-_.]|\[[-_.]\]|[-_.])"
_ESCAPES = b"\\[]"  # deleted before the prefilter's `in` tests


# One pass folds case and separators: ANA_ML2 and ana-ml2 both read ana.ml2. Byte for
# byte, so offsets in the folded copy are offsets in the file.
_UPPER = bytes(range(ord("A"), ord("Z") + 1))
_FOLD = bytes.maketrans(_UPPER + b"-_", _UPPER.lower() + b"..")
FOLD_AND_BARE = (_FOLD, _ESCAPES)  # bytes.translate's arguments: folded, escapes deleted


def fold_and_bare(data: bytes) -> bytes:
    """`data` folded and without escapes: the loose pass's `bare` in one copy."""
    return data.translate(*FOLD_AND_BARE)


class LoosePass:
    def __init__(self, hosts: Iterable[str], addresses: Iterable[str]) -> None:
        parts: list[bytes] = []
        needles: set[bytes] = set()
        self._like: list[tuple[re.Pattern[bytes], str]] = []
        starts: set[bytes] = set()
        for old in sorted(hosts, key=len, reverse=True):  # leftmost-longest, as the exact matcher
            tokens = [t.lower().encode() for t in re.split(r"[-_.]", old) if t]
            body = _SEP.join(re.escape(t) for t in tokens)
            parts.append(rb"(?<![A-Za-z0-9])" + body + rb"(?![A-Za-z0-9])")
            self._like.append((re.compile(b"(?i)" + body), old))
            needles.add(b".".join(tokens))  # every loose spelling folds to this
            starts.add(tokens[0])
        for old in addresses:
            if ":" in old:
                continue
            octets = [o.encode() for o in old.split(".")]
            for order in (octets, octets[::-1]):  # forward, and as in a reverse-DNS name
                body = _SEP.join(order)
                parts.append(rb"(?<![0-9])" + body + rb"(?![0-9])")
                self._like.append((re.compile(body), old))
                starts.add(order[0])
                needles.add(b".".join(order))
        self.pattern = re.compile(b"(?i)" + b"|".join(parts)) if parts else None
        # A needle holding another adds nothing to an `in` test.
        ordered = sorted(needles, key=len)
        self.needles = tuple(n for i, n in enumerate(ordered) if not any(m in n for m in ordered[:i]))
        self._starts = tuple(sorted(starts))  # every loose hit begins with one of these
        # Without escapes in the file, a loose hit folds to one needle exactly (the tokens joined
        # by single separators, each read `.`): those needles, none left out, are where hits begin.
        self._anchors = tuple(sorted(needles))

    def might_match(self, data: bytes) -> bool:
        return self.pattern is not None and self._holds(data, data.translate(_FOLD))

    def _holds(self, data: bytes, folded: bytes) -> bool:
        """A needle in the folded bytes; only a file with escapes is folded again without them."""
        if any(n in folded for n in self.needles):
            return True
        if b"\\" not in data and b"[" not in data:
            return False
        bare = folded.translate(None, _ESCAPES)
        return any(n in bare for n in self.needles)

    def find(self, data: bytes, taken: Sequence[tuple[int, int]] = ()) -> list[tuple[int, int, str, str]]:
        """(start, end, spelling found, old value it resembles) for each loose hit.

        `taken`: spans already reported (sorted, not overlapping); a hit starting inside one
        is not tried, which keeps a file dense with exact matches from paying twice.
        """
        if self.pattern is None:
            return []
        folded = data.translate(_FOLD)
        if not self._holds(data, folded):
            return []
        out = []
        end = 0
        span, spans = 0, len(taken)
        # Anchored where a whole folded needle occurs (or, in a file with escapes, where a first
        # token does, `10` on every line of a 10/8 repo): no walk over every byte.
        anchors = self._starts if b"\\" in data or b"[" in data else self._anchors
        tried = sorted({p for token in anchors for p in positions(folded, token)})
        work.add("loose positions", len(tried))
        for pos in tried:
            while span < spans and taken[span][1] <= pos:
                span += 1
            if pos < end or (span < spans and taken[span][0] <= pos):
                continue
            hit = self.pattern.match(data, pos)
            if hit is None:
                continue
            end = hit.end()
            text = hit.group()
            like = next((old for regex, old in self._like if regex.fullmatch(text)), "")
            out.append((hit.start(), hit.end(), text.decode("ascii", "replace"), like))
        return out


def in_identifier(text: str, like: str, before: str, after: str) -> bool:
    """Whether a loose hit is a word of an identifier, not a spelling of the host: joined by `_`
    to what stands before or after it (`DDNS_NS1_PTR`, `NS1_ADDR`, `${NS1_IP}`, `ANA_ML2_URL`) and
    in a case the old name does not have. No host name holds `_` (RFC 1123), so such a word
    names a variable or a constant, not a machine; `variants: true` renames them, where wanted.
    A hit in the old name's own case joined so (`ns1_backup`, `ana-ml2_backup.tar`, a file or a
    variable built on the name as it is spelled, as a derived name is) stays a near-miss."""
    if not (before[-1:] == "_" or after[:1] == "_"):
        return False
    if not any(c.isalpha() for c in like):
        return False  # an address: digits have no case, `IP_10_250_50_54` is one spelled so
    return _SEPARATORS.sub("", text) != _SEPARATORS.sub("", like)


_RANGE_TAIL = re.compile(r"(?:-|\u2013|\u2014|\.\.|~)[0-9]")
_SEPARATORS = re.compile(r"\\*[-_.]|\[[-_.]\]")


def why(text: str, like: str, before: str, after: str) -> str:
    """What sets a loose hit apart from the old value it resembles, in a word."""
    if "\\" in text or "[" in text:
        return "regex-escaped"
    if before[-1:] == "\\":
        return "escape"
    if _RANGE_TAIL.match(after):
        return "range"  # WEB01-03: another spelling of one end of a set of machines
    if text == like:  # the same spelling: its neighbours set it apart
        if before[-1:].isalpha():
            return "letter-left"
        if after[:1].isalpha() or after[:1] == "_":
            return "letter-right"
        return "part-of-name"  # sub.ana-ml2: the tail of a longer name
    if text.lower() == like.lower():
        return "case"
    if _SEPARATORS.sub("", text.lower()) == _SEPARATORS.sub("", like.lower()):
        same_case = _SEPARATORS.sub("", text) == _SEPARATORS.sub("", like)
        return "separator" if same_case else "case, separator"
    return "reordered"  # a reverse-DNS order, or case and separators together
