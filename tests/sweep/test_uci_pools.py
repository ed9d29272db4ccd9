"""OpenWrt DHCP pools read across the two UCI files (sweep/uci_pools.py, t26-33 finding 05): which
interface a `config dhcp` section's pool counts from, and when a shrinking move leaves it outside."""

from __future__ import annotations

from pathlib import Path

from renamer.prefix_moves import OUTSIDE
from renamer.project import load_project
from renamer.sweep.model import RESIDUAL
from renamer.sweep.uci_pools import uci_pools
from tests.testing.repos import make_repo

ALLOW = 'version: 1\ncurrent: ["**"]\nrecords:\n  - {name: notes, paths: ["notes/**"], reason: dated}\n'
NETWORK = "config interface 'lan'\n\toption ipaddr '192.168.1.1'\n\toption netmask '255.255.255.0'\n"
DHCP = "config dhcp 'lan'\n\toption interface 'lan'\n\toption start '100'\n\toption limit '150'\n"


def _found(tmp_path: Path, files: dict[str, str], networks: str) -> list[tuple[str, int, str, str | None]]:
    config = f"version: 1\nrenames:\n  networks: {{{networks}}}\nallowlist: allow.yaml\n"
    root = make_repo(tmp_path / "repo", files, config=config, allowlist=ALLOW)
    project = load_project(root, None, root)
    return [(r.path, r.line, r.old, r.reason) for r in uci_pools(project) if r.status == RESIDUAL]


def test_a_pool_the_shrink_cannot_hold(tmp_path: Path) -> None:
    found = _found(tmp_path, {"etc/config/network": NETWORK, "etc/config/dhcp": DHCP},
                   "192.168.1.0/24: 192.168.1.0/25")
    assert found == [("etc/config/dhcp", 4, "150", OUTSIDE)]


def test_the_interface_of_the_dhcp_files_folder(tmp_path: Path) -> None:
    """Two routers, each a `lan`: each pool counts from its own folder's interface; a dated record
    is no current state."""
    files = {"a/network": NETWORK, "a/dhcp": DHCP,
             "b/network": NETWORK.replace("192.168.1.1", "10.9.0.1"), "b/dhcp": DHCP,
             "notes/dhcp": DHCP}
    assert _found(tmp_path, files, "192.168.1.0/24: 192.168.1.0/25") == [("a/dhcp", 4, "150", OUTSIDE)]


def test_defaults_lengths_and_what_fits(tmp_path: Path) -> None:
    """OpenWrt's defaults (100, 150) where none is set, on the `interface` line; `ipaddr 'A/LEN'`;
    a pool that fits, an ignored one, a grow, and the file a sweep has written (the new mask)."""
    files = {"network": "config interface 'lan'\n\toption ipaddr '10.0.48.1/23'\n",
             "dhcp": "config dhcp 'lan'\n\toption interface 'lan'\n"}
    assert _found(tmp_path / "1", files, "10.0.48.0/23: 10.0.48.0/25") == [("dhcp", 2, "lan", OUTSIDE)]
    assert _found(tmp_path / "2", files, "10.0.48.0/23: 10.0.48.0/24") == []  # .100-.249 fits a /24
    ignored = {**files, "dhcp": files["dhcp"] + "\toption ignore '1'\n"}
    assert _found(tmp_path / "3", ignored, "10.0.48.0/23: 10.0.48.0/25") == []
    assert _found(tmp_path / "4", {"network": NETWORK, "dhcp": DHCP}, "192.168.1.0/24: 10.1.0.0/22") == []
    after = {"network": NETWORK.replace("255.255.255.0", "255.255.255.128"), "dhcp": DHCP}
    assert _found(tmp_path / "5", after, "192.168.1.0/24: 192.168.1.0/25") == [("dhcp", 4, "150", OUTSIDE)]
