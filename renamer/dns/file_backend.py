"""What the file backends (dnsmasq/, unbound/, bind/) share behind dns/backend.py's Protocol: each
step that only hands the work to the backend's render module, the resolver's own `test` and
`reload` commands, and no live files, checks or re-read without a reload. A backend sets
`renderer` to its render module and defines what differs (inspect, reads, answers, shown, and
any step below it does otherwise)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from renamer.dns.answers import Check
from renamer.dns.inventory import (
    API_KEYS,
    SECRET_KEYS,
    SECRET_REFUSED,
    ApiSettings,
    Inventory,
    Resolver,
    Site,
)
from renamer.dns.transport import CommandResult, OwnFiles, Transport, transport_for


class Renderer(Protocol):
    """The functions a file backend's render module provides (pure)."""

    FILES: OwnFiles

    def snippet_name(self, site: Site) -> str: ...

    def render_site(self, site: Site, resolver: Resolver | None = None) -> str: ...

    def render_resolver(self, inventory: Inventory, resolver: Resolver) -> dict[str, str]: ...

    def canary_of(self, text: str) -> tuple[str, str] | None: ...

    def host_records(self, text: str) -> list[tuple[list[str], str]]: ...

    def records(self, text: str) -> dict[str, str]: ...

    def drift(self, text: str) -> list[str]: ...


class FileBackend:
    renderer: Renderer
    name: str  # its `backend:` in resolvers.yaml
    unused_keys: frozenset[str]
    has_files = True  # renamer's own files in snippet_dir, on the resolver's machine
    restores_past = False  # a rollback writes the backup back as it is (BIND: its serial moves on)
    loads_late = False  # served once its reload command has returned (BIND: loaded)

    def check_keys(self, entry: dict[str, Any], bad: Callable[[str, str], None]) -> ApiSettings | None:
        """A file backend has no API: the keys of one, the key itself, and its unused keys are refused."""
        for key in sorted(SECRET_KEYS & set(entry)):
            bad(key, SECRET_REFUSED)
        for key in sorted(API_KEYS & set(entry)):
            bad(key, f"not used with backend: {self.name} (an API backend's key, backend: powerdns): "
                     "remove the key")
        for key in sorted(self.unused_keys & set(entry)):
            bad(key, f"not used with backend: {self.name} (it has no such setting): remove the key")
        return None

    def transport(self, inventory: Inventory, resolver: Resolver) -> Transport:
        return transport_for(resolver)  # its files: this machine, or over the user's ssh

    def snippet_name(self, site: Site) -> str:
        return self.renderer.snippet_name(site)

    def render(self, site: Site, resolver: Resolver | None = None) -> str:
        return self.renderer.render_site(site, resolver)

    def desired(self, inventory: Inventory, resolver: Resolver) -> dict[str, str]:
        return self.renderer.render_resolver(inventory, resolver)

    def settle(self, desired: dict[str, str | None],
               current: dict[str, bytes | None]) -> dict[str, str | None]:
        return desired  # nothing in its files depends on the live ones

    def restored(self, name: str, saved: bytes, now: bytes | None) -> bytes:
        return saved  # nothing in its files must move on past what the failed apply wrote

    def settle_retired(self, changes: dict[str, tuple[bytes, str]], retired: Sequence[Any],
                       transport: Transport) -> dict[str, tuple[bytes, str]]:
        return changes  # nothing in the operator's files moves with an edit

    def canary(self, site: Site, resolver: Resolver) -> tuple[str, str]:
        found = self.renderer.canary_of(self.renderer.render_site(site, resolver))
        assert found is not None  # render_site always writes it
        return found

    def canary_of(self, text: str) -> tuple[str, str] | None:
        return self.renderer.canary_of(text)

    def host_records(self, text: str) -> list[tuple[list[str], str]]:
        return self.renderer.host_records(text)

    def records(self, text: str) -> dict[str, str]:
        return self.renderer.records(text)

    def drift(self, text: str) -> list[str]:
        return self.renderer.drift(text)

    def test(self, resolver: Resolver, transport: Transport) -> CommandResult:
        return transport.run(resolver.test)

    def activate(self, resolver: Resolver, transport: Transport, names: Sequence[str] = ()) -> CommandResult:
        return transport.run(resolver.reload)

    def activation(self, resolver: Resolver, names: Sequence[str],
                   present: Sequence[str]) -> list[tuple[str, ...]]:
        return [tuple(resolver.reload)]

    def loaded(self, resolver: Resolver, transport: Transport) -> str | None:
        return None

    def live_files(self, resolver: Resolver) -> tuple[str, OwnFiles] | None:
        return None

    def live(self, resolver: Resolver, names: Sequence[str]) -> bool:
        return False  # the daemon re-reads its files only on a reload

    def checks(self, inventory: Inventory, resolver: Resolver, transport: Transport) -> list[Check]:
        return []
