"""The DNS backend seam: what a resolver daemon must provide, and the registry of them.

A backend knows one daemon's files, syntax and commands (dnsmasq/, unbound/, bind/), or its
API (powerdns/: an API backend, whose "files" are virtual: its own transport reads a site's
RRsets as the text a file would hold, and writes one as a PATCH of the difference).
Everything generic - batching, the policy, the lock, backups and their rollback order,
the transport, verification by DNS queries, the Ansible engine - talks to this Protocol
only, as octoDNS's providers do (populate -> plan -> apply). docs/architecture.md, "The
backend contract", says what each step must do and what the rollout guarantees around it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from renamer.dns.answers import Check
from renamer.dns.bind.backend import BIND
from renamer.dns.dnsmasq.backend import DNSMASQ
from renamer.dns.inventory import BACKEND_NAMES, ApiSettings, BackendName, Inventory, Resolver, Site
from renamer.dns.logged import Logged
from renamer.dns.powerdns.backend import POWERDNS
from renamer.dns.transport import CommandResult, OwnFiles, Transport
from renamer.dns.unbound.backend import UNBOUND


class HandLine(Protocol):
    """A hand-written line of a resolver's live configuration, outside renamer's files."""

    @property
    def file(self) -> str: ...

    @property
    def line(self) -> int: ...  # 1-based


class Inspection(Protocol):
    """What reading a resolver's live configuration found, before anything is written."""

    @property
    def problem(self) -> str | None: ...  # a file written to snippet_dir would not take effect

    @property
    def warnings(self) -> list[str]: ...

    @property
    def stale(self) -> Sequence[HandLine]: ...  # hand-written records naming old values


class Backend(Protocol):
    """One resolver daemon, as dns plan / apply / verify need it. Pure where it can be: only
    `inspect`, `test`, `activate` and `checks` reach the resolver, through its transport."""

    @property
    def name(self) -> str:
        """Its `backend:` in resolvers.yaml."""

    @property
    def has_files(self) -> bool:
        """Whether renamer's records are files in snippet_dir on the resolver's machine; False for
        an API backend (snippet_dir is virtual, its transport's own): the Ansible export then compares
        nothing on a host (tasks/powerdns.yml works through the API from the control node)."""

    @property
    def restores_past(self) -> bool:
        """Whether a rollback's bytes depend on what the failed apply wrote (BIND's SOA serial:
        `restored` reads the live file then); False: the backup goes back as it is, nothing read."""

    @property
    def files(self) -> OwnFiles:
        """How renamer's own files in snippet_dir are named (listing, and leftovers of a kill)."""

    @property
    def unused_keys(self) -> frozenset[str]:
        """Keys of a resolver entry this daemon has no use for: refused there, not ignored (an API
        backend's include snippet_dir, test and reload: resolvers.py then needs none of them)."""

    def check_keys(self, entry: dict[str, Any], bad: Callable[[str, str], None]) -> ApiSettings | None:
        """Check a resolver entry's backend-specific keys, each problem given to `bad(key, message)`:
        its unused keys, the key itself (never in the inventory), an API backend's api keys (its
        ApiSettings, or None when one is wrong; a file backend refuses them and returns None)."""

    def transport(self, inventory: Inventory, resolver: Resolver) -> Transport:
        """Where its files are read and written, and its commands run: a file backend's is the
        resolver's target (dns/transport.transport_for); an API backend brings its own."""

    @property
    def cname_aliases(self) -> bool:
        """Whether an alias is served as a CNAME with its target's address (verify asks for
        both), rather than as the host's own addresses under the alias."""

    @property
    def follows_other_zones(self) -> bool:
        """Whether a CNAME into another of its zones is answered with the target's records too
        (False: BIND, authoritative, answers the CNAME alone; verify then takes the CNAME alone for
        a transitional alias across domains, the target's own check proving its address)."""

    @property
    def short_names(self) -> bool:
        """Whether one-label names (`fv-gw`) are served beside the FQDNs (verify asks them)."""

    @property
    def comment(self) -> str:
        """What starts a comment in a file `inspect` lists stale lines of (`--retire-stale`)."""

    def default_commands(self, conf_file: str | None) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
        """(test, reload) when the resolver names none, or None: it must name both."""

    @property
    def restored_glob(self) -> str:
        """The files of a backup folder whose records a rollback check (`dns verify
        --restored-from`) asks the resolver for."""

    def snippet_name(self, site: Site) -> str:
        """The file name of a site's records in snippet_dir."""

    def render(self, site: Site, resolver: Resolver | None = None) -> str:
        """The desired state of one site (as `resolver` gets it; None: everything)."""

    def desired(self, inventory: Inventory, resolver: Resolver) -> dict[str, str]:
        """file name -> content, for every site the resolver serves."""

    def settle(self, desired: dict[str, str | None],
               current: dict[str, bytes | None]) -> dict[str, str | None]:
        """The desired files once the live ones are read (BIND: a zone's SOA serial past the live
        one, or the live file kept where nothing else changed); the others return `desired`."""

    def restored(self, name: str, saved: bytes, now: bytes | None) -> bytes:
        """What a rollback writes back for file `name`: `saved` (its backup), or those records with
        what must move on past `now` (the failed apply's file): BIND's SOA serial, which named may
        have served already, goes past both; the others return `saved`."""

    def settle_retired(self, changes: dict[str, tuple[bytes, str]], retired: Sequence[HandLine],
                       transport: Transport) -> dict[str, tuple[bytes, str]]:
        """`--retire-stale`'s edits (file -> its bytes now, its text with the stale lines commented
        out) as they must be written: BIND bumps the SOA serial of each zone they change (named
        refuses a changed zone at the same serial under ixfr-from-differences; a secondary would
        never see it); the others return `changes`."""

    def inspect(self, inventory: Inventory, resolver: Resolver, transport: Transport) -> Inspection:
        """Read the live configuration (populate): the layout problem, warnings, stale lines."""

    def reads(self, resolver: Resolver) -> tuple[list[str], list[str], list[list[str]]]:
        """(files, folders, read-only commands) `inspect` will read: a remote transport fetches
        them in one round trip (Transport.prefetch)."""

    def shown(self, line: HandLine) -> str:
        """`file:line: text` of a stale line that `inspect` found."""

    def answers(self, line: HandLine) -> list[tuple[str, str, str]]:
        """(name, type, value) the daemon answers because of a stale line: the name lower case
        with no final dot (`fv-gw.fv.lan`, `2.0.251.10.in-addr.arpa`), as verify asks it."""

    def canary(self, site: Site, resolver: Resolver) -> tuple[str, str]:
        """(TXT name, value) that prove the resolver serves this very rendering of `site`."""

    def canary_of(self, text: str) -> tuple[str, str] | None:
        """The canary a rendered file carries, or None (an older renamer wrote it)."""

    def host_records(self, text: str) -> list[tuple[list[str], str]]:
        """(names, address) of each host record in a rendered file: what a rollback checks."""

    def records(self, text: str) -> dict[str, str]:
        """name -> what it points at, of every record in a file (plan summaries)."""

    def drift(self, text: str) -> list[str]:
        """Lines of a managed file that renamer never writes (edited by hand): an apply replaces them."""

    def test(self, resolver: Resolver, transport: Transport) -> CommandResult:
        """Check the written configuration before it is activated."""

    def activate(self, resolver: Resolver, transport: Transport, names: Sequence[str] = ()) -> CommandResult:
        """Make the daemon serve what is written now (a reload or restart); a rollback calls it too.
        `names`: renamer's files this apply changed, or the rollback restored (BIND reloads only
        those zones); empty: everything renamer owns there."""

    def activation(self, resolver: Resolver, names: Sequence[str],
                   present: Sequence[str]) -> list[tuple[str, ...]]:
        """The commands `activate` runs for these changed files (pure: `present`, renamer's files
        in snippet_dir once written or restored): the Ansible export runs them as they are. The
        resolver's reload; BIND's reconfig and a reload per zone; none for an API backend."""

    @property
    def loads_late(self) -> bool:
        """Whether the daemon may still serve its old records once its activation commands have
        returned (named loads zones after rndc returns): `loaded` then waits."""

    def loaded(self, resolver: Resolver, transport: Transport) -> str | None:
        """Wait until the daemon serves what its files say; None when it does, else why not
        (`activate` does this itself; the Ansible engine's verify asks it: `dns verify --loaded`)."""

    def live_files(self, resolver: Resolver) -> tuple[str, OwnFiles] | None:
        """(folder, names) of renamer's files the daemon re-reads by itself, with no activate
        (dnsmasq: the resolver's hosts_dir), or None."""

    def live(self, resolver: Resolver, names: Sequence[str]) -> bool:
        """Whether a change of these files (a plan's names) is served without `activate`."""

    def checks(self, inventory: Inventory, resolver: Resolver, transport: Transport) -> list[Check]:
        """`dns verify`'s checks beyond DNS answers (dnsmasq: DHCP reservations and leases)."""

    def query(self, line: str) -> Logged | None:
        """The query one line of its daemon's query log (`query_log:`) records, or None: another
        line (`dns who-asks`). An API backend has no query log: `query_log` is refused there."""


# The inventory's `backend:` key accepts exactly these names (inventory.BACKEND_NAMES).
BACKENDS: dict[BackendName, Backend] = {"dnsmasq": DNSMASQ, "unbound": UNBOUND, "bind": BIND,
                                        "powerdns": POWERDNS}


def backend_for(resolver: Resolver | None) -> Backend:
    """The resolver's backend; without one (`dns render` of every site), the inventory's default."""
    return BACKENDS[resolver.backend if resolver is not None else BACKEND_NAMES[0]]
