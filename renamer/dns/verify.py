"""Ask each resolver directly (dnspython, its address and port) whether it serves the inventory.

No system resolver, no search domains, no cache: every name is sent fully
qualified to exactly one server. The querier is injected, so the comparison
logic is tested with a fake and the whole with real dnsmasq.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import select
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from renamer.dns.inventory import Inventory, Resolver
from renamer.forked import available_cores, can_fork, fork_map

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


class DnsPythonQuerier:
    """Queries straight to one resolver's address and port (dnspython), UDP with TCP on truncation.

    `many` keeps a window of queries in flight on one socket and matches the
    answers by message id and question, so thousands of checks take about as
    long as building and parsing the messages, not thousands of round trips.
    """

    WINDOW = 64

    def __init__(self, resolver: Resolver) -> None:
        self.where, self.port, self.timeout = str(resolver.address), resolver.port, resolver.timeout
        self.family = socket.AF_INET6 if resolver.address.version == 6 else socket.AF_INET

    def _request(self, name: str, rdtype: str, ident: int | None = None) -> Any:
        import dns.flags
        import dns.message
        import dns.rdatatype

        request = dns.message.make_query(name, dns.rdatatype.from_text(rdtype), id=ident)
        request.flags |= dns.flags.RD
        return request

    def _answer(self, response: Any) -> Answer:
        import dns.rcode
        import dns.rdatatype

        records = tuple((dns.rdatatype.to_text(rrset.rdtype), str(item))
                        for rrset in response.answer for item in rrset)
        return Answer(dns.rcode.to_text(response.rcode()), records)

    def _tcp(self, request: Any) -> Answer:
        import dns.exception
        import dns.query

        try:
            return self._answer(dns.query.tcp(request, self.where, port=self.port, timeout=self.timeout))
        except (dns.exception.DNSException, OSError) as exc:
            raise NoAnswer(str(exc)) from None

    def __call__(self, name: str, rdtype: str) -> Answer:
        import dns.exception
        import dns.flags
        import dns.query

        request = self._request(name, rdtype)
        try:
            response = dns.query.udp(request, self.where, port=self.port, timeout=self.timeout)
        except (dns.exception.DNSException, OSError) as exc:
            raise NoAnswer(str(exc)) from None
        if response.flags & dns.flags.TC:
            return self._tcp(request)
        return self._answer(response)

    def many(self, questions: Sequence[tuple[str, str]]) -> list[Answer | None]:
        """Answers in order; None where a question got no answer after one retry."""
        import dns.exception
        import dns.flags
        import dns.message

        answers: list[Answer | None] = [None] * len(questions)
        pending = list(range(len(questions)))
        with socket.socket(self.family, socket.SOCK_DGRAM) as sock:
            sock.connect((self.where, self.port))
            for _attempt in range(2):
                in_flight: dict[int, tuple[int, Any]] = {}
                queue = list(pending)
                deadline = time.monotonic() + self.timeout
                while queue or in_flight:
                    while queue and len(in_flight) < self.WINDOW:
                        index = queue.pop(0)
                        ident = (index * 7919 + _attempt) & 0xFFFF
                        request = _query_wire(*questions[index], ident)
                        in_flight[ident] = (index, request)
                        with contextlib.suppress(OSError):
                            sock.send(request)
                    wait = deadline - time.monotonic()
                    if wait <= 0 or not select.select([sock], [], [], wait)[0]:
                        break  # the rest timed out in this attempt
                    try:
                        wire = sock.recv(65535)
                    except OSError:
                        continue
                    entry = in_flight.get(int.from_bytes(wire[:2], "big"))
                    # The answer must repeat our question byte for byte (same name, type, class).
                    if entry is None or wire[12:len(entry[1])] != entry[1][12:]:
                        continue
                    index, request = entry
                    try:
                        response = dns.message.from_wire(wire)
                    except dns.exception.DNSException:
                        continue
                    del in_flight[response.id]
                    deadline = time.monotonic() + self.timeout
                    if response.flags & dns.flags.TC:
                        with contextlib.suppress(NoAnswer):
                            answers[index] = self._tcp(self._request(*questions[index]))
                    else:
                        answers[index] = self._answer(response)
                pending = [i for i in pending if answers[i] is None]
                if not pending:
                    break
        return answers


def _query_wire(name: str, rdtype: str, ident: int) -> bytes:
    """A standard query (RD set, one question, class IN) in wire format."""
    import dns.name
    import dns.rdatatype

    header = ident.to_bytes(2, "big") + b"\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00"
    question = dns.name.from_text(name).to_wire() or b""
    return header + question + int(dns.rdatatype.from_text(rdtype)).to_bytes(2, "big") + b"\x00\x01"


def dnspython_querier(resolver: Resolver) -> Querier:
    return DnsPythonQuerier(resolver)


def verify_resolver(inventory: Inventory, resolver: Resolver, querier: Querier) -> ResolverReport:
    report = ResolverReport(resolver)
    checks = expectations(inventory, resolver)
    if not checks:
        return report
    try:  # one query first: a dead resolver is named now, not once per check
        first = querier(checks[0].name, checks[0].rdtype)
    except NoAnswer:
        report.unreachable = f"{resolver.name} {resolver.endpoint}: no answer in {resolver.timeout:.1f} s"
        return report
    answers: list[Answer | None] = [first]
    rest = checks[1:]
    many = getattr(querier, "many", None)
    if many is not None:
        answers += many([(e.name, e.rdtype) for e in rest])
    else:
        for expectation in rest:
            try:
                answers.append(querier(expectation.name, expectation.rdtype))
            except NoAnswer:
                answers.append(None)
    for expectation, answer in zip(checks, answers, strict=True):
        if answer is None:
            report.checks.append(Check(expectation, f"no answer in {resolver.timeout:.1f} s", False))
        else:
            report.checks.append(judge(expectation, answer))
    return report


# Above this many checks in all, resolvers are verified in forked processes: building and
# parsing messages is CPU work that threads would serialise on the GIL.
PROCESSES_FROM = 3000


def verify_all(inventory: Inventory, resolvers: Sequence[Resolver],
               make_querier: Callable[[Resolver], Querier] = dnspython_querier,
               workers: int = 8) -> list[ResolverReport]:
    """All resolvers at once (bounded), reports in the order given."""
    if not resolvers:
        return []

    def verify_one(resolver: Resolver) -> ResolverReport:
        return verify_resolver(inventory, resolver, make_querier(resolver))

    total = sum(len(expectations(inventory, r)) for r in resolvers)
    cores = available_cores()
    if total >= PROCESSES_FROM and len(resolvers) > 1 and cores > 1 and can_fork():
        return list(fork_map(verify_one, resolvers, min(cores, len(resolvers), workers)))
    with concurrent.futures.ThreadPoolExecutor(max_workers=min(workers, len(resolvers))) as pool:
        return list(pool.map(verify_one, resolvers))


def wait_until_answering(querier: Querier, deadline: float) -> bool:
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
