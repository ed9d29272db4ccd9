"""dnsmasq behind dns/backend.py's Protocol: each step is one of this package's modules."""

from __future__ import annotations

from collections.abc import Sequence

from renamer.dns.answers import Check
from renamer.dns.dnsmasq import querylog, render
from renamer.dns.dnsmasq.dhcp import dhcp_checks
from renamer.dns.dnsmasq.layout import Inspection, inspect, reads_ahead, record_answers, shown_record
from renamer.dns.dnsmasq.syntax import Directive, HostsEntry
from renamer.dns.file_backend import FileBackend, Renderer
from renamer.dns.inventory import Inventory, Resolver
from renamer.dns.logged import Logged
from renamer.dns.transport import OwnFiles, Transport


class Dnsmasq(FileBackend):
    """A dnsmasq that loads renamer-<site>.conf from a conf-dir; `test` and `reload` are the
    resolver's own commands (`dnsmasq --test ...`, a restart: dnsmasq re-reads host-record
    only then)."""

    name = "dnsmasq"
    renderer: Renderer = render
    files: OwnFiles = render.FILES
    restored_glob = "*.conf"  # the snippets a backup holds, and the hand-written files it retired
    unused_keys: frozenset[str] = frozenset()
    cname_aliases = True  # cname=ALIAS,ALIAS.DOMAIN,HOST.DOMAIN: dnsmasq answers the CNAME and the address
    follows_other_zones = True  # dnsmasq answers a cname= with its target's address, whatever its domain
    short_names = True  # each host's one-label name too
    comment = "#"

    def default_commands(self, conf_file: str | None) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
        return None  # test and reload differ by packaging (docs/dns.md, Layouts): the resolver names them

    def inspect(self, inventory: Inventory, resolver: Resolver, transport: Transport) -> Inspection:
        return inspect(inventory, resolver, transport)

    def reads(self, resolver: Resolver) -> tuple[list[str], list[str], list[list[str]]]:
        return reads_ahead(resolver)

    def answers(self, line: object) -> list[tuple[str, str, str]]:
        assert isinstance(line, Directive | HostsEntry)
        return record_answers(line)

    def shown(self, line: object) -> str:
        assert isinstance(line, Directive | HostsEntry)  # what inspect finds
        return shown_record(line)

    def live_files(self, resolver: Resolver) -> tuple[str, OwnFiles] | None:
        return None if resolver.hosts_dir is None else (resolver.hosts_dir, render.HOSTS_FILES)

    def live(self, resolver: Resolver, names: Sequence[str]) -> bool:
        # hostsdir= files are re-read on change (inotify) with no restart: host-record lines,
        # cname, dhcp-host and the canary's txt-record only on a restart.
        folder = None if resolver.hosts_dir is None else resolver.hosts_dir.rstrip("/") + "/"
        return bool(names) and folder is not None and all(n.startswith(folder) for n in names)

    def checks(self, inventory: Inventory, resolver: Resolver, transport: Transport) -> list[Check]:
        return dhcp_checks(inventory, resolver, transport)

    def query(self, line: str) -> Logged | None:
        return querylog.query(line)


DNSMASQ = Dnsmasq()
