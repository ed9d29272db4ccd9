"""Prefix renumbering, outside pass t26-33: lengths written in forms the resize did not read, and a
host whose role a resize changes, each end to end on a real git repo (each failed on main).

02. An IPv6 netmask spelled as an address (ip6tables `-s P/ffff:ffff:ffff:ffff::`, nft
    `& ffff:ffff:ffff:ffff:: ==`) and an nft range spanning the whole old /64 kept the old length.
07. `addr%zone/len` (RFC 4007 11.7) kept its old length.
12. An IPv4 network in IPv4-mapped or NAT64 form (`::ffff:10.0.48.0/120`) kept its /120.
14. pfSense `<subnet>` became a `mask` residual when the stanza's IPv6 network was resized too.
15. `prefix6: 64` was read as an IPv4 length of /6: the stanza's address refused as a supernet while
    `prefix:` beside it was rewritten.
18. Cisco IOS `network A.B.C.D /LEN` and nft's `A / LEN` (a blank beside the slash) kept the length.
23. A /31 (or /127, /32) grown to a network with a network address: the host at offset 0 became the
    new network address, silently.

Where the tool that reads the file is here, it reads the result: nft loads the rules in a network
namespace of the test's own (`unshare -rn`, loopback only) and lists them; Python's `ipaddress`
reads the rest.
"""

from __future__ import annotations

import ipaddress
import re
import subprocess
from pathlib import Path

import pytest

from tests.testing.findings import networks_config as _config
from tests.testing.repos import Repo, Run

ALLOW = 'version: 1\ncurrent: ["**"]\n'


def _nft_reads(path: Path) -> str:
    """nft's own reading of a ruleset file: loaded in a namespace of the test's own, then listed."""
    done = subprocess.run(["unshare", "-rn", "sh", "-ec", f"nft -f {path}; nft list ruleset"],
                          capture_output=True, text=True, check=False, timeout=30)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _swept(root: Path, run: Run) -> None:
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    checked = run(root, "verify")
    assert checked.exit_code == 0, checked.stdout
    again = run(root, "sweep", "--dry-run")
    assert again.exit_code == 0 and "would change 0 files" in again.stdout, again.stdout


# -- 02: IPv6 masks spelled as addresses, a range over the whole old network ------------------------

NFT_V6 = """table inet f {{
 chain i {{
  ip6 saddr {net} accept
  ip6 saddr & {mask} == {first} accept
  ip6 saddr {first}-{last} accept
 }}
}}
"""


@pytest.mark.parametrize(("old", "new", "dress"), [
    pytest.param("2001:db8:a:10::/64", "2001:db8:a:10::/60", str, id="grow-in-place-64-60"),
    pytest.param("2001:db8:a::/48", "2001:db8:b::/56", str, id="shrink-elsewhere-48-56"),
    pytest.param("2001:db8:a:10::/60", "2001:db8:a:10::/64", str, id="shrink-in-place-60-64"),
    pytest.param("2001:db8:a::/56", "2001:db8:c::/48", str.upper, id="grow-elsewhere-upper-case"),
    pytest.param("2001:db8::/120", "2001:db8::/116", str, id="grow-in-place-120-116"),
])
def test_an_ipv6_mask_and_a_whole_range_follow_the_length(old: str, new: str, dress: type[str],
                                                          repo: Repo, run: Run) -> None:
    """Before: the `/len` lines followed, the mask spelled as an address and the range over the
    whole network stayed at the old length; sweep 0, verify OK. nft lists the result as the new
    network, and the range spans exactly it."""
    def spelled(net: ipaddress.IPv6Network) -> dict[str, str]:
        mask = ipaddress.IPv6Address(int(net.netmask))
        return {"net": dress(str(net)), "mask": dress(str(mask)), "first": dress(str(net.network_address)),
                "last": dress(str(net.broadcast_address))}
    was, now = ipaddress.IPv6Network(old), ipaddress.IPv6Network(new)
    rules = "*filter\n-A INPUT -s {first}/{mask} -j ACCEPT\nCOMMIT\n"
    root = repo({"fw.nft": NFT_V6.format(**spelled(was)), "ip6tables.rules": rules.format(**spelled(was))},
                config=_config(f'"{old}": "{new}"'), allowlist=ALLOW)
    _swept(root, run)
    # the mask keeps its dress where the new one can take it (`FFFF:FFFF:FFFF:0::`): read, not spelled
    masks = [re.search(r"(?:/|& )([0-9A-Fa-f:]*:[0-9A-Fa-f:]*) ", (root / name).read_text()) for name in ("fw.nft", "ip6tables.rules")]
    assert [ipaddress.IPv6Address(m.group(1)) for m in masks if m] == [now.netmask, now.netmask]
    expected = spelled(now)
    assert (root / "fw.nft").read_text() == NFT_V6.format(**{**expected, "mask": masks[0].group(1)})  # type: ignore[union-attr]
    assert (root / "ip6tables.rules").read_text() == rules.format(**{**expected, "mask": masks[1].group(1)})  # type: ignore[union-attr]
    listed = _nft_reads(root / "fw.nft")
    assert listed.count(f"ip6 saddr {now} accept") == 2, listed  # the /len line and the mask line
    first, last = re.search(r"ip6 saddr (\S+)-(\S+) accept", listed).groups()  # type: ignore[union-attr]
    assert (ipaddress.IPv6Address(first), ipaddress.IPv6Address(last)) == (now.network_address,
                                                                           now.broadcast_address)


def test_a_range_from_a_host_to_the_last_address_is_said(repo: Repo, run: Run) -> None:
    """`::100-...:ffff:ffff:ffff:ffff` under /64 -> /60: the end of the old network or the new one?
    Not certain: a `range` residual, the line as it was (before: left, verify OK)."""
    text = "ip6 saddr 2001:db8:a:10::100-2001:db8:a:10:ffff:ffff:ffff:ffff accept\n"
    root = repo({"fw.nft": text}, config=_config('"2001:db8:a:10::/64": "2001:db8:a:10::/60"'), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "fw.nft").read_text() == text
    checked = run(root, "verify")
    assert checked.exit_code == 1
    assert "fw.nft:1:30: residual (range): 2001:db8:a:10:ffff:ffff:ffff:ffff" in checked.stdout, checked.stdout


def test_a_wider_ipv6_mask_is_a_supernet(repo: Repo, run: Run) -> None:
    """`2001:db8:a::/ffff:ffff::` is a /32 around the moved /48: its address is not rewritten."""
    text = "-A INPUT -s 2001:db8:a::/ffff:ffff:: -j ACCEPT\n"
    root = repo({"ip6tables.rules": text}, config=_config('"2001:db8:a::/48": "2001:db8:b::/56"'), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "ip6tables.rules").read_text() == text
    assert "residual (supernet): 2001:db8:a::" in run(root, "verify").stdout


# -- 07: a zone ID between the address and its length --------------------------------------------

@pytest.mark.parametrize(("old", "new", "line", "expected"), [
    pytest.param("2001:db8:a::/48", "2001:db8:a::/56", "b 2001:db8:a::1%eth0/48\n",
                 "b 2001:db8:a::1%eth0/56\n", id="shrink-in-place-48-56"),
    pytest.param("2001:db8:a::/48", "2001:db8:b::/56", "b 2001:db8:a::1%eth0/48 fe80::1%eth0\n",
                 "b 2001:db8:b::1%eth0/56 fe80::1%eth0\n", id="elsewhere-48-56"),
    pytest.param("2001:db8:a:10::/64", "2001:db8:a:10::/60", "wg 2001:db8:a:10::1%wg0/64\n",
                 "wg 2001:db8:a:10::1%wg0/60\n", id="grow-in-place-64-60"),
])
def test_a_zone_id_keeps_the_length_with_its_address(old: str, new: str, line: str, expected: str,
                                                      repo: Repo, run: Run) -> None:
    root = repo({"addrs.txt": line}, config=_config(f'"{old}": "{new}"'), allowlist=ALLOW)
    _swept(root, run)
    assert (root / "addrs.txt").read_text() == expected
    written = expected.split()[1]
    assert ipaddress.IPv6Interface(written).network == ipaddress.IPv6Network(new)  # Python reads the zone


# -- 12: an IPv4 network in IPv4-mapped or NAT64 form ------------------------------------------------

@pytest.mark.parametrize(("networks", "before", "after"), [
    pytest.param("10.0.48.0/24: 10.0.60.0/22",
                 ["::ffff:10.0.48.0/120", "64:ff9b::10.0.48.0/120", "::ffff:a00:3000/120",
                  "0:0:0:0:0:FFFF:10.0.48.0/120", "::ffff:10.0.48.128/121"],
                 ["::ffff:10.0.60.0/118", "64:ff9b::10.0.60.0/118", "::ffff:a00:3c00/118",
                  "0:0:0:0:0:FFFF:10.0.60.0/118", "::ffff:10.0.60.128/121"], id="grow-elsewhere-24-22"),
    pytest.param("10.0.48.0/29: 10.0.48.0/28",
                 ["::ffff:10.0.48.0/125", "::ffff:a00:3003/125"],
                 ["::ffff:10.0.48.0/124", "::ffff:a00:3003/124"], id="grow-in-place-29-28"),
    pytest.param("10.0.48.0/23: 10.0.48.0/24",
                 ["::ffff:10.0.48.0/119", "64:ff9b::10.0.48.5/119"],
                 ["::ffff:10.0.48.0/120", "64:ff9b::10.0.48.5/120"], id="shrink-in-place-23-24"),
])
def test_a_mapped_network_keeps_96_bits_before_its_length(networks: str, before: list[str], after: list[str],
                                                           repo: Repo, run: Run) -> None:
    """Before: the address followed and /120 stayed, a quarter of the grown network (or under a
    shrink more than it). The nft rule is read back by nft: the mapped prefix of the new network."""
    new = ipaddress.ip_network(networks.split(": ")[1])
    # nft reads `::ffff:` before a dotted tail, no other head
    rules = "table inet f {\n chain i {\n" + "".join(f"  ip6 saddr {p} accept\n" for p in before
                                                   if p.startswith("::ffff:")) + " }\n}\n"
    root = repo({"acl.txt": "\n".join(before) + "\n", "fw.nft": rules}, config=_config(networks), allowlist=ALLOW)
    _swept(root, run)
    assert (root / "acl.txt").read_text() == "\n".join(after) + "\n"
    listed = _nft_reads(root / "fw.nft")
    for text in after:
        net = ipaddress.IPv6Network(text, strict=False)
        inner = ipaddress.IPv4Network((int(net.network_address) & 0xFFFFFFFF, net.prefixlen - 96))
        if text.startswith("::ffff:"):
            assert f"ip6 saddr ::ffff:{inner.network_address}/{net.prefixlen} accept" in listed, listed
        assert inner == new if net.prefixlen - 96 == new.prefixlen else inner.subnet_of(new)  # type: ignore[arg-type]


def test_a_mapped_address_a_shrink_cannot_place_refuses(repo: Repo, run: Run) -> None:
    root = repo({"acl.txt": "h ::ffff:10.0.49.5/119\n"}, config=_config("10.0.48.0/23: 10.0.48.0/24"),
                allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert "acl.txt:1: outside the new, smaller network" in done.stderr
    assert (root / "acl.txt").read_text() == "h ::ffff:10.0.49.5/119\n"


# -- 14, 15: a length key's family by its name ---------------------------------------------------------

PFSENSE = """<?xml version="1.0"?>
<pfsense>
  <interfaces>
    <lan>
      <ipaddr>{v4}</ipaddr>
      <subnet>{n4}</subnet>
      <ipaddrv6>{v6}</ipaddrv6>
      <subnetv6>{n6}</subnetv6>
    </lan>
  </interfaces>
</pfsense>
"""


@pytest.mark.parametrize(("networks", "before", "after"), [
    pytest.param('192.168.1.0/24: 10.9.8.0/23, "2001:db8:a:10::/64": "2001:db8:b:20::/60"',
                 ("192.168.1.1", 24, "2001:db8:a:10::1", 64), ("10.9.8.1", 23, "2001:db8:b:20::1", 60),
                 id="24-23-and-64-60"),
    pytest.param('192.168.1.0/24: 10.9.8.0/22, "2001:db8:a::/48": "2001:db8:b::/56"',
                 ("192.168.1.1", 24, "2001:db8:a::1", 48), ("10.9.8.1", 22, "2001:db8:b::1", 56),
                 id="24-22-and-48-56"),
    pytest.param('192.168.1.0/24: 10.9.8.0/23, "2001:db8:a:10::/64": "2001:db8:b:20::/64"',
                 ("192.168.1.1", 24, "2001:db8:a:10::1", 64), ("10.9.8.1", 23, "2001:db8:b:20::1", 64),
                 id="v6-equal-length"),
])
def test_pfsense_subnet_follows_beside_a_resized_ipv6_network(networks: str, before: tuple[str, int, str, int],
                                                              after: tuple[str, int, str, int],
                                                              repo: Repo, run: Run) -> None:
    """Before: with the IPv6 network resized too, `<subnet>24` was a `mask` residual (exit 1)."""
    fields = ("v4", "n4", "v6", "n6")
    root = repo({"config.xml": PFSENSE.format(**dict(zip(fields, before, strict=True)))},
                config=_config(networks), allowlist=ALLOW)
    _swept(root, run)
    assert (root / "config.xml").read_text() == PFSENSE.format(**dict(zip(fields, after, strict=True)))


UCI = ("config interface 'lan'\n\toption proto 'static'\n\toption ipaddr '{v4}'\n\toption netmask '{mask}'\n"
       "\toption ip6addr '{v6}'\n")


def test_uci_netmask_follows_beside_a_resized_ipv6_network(repo: Repo, run: Run) -> None:
    root = repo({"etc/config/network": UCI.format(v4="192.168.1.1", mask="255.255.255.0",
                                                  v6="2001:db8:a:10::1/64")},
                config=_config('192.168.1.0/24: 10.9.8.0/23, "2001:db8:a:10::/64": "2001:db8:b:20::/60"'),
                allowlist=ALLOW)
    _swept(root, run)
    assert (root / "etc/config/network").read_text() == UCI.format(v4="10.9.8.1", mask="255.255.254.0",
                                                                   v6="2001:db8:b:20::1/60")


VARS = "lan:\n  address: {v4}\n  prefix: {n4}\n  address6: {v6}\n  prefix6: {n6}\n"


@pytest.mark.parametrize(("networks", "after"), [
    pytest.param("192.168.1.0/24: 10.9.8.0/23", ("10.9.8.1", 23, "2001:db8:a:10::1", 64), id="v4-only"),
    pytest.param('192.168.1.0/24: 10.9.8.0/23, "2001:db8:a:10::/64": "2001:db8:b:20::/60"',
                 ("10.9.8.1", 23, "2001:db8:b:20::1", 60), id="both-resized"),
    pytest.param('"2001:db8:a:10::/64": "2001:db8:c:100::/56"', ("192.168.1.1", 24, "2001:db8:c:100::1", 56),
                 id="v6-only-grow-elsewhere"),
])
def test_prefix6_is_the_ipv6_length_never_a_v4_one(networks: str, after: tuple[str, int, str, int],
                                                   repo: Repo, run: Run) -> None:
    """Before: `prefix6: 64` read as `prefix` + 6: `address: 192.168.1.1` refused as a supernet of /6
    while `prefix: 24` became 23 beside it (exit 1, the stanza half moved)."""
    fields = ("v4", "n4", "v6", "n6")
    root = repo({"vars.yml": VARS.format(v4="192.168.1.1", n4=24, v6="2001:db8:a:10::1", n6=64)},
                config=_config(networks), allowlist=ALLOW)
    _swept(root, run)
    assert (root / "vars.yml").read_text() == VARS.format(**dict(zip(fields, after, strict=True)))


# -- 18: a blank beside the slash -------------------------------------------------------------------------

@pytest.mark.parametrize(("networks", "before", "after"), [
    pytest.param("192.168.40.0/24: 10.20.0.0/22", "network 192.168.40.0 /24", "network 10.20.0.0 /22",
                 id="cisco-24-22-elsewhere"),
    pytest.param("10.0.48.0/29: 10.0.64.0/28", "network 10.0.48.0 /29", "network 10.0.64.0 /28",
                 id="cisco-29-28-elsewhere"),
    pytest.param("192.168.40.0/23: 192.168.40.0/24", "network 192.168.40.0 /23", "network 192.168.40.0 /24",
                 id="cisco-23-24-shrink-in-place"),
])
def test_a_cisco_pool_length_after_a_blank_follows(networks: str, before: str, after: str,
                                                   repo: Repo, run: Run) -> None:
    text = "ip dhcp pool LAN\n {}\n!\n"
    root = repo({"cisco.cfg": text.format(before)}, config=_config(networks), allowlist=ALLOW)
    _swept(root, run)
    assert (root / "cisco.cfg").read_text() == text.format(after)


def test_an_nft_length_after_blanks_follows_and_nft_reads_it(repo: Repo, run: Run) -> None:
    rules = "table inet f {\n  chain i {\n    ip saddr 192.168.40.0 / 24 accept\n    ip saddr 192.168.40.0\t/24 drop\n  }\n}\n"
    root = repo({"fw.nft": rules}, config=_config("192.168.40.0/24: 10.20.0.0/22"), allowlist=ALLOW)
    _swept(root, run)
    assert (root / "fw.nft").read_text() == rules.replace("192.168.40.0 / 24", "10.20.0.0 / 22").replace(
        "192.168.40.0\t/24", "10.20.0.0\t/22")
    listed = _nft_reads(root / "fw.nft")
    assert "ip saddr 10.20.0.0/22 accept" in listed and "ip saddr 10.20.0.0/22 drop" in listed, listed


def test_a_slash_after_a_blank_that_is_no_length_is_left(repo: Repo, run: Run) -> None:
    """A pair of addresses, a word, a path: no length; the addresses move, nothing else. A wider
    length after a blank is a supernet, said (under an equal-length move too)."""
    text = "a 10.9.0.5 / 10.9.0.6\nb 10.9.0.5 /24hours\nc cp 10.9.0.5 /24/x\n"
    root = repo({"a.txt": text}, config=_config("10.9.0.0/24: 10.10.0.0/23"), allowlist=ALLOW)
    _swept(root, run)
    assert (root / "a.txt").read_text() == text.replace("10.9.0.", "10.10.0.")
    for networks in ("10.9.0.0/24: 10.10.0.0/23", "10.9.0.0/24: 10.10.0.0/24"):
        root = repo({"b.txt": "d 10.9.0.0 /16\n"}, config=_config(networks), allowlist=ALLOW)
        done = run(root, "sweep", "--commit")
        assert done.exit_code == 1, done.stdout + done.stderr
        assert (root / "b.txt").read_text() == "d 10.9.0.0 /16\n"
        assert "b.txt:1:3: residual (supernet): 10.9.0.0" in run(root, "verify").stdout


# -- 23: a host a resize would put on the new network address -------------------------------------------

@pytest.mark.parametrize(("networks", "files", "where"), [
    pytest.param("10.0.48.0/31: 10.0.60.0/30",
                 {"cisco.cfg": "interface eth1\n ip address 10.0.48.0 255.255.255.254\n",
                  "p2p.network": "[Network]\nAddress=10.0.48.1/31\nGateway=10.0.48.0\n"},
                 ["cisco.cfg:2", "p2p.network:3"], id="31-30-elsewhere"),
    pytest.param("10.0.48.0/31: 10.0.48.0/30", {"p2p.network": "[Network]\nAddress=10.0.48.0/31\n"},
                 ["p2p.network:2"], id="31-30-in-place"),
    pytest.param("10.0.48.0/32: 10.0.60.0/29", {"peers.txt": "peer 10.0.48.0\n"}, ["peers.txt:1"],
                 id="32-29"),
    pytest.param('"2001:db8:a::/127": "2001:db8:b::/126"',
                 {"p2p.network": "[Network]\nAddress=2001:db8:a::/127\nGateway=2001:db8:a::1\n"},
                 ["p2p.network:2"], id="v6-127-126"),
    pytest.param("10.0.48.0/31: 10.0.60.0/30",
                 {"db.rev": "$ORIGIN 48.0.10.in-addr.arpa.\n@ IN SOA ns.lab. a.lab. 1 1 1 1 1\n@ IN NS ns.lab.\n"
                            "0 IN PTR a.lab.\n1 IN PTR b.lab.\n",
                  "hosts.txt": "0.48.0.10.in-addr.arpa. PTR a.lab.\n"},
                 ["db.rev:4", "hosts.txt:1"], id="31-30-reverse-names"),
    pytest.param("10.0.48.0/31: 10.0.60.0/30", {"acl.txt": "peer ::ffff:a00:3000\nlink ::ffff:a00:3000/127\n"},
                 ["acl.txt:1"], id="31-30-mapped-hex"),
])
def test_a_host_a_grow_puts_on_the_network_address_refuses(networks: str, files: dict[str, str],
                                                           where: list[str], repo: Repo, run: Run) -> None:
    """Before: `ip address 10.0.60.0 255.255.255.252` and `Gateway=10.0.60.0` (the /30's network
    address) were written, sweep 0, verify OK. Now exit 3 before the first write, each file:line."""
    root = repo(files, config=_config(networks), allowlist=ALLOW)
    preview = run(root, "sweep", "--dry-run", "--strict")
    assert preview.exit_code == 3, preview.stdout + preview.stderr
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert "no host place in the new network" in done.stderr
    for place in where:
        assert f"{place}: no host place in the new network: " in done.stderr, done.stderr
    for name, text in files.items():
        assert (root / name).read_text() == text
    status = subprocess.run(["git", "status", "--porcelain"], cwd=root, capture_output=True, text=True,
                            check=True)
    assert status.stdout == ""


def test_the_network_itself_follows_a_grown_31(repo: Repo, run: Run) -> None:
    """Offset 0 written as the network (`/31`, a route, OSPF's `network`, WireGuard's AllowedIPs, a
    range over the whole /31) is the network: it follows to the /30's."""
    text = ("ip route 10.0.48.0/31 via 192.168.1.1\nrouter ospf 1\n network 10.0.48.0 0.0.0.1 area 0\n"
            "AllowedIPs = 10.0.48.0/31\nrange 10.0.48.0-10.0.48.1\n")
    root = repo({"net.cfg": text}, config=_config("10.0.48.0/31: 10.0.60.0/30"), allowlist=ALLOW)
    _swept(root, run)
    assert (root / "net.cfg").read_text() == (
        "ip route 10.0.60.0/30 via 192.168.1.1\nrouter ospf 1\n network 10.0.60.0 0.0.0.3 area 0\n"
        "AllowedIPs = 10.0.60.0/30\nrange 10.0.60.0-10.0.60.3\n")


def test_an_inventory_host_a_grow_puts_on_the_network_address_refuses(repo: Repo, run: Run) -> None:
    """The DNS inventory's hosts are hosts: one at offset 0 of a /31 has no place in the grown /30."""
    site = ("site: lab\ndomain: lab.lan\nnetwork: 10.0.48.0/31\nhosts:\n"
            "  - {name: a, address: 10.0.48.0}\n  - {name: b, address: 10.0.48.1}\n")
    root = repo({"site.env": "PEER=10.0.48.1\n", "dns/sites/lab.yaml": site},
                config=_config("10.0.48.0/31: 10.0.60.0/30"), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert "dns/sites/lab.yaml: no host place in the new network: hosts[a]: 10.0.48.0 is a host of " \
        "10.0.48.0/31" in done.stderr, done.stderr
    assert (root / "site.env").read_text() == "PEER=10.0.48.1\n"


def test_a_wider_ipv6_length_key_is_a_supernet_and_an_ipv4_one_no_ipv6_length(repo: Repo, run: Run) -> None:
    """`prefix6: 32` beside `address6:` is a /32 around the moved /48: said, not rewritten; an untagged
    `prefix: 24` is no IPv6 address's length (the address follows)."""
    networks = _config('"2001:db8:a::/48": "2001:db8:b::/56"')
    root = repo({"vars.yml": "lan:\n  address6: 2001:db8:a::1\n  prefix6: 32\n"}, config=networks, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "vars.yml").read_text() == "lan:\n  address6: 2001:db8:a::1\n  prefix6: 32\n"
    assert "vars.yml:2:13: residual (supernet): 2001:db8:a::1" in run(root, "verify").stdout
    root = repo({"vars.yml": "lan:\n  address: 2001:db8:a::1\n  prefix: 24\n"}, config=networks, allowlist=ALLOW)
    _swept(root, run)
    assert (root / "vars.yml").read_text() == "lan:\n  address: 2001:db8:b::1\n  prefix: 24\n"
