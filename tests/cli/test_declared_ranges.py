"""Ranges in every dress, end to end through the CLI (break-it round 8, #3, and a set written with
shorthand members found on a public repo; issue 27 item 2).

A range declared by its context (`dhcp-range=a,b`, ISC `range a b;`, a `pool` of two ends, a
start key and an end key) and a set written as one member then shorthand ones (`10.0.20.21  # or
.22`, `web01/02`) are ranges like `a-b`: an old value at one end, inside, or as a shorthand is
a residual `range`, and the file is left byte for byte.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.testing.repos import CURRENT_ALL, Repo, Run

CONFIG = """\
version: 1
renames:
  hosts: {pug: wolf, web01: db01, app03: app07}
  addresses: {10.0.40.11: 10.0.50.21, 10.0.20.21: 10.0.21.21, 10.0.30.5: 10.0.30.9}
allowlist: allow.yaml
"""


def _ranges(run: Run, root: Path) -> tuple[int, set[tuple[str, int]], list[dict[str, Any]]]:
    done = run(root, "verify", "--strict", "--format", "json")
    findings = json.loads(done.stdout)["findings"]
    return done.exit_code, {(f["path"], f["line"]) for f in findings if f["reason"] == "range"}, findings


def _held(repo: Repo, run: Run, files: dict[str, str]) -> Path:
    """A repo whose every file holds a range: verify names each line, the sweep writes nothing."""
    root = repo(files, config=CONFIG, allowlist=CURRENT_ALL)
    expected = {(path, n + 1) for path, text in files.items() for n, line in enumerate(text.splitlines())
                if "#!" not in line}
    code, found, _ = _ranges(run, root)
    assert code == 1 and found == expected, (found, expected)
    before = {path: (root / path).read_bytes() for path in files}
    assert run(root, "sweep", "--dry-run").exit_code == 0
    assert run(root, "sweep", "--commit").exit_code == 1  # residuals left for a decision (item 18)
    assert {path: (root / path).read_bytes() for path in files} == before
    assert _ranges(run, root)[:2] == (1, expected)
    return root


def test_round8_dhcp_ranges_are_held_and_dnsmasq_still_starts(repo: Repo, run: Run) -> None:
    files = {"dnsmasq.conf": "dhcp-range=10.0.40.5,10.0.40.11,12h\n"
                             "dhcp-range=set:lan,10.0.40.11,10.0.40.30,255.255.255.0,12h\n",
             "dhcpd.conf": "subnet 10.0.40.0 netmask 255.255.255.0 {\n  range 10.0.40.5 10.0.40.11;\n}\n"}
    root = repo(files, config=CONFIG, allowlist=CURRENT_ALL)
    code, found, _ = _ranges(run, root)
    assert code == 1 and found == {("dnsmasq.conf", 1), ("dnsmasq.conf", 2), ("dhcpd.conf", 2)}
    assert run(root, "sweep", "--commit").exit_code == 1
    assert {path: (root / path).read_text() for path in files} == files
    dnsmasq = shutil.which("dnsmasq") or "/usr/sbin/dnsmasq"
    checked = subprocess.run([dnsmasq, "--test", "-C", str(root / "dnsmasq.conf")],
                             capture_output=True, text=True, check=False)
    assert checked.returncode == 0, checked.stderr  # the held file still starts ("syntax check OK")


DECLARED = [
    pytest.param("dhcp-range=lan,10.0.40.5,10.0.40.11,255.255.255.0,12h\n", id="dnsmasq-with-tag-and-mask"),
    pytest.param("--dhcp-range=10.0.40.11,10.0.40.40\n", id="dnsmasq-flag-first-end"),
    pytest.param("  range dynamic-bootp 10.0.40.11 10.0.40.20;\n", id="isc-dynamic-bootp"),
    pytest.param('iprange: ["10.0.40.2", "10.0.40.11"]\n', id="quoted-list"),
    pytest.param("netsh dhcp server scope 10.0.40.0 add iprange 10.0.40.11 10.0.40.200\n", id="netsh"),
    pytest.param("ip_pool = 10.0.39.200 - 10.0.40.11\n", id="spaced-dash-across-a-stem"),
    pytest.param("RANGE 10.0.40.11,10.0.40.12\n", id="upper-case-word"),
]


@pytest.mark.parametrize("text", DECLARED)
def test_a_range_declared_by_its_context_is_held(repo: Repo, run: Run, text: str) -> None:
    _held(repo, run, {"net.conf": text})


KEYED = [
    pytest.param("k.yaml", "dhcp:\n  range_start: 10.0.40.5\n  range_end: 10.0.40.11\n", {3}, id="yaml-range-keys"),
    pytest.param("k.yaml", "allocation_pools:\n  - start: 10.0.40.2\n    end: 10.0.40.11\n", {3}, id="openstack"),
    pytest.param("k.json", '{"dhcpd_stop": "10.0.40.11", "dhcpd_start": "10.0.40.3", "x": 1}\n', {1},
                 id="json-end-key-first"),
    pytest.param("net.xml", "<dhcp><range start='10.0.40.11' end='10.0.40.20'/></dhcp>\n", {1}, id="libvirt"),
    pytest.param("fw.xml", "<range>\n  <from>10.0.40.3</from>\n  <to>10.0.40.11</to>\n</range>\n", {3},
                 id="pfsense-from-to"),
    pytest.param("s.ps1", "Add-DhcpServerv4Scope -StartRange 10.0.40.5 -EndRange 10.0.40.11\n", {1},
                 id="powershell-flags"),
    pytest.param("main.tf", 'resource "x" "y" {\n  start_ip_address = "10.0.40.11"\n'
                 '  end_ip_address   = "10.0.40.99"\n}\n', {2}, id="terraform"),
    pytest.param("pve.cfg", "dhcp-range start-address=10.0.40.11,end-address=10.0.40.20\n", {1},
                 id="proxmox-sdn"),
    # Break-it round 21, finding 23: a bare from/to pair under a parent no range word names
    pytest.param("dhcp.yaml", "dhcp:\n  lan:\n    exclude:\n      from: 10.0.40.11\n      to: 10.0.40.14\n", {4},
                 id="from-to-under-exclude"),
    pytest.param("dhcp.yaml", "reserved: {from: 10.0.40.5, to: 10.0.40.11}\n", {1}, id="from-to-flow-reserved"),
    pytest.param("leases.yaml", "static_leases:\n  to: 10.0.40.20\n  from: 10.0.40.11\n", {3},
                 id="to-written-first"),
]

# A rule's source and target (`from:`/`to:` under a key that keeps no addresses out of use) are each
# their own, one /24 or not: the renamed one follows, the other stays.
@pytest.mark.parametrize("text", [
    pytest.param("rule:\n  from: 10.0.40.11\n  to: 10.0.40.14\n", id="rule-one-24"),
    pytest.param("nat:\n  - name: excluded-from-backup\n    from: 10.0.40.11\n    to: 10.0.41.9\n",
                 id="a-value-spelling-the-word"),
])
def test_a_from_to_pair_that_reads_as_a_rule_follows(repo: Repo, run: Run, text: str) -> None:
    root = repo({"fw.yaml": text}, config=CONFIG, allowlist=CURRENT_ALL)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "fw.yaml").read_text() == text.replace("10.0.40.11", "10.0.50.21")


@pytest.mark.parametrize(("path", "text", "lines"), KEYED)
def test_a_range_written_as_two_keys_is_held(repo: Repo, run: Run, path: str, text: str,
                                              lines: set[int]) -> None:
    root = repo({path: text}, config=CONFIG, allowlist=CURRENT_ALL)
    code, found, _ = _ranges(run, root)
    assert code == 1 and found == {(path, n) for n in lines}
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / path).read_text() == text


SHORTHAND = [
    pytest.param("ssh techdufus@10.0.20.21  # or .22\n", id="techdufus-home-io"),
    pytest.param("ssh 10.0.20.20 or .21\n", id="old-is-the-shorthand"),
    pytest.param("nodes 10.0.20.21, .22 and .23\n", id="three-members"),
    pytest.param("pair `10.0.20.21`/`.22`\n", id="slash-code-spans"),
    pytest.param("pair 10.0.20.21 & .22 (10.0.20.21 + .22)\n", id="amp-plus"),
    pytest.param("hosts web01 or 02\n", id="host-or"),
    pytest.param("hosts web01/02\n", id="host-slash"),
    pytest.param("hosts web01, 02 and 03\n", id="host-list"),
    pytest.param("hosts app02 or 03\n", id="host-old-is-the-shorthand"),
]


@pytest.mark.parametrize("text", SHORTHAND)
def test_a_set_with_shorthand_members_is_held(repo: Repo, run: Run, text: str) -> None:
    _held(repo, run, {"README.md": text})


@pytest.mark.parametrize(("text", "after"), [
    # only the last octet (or the number) changes: `.6` still completes to the machine it named
    pytest.param("same 10.0.30.5 or .6\n", "same 10.0.30.9 or .6\n", id="address-stem-kept"),
    pytest.param("same app03 or 04\n", "same app07 or 04\n", id="host-stem-kept"),
    pytest.param("path /srv/web01/02/x\n", "path /srv/db01/02/x\n", id="a-path-not-a-set"),
    pytest.param("cidr 10.0.20.21/22\n", "cidr 10.0.21.21/22\n", id="a-prefix-not-a-set"),
    pytest.param("two 10.0.20.21, 10.0.20.22\n", "two 10.0.21.21, 10.0.20.22\n", id="two-addresses"),
    pytest.param("ssh 10.0.20.21 or ssh .bashrc\n", "ssh 10.0.21.21 or ssh .bashrc\n", id="prose"),
    pytest.param("restart web01 and 2 more\n", "restart db01 and 2 more\n", id="a-count-not-a-member"),
    pytest.param("see web01/02-report\n", "see db01/02-report\n", id="a-path-word"),
    pytest.param("url: redis://:pw@web01/0 and //web01/02\n", "url: redis://:pw@db01/0 and //db01/02\n",
                 id="a-url-path"),
    pytest.param("dhcp-host=aa:bb:cc:dd:ee:ff,10.0.40.11\n", "dhcp-host=aa:bb:cc:dd:ee:ff,10.0.50.21\n",
                 id="dhcp-host-one-address"),
    pytest.param("dhcp-range=10.0.40.100,10.0.40.200,12h\n", "dhcp-range=10.0.40.100,10.0.40.200,12h\n",
                 id="range-elsewhere"),
    # an address pool is no set of machines: a host reserved inside it moves, the pool stands
    pytest.param("dhcp-range=10.0.40.5,10.0.40.30,12h\ndhcp-host=aa:bb:cc:dd:ee:ff,10.0.40.11\n",
                 "dhcp-range=10.0.40.5,10.0.40.30,12h\ndhcp-host=aa:bb:cc:dd:ee:ff,10.0.50.21\n", id="inside-a-pool"),
    pytest.param("pools:\n  - start: 10.0.40.2\n    end: 10.0.40.50\nip: 10.0.40.11\n",
                 "pools:\n  - start: 10.0.40.2\n    end: 10.0.40.50\nip: 10.0.50.21\n", id="inside-keyed-pool"),
    pytest.param("range 10.0.40.11;\n", "range 10.0.50.21;\n", id="one-address-range"),
    pytest.param("server 10.0.40.11 10.0.40.12\n", "server 10.0.50.21 10.0.40.12\n", id="no-range-word"),
    pytest.param("pool: [10.0.40.11, 10.0.40.12, 10.0.40.13]\n", "pool: [10.0.50.21, 10.0.40.12, 10.0.40.13]\n",
                 id="pool-members"),
    pytest.param("routes:\n  - from: 10.0.40.5\n    to: 10.0.40.11\n",
                 "routes:\n  - from: 10.0.40.5\n    to: 10.0.50.21\n", id="from-to-source-and-target"),
    pytest.param("backend: 10.0.40.11\nstart: 10.0.40.20\nend: 10.0.40.30\n",
                 "backend: 10.0.50.21\nstart: 10.0.40.20\nend: 10.0.40.30\n", id="keys-of-another-range"),
])
def test_what_only_looks_like_a_range_or_set_is_rewritten(repo: Repo, run: Run, text: str, after: str) -> None:
    root = repo({"n.yaml": text}, config=CONFIG, allowlist=CURRENT_ALL)
    assert _ranges(run, root)[1] == set()
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "n.yaml").read_text() == after
    assert run(root, "verify", "--strict").exit_code == 0


# Break-it round 10 #2: ranges declared by their context in other dresses, each once rewritten at one
# end (`excluded-address 10.0.40.1 10.0.50.21`). Path -> (text, the lines holding a range's old end).
DRESSES = {
    # prose joiners: `between A and B`, `A up to B`, `A until B` (hosts of one stem, addresses of any)
    "prose.md": ("Reserved: between 10.0.40.2 and 10.0.40.11 (static).\nHosts 10.0.40.5 up to 10.0.40.11 are the lab.\n"
                 "ips 10.0.40.2 until 10.0.40.11 are free\nBetween **web01** and **web05** is the pool.\n"
                 "web01 up to web05, app03 till app09\nbetween web01 and web05\n", {1, 2, 3, 4, 5, 6}),
    # joined across a /24: the rule pattern needs one stem, a joiner does not
    "across.md": ("10.0.39.200 - 10.0.40.11\n10.0.39.200\u201310.0.40.11\nbetween 10.0.39.2 and `10.0.40.11`\n"
                  "10.0.40.11..10.0.41.3\n", {1, 2, 3, 4}),
    # vendor syntax: Cisco, Junos set-style and block, FortiOS
    "ios.cfg": ("ip dhcp excluded-address 10.0.40.1 10.0.40.11\nip dhcp excluded-address 10.0.40.11 10.0.40.20\n",
                {1, 2}),
    # Huawei and H3C (break-it round 12, #1)
    "vrp.cfg": ("ip pool lan\n excluded-ip-address 10.0.40.5 10.0.40.11\n", {2}),
    "comware.cfg": ("dhcp server forbidden-ip 10.0.40.5 10.0.40.11\n", {1}),
    "junos.conf": ("set system services dhcp pool 10.0.40.0/24 address-range low 10.0.40.5 high 10.0.40.11\n"
                   "address-range {\n    low 10.0.40.5;\n    high 10.0.40.11;\n}\n", {1, 4}),
    "forti.conf": ("config ip-range\n    edit 1\n        set start-ip 10.0.40.5\n        set end-ip 10.0.40.11\n"
                   "    next\nend\n", {4}),
    # tables whose header row names the ends
    "pools.csv": ("name,start,end\nlan,10.0.40.5,10.0.40.11\n", {2}),
    "pools.tsv": ("start_ip\tend_ip\n10.0.40.11\t10.0.40.20\n", {2}),
    "quoted.csv": ('"pool";"first";"last"\n"lan";"10.0.40.11";"10.0.40.20"\n', {2}),
    "pools.md": ("# Pools\n\n| pool | first | last |\n|:--|:-:|--:|\n| lan | `10.0.40.5` | **10.0.40.11** |\n"
                 "| web | web01 | web05 |\n", {5, 6}),
    # a two-item list under a key with a range word, on the lines below it
    "vars.yml": ("dhcp_pools:\n  - [10.0.40.5, 10.0.40.11]\n  - [10.0.40.20, 10.0.40.30]\ndhcp_range:\n"
                 "  - 10.0.40.5\n  - 10.0.40.11\n", {2, 6}),
    "pools.json": ('{"dhcp_pools": [\n  ["10.0.40.5", "10.0.40.11"]\n]}\n', {2}),
}


def test_break10_ranges_declared_by_prose_vendor_syntax_tables_and_keys_are_held(repo: Repo, run: Run) -> None:
    files = {path: text for path, (text, _) in DRESSES.items()}
    root = repo(files, config=CONFIG, allowlist=CURRENT_ALL)
    expected = {(path, n) for path, (_, lines) in DRESSES.items() for n in lines}
    code, found, _ = _ranges(run, root)
    assert code == 1 and found == expected, (found - expected, expected - found)
    assert run(root, "sweep", "--commit").exit_code == 1  # residuals left for a decision
    assert {path: (root / path).read_text() for path in files} == files  # byte for byte
    assert _ranges(run, root)[:2] == (1, expected)


# What only looks like those: two members, a rule's source and target, a table without both ends,
# a pool's other keys, a list of three: each rewritten.
LOOKALIKES = {
    "a.md": ("web01 and web05 are down\n10.0.40.11 and 10.0.40.12\nbetween 10.0.40.11 and the gateway\n"
             "10.0.40.11 - see below\nroute 10.0.40.11 -> 10.0.50.3\n",
             "db01 and web05 are down\n10.0.50.21 and 10.0.40.12\nbetween 10.0.50.21 and the gateway\n"
             "10.0.50.21 - see below\nroute 10.0.50.21 -> 10.0.50.3\n"),
    "ufw.sh": ("ufw allow from 10.0.40.11 to 10.0.50.3\n", "ufw allow from 10.0.50.21 to 10.0.50.3\n"),
    "move.md": ("| from | to |\n|---|---|\n| 10.0.40.11 | 10.0.60.9 |\n",
                "| from | to |\n|---|---|\n| 10.0.50.21 | 10.0.60.9 |\n"),
    "hosts.csv": ("host,ip,start\npug,10.0.40.11,10:00\n", "host,ip,start\nwolf,10.0.50.21,10:00\n"),
    "people.csv": ("first_name,last_name,host\nJohn,Doe,pug\n", "first_name,last_name,host\nJohn,Doe,wolf\n"),
    "prose.txt": ("Start, then end\nssh pug, then restart\n", "Start, then end\nssh wolf, then restart\n"),
    "shift.md": ("| host | start | end |\n|---|---|---|\n| pug | 10:00 | 11:00 |\n",
                 "| host | start | end |\n|---|---|---|\n| wolf | 10:00 | 11:00 |\n"),
    "pool.yml": ("dhcp_pool:\n  gateway: 10.0.40.1\n  dns: 10.0.40.11\npool:\n  - 10.0.40.1\n  - 10.0.40.11\n"
                 "  - 10.0.40.12\ndns_servers:\n  - 10.0.40.1\n  - 10.0.40.11\n",
                 "dhcp_pool:\n  gateway: 10.0.40.1\n  dns: 10.0.50.21\npool:\n  - 10.0.40.1\n  - 10.0.50.21\n"
                 "  - 10.0.40.12\ndns_servers:\n  - 10.0.40.1\n  - 10.0.50.21\n"),
}


def test_break10_what_only_looks_like_a_range_in_those_dresses_is_rewritten(repo: Repo, run: Run) -> None:
    root = repo({path: before for path, (before, _) in LOOKALIKES.items()}, config=CONFIG, allowlist=CURRENT_ALL)
    assert _ranges(run, root)[1] == set()
    assert run(root, "sweep", "--commit").exit_code == 0
    assert {path: (root / path).read_text() for path in LOOKALIKES} == {p: a for p, (_, a) in LOOKALIKES.items()}
    assert run(root, "verify", "--strict").exit_code == 0


# Break-it round 11 #1: a range's ends named by argument position or by words beside start/end
# (lower/upper, min/max), each once rewritten at one end. Path -> (text, the lines holding an old end).
ROUND11_HELD = {
    # OpenVPN `server-bridge GATEWAY NETMASK POOL-START POOL-END`: the third and fourth addresses
    "server.conf": ("server-bridge 10.0.40.1 255.255.255.0 10.0.40.5 10.0.40.11\n", {1}),
    "vbox.sh": ("VBoxManage dhcpserver add --netname intnet --ip 10.0.40.1 --netmask 255.255.255.0 "
                "--lowerip 10.0.40.5 --upperip 10.0.40.11 --enable\n", {1}),
    "dhcp.yml": ("dhcp_min: 10.0.40.5\ndhcp_max: 10.0.40.11\n", {2}),
    "main.tf": ('resource "x" "y" {\n  lease_lower_ip = "10.0.40.11"\n  lease_upper_ip = "10.0.40.30"\n}\n', {2}),
    "minmax.json": ('{"minIp": "10.0.40.11", "maxIp": "10.0.40.40"}\n', {1}),
    "words.conf": ("startip=10.0.40.2 endip=10.0.40.11\n", {1}),
    # udhcpd: `start` and `end` open their lines, the value after blanks
    "udhcpd.conf": ("start 10.0.40.5\nend 10.0.40.11\ninterface eth0\n", {2}),
    # a range word in a camel-cased or joined key still declares one (#6 kept them)
    "camel.yml": ("ipRange: [10.0.40.5, 10.0.40.11]\naddresspool: 10.0.40.11, 10.0.40.20\n", {1, 2}),
    # `from A to B` in prose that names no rule, route or move is a range
    "prose.md": ("DHCP hands out from 10.0.40.5 to 10.0.40.11.\nReach 10.0.40.20 through 10.0.40.11 first.\n",
                 {1, 2}),
}


def test_break11_ranges_named_by_position_or_by_lower_upper_min_max_are_held(repo: Repo, run: Run) -> None:
    files = {path: text for path, (text, _) in ROUND11_HELD.items()}
    root = repo(files, config=CONFIG, allowlist=CURRENT_ALL)
    expected = {(path, n) for path, (_, lines) in ROUND11_HELD.items() for n in lines}
    code, found, _ = _ranges(run, root)
    assert code == 1 and found == expected, (found - expected, expected - found)
    assert run(root, "sweep", "--commit").exit_code == 1  # residuals left for a decision
    assert {path: (root / path).read_text() for path in files} == files  # byte for byte
    assert _ranges(run, root)[:2] == (1, expected)


# Break-it round 11 #5 #6 #7, and #1's look-alikes: ordinary pairs, range words inside other words,
# tables whose start/end cells cannot be a range's ends. Each rewritten, verify OK.
ROUND11_LOOKALIKES = {
    # #6: a range word inside another word declares nothing
    "vars.yml": ("mail_spool_hosts: [10.0.40.11, 10.0.40.12]\nnote: \"arrange 10.0.40.11, 10.0.40.12 in rack B\"\n"
                 "strange_hosts: 10.0.40.11 10.0.40.12\norange: 10.0.40.11, 10.0.40.12\n"
                 "whirlpool_hosts: [10.0.40.11, 10.0.40.12]\nLiverpool 10.0.40.11 10.0.40.12\n"
                 "ranger: 10.0.40.11, 10.0.40.12\n",
                 "mail_spool_hosts: [10.0.50.21, 10.0.40.12]\nnote: \"arrange 10.0.50.21, 10.0.40.12 in rack B\"\n"
                 "strange_hosts: 10.0.50.21 10.0.40.12\norange: 10.0.50.21, 10.0.40.12\n"
                 "whirlpool_hosts: [10.0.50.21, 10.0.40.12]\nLiverpool 10.0.50.21 10.0.40.12\n"
                 "ranger: 10.0.50.21, 10.0.40.12\n"),
    # #5: a rule's source and target in one /24 (ufw, pf, ipfw), a move, a link `between`
    "rules.sh": ("ufw allow from 10.0.40.11 to 10.0.40.12 port 22 proto tcp\n"
                 "ufw allow from 10.0.40.12 to 10.0.40.11 port 5432 proto tcp\n"
                 "ipfw add allow tcp from 10.0.40.12 to 10.0.40.11 22\n"
                 "rsync -a from 10.0.40.11 to 10.0.40.12 # copy the data\n"
                 "ufw allow from web01 to web05\n",
                 "ufw allow from 10.0.50.21 to 10.0.40.12 port 22 proto tcp\n"
                 "ufw allow from 10.0.40.12 to 10.0.50.21 port 5432 proto tcp\n"
                 "ipfw add allow tcp from 10.0.40.12 to 10.0.50.21 22\n"
                 "rsync -a from 10.0.50.21 to 10.0.40.12 # copy the data\n"
                 "ufw allow from db01 to web05\n"),
    "pf.conf": ("pass in on em0 proto tcp from 10.0.40.12 to 10.0.40.11 port 443\n",
                "pass in on em0 proto tcp from 10.0.40.12 to 10.0.50.21 port 443\n"),
    "runbook.md": ("If latency between 10.0.40.11 and 10.0.40.12 is high, check the switch.\n"
                   "The WireGuard tunnel between `10.0.40.11` and 10.0.39.2 is down.\n",
                   "If latency between 10.0.50.21 and 10.0.40.12 is high, check the switch.\n"
                   "The WireGuard tunnel between `10.0.50.21` and 10.0.39.2 is down.\n"),
    # round 12 #4: a failover's, a choice's, a switch's two machines
    "failover.md": ("Failover between 10.0.40.11 and 10.0.40.12 is automatic.\n"
                    "Choose between 10.0.40.11 and 10.0.40.12 by load.\n"
                    "Keepalived moves the VIP from 10.0.40.11 to 10.0.40.12 when the check fails.\n"
                    "Clients fail over from 10.0.40.11 to 10.0.40.12.\n"
                    "Point DNS from 10.0.40.11 to 10.0.40.12 during maintenance.\n"
                    "Switch the primary from 10.0.40.11 to 10.0.40.12, then back.\n",
                    "Failover between 10.0.50.21 and 10.0.40.12 is automatic.\n"
                    "Choose between 10.0.50.21 and 10.0.40.12 by load.\n"
                    "Keepalived moves the VIP from 10.0.50.21 to 10.0.40.12 when the check fails.\n"
                    "Clients fail over from 10.0.50.21 to 10.0.40.12.\n"
                    "Point DNS from 10.0.50.21 to 10.0.40.12 during maintenance.\n"
                    "Switch the primary from 10.0.50.21 to 10.0.40.12, then back.\n"),
    # #5: a pool whose key names machines is a list of members
    "lb.yml": ("haproxy_backend_pool:\n  - 10.0.40.11\n  - 10.0.40.12\nntp_server_pool: [10.0.40.11, 10.0.40.12]\n",
               "haproxy_backend_pool:\n  - 10.0.50.21\n  - 10.0.40.12\nntp_server_pool: [10.0.50.21, 10.0.40.12]\n"),
    # #1: server-bridge's gateway is no end
    "bridge.conf": ("server-bridge 10.0.40.11 255.255.255.0 10.0.40.50 10.0.40.60\n",
                    "server-bridge 10.0.50.21 255.255.255.0 10.0.40.50 10.0.40.60\n"),
    # #7: start/end cells that cannot be one range's ends: a cable's ends, a chain's hosts, an
    # address then a lower one, an address beside a name; from/to beside a `range_km` column
    "cabling.md": ("# Cabling\n\n| cable | start | end |\n| --- | --- | --- |\n| C12 | pug | switch01 |\n"
                   "| C13 | 10.0.40.11 | 10.0.40.1 |\n| C14 | 10.0.40.11 | gw |\n",
                   "# Cabling\n\n| cable | start | end |\n| --- | --- | --- |\n| C12 | wolf | switch01 |\n"
                   "| C13 | 10.0.50.21 | 10.0.40.1 |\n| C14 | 10.0.50.21 | gw |\n"),
    "chain.csv": ("service,start,end,owner\nbackup,pug,rex,ops\nweb,web01,app05,ops\n",
                  "service,start,end,owner\nbackup,wolf,rex,ops\nweb,db01,app05,ops\n"),
    "links.tsv": ("link\tfrom_host\tto_host\trange_km\nwan1\tpug\trex\t12\n",
                  "link\tfrom_host\tto_host\trange_km\nwan1\twolf\trex\t12\n"),
}


def test_break11_ordinary_pairs_and_words_that_only_hold_a_range_word_are_rewritten(repo: Repo, run: Run) -> None:
    root = repo({p: before for p, (before, _) in ROUND11_LOOKALIKES.items()}, config=CONFIG, allowlist=CURRENT_ALL)
    assert _ranges(run, root)[1] == set()
    assert run(root, "sweep", "--commit").exit_code == 0
    assert {p: (root / p).read_text() for p in ROUND11_LOOKALIKES} == {p: a for p, (_, a) in ROUND11_LOOKALIKES.items()}
    assert run(root, "verify", "--strict").exit_code == 0
