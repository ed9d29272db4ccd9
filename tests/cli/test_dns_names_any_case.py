"""DNS names are case-insensitive (issue 27, item 4; adversarial pass 2, B-8).

In zone files, hosts files and dnsmasq or Unbound configuration, `ANA-ML2` is the host `ana-ml2`:
it is renamed in the case found (`FV-ML1`, `Fv-Ml1`). Everywhere else host names stay
case-sensitive, as DESIGN says: `ANA-ML2` in a script is a near-miss, not a rewrite."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

Repo = Callable[..., Path]
Run = Callable[..., Result]
CONFIG = """\
version: 1
renames:
  hosts: {ana-ml2: fv-ml1, ana-ml2.ana.lan: fv-ml1.fv.lan}
  addresses: {10.250.50.54: 10.251.50.54}
allowlist: allow.yaml
"""
ALLOW = "version: 1\ncurrent: ['**']\n"
# The zone is lab., not ana.lan.: under ana.lan. the relative owner ANA-ML2 *is* ana-ml2.ana.lan,
# which the FQDN rename takes out of the zone (a residual `zone-owner`: tests/cli/test_zone_names.py).
ZONE = ("$ORIGIN lab.\n$TTL 300\n@ IN SOA ns.lab. admin.lab. 7 7200 3600 1209600 3600\n"
        "  IN NS ns.lab.\nns IN A 10.250.0.53\n")


@pytest.mark.parametrize(("path", "content", "expected"), [
    pytest.param("db.ana.lan", ZONE + "ANA-ML2 IN A 10.250.50.54\nwww IN CNAME ANA-ML2.ana.lan.\n",
                 ZONE.replace(" 7 ", " 8 ") + "FV-ML1 IN A 10.251.50.54\nwww IN CNAME FV-ML1.fv.lan.\n",
                 id="b8-zone-upper-case"),
    pytest.param("zones/lab.zone", ZONE + "Ana-Ml2 IN A 10.250.50.54\nALIAS IN CNAME Ana-Ml2\n",
                 ZONE.replace(" 7 ", " 8 ") + "Fv-Ml1 IN A 10.251.50.54\nALIAS IN CNAME Fv-Ml1\n",
                 id="zone-capitalised"),
    pytest.param("etc/hosts", "127.0.0.1 localhost\n10.250.50.54 ANA-ML2 Ana-Ml2.ana.lan\n",
                 "127.0.0.1 localhost\n10.251.50.54 FV-ML1 Fv-Ml1.fv.lan\n", id="hosts-file"),
    pytest.param("dnsmasq.conf", "host-record=ANA-ML2,ANA-ML2.ANA.LAN,10.250.50.54\n",
                 "host-record=FV-ML1,FV-ML1.FV.LAN,10.251.50.54\n", id="dnsmasq-conf"),
    pytest.param("etc/dnsmasq.d/lab.conf", "cname=gpu,Ana-ML2\naddress=/ANA-ML2.ana.lan/10.250.50.54\n",
                 "cname=gpu,Fv-ML1\naddress=/FV-ML1.fv.lan/10.251.50.54\n", id="dnsmasq-drop-in-mixed"),
    pytest.param("unbound/lab.conf", 'local-data: "ANA-ML2.ana.lan. A 10.250.50.54"\n',
                 'local-data: "FV-ML1.fv.lan. A 10.251.50.54"\n', id="unbound-drop-in"),
    pytest.param("etc/hosts", "10.250.50.54 aNa-mL2\n", "10.251.50.54 fv-ml1\n", id="irregular-case-as-configured"),
    # break-it round 8, finding 11: a DHCP server's names are the names DDNS registers
    pytest.param("dhcpd.conf", 'host ANA-ML2 {\n  hardware ethernet 00:11:22:33:44:55;\n  fixed-address 10.250.50.54;\n'
                 '  option host-name "ANA-ML2";\n  ddns-hostname "Ana-Ml2";\n}\n',
                 'host FV-ML1 {\n  hardware ethernet 00:11:22:33:44:55;\n  fixed-address 10.251.50.54;\n'
                 '  option host-name "FV-ML1";\n  ddns-hostname "Fv-Ml1";\n}\n', id="r8-11-isc-dhcpd"),
    pytest.param("etc/dhcp/dhcpd6.conf", 'host ANA-ML2 { fixed-address6 fd00::5; option dhcp6.fqdn "ANA-ML2.ANA.LAN"; }\n',
                 'host FV-ML1 { fixed-address6 fd00::5; option dhcp6.fqdn "FV-ML1.FV.LAN"; }\n', id="isc-dhcpd6"),
    pytest.param("etc/dhcp/lab.conf", "host ANA-ML2 { fixed-address 10.250.50.54; }\n",
                 "host FV-ML1 { fixed-address 10.251.50.54; }\n", id="isc-dhcpd-include"),
    pytest.param("kea-dhcp4.conf", '{"Dhcp4": {"reservations": [{"hostname": "ANA-ML2", "ip-address": "10.250.50.54"}]}}\n',
                 '{"Dhcp4": {"reservations": [{"hostname": "FV-ML1", "ip-address": "10.251.50.54"}]}}\n',
                 id="r8-11-kea"),
    pytest.param("kea/kea-dhcp4.json", '{"Dhcp4": {"reservations": [{"hostname": "Ana-Ml2.ana.lan",\n'
                 '  "ip-address": "10.250.50.54"}]}}\n',
                 '{"Dhcp4": {"reservations": [{"hostname": "Fv-Ml1.fv.lan",\n  "ip-address": "10.251.50.54"}]}}\n',
                 id="kea-json"),
    pytest.param("etc/bind/named.conf.local", 'zone "lab" { type secondary; primaries { 10.250.50.54 key ANA-ML2; }; };\n',
                 'zone "lab" { type secondary; primaries { 10.251.50.54 key FV-ML1; }; };\n', id="named-conf"),
    pytest.param("Corefile", "lab {\n  hosts {\n    10.250.50.54 ANA-ML2.ana.lan\n  }\n}\n",
                 "lab {\n  hosts {\n    10.251.50.54 FV-ML1.fv.lan\n  }\n}\n", id="corefile"),
    pytest.param("dhcpd.conf", "host ANA-ML2-BMC { fixed-address 10.250.50.9; }\n",
                 "host ANA-ML2-BMC { fixed-address 10.250.50.9; }\n", id="dhcpd-boundaries-hold"),
    pytest.param("etc/hosts", "10.250.50.9 ANA-ML20 XANA-ML2 ANA-ML2-BMC\n",
                 "10.250.50.9 ANA-ML20 XANA-ML2 ANA-ML2-BMC\n", id="noop-boundaries-hold-in-any-case"),
])
def test_dns_names_match_in_any_case_and_keep_it(repo: Repo, run: Run, path: str, content: str,
                                                  expected: str) -> None:
    root = repo({path: content}, config=CONFIG, allowlist=ALLOW)
    changes = content != expected
    assert run(root, "verify").exit_code == (1 if changes else 0)
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert (root / path).read_text() == expected
    verify = json.loads(run(root, "verify", "--format", "json").stdout)
    assert verify["findings"] == []
    assert run(root, "sweep", "--commit").exit_code == 0  # a second sweep changes nothing
    assert (root / path).read_text() == expected


def test_the_b8_zone_loads_with_the_new_name_and_a_bumped_serial(repo: Repo, run: Run) -> None:
    root = repo({"db.ana.lan": ZONE + "ANA-ML2 IN A 10.250.50.54\n"}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    done = subprocess.run(["named-checkzone", "-D", "lab", str(root / "db.ana.lan")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "loaded serial 8" in done.stderr
    records = [line.split() for line in done.stdout.splitlines() if " IN A" in line]
    assert sorted((r[0].lower(), r[-1]) for r in records) == [("fv-ml1.lab.", "10.251.50.54"),
                                                              ("ns.lab.", "10.250.0.53")]


PATHS = ["scripts/run.sh", "README.md", "app.yaml", "notes.txt", "dhcpd.md", "app/kea.yaml", "dhcp/notes.txt"]


@pytest.mark.parametrize("path", PATHS)
def test_elsewhere_host_names_stay_case_sensitive(repo: Repo, run: Run, path: str) -> None:
    content = "ANA-ML2 is up\n\nssh 10.250.50.54\n"  # a blank line: the address's record holds no name
    root = repo({path: content}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / path).read_text() == "ANA-ML2 is up\n\nssh 10.251.50.54\n"
    verify = json.loads(run(root, "verify", "--format", "json").stdout)
    assert verify["findings"] == []
    assert [(m["text"], m["why"]) for m in verify["near_misses"]] == [("ANA-ML2", "case")]


@pytest.mark.parametrize("content", [
    pytest.param("ANA-ML2 at 10.250.50.54\n", id="same-line"),
    pytest.param("- {name: Ana-Ml2, ip: 10.250.50.54}\n", id="flow-record"),
    pytest.param("Host ANA-ML2\n  User x\n  HostName 10.250.50.54\n", id="ssh-stanza"),
])
@pytest.mark.parametrize("path", PATHS[:4])
def test_elsewhere_a_name_in_another_case_beside_its_address_holds_the_record(
        repo: Repo, run: Run, path: str, content: str) -> None:
    """Break-it round 8, finding 11 (B-8's fallback): outside the DNS files the name is not matched
    in another case, so the address moved alone, pairing the old name with the new address, and
    verify passed (a near-miss). Now both are a `case-record` residual, nothing of the record written,
    and verify fails before and after the sweep."""
    root = repo({path: content}, config=CONFIG, allowlist=ALLOW)
    checked = json.loads(run(root, "verify", "--format", "json").stdout)
    assert sorted(f["reason"] for f in checked["findings"]) == ["case-record", "case-record"], checked
    note = next(str(f["note"]) for f in checked["findings"])
    assert "in the record of 10.250.50.54" in note and "neither is written" in note, note
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / path).read_text() == content
    assert run(root, "verify").exit_code == 1


def test_the_dhcpd_reservation_and_its_ddns_name_move_together(repo: Repo, run: Run) -> None:
    """Break-it round 8, finding 11: the address moved while `PUG` stayed, and DDNS registered
    the old name at the new address; BIND's named.conf, read in any case too, still parses."""
    dhcpd = ('host PUG {\n  hardware ethernet 00:11:22:33:44:55;\n  fixed-address 10.250.50.54;\n'
             '  option host-name "PUG";\n}\n')
    named = ('key "ANA-ML2" { algorithm hmac-sha256; secret "c2VjcmV0"; };\n'
             'server 10.250.50.54 { keys { "ANA-ML2"; }; };\n')
    config = CONFIG.replace("{ana-ml2: fv-ml1,", "{ana-ml2: fv-ml1, pug: wolf,")
    root = repo({"dhcpd.conf": dhcpd, "named.conf": named}, config=config, allowlist=ALLOW)
    assert run(root, "verify").exit_code == 1
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "dhcpd.conf").read_text() == dhcpd.replace("PUG", "WOLF").replace("10.250", "10.251")
    assert "ANA-ML2" not in (root / "named.conf").read_text()
    checked = subprocess.run(["named-checkconf", str(root / "named.conf")], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    verify = json.loads(run(root, "verify", "--format", "json").stdout)
    assert verify["findings"] == [] and verify["near_misses"] == []


def test_a_file_path_in_a_dns_file_stays_case_sensitive(repo: Repo, run: Run) -> None:
    """Break-it round 9, finding 11: `filename "PUG/pxelinux.0"` became `WOLF/...` while the folder
    `tftp/PUG/` stayed (file names are case-sensitive), and CoreDNS's `file /etc/coredns/PUG.db`
    pointed at a file that does not exist. A path's part is matched in its own case, as
    elsewhere (a near-miss `case`); the DNS names beside it still move in any case, and a path
    spelled as configured still moves with its folder."""
    dhcpd = ('host PUG {\n  hardware ethernet 00:11:22:33:44:55;\n  fixed-address 10.250.50.54;\n'
             '  option host-name "PUG";\n  filename "PUG/pxelinux.0";\n  option root-path "PUG";\n}\n'
             'host pug-lo {\n  filename "pug/pxelinux.0";\n}\n'
             'host x {\n  filename "PUG.0";\n}\n')
    corefile = ". {\n  file /etc/coredns/PUG.db lab.\n  file Pug.db lan.\n  hosts {\n    10.250.50.54 PUG\n  }\n}\n"
    dnsmasq = ("dhcp-boot=PUG/pxelinux.0\naddress=/PUG.lab/10.250.50.54\n"
               "tftp-root=/srv/tftp/PUG\nhost-record=PUG,10.250.50.54\n")
    kea = '{"Dhcp4": {"reservations": [{"hostname": "PUG", "boot-file-name": "PUG/pxelinux.0"}]}}\n'
    config = CONFIG.replace("{ana-ml2: fv-ml1,", "{ana-ml2: fv-ml1, pug: wolf,")
    root = repo({"dhcpd.conf": dhcpd, "Corefile": corefile, "dnsmasq.conf": dnsmasq, "kea-dhcp4.json": kea,
                 "tftp/PUG/pxelinux.0": "x", "tftp/pug/pxelinux.0": "y"}, config=config, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "dhcpd.conf").read_text() == (
        'host WOLF {\n  hardware ethernet 00:11:22:33:44:55;\n  fixed-address 10.251.50.54;\n'
        '  option host-name "WOLF";\n  filename "PUG/pxelinux.0";\n  option root-path "PUG";\n}\n'
        'host pug-lo {\n  filename "wolf/pxelinux.0";\n}\n'
        'host x {\n  filename "PUG.0";\n}\n')
    assert (root / "Corefile").read_text() == (". {\n  file /etc/coredns/PUG.db lab.\n  file Pug.db lan.\n"
                                               "  hosts {\n    10.251.50.54 WOLF\n  }\n}\n")
    assert (root / "dnsmasq.conf").read_text() == ("dhcp-boot=PUG/pxelinux.0\naddress=/WOLF.lab/10.251.50.54\n"
                                                   "tftp-root=/srv/tftp/PUG\nhost-record=WOLF,10.251.50.54\n")
    assert json.loads((root / "kea-dhcp4.json").read_text())["Dhcp4"]["reservations"] == [
        {"hostname": "WOLF", "boot-file-name": "PUG/pxelinux.0"}]
    assert (root / "tftp/PUG/pxelinux.0").read_text() == "x" and (root / "tftp/wolf/pxelinux.0").read_text() == "y"
    verify = json.loads(run(root, "verify", "--format", "json").stdout)
    assert verify["findings"] == []
    assert {n["path"] for n in verify["near_misses"]} >= {"dhcpd.conf", "Corefile"}


@pytest.mark.parametrize(("path", "content"), [
    pytest.param(".env", "ANA_ML2=1\nANA-ML2=10.250.50.54\n", id="env-variable"),
    pytest.param("c.go", 'const ANA-ML2 = "10.250.50.54"\n', id="const"),
    pytest.param("run.sh", 'export ANA-ML2="10.250.50.54"\nssh ${ANA-ML2} $ANA-ML2\n', id="shell-variables"),
    pytest.param("app.py", 'ANA-ML2_HOST = "10.250.50.54"\n', id="identifier-prefix"),
    pytest.param("app.ini", "[app]\nname = ANA-ML2\n[db]\nhost = 10.250.50.54\n", id="other-ini-section"),
    pytest.param("app.yml", "log_prefix: ANA-ML2\nport: 80\nupstream: 10.250.50.54\n", id="top-level-yaml"),
    pytest.param("hosts.yml", "# ANA-ML2 (the big box)\n- 10.250.50.54\n", id="comment-over-item"),
    pytest.param("inv.yml", "- name: ANA-ML2\n  os: linux\n- name: rex\n  ip: 10.250.50.54\n", id="other-item"),
    pytest.param("ssh_config", "Host ANA-ML2\n  User x\nHost rex\n  HostName 10.250.50.54\n", id="other-stanza"),
])
def test_an_identifier_or_another_record_holds_no_address(repo: Repo, run: Run, path: str, content: str) -> None:
    """Break-it round 9, finding 13: code identifiers (`ANA-ML2=`, `const ANA-ML2`, `ANA-ML2_HOST`)
    held the address as `case-record`, and the record reached another INI section, the whole
    top-level YAML mapping, a comment over a list item. The record is what is certainly one: the
    address moves, the other spelling stays a near-miss."""
    root = repo({path: content}, config=CONFIG, allowlist=ALLOW)
    checked = json.loads(run(root, "verify", "--format", "json").stdout)
    assert [f["old"] for f in checked["findings"]] == ["10.250.50.54"], checked  # not swept yet: no case-record
    assert "case-record" not in {f["reason"] for f in checked["findings"]}, checked
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / path).read_text() == content.replace("10.250.50.54", "10.251.50.54")
    after = json.loads(run(root, "verify", "--format", "json").stdout)
    assert after["findings"] == [], after


@pytest.mark.parametrize("content", [
    pytest.param("[ANA-ML2]\naddress = 10.250.50.54\n", id="ini-section"),
    pytest.param("[srv]\nname = ANA-ML2\naddress = 10.250.50.54\n", id="ini-entry"),
    pytest.param("Host ANA-ML2\nHostName 10.250.50.54\n", id="ssh-unindented"),
    pytest.param("hosts:\n  - name: ANA-ML2\n    os: linux\n    ip: 10.250.50.54\n", id="list-item"),
    pytest.param("ANA-ML2:\n  ip: 10.250.50.54\n", id="parent-key"),
    pytest.param("db:\n  name: ANA-ML2\n  host: 10.250.50.54\n", id="nested-mapping"),
])
def test_one_small_record_still_holds_its_address(repo: Repo, run: Run, content: str) -> None:
    """The negatives of the narrowing: a small INI section, an ssh stanza, a list item, a key and
    its block are one record, both a `case-record` residual as before."""
    root = repo({"app.conf": content}, config=CONFIG, allowlist=ALLOW)
    checked = json.loads(run(root, "verify", "--format", "json").stdout)
    assert sorted(f["reason"] for f in checked["findings"]) == ["case-record", "case-record"], checked
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "app.conf").read_text() == content


def test_a_zone_quoted_in_a_markdown_page_keeps_the_page_rules(repo: Repo, run: Run) -> None:
    content = "# Lab\n\n    $ORIGIN ana.lan.\n    ANA-ML2 IN A 10.250.50.54\n\n    www IN A 10.250.50.54\n"
    root = repo({"docs/zone.md": content}, config=CONFIG, allowlist=ALLOW)
    # The page's rules: ANA-ML2 is not matched in another case. Beside it, its address is not moved
    # alone either (a `case-record` residual, break-it round 8, finding 11); the record apart is.
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "docs/zone.md").read_text() == content.replace("www IN A 10.250.50.54", "www IN A 10.251.50.54")
