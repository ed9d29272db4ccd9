"""Which character continues a line, per file (outside pass t28, finding 07).

A POSIX shell, make, systemd, YAML and TOML continue a line with a backslash (decoded.py). Other
readers have their own mark: PowerShell a backtick (`.ps1`, `.psm1`, `.psd1`), cmd.exe a caret
(`.bat`, `.cmd`), and a Dockerfile whatever its `# escape=` parser directive says (a backtick on
Windows images; a backslash otherwise). A name split by that mark reads as one word to its
reader, so the split is looked for with the file's own mark. Java's `.properties` continue with a
backslash and drop the next line's leading blanks (`java.util.Properties`), as YAML and TOML do;
a MIME part in quoted-printable (RFC 2045) breaks a long line with a soft `=` at its end, which
the decoder removes (t35 finding 08). Pure: a path and bytes in.
"""

from __future__ import annotations

import re

from renamer import lazy_re

_POWERSHELL = (".ps1", ".psm1", ".psd1")
_CMD = (".bat", ".cmd")
_DOCKERFILE = lazy_re.compile(r"(?:^|/)(?:(?:Docker|Container)file(?:\.[^/]*)?"
                         r"|[^/]*\.(?:dockerfile|containerfile))\Z", re.IGNORECASE)
# Parser directives stand first, before any comment, blank line or instruction (Docker's reference).
_DIRECTIVE = lazy_re.compile(rb"#[ \t]*(?P<key>[A-Za-z]+)[ \t]*=[ \t]*(?P<value>\S*)[ \t]*\r?\n")


_PROPERTIES = (".properties",)
_QUOTED_PRINTABLE = lazy_re.compile(rb"(?im)^content-transfer-encoding:[ \t]*quoted-printable[ \t]*\r?$")


def joins_indent(rel: str) -> bool:
    """Does the reader of `rel` drop the next line's leading blanks at a continuation, whatever
    its format says? (A `.properties` file: java.util.Properties does.)"""
    return rel.lower().endswith(_PROPERTIES)


def soft_breaks(data: bytes) -> bool:
    """Does `data` hold a quoted-printable part, whose line-ending `=` joins the next line?"""
    return (b"=\n" in data or b"=\r\n" in data) and _QUOTED_PRINTABLE.search(data) is not None


def mark(rel: str, data: bytes) -> bytes:
    """The byte that continues a line in the file `rel`."""
    lower = rel.lower()
    if lower.endswith(_POWERSHELL):
        return b"`"
    if lower.endswith(_CMD):
        return b"^"
    if _DOCKERFILE.search(rel) is not None:
        at = 3 if data.startswith(b"\xef\xbb\xbf") else 0
        while (found := _DIRECTIVE.match(data, at)) is not None:
            if found.group("key").lower() == b"escape" and found.group("value") in (b"`", b"\\"):
                return found.group("value")
            at = found.end()
    return b"\\"
