"""Values a format declares base64: a Kubernetes Secret's `data:`, a ConfigMap's `binaryData:`,
cloud-init `write_files` content with `encoding: b64` (or `base64`, `gz+b64`, `gzip+base64`), YAML
`!!binary`, Terraform `base64decode("...")`; and base64 that declares itself wherever it stands
(issue 27, round 23 finding 16): an RFC 2397 data URL (`data:[type][;param];base64,...`, how Ignition
and Butane carry every file they write, a CSS or HTML inline file), a property list's `<data>`, and
a value under a key whose name says base64 (`user_data_base64 = "..."`, `"contentBase64": "..."`,
`ca_b64: ...`). Base64 content that is itself gzip (Ignition's `compression: gzip`) is read
decompressed and reported, never rewritten.

The consumer reads such a value decoded (the kubelet mounts the Secret's bytes, cloud-init writes
the file), while the bytes spell no old value. Each declared value is decoded and matched by the
exact rules:

* where the decoding is certain and every old value inside is plainly rewritable (canonical
  base64 that re-encodes to the same text, UTF-8 inside, no match there refused or kept), the value
  is rewritten: decoded, each old value replaced, re-encoded in the same style (padding, quotes and
  the line kept), and verify, which decodes again, finds the new value;
* otherwise (compressed content, a value wrapped over lines, bytes that are no text, a match inside
  that the rules refuse) it is a residual `encoded` naming the key and the old value, never the
  decoded text (a Secret's other bytes are secret).

Cost: a file is looked at only when it holds one of LITERALS; only the declared values are decoded,
and a value is matched only where its decoded bytes hold a needle.
"""

from __future__ import annotations

import base64
import binascii
import gzip
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace

from renamer import document_text, lazy_re
from renamer.occurrences import Match

LITERALS = (b"kind: Secret", b"binaryData", b"encoding:", b"!!binary", b"base64decode(", b";base64,",
            b";BASE64,", b"<data>", b"ase64", b"ASE64", b"b64", b"B64", b"owershell", b"OWERSHELL", b"pwsh",
            b"atob(", b"decode64(", b"DecodeString(", b"<diagram", b"&lt;diagram")

ENCODED = "encoded"
Find = Callable[[bytes], list[Match]]

_B64 = rb"[A-Za-z0-9+/]+={0,2}"
# `KEY: value` under a mapping: the value plain or quoted, alone on its line.
_ENTRY = lazy_re.compile(rb"^(?P<indent>[ \t]+)(?:\"[^\"\n]+\"|'[^'\n]+'|[^\s:#][^:\n]*?)[ \t]*:[ \t]+"
                    rb"(?P<q>[\"']?)(?P<value>" + _B64 + rb")(?P=q)[ \t]*(?:#.*)?\r?$", re.MULTILINE)
_SECTION = lazy_re.compile(rb"^(?P<key>data|binaryData):[ \t]*\r?$", re.MULTILINE)
_KIND = lazy_re.compile(rb"^kind:[ \t]*[\"']?(?P<kind>Secret|ConfigMap)[\"']?[ \t]*\r?$", re.MULTILINE)
_DOCUMENT = lazy_re.compile(rb"^---[^\n]*$", re.MULTILINE)
_ENCODING = lazy_re.compile(rb"^(?P<lead>[ \t]*(?:-[ \t]+)?)encoding:[ \t]*[\"']?(?P<how>[A-Za-z0-9+]+)[\"']?"
                       rb"[ \t]*\r?$", re.MULTILINE)
_CONTENT = lazy_re.compile(rb"^(?P<lead>[ \t]*(?:-[ \t]+)?)content:[ \t]*(?P<q>[\"']?)(?P<value>" + _B64
                      + rb"|[|>][-+]?)(?P=q)[ \t]*\r?$", re.MULTILINE)
_BINARY = lazy_re.compile(rb":[ \t]+!!binary[ \t]+(?P<q>[\"']?)(?P<value>" + _B64 + rb")(?P=q)[ \t]*\r?$",
                     re.MULTILINE)
_DECODE_CALL = lazy_re.compile(rb"base64decode\(\s*\"(?P<value>" + _B64 + rb")\"\s*\)")
# a data URL (RFC 2397): base64 by its own syntax, whatever holds it
_DATA_URL = lazy_re.compile(rb"(?i:data):[A-Za-z0-9!#$&^_.+/=;-]*?;(?i:base64),(?P<value>" + _B64 + rb")")
# a property list's `<data>` (one line, or wrapped over lines)
_PLIST_DATA = lazy_re.compile(rb"<data>[ \t]*(?P<value>[A-Za-z0-9+/=\s]+?)[ \t]*</data>")
# a key whose name says base64 (`user_data_base64 = "..."`, `"contentBase64": "..."`, `ca_b64: ...`)
_NAMED_KEY = lazy_re.compile(
    rb"(?P<key>[A-Za-z0-9_.-]*(?i:base64|b64)[A-Za-z0-9_.-]*)[\"']?[ \t]*(?:=|:)[ \t]*"
                        rb"(?P<q>[\"']?)(?P<value>" + _B64 + rb")(?P=q)(?=[ \t]*(?:[,;}\]#\r\n]|$))")
# base64 a script decodes as it runs (break-it round 24, finding 10): a literal piped into
# `base64 -d` (or `openssl base64 -d`), a here-string, a decoding call of a language's library
_PIPED = lazy_re.compile(rb"\b(?:echo|printf)[ \t]+(?:-[neE]+[ \t]+)*(?P<q>[\"']?)(?P<value>" + _B64
                    + rb")(?P=q)[ \t]*\|[ \t]*(?:base64[ \t]+(?:-d|--decode|-D)"
                    rb"|openssl[ \t]+(?:base64|enc[ \t]+-base64)[ \t]+-d)\b")
_HERE = lazy_re.compile(rb"\bbase64[ \t]+(?:-d|--decode|-D)[ \t]*<<<[ \t]*(?P<q>[\"']?)(?P<value>" + _B64
                   + rb")(?P=q)")
_CALL = lazy_re.compile(
    rb"(?:\bb64decode|\bstandard_b64decode|\bdecodebytes|\bdecode64|\bbase64_decode|\batob"
                   rb"|FromBase64String|\bDecodeString|getDecoder\(\)\.decode|getMimeDecoder\(\)\.decode)"
                   rb"\([ \t]*b?(?P<q>[\"'])(?P<value>" + _B64 + rb")(?P=q)[ \t]*\)")
_BUFFER = lazy_re.compile(rb"\bBuffer\.from\([ \t]*(?P<q>[\"'])(?P<value>" + _B64
                     + rb")(?P=q)[ \t]*,[ \t]*[\"']base64[\"']")
# PowerShell's `-EncodedCommand` (any prefix of it, any case): base64 of UTF-16LE
_ENCODED_COMMAND = lazy_re.compile(rb"(?i:(?:powershell|pwsh)(?:\.exe)?\b[^\r\n]*?[ \t][-/]"
                              rb"(?:e|ec|en|enc|enco|encod|encode|encoded|encodedc[a-z]*))[ \t]+(?P<q>[\"']?)"
                              rb"(?P<value>" + _B64 + rb")(?P=q)(?=[ \t\r\n;|)]|$)")
_DIAGRAM = lazy_re.compile(rb"<diagram\b[^>]*>[ \t\r\n]*(?P<value>[A-Za-z0-9+/=]{16,})[ \t\r\n]*</diagram>")
# the same, HTML-escaped in an attribute: a `*.drawio.svg`'s `content`, an HTML export's `data-mxgraph`
# (break-it round 25, finding 07)
_DIAGRAM_ESCAPED = lazy_re.compile(rb"&lt;diagram\b(?:(?!&gt;)[^<>])*&gt;(?:[ \t\r\n]|&#10;|&#xa;)*"
                              rb"(?P<value>[A-Za-z0-9+/=]{16,})(?:[ \t\r\n]|&#10;|&#xa;)*&lt;\\?/diagram&gt;")
_PLAIN = ("b64", "base64")
_GZIP_MAGIC = b"\x1f\x8b"
_GZIP = ("gz+b64", "gzip+base64", "gz+base64", "gzip+b64")


@dataclass(frozen=True, slots=True)
class Declared:
    start: int  # the base64 text (or, for a block, the block's lines) in the file
    end: int
    where: str  # what declares it, for the note: `Secret data DB_HOST`
    compressed: bool = False
    block: bool = False  # wrapped over lines: decoded joined, never rewritten
    utf16: bool = False  # PowerShell's -EncodedCommand: the decoded bytes are UTF-16LE text
    deflated: bool = False  # a draw.io `<diagram>`: raw deflate of URL-encoded XML, never rewritten


def might_hold(data: bytes, needles: Sequence[bytes]) -> bool:
    """A declared value whose decoded bytes hold a needle (the first pass's question)."""
    if not any(literal in data for literal in LITERALS):
        return False
    return any(_holds(_decoded(data, d), needles) for d in declared(data))


def _holds(decoded: bytes | None, needles: Sequence[bytes]) -> bool:
    return decoded is not None and any(n in decoded for n in needles)


def declared(data: bytes) -> list[Declared]:
    """Every value `data` declares base64, in file order."""
    out: list[Declared] = []
    if b"kind:" in data and (b"data:" in data or b"binaryData:" in data):
        out += _manifest_values(data)
    if b"encoding:" in data and b"content:" in data:
        out += _cloud_init_values(data)
    if b"!!binary" in data:
        out += [Declared(*x.span("value"), "a YAML !!binary value") for x in _BINARY.finditer(data)]
    if b"base64decode(" in data:
        out += [Declared(*x.span("value"), "a base64decode() literal") for x in _DECODE_CALL.finditer(data)]
    if b";base64," in data.lower():
        out += [Declared(*x.span("value"), "a data URL (`;base64,`)") for x in _DATA_URL.finditer(data)]
    if b"<data>" in data:
        for x in _PLIST_DATA.finditer(data):
            start, end = x.span("value")
            out.append(Declared(start, end, "a property list <data> value",
                                block=any(c in data[start:end] for c in b" \t\r\n")))
    out += _script_values(data)
    if b"<diagram" in data:  # draw.io's compressed diagram (break-it round 24, finding 16)
        out += [Declared(*x.span("value"), "a compressed draw.io <diagram>", deflated=True)
                for x in _DIAGRAM.finditer(data)]
    if b"&lt;diagram" in data:  # escaped in an SVG's `content` or an HTML export (round 25, finding 07)
        out += [Declared(*x.span("value"), "a compressed draw.io <diagram> kept in an SVG or HTML export",
                         deflated=True) for x in _DIAGRAM_ESCAPED.finditer(data)]
    if b"64" in data:
        for x in _NAMED_KEY.finditer(data):
            if len(x.group("value")) >= 8:
                key = x.group("key").decode("ascii")
                out.append(Declared(*x.span("value"), f"{key} (base64 by its name)"))
    seen: set[tuple[int, int]] = set()
    unique = []
    for one in sorted(out, key=lambda d: d.start):
        if not any(s < one.end and one.start < e for s, e in seen):
            seen.add((one.start, one.end))
            unique.append(one)
    return unique


def _documents(data: bytes) -> Iterator[tuple[int, int]]:
    start = 0
    for sep in _DOCUMENT.finditer(data):
        yield start, sep.start()
        start = sep.end()
    yield start, len(data)


def _manifest_values(data: bytes) -> list[Declared]:
    """A Secret's `data:` and a ConfigMap's `binaryData:` values (block mappings at the top level)."""
    out = []
    for low, high in _documents(data):
        kind = _KIND.search(data, low, high)
        if kind is None:
            continue
        wanted = b"data" if kind.group("kind") == b"Secret" else b"binaryData"
        for section in _SECTION.finditer(data, low, high):
            if section.group("key") != wanted:
                continue
            end = _section_end(data, section.end(), high)
            for entry in _ENTRY.finditer(data, section.end(), end):
                key = data[entry.start():entry.start("q")].strip().rstrip(b":").strip().strip(b"\"'")
                where = f"{kind.group('kind').decode()} {wanted.decode()} {key.decode('utf-8', 'replace')}"
                out.append(Declared(*entry.span("value"), where))
    return out


def _section_end(data: bytes, start: int, high: int) -> int:
    """Where a top-level key's block ends: the next line that starts with neither blank nor `#`."""
    for line in re.finditer(rb"^[^ \t\r\n#][^\n]*$", data[start:high], re.MULTILINE):
        return start + line.start()
    return high


def _cloud_init_values(data: bytes) -> list[Declared]:
    """`write_files` items: a `content:` beside an `encoding:` that says base64, in one list item."""
    out = []
    for encoding in _ENCODING.finditer(data):
        how = encoding.group("how").decode("ascii").lower()
        if how not in _PLAIN + _GZIP:
            continue
        low, high = _item(data, encoding.start())
        content = _CONTENT.search(data, low, high)
        if content is None:
            continue
        where = f"cloud-init content with encoding {how}"
        if content.group("value")[:1] in (b"|", b">"):
            block_end = _block_end(data, content.end(), len(content.group("lead")))
            if block_end > content.end() + 1:
                out.append(Declared(content.end() + 1, block_end, where, how in _GZIP, block=True))
            continue
        out.append(Declared(*content.span("value"), where, how in _GZIP))
    return out


def _indent(line: bytes) -> int:
    return len(line) - len(line.lstrip(b" \t-"))


def _item(data: bytes, at: int) -> tuple[int, int]:
    """The list item holding the line at `at`: from its `- ` line to the next at that indent or less."""
    line_start = data.rfind(b"\n", 0, at) + 1
    line_end = data.find(b"\n", at)
    line = data[line_start:line_end if line_end != -1 else len(data)]
    depth = _indent(line)
    low = line_start
    while not line.lstrip(b" \t").startswith(b"- ") and low > 0:
        prev = data.rfind(b"\n", 0, low - 1) + 1
        line = data[prev:low - 1]
        if line.strip() and _indent(line) < depth and not line.lstrip(b" \t").startswith(b"- "):
            break
        low = prev
    high = line_end if line_end != -1 else len(data)
    while high < len(data):
        nxt = data.find(b"\n", high + 1)
        line = data[high + 1:nxt if nxt != -1 else len(data)]
        if line.strip() and (_indent(line) < depth or line.lstrip(b" \t").startswith(b"- ")):
            break
        high = nxt if nxt != -1 else len(data)
    return low, high


def _block_end(data: bytes, start: int, lead: int) -> int:
    """The end of a block scalar's lines after `start` (lines indented more than `lead`)."""
    end = start
    pos = start + 1
    while pos < len(data):
        nxt = data.find(b"\n", pos)
        line = data[pos:nxt if nxt != -1 else len(data)]
        if line.strip() and len(line) - len(line.lstrip(b" \t")) <= lead:
            break
        end = nxt if nxt != -1 else len(data)
        if nxt == -1:
            break
        pos = nxt + 1
    return end


def _script_values(data: bytes) -> list[Declared]:
    """Base64 literals a script decodes as it runs (break-it round 24, finding 10)."""
    out: list[Declared] = []
    lowered = data.lower()
    if b"powershell" in lowered or b"pwsh" in lowered:
        out += [Declared(*x.span("value"), "a PowerShell -EncodedCommand (UTF-16LE)", utf16=True)
                for x in _ENCODED_COMMAND.finditer(data) if len(x.group("value")) >= 8]
    if b"base64" in lowered:
        out += [Declared(*x.span("value"), "a literal piped into `base64 -d`") for x in _PIPED.finditer(data)
                if len(x.group("value")) >= 8]
        out += [Declared(*x.span("value"), "a here-string `base64 -d` reads") for x in _HERE.finditer(data)
                if len(x.group("value")) >= 8]
        out += [Declared(*x.span("value"), "a Buffer.from(..., 'base64') literal")
                for x in _BUFFER.finditer(data) if len(x.group("value")) >= 8]
    out += [Declared(*x.span("value"), "a literal a base64 decoding call reads") for x in _CALL.finditer(data)
            if len(x.group("value")) >= 8]
    return out


def _decoded(data: bytes, value: Declared) -> bytes | None:
    text = data[value.start:value.end]
    if value.deflated:
        return document_text.diagram(text)
    if value.block:
        text = re.sub(rb"\s+", b"", text)
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        return None
    if value.utf16:
        try:
            return raw.decode("utf-16-le").encode("utf-8")
        except UnicodeDecodeError:
            return None
    if value.compressed or raw[:2] == _GZIP_MAGIC:
        try:
            return gzip.decompress(raw)
        except (OSError, EOFError, ValueError):
            return None
    return raw


def _gzipped(data: bytes, value: Declared) -> bool:
    """Whether the value is gzip: declared so, or base64 of gzip's own magic bytes."""
    return value.compressed or data[value.start:value.start + 3] == b"H4s"


def encoded_matches(data: bytes, matches: list[Match], find: Find, needles: Sequence[bytes]) -> list[Match]:
    """`matches` with each declared base64 value holding an old value decoded: rewritten where
    certain (re-encoded in the same style), else refused `encoded`."""
    if not any(literal in data for literal in LITERALS):
        return matches
    added: list[Match] = []
    for value in declared(data):
        decoded = _decoded(data, value)
        if not _holds(decoded, needles) or decoded is None:
            continue
        inside = [m for m in find(decoded) if m.kind in ("host", "address", "network", "reverse")]
        if not inside:
            continue
        text = data[value.start:value.end].decode("ascii")
        olds = ", ".join(sorted({m.old for m in inside}))
        if _gzipped(data, value) and not value.compressed:
            value = replace(value, compressed=True)
        new = _rewritten(text, decoded, inside, value)
        if new is not None:
            added.append(Match(value.start, value.end, text, new, inside[0].kind,
                               note=f"{value.where}: base64 of text holding {olds}, re-encoded"))
            continue
        why = ("deflate-compressed" if value.deflated else "gzip-compressed" if value.compressed
               else "wrapped over lines" if value.block
               else "not UTF-8 text" if not _is_text(decoded)
               else "an old value inside is refused there" if any(m.refused or m.kept for m in inside)
               else "not canonical base64")
        first = inside[0]
        added.append(Match(value.start, value.end, first.old, first.new, first.kind, refused=ENCODED,
                           note=f"{value.where}: base64 ({why}) that decodes to text holding {olds}; "
                                "decode it, rename, encode it again"))
    if not added:
        return matches
    kept = [m for m in matches if not any(a.start < m.end and m.start < a.end for a in added)]
    return sorted([*kept, *added], key=lambda m: m.start)


def _is_text(decoded: bytes) -> bool:
    try:
        decoded.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _rewritten(text: str, decoded: bytes, inside: list[Match], value: Declared) -> str | None:
    """The value re-encoded with every old value replaced, where that is certain; else None."""
    if value.compressed or value.block or value.deflated or not _is_text(decoded):
        return None
    if any(m.refused is not None or m.kept is not None for m in inside):
        return None
    raw = decoded.decode("utf-8").encode("utf-16-le") if value.utf16 else decoded
    if base64.b64encode(raw).decode("ascii") != text:
        return None  # not the canonical spelling: its style could not be kept
    out = bytearray(decoded)
    for m in sorted(inside, key=lambda m: m.start, reverse=True):
        out[m.start:m.end] = m.new.encode("utf-8")
    written = bytes(out).decode("utf-8").encode("utf-16-le") if value.utf16 else bytes(out)
    return base64.b64encode(written).decode("ascii")
