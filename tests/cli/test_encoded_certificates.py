"""Certificates one decoding away from PEM, end to end through the CLI (issue 27 items 3 and 15,
round 23 finding 08).

A Kubernetes TLS Secret's `tls.crt` (base64 of a PEM naming web01.lab.example and 10.0.0.70), a
kubeconfig's `client-certificate-data` and a PKCS#12 bundle were never read nor listed, while the
Ingress beside the Secret moved to the new name and the same certificate as a `.pem` file was a
`certificate` residual. Now base64 of a PEM (told by `LS0tLS1CRUdJT`, on one line or wrapped over
lines) and of a DER certificate (a SAML metadata `<X509Certificate>`) is decoded and read as the PEM
is: a `certificate` residual at its line, never rewritten; a PKCS#12 whose certificates are in an
encrypted bag is "encrypted, not read". A certificate for another host, and a private key, stay
quiet. The certificates are made by the real openssl.
"""

from __future__ import annotations

import base64
import json
import subprocess
from pathlib import Path

from tests.testing.repos import CURRENT_ALL, Repo, Run

CONFIG = """\
version: 1
renames:
  hosts: {web01.lab.example: app01.lab.example}
  addresses: {10.0.0.70: 10.0.1.90}
allowlist: allow.yaml
"""


def _certificate(tmp: Path, name: str, san: str) -> tuple[bytes, bytes, Path, Path]:
    """(PEM, DER, certificate path, key path) of a self-signed certificate for `name`."""
    key, crt = tmp / f"{name}.key", tmp / f"{name}.crt"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                    "-keyout", str(key), "-out", str(crt), "-days", "30", "-subj", f"/CN={name}",
                    "-addext", f"subjectAltName={san}"], check=True, capture_output=True)
    der = subprocess.run(["openssl", "x509", "-in", str(crt), "-outform", "DER"], check=True,
                         capture_output=True).stdout
    return crt.read_bytes(), der, crt, key


def test_round23_08_a_certificate_in_base64_is_named(repo: Repo, run: Run, tmp_path: Path) -> None:
    pem, der, crt, key = _certificate(tmp_path, "web01.lab.example", "DNS:web01.lab.example,IP:10.0.0.70")
    other_pem, _, _, other_key = _certificate(tmp_path, "db01.lab.example", "DNS:db01.lab.example")
    b64 = base64.b64encode(pem).decode()
    wrapped = "\n".join("    " + b64[i:i + 76] for i in range(0, len(b64), 76))
    p12 = tmp_path / "web.p12"
    subprocess.run(["openssl", "pkcs12", "-export", "-in", str(crt), "-inkey", str(key), "-out", str(p12),
                    "-passout", "pass:x"], check=True, capture_output=True)
    files: dict[str, str | bytes] = {
        "ingress.yaml": ("apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: web}\nspec:\n"
                         "  tls: [{hosts: [web01.lab.example], secretName: web-tls}]\n---\n"
                         "apiVersion: v1\nkind: Secret\ntype: kubernetes.io/tls\nmetadata: {name: web-tls}\n"
                         f"data:\n  tls.crt: {b64}\n"
                         f"  tls.key: {base64.b64encode(key.read_bytes()).decode()}\n"),
        "kubeconfig": ("apiVersion: v1\nkind: Config\nusers:\n- name: admin\n  user:\n"
                       f"    client-certificate-data: {b64}\n"),
        "values.yaml": f"webhook:\n  caBundle: |\n{wrapped}\n  port: 443\n",  # wrapped over lines
        "idp-metadata.xml": ('<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata"><KeyDescriptor>\n'
                             f"<X509Certificate>{base64.b64encode(der).decode()}</X509Certificate>\n"
                             "</KeyDescriptor></EntityDescriptor>\n"),
        "web.p12": p12.read_bytes(),
        # quiet: another host's certificate, and a private key, in base64
        "db-secret.yaml": ("apiVersion: v1\nkind: Secret\ntype: kubernetes.io/tls\nmetadata: {name: db}\n"
                           f"data:\n  tls.crt: {base64.b64encode(other_pem).decode()}\n"
                           f"  tls.key: {base64.b64encode(other_key.read_bytes()).decode()}\n"),
    }
    root = repo(files, config=CONFIG, allowlist=CURRENT_ALL)
    before = {p: (root / p).read_bytes() for p in files if p != "ingress.yaml"}
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert "tls: [{hosts: [app01.lab.example]" in (root / "ingress.yaml").read_text()
    assert f"  tls.crt: {b64}\n" in (root / "ingress.yaml").read_text()  # signed bytes: never rewritten
    assert {p: (root / p).read_bytes() for p in before} == before
    strict = run(root, "verify", "--strict", "--format", "json")
    assert strict.exit_code == 1
    report = json.loads(strict.stdout)
    found = {(f["path"], f["line"], f["old"]) for f in report["findings"] if f["reason"] == "certificate"}
    assert found == {(path, line, old) for path, line in (("ingress.yaml", 12), ("kubeconfig", 6),
                                                          ("values.yaml", 3), ("idp-metadata.xml", 2))
                     for old in ("web01.lab.example", "10.0.0.70")}
    assert not [f for f in report["findings"] if f["path"] == "db-secret.yaml"]
    plain = run(root, "verify", "--strict")
    assert "Encrypted, not read (1 current-state file" in plain.stdout
    assert "  web.p12: a PKCS#12 bundle whose certificates are encrypted" in plain.stdout
