"""A full PTR owner whose record names its zone apart from the owner (t32 round 25, finding 19):
under `192.168.0.4 -> 192.168.10.4`, a PowerDNS SQL seed (`domain_id` 2, domain 2 being
0.168.192.in-addr.arpa in the file) and a Terraform `aws_route53_record` (`zone_id` of the rev zone)
had the owner rewritten to 4.10.168.192.in-addr.arpa inside the old zone, verify --strict OK. Each is a
`reverse-owner` residual now, nothing of the owner rewritten, verify fails; an owner with no zone
(dnsmasq `ptr-record=`) follows."""

from __future__ import annotations

import json
import shutil
import subprocess

from tests.testing.repos import CURRENT_ALL, Repo, Run

CONFIG = ("version: 1\nrenames:\n  hosts: {hermes.lab.example: apollo.lab.example}\n"
          "  addresses: {192.168.0.4: 192.168.10.4}\nallowlist: allow.yaml\n")
SQL = ("INSERT INTO domains (id, name, type) VALUES (1, 'lab.example', 'NATIVE'), "
       "(2, '0.168.192.in-addr.arpa', 'NATIVE');\n"
       "INSERT INTO records (domain_id, name, type, content, ttl) VALUES "
       "(1, 'hermes.lab.example', 'A', '192.168.0.4', 3600);\n"
       "INSERT INTO records (domain_id, name, type, content, ttl) VALUES "
       "(2, '4.0.168.192.in-addr.arpa', 'PTR', 'hermes.lab.example', 3600);\n")
ROUTE53 = ('resource "aws_route53_zone" "rev" {\n  name = "0.168.192.in-addr.arpa"\n}\n'
           'resource "aws_route53_record" "hermes_ptr" {\n  zone_id = aws_route53_zone.rev.zone_id\n'
           '  name    = "4.0.168.192.in-addr.arpa"\n  type    = "PTR"\n  ttl     = 300\n'
           '  records = ["hermes.lab.example"]\n}\n')
# variants of our own: the zone in another file (by reference only), an Ansible nsupdate task, CRLF
GOOGLE = ('resource "google_dns_record_set" "hermes_ptr" {\r\n  managed_zone = var.reverse_zone\r\n'
          '  name         = "4.0.168.192.in-addr.arpa."\r\n  type         = "PTR"\r\n  ttl          = 300\r\n'
          '  rrdatas      = ["hermes.lab.example."]\r\n}\r\n')
NSUPDATE = ("- name: PTR\n  community.general.nsupdate:\n    server: 127.0.0.1\n    zone: 0.168.192.in-addr.arpa.\n"
            "    record: 4.0.168.192.in-addr.arpa.\n    type: PTR\n    value: hermes.lab.example.\n")
DNSMASQ = "ptr-record=4.0.168.192.in-addr.arpa,hermes.lab.example\n"


def test_a_reverse_owner_tied_to_its_zone_is_a_residual(repo: Repo, run: Run) -> None:
    files = {"seed.sql": SQL, "ptr.tf": ROUTE53, "gcp/ptr.tf": GOOGLE, "ptr.yml": NSUPDATE,
             "dnsmasq.conf": DNSMASQ, "hosts": "hermes.lab.example ansible_host=192.168.0.4\n"}
    root = repo(files, config=CONFIG, allowlist=CURRENT_ALL)
    verify = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    found = sorted((f["path"], f["line"]) for f in verify if f.get("reason") == "reverse-owner")
    assert found == [("gcp/ptr.tf", 3), ("ptr.tf", 6), ("ptr.yml", 5), ("seed.sql", 3)], verify
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr  # written, the owners left
    for rel in ("seed.sql", "ptr.tf", "gcp/ptr.tf", "ptr.yml"):
        text = (root / rel).read_bytes().decode()
        assert "4.0.168.192.in-addr.arpa" in text and "4.10.168.192" not in text, rel
        assert "apollo.lab.example" in text and "hermes.lab.example" not in text, rel  # the PTR target follows
    assert (root / "dnsmasq.conf").read_text() == "ptr-record=4.10.168.192.in-addr.arpa,apollo.lab.example\n"
    checked = run(root, "verify")
    assert checked.exit_code == 1 and "seed.sql:3:" in checked.stdout and "reverse-owner" in checked.stdout
    if shutil.which("sqlite3"):  # the seed still loads
        schema = ("CREATE TABLE domains (id INT, name TEXT, type TEXT);"
                  "CREATE TABLE records (domain_id INT, name TEXT, type TEXT, content TEXT, ttl INT);")
        loaded = subprocess.run(["sqlite3", ":memory:"], input=schema + (root / "seed.sql").read_text() +
                                "SELECT count(*) FROM records;", capture_output=True, text=True, check=True)
        assert loaded.stdout.strip() == "2"


def test_noop_an_owner_its_zone_still_holds(repo: Repo, run: Run) -> None:
    config = CONFIG.replace("192.168.10.4", "192.168.0.5")
    root = repo({"seed.sql": SQL, "ptr.tf": ROUTE53}, config=config, allowlist=CURRENT_ALL)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert "'5.0.168.192.in-addr.arpa'" in (root / "seed.sql").read_text()
    assert '"5.0.168.192.in-addr.arpa"' in (root / "ptr.tf").read_text()
    assert run(root, "verify", "--strict").exit_code == 0
