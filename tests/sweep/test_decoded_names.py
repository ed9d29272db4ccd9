"""Old values only a decoded reading spells (issue 27, round 22 findings 17, 20, 29): X.509
certificates and requests (made by the real openssl), OpenSSH certificates (the real ssh-keygen
-s), hashed known_hosts entries (the real ssh-keygen -H) and a regedit export's hex values are
residuals naming what holds the old value; verify fails until each is reissued, rewritten or kept.
A certificate, an entry or a value for another name is no residual."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from renamer.sweep import decoded_names
from tests.conftest import Result

CONFIG = ("version: 1\nrenames:\n  hosts: {web01.lab.example: app01.lab.example}\n"
          "  addresses: {10.0.0.70: 10.0.1.90, 'fd00::70': 'fd00::90'}\nallowlist: allow.yaml\n")
ALLOW = "version: 1\ncurrent: ['**']\n"


def _x509(tmp_path: Path, subject: str, san: str, request: bool = False) -> bytes:
    out = tmp_path / ("r.csr" if request else "c.crt")
    subprocess.run(["openssl", "req", *([] if request else ["-x509", "-days", "30"]), "-newkey", "ec",
                    "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", str(tmp_path / "k.pem"),
                    "-out", str(out), "-subj", subject, "-addext", f"subjectAltName={san}"],
                   check=True, capture_output=True)
    return out.read_bytes()


def _ssh_cert(tmp_path: Path, principals: str) -> bytes:
    for name in ("ca", "host"):
        if not (tmp_path / name).exists():
            subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(tmp_path / name)], check=True)
    subprocess.run(["ssh-keygen", "-q", "-s", str(tmp_path / "ca"), "-I", "h", "-h", "-n", principals,
                    str(tmp_path / "host.pub")], check=True, capture_output=True)
    return (tmp_path / "host-cert.pub").read_bytes()


CERTS: dict[str, Callable[[Path], bytes]] = {
    "x509-cn-san": lambda t: _x509(t, "/CN=web01.lab.example", "DNS:web01.lab.example,IP:10.0.0.70"),
    "x509-san-only": lambda t: _x509(t, "/CN=frontend", "DNS:other.lab.example,DNS:WEB01.lab.example"),
    "x509-ip-only": lambda t: _x509(t, "/CN=frontend", "IP:10.0.0.70"),
    "x509-ipv6": lambda t: _x509(t, "/CN=frontend", "IP:fd00::70"),
    "csr": lambda t: _x509(t, "/CN=web01.lab.example", "DNS:web01.lab.example", request=True),
    "ssh-host-cert": lambda t: _ssh_cert(t, "web01.lab.example,10.0.0.70"),
}


@pytest.mark.parametrize("shape", sorted(CERTS))
def test_a_certificate_naming_an_old_value_is_a_residual(shape: str, tmp_path: Path, repo: Callable[..., Path],
                                                         run: Callable[..., Result]) -> None:
    cert = CERTS[shape](tmp_path)
    assert b"web01" not in cert.lower() and b"10.0.0.70" not in cert
    site = "server {\n  server_name web01.lab.example;\n  ssl_certificate /etc/nginx/tls/server.crt;\n}\n"
    root = repo({"tls/server.crt": cert, "site.conf": site}, config=CONFIG, allowlist=ALLOW)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 1  # the rest committed, the certificate left for a decision
    assert "server_name app01.lab.example;" in (root / "site.conf").read_text()
    assert (root / "tls/server.crt").read_bytes() == cert  # signed bytes: never written
    verify = run(root, "verify")
    assert verify.exit_code == 1
    assert "tls/server.crt:1:1: residual (certificate)" in verify.stdout, verify.stdout


def test_a_certificate_for_other_names_is_no_residual(tmp_path: Path, repo: Callable[..., Path],
                                                      run: Callable[..., Result]) -> None:
    cert = _x509(tmp_path, "/CN=web010.lab.example", "DNS:xweb01.lab.example.org,IP:10.0.0.7")
    ssh = _ssh_cert(tmp_path, "db01.lab.example,10.0.0.71")
    root = repo({"tls/other.crt": cert, "ssh/host-cert.pub": ssh, "a.sh": "ssh web01.lab.example\n"},
                config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    verify = run(root, "verify", "--strict")
    assert verify.exit_code == 0, verify.stdout


def _hashed(tmp_path: Path, names: str, marker: str = "") -> bytes:
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(tmp_path / "hk")], check=True)
    key = " ".join((tmp_path / "hk.pub").read_text().split()[:2])
    known = tmp_path / "known_hosts"
    known.write_text(f"{marker}{names} {key}\nother.lab.example {key}\n")
    subprocess.run(["ssh-keygen", "-H", "-f", str(known)], check=True, capture_output=True)
    return known.read_bytes()


@pytest.mark.parametrize("names", ["web01.lab.example,10.0.0.70", "WEB01.lab.example", "fd00::70"])
def test_a_hashed_known_hosts_entry_of_an_old_value_is_a_residual(
        names: str, tmp_path: Path, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    known = _hashed(tmp_path, names)
    assert b"web01" not in known.lower()
    root = repo({"files/ssh/known_hosts": known}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1
    verify = run(root, "verify")
    assert verify.exit_code == 1
    expected = len(names.split(","))
    assert verify.stdout.count("residual (hashed-name)") == expected, verify.stdout
    assert (root / "files/ssh/known_hosts").read_bytes() == known


def test_hashed_entries_of_other_names_are_no_residual(tmp_path: Path, repo: Callable[..., Path],
                                                       run: Callable[..., Result]) -> None:
    root = repo({"known_hosts": _hashed(tmp_path, "web010.lab.example,10.0.0.7"), "a.sh": "ssh web01.lab.example\n"},
                config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert run(root, "verify", "--strict").exit_code == 0


def _hex(text: str, wrap: bool = False) -> str:
    pairs = [f"{c:02x}" for c in text.encode("utf-16-le") + b"\0\0"]
    if not wrap:
        return ",".join(pairs)
    rows = [",".join(pairs[i:i + 20]) for i in range(0, len(pairs), 20)]
    return ",\\\r\n  ".join(rows)  # regedit wraps long values with a backslash


@pytest.mark.parametrize("value", [
    pytest.param('"Servers"=hex(7):{}', id="multi-sz"),
    pytest.param('"LogPath"=hex(2):{}', id="expand-sz"),
    pytest.param('"LogPath"=hex(2):{wrapped}', id="expand-sz-wrapped"),
    pytest.param('"Raw"=hex:{ascii}', id="binary-ascii"),
])
def test_a_registry_hex_value_spelling_an_old_value_is_a_residual(
        value: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    line = value.format(_hex("\\\\web01.lab.example\\logs"), wrapped=_hex("\\\\web01.lab.example\\logs\\x", wrap=True),
                        ascii=",".join(f"{c:02x}" for c in b"host=web01.lab.example\0"))
    text = ("Windows Registry Editor Version 5.00\r\n\r\n[HKEY_LOCAL_MACHINE\\SOFTWARE\\ODBC\\ODBC.INI\\AppDB]\r\n"
            f'"Server"="web01.lab.example"\r\n{line}\r\n"Other"=hex(2):{_hex("db01.lab.example")}\r\n')
    data = text.encode("utf-16")
    root = repo({"odbc.reg": data}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1
    written = (root / "odbc.reg").read_bytes().decode("utf-16")
    assert '"Server"="app01.lab.example"' in written
    verify = run(root, "verify")
    assert verify.exit_code == 1
    assert verify.stdout.count("residual (reg-hex)") == 1, verify.stdout
    assert "odbc.reg:5:1: residual (reg-hex): web01.lab.example -> app01.lab.example" in verify.stdout


def test_might_hold_is_a_literal_gate() -> None:
    assert not decoded_names.might_hold(b"server web01;\n")
    assert decoded_names.might_hold(b"|1|abc|def ssh-ed25519 AAAA\n")


def _token(header: bytes, payload: bytes, signature: bytes = b"sig") -> bytes:
    import base64

    def part(raw: bytes) -> bytes:
        return base64.urlsafe_b64encode(raw).rstrip(b"=")
    return part(header) + b"." + part(payload) + b"." + part(signature)


def test_a_signed_token_naming_an_old_value_is_a_residual_naming_its_claims() -> None:
    hosts, addresses = [("web01.lab.example", "app01.lab.example")], [("10.0.0.70", "10.0.1.90")]
    token = _token(b'{"alg":"RS256","kid":"k"}', b'{"iss":"https:\\/\\/web01.lab.example","aud":["a","10.0.0.70"]}')
    data = b"Authorization: Bearer " + token + b"\n"
    out = decoded_names.decoded_matches(data, [], hosts, addresses)
    assert [(m.old, m.refused) for m in out] == [("web01.lab.example", decoded_names.SIGNED_TOKEN),
                                                 ("10.0.0.70", decoded_names.SIGNED_TOKEN)]
    assert "`iss`" in (out[0].note or "") and "`aud`" in (out[1].note or "")
    assert data[out[0].start:out[0].end] == token
    # spaced JSON (`{ "alg"...`: `eyA`), a header without `alg` (no JWS), other names: quiet or read as such
    spaced = _token(b'{ "alg": "HS256" }', b'{ "sub": "web01.lab.example" }')
    assert [m.old for m in decoded_names.decoded_matches(spaced, [], hosts, addresses)] == ["web01.lab.example"]
    assert decoded_names.decoded_matches(_token(b'{"typ":"x"}', b'{"iss":"web01.lab.example"}'), [],
                                         hosts, addresses) == []
    assert decoded_names.decoded_matches(_token(b'{"alg":"none"}', b'{"iss":"web010.lab.example"}'), [],
                                         hosts, addresses) == []
