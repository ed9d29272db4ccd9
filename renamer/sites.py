"""The DNS inventory a repository's renamer.yaml points at: located whole (for the DNS
commands, the probe and the API), and its sites' hosts as plain values (for the sweep's
collision check, which takes them as `SiteHost` tuples and never reads the DNS wing).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from renamer import clock, vcs_status
from renamer.config import Config, display_path
from renamer.config_load import load_config
from renamer.dns.backend import backend_for
from renamer.dns.inventory import Inventory
from renamer.dns.load import load_inventory, load_sites
from renamer.dns.transition import transition_dict, with_transitions
from renamer.errors import ConfigError
from renamer.formats.yaml_source import line_of, load_yaml_file
from renamer.project import discover, repo_root
from renamer.vcs_command import git_run


def locate_inventory(repo: Path | None, config: Path | None, cwd: Path,
                     folder: Path | None = None, *, resolvers_file: Path | None = None) -> Inventory:
    """The DNS inventory: `folder` (--inventory), else the `dns:` folder of renamer.yaml,
    else dns/ at the repo root (a repo without renamer.yaml may still have an inventory).
    `resolvers_file` (--resolvers-file) replaces the inventory's resolvers.yaml. Its transitional
    aliases (dns/transition.py) are those of renamer.yaml's renames, cutover and dns_transition,
    by the clock read here (renamer/clock.py)."""
    try:
        root, config_path = discover(repo, config, cwd)
    except ConfigError:
        if config is not None:
            raise
        root = repo_root(repo, cwd)
        bare = load_inventory(folder or root / "dns", lambda p: display_path(p, root), resolvers_file)
        return with_transitions(bare, (), None, None, clock.now())  # a host's `transition:` is refused
    loaded = load_config(config_path, root)
    inventory = load_inventory(folder or loaded.dns_dir, loaded.display, resolvers_file)
    # The renames' old values: dns verify checks that they resolve nowhere any more.
    renames = loaded.renames
    inventory = replace(inventory, old_hosts=tuple(old for old, _ in renames.hosts),
                        old_addresses=tuple(old for old, _ in renames.addresses))
    shown = loaded.display(config_path)
    return with_transitions(inventory, renames.hosts, loaded.cutover, loaded.dns_transition, clock.now(),
                            shown, _host_key_line(config_path, shown), derived_names=loaded.derived_names,
                            short_names=lambda resolver: backend_for(resolver).short_names)


def site_hosts(config: Config) -> list[tuple[str, str, str]]:
    """(name, address, site file as shown) of every address of every host of the DNS inventory's
    sites that load (the DNS commands report a broken one, not the sweep); a dual-stack host
    gives one value per address."""
    sites = load_sites(config.dns_dir, config.display)
    return [(host.name, str(address), site.source) for site in sites for host in site.hosts
            for address in host.addresses]


def transitions(config: Config) -> Inventory:
    """The DNS inventory's sites that load, with every transitional alias (`transitions`: served
    or expired, by the clock: renamer/clock.py) and the old names that get no window
    (`no_window`), for `audit`; a transition renamer cannot serve is refused as the DNS commands
    refuse it (ConfigError). No resolver is read: a one-label clash a resolver would serve is the
    DNS commands' to refuse."""
    sites = load_sites(config.dns_dir, config.display)
    bare = Inventory(config.dns_dir, tuple(sites), ())
    if not sites:
        return bare
    shown = config.display(config.path)
    return with_transitions(bare, config.renames.hosts, config.cutover, config.dns_transition, clock.now(),
                            shown, _host_key_line(config.path, shown), derived_names=config.derived_names)


def _host_key_line(path: Path, shown: str) -> Callable[[str], str]:
    """`where` for with_transitions: `renamer.yaml:7`, the line of the key `old` of renames.hosts
    (read again, with positions, only when a transition is refused)."""
    def where(old: str) -> str:
        try:
            top = load_yaml_file(path, shown)
        except ConfigError:
            return shown
        renames = top.get("renames") if isinstance(top, dict) else None
        hosts = renames.get("hosts") if isinstance(renames, dict) else None
        line = line_of(hosts, old) if isinstance(hosts, dict) and old in hosts else 0
        return f"{shown}:{line}" if line else shown
    return where


def transition_documents(config: Config) -> list[dict[str, object]]:
    """`transitions`, as `audit --format json` prints them (`dns_transitional`)."""
    return [transition_dict(t, asked=False) for t in transitions(config).transitions]


def inventory_commits(config: Config, since: str, until: str) -> list[str]:
    """The commits after `since` up to `until` that change the DNS inventory, oldest first."""
    rel = os.path.relpath(config.dns_dir, config.root).replace(os.sep, "/")
    argv = ["git", "-C", str(config.root), "rev-list", "--reverse", f"{since}..{until}", "--", f"{rel}/"]
    done = git_run(argv, capture_output=True, text=True, check=False)
    return done.stdout.split() if done.returncode == 0 else []


def inventory_at(config: Config, rev: str, gone_hosts: tuple[str, ...] = (),
                 gone_addresses: tuple[str, ...] = ()) -> Inventory:
    """The DNS inventory as commit `rev` holds it (`renamer undo --dns`: the inventory before the
    move), read from git's objects, never from the work tree; each file shown by its path in the
    repo (a snippet's header names its site file), and the inventory's folder the repo's own (the
    apply's log goes where `dns apply`'s does). `gone_hosts` and `gone_addresses` must resolve
    nowhere once it is applied (the undone move's new values, where that inventory defines none)."""
    root = config.root
    named = git_run(["git", "-C", str(root), "rev-parse", "--verify", "-q", f"{rev}^{{commit}}"],
                    capture_output=True, text=True, check=False)
    if named.returncode != 0:
        raise ConfigError(f"{rev}: no such commit: its DNS inventory cannot be read")
    rev = named.stdout.strip()
    rel = os.path.relpath(config.dns_dir, root).replace(os.sep, "/")
    listed = git_run(["git", "-C", str(root), "ls-tree", "-r", "-z", rev, "--", f"{rel}/"],
                     capture_output=True, check=False)
    entries = [e for e in os.fsdecode(listed.stdout).split("\0") if e] if listed.returncode == 0 else []
    files = [e.split("\t", 1)[1] for e in entries if e.split()[0] in ("100644", "100755")]  # no links
    if not files:
        raise ConfigError(f"{rel}: no DNS inventory in commit {rev[:12]}: nothing to apply as it was there")
    folder = Path(tempfile.mkdtemp(prefix="renamer-inventory-"))
    try:
        for path in files:
            data = vcs_status.show(root, f"{rev}:{path}")
            target = folder / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data or b"")
        copy = folder / rel
        inventory = load_inventory(copy, lambda p: config.display(config.dns_dir / Path(p).relative_to(copy)))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    defined = {name for site in inventory.sites for host in site.hosts for name in (host.name, *host.aliases)}
    addresses = {str(a) for site in inventory.sites for host in site.hosts for a in host.addresses}
    return replace(inventory, folder=config.dns_dir,
                   old_hosts=tuple(h for h in gone_hosts if h not in defined),
                   old_addresses=tuple(a for a in gone_addresses if a not in addresses))
