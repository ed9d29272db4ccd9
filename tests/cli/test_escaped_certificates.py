"""A certificate inside a quoted string written with escapes, or beside other text of its scalar
(issue 27 items 3 and 15, g31: what h31-decode left of round 23 finding 08).

A PEM in a JSON value (`"-----BEGIN CERTIFICATE-----\\nMIIB...\\n"`, as Vault, Terraform state
outputs and cert-manager exports write it), in a YAML double-quoted scalar with `\\n`, its base64
wrapped at 64 columns with `\\n` or continued with `\\` over lines, a one-line PEM with spaces (an
`.env` value), a TOML string holding text around the PEM (CRLF file): never read, while the same
certificate as a `.pem` file is a `certificate` residual; sweep 0, verify --strict OK. Now the
string is read decoded, as the PEM and its base64 are: a `certificate` residual at the string,
never rewritten. Another host's certificate and a private key in the same dress stay quiet. The
certificates are made by the real openssl; each file is read back by its own parser (json, yaml,
tomllib) to show the string is the certificate.
"""

from __future__ import annotations

import base64
import json
import subprocess
import time
import tomllib
from pathlib import Path

import yaml

from renamer.sweep import decoded_names
from tests.testing.repos import CURRENT_ALL, Repo, Run

CONFIG = """\
version: 1
renames:
  hosts: {web01.lab.example: app01.lab.example}
  addresses: {10.0.0.70: 10.0.1.90}
allowlist: allow.yaml
"""


def _certificate(tmp: Path, name: str, san: str) -> tuple[bytes, bytes]:
    """(PEM, key PEM) of a self-signed certificate for `name`."""
    key, crt = tmp / f"{name}.key", tmp / f"{name}.crt"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                    "-keyout", str(key), "-out", str(crt), "-days", "30", "-subj", f"/CN={name}",
                    "-addext", f"subjectAltName={san}"], check=True, capture_output=True)
    return crt.read_bytes(), key.read_bytes()


def _escaped(text: str) -> str:
    return text.replace("\n", "\\n")


def test_g31_a_certificate_in_an_escaped_string_is_named(repo: Repo, run: Run, tmp_path: Path) -> None:
    pem, key = _certificate(tmp_path, "web01.lab.example", "DNS:web01.lab.example,IP:10.0.0.70")
    other, _ = _certificate(tmp_path, "db01.lab.example", "DNS:db01.lab.example")
    text, b64 = pem.decode(), base64.b64encode(pem).decode()
    wrapped = "\n".join(b64[i:i + 64] for i in range(0, len(b64), 64))
    continued = "\\\n  ".join(b64[i:i + 64] for i in range(0, len(b64), 64))
    files: dict[str, str | bytes] = {
        "vault.json": json.dumps({"data": {"certificate": text, "ttl": 3600}}) + "\n",
        "values.yaml": f'ingress:\n  ca: "{_escaped(text)}"\n  host: app01.lab.example\n',
        "bundle.json": json.dumps({"bundle": wrapped, "note": "lab CA"}) + "\n",
        "continued.yaml": f'ca: "{continued}"\n',
        "tls.env": "TLS_CERT=\"" + " ".join(text.split("\n")).strip() + "\"\n",
        "app.toml": f'ca = "rotated 2026-10: {_escaped(text)} (see runbook)"\r\nport = 443\r\n'.encode(),
        # quiet: another host's certificate, a private key, in the same dress
        "other.json": json.dumps({"certificate": other.decode()}) + "\n",
        "key.json": json.dumps({"private_key": key.decode()}) + "\n",
    }
    root = repo(files, config=CONFIG, allowlist=CURRENT_ALL)
    # each file's own parser reads the certificate back out of the string
    assert json.loads(files["vault.json"])["data"]["certificate"] == text  # type: ignore[arg-type]
    assert yaml.safe_load(files["values.yaml"])["ingress"]["ca"] == text  # type: ignore[arg-type]
    assert yaml.safe_load(files["continued.yaml"])["ca"] == b64  # type: ignore[arg-type]
    assert base64.b64decode(json.loads(files["bundle.json"])["bundle"]) == pem  # type: ignore[arg-type]
    assert text in tomllib.loads(files["app.toml"].decode())["ca"]  # type: ignore[union-attr]
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    for name, at in (("vault.json", "1:"), ("values.yaml", "2:"), ("bundle.json", "1:"), ("continued.yaml", "1:"),
                     ("tls.env", "1:"), ("app.toml", "1:")):
        for old in ("web01.lab.example", "10.0.0.70"):
            assert any(line.startswith(f"  {name}:{at}") and f": {old} (certificate" in line
                       for line in done.stdout.splitlines()), (name, old, done.stdout)
    # lines sharing an explanation name it (`why: certificate #1`), said once under Why (t35 finding 23)
    assert "issue a new certificate for the new name and address" in done.stdout, done.stdout
    assert "other.json" not in done.stdout and "key.json" not in done.stdout
    for name, content in files.items():
        if name != "values.yaml":
            assert (root / name).read_bytes() == (content.encode() if isinstance(content, str) else content)
    assert yaml.safe_load((root / "values.yaml").read_text())["ingress"]["ca"] == text  # the certificate kept
    strict = run(root, "verify", "--strict")
    assert strict.exit_code == 1 and "vault.json:1:" in strict.stdout, strict.stdout


def test_g31_an_unclosed_quote_full_of_escapes_is_read_in_linear_time() -> None:
    """A quote never closed, then 20,000 `\\n` escapes beside a certificate's literal: the string
    reader is linear (it took 249 s with a backtracking pattern while this branch was written)."""
    data = b'x: "' + b"MIIabc\\n" * 20000
    started = time.monotonic()
    assert decoded_names.decoded_matches(data, [], [("web01.lab.example", "app01.lab.example")], []) == []
    assert time.monotonic() - started < 10
