"""DNS names written as a zone and a relative name by more tools (break-it round 16, finding 5).

With `pug.ana.lan -> wolf.fv.lan`, DNSControl's `A("pug", ...)` inside `D("ana.lan", ...)`, an
nsupdate / hetzner task's `record: pug` beside `zone: ana.lan`, NixOS's `networking.hostName`
beside `networking.domain`, dhcpd's `host pug { }` under `option domain-name`, and a Route53
record in a zone named ana.lan were each rewritten alone (publishing wolf.ana.lan), verify OK.
Now each is a `composed-name` residual, the word left as it is; where the domain stays, it follows.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import PUG_ALLOW as ALLOW
from tests.testing.repos import PUG_CONFIG as CONFIG

SAME_DOMAIN = CONFIG.replace("pug.ana.lan: wolf.fv.lan", "pug.ana.lan: wolf.ana.lan")

# The finding's six (repro/06.sh), each with the line the word stands on.
FINDING = {
    "dns/dnsconfig.js": ('var REG_NONE = NewRegistrar("none");\nvar BIND = NewDnsProvider("bind");\n'
                         'D("ana.lan", REG_NONE, DnsProvider(BIND),\n  A("pug", "10.0.40.11"),\n'
                         '  CNAME("grafana", "pug")\n);\n', [4, 5]),
    "playbooks/dns.yml": ("- hosts: localhost\n  tasks:\n    - community.general.nsupdate:\n"
                          "        server: 10.0.0.53\n        zone: ana.lan\n        record: pug\n"
                          "        value: 10.0.40.11\n    - community.dns.hetzner_dns_record_set:\n"
                          "        zone_name: ana.lan\n        prefix: pug\n        type: A\n", [6, 10]),
    "nixos/configuration.nix": ('{ ... }: {\n  networking.hostName = "pug";\n  networking.domain = "ana.lan";\n}\n',
                                [2]),
    "dhcp/dhcpd.conf": ('option domain-name "ana.lan";\nddns-update-style standard;\nhost pug {\n'
                        '  hardware ethernet 52:54:00:aa:bb:cc;\n  ddns-hostname "pug";\n}\n', [3, 5]),
    "tf/dns.tf": ('resource "aws_route53_zone" "lan" {\n  name = "ana.lan"\n}\n'
                  'resource "aws_route53_record" "www" {\n  zone_id = aws_route53_zone.lan.zone_id\n'
                  '  name    = "pug"\n  type    = "A"\n  records = ["10.0.40.11"]\n}\n', [6]),
}

# Variants of each spelling (the file, its text, the lines held).
VARIANTS = {
    "dnscontrol-variable": ("dns/a.js", 'var DOMAIN = "ana.lan";\nD(DOMAIN, REG, DnsProvider(P),\n'
                                        '  MX("@", 10, "pug"),\n  AAAA("pug", "2001:db8::1")\n);\n', [3, 4]),
    "dnscontrol-tag": ("dns/b.js", 'D("ana.lan!internal", REG,\n  A("pug", "10.0.40.11")\n);\n', [2]),
    "dnscontrol-extend": ("dns/c.js", "D_EXTEND('ana.lan',\n  A('pug', '10.0.40.11')\n);\n", [2]),
    "cloudflare-flow": ("play/cf.yml", "- community.general.cloudflare_dns: {zone: ana.lan, record: pug, "
                                       "type: A, value: 10.0.40.11}\n", [1]),
    "nsupdate-key-value": ("play/kv.yml", "- nsupdate: server=ns1 zone=ana.lan record=pug value=10.0.40.11\n",
                           [1]),
    "ipa-dnsrecord": ("play/ipa.yml", "- community.general.ipa_dnsrecord:\n    record_name: pug\n"
                                      "    zone_name: ana.lan.\n    record_type: A\n", [2]),
    "win-dns-record": ("play/win.yml", "- community.windows.win_dns_record:\n    name: \"pug\"\n"
                                       "    zone: ana.lan\n    type: A\n", [2]),
    "ansible-zone-variable": ("play/var.yml", "- community.general.nsupdate:\n    zone: \"{{ dns_zone }}\"\n"
                                              "    record: pug\n", [3]),
    "nixos-block": ("nixos/b.nix", '{\n  networking = {\n    hostName = "pug";\n    domain = "ana.lan";\n  };\n}\n',
                    [3]),
    "dhcpd-scope": ("dhcp/scoped.conf", 'subnet 10.0.40.0 netmask 255.255.255.0 {\n'
                                        '  option domain-name "ana.lan";\n  host rex {\n'
                                        '    option host-name "pug";\n  }\n}\n', [4]),
    "route53-zone-in-another-file": ("tf2/records.tf", 'resource "aws_route53_record" "a" {\n'
                                                       "  zone_id = data.aws_route53_zone.lan.zone_id\n"
                                                       '  name    = "pug"\n}\n', [3]),
    "digitalocean-literal": ("tf3/do.tf", 'resource "digitalocean_record" "a" {\n  domain = "ana.lan"\n'
                                          '  name   = "pug"\n}\n', [3]),
    "cloudflare-variable-default": ("tf4/cf.tf", 'variable "zone" {\n  default = "ana.lan"\n}\n'
                                                 'resource "cloudflare_record" "a" {\n  zone_id = var.zone\n'
                                                 '  name    = "pug"\n}\n', [6]),
    "hetznerdns-unknown-zone": ("tf5/h.tf", 'resource "hetznerdns_record" "a" {\n  zone_id = var.zone_id\n'
                                            '  name    = "pug"\n}\n', [3]),
    "route53-zone-id-literal": ("tf7/r.tf", 'resource "aws_route53_record" "a" {\n  zone_id = "Z0123456789ABC"\n'
                                            '  name    = "pug"\n}\n', [3]),
    # break-it round 19, #10: OPNsense / pfSense host overrides, `hostname:`/`host:` beside `domain:`
    "opnsense-flow": ("play/opn.yml", "- ansibleguy.opnsense.unbound_host: {hostname: pug, domain: ana.lan, "
                                      "value: 10.0.40.11}\n", [1]),
    "opnsense-block": ("play/opnb.yml", "- name: block style\n  ansibleguy.opnsense.unbound_host:\n"
                                        "    hostname: pug\n    domain: ana.lan\n    value: 10.0.40.11\n", [3]),
    "pfsense-flow-two-items": ("play/pf.yml", "- pfsensible.core.pfsense_dns_resolver: {hosts: [{host: pug, domain: "
                                              "ana.lan, ip: 10.0.40.11}, {host: rex, domain: ana.lan, ip: 10.0.40.12}]}\n",
                               [1]),
    "pfsense-block-item": ("play/pfb.yml", "- pfsensible.core.pfsense_dns_resolver:\n    hosts:\n"
                                          "      - host: rex\n        domain: ana.lan\n"
                                          "      - host: pug\n        domain: ana.lan\n        ip: 10.0.40.11\n",
                           [5]),
    "vars-hostname-domain": ("group_vars/lab.yml", "unbound_overrides:\n  - domain: \"ana.lan\"\n"
                                                   "    hostname: \"pug\"\n", [3]),
}
OTHER_FILES = {"tf2/zone.tf": 'data "aws_route53_zone" "lan" {\n  name = "ana.lan."\n}\n'}

# No composition with a zone the move breaks: the plain rules, the word follows.
NEGATIVES = {
    "another-zone": ("dns/other.js", 'D("example.com", REG,\n  A("pug", "203.0.113.5")\n);\n'),
    "nix-no-domain": ("nixos/n.nix", '{\n  networking.hostName = "pug";\n}\n'),
    "not-a-domain-zone": ("play/k8s.yml", "topology:\n  zone: us-east-1a\n  name: pug\n"),
    "compute-instance": ("tf6/vm.tf", 'resource "google_compute_instance" "a" {\n  zone = var.zone\n'
                                      '  name = "pug"\n}\n'),
    "commented-domain": ("dhcp/c.conf", '# option domain-name "ana.lan";\nhost pug {\n}\n'),
    "opnsense-another-domain": ("play/o.yml", "- ansibleguy.opnsense.unbound_host: {hostname: pug, domain: "
                                              "example.com, value: 203.0.113.5}\n"),
    "domain-no-dns-name": ("play/d.yml", "ldap:\n  domain: WORKGROUP\n  host: pug\n"),
    "domain-in-another-item": ("play/i.yml", "overrides:\n  - host: pug\n    port: 80\n  - domain: ana.lan\n"
                                             "    value: x\n"),
}


def _held(root: Path, run: Callable[..., Result]) -> set[tuple[str, int]]:
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    return {(str(f["path"]), int(f["line"])) for f in found if f.get("reason") == "composed-name"}


def test_round16_a_relative_record_name_is_held_where_the_domain_moves(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({path: text for path, (text, _) in FINDING.items()}, config=CONFIG, allowlist=ALLOW)
    assert _held(root, run) == {(path, line) for path, (_, lines) in FINDING.items() for line in lines}
    assert run(root, "sweep", "--commit").exit_code == 1
    assert 'A("pug", "10.1.0.5")' not in (root / "dns/dnsconfig.js").read_text()  # not this address
    assert 'A("pug"' in (root / "dns/dnsconfig.js").read_text()
    assert 'CNAME("grafana", "pug")' in (root / "dns/dnsconfig.js").read_text()
    assert "record: pug" in (root / "playbooks/dns.yml").read_text()
    assert "prefix: pug" in (root / "playbooks/dns.yml").read_text()
    assert 'hostName = "pug"' in (root / "nixos/configuration.nix").read_text()
    assert "host pug {" in (root / "dhcp/dhcpd.conf").read_text()
    assert 'ddns-hostname "pug"' in (root / "dhcp/dhcpd.conf").read_text()
    assert 'name    = "pug"' in (root / "tf/dns.tf").read_text()
    assert run(root, "verify").exit_code == 1


@pytest.mark.parametrize("case", sorted(VARIANTS))
def test_round16_variants_are_held(case: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    path, text, lines = VARIANTS[case]
    root = repo({path: text, **OTHER_FILES}, config=CONFIG, allowlist=ALLOW)
    assert _held(root, run) == {(path, line) for line in lines}
    before = (root / path).read_text()
    assert run(root, "sweep", "--commit").exit_code == 1
    after = (root / path).read_text()
    assert "wolf" not in after and after.count("pug") == before.count("pug")


def test_round16_where_the_domain_stays_the_word_follows(repo: Callable[..., Path],
                                                         run: Callable[..., Result]) -> None:
    files = {path: text for path, (text, _) in FINDING.items()}
    files.update({path: text for path, text, _ in VARIANTS.values()})  # an unread zone too: no domain moves
    root = repo({**files, **OTHER_FILES}, config=SAME_DOMAIN, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    for path in files:
        text = (root / path).read_text()
        assert "pug" not in text and "wolf" in text, path
    assert run(root, "verify").exit_code == 0


@pytest.mark.parametrize("case", sorted(NEGATIVES))
def test_round16_no_zone_the_move_breaks_leaves_the_plain_rules(case: str, repo: Callable[..., Path],
                                                                 run: Callable[..., Result]) -> None:
    path, text = NEGATIVES[case]
    root = repo({path: text}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    after = (root / path).read_text()
    assert "wolf" in after and "pug" not in after.replace("# option", "")
    assert run(root, "verify").exit_code == 0


def test_round16_words_an_earlier_sweep_rewrote_alone_fail_verify(repo: Callable[..., Path],
                                                                   run: Callable[..., Result]) -> None:
    files = {path: text.replace('"pug"', '"wolf"').replace(": pug", ": wolf").replace("host pug", "host wolf")
             for path, (text, _) in FINDING.items()}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert "pug" not in "".join(files.values())
    held = _held(root, run)
    assert {path for path, _ in held} == set(FINDING)
    assert run(root, "verify").exit_code == 1
