"""Python: is a match in a string, a comment or an identifier? (libcst byte spans)"""

from __future__ import annotations

import bisect

STRING = "string"
COMMENT = "comment"
IDENTIFIER = "identifier"
CODE = "code"


def roles(source: bytes, spans: list[tuple[int, int]]) -> list[str] | None:
    """The role of each (start, end) byte span, or None when the file does not parse."""
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
        role = CODE
        # Strings, comments and names never nest, so the nearest leaf decides.
        if index >= 0 and end <= leaves[index][1]:
            role = leaves[index][2]
        out.append(role)
    return out


def _role_of(node: object) -> str | None:
    import libcst

    if isinstance(node, libcst.SimpleString | libcst.FormattedStringText):
        return STRING
    if isinstance(node, libcst.Comment):
        return COMMENT
    if isinstance(node, libcst.Name):
        return IDENTIFIER
    return None
