"""Unbound behind dns/backend.py's Protocol: records as local-data in renamer-<site>.conf, a file
the resolver's unbound.conf includes; `unbound-checkconf` tests it, `unbound-control reload`
activates it (the resolver's `test` and `reload`, with these as defaults)."""

from __future__ import annotations

from collections.abc import Sequence

from renamer.dns.answers import Check
from renamer.dns.inventory import Inventory, Resolver, Site
from renamer.dns.transport import CommandResult, OwnFiles, Transport
from renamer.dns.unbound import render
from renamer.dns.unbound.layout import DEFAULT_CONF, HandData, Inspection, inspect, reads_ahead


class Unbound:
    files: OwnFiles = render.FILES
    restored_glob = "*.conf"
    unused_keys = frozenset({"dhcp", "hosts_dir"})  # Unbound serves no DHCP and has no hostsdir=
    cname_aliases = False  # an alias is its host's own A/AAAA records (render.py says why)
    short_names = True  # each host's one-label name too
    comment = "#"

    def default_commands(self, resolver_conf: str | None) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
        conf = resolver_conf or DEFAULT_CONF
        return ("unbound-checkconf", conf), ("unbound-control", "-c", conf, "reload")

    def snippet_name(self, site: Site) -> str:
        return render.snippet_name(site)

    def render(self, site: Site, resolver: Resolver | None = None) -> str:
        return render.render_site(site, resolver)

    def desired(self, inventory: Inventory, resolver: Resolver) -> dict[str, str]:
        return render.render_resolver(inventory, resolver)

    def settle(self, desired: dict[str, str | None],
               current: dict[str, bytes | None]) -> dict[str, str | None]:
        return desired  # nothing in its files depends on the live ones

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

    def canary(self, site: Site, resolver: Resolver) -> tuple[str, str]:
        found = render.canary_of(render.render_site(site, resolver))
        assert found is not None  # render_site always writes it
        return found

    def canary_of(self, text: str) -> tuple[str, str] | None:
        return render.canary_of(text)

    def host_records(self, text: str) -> list[tuple[list[str], str]]:
        return render.host_records(text)

    def records(self, text: str) -> dict[str, str]:
        return render.records(text)

    def drift(self, text: str) -> list[str]:
        return render.drift(text)

    def test(self, resolver: Resolver, transport: Transport) -> CommandResult:
        return transport.run(resolver.test)

    def activate(self, resolver: Resolver, transport: Transport) -> CommandResult:
        return transport.run(resolver.reload)

    def live_files(self, resolver: Resolver) -> tuple[str, OwnFiles] | None:
        return None

    def live(self, resolver: Resolver, names: Sequence[str]) -> bool:
        return False  # Unbound re-reads its configuration only on a reload

    def checks(self, inventory: Inventory, resolver: Resolver, transport: Transport) -> list[Check]:
        return []


UNBOUND = Unbound()
