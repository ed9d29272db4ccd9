"""renamer.yaml -> a frozen Config; every problem reported with file, line and key."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from renamer.formats.yaml_source import Problems, check_mapping, kind, line_of, load_yaml_file, shown
from renamer.idempotence import check_idempotent
from renamer.match import Matcher
from renamer.names import (
    IPNetwork,
    host_name_problem,
    parse_address,
    parse_network,
)

CONFIG_NAME = "renamer.yaml"
DEFAULT_MAX_FILE_SIZE = 50 * 1024 * 1024

_TOP_KEYS = {"version", "name", "cutover", "renames", "options", "allowlist", "dns", "probe"}
_RENAME_KEYS = {"hosts", "addresses", "networks"}
_OPTION_KEYS = {"derived_names", "variants", "max_file_size", "accounts"}
ACCOUNT_CHOICES = ("keep", "rewrite")
_SIZE = re.compile(r"(?i)\s*(\d+)\s*(b|k|kb|kib|m|mb|mib|g|gb|gib)?\s*\Z")
_UNITS = {None: 1, "b": 1, "k": 1024, "kb": 1000, "kib": 1024, "m": 1024**2, "mb": 1000**2,
          "mib": 1024**2, "g": 1024**3, "gb": 1000**3, "gib": 1024**3}


@dataclass(frozen=True)
class Renames:
    hosts: tuple[tuple[str, str], ...]
    addresses: tuple[tuple[str, str], ...]
    networks: tuple[tuple[IPNetwork, IPNetwork], ...]

    def pairs(self) -> tuple[tuple[str, str], ...]:
        nets = tuple((str(a), str(b)) for a, b in self.networks)
        return self.hosts + self.addresses + nets


@dataclass(frozen=True)
class ProbeConfig:
    """renamer.yaml's `probe:` (docs/probe.md)."""

    health: tuple[tuple[str, str], ...] = ()  # key pattern -> health path, in order
    expect: tuple[str, ...] | None = None  # status classes that pass: 2xx, 3xx, 4xx, 5xx
    exclude: tuple[str, ...] = ()  # glob patterns on an endpoint (as shown) or its host
    timeout: float = 3.0
    concurrency: int = 32


@dataclass(frozen=True)
class Config:
    path: Path
    root: Path
    name: str
    cutover: dt.date | None
    renames: Renames
    derived_names: bool
    variants: bool
    max_file_size: int
    allowlist_paths: tuple[Path, ...]
    dns_dir: Path
    accounts: str = "keep"  # keep: a user account named like a host is left (reason `account`)
    probe: ProbeConfig = ProbeConfig()

    def display(self, path: Path) -> str:
        return display_path(path, self.root)


def matcher_of(config: Config) -> Matcher:
    """The exact matcher for this config's renames and options."""
    r = config.renames
    return Matcher(r.hosts, r.addresses, r.networks, derived_names=config.derived_names,
                   variants=config.variants, rewrite_accounts=config.accounts == "rewrite")


def load_config(path: Path, root: Path) -> Config:
    """Load and validate renamer.yaml at `path` for the repository at `root`."""
    display = display_path(path, root)
    data = load_yaml_file(path, display)
    problems = Problems(display)
    if data is None:
        data = {}
    top = check_mapping(data, "", _TOP_KEYS, problems, data, None)
    if top is None:
        problems.raise_if_any()
        raise AssertionError("unreachable")
    version = top.get("version")
    if version != 1:
        problems.add(top, "version", "version", f"must be 1, got {shown(version)}")
    name = top.get("name", root.resolve().name)
    if not isinstance(name, str) or not name.strip() or "\n" in name:
        problems.add(top, "name", "name", f"expected a one-line string, got {kind(name)}")
        name = "migration"
    cutover = _cutover(top, problems)
    renames = _renames(top, problems)
    derived, variants, max_size = _options(top, problems)
    base = path.parent
    allowlists = _allowlist_paths(top, base, problems)
    dns_value = top.get("dns", "dns/")
    if not isinstance(dns_value, str):
        problems.add(top, "dns", "dns", f"expected a folder path, got {kind(dns_value)}")
        dns_value = "dns/"
    config = Config(
        path=path, root=root, name=name.strip(), cutover=cutover, renames=renames,
        derived_names=derived, variants=variants, max_file_size=max_size,
        allowlist_paths=allowlists, dns_dir=(base / dns_value), accounts=_accounts(top, problems),
        probe=_probe(top, problems),
    )
    check_idempotent(config, matcher_of(config), top, problems)
    problems.raise_if_any()
    return config


def display_path(path: Path, root: Path) -> str:
    """`path` as shown to the user: relative to the repo root where it lies inside it."""
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)


def _cutover(top: dict[str, Any], problems: Problems) -> dt.date | None:
    value = top.get("cutover")
    if value is None:
        return None
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value.strip())
        except ValueError:
            pass
    problems.add(top, "cutover", "cutover", f"expected a date like 2026-10-05, got {shown(value)}")
    return None


def _renames(top: dict[str, Any], problems: Problems) -> Renames:
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


def _options(top: dict[str, Any], problems: Problems) -> tuple[bool, bool, int]:
    raw = top.get("options")
    if raw is None:
        return False, False, DEFAULT_MAX_FILE_SIZE
    section = check_mapping(raw, "options", _OPTION_KEYS, problems, top, "options")
    if section is None:
        return False, False, DEFAULT_MAX_FILE_SIZE
    flags = []
    for key in ("derived_names", "variants"):
        value = section.get(key, False)
        if not isinstance(value, bool):
            problems.add(section, key, f"options.{key}", f"expected true or false, got {shown(value)}")
            value = False
        flags.append(value)
    size = section.get("max_file_size", DEFAULT_MAX_FILE_SIZE)
    parsed = parse_size(size)
    if parsed is None:
        problems.add(section, "max_file_size", "options.max_file_size",
                     f"expected a size like 50MiB, got {shown(size)}")
        parsed = DEFAULT_MAX_FILE_SIZE
    return flags[0], flags[1], parsed


def _accounts(top: dict[str, Any], problems: Problems) -> str:
    section = top.get("options")
    if not isinstance(section, dict) or "accounts" not in section:
        return "keep"
    value = section["accounts"]
    if value not in ACCOUNT_CHOICES:
        problems.add(section, "accounts", "options.accounts",
                     f"expected keep or rewrite, got {shown(value)}")
        return "keep"
    return str(value)


_STATUS = re.compile(r"[1-5]xx\Z")


def _probe(top: dict[str, Any], problems: Problems) -> ProbeConfig:
    if "probe" not in top:
        return ProbeConfig()
    section = check_mapping(top["probe"], "probe", {"health", "expect", "exclude", "timeout", "concurrency"},
                            problems, top, "probe")
    if section is None:
        return ProbeConfig()
    health = section.get("health", {})
    if not isinstance(health, dict) or not all(isinstance(k, str) and isinstance(v, str) and v.startswith("/")
                                               for k, v in health.items()):
        problems.add(section, "health", "probe.health",
                     "expected a mapping of key patterns to paths, e.g. {api_base: /health/liveliness}")
        health = {}
    expect = section.get("expect")
    if expect is not None and (not isinstance(expect, list) or not expect
                               or not all(isinstance(e, str) and _STATUS.match(e) for e in expect)):
        problems.add(section, "expect", "probe.expect",
                     f"expected a list like [2xx, 3xx], got {shown(expect)}")
        expect = None
    exclude = section.get("exclude", [])
    if not isinstance(exclude, list) or not all(isinstance(e, str) for e in exclude):
        problems.add(section, "exclude", "probe.exclude", "expected a list of patterns")
        exclude = []
    timeout = section.get("timeout", 3.0)
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not 0 < timeout <= 60:
        problems.add(section, "timeout", "probe.timeout",
                     f"expected seconds between 0 and 60, got {shown(timeout)}")
        timeout = 3.0
    concurrency = section.get("concurrency", 32)
    if isinstance(concurrency, bool) or not isinstance(concurrency, int) or not 1 <= concurrency <= 256:
        problems.add(section, "concurrency", "probe.concurrency",
                     f"expected a number from 1 to 256, got {shown(concurrency)}")
        concurrency = 32
    return ProbeConfig(tuple((str(k), str(v)) for k, v in health.items()),
                       tuple(expect) if expect else None, tuple(exclude), float(timeout), concurrency)


def parse_size(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value > 0 else None
    if not isinstance(value, str):
        return None
    match = _SIZE.match(value)
    if not match:
        return None
    number = int(match.group(1)) * _UNITS[(match.group(2) or "").lower() or None]
    return number if number > 0 else None


def _allowlist_paths(top: dict[str, Any], base: Path, problems: Problems) -> tuple[Path, ...]:
    raw = top.get("allowlist")
    if raw is None:
        return ()
    items = [raw] if isinstance(raw, str) else raw
    if not isinstance(items, list) or not all(isinstance(i, str) and i for i in items):
        problems.add(top, "allowlist", "allowlist", f"expected a path or a list of paths, got {kind(raw)}")
        return ()
    paths = []
    for item in items:
        path = base / item
        if not path.is_file():
            why = "not a regular file" if path.exists() else "file not found"
            problems.add(top, "allowlist", "allowlist", f"{item}: {why}")
        paths.append(path)
    return tuple(paths)


__all__ = ["Config", "Renames", "line_of", "load_config", "matcher_of"]
