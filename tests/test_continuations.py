"""continuations.py: each file's continuation mark; end to end in tests/cli/test_structure_t28.py."""

from __future__ import annotations

import pytest

from renamer.continuations import mark


@pytest.mark.parametrize(("rel", "data", "expected"), [
    ("a.sh", b"", b"\\"),
    ("x/Deploy.PS1", b"", b"`"),
    ("m.psm1", b"", b"`"),
    ("run.bat", b"", b"^"),
    ("run.CMD", b"", b"^"),
    ("Dockerfile", b"FROM x\n", b"\\"),
    ("Dockerfile", b"# escape=`\nFROM x\n", b"`"),
    ("app/Containerfile.win", b"\xef\xbb\xbf# syntax=x\n# ESCAPE = `\r\nFROM x\n", b"`"),
    ("Dockerfile", b"FROM x\n# escape=`\n", b"\\"),  # no directive after an instruction
    ("Dockerfile", b"\n# escape=`\n", b"\\"),  # nor after a blank line
    ("notes.md", b"# escape=`\n", b"\\"),
])
def test_the_mark_of_a_file(rel: str, data: bytes, expected: bytes) -> None:
    assert mark(rel, data) == expected


def test_properties_drop_the_next_lines_blanks_and_quoted_printable_has_soft_breaks() -> None:
    """t35 finding 08: java.util.Properties joins `web01.lab.\\` + `    example`; a MIME part in
    quoted-printable joins `web01.lab.exa=` + `mple`."""
    from renamer.continuations import joins_indent, soft_breaks

    assert joins_indent("src/main/resources/application.properties")
    assert joins_indent("i18n/Messages_fr.PROPERTIES")
    assert not joins_indent("app.env") and not joins_indent("properties.sh")
    qp = b"MIME-Version: 1.0\nContent-Transfer-Encoding: Quoted-Printable\n\nweb01.lab.exa=\nmple\n"
    assert soft_breaks(qp)
    assert soft_breaks(qp.replace(b"\n", b"\r\n"))
    assert not soft_breaks(b"Content-Transfer-Encoding: base64\n\nX=\n")  # no quoted-printable part
    assert not soft_breaks(b"Content-Transfer-Encoding: quoted-printable\n\nno soft break\n")
    assert not soft_breaks(b"EMPTY=\nHOST=web01\n")  # a shell assignment's `=` at a line end
