"""1:1 maps whose two sides are written apart (t31-33, finding 15), end to end on real git repos.

pfSense/OPNsense's `<onetoone>` (its `<external>` address takes the source's length) and `<npt>`
(NPTv6 needs both sides of one length), and a Cisco ASA `object network` block a twice NAT names or
that holds its own auto NAT: under a resize the moved side grew alone, sweep 0, verify OK. Each is
a `tied-length` residual now, as an iptables NETMAP line is; the file is left as it was and still
parses as XML; a block that is no map is still rewritten, and an NPt rule whose both sides move
alike follows.
"""

from __future__ import annotations

import ipaddress
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.testing.findings import networks_config as _config
from tests.testing.repos import Repo, Run

ALLOW = 'version: 1\ncurrent: ["**"]\n'


def _reasons(run: Run, root: Path) -> dict[tuple[str, int], str]:
    checked = run(root, "verify", "--format", "json")
    return {(str(f["path"]), int(f["line"])): str(f["reason"]) for f in json.loads(checked.stdout)["findings"]}


PFSENSE = """\
<?xml version="1.0"?>
<pfsense>
  <nat>
    <onetoone>
      <external>198.51.100.0</external>
      <interface>wan</interface>
      <source>
        <address>{v4}</address>
      </source>
      <destination>
        <any/>
      </destination>
    </onetoone>
    <NPt>
      <interface>wan</interface>
      <source>
        <address>{v6}</address>
      </source>
      <destination>
        <address>2001:db8:ff:10::/64</address>
      </destination>
    </NPt>
  </nat>
</pfsense>
"""


@pytest.mark.parametrize(("networks", "v4", "v6"), [
    pytest.param("10.0.48.0/24: 10.0.60.0/22, 2001:db8:a:10::/64: 2001:db8:a:10::/60", "10.0.48.0/24",
                 "2001:db8:a:10::/64", id="grow-24-22-64-60"),
    pytest.param("10.0.48.0/29: 10.0.48.0/28, 2001:db8:a:10::/64: 2001:db8:a:100::/56", "10.0.48.0/29",
                 "2001:db8:a:10::/64", id="grow-29-28-64-56"),
    pytest.param("10.0.48.0/23: 10.0.48.0/24, 2001:db8:a:10::/64: 2001:db8:b:10::/60", "10.0.48.0/23",
                 "2001:db8:a:10::/64", id="shrink-23-24-move-v6"),
])
def test_pfsense_one_to_one_and_npt_are_tied_length(repo: Repo, run: Run, networks: str, v4: str,
                                                    v6: str) -> None:
    text = PFSENSE.format(v4=v4, v6=v6)
    root = repo({"config.xml": text}, config=_config(networks), allowlist=ALLOW)
    assert _reasons(run, root) == {("config.xml", 8): "tied-length", ("config.xml", 17): "tied-length"}
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "config.xml").read_text() == text
    tree = ET.parse(root / "config.xml").getroot()  # still the same rules: one length each side
    assert tree.findtext("nat/onetoone/source/address") == v4
    assert run(root, "verify", "--strict").exit_code == 1


def test_an_npt_rule_whose_both_sides_move_alike_follows(repo: Repo, run: Run) -> None:
    text = PFSENSE.format(v4="10.9.9.0/24", v6="2001:db8:a:10::/64")
    networks = "2001:db8:a:10::/64: 2001:db8:a:10::/60, 2001:db8:ff:10::/64: 2001:db8:ff:10::/60"
    root = repo({"config.xml": text}, config=_config(networks), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    tree = ET.parse(root / "config.xml").getroot()
    source, destination = tree.findtext("nat/NPt/source/address"), tree.findtext("nat/NPt/destination/address")
    assert (source, destination) == ("2001:db8:a:10::/60", "2001:db8:ff:10::/60")
    assert ipaddress.ip_network(source).prefixlen == ipaddress.ip_network(destination).prefixlen


ASA = """\
object network LAN
 subnet 10.0.48.0 255.255.255.0
object network LAN-MAPPED
 subnet 198.51.100.0 255.255.255.0
nat (inside,outside) source static LAN LAN-MAPPED
object network LAN2
 subnet 10.0.48.0 255.255.255.0
 nat (inside,outside) static 198.51.100.0 net-to-net
object network PRINTERS
 subnet 10.0.48.0 255.255.255.0
access-list in extended permit ip object PRINTERS any
"""


@pytest.mark.parametrize(("networks", "mask"), [
    pytest.param("10.0.48.0/24: 10.0.60.0/22", "255.255.252.0", id="grow-24-22"),
    pytest.param("10.0.48.0/24: 10.0.48.0/25", "255.255.255.128", id="shrink-24-25"),
])
def test_asa_object_nat_is_tied_length_and_a_plain_object_follows(repo: Repo, run: Run, networks: str,
                                                                  mask: str) -> None:
    root = repo({"asa.cfg": ASA}, config=_config(networks), allowlist=ALLOW)
    reasons = _reasons(run, root)
    assert reasons[("asa.cfg", 2)] == "tied-length" and reasons[("asa.cfg", 7)] == "tied-length"
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    lines = (root / "asa.cfg").read_text().splitlines()
    assert lines[1] == " subnet 10.0.48.0 255.255.255.0" and lines[6] == " subnet 10.0.48.0 255.255.255.0"
    new = ipaddress.ip_network(networks.split(": ")[1])
    assert lines[9] == f" subnet {new.network_address} {mask}"  # no NAT names PRINTERS: it follows
    assert run(root, "verify", "--strict").exit_code == 1
