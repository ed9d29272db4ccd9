"""t35 findings 02, 07, 08 and 20 (issue 27), end to end through the CLI on real git repos: an
uncompressed PDF is never rewritten (its /Length, xref offsets and startxref count bytes); RTF's
`\\'hh` and `\\uN?` escapes of an old value are `encoded` residuals; a Java `.properties`
continuation and a quoted-printable soft break that split an old value are `split` residuals; any
mix of zero-padded octets is a near-miss."""

from __future__ import annotations

import json
import shutil

from tests.testing.repos import git, snapshot

CONFIG = ("version: 1\nrenames:\n  hosts:\n    web01.lab.example: app01.example.net\n"
          "  addresses:\n    10.0.0.70: 10.0.1.90\nallowlist: allow.yaml\n")
ALLOW = "version: 1\ncurrent: ['**']\n"


def _pdf(text: bytes) -> bytes:
    """A valid uncompressed PDF (as `qpdf --qdf` writes them) whose one page shows `text`."""
    stream = b"BT /F1 12 Tf 72 720 Td (" + text + b") Tj ET"
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
               b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream"]
    out, offsets = b"%PDF-1.4\n", []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % at for at in offsets)
    return out + b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)


def test_an_uncompressed_pdf_is_never_rewritten_and_fails_strict(repo, run) -> None:
    pdf = _pdf(b"ssh web01.lab.example; ping 10.0.0.70")
    root = repo({"docs/runbook.pdf": pdf, "docs/Runbook.PDF": _pdf(b"web01.lab.example"),
                 "notes.txt": "see web01.lab.example\n"}, config=CONFIG, allowlist=ALLOW)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 0, swept.stdout
    assert (root / "docs/runbook.pdf").read_bytes() == pdf  # byte for byte: its counts still hold
    assert (root / "notes.txt").read_text() == "see app01.example.net\n"
    assert "docs/runbook.pdf (binary, 2)" in swept.stdout and "docs/Runbook.PDF (binary, 1)" in swept.stdout
    strict = run(root, "verify", "--strict")
    assert strict.exit_code == 1
    assert "2 current-state files skipped unread" in strict.stdout
    assert run(root, "verify").exit_code == 0  # listed, not a residual: the sweep cannot write it


def test_rtf_escapes_of_an_old_value_are_encoded_residuals(repo, run) -> None:
    rtf = ("{\\rtf1\\ansi\\f0 Primary: web01.lab.example at 10.0.0.70.\\par\n"
           "ssh web\\'30\\'31.lab.example, then ping 10.0.0.\\'37\\'30\\par\n"
           "failover: web\\u48?\\u49?.lab.example\\par\n"
           "wordpad: web01\\'2elab\\'2eexample\\par\n}\n")
    root = repo({"runbook.rtf": rtf}, config=CONFIG, allowlist=ALLOW)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 1, swept.stdout
    lines = (root / "runbook.rtf").read_text().splitlines()
    assert lines[0] == "{\\rtf1\\ansi\\f0 Primary: app01.example.net at 10.0.1.90.\\par"
    assert lines[1:] == rtf.splitlines()[1:]  # escaped spellings left for a person
    data = json.loads(run(root, "verify", "--format", "json").stdout)
    assert sorted((r["old"], r["reason"]) for r in data["findings"]) == [
        ("10.0.0.\\'37\\'30", "encoded"), ("web01\\'2elab\\'2eexample", "encoded"),
        ("web\\'30\\'31.lab.example", "encoded"), ("web\\u48?\\u49?.lab.example", "encoded")]


def test_properties_continuations_and_quoted_printable_soft_breaks_are_split(repo, run) -> None:
    files = {
        "src/main/resources/application.properties":
            "db.url=jdbc:postgresql://db/app\napp.upstream.host = web01.lab.\\\n    example\n"
            "app.upstream.ip = 10.0.\\\n\t0.70\nplain = web01.lab.example\n",
        "mail/welcome.eml": "MIME-Version: 1.0\nContent-Transfer-Encoding: quoted-printable\n\n"
                            "moved to web01.lab.exa=\nmple (10.0.0.=\n70).\n",
        "mail/crlf.eml": "Content-Transfer-Encoding: Quoted-Printable\r\n\r\nhost web01.lab=\r\n.example\r\n",
        # no quoted-printable part: a line-ending `=` joins nothing
        "app.env": "HOST_A=web01.lab.exa=\nmple\n",
    }
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 1, swept.stdout
    data = json.loads(run(root, "verify", "--format", "json").stdout)
    assert sorted((r["path"], r["line"], r["reason"]) for r in data["findings"]) == [
        ("mail/crlf.eml", 3, "split"), ("mail/welcome.eml", 4, "split"), ("mail/welcome.eml", 5, "split"),
        ("src/main/resources/application.properties", 2, "split"),
        ("src/main/resources/application.properties", 4, "split")]
    assert (root / "src/main/resources/application.properties").read_text().endswith(
        "plain = app01.example.net\n")
    assert "a Java `.properties` line" in run(root, "verify").stdout


def test_any_mix_of_zero_padded_octets_is_a_near_miss(repo, run) -> None:
    spellings = ["10.0.0.070", "10.000.000.070", "010.000.000.070", "10.0.000.070", "10.000.000.70",
                 "010.000.0.70", "10.00.0.70"]
    root = repo({"acl.conf": "".join(f"allow {s}\n" for s in spellings) + "allow 10.0.0.700\n"},
                config=CONFIG, allowlist=ALLOW)
    data = json.loads(run(root, "verify", "--format", "json").stdout)
    assert sorted(m["text"] for m in data["near_misses"] if m["why"] == "zero-padded") == sorted(spellings)
    assert run(root, "verify", "--strict").exit_code == 1
    before = snapshot(root)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert snapshot(root) == before and git(root, "status", "--porcelain") == ""  # nothing rewritten


KEEP_CONFIG = ("version: 1\nrenames:\n  hosts:\n    web01: app01\n  addresses:\n    10.0.0.70: 10.0.1.90\n"
               "allowlist: allow.yaml\n")


def test_a_keep_rule_a_rename_would_leave_behind_refuses_the_sweep(repo, run) -> None:
    """t35 finding 21: the rule names the file by its old path (literally, or by a glob the new
    name does not match): the sweep refuses, nothing written; a rule naming both lets it pass."""
    files = {"host_vars/web01.yml": "ansible_host: 10.0.0.70\nprevious_name: web01\n",
             "inventory/web01.ini": "[db]\nweb01 legacy=web01\n"}
    for paths in ("host_vars/web01.yml", "host_vars/web0*.yml"):
        allow = ("version: 1\ncurrent: ['**']\nkeep:\n  - name: previous-name\n"
                 f"    path: {paths}\n    line_contains: previous_name\n    reason: CMDB matches it\n")
        root = repo(files, config=KEEP_CONFIG, allowlist=allow)
        before = snapshot(root)
        swept = run(root, "sweep", "--commit")
        assert swept.exit_code == 3, swept.stdout + swept.stderr
        assert ("host_vars/web01.yml: renaming it to host_vars/app01.yml would leave keep rule previous-name "
                "(allow.yaml:") in swept.stdout + swept.stderr
        assert snapshot(root) == before and git(root, "status", "--porcelain") == ""
        shutil.rmtree(root)
    allow = ("version: 1\ncurrent: ['**']\nkeep:\n  - name: previous-name\n"
             "    paths: [host_vars/web01.yml, host_vars/app01.yml]\n    line_contains: previous_name\n"
             "    reason: CMDB matches it\n")
    root = repo(files, config=KEEP_CONFIG, allowlist=allow)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "host_vars/app01.yml").read_text() == "ansible_host: 10.0.1.90\nprevious_name: web01\n"
    assert run(root, "verify").exit_code == 0
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "host_vars/app01.yml").read_text() == "ansible_host: 10.0.1.90\nprevious_name: web01\n"


def test_a_symlink_out_of_the_repo_naming_an_old_host_fails_strict(repo, run) -> None:
    """t35 finding 18: listed as skipped, holding old values; now counted by `verify --strict`."""
    root = repo({"nginx/site.conf": "server_name web01;\n"}, config=KEEP_CONFIG,
                allowlist="version: 1\ncurrent: ['**']\n", commit=False)
    (root / "nginx/sites-enabled").mkdir()
    (root / "nginx/sites-enabled/default").symlink_to("/etc/nginx/sites-available/web01.conf")
    (root / "nginx/cert.pem").symlink_to("/srv/certs/web01/fullchain.pem")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "links")
    assert run(root, "sweep", "--commit").exit_code == 0
    strict = run(root, "verify", "--strict")
    assert strict.exit_code == 1
    assert "2 current-state files skipped unread" in strict.stdout
    assert "nginx/cert.pem (symlink, 1)" in strict.stdout
    assert run(root, "verify").exit_code == 0
