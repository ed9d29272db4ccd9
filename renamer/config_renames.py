"""renamer.yaml's `renames:`: the host, address and network pairs, each value checked for what it
claims to be."""

from __future__ import annotations

from typing import Any

from renamer.config import Renames
from renamer.formats.yaml_source import Problems, check_mapping, kind, shown
from renamer.names import (
    IPNetwork,
    host_name_problem,
    parse_address,
    parse_network,
)

_RENAME_KEYS = {"hosts", "addresses", "networks"}


def read_renames(top: dict[str, Any], problems: Problems) -> Renames:
    raw = top.get("renames")
    if raw is None:
        problems.add(top, None, "renames", "missing: nothing to rename")
        return Renames((), (), ())
    section = check_mapping(raw, "renames", _RENAME_KEYS, problems, top, "renames")
    if section is None:
        return Renames((), (), ())
    hosts = _pairs(section, "hosts", problems, _host_problem)
    addresses = _pairs(section, "addresses", problems, _address_problem)
    for old, new in addresses:
        a, b = parse_address(old), parse_address(new)
        if a and b and a.version != b.version:
            problems.add(section["addresses"], old, f"renames.addresses.{old}",
                         f"maps IPv{a.version} to IPv{b.version}")
    networks: list[tuple[IPNetwork, IPNetwork]] = []
    for old, new in _pairs(section, "networks", problems, _network_problem):
        a_net, b_net = parse_network(old), parse_network(new)
        assert a_net is not None and b_net is not None
        if a_net.version != b_net.version or a_net.prefixlen != b_net.prefixlen:
            problems.add(section["networks"], old, f"renames.networks.{old}",
                         f"{old} and {new} must have the same family and prefix length")
            continue
        if a_net.version == b_net.version and a_net.overlaps(b_net):
            problems.add(section["networks"], old, f"renames.networks.{old}",
                         f"{new} overlaps {old}: a second sweep would move addresses again")
            continue
        networks.append((a_net, b_net))
    if not (hosts or addresses or networks) and not problems.items:
        problems.add(section, None, "renames", "no hosts, addresses or networks to rename")
    return Renames(tuple(hosts), tuple(addresses), tuple(networks))


def _pairs(section: dict[str, Any], key: str, problems: Problems,
           invalid: Any) -> list[tuple[str, str]]:
    raw = section.get(key)
    if raw is None:
        return []
    keypath = f"renames.{key}"
    if not isinstance(raw, dict):
        problems.add(section, key, keypath, f"expected a mapping of old: new, got {kind(raw)}")
        return []
    pairs = []
    for old, new in raw.items():
        where = f"{keypath}.{old}"
        if not isinstance(old, str):
            problems.add(raw, old, f"{keypath}[{kind(old)}]", f"a key must be a name or an address, "
                         f"got {kind(old)} (a YAML complex key?)")
            continue
        if not isinstance(new, str):
            problems.add(raw, old, where, f"expected old: new strings, got {kind(new)}")
            continue
        why = invalid(old) or invalid(new)
        if why:
            problems.add(raw, old, where, why)
            continue
        if old == new:
            problems.add(raw, old, where, "old and new are the same")
            continue
        pairs.append((old, new))
    return pairs


def _host_problem(value: str) -> str | None:
    if parse_address(value) is not None:
        return f"{shown(value)} is an address: list it under renames.addresses"
    return host_name_problem(value)


def _address_problem(value: str) -> str | None:
    if parse_address(value) is None:
        return f"invalid address {shown(value)}"
    return None


def _network_problem(value: str) -> str | None:
    if parse_network(value) is None:
        return f"invalid network {shown(value)} (expected e.g. 10.250.0.0/16 with no host bits set)"
    return None
