"""Ask each resolver directly (dnspython, its address and port) whether it serves the inventory.

No system resolver, no search domains, no cache: every name is sent fully
qualified to exactly one server. The querier is injected, so the comparison
logic is tested with a fake and the whole with real dnsmasq.
"""

from __future__ import annotations

import concurrent.futures
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from renamer.dns.inventory import Inventory, Resolver

NXDOMAIN = "NXDOMAIN"


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


def expectations(inventory: Inventory, resolver: Resolver) -> list[Expectation]:
    """Every check DESIGN lists, for the sites this resolver serves."""
    out = []
    for site in inventory.sites:
        if site.name not in resolver.sites:
            continue
        for host in site.hosts:
            names = (f"{host.name}.", f"{site.fqdn(host.name)}.")
            address = str(host.address)
            rdtype = "A" if host.address.version == 4 else "AAAA"
            out.append(Expectation(f"{host.name} {rdtype}", names[0], rdtype, (address,)))
            out.append(Expectation(f"{site.fqdn(host.name)} {rdtype}", names[1], rdtype, (address,)))
            out.append(Expectation(f"{address} PTR", host.address.reverse_pointer + ".", "PTR", names))
            for alias in host.aliases:
                for alias_name in (f"{alias}.", f"{site.fqdn(alias)}."):
                    out.append(Expectation(f"{alias_name[:-1]} CNAME", alias_name, rdtype, (address,),
                                           via=names))
        for name in site.retired:
            for retired in (f"{name}.", f"{site.fqdn(name)}."):
                out.append(Expectation(f"{retired[:-1]} gone", retired, "A", (NXDOMAIN,)))
    return out


def judge(expectation: Expectation, answer: Answer) -> Check:
    """Compare one answer with what the inventory says, and say what came back."""
    if expectation.want == (NXDOMAIN,):
        got = answer.rcode if answer.rcode != "NOERROR" or not answer.records else _show(answer)
        return Check(expectation, got, answer.rcode == NXDOMAIN)
    if answer.rcode != "NOERROR":
        return Check(expectation, answer.rcode, False)
    if not answer.records:
        return Check(expectation, "no records (NODATA)", False)
    cnames = [value for kind, value in answer.records if kind == "CNAME"]
    finals = [value for kind, value in answer.records if kind == expectation.rdtype]
    ok = bool(finals) and all(v in expectation.want for v in finals)
    if expectation.via:
        ok = ok and bool(cnames) and cnames[0] in expectation.via
    elif cnames:
        ok = False
    return Check(expectation, _show(answer), ok)


def _show(answer: Answer) -> str:
    return " -> ".join(value for _, value in answer.records)


def dnspython_querier(resolver: Resolver) -> Querier:
    """Queries straight to the resolver's address and port over UDP, TCP on truncation."""
    import dns.exception
    import dns.flags
    import dns.message
    import dns.query
    import dns.rcode
    import dns.rdatatype

    where, port, timeout = str(resolver.address), resolver.port, resolver.timeout

    def query(name: str, rdtype: str) -> Answer:
        request = dns.message.make_query(name, dns.rdatatype.from_text(rdtype))
        request.flags |= dns.flags.RD
        try:
            response = dns.query.udp(request, where, port=port, timeout=timeout)
            if response.flags & dns.flags.TC:
                response = dns.query.tcp(request, where, port=port, timeout=timeout)
        except (dns.exception.Timeout, OSError) as exc:
            raise NoAnswer(str(exc)) from None
        records = tuple((dns.rdatatype.to_text(rrset.rdtype), str(item))
                        for rrset in response.answer for item in rrset)
        return Answer(dns.rcode.to_text(response.rcode()), records)

    return query


def verify_resolver(inventory: Inventory, resolver: Resolver, querier: Querier) -> ResolverReport:
    report = ResolverReport(resolver)
    checks = expectations(inventory, resolver)
    for index, expectation in enumerate(checks):
        try:
            answer = querier(expectation.name, expectation.rdtype)
        except NoAnswer:
            if index == 0:  # dead: say so now rather than time out once per check
                report.unreachable = (f"{resolver.name} {resolver.endpoint}: no answer in "
                                      f"{resolver.timeout:.1f} s")
                return report
            report.checks.append(Check(expectation, f"no answer in {resolver.timeout:.1f} s", False))
            continue
        report.checks.append(judge(expectation, answer))
    return report


def verify_all(inventory: Inventory, resolvers: Sequence[Resolver],
               make_querier: Callable[[Resolver], Querier] = dnspython_querier,
               workers: int = 8) -> list[ResolverReport]:
    """All resolvers at once (bounded), reports in the order given."""
    if not resolvers:
        return []
    with concurrent.futures.ThreadPoolExecutor(max_workers=min(workers, len(resolvers))) as pool:
        futures = [pool.submit(verify_resolver, inventory, r, make_querier(r)) for r in resolvers]
        return [f.result() for f in futures]


def wait_until_answering(resolver: Resolver, querier: Querier, deadline: float) -> bool:
    """After a restart: poll until the resolver answers anything, or the deadline passes."""
    end = time.monotonic() + deadline
    while True:
        try:
            querier("renamer-probe.invalid.", "A")
            return True
        except NoAnswer:
            if time.monotonic() >= end:
                return False
            time.sleep(0.1)
