"""sweep/record_case: an old name in another case where a file creates a DNS record outside the DNS
file list (Windows DNS/DHCP cmdlets, Terraform record resources, PowerDNS rows; t32 round 25, finding
20); pure logic, the sweep end to end is tests/cli/test_record_case.py's."""

from __future__ import annotations

import pytest

from renamer.sweep.record_case import REASON, record_case_matches

HOSTS = [("hermes", "apollo"), ("db01.lab.example", "db02.lab.example")]


def _reasons(text: str) -> list[tuple[str, str | None]]:
    return [(m.old, m.refused) for m in record_case_matches(text.encode(), [], HOSTS)]


@pytest.mark.parametrize(("text", "old"), [
    ('Add-DnsServerResourceRecordA -ZoneName lab.example -Name "HERMES" -IPv4Address 10.0.0.70\n', "HERMES"),
    ("Add-DnsServerResourceRecordCName -ZoneName lab.example -Name www -HostNameAlias Hermes.lab.example\r\n",
     "Hermes"),
    ("Add-DhcpServerv4Reservation -ScopeId 10.0.0.0 -IPAddress 10.0.0.70 -Name 'HERMES.lab.example'\n", "HERMES"),
    ("Remove-DnsServerResourceRecord -ZoneName lab.example -RRType A -Name DB01.LAB.EXAMPLE -Force\n",
     "DB01.LAB.EXAMPLE"),
    ('resource "dns_a_record_set" "h" {\n  zone = "lab.example."\n  name = "HERMES"\n}\n', "HERMES"),
    ('resource "aws_route53_record" "h" {\n  zone_id = var.z\n  name = "Hermes.lab.example"\n'
     '  records = ["10.0.0.70"]\n}\n', "Hermes"),
    ('resource "cloudflare_record" "h" {\n  content = "DB01.lab.example"\n}\n', "DB01.lab.example"),
    ("INSERT INTO records (domain_id, name, type, content)\r\nVALUES (1, 'HERMES.lab.example', 'A', '10.0.0.70'),\r\n"
     "       (1, 'www.lab.example', 'CNAME', 'HERMES.lab.example');\r\n", "HERMES"),
])
def test_a_record_name_in_another_case_is_a_dns_case_residual(text: str, old: str) -> None:
    found = _reasons(text)
    assert found and all(reason == REASON for _, reason in found) and found[0][0] == old, found


@pytest.mark.parametrize("text", [
    'Write-Host "HERMES is up"\n',  # no record created
    'Add-DnsServerResourceRecordA -ZoneName lab.example -Name "HERMESX" -IPv4Address 10.0.0.70\n',  # another name
    'resource "aws_instance" "h" {\n  tags = { Name = "HERMES" }\n}\n',  # no DNS resource
    'resource "dns_a_record_set" "h" {\n  name = "x"\n}\nlocals { n = "HERMES" }\n',  # after the block
    "INSERT INTO comments (body) VALUES ('HERMES rebooted');\n",  # another table
    "Add-DnsServerResourceRecordA -ZoneName lab.example -Name www.HERMES -IPv4Address 10.0.0.70\n",  # a subdomain
])
def test_noop_what_creates_no_record_of_the_old_name(text: str) -> None:
    assert _reasons(text) == []
