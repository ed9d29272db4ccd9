"""Numbers that measure or digest the bytes a rename changes, what h31-decode left of round 23
finding 06 (issue 27 item 7, g31): a chunked HTTP body's hex size lines, a HAR's sizes, a WARC
record's digests.

Before, each kept its old value while the text it measured grew (sweep 0, verify --strict OK):
http.client then read a cut chunk and failed, a HAR stated sizes its text no longer had, and
`warcio check` failed every rewritten record. Now each follows the bytes as the sweep writes them,
read back here by a reader of its own (http.client, json, hashlib and base32 over the record), or,
where the number measures something renamer cannot compute (a compressed body's `bodySize`, a
base64 `content.text`, chunks that do not land, a digest that does not match its block as it
stands), the sweep refuses the file with the reason (exit 3, nothing written).
"""

from __future__ import annotations

import base64
import hashlib
import http.client
import io
import json
import re

from tests.testing.repos import CURRENT_ALL, Repo, Run, git

CONFIG = """\
version: 1
renames:
  hosts: {web01.lab.example: application01.lab.example, db01.lab.example: db.lab.example}
  addresses: {10.0.0.70: 10.0.100.170}
allowlist: allow.yaml
"""


class _Socket(io.BytesIO):
    def makefile(self, *_args: object, **_kwargs: object) -> _Socket:
        return self


def _read_response(data: bytes) -> bytes:
    """The body http.client reads from a response kept as a file (chunks by their sizes)."""
    response = http.client.HTTPResponse(_Socket(data))  # type: ignore[arg-type]
    response.begin()
    return response.read()


def _chunked(head: bytes, *chunks: bytes, eol: bytes = b"\r\n", size: str = "%x",
             te: bytes = b"Transfer-Encoding: chunked") -> bytes:
    out = eol.join([*head.split(b"\n"), te, b"", b""])
    for chunk in chunks:
        out += (size % len(chunk)).encode() + eol + chunk + eol
    return out + b"0" + eol + eol


BODY = (b'{"backend": "web01.lab.example",', b' "ip": "10.0.0.70", "caf\xe9": 1}')  # a Latin-1 byte
RESPONSE = _chunked(b"HTTP/1.1 200 OK\nContent-Type: application/json", *BODY)
UPPER = _chunked(b"HTTP/1.1 200 OK\ncontent-type: text/plain", b"upstream db01.lab.example:5432; # primary db\n",
                 size="%04X", te=b"transfer-encoding: chunked")  # padded, upper case
EXTENSION = _chunked(b"HTTP/1.1 200 OK", b"server web01.lab.example;\n", b"end\n").replace(
    b"1a\r\n", b"1a;name=part1\r\n", 1)


def _digest(data: bytes, algorithm: str = "sha1", spelling: str = "base32") -> bytes:
    raw = hashlib.new(algorithm, data).digest()
    return base64.b32encode(raw) if spelling == "base32" else raw.hex().encode()


def _warc(kind: bytes, block: bytes, content_type: bytes, *digests: tuple[bytes, bytes]) -> bytes:
    fields = b"".join(b"%s: %s\r\n" % pair for pair in digests)
    return (b"WARC/1.0\r\nWARC-Type: " + kind + b"\r\nWARC-Target-URI: http://web01.lab.example/conf\r\n"
            b"Content-Type: " + content_type + b"\r\n" + fields
            + b"Content-Length: %d\r\n\r\n" % len(block) + block + b"\r\n\r\n")


HTTP_BODY = b"upstream web01.lab.example:8080;\n"
HTTP_BLOCK = (b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n" % len(HTTP_BODY)
              + HTTP_BODY)
CHUNKED_BLOCK = _chunked(b"HTTP/1.1 200 OK\nContent-Type: text/plain", b"backend db01.lab.example\n")
RESOURCE = b"10.0.0.70 web01.lab.example\n"
WARC = (_warc(b"response", HTTP_BLOCK, b"application/http; msgtype=response",
              (b"WARC-Block-Digest", b"sha1:" + _digest(HTTP_BLOCK)),
              (b"WARC-Payload-Digest", b"sha1:" + _digest(HTTP_BODY)))
        + _warc(b"resource", RESOURCE, b"text/plain",
                (b"WARC-Block-Digest", b"sha256:" + _digest(RESOURCE, "sha256", "hex")))
        + _warc(b"response", CHUNKED_BLOCK, b"application/http; msgtype=response",
                (b"WARC-Block-Digest", b"sha1:" + _digest(CHUNKED_BLOCK)),
                (b"WARC-Payload-Digest", b"sha1:" + _digest(b"backend db01.lab.example\n"))))


def _records(data: bytes) -> list[tuple[bytes, bytes]]:
    """(header, block) of each WARC record, the block read by its Content-Length."""
    out = []
    for record in re.split(rb"(?=WARC/1\.0\r\n)", data)[1:]:
        head, _, rest = record.partition(b"\r\n\r\n")
        length = int(re.search(rb"Content-Length: (\d+)", head).group(1))  # type: ignore[union-attr]
        assert rest[length:] == b"\r\n\r\n"  # the record ends where its length says
        out.append((head, rest[:length]))
    return out


def _dechunk(body: bytes) -> bytes:
    return _read_response(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + body)


def _check_digests(data: bytes) -> int:
    """Each digest of each record compared with one computed here; the number checked."""
    checked = 0
    for head, block in _records(data):
        for name, algorithm, value in re.findall(rb"(WARC-\w+-Digest): (\w+):(\w+)", head):
            if name == b"WARC-Block-Digest":
                payload = block
            else:
                body = block.partition(b"\r\n\r\n")[2]
                payload = _dechunk(body) if b"chunked" in block.partition(b"\r\n\r\n")[0] else body
            spelling = "hex" if len(value) in (40, 64, 128) and re.fullmatch(rb"[0-9a-f]+", value) else "base32"
            assert value == _digest(payload, algorithm.decode(), spelling), (name, head)
            checked += 1
    return checked


def _har(request_text: str, response_text: str) -> bytes:
    request_headers = [{"name": "Host", "value": "web01.lab.example"}, {"name": "Accept", "value": "*/*"}]
    entry = {
        "startedDateTime": "2026-10-01T00:00:00Z", "time": 5,
        "request": {"method": "POST", "url": "http://web01.lab.example/api", "httpVersion": "HTTP/1.1",
                    "headers": request_headers, "queryString": [], "cookies": [],
                    "postData": {"mimeType": "application/json", "text": request_text},
                    "headersSize": _headers_size(request_headers), "bodySize": len(request_text.encode())},
        "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "cookies": [],
                     "headers": [{"name": "Content-Type", "value": "text/plain"}],
                     "content": {"size": len(response_text.encode()), "mimeType": "text/plain",
                                 "text": response_text},
                     "redirectURL": "", "headersSize": -1, "bodySize": len(response_text.encode())},
        "cache": {}, "timings": {"send": 0, "wait": 5, "receive": 0}}
    document = {"log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": [entry]}}
    return json.dumps(document, indent=2, ensure_ascii=False).encode()


def _headers_size(headers: list[dict[str, str]]) -> int:
    return len("POST /api HTTP/1.1\r\n") + sum(len(h["name"]) + 2 + len(h["value"]) + 2 for h in headers) + 2


def test_g31_chunk_sizes_har_sizes_and_warc_digests_follow(repo: Repo, run: Run) -> None:
    har = _har('{"host": "web01.lab.example", "note": "café"}', "upstream db01.lab.example;\nserver 10.0.0.70;")
    files: dict[str, str | bytes] = {
        "resp.http": RESPONSE, "upper.http": UPPER, "ext.http": EXTENSION,
        "lf.http": _chunked(b"HTTP/1.1 200 OK", b"server web01.lab.example;\n", eol=b"\n"),
        "site.warc": WARC, "capture.har": har, "bom.har": b"\xef\xbb\xbf" + har.replace(b"\n", b"\r\n"),
        "README.md": "The response uses `Transfer-Encoding: chunked`; 1a is the size of web01.lab.example.\n"}
    root = repo(files, config=CONFIG, allowlist=CURRENT_ALL)
    assert _check_digests(WARC) == 5  # the reader agrees with the records as they stood
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    # http.client reads each chunk by its size line: the whole JSON, the Latin-1 byte counted as one
    data = (root / "resp.http").read_bytes()
    assert json.loads(_read_response(data).decode("latin-1")) == {
        "backend": "application01.lab.example", "ip": "10.0.100.170", "caf\xe9": 1}
    assert data.split(b"\r\n\r\n", 1)[1].startswith(b"28\r\n")  # was 20: 32 bytes, now 40
    assert b"\r\n\r\n002B\r\n" in (root / "upper.http").read_bytes()  # was 002D: its width and case kept
    assert _read_response((root / "upper.http").read_bytes()) == b"upstream db.lab.example:5432; # primary db\n"
    ext = (root / "ext.http").read_bytes()
    assert b"\r\n22;name=part1\r\n" in ext  # the extension kept
    assert _read_response(ext) == b"server application01.lab.example;\nend\n"
    lf = (root / "lf.http").read_bytes()
    assert b"\n22\nserver application01.lab.example;\n\n0\n" in lf
    # every WARC digest is the digest of its block (and payload) as the sweep wrote it
    warc = (root / "site.warc").read_bytes()
    assert _check_digests(warc) == 5
    assert b"application01.lab.example" in warc and b"web01" not in warc
    # a HAR's sizes are the bytes of the text they count
    for name in ("capture.har", "bom.har"):
        raw = (root / name).read_bytes()
        entry = json.loads(raw.decode("utf-8-sig"))["log"]["entries"][0]
        request, response = entry["request"], entry["response"]
        assert request["postData"]["text"] == '{"host": "application01.lab.example", "note": "café"}'
        assert request["bodySize"] == len(request["postData"]["text"].encode())
        assert request["headersSize"] == _headers_size(request["headers"])
        assert response["content"]["text"] == "upstream db.lab.example;\nserver 10.0.100.170;"
        assert response["content"]["size"] == response["bodySize"] == len(response["content"]["text"].encode())
        assert response["headersSize"] == -1  # unknown stays unknown
    assert "1a is the size" in (root / "README.md").read_text()  # prose: no chunked body
    strict = run(root, "verify", "--strict")
    assert strict.exit_code == 0, strict.stdout


def _refused(repo: Repo, run: Run, name: str, content: bytes, says: str) -> None:
    root = repo({name: content, "other.conf": "server web01.lab.example;\n"}, config=CONFIG,
                allowlist=CURRENT_ALL)
    before = git(root, "rev-parse", "HEAD")
    dry = run(root, "sweep", "--dry-run")
    assert dry.exit_code == 0 and name in dry.stdout + dry.stderr, dry.stdout + dry.stderr
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert f"{name}:" in done.stderr and says in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert (root / name).read_bytes() == content and git(root, "rev-parse", "HEAD") == before
    assert (root / "other.conf").read_text() == "server web01.lab.example;\n"  # nothing written


def test_g31_a_chunked_body_whose_chunks_do_not_land_is_refused(repo: Repo, run: Run) -> None:
    broken = (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nupstream web01.lab.example;\r\n"
              b"0\r\n\r\n")
    _refused(repo, run, "broken.http", broken, "chunk sizes do not land")


def test_g31_a_har_size_of_a_compressed_body_is_refused(repo: Repo, run: Run) -> None:
    text = "upstream web01.lab.example;"
    entry = {"request": {"method": "GET", "url": "http://x/", "headers": [], "headersSize": -1, "bodySize": 0},
             "response": {"status": 200, "headers": [{"name": "Content-Encoding", "value": "gzip"}],
                          "headersSize": -1, "bodySize": 19,
                          "content": {"size": len(text), "compression": 8, "mimeType": "text/plain", "text": text}}}
    har = json.dumps({"log": {"version": "1.2", "entries": [entry]}}, indent=1).encode()
    _refused(repo, run, "gz.har", har, "bodySize (19) counts the body as it was sent")


def test_g31_a_har_base64_body_naming_an_old_value_is_a_residual(repo: Repo, run: Run) -> None:
    text = base64.b64encode(b"upstream web01.lab.example;\n").decode()
    entry = {"request": {"method": "GET", "url": "http://web01.lab.example/", "headers": [], "headersSize": -1,
                         "bodySize": 0},
             "response": {"status": 200, "headers": [], "headersSize": -1, "bodySize": -1,
                          "content": {"size": 28, "mimeType": "text/plain", "encoding": "base64", "text": text}}}
    quiet = dict(entry, response=dict(entry["response"], content=dict(
        entry["response"]["content"], text=base64.b64encode(b"upstream web010.lab.example;\n").decode())))
    har = json.dumps({"log": {"version": "1.2", "entries": [entry, quiet]}}, indent=1).encode()
    root = repo({"b64.har": har}, config=CONFIG, allowlist=CURRENT_ALL)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert "b64.har:22:16: web01.lab.example (encoded: entry 1's response.content.text is base64" in done.stdout
    assert "entry 2's" not in done.stdout  # web010 is another name
    after = json.loads((root / "b64.har").read_bytes())["log"]["entries"]
    assert after[0]["request"]["url"] == "http://application01.lab.example/"
    assert after[0]["response"]["content"] == entry["response"]["content"]  # never rewritten
    verify = run(root, "verify")
    assert verify.exit_code == 1 and "b64.har:22:16" in verify.stdout, verify.stdout


def test_g31_a_warc_digest_that_does_not_match_its_block_is_refused(repo: Repo, run: Run) -> None:
    block = b"upstream web01.lab.example;\n"
    stale = _warc(b"resource", block, b"text/plain", (b"WARC-Block-Digest", b"sha1:" + b"A" * 32))
    _refused(repo, run, "stale.warc", stale, "WARC-Block-Digest is not the sha1 of the record's block")


def test_g31_a_warc_digest_renamer_cannot_compute_is_refused(repo: Repo, run: Run) -> None:
    block = b"upstream web01.lab.example;\n"
    unknown = _warc(b"resource", block, b"text/plain", (b"WARC-Block-Digest", b"blake3:" + b"A" * 52))
    _refused(repo, run, "unknown.warc", unknown, "a digest renamer cannot compute again")


def test_g31_an_old_value_across_two_chunks_is_a_split_residual(repo: Repo, run: Run) -> None:
    """`web01.l` | `ab.example`: no byte run spells it, the reader joins the chunks and reads it."""
    split = (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nupstream web01.l\r\n"
             b"13\r\nab.example:80; ok.\n\r\n0\r\n\r\n")
    whole = _chunked(b"HTTP/1.1 200 OK", b"upstream web010.lab.example:80;\n", b"web01.\n")  # other names
    assert _read_response(split) == b"upstream web01.lab.example:80; ok.\n"
    root = repo({"split.http": split, "whole.http": whole}, config=CONFIG, allowlist=CURRENT_ALL)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert "split.http:5:10: web01.lab.example (split: spelled across two chunks" in done.stdout
    assert "whole.http" not in done.stdout
    assert (root / "split.http").read_bytes() == split
    assert run(root, "verify").exit_code == 1
