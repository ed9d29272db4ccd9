"""dns/resolvers.yaml and dns/sites/*.yaml -> a validated Inventory (dns/inventory.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from renamer import lazy_re
from renamer.dns.inventory import Inventory, Resolver, Site
from renamer.dns.resolvers import load_resolvers
from renamer.dns.sites import cross_check, load_site
from renamer.errors import ConfigError

_PLAIN_PATH = lazy_re.compile(r"[A-Za-z0-9._/-]{1,255}\Z")


def load_inventory(folder: Path, display: Any = str, resolvers_file: Path | None = None) -> Inventory:
    """Load and cross-check the inventory; every problem is reported, nothing is written.
    `resolvers_file` is read instead of the folder's resolvers.yaml."""
    if not folder.is_dir():
        raise ConfigError(f"{display(folder)}: DNS inventory folder not found")
    site_files = _site_files(folder)
    if not site_files:
        raise ConfigError(f"{display(folder / 'sites')}: no site files (*.yaml)")
    problems: list[str] = []
    sites = []
    for path in site_files:
        where = display(path)
        if not _PLAIN_PATH.match(where):  # it is written into the header of every snippet
            problems.append(f"{where!r}: a site file's path may hold only letters, digits, '.', '_', "
                            "'-' and '/' (rename the file or the folder)")
            continue
        try:
            sites.append(load_site(path, where))
        except ConfigError as exc:
            problems += exc.lines
    resolvers: tuple[Resolver, ...] = ()
    # With a site file broken, site references cannot be checked without false alarms.
    known_sites = {s.name for s in sites} if not problems else None
    try:
        path = resolvers_file or folder / "resolvers.yaml"
        if resolvers_file is not None and not resolvers_file.is_file():
            raise ConfigError(f"--resolvers-file {resolvers_file}: file not found")
        resolvers = load_resolvers(path, display(path), known_sites)
    except ConfigError as exc:
        problems += exc.lines
    problems += cross_check(sites)
    if problems:
        raise ConfigError(problems[0], lines=problems)
    return Inventory(folder, tuple(sites), resolvers)


def _site_files(folder: Path) -> list[Path]:
    return sorted((folder / "sites").glob("*.yaml")) + sorted((folder / "sites").glob("*.yml"))


def load_sites(folder: Path, display: Any = str) -> list[Site]:
    """The sites that load cleanly, without the resolvers (for the sweep's collision check:
    the DNS commands report a broken file)."""
    sites = []
    for path in _site_files(folder):
        try:
            sites.append(load_site(path, display(path)))
        except ConfigError:
            continue
    return sites

