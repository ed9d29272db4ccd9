"""A length stated in a header of the message it measures (issue 27 item 7, round 23 finding 06).

A raw HTTP request kept for a health check (`Content-Length: 29` over `{"host": "web01.lab.example"}`)
had its body rewritten to 37 bytes and kept 29: the server read a truncated JSON document; sweep 0,
verify --strict OK. Round 22 finding 18's fix covered lengths glued to their string (PHP `s:N:`,
RESP, netstrings). Now a `Content-Length:` header (any case) in a block of header lines follows the
body it measures wherever the body ends where the message does: an HTTP request (CRLF) and
response (LF, an editor's final newline), an LSP/JSON-RPC stream of two messages, a MIME part
before its boundary, a WARC record. Each message is read back by its own framing after the sweep
(json.loads of exactly N bytes, Python's email parser); prose that mentions a Content-Length keeps
its number.
"""

from __future__ import annotations

import email
import email.policy
import http.server
import json
import socket
import threading

from tests.testing.repos import CURRENT_ALL, Repo, Run

CONFIG = """\
version: 1
renames:
  hosts: {web01.lab.example: application01.lab.example, db01.lab.example: db.lab.example}
  addresses: {10.0.0.70: 10.0.100.170}
allowlist: allow.yaml
"""


def _http(head: bytes, body: bytes, eol: bytes = b"\r\n") -> bytes:
    return eol.join([*head.split(b"\n"), b"Content-Length: %d" % len(body), b"", b""]) + body


def _lsp(*bodies: bytes) -> bytes:
    return b"".join(b"Content-Length: %d\r\n\r\n" % len(b) + b for b in bodies)


def _length(head: bytes, eol: bytes) -> int:
    return int(next(h for h in head.split(eol) if h.lower().startswith(b"content-length:")).split(b":")[1])


def _framed(data: bytes) -> list[bytes]:
    """The bodies of a stream of `Content-Length:`-framed messages, each read by its own length."""
    out = []
    while data:
        head, _, rest = data.partition(b"\r\n\r\n")
        length = _length(head, b"\r\n")
        out.append(rest[:length])
        data = rest[length:]
    return out


def _read_http(data: bytes) -> bytes:
    head, _, body = data.replace(b"\r\n", b"\n").partition(b"\n\n")
    length = _length(head, b"\n")
    return body[:length]


REQUEST = _http(b"POST /api/register HTTP/1.1\nHost: registry.lab.example\nContent-Type: application/json",
                b'{"host": "web01.lab.example", "ip": "10.0.0.70"}')
RESPONSE = _http(b"HTTP/1.1 200 OK\ncontent-type: text/plain", b"backend db01.lab.example", b"\n") + b"\n"
STREAM = _lsp(b'{"jsonrpc":"2.0","id":1,"params":{"uri":"http://web01.lab.example/x"}}',
              b'{"jsonrpc":"2.0","id":2,"params":{"host":"db01.lab.example"}}')
PART = b"server web01.lab.example:8080;\n"
MAIL = (b"From: ops@lab.example\r\nTo: dev@lab.example\r\nSubject: conf\r\nMIME-Version: 1.0\r\n"
        b'Content-Type: multipart/mixed; boundary="XX"\r\n\r\n--XX\r\nContent-Type: text/plain\r\n'
        b"Content-Length: %d\r\n\r\n" % len(PART) + PART + b"\r\n--XX--\r\n")
BLOCK = b"10.0.0.70 web01.lab.example\n"
WARC = (b"WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: file:///etc/hosts\r\n"
        b"Content-Type: text/plain\r\nContent-Length: %d\r\n\r\n" % len(BLOCK) + BLOCK + b"\r\n\r\n")
PROSE = ("# Health check\n\nThe request sends `Content-Length: 29` and a JSON body.\n\n"
         "It registers web01.lab.example.\n")


class _Echo(http.server.BaseHTTPRequestHandler):
    """Reads the body by its Content-Length, as a server does, and answers whether it is JSON."""

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        try:
            json.loads(body)
            status = 200
        except ValueError:
            status = 400
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


def _served(request: bytes) -> int:
    """The status a real HTTP server on loopback answers to `request`, sent as `nc` would."""
    server = http.server.HTTPServer(("127.0.0.1", 0), _Echo)
    thread = threading.Thread(target=server.handle_request, daemon=True)
    thread.start()
    with socket.create_connection(("127.0.0.1", server.server_port), timeout=10) as conn:
        conn.sendall(request)
        answer = conn.recv(1024)
    thread.join(10)
    server.server_close()
    return int(answer.split(b" ")[1])


def test_round23_06_content_length_follows_the_body(repo: Repo, run: Run) -> None:
    files: dict[str, str | bytes] = {"req.http": REQUEST, "resp.txt": RESPONSE, "lsp.log": STREAM,
                                     "note.eml": MAIL, "hosts.warc": WARC, "README.md": PROSE}
    root = repo(files, config=CONFIG, allowlist=CURRENT_ALL)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert _served(REQUEST) == 200  # the check as it stood
    assert _served((root / "req.http").read_bytes()) == 200  # and after: the server reads the whole body
    assert json.loads(_read_http((root / "req.http").read_bytes())) == {
        "host": "application01.lab.example", "ip": "10.0.100.170"}
    new_body = b'{"host": "application01.lab.example", "ip": "10.0.100.170"}'
    assert b"Content-Length: %d\r\n\r\n" % len(new_body) + new_body == (root / "req.http").read_bytes()[-81:]
    assert _read_http((root / "resp.txt").read_bytes()) == b"backend db.lab.example"
    assert (root / "resp.txt").read_bytes().endswith(b"db.lab.example\n")  # the editor's newline kept
    bodies = [json.loads(b) for b in _framed((root / "lsp.log").read_bytes())]
    assert [b["params"] for b in bodies] == [{"uri": "http://application01.lab.example/x"},
                                             {"host": "db.lab.example"}]
    mail = email.message_from_bytes((root / "note.eml").read_bytes(), policy=email.policy.default)
    part = next(p for p in mail.walk() if p.get_content_type() == "text/plain")
    assert int(part["Content-Length"]) == len(b"server application01.lab.example:8080;\n")
    warc = (root / "hosts.warc").read_bytes()
    head, _, rest = warc.partition(b"\r\n\r\n")
    length = int(head.split(b"Content-Length: ")[1].split(b"\r\n")[0])
    assert rest[:length] == b"10.0.100.170 application01.lab.example\n" and rest[length:] == b"\r\n\r\n"
    assert "`Content-Length: 29`" in (root / "README.md").read_text()  # prose: no header block
    strict = run(root, "verify", "--strict")
    assert strict.exit_code == 0, strict.stdout
