"""t36 finding 05 (issue 27), end to end through the CLI: a longer new name that makes a length-
limited DNS field overflow is refused before any write (exit 3, file:line and the reason), never
written: a TXT record's character-string past 255 bytes (named-checkzone said OK before and
"syntax error" after: BIND refused the whole zone), an SPF value written as one string in
Terraform or octoDNS, a zone's label past 63. A value that still fits is rewritten, and
named-checkzone still loads the zone."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.testing.repos import git, snapshot

ALLOW = "version: 1\ncurrent: ['**']\n"


def _config(old: str, new: str, options: str = "") -> str:
    return f"version: 1\nrenames:\n  hosts:\n    {old}: {new}\nallowlist: allow.yaml\n{options}"


def _spf(size: int, host: str = "web01.lab.example") -> str:
    """An SPF string naming `host`, padded to exactly `size` bytes."""
    head, tail = f"v=spf1 a:{host} ", " -all"
    pad = " ".join(f"ip4:10.9.{i}.0/24" for i in range(40))
    body = (pad[: size - len(head) - len(tail)]).rstrip(" ")
    while len(head + body + tail) < size:
        body += "1" if body.endswith("/2") else " "
        body = body.replace("  ", " ")
    return head + body[: size - len(head) - len(tail)] + tail


def _zone(txt: str, extra: str = "") -> str:
    return ("$ORIGIN lab.example.\n$TTL 300\n@ IN SOA ns1 hostmaster 2025030101 3600 600 86400 300\n"
            "@ IN NS ns1\nns1 IN A 10.0.0.53\n" + txt + "web01 IN A 10.0.0.70\n" + extra)


def _checkzone(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["named-checkzone", "lab.example", str(path)], capture_output=True, text=True,
                          check=False)


NEW = "webapp-frontend-01.lab.example"


def test_a_txt_string_grown_past_255_refuses_the_sweep(repo, run) -> None:
    spf = _spf(255)
    assert len(spf) == 255
    files = {
        "zones/lab.example.zone": _zone(f'@ IN TXT "{spf}"\n'),  # the report's
        # variants: a record split over lines in parentheses (the second string grows), the
        # obsolete SPF type unquoted-free, an nsupdate script, Terraform and octoDNS values
        "zones/mail.lab.example.zone": _zone(f'mail 300 IN TXT ( "v=spf1 -all"  ; first\n    "{spf}" )\n'),
        "nsupdate/spf.txt": f'server 127.0.0.1\nupdate add lab.example. 300 TXT "{spf}"\nsend\n',
        "dns.tf": ('resource "aws_route53_record" "spf" {\n  zone_id = "Z1"\n  name    = "lab.example"\n'
                   f'  type    = "TXT"\n  ttl     = 300\n  records = ["{spf}"]\n}}\n'),
        "ansible/spf.yml": (f"- amazon.aws.route53:\n    zone: lab.example\n    record: lab.example\n"
                            f"    type: TXT\n    value: '\"{spf}\"'\n"),
    }
    root = repo(files, config=_config("web01.lab.example", NEW), allowlist=ALLOW)
    assert _checkzone(root / "zones/lab.example.zone").returncode == 0
    head, before = git(root, "rev-parse", "HEAD"), snapshot(root)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 3, swept.stderr  # before: 0, every file written
    assert snapshot(root) == before and git(root, "rev-parse", "HEAD") == head
    said = swept.stderr
    assert said.startswith("renamer: error: a new name is longer than 5 places it lands in can hold: ")
    assert "Traceback" not in said
    for where, why in [("zones/lab.example.zone:6", "bytes in one TXT string here; a TXT character-string holds 255"),
                       ("zones/mail.lab.example.zone:7", "a TXT character-string holds 255 bytes"),
                       ("nsupdate/spf.txt:2", "a TXT character-string holds 255 bytes"),
                       ("dns.tf:6", "a TXT record's string holds 255 bytes"),
                       ("ansible/spf.yml:5", "a TXT record's string holds 255 bytes")]:
        assert f"{where}: name-limit: v=spf1 a:webapp-frontend-01.lab.example" in said, (where, said)
        assert why in said.split(f"{where}: name-limit: ")[1], (where, said)
        assert "would be 268 bytes in one TXT string" in said.split(f"{where}: name-limit: ")[1]
    checked = run(root, "verify")
    assert checked.exit_code == 1  # before: OK
    assert "residual (name-limit)" in checked.stdout


def test_a_txt_string_that_still_fits_is_rewritten_and_the_zone_loads(repo, run) -> None:
    spf = _spf(255 - len(NEW) + len("web01.lab.example"))  # 255 once renamed
    files = {"zones/lab.example.zone": _zone(f'@ IN TXT "{spf}"\n', 'ilo IN TXT "web01.lab.example oob"\n'),
             "dns.tf": f'resource "x" "y" {{\n  records = ["{_spf(300)}"]\n}}\n'}  # longer before: no word
    root = repo(files, config=_config("web01.lab.example", NEW), allowlist=ALLOW)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 0, swept.stderr
    assert "name-limit" not in swept.stdout + swept.stderr
    text = (root / "zones/lab.example.zone").read_text()
    assert f'"{spf.replace("web01.lab.example", NEW)}"' in text and len(spf.replace("web01.lab.example", NEW)) == 255
    loaded = _checkzone(root / "zones/lab.example.zone")
    assert loaded.returncode == 0, loaded.stdout + loaded.stderr
    assert run(root, "verify").exit_code == 0


def test_a_zone_name_grown_past_253_refuses_the_sweep(repo, run) -> None:
    new = ".".join(["a" * 60, "b" * 60, "c" * 60, "d" * 45]) + ".lab.example"  # 240: a valid name
    assert len(new) == 240
    zone = _zone("", "_acme-challenge.web01.lab.example. IN TXT \"token\"\n"
                 "www IN CNAME web01.lab.example.\n")
    root = repo({"zones/lab.example.zone": zone, "notes.md": "_acme-challenge.web01.lab.example.\n"},
                config=_config("web01.lab.example", new, "options:\n  subdomains: follow\n"), allowlist=ALLOW)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 3, swept.stderr  # before: 0, a zone that no longer loads
    assert (root / "zones/lab.example.zone").read_text() == zone
    said = swept.stderr
    assert "zones/lab.example.zone:7: name-limit: _acme-challenge.aaaa" in said
    assert "would be 256 bytes here; a DNS name holds 253 bytes (RFC 1035 2.3.4)" in said
    assert "zones/lab.example.zone:8" not in said  # `web01.lab.example.` itself: 240, rewritten
    assert "notes.md" not in said  # prose is no zone


def test_a_long_value_where_its_consumer_splits_it_or_only_documents_it_is_written(repo, run) -> None:
    """t37-break, finding 07: octoDNS splits a TXT value into 255-byte strings itself, Cloudflare's
    API takes 2,048 bytes and Azure DNS 1,024, and a README loads nowhere: the sweep refused all of
    them, exit 3. Route 53 (above) and zone files keep the limit."""
    spf = _spf(255)
    files = {
        "octodns/lab.example.yaml": f"'':\n  type: TXT\n  value: {spf}\n",
        "dns/records.yaml": f"mail:\n  - type: SPF\n    values:\n      - {spf}\n",  # octoDNS's shape, any folder
        "cf.tf": f'resource "cloudflare_record" "spf" {{\n  type    = "TXT"\n  content = "{spf}"\n}}\n',
        "cf5.tf": f'resource "cloudflare_dns_record" "spf" {{\n  type    = "TXT"\n  content = "{spf}"\n}}\n',
        "az.tf": f'resource "azurerm_dns_txt_record" "spf" {{\n  record {{\n    value = "{spf}"\n  }}\n}}\n',
        "README.md": f"Our SPF record:\n\n`{spf}`\n",
        "docs/mail.rst": f"The record is ``{spf}``.\n",
    }
    root = repo(files, config=_config("web01.lab.example", NEW), allowlist=ALLOW)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 0, swept.stderr
    for rel, text in files.items():
        assert (root / rel).read_text() == text.replace("web01.lab.example", NEW), rel
    assert run(root, "verify", "--strict").exit_code == 0
