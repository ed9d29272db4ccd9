"""renamer.yaml's values: the frozen Config, its renames and its probe section, and the exact matcher
they make."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from renamer.match import Matcher
from renamer.names import (
    IPNetwork,
)

CONFIG_NAME = "renamer.yaml"
DEFAULT_MAX_FILE_SIZE = 50 * 1024 * 1024


@dataclass(frozen=True)
class Renames:
    hosts: tuple[tuple[str, str], ...]
    addresses: tuple[tuple[str, str], ...]
    networks: tuple[tuple[IPNetwork, IPNetwork], ...]
    # renames.merges: new -> the old values that become it on purpose (two machines into one)
    merges: tuple[tuple[str, tuple[str, ...]], ...] = ()

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
    subdomains: str = "residual"  # names under a renamed host's name: residual, or follow it
    terraform_dirs: tuple[Path, ...] = ()  # `terraform:`: where verify runs the plan guard
    terraform_binary: str = "terraform"  # options.terraform_binary: terraform or tofu
    moved_expiry: int = 90  # options.moved_expiry: days a written `moved` block stands after the cutover
    # options.dns_transition: how long after the cutover an old name stays a CNAME to its new FQDN
    dns_transition: dt.timedelta | None = None

    def display(self, path: Path) -> str:
        return display_path(path, self.root)


def matcher_of(config: Config) -> Matcher:
    """The exact matcher for this config's renames and options."""
    r = config.renames
    return Matcher(r.hosts, r.addresses, r.networks, derived_names=config.derived_names,
                   variants=config.variants, rewrite_accounts=config.accounts == "rewrite")


def display_path(path: Path, root: Path) -> str:
    """`path` as shown to the user: relative to the repo root where it lies inside it."""
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)


__all__ = ["Config", "Renames", "matcher_of"]
