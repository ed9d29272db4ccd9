"""DNS records created in another case outside the DNS file list (t32 round 25, finding 20): after
`hermes -> apollo`, Windows `Add-DnsServerResourceRecordA -Name "HERMES"`, a DHCP reservation's
`-Name "HERMES.lab.example"`, Terraform `dns_a_record_set { name = "HERMES" }` and a PowerDNS SQL
seed's `'HERMES.lab.example'` were near-misses only: sweep 0, plain verify OK. Each is a `dns-case`
residual now, nothing of it rewritten, plain verify fails; the same word where no record is created
stays a near-miss."""

from __future__ import annotations

import json
import shutil
import subprocess

from tests.testing.repos import CURRENT_ALL, Repo, Run

CONFIG = "version: 1\nrenames:\n  hosts: {hermes: apollo}\nallowlist: allow.yaml\n"
PS1 = ('\ufeffAdd-DnsServerResourceRecordA -ZoneName lab.example -Name "HERMES" -IPv4Address 10.0.0.70\r\n'
       "Add-DhcpServerv4Reservation -ScopeId 10.0.0.0 -IPAddress 10.0.0.70 -ClientId aa-bb-cc-dd-ee-ff "
       '-Name "HERMES.lab.example"\r\n'
       "Add-DnsServerResourceRecordCName -ZoneName lab.example -Name www -HostNameAlias Hermes.lab.example\r\n")
TF = ('resource "dns_a_record_set" "h" {\n  zone = "lab.example."\n  name = "HERMES"\n'
      '  addresses = ["10.0.0.70"]\n}\n'
      'resource "aws_route53_record" "www" {\n  zone_id = var.zone_id\n  name    = "www.lab.example"\n'
      '  type    = "CNAME"\n  records = ["Hermes.lab.example"]\n}\n')
SQL = ("INSERT INTO records (domain_id, name, type, content) VALUES (1, 'HERMES.lab.example', 'A', '10.0.0.70');\n"
       "-- caf\xe9\n").encode("latin-1")  # Latin-1


def test_record_names_in_another_case_are_dns_case_residuals(repo: Repo, run: Run) -> None:
    files: dict[str, str | bytes] = {"hosts": "hermes ansible_host=10.0.0.70\n", "dns.ps1": PS1, "dns.tf": TF,
                                     "seed.sql": SQL, "notes.ps1": 'Write-Host "HERMES is up"\n'}
    root = repo(files, config=CONFIG, allowlist=CURRENT_ALL)
    verify = run(root, "verify", "--format", "json")
    found = sorted((f["path"], f["line"]) for f in json.loads(verify.stdout)["findings"] if f["reason"] == "dns-case")
    assert found == [("dns.ps1", 1), ("dns.ps1", 2), ("dns.ps1", 3), ("dns.tf", 3), ("dns.tf", 10),
                     ("seed.sql", 1)], verify.stdout
    dry = run(root, "sweep", "--dry-run")
    assert "dns.ps1:1:" in dry.stdout and "seed.sql:1:" in dry.stdout and "dns-case" in dry.stdout, dry.stdout
    done = run(root, "sweep", "--commit")
    # a writing sweep does not list a residual of a file it does not write (so for vhost names too:
    # a gap named in the n27-nets report); the dry run above and verify below do
    assert done.exit_code in (0, 1), done.stdout + done.stderr
    assert (root / "hosts").read_text() == "apollo ansible_host=10.0.0.70\n"
    for rel in ("dns.ps1", "dns.tf", "seed.sql"):
        assert (root / rel).read_bytes() == (files[rel] if isinstance(files[rel], bytes)
                                             else str(files[rel]).encode()), rel
    checked = run(root, "verify")
    assert checked.exit_code == 1 and "dns.tf:3:" in checked.stdout and "dns-case" in checked.stdout
    assert "notes.ps1" not in "".join(line for line in checked.stdout.splitlines() if "residual" in line)
    if shutil.which("terraform"):  # the file still parses as HCL
        formatted = subprocess.run(["terraform", "fmt", "-check", "-"], input=TF, capture_output=True, text=True)
        assert formatted.returncode in (0, 3), formatted.stderr  # 3: would reformat, parsed
