"""Numbers a web archive states about bytes a rename changes (issue 27, g31: what h31-decode left of
round 23 finding 06): a HAR's sizes and a WARC record's digests.

* HAR (`{"log": {"entries": [...]}}`, a browser's or a proxy's capture): `response.content.size`
  counts the bytes of `content.text`, `response.bodySize` and `request.bodySize` the body sent
  (`postData.text`), `headersSize` the bytes of the header lines (each header's name and value).
  Each is a `Measure`: the number's span, the JSON strings whose bytes it counts, and whether it
  may follow them (the number is what those strings measure now, so a rename's growth carries it
  with certainty). A number that measures something else (a compressed body's `bodySize`, a
  base64 `content.text`, a size that does not match its text) is no certain measure: an edit that
  changes what it counts is refused with its reason (sweep/file_rules.py). `-1` (unknown) stays.
* WARC (`WARC/1.0` records): `WARC-Block-Digest` is a digest of the record's block (the
  `Content-Length` bytes after its header), `WARC-Payload-Digest` of its payload (the body after an
  HTTP message's header, else the block). Each is a `Digest`: its value's span, the algorithm and
  the spelling (base32 or hex, and their case), and the block; sweep/file_rules.py computes it again
  over the block as the sweep writes it, only where the stated value is the digest of the block as
  it stands now (else it cannot tell what the value covers, and refuses).

Pure: bytes in, spans out. A HAR is read by a small JSON tokenizer that keeps each value's offsets.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass

from renamer import lazy_re

# -- HAR -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Measure:
    """A number (`start`, `end`) that counts the bytes of `regions` (JSON strings' contents)."""

    start: int
    end: int
    value: int
    regions: tuple[tuple[int, int], ...]
    what: str  # `response.content.size` of entry 3
    problem: str | None  # why it cannot follow an edit of its regions; None: it follows


@dataclass
class _Node:
    start: int
    end: int
    value: object  # dict[str, _Node] | list[_Node] | str | int | float | bool | None


_TOKEN = lazy_re.compile(
    rb'[ \t\r\n]*(?:"(?P<s>(?:[^"\\]|\\.)*)"|(?P<n>-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)'
                    rb"|(?P<w>true|false|null)|(?P<p>[{}\[\]:,]))", re.S)


class _Bad(Exception):
    pass


def _parse(data: bytes) -> _Node:
    """The JSON document `data` with each value's offsets (strings: their contents, no quotes)."""
    def scan() -> Iterator[re.Match[bytes]]:
        at = 3 if data.startswith(b"\xef\xbb\xbf") else 0  # Fiddler and Charles write a BOM
        while True:
            tok = _TOKEN.match(data, at)
            if tok is None:
                if data[at:].strip():
                    raise _Bad
                return
            yield tok
            at = tok.end()

    tokens = scan()

    def value(tok: re.Match[bytes] | None) -> _Node:
        if tok is None:
            raise _Bad
        if tok.group("s") is not None:
            raw = tok.group("s")
            try:
                text = json.loads(b'"' + raw + b'"') if b"\\" in raw else raw.decode("utf-8")
            except ValueError as e:
                raise _Bad from e
            return _Node(tok.start("s"), tok.end("s"), text)
        if tok.group("n") is not None:
            raw = tok.group("n")
            return _Node(tok.start("n"), tok.end("n"), float(raw) if b"." in raw or b"e" in raw.lower()
                         else int(raw))
        if tok.group("w") is not None:
            word = tok.group("w")
            return _Node(tok.start("w"), tok.end("w"), None if word == b"null" else word == b"true")
        punct = tok.group("p")
        if punct == b"{":
            members: dict[str, _Node] = {}
            tok = next(tokens, None)
            if tok is not None and tok.group("p") == b"}":
                return _Node(tok.start(), tok.end(), members)
            while True:
                if tok is None or tok.group("s") is None:
                    raise _Bad
                key = value(tok)
                colon = next(tokens, None)
                if colon is None or colon.group("p") != b":":
                    raise _Bad
                members[str(key.value)] = value(next(tokens, None))
                tok = next(tokens, None)
                if tok is not None and tok.group("p") == b"}":
                    return _Node(0, tok.end(), members)
                if tok is None or tok.group("p") != b",":
                    raise _Bad
                tok = next(tokens, None)
        if punct == b"[":
            items: list[_Node] = []
            tok = next(tokens, None)
            if tok is not None and tok.group("p") == b"]":
                return _Node(0, tok.end(), items)
            while True:
                items.append(value(tok))
                tok = next(tokens, None)
                if tok is not None and tok.group("p") == b"]":
                    return _Node(0, tok.end(), items)
                if tok is None or tok.group("p") != b",":
                    raise _Bad
                tok = next(tokens, None)
        raise _Bad

    return value(next(tokens, None))


def might_be_har(data: bytes) -> bool:
    head = data[:4096]  # `"log"` opens the document
    return b'"log"' in head and b'"entries"' in data and (b'"bodySize"' in data or b'"headersSize"' in data
                                                          or b'"size"' in data)


def _get(node: _Node | None, *path: str) -> _Node | None:
    for key in path:
        if node is None or not isinstance(node.value, dict):
            return None
        node = node.value.get(key)
    return node


def _text_bytes(node: _Node) -> int:
    return len(str(node.value).encode("utf-8", "surrogatepass"))


# The last document parsed: the sweep asks of one file's bytes up to three times (its decoded
# bodies, its sizes before and after the edits); about 0.6 s a MiB in pure Python.
_LAST: list[tuple[bytes, _Node | None]] = []


def _har(data: bytes) -> _Node | None:
    """The HAR `data` holds, parsed, or None (no HAR, or no JSON)."""
    if _LAST and _LAST[0][0] is data:
        return _LAST[0][1]
    try:
        root: _Node | None = _parse(data)
    except (_Bad, RecursionError, UnicodeDecodeError):
        root = None
    _LAST[:] = [(data, root)]
    return root


def har_measures(data: bytes) -> list[Measure]:
    """Each size a HAR states over text of its own (see the module's text); [] for no HAR."""
    if not might_be_har(data):
        return []
    entries = _get(_har(data), "log", "entries")
    if entries is None or not isinstance(entries.value, list):
        return []
    out: list[Measure] = []
    for index, entry in enumerate(entries.value, 1):
        for side in ("request", "response"):
            message = _get(entry, side)
            if message is None:
                continue
            where = f"entry {index}'s {side}"
            if side == "response":
                out += _content(message, where)
            else:
                text = _get(message, "postData", "text")
                out += _sized(_get(message, "bodySize"), text, f"{where}.bodySize", "postData.text")
            out += _headers(message, where)
    return out


def har_base64(data: bytes) -> list[tuple[int, int, bytes, str]]:
    """Each HAR `content.text` (or `postData.text`) declared `"encoding": "base64"`: its span, its
    bytes decoded, and where it is (a capture of an image, a font, or a body the browser sent
    compressed: never rewritten here, read by sweep/decoded_names.py for old values)."""
    if not might_be_har(data) or b"base64" not in data:
        return []
    entries = _get(_har(data), "log", "entries")
    out = []
    for index, entry in enumerate(entries.value if entries is not None and isinstance(entries.value, list)
                                  else [], 1):
        for path in (("response", "content"), ("request", "postData")):
            holder = _get(entry, *path)
            text, encoding = _get(holder, "text"), _get(holder, "encoding")
            if text is None or encoding is None or not isinstance(text.value, str) \
                    or str(encoding.value).lower() != "base64":
                continue
            try:
                raw = base64.b64decode(text.value, validate=True)
            except (binascii.Error, ValueError):
                continue
            out.append((text.start, text.end, raw, f"entry {index}'s {'.'.join(path)}.text"))
    return out


def _number(node: _Node | None) -> int | None:
    return node.value if node is not None and isinstance(node.value, int) and not isinstance(
        node.value, bool) else None


def _sized(size: _Node | None, text: _Node | None, what: str, of: str,
           problem: str | None = None) -> list[Measure]:
    value = _number(size)
    if size is None or value is None or value < 0 or text is None or not isinstance(text.value, str):
        return []
    if problem is None and value != _text_bytes(text):
        problem = (f"{what} is {value}, not the {_text_bytes(text)} bytes of its {of}: what it counts "
                   "cannot be told")
    return [Measure(size.start, size.end, value, ((text.start, text.end),), what, problem)]


def _content(message: _Node, where: str) -> list[Measure]:
    content = _get(message, "content")
    text = _get(content, "text")
    encoding = _get(content, "encoding")
    problem = None
    if encoding is not None and encoding.value not in (None, ""):
        problem = (f"{where}.content.text is {encoding.value}: its size counts the decoded bytes, which "
                   "a text edit does not measure")
    out = _sized(_get(content, "size"), text, f"{where}.content.size", "content.text", problem)
    body = _get(message, "bodySize")
    value, size = _number(body), _number(_get(content, "size"))
    compression = _number(_get(content, "compression"))
    if body is not None and value is not None and value >= 0 and text is not None:
        if problem is None and value == size and not compression and out and out[0].problem is None:
            out.append(Measure(body.start, body.end, value, out[0].regions, f"{where}.bodySize", None))
        else:
            out.append(Measure(body.start, body.end, value, ((text.start, text.end),), f"{where}.bodySize",
                               problem or f"{where}.bodySize ({value}) counts the body as it was sent "
                               f"(compressed, or measured otherwise than content.size {size}): what it "
                               "becomes cannot be told"))
    return out


def _headers(message: _Node, where: str) -> list[Measure]:
    size = _get(message, "headersSize")
    headers = _get(message, "headers")
    value = _number(size)
    if size is None or value is None or value < 0 or headers is None or not isinstance(headers.value, list):
        return []
    regions = []
    for header in headers.value:
        for part in ("name", "value"):
            node = _get(header, part)
            if node is not None and isinstance(node.value, str):
                regions.append((node.start, node.end))
    return [Measure(size.start, size.end, value, tuple(regions), f"{where}.headersSize", None)]


# -- WARC ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Digest:
    """A WARC digest's value (`start`, `end`) over the bytes `covers` gives of a block."""

    start: int
    end: int
    algorithm: str  # hashlib's name
    spelling: str  # base32 | BASE32 | hex | HEX
    name: str  # WARC-Block-Digest | WARC-Payload-Digest
    block: tuple[int, int]  # the record's block
    covers: str  # block | http-body: what of the block it digests
    problem: str | None  # why it cannot be computed again; None: it can


_RECORD = lazy_re.compile(rb"(?m)^WARC/1\.[01]\r?\n")
_FIELD = lazy_re.compile(rb"(?im)^(?P<name>WARC-(?:Block|Payload)-Digest):[ \t]*(?P<algo>[A-Za-z0-9-]+):"
                    rb"(?P<value>[A-Za-z0-9=+/]+)[ \t]*\r?$")
_LENGTH = lazy_re.compile(rb"(?im)^Content-Length:[ \t]*(?P<n>[0-9]{1,12})[ \t]*\r?$")
_ALGORITHMS = {"sha1": "sha1", "sha-1": "sha1", "sha256": "sha256", "sha-256": "sha256",
               "sha512": "sha512", "sha-512": "sha512", "md5": "md5"}


def _spelling(value: bytes, size: int) -> str | None:
    text = value.decode("ascii")
    if len(text) == 2 * size and all(c in "0123456789abcdefABCDEF" for c in text):
        return "HEX" if text.upper() == text and not text.isdigit() else "hex"
    if len(text.rstrip("=")) == -(-size * 8 // 5):
        return "BASE32" if text.upper() == text else "base32"
    return None


def spell(digest: bytes, spelling: str) -> bytes:
    """`digest` in a WARC value's spelling."""
    if spelling in ("hex", "HEX"):
        text = digest.hex()
        return (text.upper() if spelling == "HEX" else text).encode()
    text = base64.b32encode(digest).decode().rstrip("=")
    return (text if spelling == "BASE32" else text.lower()).encode()


def _decoded(value: bytes, spelling: str) -> bytes | None:
    try:
        if spelling in ("hex", "HEX"):
            return bytes.fromhex(value.decode())
        text = value.decode().upper().rstrip("=")
        return base64.b32decode(text + "=" * (-len(text) % 8))
    except (ValueError, binascii.Error):
        return None


def http_body(block: bytes) -> bytes | None:
    """The body of the HTTP message a block holds (after its header's blank line), or None."""
    for blank in (b"\r\n\r\n", b"\n\n"):
        at = block.find(blank)
        if at != -1 and re.match(rb"(?:[A-Z]+ [^ \r\n]+ HTTP/[0-9.]+|HTTP/[0-9.]+ [0-9]{3})", block):
            return block[at + len(blank):]
    return None


def _dechunked(body: bytes) -> bytes | None:
    """A chunked body's data, its chunks joined; None where they do not land."""
    out: list[bytes] = []
    at = 0
    while True:
        found = re.compile(rb"([0-9A-Fa-f]{1,8})(?:[ \t]*;[^\r\n]*)?(\r?\n)").match(body, at)
        if found is None:
            return None
        size = int(found.group(1), 16)
        if size == 0:
            return b"".join(out)
        start = found.end()
        if not body.startswith(found.group(2), start + size):
            return None
        out.append(body[start:start + size])
        at = start + size + len(found.group(2))


def covered(block: bytes, covers: str) -> bytes | None:
    """The bytes of `block` a digest of kind `covers` is taken over: the block, its HTTP message's
    body as it stands, or that body's chunks joined (a chunked transfer's payload)."""
    if covers == "block":
        return block
    body = http_body(block)
    return body if covers == "http-body" or body is None else _dechunked(body)


def warc_digests(data: bytes) -> list[Digest]:
    """Each WARC-Block-Digest and WARC-Payload-Digest of `data`'s records (see the module's text)."""
    if b"WARC/1." not in data or b"-Digest:" not in data:
        return []
    out: list[Digest] = []
    starts = [m.start() for m in _RECORD.finditer(data)]
    for i, start in enumerate(starts):
        limit = starts[i + 1] if i + 1 < len(starts) else len(data)
        blank = min((at for at in (data.find(b"\r\n\r\n", start, limit), data.find(b"\n\n", start, limit))
                     if at != -1), default=-1)
        if blank == -1:
            continue
        begin = blank + (4 if data.startswith(b"\r\n\r\n", blank) else 2)
        length = _LENGTH.search(data, start, blank + 1)
        if length is None:
            continue
        block = (begin, begin + int(length.group("n")))
        if block[1] > len(data):
            continue
        for field in _FIELD.finditer(data, start, blank + 1):
            name = field.group("name").decode()
            algo = _ALGORITHMS.get(field.group("algo").decode().lower())
            spelling = _spelling(field.group("value"), hashlib.new(algo).digest_size) if algo else None
            problem = None
            if algo is None or spelling is None:
                problem = (f"{name} `{field.group('algo').decode()}:...` is a digest renamer cannot compute "
                           "again")
                algo, spelling = algo or "sha1", spelling or "BASE32"
            stated = _decoded(field.group("value"), spelling)
            old = data[block[0]:block[1]]
            kinds = ("block",) if name.endswith("Block-Digest") else ("block", "http-body", "http-dechunked")
            covers = next((k for k in kinds if (b := covered(old, k)) is not None
                           and hashlib.new(algo, b).digest() == stated), None)
            if covers is None and problem is None:
                problem = (f"{name} is not the {algo} of the record's "
                           f"{'block' if len(kinds) == 1 else 'block or its HTTP body'} as it stands "
                           "(a compressed payload, or a stale digest): what it covers cannot be told")
            out.append(Digest(field.start("value"), field.end("value"), algo, spelling, name, block,
                              covers or "block", problem))
    return out
