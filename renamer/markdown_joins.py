"""Old values a Markdown page spells only across its inline markup (f28, finding 22).

A page that wants one part of an address to stand out writes it in pieces: `` `10.0.48.`**`1`** ``,
`` `fdad:bad:ba55:`**`4200`**`::/56` ``, `10.0.48.**1**`, `~~10.0.48~~.1`. A reader sees one address
(the rendered page shows `10.0.48.1`), the bytes spell none: the sweep wrote nothing there while it
rewrote the whole addresses of the same list, and the page ended up naming the old network and the
new one side by side, verify OK. Here the page is read with its inline markup removed (backticks,
`*` and `**`, `~~`, and an underscore run touching one of them): an old value the joined text
spells across a removed piece (not merely beside it) is refused `split`, as a name split by quotes
is (decoded.py): which piece the new value goes in is the author's choice. A whole value in one
code span is matched as ever (the sweep rewrites `` `10.0.48.222` ``); a moved network's head that
is all of a code span (`` `10.0.48` ``, `` `fdad:bad:ba55` ``) is prefix_values.py's.

An HTML page (`.html`, `.htm`) and a Markdown page's inline HTML are read so too, their inline tags
(`<code>10.0.48.</code><b>1</b>`, `<code>10.0.48</code>/24`) removed (t29-33, finding 10).

Only Markdown and HTML files (`.md`, `.markdown`, `.mdx`, `.mkd`, `.html`, `.htm`); a file is joined
only where markup stands between two characters of an address and the page without its markup holds
a needle (one regular expression search and one pass removing it). A value the move leaves where
it is (a grow in place keeps every address) is no old value: nothing to say.
"""

from __future__ import annotations

import bisect

from renamer import lazy_re
from renamer.decoded import Finder
from renamer.occurrences import Match

_SUFFIXES = (".md", ".markdown", ".mdx", ".mkd")
_HTML_SUFFIXES = (".html", ".htm", ".xhtml", ".shtml")
# Inline markup a reader never sees as text: code-span backticks, emphasis, strikethrough, and an
# underscore run (emphasis) only where it touches one of them (`__`+backtick), never inside a word.
_MD = rb"`+|\*+|~~|(?<=[`*~])_+|_+(?=[`*~])"
# An inline HTML element's tag, in an HTML page or a Markdown page's inline HTML (t29-33, finding
# 10: `<code>10.0.48.</code><b>1</b>`, `<code>10.0.48</code>/24`): the rendered text runs through it.
_TAG = (rb"</?(?i:code|b|i|em|strong|span|kbd|tt|var|samp|mark|s|del|ins|u|sub|sup|a|abbr|small|big|font)"
        rb"(?:[ \t][^<>\n]{0,200})?>")
_MARKUP = lazy_re.compile(_MD + rb"|" + _TAG)
_HTML_MARKUP = lazy_re.compile(_TAG)
# Markup between two characters an address may hold: where a value can be split.
_BETWEEN = lazy_re.compile(rb"[0-9A-Fa-f.:](?:`+|\*+|~~|_+|" + _TAG + rb")+[0-9A-Fa-f.:/]")
_HTML_BETWEEN = lazy_re.compile(rb"[0-9A-Fa-f.:](?:" + _TAG + rb")+[0-9A-Fa-f.:/]")


def is_markdown(rel: str) -> bool:
    return rel.lower().endswith(_SUFFIXES)


def is_html(rel: str) -> bool:
    return rel.lower().endswith(_HTML_SUFFIXES)


def might_join(finder: Finder, data: bytes, rel: str) -> bool:
    """Could removing the inline markup of a Markdown page (an HTML page's inline tags) make an old
    value's needle appear, or continue one? Markup must stand between two characters of an address
    (`10.0.48.**1`, a backtick then `**`, `</code><b>`) and the joined page hold a needle."""
    html = is_html(rel)
    if not (html or is_markdown(rel)) or not any(c in data for c in (b"`", b"*", b"~~", b"<")):
        return False
    if (_HTML_BETWEEN if html else _BETWEEN).search(data) is None:
        return False
    text = joined(data, html)[0]
    return any(needle in text for needle in finder.needles)


def joined(data: bytes, html: bool = False) -> tuple[bytes, list[int]]:
    """`data` with its inline markup removed (an HTML page's: its inline tags only), and where each
    removed byte was cut in the joined bytes (in order)."""
    parts, cuts, last, removed = [], [], 0, 0
    for x in (_HTML_MARKUP if html else _MARKUP).finditer(data):
        parts.append(data[last:x.start()])
        cuts += [x.start() - removed] * (x.end() - x.start())
        removed += x.end() - x.start()
        last = x.end()
    parts.append(data[last:])
    return b"".join(parts), cuts


def markdown_joined_matches(finder: Finder, data: bytes, matches: list[Match], rel: str) -> list[Match]:
    """`matches` with every old value a Markdown page spells across inline markup, refused `split`."""
    if not might_join(finder, data, rel):
        return matches
    html = is_html(rel)
    text, cuts = joined(data, html)
    added: list[Match] = []
    for m in finder.find(text):
        # Markup cut inside the match (not at its edges): the pieces of one value.
        first, last = bisect.bisect_right(cuts, m.start), bisect.bisect_left(cuts, m.end)
        if first >= last or m.refused == "split":
            continue
        start, end = m.start + first, m.end + last
        if any(o.start < end and start < o.end and (o.refused or o.kept) for o in matches):
            continue  # decided already in the page's own bytes (a range of whole values in code spans)
        markup = ("an HTML page's inline tags" if html
                  else "Markdown markup (code spans, emphasis, inline HTML tags)")
        note = (f"`{m.old}` spelled across {markup}: the rendered page "
                "reads it whole, the bytes spell no old value; which piece the new value goes in is the "
                "author's: rewrite the line by hand")
        added.append(Match(start, end, m.old, m.new, m.kind, m.derived, refused="split", note=note))
    if not added:
        return matches
    kept = [m for m in matches if not any(a.start < m.end and m.start < a.end for a in added)]
    return sorted([*kept, *added], key=lambda m: m.start)
