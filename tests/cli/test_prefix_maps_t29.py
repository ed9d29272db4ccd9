"""Prefix renumbering, outside pass t29-33, findings 05, 06, 10, 16 and 19 (issue 33), end to end on
real git repos through the CLI; where the tool that reads a file is installed, it reads what the
sweep leaves (sshd -T, nft -c in a namespace of its own, python csv and ipaddress otherwise).

05: an access rule's partial address in OpenSSH patterns (`10.0.48.*`), Postfix and sendmail access
    maps under any file name (`10.0.48  OK`, `Connect:10.0.48  RELAY`), networks(5): under a grow a
    pattern naming the whole old network is a residual, never rewritten to a part of the new one.
06: 1:1 network maps (NETMAP, SNPT/DNPT, nft `prefix to`, RouterOS netmap, JunOS static-nat, IOS
    `static network`, pf binat) whose other side keeps its length: `tied-length` residuals.
10: a length in its own table cell follows the move where the header names it, is a residual where
    nothing does; an address split by HTML tags is refused `split`.
16: a grow swallowing a neighbour spelled as its reverse zone, a short network or a partial address
    is a collision, and `--strict` fails on it.
19: a shrink's dry run lists an address it refuses once, under Refused.
"""

from __future__ import annotations

import csv
import io
import ipaddress
import json
import subprocess
from pathlib import Path

import pytest

from tests.testing.findings import networks_config as _config
from tests.testing.repos import Repo, Run, snapshot
from tests.testing.sshd import config_test

ALLOW = 'version: 1\ncurrent: ["**"]\n'


def _findings(run: Run, root: Path) -> dict[tuple[str, int], dict[str, object]]:
    checked = run(root, "verify", "--format", "json")
    data = json.loads(checked.stdout)
    return {(str(f["path"]), int(f["line"])): f for f in data["findings"]}


# ---------------------------------------------------------------------------------------- finding 05

SSHD = "AllowUsers alice@10.0.48.*\nPasswordAuthentication no\nMatch Address 10.0.48.*\n    PasswordAuthentication yes\n"


def _sshd(root: Path, tmp_path: Path, address: str) -> str:
    key = tmp_path / "hostkey"
    if not key.exists():
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    settings = config_test(root / "sshd_config", key, f"user=alice,host=h,addr={address}")
    return next(line for line in settings.splitlines() if line.startswith("passwordauthentication"))


@pytest.mark.parametrize("networks", ["10.0.48.0/24: 10.20.0.0/22", "10.0.48.0/24: 10.0.48.0/22",
                                      "10.0.48.0/24: 10.0.48.0/23"])
def test_a_pattern_naming_a_whole_network_that_grows_is_a_residual(repo: Repo, run: Run, tmp_path: Path,
                                                                     networks: str) -> None:
    """Before: sshd's `10.0.48.*` became `10.20.0.*` (sshd -T then refused 10.20.1.5 the password
    login the rule grants the network), and under a grow in place nothing was said. Now each is a
    `pattern` residual, the file left as it was, and verify fails."""
    files = {"sshd_config": SSHD, "authorized_keys": 'from="10.0.48.*" ssh-ed25519 AAAAC3Nza alice\n',
             "ssh_config": "Host 10.0.48.*\n    User admin\n",
             "nginx.conf": 'if ($remote_addr ~ "^10\\.0\\.48\\.") { return 200; }\n'}
    root = repo(files, config=_config(networks), allowlist=ALLOW)
    before = snapshot(root)
    dry = run(root, "sweep", "--dry-run", "--strict")
    assert dry.exit_code == 1, dry.stdout + dry.stderr
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert snapshot(root) == before  # nothing rewritten to a part of the new network
    found = _findings(run, root)
    for where in (("sshd_config", 1), ("sshd_config", 3), ("authorized_keys", 1), ("ssh_config", 1),
                  ("nginx.conf", 1)):
        assert found[where]["reason"] == "pattern", (where, found)
    assert "names all of 10.0.48.0/24" in str(found[("sshd_config", 3)]["note"])
    # what sshd reads: the rule still means the old /24, as the residual says
    assert _sshd(root, tmp_path, "10.0.48.5") == "passwordauthentication yes"


def test_a_pattern_inside_a_grown_network_still_moves_by_its_offset(repo: Repo, run: Run, tmp_path: Path) -> None:
    """A pattern naming a part of the old network (a /24 of a /23) names the same machines after
    the move: rewritten as before, and sshd admits exactly the moved addresses."""
    root = repo({"sshd_config": SSHD.replace("10.0.48.*", "10.0.49.*")}, config=_config("10.0.48.0/23: 10.20.0.0/22"),
                allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "sshd_config").read_text() == SSHD.replace("10.0.48.*", "10.20.1.*")
    assert _sshd(root, tmp_path, "10.20.1.5") == "passwordauthentication yes"
    assert run(root, "verify").exit_code == 0


@pytest.mark.parametrize(("networks", "head"), [("10.0.48.0/24: 10.20.0.0/22", "10.0.48"),
                                                ("10.0.48.0/24: 10.0.48.0/22", "10.0.48"),
                                                ("10.20.0.0/16: 10.30.0.0/15", "10.20")])
def test_access_maps_under_any_name_and_networks_5_are_said(repo: Repo, run: Run, networks: str, head: str) -> None:
    """Before: `postfix_access`, sendmail's `Connect:` key, a `smtpd_client_access` map and /etc/networks'
    `lab  10.0.48` were neither rewritten nor said, verify OK. Now each is a `prefix` residual."""
    files = {"postfix_access": f"{head}\tOK\n", "sendmail_access": f"Connect:{head}\tRELAY\n",
             "maps/client_checks": f"{head}  REJECT\n", "networks": f"lab\t{head}\nloopback\t127\n",
             "notes.txt": f"{head}   OK is what the old map said\n"}
    root = repo(files, config=_config(networks), allowlist=ALLOW)
    found = _findings(run, root)
    for path in ("postfix_access", "sendmail_access", "maps/client_checks", "networks"):
        assert found[(path, 1)]["reason"] == "prefix", (path, found)
    assert ("notes.txt", 1) not in found  # prose, no map
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "postfix_access").read_text() == f"{head}\tOK\n"


# ---------------------------------------------------------------------------------------- finding 06

NAT = {
    "rules.v4": "*nat\n:POSTROUTING ACCEPT [0:0]\n-A POSTROUTING -s 10.0.48.0/24 -o wan -j NETMAP --to 172.31.5.0/24\n"
                "-A POSTROUTING -s 10.0.48.0/24 -o wan -j MASQUERADE\nCOMMIT\n",
    "rules.v6": "*mangle\n-A POSTROUTING -s 2001:db8:a:10::/64 -o wan -j SNPT --src-pfx 2001:db8:a:10::/64 "
                "--dst-pfx 2001:db8:ff:10::/64\n-A PREROUTING -d 2001:db8:ff:10::/64 -i wan -j DNPT "
                "--src-pfx 2001:db8:ff:10::/64 --dst-pfx 2001:db8:a:10::/64\nCOMMIT\n",
    "ios.cfg": "ip nat inside source static network 10.0.48.0 172.31.5.0 /24\n"
               "ip nat outside source static network 172.31.5.0 10.0.48.0 /24\n",
    "mikrotik.rsc": "/ip firewall nat add chain=srcnat action=netmap src-address=10.0.48.0/24 "
                    "to-addresses=172.31.5.0/24\n",
    "junos.set": "set security nat static rule-set rs rule r1 match destination-address 198.51.100.0/24\n"
                 "set security nat static rule-set rs rule r1 then static-nat prefix 10.0.48.0/24\n",
    "pf.conf": "binat on em0 from 10.0.48.0/24 to any -> 172.31.5.0/24\n",
    "nat.nft": "table ip6 nat {\n  chain post {\n    type nat hook postrouting priority 100;\n"
               "    ip6 saddr 2001:db8:a:10::/64 snat ip6 prefix to 2001:db8:ff:10::/64\n  }\n}\n",
}
MAP_LINES = [("rules.v4", 3), ("rules.v6", 2), ("rules.v6", 3), ("ios.cfg", 1), ("ios.cfg", 2),
             ("mikrotik.rsc", 1), ("junos.set", 2), ("pf.conf", 1), ("nat.nft", 4)]


@pytest.mark.parametrize("networks", ["10.0.48.0/24: 10.0.60.0/22, 2001:db8:a:10::/64: 2001:db8:a:10::/60",
                                      "10.0.48.0/24: 10.0.48.0/23, 2001:db8:a:10::/64: 2001:db8:a:10::/62"])
def test_a_one_to_one_map_whose_other_side_keeps_its_length_is_a_residual(repo: Repo, run: Run,
                                                                          networks: str) -> None:
    """Before: every map line's moved side grew, the other side stayed (NETMAP folded 10.0.60.5,
    10.0.61.5 and 10.0.62.5 onto 172.31.5.5), sweep 0, verify OK. Now each map line is a
    `tied-length` residual, left as it was; the MASQUERADE line beside it moves."""
    root = repo(NAT, config=_config(networks), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    found = _findings(run, root)
    # (a grow in place keeps IOS's inside line as it was, and so what it maps: nothing to say there)
    for where in [w for w in MAP_LINES if w != ("ios.cfg", 1) or "10.0.60.0" in networks]:
        assert found[where]["reason"] == "tied-length", (where, found)
        assert "1:1 network map" in str(found[where]["note"])
    rules = (root / "rules.v4").read_text().splitlines()
    assert rules[2] == NAT["rules.v4"].splitlines()[2]  # the NETMAP line, as it was
    assert "-s 10.0.48.0/24 -o wan -j MASQUERADE" not in rules[3]  # no map: it follows the move
    assert (root / "ios.cfg").read_text() == NAT["ios.cfg"]
    assert run(root, "verify").exit_code == 1


NFT_V4 = ("table ip nat {\n  chain post {\n    type nat hook postrouting priority 100;\n"
          "    ip saddr 10.0.48.0/24 snat ip prefix to 172.31.5.0/24\n  }\n}\n")


def test_a_map_both_sides_of_which_move_alike_is_rewritten_and_nft_reads_it(repo: Repo, run: Run) -> None:
    """Both networks of the map renamed to one new length: still 1:1, rewritten; `nft -c` (in a
    network namespace of its own) reads the result. One side alone moved: a residual."""
    networks = "10.0.48.0/24: 10.0.60.0/22, 172.31.5.0/24: 172.31.8.0/22"
    root = repo({"nat.nft": NFT_V4}, config=_config(networks), allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    text = (root / "nat.nft").read_text()
    assert "ip saddr 10.0.60.0/22 snat ip prefix to 172.31.8.0/22" in text, text
    checked = subprocess.run(["unshare", "-rn", "nft", "-c", "-f", str(root / "nat.nft")], capture_output=True,
                             text=True)
    assert checked.returncode == 0, checked.stderr
    alone = repo({"nat.nft": NFT_V4}, config=_config("10.0.48.0/24: 10.0.60.0/22"), allowlist=ALLOW)
    assert run(alone, "sweep", "--commit").exit_code == 1
    assert (alone / "nat.nft").read_text() == NFT_V4
    assert _findings(run, alone)[("nat.nft", 4)]["reason"] == "tied-length"


def test_a_map_whose_move_keeps_its_length_is_rewritten(repo: Repo, run: Run) -> None:
    root = repo({"rules.v4": NAT["rules.v4"]}, config=_config("10.0.48.0/24: 10.0.60.0/24"), allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert "-s 10.0.60.0/24 -o wan -j NETMAP --to 172.31.5.0/24" in (root / "rules.v4").read_text()


# ---------------------------------------------------------------------------------------- finding 10

TABLES = {
    "network.md": "| Net | Address   | Length | Gateway   |\n|-----|-----------|--------|-----------|\n"
                  "| LAN | 10.0.48.0 | 24     | 10.0.48.1 |\n| DMZ | 10.9.0.0  | 24     | 10.9.0.1  |\n",
    "nets.csv": "name,network,prefix,gateway\nlab,10.0.48.0,24,10.0.48.1\n",
    "nets.tsv": "name\tnetwork\tcidr\nlab\t10.0.48.0\t/24\n",
    "table.html": "<table><tr><th>Name</th><th>Network</th><th>Prefix length</th></tr>\n"
                  "<tr><td>lab</td><td><code>10.0.48.0</code></td><td>24</td></tr></table>\n",
}


@pytest.mark.parametrize(("networks", "new_length", "address"), [
    ("10.0.48.0/24: 10.0.60.0/22", "22", "10.0.60.0"),
    ("10.0.48.0/24: 10.0.48.0/23", "23", "10.0.48.0"),  # a grow in place: the address stays
])
def test_a_length_in_its_own_table_cell_follows_its_header(repo: Repo, run: Run, networks: str, new_length: str,
                                                           address: str) -> None:
    """Before: each table documented 10.0.60.0/24 after the sweep. Now the length column follows;
    another network's row keeps its length."""
    root = repo(TABLES, config=_config(networks), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    rows = list(csv.DictReader(io.StringIO((root / "nets.csv").read_text())))
    assert ipaddress.ip_network(f"{rows[0]['network']}/{rows[0]['prefix']}") == \
        ipaddress.ip_network(networks.split(": ")[1])
    lines = (root / "network.md").read_text().splitlines()
    cells = [c.strip() for c in lines[2].strip("|").split("|")]
    assert (cells[1], cells[2]) == (address, new_length), lines
    assert lines[3] == TABLES["network.md"].splitlines()[3]
    assert f"{address}\t/{new_length}" in (root / "nets.tsv").read_text()
    assert f"<td>{new_length}</td>" in (root / "table.html").read_text()
    assert run(root, "verify").exit_code == 0


def test_a_length_cell_no_header_names_is_a_residual_and_verify_fails_after(repo: Repo, run: Run) -> None:
    root = repo({"t.md": "| Name | Net | Size |\n|---|---|---|\n| LAN | 10.0.48.0 | 24 |\n"},
                config=_config("10.0.48.0/24: 10.0.60.0/22"), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout
    assert (root / "t.md").read_text().splitlines()[2] == "| LAN | 10.0.60.0 | 24 |"
    found = _findings(run, root)  # after the sweep: the old length beside the new network, said again
    assert found[("t.md", 3)]["reason"] == "mask", found


def test_an_address_split_by_html_tags_is_refused_split(repo: Repo, run: Run) -> None:
    """Before: `<code>10.0.48.</code><b>1</b>` and `<code>10.0.48</code>/24` were neither rewritten
    nor said. Now each is a `split` residual, in an HTML page and a Markdown page's inline HTML."""
    page = "<p>The router is <code>10.0.48.</code><b>1</b>; lab hosts are in <code>10.0.48</code>/24.</p>\n"
    root = repo({"index.html": page, "README.md": "Gateway: <kbd>10.0.48.</kbd><em>254</em>\n"},
                config=_config("10.0.48.0/24: 10.0.60.0/22"), allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "index.html").read_text() == page
    checked = run(root, "verify")
    assert checked.exit_code == 1
    for where in ("index.html:1:24: residual (split): 10.0.48.1", "index.html:1:72: residual (split): 10.0.48/24",
                  "README.md:1:15: residual (split): 10.0.48.254"):
        assert where in checked.stdout, (where, checked.stdout)


# ---------------------------------------------------------------------------------------- finding 16

NEIGHBOUR = {
    "named.conf": 'acl iot { 10.0.49/24; };\nzone "48.0.10.in-addr.arpa" { type master; file "db.48"; };\n'
                  'zone "49.0.10.in-addr.arpa" { type master; file "db.49"; };\n'
                  'zone "1.1.0.0.a.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa" { type master; file "db.v6"; };\n',
    "smb.conf": "[global]\nhosts allow = 10.0.49.\n",
    "lan.yml": "lan: 10.0.48.0/24\nlan6: 2001:db8:a:10::/64\n",
}


@pytest.mark.parametrize("networks", ["10.0.48.0/24: 10.0.48.0/23, 2001:db8:a:10::/64: 2001:db8:a:10::/60",
                                      "10.0.48.0/24: 10.0.48.0/22, 2001:db8:a:10::/64: 2001:db8:a:10::/62"])
def test_a_grow_swallowing_a_neighbour_in_any_spelling_is_a_collision(repo: Repo, run: Run, networks: str) -> None:
    """Before: `--dry-run --strict` 0, no collision, verify --strict OK. Now the reverse zones, the
    short network and the partial address are collisions, and --strict fails on them."""
    root = repo(NEIGHBOUR, config=_config(networks), allowlist=ALLOW)
    dry = run(root, "sweep", "--dry-run", "--strict")
    assert dry.exit_code == 1, dry.stdout + dry.stderr
    for where in ("named.conf:1:11: warning: collision: 10.0.49/24 is already here",
                  "named.conf:3:7: warning: collision: 49.0.10.in-addr.arpa is already here",
                  "named.conf:4:7: warning: collision: 1.1.0.0.a.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa is already here",
                  "smb.conf:2:15: warning: collision: 10.0.49. is already here"):
        assert where in dry.stdout, (where, dry.stdout)
    assert "48.0.10.in-addr.arpa is already" not in dry.stdout  # the moved network's own zone
    # the zone summary no longer tells the operator to add the neighbour's zone as if it were new
    assert "49.0.10.in-addr.arpa declared already: another network's zone, which the grown network " \
           "swallows (see Collisions)" in dry.stdout, dry.stdout
    assert "4 collisions `renamer verify --strict` fails on" in dry.stderr, dry.stderr
    # (the wider grow needs reverse zones no file declares yet: residuals, exit 1; nothing refused)
    assert run(root, "sweep", "--commit").exit_code == (0 if "/23" in networks else 1)
    strict = run(root, "verify", "--strict")
    assert strict.exit_code == 1, strict.stdout
    assert "named.conf:3:7: error: collision: 49.0.10.in-addr.arpa" in strict.stdout, strict.stdout


def test_a_neighbour_outside_the_grown_network_is_no_collision(repo: Repo, run: Run) -> None:
    files = {"named.conf": 'acl far { 10.0.50/24; };\nzone "50.0.10.in-addr.arpa" { type master; file "d"; };\n'
                           'zone "0.10.in-addr.arpa" { type master; file "w"; };\n',
             "lan.yml": "lan: 10.0.48.0/24\n", "notes.md": "The lab moved to 10.0.49.\n"}
    root = repo(files, config=_config("10.0.48.0/24: 10.0.48.0/23"), allowlist=ALLOW)
    dry = run(root, "sweep", "--dry-run", "--strict")
    assert "collision" not in dry.stdout, dry.stdout
    assert dry.exit_code == 0, dry.stdout + dry.stderr


# ---------------------------------------------------------------------------------------- finding 19

@pytest.mark.parametrize(("networks", "line", "address"), [("10.0.48.0/24: 10.0.48.0/25", "AllowedIPs = 10.0.48.200/32",
                                                            "10.0.48.200"),
                                                           ("10.0.48.0/23: 10.0.48.0/24", "Address = 10.0.49.7/23",
                                                            "10.0.49.7")])
def test_a_shrinks_dry_run_lists_a_refused_address_once(repo: Repo, run: Run, networks: str, line: str,
                                                        address: str) -> None:
    """Before: the address stood under "Residual, left for you (1)" and again under "Refused". Now
    once, under Refused; the sweep that writes still refuses (exit 3), nothing written."""
    root = repo({"wg0.conf": f"[Peer]\n{line}\n", "lan.yml": "gw: 10.0.48.1\n"}, config=_config(networks),
                allowlist=ALLOW)
    dry = run(root, "sweep", "--dry-run")
    assert "Residual, left for you" not in dry.stdout, dry.stdout
    refused = dry.stdout.split("Refused:", 1)[1]
    assert f"wg0.conf:2: outside the new, smaller network: {address}" in refused, dry.stdout
    assert dry.stdout.count("wg0.conf:2") == 1, dry.stdout
    data = json.loads(run(root, "sweep", "--dry-run", "--format", "json").stdout)
    assert (data["summary"]["left"], data["summary"]["to_rewrite"], len(data["refused"])) == (0, 0, 1), data
    before = snapshot(root)
    assert run(root, "sweep", "--commit").exit_code == 3
    assert snapshot(root) == before
