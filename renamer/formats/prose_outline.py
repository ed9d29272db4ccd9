"""The outline of a prose file, as the dated-section rule reads it: which lines are headings (and
their level), and which lie in code, where no line is a heading nor starts a section.

A `# 2025-03-01: switched to restic` line inside a Markdown fence is a shell comment, not a
heading, and `Current setup` over `=====` is a level-1 heading (break-it round 10, finding 1).
Each prose format has its own: Markdown and plain text (ATX and setext headings, HTML `<h1>`-`<h6>`,
``` and ~~~ fences, YAML front matter), reStructuredText (underlined and overlined titles, their
level by the order their adornments first appear; the indented body of a `::` literal block or a
directive), AsciiDoc (`=` and `#` titles; `----`, `....`, `++++`, `////` and ``` blocks), Org
(`*` headings; `#+begin_x` ... `#+end_x` blocks), Textile (`h1.`-`h6.`; `bc.` and `pre.` blocks)
and MediaWiki (`== x ==`; `<pre>`, `<syntaxhighlight>`, `<source>`, `<nowiki>` blocks).

Markdown's HTML blocks are code too (break-it round 11, finding 2): a `<!-- ... -->` comment,
`<pre>`, `<script>`, `<style>`, `<textarea>`, `<?...?>`, `<!...>` and CDATA to their end marker, where
no line is a heading; a block-level tag (`<div>`, `<details>`, ...) or a tag alone on its line to the
next blank line, where no line starts a section but a heading still ends one.

Plain text (`.txt`, `.text`, a README without suffix) is no Markdown (finding 8): a line of dashes
under text is a rule, unless that text is one line standing apart (a blank line or the file's start
above it); `===` stays a level-1 underline.

Where the structure is broken (a fence never closed), nothing in it starts a section, but its
headings still end one: a guess never keeps a line (fewer kept lines is the safe side: a rewritten
record shows in the diff, a kept live line passes verify)."""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from renamer import lazy_re


@dataclass
class Outline:
    headings: dict[int, int] = field(default_factory=dict)  # 0-based line -> level (1 is the highest)
    # [start, end) spans of code: no line there starts a section; in a closed one, none is a heading
    code: list[tuple[int, int]] = field(default_factory=list)

    def in_code(self, index: int) -> bool:
        at = bisect.bisect_right(self.code, (index, float("inf"))) - 1
        return at >= 0 and self.code[at][0] <= index < self.code[at][1]

    def finish(self) -> Outline:
        """Sort and merge the code spans (a block never closed holds later, closed ones)."""
        merged: list[tuple[int, int]] = []
        for begin, end in sorted(self.code):
            if merged and begin <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(merged[-1][1], end))
            else:
                merged.append((begin, end))
        self.code = merged
        return self


_ATX = lazy_re.compile(r" {0,3}(#{1,6})(?:[ \t\r]|$)")
_HTML_HEADING = lazy_re.compile(r"(?i) {0,3}<h([1-6])[\s>]")
_FENCE = lazy_re.compile(r" {0,3}(`{3,}|~{3,})(.*)")
_SETEXT = lazy_re.compile(r" {0,3}(=+|-+)[ \t\r]*$")
# What cannot be a paragraph's line: a heading, a fence, a quote, a list item, a rule, blank, code.
_NOT_PARAGRAPH = lazy_re.compile(r" {0,3}(?:#{1,6}(?:[ \t]|$)|`{3,}|~{3,}|>|[-*+](?:[ \t]|$)"
                            r"|\d{1,9}[.)](?:[ \t]|$)|(?:[-*_][ \t]*){3,}$|=+[ \t]*$|<h[1-6])|[ \t]*$| {4}",
                            re.IGNORECASE)


# CommonMark's HTML blocks. Those with an end marker (types 1-5): the opening, the end.
_HTML_CLOSED = (
    (re.compile(r"(?i) {0,3}<(script|pre|style|textarea)(?:[ \t>]|$)"),
     re.compile(r"(?i)</(?:script|pre|style|textarea)>")),
    (re.compile(r" {0,3}<!--"), re.compile(r"-->")),
    (re.compile(r" {0,3}<\?"), re.compile(r"\?>")),
    (re.compile(r" {0,3}<![A-Za-z]"), re.compile(r">")),
    (re.compile(r" {0,3}<!\[CDATA\["), re.compile(r"\]\]>")),
)
# Type 6, to the next blank line: a block-level tag, opening or closing.
_HTML_BLOCK_TAG = lazy_re.compile(
    r"(?i) {0,3}</?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd"
    r"|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head"
    r"|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param"
    r"|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul)(?:[ \t>]|/>|$)")
# Type 7, to the next blank line, and never inside a paragraph: any other tag alone on its line.
_HTML_LONE_TAG = lazy_re.compile(
    r"(?i) {0,3}(?:<(?!(?:script|pre|style|textarea)\b)[A-Za-z][A-Za-z0-9-]*(?:[ \t]+[^<>]*)?/?>"
    r"|</[A-Za-z][A-Za-z0-9-]*[ \t]*>)[ \t\r]*$")
_PLAIN = (".txt", ".text", "")


def outline(path: str, lines: Sequence[str], starts: frozenset[int] = frozenset()) -> Outline:
    """`path`'s headings and code; `starts`: the lines a section pattern matches (a setext heading's
    text stops above one)."""
    name = path.rsplit("/", 1)[-1].lower()
    suffix = "." + name.rsplit(".", 1)[-1] if "." in name.lstrip(".") else ""
    if suffix == ".rst":
        return _rst(lines)
    if suffix in (".adoc", ".asciidoc"):
        return _delimited(lines, _ADOC_HEADING, _ADOC_BLOCK)
    if suffix == ".org":
        return _delimited(lines, _ORG_HEADING, _ORG_BEGIN, _ORG_END, fold=True)
    if suffix == ".textile":
        return _textile(lines)
    if suffix == ".wiki":
        return _wiki(lines)
    return _markdown(lines, starts, plain=suffix in _PLAIN)


def legacy(lines: Sequence[str]) -> Outline:
    """A file `dated.section_paths` adds that is no prose (a log, a `.conf`): `#` headings only."""
    heading = re.compile(r"(#{1,6})(?:[ \t\r]|$)")
    return Outline({i: len(m.group(1)) for i, line in enumerate(lines) if (m := heading.match(line))})


def _markdown(lines: Sequence[str], starts: frozenset[int], plain: bool = False) -> Outline:
    out = Outline()
    start = 0
    if lines and lines[0].rstrip() == "---":  # YAML front matter
        end = next((i for i in range(1, len(lines)) if lines[i].rstrip() in ("---", "...")), None)
        if end is not None:
            out.code.append((0, end + 1))
            start = end + 1
    # the longest closing fence of each character below each line: a fence no line closes is
    # read as no fence, its lines no section start (one pass, whatever a hostile file holds)
    longest: list[tuple[int, int]] = [(0, 0)] * (len(lines) + 1)
    for i in range(len(lines) - 1, start - 1, -1):
        ticks, tildes = longest[i + 1]
        if (closing := _FENCE.match(lines[i])) is not None and not closing.group(2).strip():
            if closing.group(1)[0] == "`":
                ticks = max(ticks, len(closing.group(1)))
            else:
                tildes = max(tildes, len(closing.group(1)))
        longest[i] = (ticks, tildes)
    # the last line holding each HTML block's end marker: a block none closes is read as no block
    ends = [max((i for i in range(start, len(lines)) if end.search(lines[i])), default=-1)
            for _, end in _HTML_CLOSED]
    blank = [len(lines)] * (len(lines) + 1)  # the first blank line at or below each line
    for i in range(len(lines) - 1, start - 1, -1):
        blank[i] = i if not lines[i].strip() else blank[i + 1]
    headings = out.headings
    fence: tuple[str, int, int] | None = None  # (char, length, line)
    raw: tuple[re.Pattern[str], int] | None = None  # an HTML block's (end marker, line)
    floor = start  # a setext heading's text starts at or below it: no line of a closed block above
    for i in range(start, len(lines)):
        line = lines[i]
        if fence is not None:
            closing = _FENCE.match(line)
            if closing and closing.group(1)[0] == fence[0] and len(closing.group(1)) >= fence[1] \
                    and not closing.group(2).strip():
                out.code.append((fence[2], i + 1))
                fence = None
                floor = i + 1
            continue
        if raw is not None:
            if raw[0].search(line):
                out.code.append((raw[1], i + 1))
                raw = None
                floor = i + 1
            continue
        if (block := _html_block(line, i > floor and _paragraph(lines[i - 1]))) is not None:
            if isinstance(block, int):  # an HTML block with an end marker
                tag, marker = _HTML_CLOSED[block]
                found = tag.match(line)
                assert found is not None
                if marker.search(line, found.end()):
                    out.code.append((i, i + 1))
                    floor = i + 1
                elif ends[block] > i:
                    raw = (marker, i)
                else:  # never closed: no section starts in it, its headings count
                    out.code.append((i, len(lines)))
                continue
            # to the next blank line: no line in it starts a section; its headings still end one
            out.code.append((i, blank[i + 1]))
        if (opening := _FENCE.match(line)) and not (opening.group(1)[0] == "`" and "`" in opening.group(2)):
            char, length = opening.group(1)[0], len(opening.group(1))
            if longest[i + 1][0 if char == "`" else 1] >= length:
                fence = (char, length, i)
            else:
                out.code.append((i, len(lines)))
            continue
        if (atx := _ATX.match(line)) is not None:
            headings[i] = len(atx.group(1))
        elif (html := _HTML_HEADING.match(line)) is not None:
            headings[i] = int(html.group(1))
        elif (setext := _SETEXT.match(line)) is not None and i > floor and _paragraph(lines[i - 1]) \
                and i - 1 not in headings:
            first = i - 1
            while first > floor and first - 1 not in starts and _paragraph(lines[first - 1]) \
                    and first - 1 not in headings:
                first -= 1
            if plain and setext.group(1)[0] == "-" and \
                    not (first == i - 1 and (first == floor or not lines[first - 1].strip())):
                continue  # in plain text, dashes under a line of an entry are a rule, not a heading
            headings[first] = 1 if setext.group(1)[0] == "=" else 2
    return out.finish()


def _html_block(line: str, in_paragraph: bool) -> int | str | None:
    """The HTML block `line` opens: the index of its end marker in _HTML_CLOSED, "blank" for one
    that runs to the next blank line, else None."""
    if "<" not in line[:4]:
        return None
    for index, (opening, _) in enumerate(_HTML_CLOSED):
        if opening.match(line):
            return index
    if _HTML_BLOCK_TAG.match(line) or (not in_paragraph and _HTML_LONE_TAG.match(line)):
        return "blank"
    return None


def _paragraph(line: str) -> bool:
    """Whether `line` may be a paragraph's line, the text of a setext heading."""
    return not _NOT_PARAGRAPH.match(line)


_RST_ADORNMENT = lazy_re.compile(r"([!-/:-@\[-`{-~])\1{2,}[ \t\r]*$")
_RST_BLOCK = lazy_re.compile(r"[ \t]*(?:\.\.[ \t]+\S.*|.*::)[ \t\r]*$")


def _rst(lines: Sequence[str]) -> Outline:
    """Titles underlined (and maybe overlined) by a line of one punctuation character; a level per
    adornment style, in the order they first appear. An indented block after a line ending in `::`
    (a literal block) or a directive (`.. code-block:: sh`) or comment (`.. x`) is code."""
    out = Outline()
    styles: list[tuple[str, bool]] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if _RST_BLOCK.match(line) and not _RST_ADORNMENT.match(line):
            indent = len(line) - len(line.lstrip())
            end = i + 1
            while end < len(lines) and (not lines[end].strip() or
                                        len(lines[end]) - len(lines[end].lstrip()) > indent):
                end += 1
            while end > i + 1 and not lines[end - 1].strip():
                end -= 1
            if end > i + 1:
                out.code.append((i + 1, end))
                i = end
                continue
        text = line.rstrip()
        if text and not line[:1].isspace() and not _RST_ADORNMENT.match(line) and i + 1 < len(lines):
            under = _RST_ADORNMENT.match(lines[i + 1])
            if under is not None:
                over = i > 0 and lines[i - 1].rstrip() == lines[i + 1].rstrip()
                style = (under.group(1), over)
                if style not in styles:
                    styles.append(style)
                out.headings[i] = styles.index(style) + 1
                i += 2
                continue
        i += 1
    return out


_ADOC_HEADING = lazy_re.compile(r"(={1,6}|#{1,6})[ \t]+\S")
_ADOC_BLOCK = lazy_re.compile(r"(-{4,}|\.{4,}|\+{4,}|/{4,}|`{3})[ \t\r]*$")


def _delimited(lines: Sequence[str], heading: re.Pattern[str], begin: re.Pattern[str],
               end: re.Pattern[str] | None = None, fold: bool = False) -> Outline:
    """Headings by a prefix, whose length is the level; code from a `begin` line to the next `end`
    line of the same name (`fold`: in any case): AsciiDoc's two equal delimiter lines (`end` is
    `begin`), Org's `#+begin_x` ... `#+end_x`."""
    closing = end or begin

    def name(found: re.Match[str]) -> str:
        return found.group(1).lower() if fold else found.group(1)
    out = Outline()
    last = {name(m): i for i, line in enumerate(lines) if (m := closing.match(line))}
    opened: tuple[str, int] | None = None
    for i, line in enumerate(lines):
        if opened is not None:
            if (found_end := closing.match(line)) is not None and name(found_end) == opened[0]:
                out.code.append((opened[1], i + 1))
                opened = None
            continue
        if (found_begin := begin.match(line)) is not None:
            if last.get(name(found_begin), -1) > i:
                opened = (name(found_begin), i)
            else:  # never closed: no section starts in it, its headings count
                out.code.append((i, len(lines)))
        elif (found := heading.match(line)) is not None:
            out.headings[i] = len(found.group(1))
    return out.finish()


_ORG_HEADING = lazy_re.compile(r"(\*+)[ \t]")
_ORG_BEGIN = lazy_re.compile(r"(?i)[ \t]*#\+begin_(\w+)")
_ORG_END = lazy_re.compile(r"(?i)[ \t]*#\+end_(\w+)")


_TEXTILE_HEADING = lazy_re.compile(r"h([1-6])(?:\([^)]*\)|\{[^}]*\}|\[[^\]]*\]|[<>=])*\.[ \t]")
_TEXTILE_CODE = lazy_re.compile(r"(?:bc|pre)(\.\.?)[ \t]")
_TEXTILE_BLOCK = lazy_re.compile(r"(?:p|h[1-6]|bq|bc|pre|notextile|fn\d+)\.\.?[ \t]")


def _textile(lines: Sequence[str]) -> Outline:
    """`h2. Title`; `bc.` and `pre.` are code to the blank line, `bc..` to the next block's start."""
    out = Outline()
    i = 0
    while i < len(lines):
        if (found := _TEXTILE_HEADING.match(lines[i])) is not None:
            out.headings[i] = int(found.group(1))
        elif (code := _TEXTILE_CODE.match(lines[i])) is not None:
            end = i + 1
            extended = code.group(1) == ".."
            while end < len(lines) and (lines[end].strip() or extended) and \
                    not (extended and _TEXTILE_BLOCK.match(lines[end])):
                end += 1
            out.code.append((i, end))
            i = end
            continue
        i += 1
    return out


_WIKI_HEADING = lazy_re.compile(r"(={1,6})[^=].*?\1[ \t\r]*$")
_WIKI_END = lazy_re.compile(r"(?i)</(pre|syntaxhighlight|source|nowiki)\b")
_WIKI_CODE = lazy_re.compile(r"(?i).*?<(pre|syntaxhighlight|source|nowiki)\b[^>]*>(?!.*</\1>)")


def _wiki(lines: Sequence[str]) -> Outline:
    """MediaWiki's `== Title ==`; `<pre>`, `<syntaxhighlight>`, `<source>` and `<nowiki>` are code."""
    out = Outline()
    last = {tag.lower(): i for i, line in enumerate(lines) for tag in _WIKI_END.findall(line)}
    opened: tuple[str, int] | None = None
    for i, line in enumerate(lines):
        if opened is not None:
            if f"</{opened[0]}" in line.lower():
                out.code.append((opened[1], i + 1))
                opened = None
            continue
        if (code := _WIKI_CODE.match(line)) is not None:
            if last.get(code.group(1).lower(), -1) > i:
                opened = (code.group(1).lower(), i)
            else:  # never closed: no section starts in it, its headings count
                out.code.append((i, len(lines)))
        elif (found := _WIKI_HEADING.match(line)) is not None:
            out.headings[i] = len(found.group(1))
    return out.finish()

