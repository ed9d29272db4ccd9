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
