"""What a resolver answered, what it should answer, and how that compared: the values that
dns/verify.py, a backend's own checks (Backend.checks) and the probe share."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from renamer.dns.inventory import Resolver

NXDOMAIN = "NXDOMAIN"
NONE = "none"  # no record of that type: NODATA, or the name unknown (NXDOMAIN, REFUSED)


@dataclass(frozen=True)
class Answer:
    rcode: str  # NOERROR, NXDOMAIN, REFUSED, SERVFAIL ...
    records: tuple[tuple[str, str], ...] = ()  # (type, value) in answer order


class NoAnswer(Exception):
    """The resolver did not answer within its timeout."""


class Querier(Protocol):
    def __call__(self, name: str, rdtype: str) -> Answer: ...


@dataclass(frozen=True)
class Expectation:
    label: str  # what the table shows: "fv-ml1.fv.lan A"
    name: str  # fully qualified, with the trailing dot
    rdtype: str
    want: tuple[str, ...]  # acceptable final values, or ("NXDOMAIN",)
    via: tuple[str, ...] = ()  # acceptable CNAME targets, for aliases
    forbid: tuple[str, ...] = ()  # values that must not be among the answers (an old PTR target)
    # The alias's addresses without the CNAME do too: a forwarder in front of resolvers of which
    # some answer an alias with a CNAME and some with the host's addresses (a mixed fleet).
    via_optional: bool = False
    # The CNAME alone does too: its target is in another zone of an authoritative server that
    # answers the CNAME without following it (BIND; a client's recursive resolver follows it, and
    # the target's own check proves its address there).
    target_optional: bool = False
    # Gone, or exactly this transitional alias (its new FQDN, then that host's addresses of the
    # type): an old name asked of a resolver that does not hold the alias but may relay it.
    alias: tuple[str, ...] = ()

    @property
    def wanted(self) -> str:
        """What would pass, as an answer is shown: `fv-ml1.fv.lan. -> 10.251.50.54` for an alias."""
        values = " or ".join(self.want)
        if self.alias:
            target, *finals = self.alias
            return f"{values} or {target} -> {' or '.join(finals) or 'the CNAME alone'}"
        if not self.via:
            return values
        chain = f"{' or '.join(self.via)} -> {values}"
        if self.target_optional:
            return f"{chain} (or the CNAME alone)"
        return f"{chain} (or {values} alone)" if self.via_optional else chain


@dataclass(frozen=True)
class Check:
    expectation: Expectation
    got: str
    ok: bool


@dataclass
class ResolverReport:
    resolver: Resolver
    checks: list[Check] = field(default_factory=list)
    unreachable: str | None = None

    @property
    def ok(self) -> bool:
        return self.unreachable is None and all(c.ok for c in self.checks)

    def failures(self) -> list[Check]:
        return [c for c in self.checks if not c.ok]
