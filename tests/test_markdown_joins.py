"""markdown_joins.py: a Markdown page read without its inline markup (f28, finding 22)."""

from __future__ import annotations

import pytest

from renamer.markdown_joins import is_markdown, joined


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
