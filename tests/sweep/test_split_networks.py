"""sweep/split_networks.py: a module's networks held in two keys of one block, and the verdict on an
expression over a name no resolver read (t38, seen on randomcoww/homelab), on real files."""

from __future__ import annotations

import ipaddress
from pathlib import Path

from renamer import computed_lengths
from renamer.prefix_moves import PrefixMove
from renamer.sweep.split_networks import blocks, judged, module, pairs

ENV = b"""locals {
  networks = {
    for key, network in {
      service = {
        network = "192.168.208.0" # the service network
        cidr    = 24
        vips = {
          apiserver   = 2
          k8s-gateway = 33
          minio       = 34
        }
      }
      lan = {
        network = "192.168.192.0"
        cidr    = 24
      }
    } :
    key => merge(network, {
      prefix = "${network.network}/${network.cidr}"
      vips = {
        for service, netnum in lookup(network, "vips", {}) :
        service => cidrhost("${network.network}/${network.cidr}", netnum)
      }
    })
  }
}
"""


def _move(old: str, new: str) -> list[PrefixMove]:
    return [PrefixMove(ipaddress.ip_network(old), ipaddress.ip_network(new))]


def _chains(data: bytes) -> list[computed_lengths.Chain]:
    return list(computed_lengths.chains(data))


def test_pairs_skip_strings_and_comments() -> None:
    data = b'a = { b = "}{" # }\n c = { d = 1 } // {\n}'
    found = pairs(data)
    assert sorted(found.items()) == [(4, len(data) - 1), (data.index(b"{ d"), data.index(b"} //"))]


def test_blocks_read_the_address_and_its_length_under_their_own_keys() -> None:
    found = blocks("config_env.tf", ENV)
    assert [(b.key, str(b.network), b.fields, b.line) for b in found] == [
        ("service", "192.168.208.0/24", ("network", "cidr"), 5),
        ("lan", "192.168.192.0/24", ("network", "cidr"), 14)]
    # JSON, another pair of keys, IPv6
    json = b'{"locals": {"nets": {"wan": {"address": "2001:db8:a::", "prefix_length": "48"}}}}'
    assert [(b.key, str(b.network)) for b in blocks("main.tf.json", json)] == [("wan", "2001:db8:a::/48")]
    # a host address with a length is no network; a length in a nested block is not the block's
    assert blocks("a.tf", b'x = { gateway = "10.0.48.1", cidr = 24 }') == []
    assert blocks("a.tf", b'x = { network = "10.0.48.0", inner = { cidr = 24 } }') == []
    assert blocks("a.tf", b'x = { network = "10.0.48.0", port = 24 }') == []  # `port` is no length


def test_a_module_reads_a_symlinked_file_inside_the_root_never_one_outside(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / "mod").mkdir(parents=True)
    (root / "config_env.tf").write_bytes(ENV)
    (root / "mod" / "config_env.tf").symlink_to("../config_env.tf")
    (tmp_path / "outside.tf").write_bytes(b'x = { network = "10.9.0.0", cidr = 16 }\n')
    (root / "mod" / "outside.tf").symlink_to(tmp_path / "outside.tf")
    (root / "mod" / "net.tf").write_text('locals { wide = "10.1.0.0/16" }\n')
    held = module(root, "mod")
    assert [(b.key, b.rel) for b in held.blocks] == [("service", "mod/config_env.tf"), ("lan", "mod/config_env.tf")]
    assert held.spelled == (("10.1.0.0/16", "mod/net.tf:1"),)


def _judge(tmp_path: Path, text: bytes, moves: list[PrefixMove], rel: str = "main.tf") -> list[str]:
    (tmp_path / rel).write_bytes(text)
    out = []
    for chain in _chains(text):
        found = judged(chain, text, rel, tmp_path, moves)
        out.append("" if found is None else f"{found.verdict.kind}{'' if found.proved else '?'}")
    return out


def test_a_number_a_for_takes_from_the_blocks_own_map_is_each_of_its_values(tmp_path: Path) -> None:
    (tmp_path / "config_env.tf").write_bytes(ENV)
    chain = _chains(ENV)[0]
    found = judged(chain, ENV, "config_env.tf", tmp_path, _move("192.168.208.0/24", "192.168.208.0/27"))
    assert found is not None and found.proved and found.verdict.kind == computed_lengths.OUTSIDE
    assert "192.168.208.33" in found.verdict.why and "`netnum` = 33, from `vips` of `service`" in found.verdict.why
    # 2 fits a /25 too; the lan block is no moved network
    assert judged(chain, ENV, "config_env.tf", tmp_path, _move("192.168.208.0/24", "192.168.208.0/25")) is None
    assert judged(chain, ENV, "config_env.tf", tmp_path, _move("192.168.192.0/24", "192.168.192.0/22")) is None


def test_a_map_key_names_the_block_a_name_no_resolver_reads_is_said(tmp_path: Path) -> None:
    (tmp_path / "config_env.tf").write_bytes(ENV)
    text = (b"locals {\n  a = cidrhost(local.networks.service.prefix, 40)\n"
            b'  b = cidrhost(local.networks["lan"].prefix, 40)\n'
            b"  c = cidrhost(var.elsewhere, 40)\n  d = cidrhost(local.networks.service.prefix, -2)\n"
            b"  e = cidrsubnet(local.networks.service.prefix, 2, 1)\n}\n")
    shrink = _move("192.168.208.0/24", "192.168.208.0/27")
    assert _judge(tmp_path, text, shrink) == ["outside", "", "outside?", "outside", "outside"]
    # a grow in place keeps every host counted from the start, not one from the end nor a subnet
    grow = _move("192.168.208.0/24", "192.168.208.0/22")
    assert _judge(tmp_path, text, grow) == ["", "", "", "changes", "changes"]
    # the lan block's computations are its own: judged under lan's move, the service's left
    lan = _move("192.168.192.0/24", "192.168.192.0/27")
    assert _judge(tmp_path, text, lan) == ["", "outside", "outside?", "", ""]
    # a module holding no resized network says nothing
    assert _judge(tmp_path, text, _move("10.5.0.0/24", "10.5.0.0/25")) == ["", "", "", "", ""]


def test_a_hostile_file_of_many_blocks_costs_little() -> None:
    import time

    many = b"locals {\n nets = {\n" + b"".join(
        b' n%d = { network = "10.0.%d.0", cidr = 24 }\n' % (i, i % 250) for i in range(10000)) + b"}\n}\n"
    flat = b'x = "10.0.0.0"\n' * 20000 + b"{" * 10000 + b"}" * 10000
    one = b"{" + b'network = "10.0.0.0"\n cidr = 24\n' * 20000 + b"}"
    started = time.monotonic()
    assert len(blocks("a.tf", many)) == 10000 and blocks("a.tf", flat) == [] and len(blocks("a.tf", one)) == 1
    assert time.monotonic() - started < 5  # every span was searched for every address: minutes
