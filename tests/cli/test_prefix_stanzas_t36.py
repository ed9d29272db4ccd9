"""A mask tied by an XML element or a Salt argument list (issue 33, t36-33 finding 19).

A Windows DHCP export's `<Scope>` holds `<ScopeId>` and `<SubnetMask>`; a Salt `network.managed`
state gives its arguments as a list of one-key maps (`- ipaddr:`, `- netmask:`). Each ties its mask
to its address as certainly as a YAML mapping does: under a grow, the mask follows; where the
address beside it is another network's, it stays. End to end through the CLI, files read after.
"""

from __future__ import annotations

import pytest

from tests.testing.findings import networks_config as _config
from tests.testing.repos import Repo, Run

ALLOW = 'version: 1\ncurrent: ["**"]\n'
GROW = _config("192.168.40.0/24: 192.168.40.0/22")

SCOPE = ("<DHCPServer><IPv4><Scopes>\n  <Scope>\n    <ScopeId>{net}</ScopeId>\n    <Name>LAN</Name>\n"
         "    <SubnetMask>255.255.255.0</SubnetMask>\n    <StartRange>{start}</StartRange>\n"
         "  </Scope>\n</Scopes></IPv4></DHCPServer>\n")
SALT = ("eth0:\n  network.managed:\n    - proto: static\n    - ipaddr: {address}\n"
        "    - netmask: 255.255.255.0\n    - gateway: {gateway}\n")


def test_a_mask_in_a_scope_element_or_a_salt_argument_list_follows(repo: Repo, run: Run) -> None:
    files = {"dhcp-export.xml": SCOPE.format(net="192.168.40.0", start="192.168.40.100"),
             "net.sls": SALT.format(address="192.168.40.2", gateway="192.168.40.1")}
    root = repo(files, config=GROW, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "dhcp-export.xml").read_text() == files["dhcp-export.xml"].replace("255.255.255.0", "255.255.252.0")
    assert (root / "net.sls").read_text() == files["net.sls"].replace("255.255.255.0", "255.255.252.0")
    assert run(root, "verify").exit_code == 0


@pytest.mark.parametrize(("path", "text"), [
    ("dhcp-export.xml", SCOPE.format(net="10.5.0.0", start="10.5.0.100")),
    ("net.sls", SALT.format(address="10.5.0.2", gateway="10.5.0.1")),
])
def test_a_mask_beside_another_networks_address_stays(repo: Repo, run: Run, path: str, text: str) -> None:
    root = repo({path: text, "lan.yml": "lan: 192.168.40.0/24\n"}, config=GROW, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / path).read_text() == text
    assert (root / "lan.yml").read_text() == "lan: 192.168.40.0/22\n"


def test_a_list_of_mappings_keeps_each_item_a_stanza_of_its_own(repo: Repo, run: Run) -> None:
    """Round 20p, finding 5's shape beside Salt's: items of several keys each are stanzas of their own,
    so a mask of the second item is not the first item's network's."""
    text = ("interfaces:\n  - name: lan\n    address: 192.168.40.2\n"
            "  - name: dmz\n    netmask: 255.255.255.0\n    address: 10.5.0.2\n")
    root = repo({"net.yml": text}, config=GROW, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "net.yml").read_text() == text
