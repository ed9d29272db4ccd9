"""sweep/split_lengths.py: a resized network's length kept apart from its address, in another file
or block of one namespace, read from real files."""

from __future__ import annotations

import ipaddress
from pathlib import Path

from renamer.occurrences import Match
from renamer.prefix_moves import MASK, PrefixMove
from renamer.sweep.split_lengths import held_matches, index


def _moves(old: str, new: str) -> list[PrefixMove]:
    return [PrefixMove(ipaddress.ip_network(old), ipaddress.ip_network(new))]


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


def test_an_inventory_and_a_module_are_each_one_namespace(tmp_path: Path) -> None:
    _write(tmp_path, {
        "inv/group_vars/all.yml": "lan_network: 10.0.48.0\n",
        "inv/host_vars/r1.yml": "lan_prefix: 24\nlan_netmask: '255.255.255.0'\nwan_prefix: 24\n",
        "inv/host_vars/r2": "lan_prefix: 22\n",  # the new length already
        "other/host_vars/r3.yml": "lan_prefix: 24\n",  # another inventory: no address there
        "tf/a.tf": 'variable "lan_network" {\n  default = "10.0.48.0"\n}\n',
        "tf/b.tf": 'variable "lan_cidr" {\n  default = 24\n}\n',
        "tf2/b.tf": 'variable "lan_cidr" {\n  default = 24\n}\n',  # another module
    })
    found = index(tmp_path, _moves("10.0.48.0/24", "10.0.60.0/22"))
    assert sorted((rel, h.text, h.new) for rel, held in found.items() for h in held) == [
        ("inv/host_vars/r1.yml", "24", "22"), ("inv/host_vars/r1.yml", "255.255.255.0", "255.255.252.0"),
        ("tf/b.tf", "24", "22")]
    note = found["tf/b.tf"][0].note
    assert "`lan_cidr` (24) is the length of `lan_network` (10.0.48.0 at tf/a.tf:2)" in note


def test_one_stanza_is_left_to_the_key_rules_and_an_equal_length_move_reads_nothing(tmp_path: Path) -> None:
    _write(tmp_path, {"group_vars/all.yml": "lan_network: 10.0.48.0\nlan_prefix: 24\n"})
    assert index(tmp_path, _moves("10.0.48.0/24", "10.0.60.0/22")) == {}
    _write(tmp_path, {"host_vars/r.yml": "lan_prefix: 24\n"})
    assert index(tmp_path, _moves("10.0.48.0/24", "10.0.60.0/24")) == {}
    assert index(tmp_path, _moves("10.0.48.0/24", "10.0.60.0/22"), lambda rel: rel != "host_vars/r.yml") == {}


def test_the_held_length_becomes_a_mask_residual_unless_decided(tmp_path: Path) -> None:
    _write(tmp_path, {"group_vars/all.yml": "lan_network: 10.0.48.0\n", "host_vars/r.yml": "lan_prefix: 24\n"})
    (held,) = index(tmp_path, _moves("10.0.48.0/24", "10.0.60.0/22"))["host_vars/r.yml"]
    data = (tmp_path / "host_vars/r.yml").read_bytes()
    (match,) = held_matches(data, [], [held])
    assert (data[match.start:match.end], match.new, match.refused) == (b"24", "22", MASK)
    kept = [Match(match.start, match.end, "24", "24", "network", kept="renamer: keep")]
    assert held_matches(data, kept, [held]) == kept
    assert held_matches(b"lan_prefix: 22\n", [], [held]) == []  # changed since it was read
