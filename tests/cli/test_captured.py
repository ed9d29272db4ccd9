"""The new value under patterns written for other machines (issue 27, t35 finding 01): `web01 -> db03`
puts the web server under `hosts: "db*"`, an earlier ssh `Host db*` block, a relabel keep-regex;
`10.0.0.70 -> 10.0.2.70` under an earlier `-s 10.0.2.64/28 -j DROP`. Each is a `captured` residual
before the sweep writes, and verify fails on it until a person decides (a keep rule, the inline
marker, or the pattern changed). ssh and ansible themselves say what the swept files mean."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

CONFIG = "version: 1\nrenames:\n  hosts: {web01: db03}\n  addresses: {10.0.0.70: 10.0.2.70}\nallowlist: allow.yaml\n"
ALLOW = "version: 1\ncurrent: ['**']\n"
INVENTORY = "[web]\nweb01 ansible_host=10.0.0.70\n[db]\ndb01 ansible_host=10.0.2.11\ndb02 ansible_host=10.0.2.12\n"
SSH = "Host db*\n  User postgres\n  ProxyJump bastion-db\nHost web01\n  User deploy\n"
FILES = {
    "hosts.ini": INVENTORY,
    "site.yml": '- hosts: "db*"\n  roles: [postgresql]\n- hosts: web\n  roles: [nginx]\n',
    "ssh_config": SSH,
    "fw.sh": "#!/bin/sh\niptables -A INPUT -s 10.0.2.64/28 -j DROP   # quarantine\n"
             "iptables -A INPUT -s 10.0.0.70 -p tcp --dport 443 -j ACCEPT\n",
    "prom.yml": "scrape_configs:\n- job_name: postgres\n  relabel_configs:\n  - source_labels: [__address__]\n"
                "    regex: \"db0[0-9].*\"\n    action: keep\n",
}
BIN = Path(sys.executable).parent


def _ssh(root: Path, host: str) -> list[str]:
    shown = subprocess.run(["ssh", "-G", "-F", str(root / "ssh_config"), host], capture_output=True, text=True,
                           check=True, stdin=subprocess.DEVNULL).stdout
    return [line for line in shown.splitlines() if line.split(" ")[0] in ("user", "proxyjump")]


def _ansible_hosts(root: Path, pattern: str) -> list[str]:
    shown = subprocess.run([str(BIN / "ansible"), "-i", str(root / "hosts.ini"), pattern, "--list-hosts"],
                           capture_output=True, text=True, check=True, cwd=root, stdin=subprocess.DEVNULL,
                           env={"PATH": f"{BIN}:/usr/bin:/bin", "ANSIBLE_LOCAL_TEMP": str(root.parent / "tmp"),
                                "HOME": str(root.parent)}).stdout
    return sorted(line.strip() for line in shown.splitlines()[1:] if line.strip())


def test_the_new_name_under_others_patterns_is_a_residual(repo: Callable[..., Path],
                                                          run: Callable[..., Result]) -> None:
    root = repo(FILES, config=CONFIG, allowlist=ALLOW)
    assert _ssh(root, "web01") == ["user deploy"]  # before: the web server's own block
    dry = json.loads(run(root, "verify", "--format", "json").stdout)
    found = sorted((f["path"], f["line"]) for f in dry["findings"] if f["reason"] == "captured")
    expected = [("fw.sh", 2), ("prom.yml", 5), ("site.yml", 1), ("ssh_config", 1)]
    assert found == expected
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 1, swept.stdout + swept.stderr
    for place in ("fw.sh:2:22", "prom.yml:5:13", "site.yml:1:11", "ssh_config:1:6"):
        assert f"{place}: " in swept.stdout and "(captured: " in swept.stdout, swept.stdout
    assert "`db*` matches db03 and not web01" in swept.stdout
    assert "10.0.2.64/28 holds 10.0.2.70 and not 10.0.0.70" in swept.stdout
    # what the tools read now: the residuals are real
    assert _ssh(root, "db03") == ["user postgres", "proxyjump bastion-db"]
    assert _ansible_hosts(root, "db*") == ["db01", "db02", "db03"]
    verify = run(root, "verify")
    assert verify.exit_code == 1 and "captured" in verify.stdout
    assert run(root, "verify", "--strict").exit_code == 1


def test_a_keep_rule_or_the_marker_decides_it(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files = {"ssh_config": SSH.replace("Host db*\n", "Host db*  # renamer: keep (db03 joins the db fleet)\n"),
             "site.yml": '- hosts: "db*"\n  roles: [postgresql]\n', "hosts.ini": INVENTORY}
    allow = ALLOW + "keep:\n  - {name: db-play, path: site.yml, line_contains: 'db*', reason: db03 is a db}\n"
    root = repo(files, config=CONFIG, allowlist=allow)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 0, swept.stdout + swept.stderr
    assert run(root, "verify", "--strict").exit_code == 0
    audit = json.loads(run(root, "audit", "--format", "json").stdout)
    kept = sorted((r["path"], r["line"], r["reason"]) for r in audit["references"])
    assert kept == [("site.yml", 1, "db-play"), ("ssh_config", 1, "inline")]


@pytest.mark.parametrize("files", [
    pytest.param({"ssh_config": "Host *\n  ServerAliveInterval 30\nHost web01\n  User deploy\n"},
                 id="ssh-star-matches-both"),
    pytest.param({"ssh_config": "Host db1*\n  User x\nHost web01\n  User deploy\n"}, id="matches-neither"),
    pytest.param({"fw.sh": "iptables -A INPUT -s 10.0.0.0/16 -j ACCEPT\niptables -A INPUT -s 10.0.0.70 -j ACCEPT\n"},
                 id="a-network-holding-both"),
    pytest.param({"net.yaml": "address: 10.0.2.1/24\nhost: 10.0.0.70\n"}, id="an-interface-no-rule"),
    # Patterns spelling the old value in full, which the sweep rewrites in their own escape style:
    # after it they spell the new value, the machine's own pattern, never one for other machines.
    pytest.param({"alerts.yml": 'expr: up{instance=~"10[.]0[.]0[.]70:9100"} == 0\n'}, id="bracket-dots-swept"),
    pytest.param({"prom.yml": 'regex: "10\\\\.0\\\\.0\\\\.70:.*"\n'}, id="backslash-dots-swept"),
    pytest.param({"site.yml": '- hosts: "~web01(\\.lab)?$"\n'}, id="ansible-regex-swept"),
])
def test_noop_what_the_new_value_does_not_newly_fall_under(files: dict[str, str], repo: Callable[..., Path],
                                                          run: Callable[..., Result]) -> None:
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 0, swept.stdout + swept.stderr
    assert "captured" not in swept.stdout
    assert run(root, "verify", "--strict").exit_code == 0


@pytest.mark.parametrize("rel, text, line", [
    pytest.param("nginx.conf", "location /admin {\n  deny 10.0.2.0/24;\n  allow 10.0.0.70;\n}\n", 2, id="nginx-deny"),
    pytest.param("policy.yaml", "spec:\n  ingress:\n  - from:\n    - ipBlock:\n        cidr: 10.0.0.0/16\n"
                 "        except:\n        - 10.0.2.0/25\n", 7, id="networkpolicy-except"),
    pytest.param("inventory.yml", "all:\n  children:\n    db:\n      hosts:\n        db[01:02]:\n"
                 "  vars:\n    pattern: ~db0\\d\n", 7, id="ansible-regex-host-pattern"),
    pytest.param("alerts.yml", "- alert: DBDown\n  expr: up{instance=~\"db0[1-9]:9100\"} == 0\n", 2,
                 id="promql-regex"),
])
def test_other_tools_and_spellings(rel: str, text: str, line: int, repo: Callable[..., Path],
                                   run: Callable[..., Result]) -> None:
    root = repo({rel: text}, config=CONFIG, allowlist=ALLOW)
    verify = json.loads(run(root, "verify", "--format", "json").stdout)
    assert [(f["path"], f["line"]) for f in verify["findings"] if f["reason"] == "captured"] == [(rel, line)]


def test_an_inventory_range_the_new_name_joins(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """`db[01:05]` already names db03: after `web01 -> db03` the web server is in the db group too
    (ansible says so); a `captured` residual at the range."""
    inventory = "[web]\nweb01 ansible_host=10.0.0.70\n[db]\ndb[01:05]\n"
    root = repo({"hosts.ini": inventory}, config=CONFIG, allowlist=ALLOW)
    assert _ansible_hosts(root, "db") == ["db01", "db02", "db03", "db04", "db05"]
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 1 and "hosts.ini:4:1: " in swept.stdout, swept.stdout
    assert "`db[01:05]` names db03 and not web01" in swept.stdout
    assert "db03" in _ansible_hosts(root, "web") and "db03" in _ansible_hosts(root, "db")
    assert run(root, "verify").exit_code == 1


# t36 findings 01-03: sets decided with no glob syntax (captured_forms.py), and SPF's networks
T36_FILES = {
    "hosts.ini": "[web]\nweb01 ansible_host=10.0.0.70\n[db]\ndb01\n",
    "rsyslog/50-db.conf": ':hostname, startswith, "db" /var/log/db.log\n& stop\n',
    "rsyslog/60-ip.conf": "if $fromhost-ip startswith '10.0.2.' then stop\n",
    "haproxy/haproxy.cfg": "frontend f\n  acl is_db hdr_beg(host) -i db\n  use_backend pg if is_db\n",
    "tcpw/hosts.deny": "ALL: 10.0.2.\n",
    "apache/acl.conf": "<Location />\n  Require not ip 10.0.2\n  Require all granted\n</Location>\n",
    "mysql/grants.sql": "GRANT ALL ON prod.* TO 'dba'@'db%';\nGRANT SELECT ON prod.* TO 'ro'@'10.0.2.%';\n",
    "ansible/site.yml": '- hosts: all\n  tasks:\n    - include_role: {name: postgres}\n'
                        '      when: inventory_hostname.startswith("db")\n',
    "tf/main.tf": 'locals {\n  dbs = [for h in var.hosts : h if startswith(h, "db")]\n}\n',
}
T36_PLACES = ["ansible/site.yml:4:44", "apache/acl.conf:2:18", "haproxy/haproxy.cfg:2:30", "mysql/grants.sql:1:31",
              "mysql/grants.sql:2:33", "rsyslog/50-db.conf:1:25", "rsyslog/60-ip.conf:1:29", "tcpw/hosts.deny:1:6",
              "tf/main.tf:2:51"]


def test_prefix_like_and_partial_sets_the_new_value_joins(repo: Callable[..., Path],
                                                           run: Callable[..., Result]) -> None:
    root = repo(T36_FILES, config=CONFIG, allowlist=ALLOW)
    verify = json.loads(run(root, "verify", "--format", "json").stdout)
    found = sorted(f"{f['path']}:{f['line']}:{f['column']}" for f in verify["findings"] if f["reason"] == "captured")
    assert found == T36_PLACES
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 1, swept.stdout + swept.stderr
    for place in T36_PLACES:
        assert f"{place}: " in swept.stdout, swept.stdout
    assert "db03 passes the match test `db` (a prefix) and web01 did not" in swept.stdout
    assert "the SQL host mask `10.0.2.%`" in swept.stdout
    assert run(root, "verify", "--strict").exit_code == 1


POOL_CONFIG = "version: 1\nrenames:\n  addresses: {10.0.0.70: 10.0.1.150}\nallowlist: allow.yaml\n"


@pytest.mark.parametrize("rel, text, line", [
    pytest.param("dhcp/dhcpd.conf", "subnet 10.0.1.0 netmask 255.255.255.0 {\n  range 10.0.1.100 10.0.1.200;\n"
                 "  option routers 10.0.1.1;\n}\n", 2, id="isc-dhcpd"),
    pytest.param("kea/kea-dhcp4.conf", '{"Dhcp4": {"subnet4": [{"id": 1, "subnet": "10.0.1.0/24",\n'
                 '  "pools": [{"pool": "10.0.1.100 - 10.0.1.200"}]}]}}\n', 2, id="kea"),
    pytest.param("k8s/pool.yaml", "apiVersion: metallb.io/v1beta1\nkind: IPAddressPool\nmetadata:\n  name: lan\n"
                 "spec:\n  addresses:\n    - 10.0.1.140-10.0.1.160\n", 7, id="metallb-range"),
    pytest.param("k8s/cidr.yaml", "apiVersion: metallb.io/v1beta1\nkind: IPAddressPool\nmetadata:\n  name: lan\n"
                 "spec:\n  addresses:\n    - 10.0.1.128/26\n", 7, id="metallb-cidr"),
    pytest.param("k8s/kubevip.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kubevip\ndata:\n"
                 "  range-global: 10.0.1.140-10.0.1.160\n", 6, id="kube-vip"),
    pytest.param("dnsmasq/lan.conf", "dhcp-range=10.0.1.100,10.0.1.200,12h\n", 1, id="dnsmasq-no-reservation"),
])
def test_a_static_host_moved_into_a_pool(rel: str, text: str, line: int, repo: Callable[..., Path],
                                         run: Callable[..., Result]) -> None:
    root = repo({rel: text, "hosts.ini": "web01 ansible_host=10.0.0.70\n"}, config=POOL_CONFIG, allowlist=ALLOW)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 1, swept.stdout + swept.stderr
    assert f"{rel}:{line}:" in swept.stdout and "(captured: " in swept.stdout, swept.stdout
    assert "10.0.1.150 passes the address" in swept.stdout
    verify = json.loads(run(root, "verify", "--format", "json").stdout)
    assert [(f["path"], f["line"]) for f in verify["findings"] if f["reason"] == "captured"] == [(rel, line)]


def test_a_dnsmasq_reservation_beside_its_range_is_no_conflict(repo: Callable[..., Path],
                                                              run: Callable[..., Result]) -> None:
    conf = "dhcp-range=10.0.1.100,10.0.1.200,12h\ndhcp-host=aa:bb:cc:dd:ee:01,web01,10.0.0.70\n"
    root = repo({"dnsmasq/lan.conf": conf, "hosts.ini": "web01 ansible_host=10.0.0.70\n"},
                config=POOL_CONFIG, allowlist=ALLOW)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 0, swept.stdout + swept.stderr
    assert "dhcp-host=aa:bb:cc:dd:ee:01,web01,10.0.1.150" in (root / "dnsmasq/lan.conf").read_text()
    checked = subprocess.run(["dnsmasq", "--test", "-C", str(root / "dnsmasq/lan.conf")], capture_output=True,
                             text=True, check=False)
    assert "syntax check OK" in checked.stdout + checked.stderr
    assert run(root, "verify", "--strict").exit_code == 0


SPF_CONFIG = "version: 1\nrenames:\n  addresses: {10.0.0.70: 10.0.1.90}\nallowlist: allow.yaml\n"
ZONE = ("$ORIGIN lab.example.\n$TTL 300\n@ IN SOA ns1 hostmaster 2025030101 3600 600 86400 300\n@ IN NS ns1\n"
        "ns1 IN A 10.0.0.53\n@ IN MX 10 mail\n@ IN TXT \"v=spf1 ip4:10.0.0.64/28 -all\"\nmail IN A 10.0.0.70\n")


@pytest.mark.parametrize("rel, text, line", [
    pytest.param("zones/lab.example.zone", ZONE, 7, id="zone-txt"),
    pytest.param("tf/dns.tf", 'resource "cloudflare_record" "spf" {\n  type    = "TXT"\n'
                 '  content = "v=spf1 ip4:10.0.0.64/28 include:_spf.google.com -all"\n}\n', 3, id="terraform"),
    pytest.param("dns.yaml", "records:\n  - name: '@'\n    type: TXT\n    value: \"v=spf1 mx ~ip4:10.0.0.64/26 ~all\"\n",
                 4, id="octodns-softfail"),
])
def test_a_mail_host_that_leaves_its_spf_network(rel: str, text: str, line: int, repo: Callable[..., Path],
                                                 run: Callable[..., Result]) -> None:
    root = repo({rel: text, "hosts.ini": "mail ansible_host=10.0.0.70\n"}, config=SPF_CONFIG, allowlist=ALLOW)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 1, swept.stdout + swept.stderr
    assert f"{rel}:{line}:" in swept.stdout and "(access-set: " in swept.stdout, swept.stdout
    assert "ip4:10.0.0" in (root / rel).read_text()  # the rule is the operator's to decide, not rewritten
    if rel.endswith(".zone"):
        checked = subprocess.run(["named-checkzone", "lab.example", str(root / rel)], capture_output=True,
                                 text=True, check=False)
        assert checked.returncode == 0 and "mail IN A 10.0.1.90" in (root / rel).read_text(), checked.stdout
    assert run(root, "verify").exit_code == 1


def test_a_mail_host_moved_into_an_spf_network_it_was_not_in(repo: Callable[..., Path],
                                                             run: Callable[..., Result]) -> None:
    # the other direction: a `-ip4:` (fail) network now takes the moved host in: `captured`
    text = "@ IN TXT \"v=spf1 -ip4:10.0.1.0/24 ip4:10.0.0.0/16 -all\"\n"
    root = repo({"spf.txt": text, "hosts.ini": "mail ansible_host=10.0.0.70\n"}, config=SPF_CONFIG, allowlist=ALLOW)
    verify = json.loads(run(root, "verify", "--format", "json").stdout)
    assert [(f["path"], f["line"]) for f in verify["findings"] if f["reason"] == "captured"] == [("spf.txt", 1)]


def test_the_other_direction_sets_the_old_value_leaves(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    # t36 finding 01, both directions: the same spellings written for the old value are `pattern`
    files = {"hosts.ini": "web01 ansible_host=10.0.0.70\n",
             "rs.conf": ':hostname, startswith, "web" /var/log/web.log\n',
             "h.cfg": "frontend f\n  acl w hdr_beg(host) -i web\n",
             "g.sql": "GRANT ALL ON p.* TO 'app'@'web%';\nGRANT ALL ON p.* TO 'app'@'10.0.0.%';\n",
             "hosts.allow": "sshd: 10.0.0.\n", "a.conf": "<Location />\n  Require ip 10.0.0\n</Location>\n"}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 1, swept.stdout + swept.stderr
    verify = json.loads(run(root, "verify", "--format", "json").stdout)
    found = sorted((f["path"], f["line"]) for f in verify["findings"] if f["reason"] == "pattern")
    assert found == [("a.conf", 2), ("g.sql", 1), ("g.sql", 2), ("h.cfg", 2), ("hosts.allow", 1), ("rs.conf", 1)]
    assert "web01 passed the SQL host mask `web%`" in swept.stdout
    assert (root / "hosts.allow").read_text() == "sshd: 10.0.0.\n"  # decided by a person, not rewritten


@pytest.mark.parametrize("rel, text", [
    pytest.param("a.py", 'if host.startswith("web01"):\n    pass\n', id="python-startswith"),
    pytest.param("b.py", 'if addr.startswith("10.0.0.70"):\n    pass\n', id="python-startswith-address"),
    pytest.param("haproxy.cfg", "  acl is_web hdr_beg(host) -i web01\n", id="haproxy-hdr-beg"),
    pytest.param("metallb.yaml", "spec:\n  addresses:\n  - 10.0.0.70-10.0.0.70\n", id="a-pool-of-one"),
    pytest.param("grants.sql", "GRANT ALL ON *.* TO 'app'@'10.0.0.70';\n", id="mysql-host"),
])
def test_noop_a_set_the_sweep_rewrote_names_the_machine_itself(rel: str, text: str, repo: Callable[..., Path],
                                                              run: Callable[..., Result]) -> None:
    # The sweep rewrites an exact spelling wherever it stands, inside a prefix test or a range too:
    # afterwards the set names the new value in full, held the old machine before as it holds the
    # new one now, and verify says OK (it failed on every such sweep when captured_forms came in).
    root = repo({rel: text}, config=CONFIG, allowlist=ALLOW)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 0, swept.stdout + swept.stderr
    assert "db03" in (root / rel).read_text() or "10.0.2.70" in (root / rel).read_text()
    verify = run(root, "verify", "--strict")
    assert verify.exit_code == 0, verify.stdout


def test_a_pool_starting_at_the_new_address_still_hands_out_the_rest(repo: Callable[..., Path],
                                                                    run: Callable[..., Result]) -> None:
    root = repo({"metallb.yaml": "spec:\n  addresses:\n  - 10.0.2.70-10.0.2.90\n", "hosts.ini": INVENTORY},
                config=CONFIG, allowlist=ALLOW)
    verify = run(root, "verify", "--format", "json")
    found = [(f["path"], f["reason"]) for f in json.loads(verify.stdout)["findings"]]
    assert ("metallb.yaml", "captured") in found, found
