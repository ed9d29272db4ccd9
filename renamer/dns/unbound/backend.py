"""Unbound behind dns/backend.py's Protocol: records as local-data in renamer-<site>.conf, a file
the resolver's unbound.conf includes; `unbound-checkconf` tests it, `unbound-control reload`
activates it (the resolver's `test` and `reload`, with these as defaults)."""

from __future__ import annotations

from renamer.dns.file_backend import FileBackend, Renderer
from renamer.dns.inventory import Inventory, Resolver
from renamer.dns.logged import Logged
from renamer.dns.transport import OwnFiles, Transport
from renamer.dns.unbound import querylog, render
from renamer.dns.unbound.layout import DEFAULT_CONF, HandData, Inspection, inspect, reads_ahead


class Unbound(FileBackend):
    name = "unbound"
    renderer: Renderer = render
    files: OwnFiles = render.FILES
    restored_glob = "*.conf"
    unused_keys = frozenset({"dhcp", "hosts_dir"})  # Unbound serves no DHCP and has no hostsdir=
    cname_aliases = False  # an alias is its host's own A/AAAA records (render.py says why)
    follows_other_zones = True  # no CNAME is written (cname_aliases): the addresses themselves
    short_names = True  # each host's one-label name too
    comment = "#"

    def default_commands(self, resolver_conf: str | None) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
        conf = resolver_conf or DEFAULT_CONF
        return ("unbound-checkconf", conf), ("unbound-control", "-c", conf, "reload")

    def inspect(self, inventory: Inventory, resolver: Resolver, transport: Transport) -> Inspection:
        return inspect(inventory, resolver, transport)

    def reads(self, resolver: Resolver) -> tuple[list[str], list[str], list[list[str]]]:
        return reads_ahead(resolver)

    def answers(self, line: object) -> list[tuple[str, str, str]]:
        assert isinstance(line, HandData)
        return render.answers_of(line.text)

    def shown(self, line: object) -> str:
        assert isinstance(line, HandData)
        return f"{line.file}:{line.line}: {line.text}"


    def query(self, line: str) -> Logged | None:
        return querylog.query(line)


UNBOUND = Unbound()
