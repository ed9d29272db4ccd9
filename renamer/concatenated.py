"""Old values a program builds by joining literals: `"ana-" + "ml2"`, `("ana-" "ml2")`, `"ana-${"ml2"}"`.

A language that concatenates string literals hands its consumer the joined text, while the bytes
spell no old value: Python, JavaScript, Java, Go, C# and Ruby `"ana-" + "ml2"`, Jinja's
`{{ 'ana-' ~ 'ml2' }}`, Lua's `..`, PHP's and Perl's `.`, Python's and C's adjacent literals
(`("ana-"` newline `"ml2")`: read only in their files, `.py`, `.c`, `.h`, `.cc`, `.cpp`, `.hpp`,
where a shell or YAML would read two words), and a literal interpolated into a string or a
template (HCL's and a JS template's `${"ml2"}`, Ruby's `#{"ml2"}`, Jinja's `{{ 'ml2' }}`, a Python
f-string's `{'ml2'}`). Each such join is evaluated (its literals' text, escapes as written) and
matched by the exact rules; an old value that only the join spells (its match crosses a seam
between two literals) is an occurrence refused `split`, as decoded.py refuses a shell's
`ana-"ml2"`: which literal the new name goes in is the author's choice. A value spelled whole
inside one literal is the exact matcher's, rewritten as ever.

Cost: a file is looked at only when it holds a piece of an old value (host_sets.pieces: a host
name's longest words, an address's octet pairs) and one of the join shapes (_SHAPE); only the
joins themselves are evaluated. A join that splits every such piece (`"an" + "a-ml2"`), one
built from variables, and three literals or more around one value in another language's
grammar are not looked for (docs/matching.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from renamer import lazy_re
from renamer.occurrences import Match

# A string literal of one line: double, single or backtick quoted, backslash escapes kept.
_LITERAL = rb"(?:\"(?:[^\"\\\n]|\\.){0,200}\"|'(?:[^'\\\n]|\\.){0,200}'|`(?:[^`\\\n]|\\.){0,200}`)"
# An operator joining two literals: `+`, `~` (Jinja), `..` (Lua), `.` (PHP, Perl).
_OPERATOR = rb"[ \t]*(?:\+|~|\.\.|\.)[ \t]*(?:\\?\r?\n[ \t]*)?"
# Adjacent literals (Python, C): blanks, or a line break inside brackets or after a backslash.
_ADJACENT = rb"[ \t]*(?:\\?\r?\n[ \t]*)?"
_CHAIN = lazy_re.compile(_LITERAL + rb"(?:" + _OPERATOR + _LITERAL + rb")+")
_CHAIN_ADJACENT = lazy_re.compile(_LITERAL + rb"(?:(?:" + _OPERATOR + rb"|" + _ADJACENT + rb")"
                             + _LITERAL + rb")+")
_ONE = lazy_re.compile(_LITERAL)
# A literal interpolated into the text around it: `${"ml2"}`, `#{"ml2"}`, `{{ 'ml2' }}`, `{'ml2'}`.
_INTERPOLATED = lazy_re.compile(rb"(?P<open>[$#]\{|\{\{-?|\{)[ \t]*"
                           rb"(?P<literal>\"[^\"\\\n{}]{0,200}\"|'[^'\\\n{}]{0,200}')[ \t]*(?:-?\}\}|\})")
# The shapes any of the above holds: the cheap test before either regex runs.
_SHAPE = lazy_re.compile(rb"[\"'`][ \t]*(?:\+|~|\.\.?)[ \t]*(?:\\?\r?\n[ \t]*)?[\"'`]"
                    rb"|[\"'][ \t]*(?:\\?\r?\n[ \t]*)?[\"']"
                    rb"|(?:[$#]\{|\{\{-?|[A-Za-z0-9._-]\{)[ \t]*[\"']")
_NAME = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")
# Files whose language joins adjacent literals with no operator.
_ADJACENT_SUFFIXES = (".py", ".pyi", ".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh")
_RENAMED = ("host", "address", "network")
_PROSE = (".md", ".markdown", ".rst", ".txt", ".adoc")

Find = Callable[[bytes], list[Match]]
Pieces = list[tuple[bytes, int]]  # the evaluated text's pieces, each with where it starts in the file


_REACH = 256  # how far from a piece of an old value a join's seam can stand (a literal's length, and more)


def _windows(data: bytes, needles: Sequence[bytes]) -> list[tuple[int, int]]:
    """Merged windows of `data` around each piece of an old value: only there can a join spell one."""
    spans = []
    for needle in needles:
        pos = data.find(needle)
        while pos != -1:
            spans.append((max(0, pos - _REACH), pos + len(needle) + _REACH))
            pos = data.find(needle, pos + 1)
    spans.sort()
    merged: list[tuple[int, int]] = []
    for low, high in spans:
        if merged and low <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], high))
        else:
            merged.append((low, high))
    return merged


# Each quote as `"`, `+` and `~` as `+`, blanks deleted: every join shape then holds _JOINED
# or an interpolation's opening
# (a regex led by one literal byte over the translated copy, and `in` tests, run in C; _SHAPE, a
# regex of character classes and alternatives, costs ~100x more).
_FOLD = bytes.maketrans(b"'`~", b'""+')
_JOINED = lazy_re.compile(
    rb'"(?:\+|\.\.?|\\?\r?\n|)"')  # `"a"+"b"`, `"a".."b"`, `("a"` newline `"b")`, `"a""b"`


def may_join(data: bytes) -> bool:
    """A necessary condition for a join shape, from one translated copy: `"a" + "b"` is `"a"+"b"`."""
    if b"{'" in data:  # an f-string's `{'ml2'}` (a JSON object's `{"` is no join)
        return True
    folded = data.translate(_FOLD, b" \t")
    return b'{"' in folded or b'{-"' in folded or _JOINED.search(folded) is not None


def might_hold(data: bytes, needles: Sequence[bytes]) -> bool:
    """The cheap prefilter: a piece of an old value, and a join shape near one."""
    if not any(n in data for n in needles) or not may_join(data):
        return False
    return any(_SHAPE.search(data, low, high) is not None for low, high in _windows(data, needles))


def joins_adjacent(rel: str) -> bool:
    """Does the language of `rel` join adjacent literals with no operator (Python, C)?"""
    return rel.endswith(_ADJACENT_SUFFIXES)


def concatenated_matches(data: bytes, matches: list[Match], find: Find, needles: Sequence[bytes],
                         rel: str) -> list[Match]:
    """`matches` with every old value that only a join of literals spells added, refused `split`
    (a match inside the join that the joined reading covers gives way to it)."""
    if not any(n in data for n in needles) or not may_join(data):
        return matches
    windows = [(low, high) for low, high in _windows(data, needles) if _SHAPE.search(data, low, high)]
    if not windows:
        return matches
    added: list[Match] = []
    chain = _CHAIN_ADJACENT if joins_adjacent(rel) else _CHAIN
    # A join starts at a line's first literal: each window from its line's start (a chain found twice
    # by two windows is one: `_seams` adds a span once).
    windows = [(data.rfind(b"\n", 0, low) + 1, high) for low, high in windows]
    prose = rel.endswith(_PROSE)
    for found in (x for low, high in windows for x in chain.finditer(data, low, high)):
        if not any(n in found.group() for n in needles) or (prose and b"`" in found.group()):
            continue  # (Markdown's `a` + `b` is two code spans in a sentence, no template literal)
        pieces = [(lit.group()[1:-1], found.start() + lit.start() + 1)
                  for lit in _ONE.finditer(found.group())]
        _seams(pieces, find, added)
    for found in (x for low, high in windows for x in _INTERPOLATED.finditer(data, low, high)):
        if found.group("open") == b"{" and (found.start() == 0 or data[found.start() - 1] not in _NAME):
            continue  # a bare `{'x'}` joins only inside a string (an f-string's), after a name's character
        left = found.start()
        while left > 0 and data[left - 1] in _NAME:
            left -= 1
        right = found.end()
        while right < len(data) and data[right] in _NAME:
            right += 1
        literal = found.start("literal")
        pieces = [(data[left:found.start()], left), (data[literal + 1:found.end("literal") - 1], literal + 1),
                  (data[found.end():right], found.end())]
        if any(n in data[left:right] for n in needles):
            _seams([p for p in pieces if p[0]], find, added)
    if not added:
        return matches
    kept = [m for m in matches if not any(a.start <= m.start and m.end <= a.end for a in added)]
    fresh = [a for a in added if not any(m.start < a.end and a.start < m.end for m in kept)]
    return sorted([*kept, *fresh], key=lambda m: m.start) if fresh else matches


def _seams(pieces: Pieces, find: Find, added: list[Match]) -> None:
    """Each old value the joined pieces spell across a seam, as a refused match over the file."""
    if len(pieces) < 2:
        return
    text = b"".join(piece for piece, _ in pieces)
    at: list[int] = []  # the file position of each byte of `text`
    for piece, start in pieces:
        at.extend(range(start, start + len(piece)))
    for m in find(text):
        if m.kind not in _RENAMED or m.kept is not None or m.end <= m.start:
            continue
        first, last = at[m.start], at[m.end - 1] + 1
        if last - first == m.end - m.start:
            continue  # spelled whole inside one literal: the exact matcher's
        if any(a.start < last and first < a.end for a in added):
            continue
        added.append(Match(first, last, m.old, m.new, m.kind, m.derived, refused="split",
                           note="built by joining literals: the program reads "
                                f"{text[m.start:m.end].decode('utf-8', 'replace')}"))
