"""Prefix renumbering, outside pass t29-33: IPv6 spellings a network move did not read, and /64s
SLAAC uses, each end to end on a real git repo (each failed on main).

07. A DNS APL record's IPv6 item (`2:2001:db8:a:10::/64`, `!2:...`) was never read: the `2:` family
    tag glued onto the address.
08. OpenBSD hostname.if's `inet6 ADDRESS 64` kept its length.
09. A /64 that SLAAC or EUI-64 uses (RouterOS `advertise=yes`, JunOS/IOS `eui-64`, VyOS `eui64`,
    dnsmasq's `ra-only`/`slaac`) was rewritten to another length, or (in place) said nothing.
11. networkd's `[IPv6AddressLabel] Prefix=` was taken for a router advertisement's prefix.
21. A canonical IPv6 address became non-canonical where the new head ends in zero groups.
23. SPF's `ip6:`, an SMTP literal's `[IPv6:...]` were never read; Postfix's `[ADDR]/LEN` kept its length.

Where the tool that reads the file is here, it reads the result: named-checkzone -D lists the
records as served, dnsmasq --test loads its file; Python's `ipaddress` reads the rest.
"""

from __future__ import annotations

import ipaddress
import json
import re
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.testing.findings import networks_config as _config
from tests.testing.repos import Repo, Run

ALLOW = 'version: 1\ncurrent: ["**"]\n'
SOA = "$ORIGIN example.com.\n$TTL 300\n@ IN SOA ns1 hostmaster 1 3600 600 86400 300\n@ IN NS ns1\n"


def _served(path: Path, rtype: str) -> list[str]:
    """The records of a type as named serves them (named-checkzone -D: the zone loaded, then dumped)."""
    done = subprocess.run(["named-checkzone", "-D", "example.com", str(path)], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return [line.split(None, 4)[4] for line in done.stdout.splitlines() if f" IN {rtype}" in line]


def _findings(root: Path, run: Run) -> list[tuple[str, int, str]]:
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    return sorted((f["path"], f["line"], f["reason"] or "") for f in found)


def _swept_clean(root: Path, run: Run) -> None:
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    checked = run(root, "verify")
    assert checked.exit_code == 0, checked.stdout
    again = run(root, "sweep", "--dry-run")
    assert again.exit_code == 0 and "would change 0 files" in again.stdout, again.stdout


# -- 07 and 23: an IPv6 address glued to a tag ------------------------------------------------------

@pytest.mark.parametrize(("old", "new"), [
    pytest.param("2001:db8:a:10::/64", "2001:db8:a:10::/60", id="grow-in-place-64-60"),
    pytest.param("2001:db8:a:10::/64", "2001:db8:b:20::/60", id="grow-elsewhere-64-60"),
    pytest.param("2001:db8:a::/48", "2001:db8:a::/56", id="shrink-in-place-48-56"),
    pytest.param("2001:db8:c::/48", "2001:db8:d::/48", id="move-48"),
])
def test_an_ipv6_address_after_a_tag_follows_with_its_length(old: str, new: str, repo: Repo, run: Run) -> None:
    """APL's `2:`/`!2:`, SPF's `ip6:`, an SMTP literal's `[IPv6:]`, Postfix's `[A]/LEN`, beside an IPv4
    item that always followed. Before: the IPv6 ones stayed whole (or kept the length), verify OK."""
    was, now = ipaddress.IPv6Network(old), ipaddress.IPv6Network(new)
    host = was.network_address + 0x25
    zone = (SOA + "ns1 IN A 192.0.2.1\n"
            f"lan IN APL 1:10.0.48.0/24 2:{was}\n"
            f"dmz IN APL !2:{was} 1:192.0.2.0/24\n"
            f'@ IN TXT "v=spf1 ip4:10.0.48.0/24 ip6:{was} ip6:{host} -all"\n')
    files = {"db.example.com": zone,
             "dns.yaml": f'spf: "v=spf1 ip6:{was} -all"\napl: "2:{was}"\npostmaster: "postmaster@[IPv6:{host}]"\n',
             "main.cf": f"mynetworks = 127.0.0.0/8 [::1]/128 10.0.48.0/24 [{was.network_address}]/{was.prefixlen}\n",
             "access": f"Connect:IPv6:{host}\tRELAY\n"}
    root = repo(files, config=_config(f'"{old}": "{new}", 10.0.48.0/24: 10.0.48.0/22'), allowlist=ALLOW)
    before = _findings(root, run)  # verify sees the old IPv6 values before the sweep (it said OK)
    assert ("db.example.com", 8, "") in before and ("dns.yaml", 1, "") in before
    _swept_clean(root, run)
    moved = now.network_address + 0x25
    assert _served(root / "db.example.com", "APL") == [f"!2:{now} 1:192.0.2.0/24", f"1:10.0.48.0/22 2:{now}"]
    assert _served(root / "db.example.com", "TXT") == [f'"v=spf1 ip4:10.0.48.0/22 ip6:{now} ip6:{moved} -all"']
    assert (root / "dns.yaml").read_text() == (f'spf: "v=spf1 ip6:{now} -all"\napl: "2:{now}"\n'
                                               f'postmaster: "postmaster@[IPv6:{moved}]"\n')
    assert (root / "access").read_text() == f"Connect:IPv6:{moved}\tRELAY\n"  # sendmail's access map
    networks = (root / "main.cf").read_text().split("=")[1].split()
    assert [ipaddress.ip_network(n.replace("[", "").replace("]", "")) for n in networks] == [
        ipaddress.ip_network("127.0.0.0/8"), ipaddress.ip_network("::1/128"),
        ipaddress.ip_network("10.0.48.0/22"), now]


def test_a_renamed_ipv6_address_after_a_tag_follows(repo: Repo, run: Run) -> None:
    """An `addresses` rename, not a network move: the same tags, the same reading."""
    files = {"dns.yaml": 'spf: "v=spf1 ip6:2001:db8:a::25 -all"\napl: "!2:2001:db8:a::25/128"\n'}
    config = 'version: 1\nrenames:\n  addresses: {"2001:db8:a::25": "2001:db8:b::26"}\nallowlist: allow.yaml\n'
    root = repo(files, config=config, allowlist=ALLOW)
    assert run(root, "verify").exit_code == 1  # it sees the old address before the sweep
    _swept_clean(root, run)
    assert (root / "dns.yaml").read_text() == files["dns.yaml"].replace("a::25", "b::26")


def test_a_shrink_refuses_a_tagged_address_it_cannot_place(repo: Repo, run: Run) -> None:
    """`ip6:` and `[IPv6:]` addresses are addresses in use: outside the new, smaller network the sweep
    is refused (exit 3), nothing written, as a plain one is."""
    files = {"dns.yaml": 'spf: "v=spf1 ip6:2001:db8:a:ff00::25 -all"\n',
             "aliases": "postmaster: root@[IPv6:2001:db8:a:ff00::26]\n"}
    root = repo(files, config=_config('"2001:db8:a::/48": "2001:db8:a::/56"'), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    for where in ("dns.yaml:1:", "aliases:1:"):
        assert re.search(rf"{re.escape(where)}\S* outside the new, smaller network", done.stdout + done.stderr), \
            done.stdout + done.stderr
    assert (root / "dns.yaml").read_text() == files["dns.yaml"]


def test_a_word_of_hex_digits_is_never_split_off_an_address(repo: Repo, run: Run) -> None:
    """`cafe:2001:db8::1` is one address (cafe:2001:db8::1), not `cafe:` then 2001:db8::1: left."""
    files = {"a.txt": "x cafe:2001:db8:a::1 y\n"}
    root = repo(files, config=_config('"2001:db8:a::/48": "2001:db8:b::/48"'), allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "a.txt").read_text() == files["a.txt"]


# -- 08: OpenBSD's bare length --------------------------------------------------------------------

@pytest.mark.parametrize(("old", "new", "line", "want"), [
    pytest.param("2001:db8:a:10::/64", "2001:db8:a:10::/60", "inet6 2001:db8:a:10::7 64",
                 "inet6 2001:db8:a:10::7 60", id="grow-in-place-64-60"),
    pytest.param("2001:db8:a:10::/64", "2001:db8:b:20::/60", "inet6 alias 2001:db8:a:10::8 64",
                 "inet6 alias 2001:db8:b:20::8 60", id="alias-elsewhere-64-60"),
    pytest.param("2001:db8:a::/48", "2001:db8:b::/56", "inet6 2001:db8:a::7\t48 vltime 3600",
                 "inet6 2001:db8:b::7\t56 vltime 3600", id="shrink-elsewhere-48-56"),
    pytest.param("2001:db8:a:10::/64", "2001:db8:a:10::/60", "inet6 2001:db8:a:10::7 80",
                 "inet6 2001:db8:a:10::7 80", id="a-longer-subnet-keeps-its-own"),
])
def test_openbsd_hostname_if_length_follows(old: str, new: str, line: str, want: str,
                                            repo: Repo, run: Run) -> None:
    files = {"hostname.em0": f"inet 10.0.48.7 255.255.255.0 NONE\ninet alias 10.0.48.8 255.255.255.0\n{line}\n"}
    root = repo(files, config=_config(f'"{old}": "{new}", 10.0.48.0/24: 10.0.60.0/22'), allowlist=ALLOW)
    _swept_clean(root, run)
    lines = (root / "hostname.em0").read_text().splitlines()
    assert lines == ["inet 10.0.60.7 255.255.252.0 NONE", "inet alias 10.0.60.8 255.255.252.0", want]
    words = want.split()
    address, length = (words[2], words[3]) if words[1] == "alias" else (words[1], words[2])
    network = ipaddress.ip_interface(f"{address}/{length}").network
    assert network == ipaddress.IPv6Network(new) or network.subnet_of(ipaddress.IPv6Network(new))


def test_openbsd_a_wider_bare_length_is_a_supernet(repo: Repo, run: Run) -> None:
    files = {"hostname.em1": "inet6 2001:db8:a:10::7 48\n"}
    root = repo(files, config=_config('"2001:db8:a:10::/64": "2001:db8:b:20::/60"'), allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "hostname.em1").read_text() == files["hostname.em1"]
    assert _findings(root, run) == [("hostname.em1", 1, "supernet")]


# -- 09 and 11: a /64 SLAAC or EUI-64 uses ----------------------------------------------------------

SLAAC = {
    "router.rsc": "/ipv6 address add address=2001:db8:a:10::1/64 advertise=yes interface=bridge\n",
    "export.rsc": ("/ipv6 address\nadd address=2001:db8:a:10::2/64 interface=bridge\n"
                   "add address=2001:db8:a:10::3/64 advertise=no interface=ether2\n"),
    "junos.set": "set interfaces ge-0/0/1 unit 0 family inet6 address 2001:db8:a:10::/64 eui-64\n",
    "vyos.set": "set interfaces ethernet eth1 ipv6 address eui64 2001:db8:a:10::/64\n",
    "ios.cfg": "interface Gi0/1\n ipv6 address 2001:db8:a:10::/64 eui-64\n ipv6 nd prefix 2001:db8:a:10::/64\n",
    "dnsmasq.conf": "dhcp-range=2001:db8:a:10::,ra-only,64,12h\ndhcp-range=2001:db8:a:10::100,2001:db8:a:10::1ff,64,12h\n",
    "10-lan.network": ("[Network]\nAddress=2001:db8:a:10::1/64\nIPv6SendRA=yes\n\n[IPv6AddressLabel]\n"
                       "Prefix=2001:db8:a:10::/64\nLabel=99\n\n[IPv6Prefix]\nPrefix=2001:db8:a:10::/64\n"),
    "rtadvd.conf": 'em0:\\\n\t:addr="2001:db8:a:10::":prefixlen#64:\n',
    "netsh.cmd": 'netsh interface ipv6 add route 2001:db8:a:10::/64 "LAN" publish=yes\n',
    "config.boot": ("policy {\n    prefix-list6 PL {\n        rule 10 {\n            action permit\n"
                    "            prefix 2001:db8:a:10::/64\n        }\n    }\n}\n"),
}
SAID = [("10-lan.network", 10, "mask"), ("dnsmasq.conf", 1, "mask"), ("export.rsc", 2, "mask"),
        ("ios.cfg", 2, "mask"), ("ios.cfg", 3, "mask"), ("junos.set", 1, "mask"), ("netsh.cmd", 1, "mask"),
        ("router.rsc", 1, "mask"), ("rtadvd.conf", 2, "mask"), ("vyos.set", 1, "mask")]


def _dnsmasq_loads(path: Path) -> None:
    done = subprocess.run(["dnsmasq", "--test", f"--conf-file={path}"], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and "syntax check OK" in done.stderr, done.stderr


@pytest.mark.parametrize(("new", "follows"), [
    pytest.param("2001:db8:a:10::/60", "2001:db8:a:10::", id="grow-in-place-64-60"),
    pytest.param("2001:db8:b:20::/60", "2001:db8:b:20::", id="grow-elsewhere-64-60"),
    pytest.param("2001:db8:a:10::/72", "2001:db8:a:10::", id="shrink-in-place-64-72"),
])
def test_a_64_slaac_or_eui64_uses_is_said_and_left(new: str, follows: str, repo: Repo, run: Run) -> None:
    """Each /64 SLAAC advertises or EUI-64 fills is a `mask` residual, left as written, before and
    after the sweep; the interface addresses, a prefix-list's entry and networkd's address-selection
    label beside them follow (before: rewritten to /60, or in place nothing said; the label was a
    residual, the prefix-list's entry too)."""
    root = repo(SLAAC, config=_config(f'"2001:db8:a:10::/64": "{new}"'), allowlist=ALLOW)
    _dnsmasq_loads(root / "dnsmasq.conf")
    assert [f for f in _findings(root, run) if f[2]] == SAID
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert "SLAAC takes only a /64" in done.stdout
    length = new.split("/")[1]
    for rel in ("router.rsc", "junos.set", "vyos.set", "ios.cfg", "rtadvd.conf", "netsh.cmd"):
        assert (root / rel).read_text() == SLAAC[rel], rel  # left whole, said
    assert (root / "export.rsc").read_text() == SLAAC["export.rsc"].replace(
        "2001:db8:a:10::3/64", f"{follows}3/{length}")  # `advertise=no`: an address as any other
    assert (root / "dnsmasq.conf").read_text().splitlines()[0] == SLAAC["dnsmasq.conf"].splitlines()[0]
    _dnsmasq_loads(root / "dnsmasq.conf")
    network = (root / "10-lan.network").read_text()
    assert f"Address={follows}1/{length}\n" in network
    assert f"[IPv6AddressLabel]\nPrefix={follows}/{length}\n" in network  # finding 11: follows
    assert "[IPv6Prefix]\nPrefix=2001:db8:a:10::/64\n" in network  # the RA prefix: said
    assert f"prefix {follows}/{length}\n" in (root / "config.boot").read_text()  # a prefix-list: follows
    assert _findings(root, run) == SAID  # verify keeps failing on each


def test_a_slaac_64_under_a_move_of_the_same_length_follows(repo: Repo, run: Run) -> None:
    root = repo(SLAAC, config=_config('"2001:db8:a:10::/64": "2001:db8:b:20::/64"'), allowlist=ALLOW)
    _swept_clean(root, run)
    assert (root / "router.rsc").read_text() == SLAAC["router.rsc"].replace("a:10::", "b:20::")
    assert (root / "junos.set").read_text() == SLAAC["junos.set"].replace("a:10::", "b:20::")
    assert (root / "rtadvd.conf").read_text() == SLAAC["rtadvd.conf"].replace("a:10::", "b:20::")
    _dnsmasq_loads(root / "dnsmasq.conf")


def test_the_address_label_alone_follows_and_verify_is_ok(repo: Repo, run: Run) -> None:
    """Finding 11's own file: before, a `mask` residual ("SLAAC takes only a /64"), exit 1, verify FAILED."""
    files = {"10-lan.network": "[Match]\nName=eth1\n\n[Network]\nAddress=2001:db8:a:10::1/64\n\n"
                               "[IPv6AddressLabel]\nPrefix=2001:db8:a:10::/64\nLabel=99\n"}
    root = repo(files, config=_config('"2001:db8:a:10::/64": "2001:db8:a:10::/60"'), allowlist=ALLOW)
    _swept_clean(root, run)
    assert (root / "10-lan.network").read_text() == files["10-lan.network"].replace("/64", "/60")


# -- 21: canonical stays canonical -----------------------------------------------------------------

@pytest.mark.parametrize(("old", "new"), [
    pytest.param("2001:db8:a:ab00::/56", "2001:db8:b::/48", id="grow-elsewhere-56-48"),
    pytest.param("2001:db8:a:10::/64", "2001:db8:c::/60", id="grow-elsewhere-64-60"),
    pytest.param("2001:db8:a:10::/64", "2001:db8:c::/64", id="move-64"),
])
def test_a_canonical_ipv6_spelling_stays_canonical(old: str, new: str, repo: Repo, run: Run) -> None:
    was, now = ipaddress.IPv6Network(old), ipaddress.IPv6Network(new)
    mask = str(ipaddress.IPv6Address(int(was.netmask)))
    values = {"site": str(was), "router": str(was.network_address + 1), "host": str(was.network_address + 0x10005),
              "upper": str(was.network_address + 1).upper()}
    files = {"v.yml": "".join(f"{k}: {v}\n" for k, v in values.items()),
             "ip6tables.rules": f"-A INPUT -s {was.network_address}/{mask} -j ACCEPT\n",
             "padded.yml": f"padded: {was.network_address.exploded}\n"}
    root = repo(files, config=_config(f'"{old}": "{new}"'), allowlist=ALLOW)
    _swept_clean(root, run)
    got = yaml.safe_load((root / "v.yml").read_text())
    for key in ("site", "router", "host"):
        value = got[key]
        parsed = ipaddress.ip_network(value) if "/" in value else ipaddress.ip_address(value)
        assert value == str(parsed), (key, value)  # RFC 5952, as Python writes it
    assert got["upper"] == str(now.network_address + 1).upper()
    rule = (root / "ip6tables.rules").read_text()
    assert rule == f"-A INPUT -s {now.network_address}/{ipaddress.IPv6Address(int(now.netmask))} -j ACCEPT\n"
    assert (root / "padded.yml").read_text() == f"padded: {now.network_address.exploded}\n"  # its own dress
