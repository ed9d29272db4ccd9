"""t36 findings 13, 14 and 15 (issue 27), end to end through the CLI on real git repos: a line folded
by a leading blank (LDIF, iCalendar, vCard) is read unfolded and rewritten with its folds kept in
place; an LDIF `attr::` base64 value is decoded, rewritten re-encoded and refolded at its tool's width;
a JWT whose payload names an old value is a `signed-token` residual (never rewritten: it is signed).
Each swept file is unfolded here as its reader unfolds it (python-ldap's LDIF parser is not available:
RFC 2849 and RFC 5545 say how) and compared with the expected logical lines."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re

from tests.testing.repos import git

CONFIG = ("version: 1\nrenames:\n  hosts:\n    web01.lab.example: webapp01.prod.example\n"
          "  addresses:\n    10.0.0.70: 10.0.1.190\nallowlist: allow.yaml\n")
ALLOW = "version: 1\ncurrent: ['**']\n"


def _ldif_unfold(text: str) -> list[str]:
    return re.sub(r"\r?\n ", "", text).splitlines()


def _ical_unfold(text: str) -> list[str]:
    return re.sub(r"\r?\n[ \t]", "", text).splitlines()


def _fold(line: str, width: int) -> str:
    """A line folded as python-ldap's LDIFWriter and ldapsearch fold it: `width` bytes a line."""
    out, rest = [line[:width]], line[width:]
    while rest:
        out.append(" " + rest[:width - 1])
        rest = rest[width - 1:]
    return "\n".join(out)


def test_folded_lines_are_read_unfolded_and_rewritten_folded(repo, run) -> None:
    ldif = ("dn: cn=web,ou=hosts,dc=lab,dc=example\nobjectClass: ipHost\ncn: web\n"
            "ipHostNumber: 10.0.0.7\n 0\nlabeledURI: http://web01.lab.ex\n ample/ the web front end\n"
            "description: " + "x" * 50 + " see https://web01.lab.example:8443/ and 10.0.0.70 too\n")
    ldif_folded = ldif.replace(ldif.splitlines()[-1], _fold(ldif.splitlines()[-1], 76))
    ics = ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nSUMMARY:patch night\r\n"
           "LOCATION:ssh://web01.la\r\n b.example\r\nDESCRIPTION:ping 10.0.\r\n\t0.70 first\r\n"
           "END:VEVENT\r\nEND:VCALENDAR\r\n")
    vcf = "BEGIN:VCARD\nVERSION:3.0\nFN:web team\nURL:https://web01.lab.exam\n ple/contact\nEND:VCARD\n"
    other = "dn: cn=db,dc=lab\ncn: db\nipHostNumber: 10.0.0.7\n 1\nlabeledURI: http://xweb01.lab.ex\n ample/\n"
    root = repo({"ldap/hosts.ldif": ldif_folded, "cal/on-call.ics": ics, "cal/team.vcf": vcf,
                 "ldap/export.txt": ldif_folded, "ldap/db.ldif": other},
                config=CONFIG, allowlist=ALLOW)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 0, swept.stdout
    for rel in ("ldap/hosts.ldif", "ldap/export.txt"):  # by name, and by its first line
        text = (root / rel).read_text()
        assert _ldif_unfold(text) == [line.replace("web01.lab.example", "webapp01.prod.example")
                                      .replace("10.0.0.70", "10.0.1.190") for line in _ldif_unfold(ldif)]
        # the tool's folding kept where it was: the first physical line of the folded one, 76 bytes
        assert _fold(_ldif_unfold(ldif)[-1], 76).splitlines()[0] in text.splitlines()
    unfolded = _ical_unfold((root / "cal/on-call.ics").read_bytes().decode())
    assert "LOCATION:ssh://webapp01.prod.example" in unfolded and "DESCRIPTION:ping 10.0.1.190 first" in unfolded
    assert "\r\n\t" in (root / "cal/on-call.ics").read_bytes().decode()  # its own fold kept (a TAB, CRLF)
    assert "URL:https://webapp01.prod.example/contact" in _ical_unfold((root / "cal/team.vcf").read_text())
    # 10.0.0.71 and xweb01.lab.example are other values, unfolded too: left as they were
    assert (root / "ldap/db.ldif").read_text() == other
    verified = run(root, "verify", "--strict")
    assert verified.exit_code == 0, verified.stdout


def test_mime_header_folds_keep_their_blank_and_join_no_name(repo, run) -> None:
    eml = "From: a@b\nSubject: host web01.lab.ex\n ample down\n\nbody\n"  # RFC 5322 keeps the blank
    root = repo({"mail/alert.eml": eml}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "mail/alert.eml").read_text() == eml


def test_ldif_base64_values_are_decoded_rewritten_and_refolded(repo, run) -> None:
    def b64(text: str) -> str:
        return base64.b64encode(text.encode()).decode()

    long_value = "web front end at http://web01.lab.example/ (" + "é" * 40 + ") and ssh 10.0.0.70"
    long_line = _fold("description:: " + b64(long_value), 76)
    ldif = ("version: 1\n\ndn: cn=web,ou=hosts,dc=lab,dc=example\ncn: web\n"
            f"labeledURI:: {b64('http://web01.lab.example/ ')}\nipHostNumber:: {b64(' 10.0.0.70')}\n"
            f"{long_line}\nuserCertificate;binary:: {b64('')}AAEC\n")
    photo = base64.b64encode(bytes([0xFF, 0xD8]) + b"web01.lab.example" + bytes([0xFF])).decode()
    binary = f"dn: cn=x,dc=lab\njpegPhoto:: {photo}\n"
    root = repo({"ldap/hosts.ldif": ldif, "ldap/photo.ldif": binary}, config=CONFIG, allowlist=ALLOW)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 1, swept.stdout  # the photo's bytes: a residual, never rewritten
    assert (root / "ldap/photo.ldif").read_text() == binary
    text = (root / "ldap/hosts.ldif").read_text()
    values = {}
    for line in _ldif_unfold(text):
        if ":: " in line:
            attr, value = line.split(":: ", 1)
            values[attr] = base64.b64decode(value)
    assert values["labeledURI"] == b"http://webapp01.prod.example/ "
    assert values["ipHostNumber"] == b" 10.0.1.190"
    expected = long_value.replace("web01.lab.example", "webapp01.prod.example").replace("10.0.0.70", "10.0.1.190")
    assert values["description"].decode() == expected
    # refolded at the width it was folded at: every physical line of it but the last 76 bytes
    assert _fold("description:: " + b64(expected), 76) in text
    verified = run(root, "verify")
    assert verified.exit_code == 1
    assert "ldap/photo.ldif" in verified.stdout and "(encoded)" in verified.stdout
    assert "ldap/hosts.ldif" not in verified.stdout


def _jwt(payload: dict[str, object], header: dict[str, object] | None = None) -> str:
    def part(raw: bytes) -> str:
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
    head = part(json.dumps(header or {"alg": "HS256", "typ": "JWT"}).encode())
    body = part(json.dumps(payload).encode())
    signature = part(hmac.new(b"secret", f"{head}.{body}".encode(), hashlib.sha256).digest())
    return f"{head}.{body}.{signature}"


def test_a_jwt_naming_the_old_host_is_a_signed_token_residual(repo, run) -> None:
    token = _jwt({"iss": "https://web01.lab.example", "aud": ["api", "https://10.0.0.70:8443"], "sub": "deploy"})
    unsigned = _jwt({"iss": "web01.lab.example"}, {"alg": "none"}).rsplit(".", 1)[0] + "."
    other = _jwt({"iss": "https://xweb01.lab.example", "aud": "10.0.0.7"})
    jws = json.dumps({"payload": _jwt({"aud": "web01.lab.example"}).split(".")[1], "protected": "eyJhbGciOiJFUzI1NiJ9",
                      "signature": "abc"})
    files = {"env/deploy.env": f"DEPLOY_TOKEN={token}\n",
             "k8s/kubeconfig": f"apiVersion: v1\nkind: Config\nusers:\n- name: ci\n  user:\n    token: {token}\n",
             "scripts/call.sh": f"curl -H 'Authorization: Bearer {unsigned}' https://api/\n",
             "acme/account.json": jws + "\n", "env/other.env": f"TOKEN={other}\n"}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 1, swept.stdout
    for rel, text in files.items():
        assert (root / rel).read_text() == text  # signed bytes: never rewritten
    verified = run(root, "verify", "--format", "json")
    assert verified.exit_code == 1
    residuals = json.loads(verified.stdout)["findings"]
    named = {(r["path"], r["old"]) for r in residuals if r.get("reason") == "signed-token"}
    assert named == {("env/deploy.env", "web01.lab.example"), ("env/deploy.env", "10.0.0.70"),
                     ("k8s/kubeconfig", "web01.lab.example"), ("k8s/kubeconfig", "10.0.0.70"),
                     ("scripts/call.sh", "web01.lab.example"), ("acme/account.json", "web01.lab.example")}
    assert token not in verified.stdout  # a credential is never printed
    assert "`iss`" in run(root, "verify").stdout
    git(root, "log", "-1")
