"""Untrusted text made safe for a terminal: the one sanitiser every writer of repo text uses.

File names, file content, YAML values and commit messages come from whoever wrote the repo (or a
branch it fetched). Sent to a terminal as they are, an ESC sequence can retitle the window, clear
the screen or forge output (OSC 8 links, cursor moves), a CR can overwrite what a line showed, and
a bidi control can reorder what a reviewer reads. Each such character is shown as its Python
escape (`\\x1b`, `\\r`, `\\u202e`) instead. The escapes hold no control character themselves, so the
function is idempotent and safe to apply twice.
"""

from __future__ import annotations

import re

from renamer import lazy_re

# C0 controls but tab and newline, a CR that ends no CRLF, DEL and C1; the format characters
# that reorder or hide text (soft hyphen, Arabic letter mark, zero-width ones, bidi embeddings,
# overrides and isolates, word joiners, BOM, interlinear annotation), line and paragraph
# separators, private use, and the surrogate escapes of bytes that were not UTF-8.
_UNSAFE = lazy_re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e"
                     "\u2060-\u2069\ufeff\ufff9-\ufffb\ue000-\uf8ff\udc80-\udcff]|\r(?!\n)")
_SAFE = lazy_re.compile("[\t\n\r\x20-\x7e]*")
# Colour codes renamer itself adds (click.style: ESC [ numbers m) and nothing else of ESC's.
_SGR = lazy_re.compile(r"\x1b\[[0-9;]*m")


def _escape(m: re.Match[str]) -> str:
    ch = m.group(0)
    if 0xDC80 <= ord(ch) <= 0xDCFF:  # surrogateescape: the byte that was not UTF-8
        return f"\\x{ord(ch) - 0xDC00:02x}"
    return ascii(ch)[1:-1]


def printable(text: str, *, keep_colour: bool = False) -> str:
    """`text` with every character that could drive a terminal shown as its escape.

    `keep_colour` lets plain colour codes (SGR) through, for output renamer has coloured itself
    on a terminal that asked for colour; every other sequence is still escaped.
    """
    if _SAFE.fullmatch(text) and "\r" not in text.replace("\r\n", ""):
        return text
    if keep_colour:
        parts, codes = _SGR.split(text), _SGR.findall(text)
        return "".join(printable(part) + code for part, code in zip(parts, [*codes, ""], strict=True))
    return _UNSAFE.sub(_escape, text)


def printable_bytes(data: bytes) -> bytes:
    """Bytes for a terminal (a diff shown there): the same escapes, every other byte kept."""
    text = data.decode("utf-8", "surrogateescape")
    return printable(text).encode("utf-8", "surrogateescape")


def json_escaped(text: str) -> str:
    """JSON text with every character `printable` would escape written as JSON's `\\uXXXX`
    (json.dumps leaves DEL, C1 and the format characters raw); valid JSON stays valid and means
    the same. A CR in JSON text is always escaped already."""
    return _UNSAFE.sub(lambda m: "".join(f"\\u{ord(ch):04x}" for ch in m.group(0)), text)
