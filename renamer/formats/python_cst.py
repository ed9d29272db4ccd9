"""Python: is a match in a string, a comment or an identifier?

The cheap, exact part comes first: CPython's own parser (`ast`, in C) gives
every string literal's span, and a `#` outside any string starts a comment to
the end of its line. Only a match outside both, where it could be an
identifier or code, needs libcst's concrete syntax tree to say which.
"""

from __future__ import annotations

import ast
import bisect
import warnings
from collections import Counter
from collections.abc import Sequence

from renamer.formats import entry_lists
from renamer.formats.base import BaseFormat, Comment

STRING = "string"
COMMENT = "comment"
IDENTIFIER = "identifier"
CODE = "code"


def roles(source: bytes, spans: list[tuple[int, int]]) -> list[str] | None:
    """The role of each (start, end) byte span, or None when the file does not parse."""
    lines = {source.count(b"\n", 0, start) + 1 for start, _ in spans}
    strings = _string_spans(source, lines)
    if strings is None:
        return None
    starts = [s for s, _ in strings]
    out: list[str | None] = []
    for start, end in spans:
        index = bisect.bisect_right(starts, start) - 1
        if index >= 0 and end <= strings[index][1]:
            out.append(STRING)
        elif _after_comment_sign(source, start, strings, starts):
            out.append(COMMENT)
        else:
            out.append(None)
    if None in out:
        exact = _cst_roles(source, spans)
        if exact is None:
            return None
        out = [role if role is not None else exact[i] for i, role in enumerate(out)]
    return [role or CODE for role in out]


def _string_spans(source: bytes, lines: set[int]) -> list[tuple[int, int]] | None:
    """Byte spans of the string literals on `lines` (the walk skips nodes elsewhere)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escape sequences and the like
            tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    line_starts = [0]
    position = source.find(b"\n")
    while position != -1:
        line_starts.append(position + 1)
        position = source.find(b"\n", position + 1)
    spans = []
    holes = []  # the {expressions} of f-strings: code, not text
    for node in _covering(tree, lines):
        if isinstance(node, ast.FormattedValue):
            value = node.value
            end_line = getattr(value, "end_lineno", None)
            if end_line is not None:
                holes.append((line_starts[value.lineno - 1] + value.col_offset,
                              line_starts[end_line - 1] + (value.end_col_offset or 0)))
        is_text = isinstance(node, ast.Constant) and isinstance(node.value, str | bytes)
        last_line = getattr(node, "end_lineno", None)
        if (is_text or isinstance(node, ast.JoinedStr)) and last_line is not None:
            # ast offsets count UTF-8 bytes, as the spans do
            start = line_starts[getattr(node, "lineno", 1) - 1] + getattr(node, "col_offset", 0)
            end = line_starts[last_line - 1] + (getattr(node, "end_col_offset", 0) or 0)
            spans.append((start, end))
    spans.sort()
    merged: list[tuple[int, int]] = []
    for start, end in spans:  # f-string parts lie inside their f-string
        if merged and start < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return _cut(merged, sorted(holes))


def _cut(spans: list[tuple[int, int]], holes: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """`spans` with the `holes` inside them taken out (both sorted)."""
    out = []
    for start, end in spans:
        for hole_start, hole_end in holes:
            if start <= hole_start and hole_end <= end:
                out.append((start, hole_start))
                start = hole_end
        out.append((start, end))
    return [(s, e) for s, e in out if s < e]


def _covering(tree: ast.AST, lines: set[int]) -> list[ast.AST]:
    """The nodes whose line range holds one of `lines`: a pruned ast.walk."""
    out, todo = [], [tree]
    while todo:
        node = todo.pop()
        first, last = getattr(node, "lineno", None), getattr(node, "end_lineno", None)
        if first is not None and last is not None and not any(first <= n <= last for n in lines):
            continue
        out.append(node)
        todo.extend(ast.iter_child_nodes(node))
    return out


def _after_comment_sign(source: bytes, offset: int, strings: list[tuple[int, int]],
                        starts: list[int]) -> bool:
    """Is there a `#` outside any string between the line start and `offset`?"""
    line_start = source.rfind(b"\n", 0, offset) + 1
    sign = source.find(b"#", line_start, offset)
    while sign != -1:
        index = bisect.bisect_right(starts, sign) - 1
        if not (index >= 0 and sign < strings[index][1]):
            return True
        sign = source.find(b"#", sign + 1, offset)
    return False


def _cst_roles(source: bytes, spans: list[tuple[int, int]]) -> list[str] | None:
    # Deferred (docs/architecture.md): libcst takes ~250 ms to import and is needed only
    # for a Python file with a match outside its strings and comments.
    import libcst as cst
    from libcst.metadata import ByteSpanPositionProvider, MetadataWrapper

    try:
        wrapper = MetadataWrapper(cst.parse_module(source), unsafe_skip_copy=True)
        positions = wrapper.resolve(ByteSpanPositionProvider)
    except (cst.ParserSyntaxError, RecursionError, UnicodeDecodeError, ValueError):
        return None
    leaves: list[tuple[int, int, str]] = []
    for node, span in positions.items():
        role = _role_of(node)
        if role:
            leaves.append((span.start, span.start + span.length, role))
    leaves.sort()
    starts = [leaf[0] for leaf in leaves]
    out = []
    for start, end in spans:
        index = bisect.bisect_right(starts, start) - 1
        # Strings, comments and names never nest, so the nearest leaf decides.
        out.append(leaves[index][2] if index >= 0 and end <= leaves[index][1] else CODE)
    return out


def _role_of(node: object) -> str | None:
    import libcst  # deferred, as above; loaded already when this runs

    if isinstance(node, libcst.SimpleString | libcst.FormattedStringText):
        return STRING
    if isinstance(node, libcst.Comment):
        return COMMENT
    if isinstance(node, libcst.Name):
        return IDENTIFIER
    return None


def _dict_keys(source: str) -> list[tuple[int, str, int]] | None:
    """(dict number, key, line) of each constant string key of each dict literal (and each keyword
    of each call: `dict(web01=1)`), or None when the source does not parse."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    out: list[tuple[int, str, int]] = []
    for number, node in enumerate(ast.walk(tree)):
        if isinstance(node, ast.Dict):
            out.extend((number, key.value, key.lineno) for key in node.keys
                       if isinstance(key, ast.Constant) and isinstance(key.value, str))
    return out


def dict_collision(before: str, after: str) -> str | None:
    """Where a dict literal of the edited source holds a key more often than the original did (two
    machines under one key: Python keeps the last), or the edit breaks the source (a repeated
    keyword argument); else None."""
    earlier = _dict_keys(before)
    if earlier is None:
        return None
    later = _dict_keys(after)
    if later is None:
        return "after the rename the file would no longer parse as Python (a keyword twice?)"
    old = Counter((number, key) for number, key, _ in earlier)
    now: dict[tuple[int, str], list[int]] = {}
    for number, key, line in later:
        now.setdefault((number, key), []).append(line)
    for (_, key), lines in sorted(now.items(), key=lambda item: item[1][0]):
        if len(lines) > max(old[(_, key)], 1):
            listed = ", ".join(map(str, lines))
            return (f"line {lines[-1]}: after the rename the dict key {key!r} would stand twice (lines "
                    f"{listed}): Python keeps the last; a renamed key would collide with an existing one")
    return None


class Python(BaseFormat):
    name = "python"
    comment = Comment("  # ")
    suffixes = (".py", ".pyi")

    def claims(self, path: str, name: str, data: bytes) -> bool:
        if super().claims(path, name, data):
            return True
        return data.startswith(b"#!") and b"python" in data.split(b"\n", 1)[0]

    def roles(self, data: bytes, spans: Sequence[tuple[int, int]]) -> list[str] | None:
        return roles(data, list(spans))

    # A dict literal's renamed key may meet a standing one (t28, finding 06): Python keeps the last.
    checks_edits = True

    def edit_problem(self, before: str, after: str) -> str | None:
        # `dict([("web01", a), ("app01", b)])`: a map built by a call (round 23, finding 10)
        return dict_collision(before, after) or entry_lists.map_collision(before, after)

    def means_otherwise(self, before: str, after: str) -> bool:
        try:
            return ast.dump(ast.parse(before)) != ast.dump(ast.parse(after))
        except (SyntaxError, ValueError):
            return True


FORMAT = Python()
