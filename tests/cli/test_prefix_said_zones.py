"""What the sweep says about a resize is what it writes (f28, findings 13, 17, 21).

13: the "Reverse zones" summary (text and JSON) announced `rename 48.0.10.in-addr.arpa ->
0.1.10.in-addr.arpa` and `add 1.10.in-addr.arpa` under 10.0.48.0/24 -> 10.1.0.0/16, and the sweep
wrote the zone as 1.10.in-addr.arpa. 17: `sweep --dry-run --strict` exited 0 where the writing sweep
exited 1 and verify failed (a reverse zone the grow needs). 21: verify's `old -> new` was the same
value twice. The class: over a corpus of resize cases (grow, shrink, elsewhere, in place, IPv4 and
IPv6, one zone or several), each declared zone is found after the sweep under the name the summary
gave it, no zone the summary says to add is one the sweep made, every written zone parses
(named-checkzone) with its PTR owners at the moved addresses, and the dry run's --strict exit is the
writing sweep's, which is 1 exactly where verify fails after it.
"""

from __future__ import annotations

import ipaddress
import json
import subprocess
from pathlib import Path

import pytest

from renamer.prefix_moves import zone_name, zone_networks
from tests.testing.repos import Repo, Run

ALLOW = 'version: 1\ncurrent: ["**"]\n'
SOA = "@ IN SOA ns1.example.com. admin.example.com. ( 1 3600 600 86400 300 )\n@ IN NS ns1.example.com.\n"


def _config(old: str, new: str) -> str:
    return f'version: 1\nrenames:\n  networks: {{"{old}": "{new}"}}\nallowlist: allow.yaml\n'


def _reverse(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str:
    return address.reverse_pointer


def _relative(address: ipaddress.IPv4Address | ipaddress.IPv6Address, zone: str) -> str:
    name = _reverse(address)
    assert name.endswith("." + zone)
    return name[: -len(zone) - 1]


def _checked(origin: str, path: Path) -> list[tuple[str, str]]:
    """(owner, target) of each PTR named-checkzone reads in the zone file (canonical dump)."""
    done = subprocess.run(["named-checkzone", "-D", "-q", "-o", "-", origin, str(path)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    out = []
    for line in done.stdout.splitlines():
        fields = line.split()
        if len(fields) >= 5 and fields[3] == "PTR":
            out.append((fields[0].rstrip(".").lower(), fields[4]))
    return out


# (old, new): grow, shrink, elsewhere, in place; IPv4 and IPv6; one zone and several.
CORPUS = [
    ("10.0.48.0/24", "10.1.0.0/16"),  # finding 13: a grow elsewhere, whole zone to whole zone
    ("10.0.48.0/24", "10.0.48.0/23"),  # finding 17: a grow that needs a zone the repo lacks
    ("10.0.48.0/24", "10.0.48.0/22"),
    ("10.0.48.0/23", "10.0.48.0/24"),  # a shrink: a zone left answering outside
    ("10.0.48.0/22", "10.0.52.0/22"),
    ("10.0.48.0/22", "10.0.48.0/24"),
    ("10.9.0.0/24", "10.9.0.0/16"),  # in place, whole to whole
    ("10.250.0.0/16", "10.251.0.0/24"),  # a shrink elsewhere, whole to whole
    ("10.0.48.0/24", "10.2.0.0/22"),
    ("10.0.48.0/22", "10.8.0.0/16"),
    ("10.0.48.0/29", "10.0.48.0/28"),  # no zone of its own either side
    ("2001:db8:a::/56", "2001:db8:b::/48"),  # finding 13's IPv6 twin
    ("2001:db8:a::/48", "2001:db8:b::/56"),
    ("2001:db8:a::/64", "2001:db8:a::/60"),
    ("2001:db8:a::/64", "2001:db8:a::/56"),
    ("2001:db8:a::/48", "2001:db8:a::/47"),
    ("2001:db8:8::/46", "2001:db8:c::/48"),
    ("10.250.0.0/16", "10.251.0.0/22"),  # aligned to not aligned: zones to add and to remove
    ("10.0.48.0/22", "10.1.0.0/16"),
    ("2001:db8:a::/48", "2001:db8:b::/50"),
    ("2001:db8:a::/50", "2001:db8:b::/48"),
]


@pytest.mark.parametrize(("old", "new"), CORPUS, ids=[f"{o}->{n}" for o, n in CORPUS])
def test_the_summary_names_the_zones_the_sweep_writes_and_the_dry_run_predicts_the_exit(
        repo: Repo, run: Run, old: str, new: str) -> None:
    old_net, new_net = ipaddress.ip_network(old), ipaddress.ip_network(new)
    zones = [zone_name(z) for z in zone_networks(old_net)]
    hosts = [old_net.network_address + 5]
    files = {"vars.yml": f"net: {old}\n",
             "named.conf": "".join(f'zone "{z}" {{ type master; file "db{i}"; }};\n' for i, z in enumerate(zones))}
    for i, zone in enumerate(zones):
        inside = [h for h in hosts if _reverse(h).endswith("." + zone)]
        records = "".join(f"{_relative(h, zone)} IN PTR host{n}.example.com.\n" for n, h in enumerate(inside))
        files[f"db{i}"] = f"$ORIGIN {zone}.\n$TTL 300\n{SOA}{records}"
    root = repo(files, config=_config(old, new), allowlist=ALLOW)
    data = json.loads(run(root, "sweep", "--dry-run", "--format", "json").stdout)
    renamed = {r["from"]: r["to"] for z in data["reverse_zones"] for r in z["renamed"]}
    add = {a for z in data["reverse_zones"] for a in z["add"]}
    remove = {a for z in data["reverse_zones"] for a in z["remove"]}
    predicted = run(root, "sweep", "--dry-run", "--strict")
    done = run(root, "sweep", "--commit")
    assert done.exit_code in (0, 1), done.stdout + done.stderr
    assert predicted.exit_code == done.exit_code, (predicted.stdout + predicted.stderr, done.stdout + done.stderr)
    written = [line.split('"')[1] for line in (root / "named.conf").read_text().splitlines()]
    assert written == [renamed.get(z, z) for z in zones], (written, data["reverse_zones"])
    assert not add & set(written), (add, written)  # never "add" a zone the sweep already made
    for i, zone in enumerate(written):  # each written zone parses, its PTRs at the moved addresses
        ptrs = _checked(zone, root / f"db{i}")
        if zones[i] in remove:  # left as it was: it answers outside the new network
            assert zone == zones[i], zone
            continue
        moved = [int(new_net.network_address) + int(h) - int(old_net.network_address) for h in hosts
                 if _reverse(h).endswith("." + zones[i])]
        assert sorted(owner for owner, _ in ptrs) == sorted(
            _reverse(ipaddress.ip_address(m)) for m in moved), (zone, ptrs)
    checked = run(root, "verify")
    assert checked.exit_code == done.exit_code, (checked.stdout, done.exit_code)


def test_finding_13_a_grow_elsewhere_announces_the_zone_it_writes(repo: Repo, run: Run) -> None:
    files = {"named.conf": 'zone "48.0.10.in-addr.arpa" { type master; file "db.rev4"; };\n',
             "db.rev4": f"$ORIGIN 48.0.10.in-addr.arpa.\n$TTL 300\n{SOA}5 IN PTR host4.example.com.\n"}
    root = repo(files, config=_config("10.0.48.0/24", "10.1.0.0/16"), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert "  10.0.48.0/24 -> 10.1.0.0/16: rename 48.0.10.in-addr.arpa -> 1.10.in-addr.arpa\n" in done.stdout
    assert "0.1.10.in-addr.arpa" not in done.stdout and "add 1.10" not in done.stdout, done.stdout
    assert (root / "named.conf").read_text() == 'zone "1.10.in-addr.arpa" { type master; file "db.rev4"; };\n'
    assert _checked("1.10.in-addr.arpa", root / "db.rev4") == [("5.0.1.10.in-addr.arpa", "host4.example.com.")]


def test_finding_17_the_strict_dry_run_fails_where_the_sweep_leaves_a_zone_to_declare(repo: Repo, run: Run) -> None:
    files = {"named.conf": 'zone "48.0.10.in-addr.arpa" { type master; file "db.48"; };\n',
             "db.48": f"$TTL 300\n{SOA}5 IN PTR h.example.com.\n", "vars.yml": "net: 10.0.48.0/24\n"}
    root = repo(files, config=_config("10.0.48.0/24", "10.0.48.0/23"), allowlist=ALLOW)
    plain = run(root, "sweep", "--dry-run")
    assert plain.exit_code == 0  # a preview, as DESIGN says
    predicted = run(root, "sweep", "--dry-run", "--strict")
    assert predicted.exit_code == 1, predicted.stdout + predicted.stderr
    assert "renamer: --strict: 1 reference left for a decision" in predicted.stderr
    assert (root / "vars.yml").read_text() == "net: 10.0.48.0/24\n"  # nothing written
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1
    checked = run(root, "verify")
    assert checked.exit_code == 1
    # finding 21: the residual names the zone once, no `X -> X`
    assert ("named.conf:1:7: residual (reverse-zone): 49.0.10.in-addr.arpa: 10.0.48.0/24 -> 10.0.48.0/23 needs "
            "the reverse zone 49.0.10.in-addr.arpa") in checked.stdout, checked.stdout
    assert "49.0.10.in-addr.arpa -> 49.0.10.in-addr.arpa" not in checked.stdout
    # declared: the dry run of a second sweep has nothing left either
    (root / "named.conf").write_text('zone "48.0.10.in-addr.arpa" { type master; file "db.48"; };\n'
                                     'zone "49.0.10.in-addr.arpa" { type master; file "db.49"; };\n')
    (root / "db.49").write_text(f"$TTL 300\n{SOA}")
    assert run(root, "verify").exit_code == 0


# Beyond reverse zones: every file kind a resize decides (masks tied or not, broadcast, DHCP ranges,
# a shrink's address outside, a prefix value, Terraform's cidrsubnet) in one repo per move.
def _files(old: str) -> dict[str, str]:
    net = ipaddress.ip_network(old)
    a = net.network_address
    files = {"lan.yml": f"lan: {old}\nrouter: {a + 1}\n",
             "loose.yml": f"x: {a + 2}\n\nprefix: {net.prefixlen}\n",
             "main.tf": f'locals {{\n  sub = cidrsubnet("{old}", 2, 0)\n  gw = "{a + 1}"\n}}\n'}
    if net.version == 4:
        files["if.conf"] = (f"iface eth0 inet static\n    address {a + 3}\n    netmask {net.netmask}\n"
                            f"    broadcast {net.broadcast_address}\n")
        files["dnsmasq.conf"] = f"dhcp-range={a + 2},{a + 4},{net.netmask},12h\n"
        files["lone.yml"] = f"mask: {net.netmask}\n"
    return files


MOVES = [("10.0.48.0/24", "10.0.48.0/22"), ("10.0.48.0/22", "10.0.48.0/24"), ("10.0.48.0/29", "10.0.48.0/28"),
         ("10.0.48.0/23", "10.0.50.0/24"), ("10.0.48.0/24", "10.0.48.0/25"), ("2001:db8:a::/48", "2001:db8:b::/56"),
         ("2001:db8:a::/64", "2001:db8:a::/60"), ("2001:db8:a::/56", "2001:db8:a::/64")]


# each move as it is, and each shrink again with an address past the new network's end (refused, exit 3)
CASES = [(o, n, False) for o, n in MOVES] + [
    (o, n, True) for o, n in MOVES if ipaddress.ip_network(n).num_addresses < ipaddress.ip_network(o).num_addresses]


@pytest.mark.parametrize(("old", "new", "far"), CASES,
                         ids=[f"{o}->{n}{'-outside' if f else ''}" for o, n, f in CASES])
def test_the_strict_dry_run_exits_as_the_writing_sweep_over_every_kind_of_file(
        repo: Repo, run: Run, old: str, new: str, far: bool) -> None:
    files = _files(old)
    old_net, new_net = ipaddress.ip_network(old), ipaddress.ip_network(new)
    if far:
        files["far.yml"] = f"far: {old_net.network_address + new_net.num_addresses + 1}\n"
    root = repo(files, config=_config(old, new), allowlist=ALLOW)
    predicted = run(root, "sweep", "--dry-run", "--strict")
    done = run(root, "sweep", "--commit")
    assert predicted.exit_code == done.exit_code, (predicted.stderr, done.stdout + done.stderr)
    # a mask nothing ties to the network is left in each (1); refused (3): an address past a shrink's end,
    # or main.tf's `cidrsubnet(old, 2, 0)` wider than the shrunk network (f28-computed: it falls outside)
    fits = old_net.prefixlen + 2 >= new_net.prefixlen
    assert done.exit_code == (3 if far or not fits else 1), done.stdout + done.stderr
    if done.exit_code == 3:  # refused: nothing written
        assert all((root / rel).read_text() == text for rel, text in files.items())
        return
    checked = run(root, "verify")
    assert checked.exit_code == done.exit_code, (checked.stdout, done.stdout + done.stderr)
