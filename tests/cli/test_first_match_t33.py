"""First-match and longest-match exclusions a shrink makes cover their whole network (t33-33 findings
22, 18, 08, 11), end to end on real git repos through the CLI. Each failed on main before: sweep 0,
every address of the new network denied (or routed away), verify OK. No router OS, cloud API or
PostgreSQL is installed: the lists are read first-match in Python (ipaddress), the way the tool reads
them; routes go through `ip route` in a fresh network namespace where `unshare -rn` works."""

from __future__ import annotations

import ipaddress
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.testing.repos import Run, make_repo, snapshot
from tests.testing.unprivileged import shared_folder

ALLOW = 'version: 1\ncurrent: ["**"]\n'


def _repo(tmp: Path, files: dict[str, str], networks: str) -> Path:
    config = f"version: 1\nrenames:\n  networks: {{{networks}}}\nallowlist: allow.yaml\n"
    return make_repo(Path(tempfile.mkdtemp(dir=tmp)) / "repo", files, config=config, allowlist=ALLOW)


def _net(address: str, mask: str | None = None) -> ipaddress.IPv4Network | ipaddress.IPv6Network:
    if mask is None:
        return ipaddress.ip_network(address)
    value = int(ipaddress.IPv4Address(mask))
    if not value >> 31:
        value ^= 0xFFFFFFFF
    return ipaddress.ip_network(f"{address}/{bin(value).count('1')}")


def _first_match(text: str, address: str) -> str:
    """The action of the first ACL entry whose source holds `address` (Cisco/ASA/EOS syntax)."""
    here = ipaddress.ip_address(address)
    for m in re.finditer(r"(deny|permit)\s+(?:ipv6|ip)\s+([0-9a-f:.]+/\d+|[0-9.]+\s+[0-9.]+)", text):
        if here.version == (net := _net(*m[2].split())).version and here in net:
            return m[1]
    return "none"


# -- 22: router ACLs ---------------------------------------------------------------------------------

ACLS = {
    "ios.cfg": "access-list 110 deny   ip 10.0.48.0 WILD_PART any\naccess-list 110 permit ip 10.0.48.0 WILD any\n"
               "ipv6 access-list V6\n deny ipv6 2001:db8:a::/56 any\n permit ipv6 2001:db8:a::/48 any\n",
    "asa.cfg": "access-list OUT extended deny ip 10.0.48.0 MASK_PART any\n"
               "access-list OUT extended permit ip 10.0.48.0 MASK any\n",
    "eos.cfg": "ip access-list LAN\n   10 deny ip 10.0.48.0/PART any\n   20 permit ip 10.0.48.0/OLD any\n",
    "junos.conf": "firewall {\n    family inet {\n        filter LAN {\n            term printers {\n"
                  "                from {\n                    source-address {\n                        "
                  "10.0.48.0/PART;\n                    }\n                }\n                then discard;\n"
                  "            }\n            term lan {\n                from {\n                    source-address "
                  "{\n                        10.0.48.0/OLD;\n                    }\n                }\n"
                  "                then accept;\n            }\n        }\n    }\n}\n",
    "calico.yaml": "apiVersion: projectcalico.org/v3\nkind: GlobalNetworkPolicy\nspec:\n  ingress:\n"
                   "    - action: Deny\n      source:\n        nets: [10.0.48.0/PART]\n    - action: Allow\n"
                   "      source:\n        nets: [10.0.48.0/OLD]\n",
}


def _acls(old: int, part: int) -> dict[str, str]:
    def mask(length: int) -> str:
        return str(ipaddress.ip_network(f"0.0.0.0/{length}").netmask)

    def wild(length: int) -> str:
        return str(ipaddress.ip_network(f"0.0.0.0/{length}").hostmask)

    swaps = {"WILD_PART": wild(part), "WILD": wild(old), "MASK_PART": mask(part), "MASK": mask(old),
             "PART": str(part), "OLD": str(old)}
    files = {}
    for name, text in ACLS.items():
        for key, value in swaps.items():
            text = text.replace(key, value)
        files[name] = text
    return files


def test_router_acls_a_shrink_makes_deny_the_whole_network_refuse(run: Run, tmp_path: Path) -> None:
    """/24 -> /25 in place (the finding), /23 -> /24, and /24 -> /25 moved to 10.0.60.0 (the deny
    lands on the new network by offset): IOS (wildcards, and an IPv6 list under /48 -> /56), ASA
    (masks), EOS (sequence numbers), JunOS (brace form): refused at each deny, nothing written."""
    for old, new, part in (("10.0.48.0/24", "10.0.48.0/25", 25), ("10.0.48.0/23", "10.0.48.0/24", 24),
                           ("10.0.48.0/24", "10.0.60.0/25", 25)):
        files = _acls(int(old.split("/")[1]), part)
        root = _repo(tmp_path, files, f"{old}: {new}, 2001:db8:a::/48: 2001:db8:a::/56")
        before = snapshot(root)
        done = run(root, "sweep", "--commit")
        assert done.exit_code == 3, (old, new, done.stdout + done.stderr)
        assert snapshot(root) == before
        for where in ("ios.cfg:1: tool-refuses", "ios.cfg:4: tool-refuses: the exclusion 2001:db8:a::/56",
                      "asa.cfg:1: tool-refuses", "eos.cfg:2: tool-refuses", "junos.conf:7: tool-refuses",
                      "calico.yaml:7: tool-refuses"):
            assert where in done.stderr, (where, done.stderr)
        assert "an ACL's `deny` before its permit, the first match deciding" in done.stderr


def test_router_acls_left_a_part_follow_and_a_written_one_fails_verify(run: Run, tmp_path: Path) -> None:
    """A deny of a /26 under /24 -> /25 (still a part) and a grow /24 -> /22: written, exit 0, and the
    first match still permits the part the deny leaves. A file main's sweep wrote (both /25):
    verify fails with the refusal."""
    for new in ("10.0.48.0/25", "10.0.48.0/22"):
        root = _repo(tmp_path, _acls(24, 26), f"10.0.48.0/24: {new}")
        done = run(root, "sweep", "--commit")
        assert done.exit_code == 0, done.stdout + done.stderr
        for name in ("ios.cfg", "asa.cfg", "eos.cfg"):
            text = (root / name).read_text()
            assert _first_match(text, "10.0.48.5") == "deny", text
            assert _first_match(text, "10.0.48.100") == "permit", text
        assert run(root, "verify", "--strict").exit_code == 0
    root = _repo(tmp_path, _acls(25, 25), "10.0.48.0/24: 10.0.48.0/25")
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1, checked.stdout
    assert "eos.cfg:2:15: residual (tool-refuses): 10.0.48.0/25" in checked.stdout, checked.stdout
    assert "asa.cfg:1:34: residual (tool-refuses): 10.0.48.0 255.255.255.128" in checked.stdout, checked.stdout


# -- 18: rules ordered by a number -------------------------------------------------------------------

NACL = """resource "aws_network_acl_rule" "deny_printers" {
  network_acl_id = aws_network_acl.lan.id
  rule_number    = 100
  egress         = false
  protocol       = "-1"
  rule_action    = "deny"
  cidr_block     = "PART"
}
resource "aws_network_acl_rule" "allow_lan" {
  network_acl_id = aws_network_acl.lan.id
  rule_number    = 200
  egress         = false
  protocol       = "-1"
  rule_action    = "allow"
  cidr_block     = "WHOLE"
}
"""
NSG = """Resources:
  Nsg:
    Type: Microsoft.Network/networkSecurityGroups
    properties:
      securityRules:
        - name: allow-lan
          properties: {priority: 200, access: Allow, direction: Inbound, protocol: '*',
                       sourceAddressPrefix: WHOLE, destinationAddressPrefix: '*'}
        - name: deny-printers
          properties: {priority: 100, access: Deny, direction: Inbound, protocol: '*',
                       sourceAddressPrefix: PART, destinationAddressPrefix: '*'}
"""
GCP = """resource "google_compute_firewall" "deny_printers" {
  network       = google_compute_network.lan.name
  priority      = 900
  source_ranges = ["PART"]
  deny {
    protocol = "all"
  }
}
resource "google_compute_firewall" "allow_lan" {
  network       = google_compute_network.lan.name
  priority      = 1000
  source_ranges = ["WHOLE"]
  allow {
    protocol = "tcp"
    ports    = ["22"]
  }
}
"""


def _numbered(part: str, whole: str) -> dict[str, str]:
    return {name: text.replace("PART", part).replace("WHOLE", whole)
            for name, text in (("nacl.tf", NACL), ("nsg.yaml", NSG), ("gcp.tf", GCP))}


def _lowest_number(text: str, address: str) -> str:
    """The action of the lowest-numbered rule holding `address` (each rule: its number, action, network)."""
    here, rules = ipaddress.ip_address(address), []
    for block in re.split(r"\n(?=resource|\s+- name)", text):
        number = re.search(r"(?:rule_number|priority)[\s=:]+(\d+)", block)
        action = re.search(r"(deny|allow|Deny|Allow)", block)
        net = re.search(r"(\d+\.\d+\.\d+\.\d+/\d+|[0-9a-f:]+::/\d+)", block)
        if number and action and net:
            rules.append((int(number[1]), action[1].lower(), ipaddress.ip_network(net[1])))
    return next((a for _, a, n in sorted(rules) if n.version == here.version and here in n), "none")


def test_rules_ordered_by_number_a_shrink_makes_deny_the_whole_network_refuse(run: Run, tmp_path: Path) -> None:
    """AWS NACL rule_number, an ARM-style NSG priority in YAML flow mappings (the allow written
    first), GCP priority: /24 -> /25 in place, /23 -> /24, IPv6 /48 -> /56 (and a move to 10.0.60.0/25):
    refused at each deny, nothing written."""
    for old, new, part in (("10.0.48.0/24", "10.0.48.0/25", "10.0.48.0/25"),
                           ("10.0.48.0/23", "10.0.48.0/24", "10.0.48.0/24"),
                           ("10.0.48.0/24", "10.0.60.0/25", "10.0.48.0/25"),
                           ("2001:db8:a::/48", "2001:db8:a::/56", "2001:db8:a::/56")):
        root = _repo(tmp_path, _numbered(part, old), f"{old}: {new}")
        before = snapshot(root)
        done = run(root, "sweep", "--commit")
        assert done.exit_code == 3, (old, new, done.stdout + done.stderr)
        assert snapshot(root) == before
        for where in ("nacl.tf:7: tool-refuses", "nsg.yaml:11: tool-refuses", "gcp.tf:4: tool-refuses"):
            assert where in done.stderr, (where, done.stderr)
        assert "a deny numbered before its allow, the lowest number deciding" in done.stderr


def test_rules_ordered_by_number_left_a_part_follow_and_a_written_one_fails_verify(run: Run,
                                                                                   tmp_path: Path) -> None:
    """A /26 deny under /24 -> /25, and a grow /24 -> /22: written, exit 0, the upper part of the new
    network still allowed by the lowest number. Files main's sweep wrote: verify fails."""
    for new in ("10.0.48.0/25", "10.0.48.0/22"):
        root = _repo(tmp_path, _numbered("10.0.48.0/26", "10.0.48.0/24"), f"10.0.48.0/24: {new}")
        done = run(root, "sweep", "--commit")
        assert done.exit_code == 0, done.stdout + done.stderr
        for name in ("nacl.tf", "nsg.yaml", "gcp.tf"):
            text = (root / name).read_text()
            assert new in text, text
            assert _lowest_number(text, "10.0.48.5") == "deny", text
            assert _lowest_number(text, "10.0.48.100") == "allow", text
        assert run(root, "verify", "--strict").exit_code == 0
    root = _repo(tmp_path, _numbered("10.0.48.0/25", "10.0.48.0/25"), "10.0.48.0/24: 10.0.48.0/25")
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1, checked.stdout
    for where in ("nacl.tf:7:21: residual (tool-refuses)", "nsg.yaml:11:", "gcp.tf:4:"):
        assert where in checked.stdout, (where, checked.stdout)


# -- 08: the longest match ---------------------------------------------------------------------------

ROUTES = {
    "routes.sh": "ip route add WHOLE via 192.0.2.1\nip route add unreachable PART\n",
    "frr.conf": "ip route WHOLE 192.0.2.1\nip route PART Null0\nipv6 route 2001:db8:a::/48 2001:db8:ffff::1\n"
                "ipv6 route 2001:db8:a::/56 blackhole\n",
    "deploy.yaml": "metadata:\n  annotations:\n    traffic.sidecar.istio.io/includeOutboundIPRanges: \"WHOLE\"\n"
                   "    traffic.sidecar.istio.io/excludeOutboundIPRanges: \"PART\"\n",
}


def _routes(part: str, whole: str) -> dict[str, str]:
    return {name: text.replace("PART", part).replace("WHOLE", whole) for name, text in ROUTES.items()}


def _route_get(routes: str, *addresses: str) -> list[str]:
    """`ip route get` of each address after loading `routes` in a fresh network namespace."""
    script = ("ip link set lo up && ip addr add 192.0.2.2/24 dev lo && bash -e routes.sh && "
              + " && ".join(["true", *(f"(ip route get {a} 2>&1 || true)" for a in addresses)]))
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "routes.sh").write_text(routes)
        done = subprocess.run(["unshare", "-rn", "bash", "-c", script], cwd=tmp, capture_output=True, text=True,
                              check=False)
    assert done.returncode == 0, done.stderr
    return [line for line in done.stdout.splitlines() if not line.startswith((" ", "\t"))]


def test_a_more_specific_route_a_shrink_makes_the_whole_network_refuses(run: Run, tmp_path: Path) -> None:
    """iproute2 unreachable, FRR Null0 and IPv6 blackhole, Istio's excludeOutboundIPRanges: /24 -> /25
    in place, /23 -> /24, a move onto 10.0.60.0/25: refused at each more specific route, nothing
    written. The routes as written load in a fresh netns; as main wrote them they do not."""
    for old, new, part in (("10.0.48.0/24", "10.0.48.0/25", "10.0.48.0/25"),
                           ("10.0.48.0/23", "10.0.48.0/24", "10.0.48.0/24"),
                           ("10.0.48.0/24", "10.0.60.0/25", "10.0.48.0/25")):
        root = _repo(tmp_path, _routes(part, old), f"{old}: {new}, 2001:db8:a::/48: 2001:db8:a::/56")
        before = snapshot(root)
        done = run(root, "sweep", "--commit")
        assert done.exit_code == 3, (old, new, done.stdout + done.stderr)
        assert snapshot(root) == before
        for where in ("routes.sh:2: tool-refuses", "frr.conf:2: tool-refuses",
                      "frr.conf:4: tool-refuses: the exclusion 2001:db8:a::/56", "deploy.yaml:4: tool-refuses"):
            assert where in done.stderr, (where, done.stderr)
    assert _route_get(ROUTES["routes.sh"].replace("WHOLE", "10.0.48.0/24").replace("PART", "10.0.48.0/25"),
                      "10.0.48.200")[0].startswith("10.0.48.200 dev lo")
    with pytest.raises(AssertionError, match="File exists"):
        _route_get("ip route add 10.0.48.0/25 via 192.0.2.1\nip route add unreachable 10.0.48.0/25\n")


def test_a_more_specific_route_left_a_part_follows_in_a_netns_and_a_written_one_fails_verify(
        run: Run, tmp_path: Path) -> None:
    """A /26 unreachable under /24 -> /25: written, exit 0, and in a fresh netns the routes load, the
    /26 is unreachable and the rest of the new /25 routed. Files main's sweep wrote: verify fails."""
    root = _repo(tmp_path, _routes("10.0.48.0/26", "10.0.48.0/24"), "10.0.48.0/24: 10.0.48.0/25")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    swept = (root / "routes.sh").read_text()
    assert swept == "ip route add 10.0.48.0/25 via 192.0.2.1\nip route add unreachable 10.0.48.0/26\n", swept
    low, high = _route_get(swept, "10.0.48.5", "10.0.48.100")
    assert low == "RTNETLINK answers: No route to host", low  # the unreachable /26
    assert high.startswith("10.0.48.100 dev lo"), high
    assert run(root, "verify", "--strict").exit_code == 0
    root = _repo(tmp_path, _routes("10.0.48.0/25", "10.0.48.0/25"), "10.0.48.0/24: 10.0.48.0/25")
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1, checked.stdout
    for where in ("routes.sh:2:", "frr.conf:2:", "deploy.yaml:4:"):
        assert where in checked.stdout and "residual (tool-refuses)" in checked.stdout, (where, checked.stdout)


# -- 11, 12: pg_hba ----------------------------------------------------------------------------------

ROLE_VARS = """postgresql_hba_entries:
  - {type: local, database: all, user: postgres, auth_method: peer}
  - {type: host, database: all, user: all, address: 'PART', auth_method: reject}
  - {type: host, database: all, user: all, address: 'WHOLE', auth_method: scram-sha-256}
  - {type: host, database: all, user: all, address: '2001:db8:a::/56', auth_method: reject}
  - {type: host, database: all, user: all, address: '2001:db8:a::/48', auth_method: scram-sha-256}
"""
HBA = "local all all trust\nhost all all PART reject\nhostssl all app WHOLE scram-sha-256\n"


def _hba(part: str, whole: str) -> dict[str, str]:
    return {name: text.replace("PART", part).replace("WHOLE", whole)
            for name, text in (("group_vars/dbservers.yml", ROLE_VARS), ("db2/pg_hba.conf", HBA))}


def _postgres_reads(hba: str) -> list[tuple[str, str, str, str | None]]:
    """PostgreSQL's own reading of a pg_hba.conf (pg_hba_file_rules, in single-user mode, run as
    nobody where the tests run as root): each line's type, network, method and error."""
    data = shared_folder("renamer-pg-")
    try:
        return _read_hba(hba, data)
    finally:
        shutil.rmtree(data, ignore_errors=True)


def _read_hba(hba: str, data: Path) -> list[tuple[str, str, str, str | None]]:
    as_user = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] if os.geteuid() == 0 else []
    if as_user:
        os.chown(data, 65534, 65534)
    made = subprocess.run([*as_user, "initdb", "-D", str(data / "d"), "-A", "trust", "-U", "postgres"],
                          capture_output=True, text=True, check=False)
    assert made.returncode == 0, made.stderr
    (data / "d" / "pg_hba.conf").write_text(hba)
    query = ("select type || '|' || coalesce(address, '') || '|' || coalesce(netmask, '') || '|' || "
             "coalesce(auth_method, '') || '|' || coalesce(error, '') as row from pg_hba_file_rules "
             "order by line_number;\n")
    done = subprocess.run([*as_user, "postgres", "--single", "-D", str(data / "d"), "postgres"], input=query,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    rows = []
    for value in re.findall(r'row = "([^"]*)"', done.stdout):
        kind, address, mask, method, error = value.split("|")
        net = str(ipaddress.ip_network(f"{address}/{mask}")) if address else ""
        rows.append((kind, net, method, error or None))
    return rows


def test_pg_hba_reject_before_the_entry_admitting_the_network_refuses(run: Run, tmp_path: Path) -> None:
    """The role's `postgresql_hba_entries` (flow mappings, IPv6 /48 -> /56 too) and a pg_hba.conf
    whose `host` reject precedes a `hostssl` entry for one user: /24 -> /25 in place, /23 -> /24, a
    move onto 10.0.60.0/25: refused at each reject, nothing written."""
    for old, new, part in (("10.0.48.0/24", "10.0.48.0/25", "10.0.48.0/25"),
                           ("10.0.48.0/23", "10.0.48.0/24", "10.0.48.0/24"),
                           ("10.0.48.0/24", "10.0.60.0/25", "10.0.48.0/25")):
        root = _repo(tmp_path, _hba(part, old), f"{old}: {new}, 2001:db8:a::/48: 2001:db8:a::/56")
        before = snapshot(root)
        done = run(root, "sweep", "--commit")
        assert done.exit_code == 3, (old, new, done.stdout + done.stderr)
        assert snapshot(root) == before
        for where in ("group_vars/dbservers.yml:3: tool-refuses", "group_vars/dbservers.yml:5: tool-refuses",
                      "db2/pg_hba.conf:2: tool-refuses"):
            assert where in done.stderr, (where, done.stderr)
        assert "a pg_hba `reject` before the entry that admits it" in done.stderr


def test_pg_hba_reject_left_a_part_postgres_reads_it_and_a_written_one_fails_verify(run: Run,
                                                                                    tmp_path: Path) -> None:
    """A /26 reject under /24 -> /25: written, exit 0; PostgreSQL reads the swept pg_hba.conf without
    error, the reject /26 first and the hostssl entry at the new /25 after it, so the rest of the
    new network is still admitted. Files main's sweep wrote: verify fails."""
    root = _repo(tmp_path, _hba("10.0.48.0/26", "10.0.48.0/24"), "10.0.48.0/24: 10.0.48.0/25")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    rows = _postgres_reads((root / "db2/pg_hba.conf").read_text())
    assert rows == [("local", "", "trust", None), ("host", "10.0.48.0/26", "reject", None),
                    ("hostssl", "10.0.48.0/25", "scram-sha-256", "hostssl record cannot match because SSL is disabled")]
    here = ipaddress.ip_address("10.0.48.100")
    first = next(r for r in rows if r[1] and here in ipaddress.ip_network(r[1]))
    assert first[2] == "scram-sha-256"
    assert run(root, "verify", "--strict").exit_code == 0
    root = _repo(tmp_path, _hba("10.0.48.0/25", "10.0.48.0/25"), "10.0.48.0/24: 10.0.48.0/25")
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1, checked.stdout
    for where in ("group_vars/dbservers.yml:3:", "db2/pg_hba.conf:2:"):
        assert where in checked.stdout and "residual (tool-refuses)" in checked.stdout, (where, checked.stdout)


def test_pg_hba_words_and_methods_shown_in_the_diff(run: Run, tmp_path: Path) -> None:
    """12: a pg_hba.conf pair a shrink makes one key is refused in PostgreSQL's words, not as an ssh
    Host block; `auth_method:` values are printed in the dry run's diff, not masked as secrets."""
    files = {"pg_hba.conf": "host all all 10.0.48.0/25 reject\nhost all all 10.0.48.0/24 scram-sha-256\n",
             "vars.yml": "postgresql_hba_entries:\n"
                         "  - {type: host, database: all, user: all, address: '10.0.48.0/24', auth_method: md5}\n"
                         "  - {type: host, database: db2, user: all, address: '10.0.48.0/24', auth_method: trust}\n"}
    root = _repo(tmp_path, files, "10.0.48.0/24: 10.0.48.0/25")
    done = run(root, "sweep", "--dry-run")
    out = done.stdout + done.stderr
    assert "ssh Host block" not in out, out
    assert ("both would be the pg_hba entry host all all 10.0.48.0/25 (PostgreSQL takes the first line that "
            "matches: the later one is never reached)") in out, out
    assert "+  - {type: host, database: all, user: all, address: '10.0.48.0/25', auth_method: md5}" in out, out
    assert "auth_method: trust}" in out and "****" not in out and "hold secrets" not in out, out
