"""markdown_joins.py: a Markdown page read without its inline markup (f28, finding 22)."""

from __future__ import annotations

import pytest

from renamer.markdown_joins import is_html, is_markdown, joined


@pytest.mark.parametrize(("data", "text"), [
    (b"`10.0.48.`**`1`**", b"10.0.48.1"),
    (b"10.0.48.**1**", b"10.0.48.1"),
    (b"~~10.0.48~~.7", b"10.0.48.7"),
    (b"`fdad:bad:ba55:`**`0`**`::/64`", b"fdad:bad:ba55:0::/64"),
    (b"`10.0.48.`__`1`__", b"10.0.48.1"),
    (b"my_var_name 10.0.48.1", b"my_var_name 10.0.48.1"),  # an underscore inside a word stays
    (b"a ~ b", b"a ~ b"),  # one tilde is no strikethrough
])
def test_joined(data: bytes, text: bytes) -> None:
    out, cuts = joined(data)
    assert out == text
    assert len(cuts) == len(data) - len(out)  # one cut per removed byte, in order
    assert cuts == sorted(cuts)


def test_is_markdown() -> None:
    assert is_markdown("docs/README.md") and is_markdown("x.MARKDOWN") and is_markdown("p.mdx")
    assert not is_markdown("notes.txt") and not is_markdown("x.rst") and not is_markdown("md")


@pytest.mark.parametrize(("data", "html", "text"), [
    # t29-33, finding 10: inline HTML tags, in an HTML page and in a Markdown page
    (b"<code>10.0.48.</code><b>1</b>", True, b"10.0.48.1"),
    (b"<code>10.0.48</code>/24", True, b"10.0.48/24"),
    (b'<span class="x">10.0.48.</span><EM>7</EM>', True, b"10.0.48.7"),
    (b"<kbd>10.0.48.</kbd>**1**", False, b"10.0.48.1"),
    (b"a*b <div>10.0.48.1</div>", True, b"a*b <div>10.0.48.1</div>"),  # block tags and `*` stay in HTML
])
def test_joined_html(data: bytes, html: bool, text: bytes) -> None:
    out, cuts = joined(data, html)
    assert out == text
    assert len(cuts) == len(data) - len(out)


def test_is_html() -> None:
    assert is_html("site/index.html") and is_html("x.HTM") and not is_html("x.md")
