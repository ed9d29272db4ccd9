"""Line breaks other than LF and CRLF, read as the file's consumer reads them (t35, finding 09).

Every per-line reader of the sweep (dated sections, inline markers, keep rules, line numbers,
the format readers) splits at LF. A classic-Mac file breaks its lines at a lone CR, which
CommonMark, YAML, Python's universal newlines and every editor read as a line break: read at LF
alone it was one line, so a `## 2025-03-01` heading was not seen and a `renamer: keep` marker on
the first line kept every later line. YAML 1.1 (PyYAML, so Ansible; ruamel too) also breaks lines
at NEL (U+0085), LS (U+2028) and PS (U+2029); ECMAScript at LS and PS.

`view` gives the bytes the scan reads: each such break spelled as one LF-ended break of the same
length (a lone CR as LF; NEL, two bytes in UTF-8, as CRLF; LS and PS, three, as a space and
CRLF), so every offset, column and edit stays where it is in the file. `restore` puts the file's
own breaks back, byte for byte, after the edits (which never write a line break there).
"""

from __future__ import annotations

from renamer import lazy_re
from renamer.errors import UnsafeError

PREFIX = "lines:"  # a Content codec (sweep/content.py): the file's own breaks, restored on write
_LONE_CR = lazy_re.compile(rb"\r(?!\n)")
_LF = lazy_re.compile(rb"\n")
_YAML = (".yml", ".yaml")  # YAML 1.1: b-char is LF, CR, NEL, LS, PS
_SCRIPT = (".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx")  # ECMAScript: LF, CR, LS, PS
_NEL, _LS, _PS = b"\xc2\x85", b"\xe2\x80\xa8", b"\xe2\x80\xa9"
_SPELLED = {"r": b"\n", "n": b"\r\n", "l": b" \r\n", "p": b" \r\n"}  # the view's spelling, same length
_OWN = {"r": b"\r", "n": _NEL, "l": _LS, "p": _PS}
_TOKENS = {b"\r": "r", _NEL: "n", _LS: "l", _PS: "p"}


def breaks_of(name: str) -> tuple[bytes, ...]:
    """The line breaks besides LF and CRLF that the consumer of a file named `name` reads."""
    lowered = name.lower()
    if lowered.endswith(_YAML):
        return (b"\r", _NEL, _LS, _PS)
    if lowered.endswith(_SCRIPT):
        return (b"\r", _LS, _PS)
    return (b"\r",)


def view(data: bytes, name: str = "") -> tuple[bytes, str]:
    """`data` with each other line break spelled as an LF-ended one of the same length, and the
    codec that restores them ("" where the file breaks its lines at LF and CRLF alone)."""
    kinds = breaks_of(name)
    found: list[tuple[int, bytes]] = []
    if b"\r" in data:
        found += [(m.start(), b"\r") for m in _LONE_CR.finditer(data)]
    for token in kinds[1:]:
        if token in data:
            start = data.find(token)
            while start >= 0:
                found.append((start, token))
                start = data.find(token, start + len(token))
    if not found:
        return data, ""
    found.sort()
    out, last, marks, lines = bytearray(), 0, [], 0
    for start, token in found:
        lines += data.count(b"\n", last, start)
        out += data[last:start]
        out += _SPELLED[_TOKENS[token]]
        last = start + len(token)
        marks.append(f"{lines}{_TOKENS[token]}")  # this break is the view's LF number `lines`
        lines += 1
    out += data[last:]
    lines += data.count(b"\n", last)
    return bytes(out), f"{PREFIX}{lines}:" + ",".join(marks)


def restore(scanned: bytes, codec: str) -> bytes:
    """The file's own bytes of `scanned` (as `view` spelled them, edits applied): each LF-ended
    break `view` wrote back as the file's own. Refused where the edits added or removed a line:
    which break is whose could no longer be told."""
    total, _, listed = codec[len(PREFIX):].partition(":")
    ends = [m.start() for m in _LF.finditer(scanned)]
    if len(ends) != int(total):
        raise UnsafeError("an edit would add or remove a line in a file whose line breaks are not all LF "
                          "or CRLF (a lone CR, NEL, LS or PS): nothing written; edit it by hand")
    own = {int(item[:-1]): item[-1] for item in listed.split(",") if item}
    out, last = bytearray(), 0
    for number, end in enumerate(ends):
        token = own.get(number)
        if token is None:
            continue
        spelled = _SPELLED[token]
        start = end + 1 - len(spelled)
        if scanned[start:end + 1] != spelled:  # an edit wrote over the break: never guess
            raise UnsafeError("an edit would write over a line break that is not LF or CRLF: nothing "
                              "written; edit it by hand")
        out += scanned[last:start]
        out += _OWN[token]
        last = end + 1
    out += scanned[last:]
    return bytes(out)
