"""Prefix renumbering, breaker round f25 (issue 33): the severity-1 findings, each end to end.

1. pfSense and OPNsense keep the length apart from the address as an XML element (`<ipaddr>` beside
   `<subnet>29</subnet>`, `<subnetv6>64</subnetv6>`): never read, so a /29 moved to a /28 kept 29,
   sweep 0, verify OK.
2. A resize in place renames the whole network's reverse zone (`9.10.in-addr.arpa` becomes
   `0.9.10.in-addr.arpa` under `10.9.0.0/16: 10.9.0.0/24`, and the same for ip6.arpa) and keeps every
   address, so its relative owners (`5.0`) stayed as written: under the new origin each named
   another address (5.0.0.9.10...) or none; named-checkzone loaded it, sweep 0, verify OK. The same
   for a `$GENERATE` owner under an origin renamed to a zone of another depth, in place or not.
3. A router advertisement's /64 (radvd `prefix`, networkd `[IPv6Prefix] Prefix=`) was rewritten to
   the new length under a /64 -> /60 move: SLAAC takes only a /64 (RFC 4862), so every host lost
   its address, verify OK.
4. A template completing a network's head under a shrink to a network off the head's octet
   boundary (`10.0.40.${x}` under `10.0.40.0/24: 10.0.50.128/25`) crashed the scan (exit 2,
   "internal error: ValueError").
5. An ip6.arpa zone in upper case outside a DNS configuration was left, verify OK.
6. A network written short (`10.0.48/29`, iproute2's) spelled no address: left, verify OK.
"""

from __future__ import annotations

import ipaddress
import json
import subprocess
from pathlib import Path

import pytest

from tests.testing.findings import networks_config as _config
from tests.testing.repos import Repo, Run, make_repo
from tests.testing.zones import loaded

ALLOW = 'version: 1\ncurrent: ["**"]\n'


PFSENSE = """<pfsense>
  <interfaces>
    <wan>
      <if>em0</if>
      <ipaddr>203.0.113.5</ipaddr>
      <subnet>29</subnet>
    </wan>
    <lan>
      <if>em1</if>
      <ipaddr>10.0.48.1</ipaddr>
      <subnet>29</subnet>
      <ipaddrv6>2001:db8:a:1::1</ipaddrv6>
      <subnetv6>64</subnetv6>
    </lan>
  </interfaces>
  <staticroutes>
    <route>
      <network>10.0.48.0/29</network>
    </route>
  </staticroutes>
</pfsense>
"""


@pytest.mark.parametrize(("networks", "changed"), [
    pytest.param("10.0.48.0/29: 10.0.64.0/28",
                 [("<ipaddr>10.0.48.1</ipaddr>", "<ipaddr>10.0.64.1</ipaddr>"),
                  ("<ipaddr>10.0.64.1</ipaddr>\n      <subnet>29</subnet>",
                   "<ipaddr>10.0.64.1</ipaddr>\n      <subnet>28</subnet>"),
                  ("10.0.48.0/29", "10.0.64.0/28")], id="v4-grow-elsewhere"),
    pytest.param("10.0.48.0/29: 10.0.48.0/30",
                 [("<ipaddr>10.0.48.1</ipaddr>\n      <subnet>29</subnet>",
                   "<ipaddr>10.0.48.1</ipaddr>\n      <subnet>30</subnet>"),
                  ("10.0.48.0/29", "10.0.48.0/30")], id="v4-shrink-in-place"),
    pytest.param("2001:db8:a:1::/64: 2001:db8:a:10::/60",
                 [("<ipaddrv6>2001:db8:a:1::1</ipaddrv6>\n      <subnetv6>64</subnetv6>",
                   "<ipaddrv6>2001:db8:a:10::1</ipaddrv6>\n      <subnetv6>60</subnetv6>")], id="v6-grow"),
])
def test_an_xml_length_element_follows_its_interface(networks: str, changed: list[tuple[str, str]],
                                                      repo: Repo, run: Run) -> None:
    root = repo({"pfsense/config.xml": PFSENSE}, config=_config(networks), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    expected = PFSENSE
    for old, new in changed:
        assert old in expected, old
        expected = expected.replace(old, new)
    assert (root / "pfsense/config.xml").read_text() == expected
    assert "<ipaddr>203.0.113.5</ipaddr>\n      <subnet>29</subnet>" in expected  # the WAN's own length
    assert run(root, "verify").exit_code == 0


SOA = "$TTL 3600\n@ IN SOA ns1.lab. admin.lab. 1 3600 600 86400 3600\n@ IN NS ns1.lab.\n"
V4_16 = ("9.10.in-addr.arpa", "5.0 IN PTR a.lab.\n6.0 IN PTR b.lab.\n$GENERATE 20-21 $.0 PTR dyn-$.lab.\n")
V4_24 = ("0.9.10.in-addr.arpa", "5 IN PTR a.lab.\n6 IN PTR b.lab.\n$GENERATE 20-21 $ PTR dyn-$.lab.\n")
V6_48 = ("a.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa", "0.1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.1.0.0.0 IN PTR a.lab.\n")
V6_56 = ("0.0.a.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa", "0.1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.1.0 IN PTR a.lab.\n")
V4_NAMES = [("5.0.{}.in-addr.arpa.", "a.lab."), ("6.0.{}.in-addr.arpa.", "b.lab."),
            ("20.0.{}.in-addr.arpa.", "dyn-20.lab."), ("21.0.{}.in-addr.arpa.", "dyn-21.lab.")]


@pytest.mark.parametrize(("zone", "networks", "new_zone", "names"), [
    pytest.param(V4_16, "10.9.0.0/16: 10.9.0.0/24", "0.9.10.in-addr.arpa",
                 [(n.format("9.10"), t) for n, t in V4_NAMES], id="v4-shrink-in-place"),
    pytest.param(V4_24, "10.9.0.0/24: 10.9.0.0/16", "9.10.in-addr.arpa",
                 [(n.format("9.10"), t) for n, t in V4_NAMES], id="v4-grow-in-place"),
    pytest.param(V4_16, "10.9.0.0/16: 10.20.0.0/24", "0.20.10.in-addr.arpa",
                 [(n.format("20.10"), t) for n, t in V4_NAMES], id="v4-shrink-elsewhere-generate"),
    pytest.param(V4_24, "10.9.0.0/24: 10.20.0.0/16", "20.10.in-addr.arpa",
                 [(n.format("20.10"), t) for n, t in V4_NAMES], id="v4-grow-elsewhere-generate"),
    pytest.param(V6_48, "2001:db8:a::/48: 2001:db8:a::/56", "0.0.a.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa",
                 [("0.1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.1.0.0.0.a.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa.", "a.lab.")],
                 id="v6-shrink-in-place"),
    pytest.param(V6_56, "2001:db8:a::/56: 2001:db8:a::/48", "a.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa",
                 [("0.1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.1.0.0.0.a.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa.", "a.lab.")],
                 id="v6-grow-in-place"),
])
def test_a_reverse_zone_renamed_to_another_depth_keeps_its_ptr_names(
        zone: tuple[str, str], networks: str, new_zone: str, names: list[tuple[str, str]],
        repo: Repo, run: Run) -> None:
    """BIND's own reading: every PTR answers for the address it answered for before (in place) or
    for its moved address, under the renamed zone."""
    origin, records = zone
    files = {"named.conf": f'zone "{origin}" {{ type master; file "db.rev"; }};\n',
             "db.rev": f"$ORIGIN {origin}.\n{SOA}{records}"}
    root = repo(files, config=_config(networks), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert f'zone "{new_zone}"' in (root / "named.conf").read_text()
    ptrs = [(owner, rdata) for owner, kind, rdata in loaded(root / "db.rev", new_zone) if kind == "PTR"]
    assert ptrs == sorted(names)
    assert run(root, "verify").exit_code == 0
    again = run(root, "sweep", "--dry-run", "--format", "json")
    assert json.loads(again.stdout)["edits"] == []  # a second sweep changes nothing


def test_a_generate_template_no_plain_dollar_rewrites_is_a_residual(repo: Repo, run: Run) -> None:
    """`$GENERATE 20-21 ${0,3,d}.0 PTR ...` (a width modifier) under an origin renamed to another
    depth: not rewritten by guess, a residual with why."""
    files = {"db.rev": f"$ORIGIN 9.10.in-addr.arpa.\n{SOA}$GENERATE 20-21 ${{0,3,d}}.0 PTR dyn-$.lab.\n"}
    root = repo(files, config=_config("10.9.0.0/16: 10.9.0.0/24"), allowlist=ALLOW)
    done = run(root, "sweep", "--dry-run", "--format", "json")
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    said = [f for f in found if f["reason"]]
    assert [(f["line"], f["reason"]) for f in said] == [(5, "range")], found
    assert "a zone of another depth" in said[0]["note"]
    assert json.loads(done.stdout)["edits"][0]["new"] == "0.9.10.in-addr.arpa"


RA = {"radvd.conf": "interface eth0 {\n  prefix 2001:db8:a:1::/64 {\n    AdvOnLink on;\n  };\n"
                    "  RDNSS 2001:db8:a:1::1 {};\n};\n",
      "10-lan.network": "[Network]\nAddress=2001:db8:a:1::10/64\n\n[IPv6Prefix]\nPrefix=2001:db8:a:1::/64\n",
      "vyos.sh": "set service router-advert interface eth1 prefix 2001:db8:a:1::/64\n"}


def test_a_router_advertisement_prefix_is_never_given_another_length(repo: Repo, run: Run) -> None:
    root = repo(RA, config=_config("2001:db8:a:1::/64: 2001:db8:a:10::/60"), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert "prefix 2001:db8:a:1::/64 {" in (root / "radvd.conf").read_text()  # left whole, said
    assert "RDNSS 2001:db8:a:10::1" in (root / "radvd.conf").read_text()
    network = (root / "10-lan.network").read_text()
    assert "Address=2001:db8:a:10::10/60" in network and "Prefix=2001:db8:a:1::/64" in network
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert sorted((f["path"], f["line"], f["reason"]) for f in found) == [
        ("10-lan.network", 5, "mask"), ("radvd.conf", 2, "mask"), ("vyos.sh", 1, "mask")], found
    assert all("SLAAC takes only a /64" in f["note"] for f in found)


def test_a_router_advertisement_prefix_of_a_64_move_follows(repo: Repo, run: Run) -> None:
    root = repo(RA, config=_config("2001:db8:a:1::/64: 2001:db8:b:1::/64"), allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert "prefix 2001:db8:b:1::/64 {" in (root / "radvd.conf").read_text()
    assert "Prefix=2001:db8:b:1::/64" in (root / "10-lan.network").read_text()


def test_a_template_under_a_shrink_off_the_octet_boundary_is_said_not_a_crash(repo: Repo, run: Run) -> None:
    files = {"ping.sh": "ping -c1 10.0.40.${N}\n", "a.env": "GW=10.0.40.1\n"}
    root = repo(files, config=_config("10.0.40.0/24: 10.0.50.128/25"), allowlist=ALLOW)
    dry = run(root, "sweep", "--dry-run")
    assert dry.exit_code == 0, dry.stdout + dry.stderr
    assert "internal error" not in dry.stderr
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert [(f["path"], f["reason"]) for f in found if f["reason"]] == [
        ("ping.sh", "composed-address")], found
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "a.env").read_text() == "GW=10.0.50.129\n"


CORPUS = {
    "dnsmasq.d/lan.conf": "dhcp-range=set:lan,10.0.48.2,10.0.48.6,255.255.255.248,10.0.48.7,12h\n"
                          "dhcp-range=tag:lan,10.0.48.2,10.0.48.6,infinite\n"
                          "dhcp-range=10.0.48.0,static,255.255.255.248\n"
                          "dhcp-option=tag:lan,option:router,10.0.48.1\ndhcp-option=28,10.0.48.7\n"
                          "dhcp-option=121,10.0.48.0/29,10.0.48.1\n"
                          "dhcp-host=set:lan,aa:bb:cc:dd:ee:01,10.0.48.3,printer,24h\n",
    "net.sh": "ip link set lo up\nip addr add 10.0.48.2/29 brd 10.0.48.7 dev lo\n"
              "ip route add 10.0.48.0/29 dev lo table 100\n",
    "cisco.cfg": "interface Vlan48\n ip address 10.0.48.1 255.255.255.248\n"
                 "access-list 10 permit 10.0.48.0 0.0.0.7\n",
    "kea.json": '{"Dhcp4": {"subnet4": [{"id": 1, "subnet": "10.0.48.0/29",\n'
                '  "pools": [{"pool": "10.0.48.2 - 10.0.48.6"}, {"pool": "10.0.48.0/29"}],\n'
                '  "option-data": [{"name": "broadcast-address", "data": "10.0.48.7"}]}]}}\n',
}


def _netns(script: Path) -> str:
    done = subprocess.run(["unshare", "-rn", "sh", "-ec", f". {script}; ip -o addr show dev lo; "
                           "ip route show table 100"], capture_output=True, text=True, check=False, timeout=30)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("networks", ["10.0.48.0/29: 10.0.48.0/28", "10.0.48.0/29: 10.0.64.0/28"])
def test_the_rewritten_corpus_parses_with_its_own_tools(networks: str, tmp_path: Path, run: Run) -> None:
    """dnsmasq --test, iproute2 in a network namespace of its own (loopback only) and Python's
    ipaddress read every rewritten line as the new network's."""
    root = make_repo(tmp_path / "repo", CORPUS, config=_config(networks), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    new = networks.split(": ")[1]
    head = new.rsplit(".", 1)[0]
    test = subprocess.run(["dnsmasq", "--test", "-C", str(root / "dnsmasq.d/lan.conf")], capture_output=True,
                          text=True, check=False)
    assert test.returncode == 0, test.stderr
    text = (root / "dnsmasq.d/lan.conf").read_text()
    assert f"{head}.2,{head}.6,255.255.255.240,{head}.15,12h" in text
    assert f"dhcp-option=28,{head}.15" in text and f"121,{head}.0/28,{head}.1" in text
    shown = _netns(root / "net.sh")
    assert f"inet {head}.2/28 brd {head}.15" in shown and f"{head}.0/28 dev lo" in shown
    cisco = (root / "cisco.cfg").read_text()
    assert f"ip address {head}.1 255.255.255.240" in cisco and f"permit {head}.0 0.0.0.15" in cisco
    kea = json.loads((root / "kea.json").read_text())["Dhcp4"]["subnet4"][0]
    net = ipaddress.ip_network(kea["subnet"])
    assert str(net) == new
    assert ipaddress.ip_network(kea["pools"][1]["pool"]) == net
    assert kea["option-data"][0]["data"] == str(net.broadcast_address)


def test_an_ip6_arpa_zone_in_upper_case_follows_in_its_own_case(repo: Repo, run: Run) -> None:
    """5. `A.0.0.0.8.B.D.0.1.0.0.2.IP6.ARPA` in a script (outside a DNS configuration) was left, verify
    OK, while its lower-case twin and a full nibble name in upper case followed."""
    text = ("Z=A.0.0.0.8.B.D.0.1.0.0.2.IP6.ARPA\nM=A.0.0.0.8.B.D.0.1.0.0.2.ip6.arpa\n"
            "L=a.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa\nnsupdate -z a.0.0.0.8.b.d.0.1.0.0.2.IP6.ARPA\n")
    for networks, new in (("2001:db8:a::/48: 2001:db8:b::/48", "b"), ("2001:db8:a::/48: 2001:db8:c::/48", "c")):
        root = repo({"dns.sh": text}, config=_config(networks), allowlist=ALLOW)
        before = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
        assert [f["line"] for f in before] == [1, 2, 3, 4], before
        assert run(root, "sweep", "--commit").exit_code == 0
        up = new.upper()
        assert (root / "dns.sh").read_text() == (
            f"Z={up}.0.0.0.8.B.D.0.1.0.0.2.IP6.ARPA\nM={up}.0.0.0.8.B.D.0.1.0.0.2.ip6.arpa\n"
            f"L={new}.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa\nnsupdate -z {new}.0.0.0.8.b.d.0.1.0.0.2.IP6.ARPA\n")
        assert run(root, "verify").exit_code == 0


def test_a_network_written_short_is_said(repo: Repo, run: Run, tmp_path: Path) -> None:
    """6. iproute2 reads `10.0.48/29` as 10.0.48.0/29 (shown in a namespace of its own); no address
    spells it, so it stayed under the move, verify OK. Now a `mask` residual, before and after the
    sweep; a short network outside the moved one (`10.0/16`) and the new one written short under a
    resize in place are left."""
    shown = subprocess.run(["unshare", "-rn", "sh", "-ec", "ip link set lo up; ip route add 10.0.48/29 dev lo; "
                            "ip route show"], capture_output=True, text=True, check=True, timeout=30).stdout
    assert "10.0.48.0/29 dev lo" in shown
    text = "ip route add 10.0.48/29 via 192.168.1.1\nip route add 10.0/16 via 192.168.1.1\nHOST=10.0.48.3\n"
    root = repo({"net.sh": text}, config=_config("10.0.48.0/29: 10.0.64.0/28"), allowlist=ALLOW)
    found = [f for f in json.loads(run(root, "verify", "--format", "json").stdout)["findings"] if f["reason"]]
    assert [(f["line"], f["column"], f["reason"]) for f in found] == [(1, 14, "mask")], found
    assert "10.0.48.0/29 written short" in found[0]["note"]
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "net.sh").read_text() == text.replace("10.0.48.3", "10.0.64.3")
    after = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert [(f["line"], f["reason"]) for f in after] == [(1, "mask")]
    in_place = make_repo(tmp_path / "in-place", {"net.sh": "ip route add 10.0.48/28 dev lo\n"},
                         config=_config("10.0.48.0/29: 10.0.48.0/28"), allowlist=ALLOW)
    assert json.loads(run(in_place, "verify", "--format", "json").stdout)["findings"] == []
