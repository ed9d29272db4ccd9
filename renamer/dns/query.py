"""The real querier: dnspython, straight to one resolver's address and port.

The only module that imports dnspython (about 65 ms), so only the DNS
commands pay for it.
"""

from __future__ import annotations

import contextlib
import random
import select
import socket
import time
from collections.abc import Sequence
from typing import Any

import dns.exception
import dns.flags
import dns.message
import dns.name
import dns.query
import dns.rcode
import dns.rdatatype

from renamer import work
from renamer.dns.answers import Answer, NoAnswer, Querier
from renamer.dns.inventory import Resolver
from renamer.dns.own_case import marked

_RANDOM = random.SystemRandom()
_NAMES = frozenset({"CNAME", "PTR", "NS", "DNAME", "MX", "SRV", "SOA"})  # types whose data holds names


class DnsPythonQuerier:
    """Queries straight to one resolver's address and port (dnspython), UDP with TCP on truncation.

    A single question goes through dnspython's own `dns.query.udp` (and `tcp`).
    `many` is written here because dnspython has no pipelined query: it keeps a
    window of queries in flight on one socket and matches the answers by message
    id and question, so thousands of checks take about as long as building and
    parsing the messages, not thousands of round trips (benchmarks/bench_query.py:
    1,000 questions to a loopback dnsmasq in 0.12 s, against 0.24 s one
    `dns.query.udp` at a time, on the 2-core machine). Message ids are random, as
    dnspython draws them, so a spoofed answer must guess one.
    """

    WINDOW = 64

    def __init__(self, resolver: Resolver) -> None:
        self.where, self.port, self.timeout = str(resolver.address), resolver.port, resolver.timeout
        self.family = socket.AF_INET6 if resolver.address.version == 6 else socket.AF_INET

    def _request(self, name: str, rdtype: str, ident: int | None = None) -> Any:
        request = dns.message.make_query(marked(name), dns.rdatatype.from_text(rdtype), id=ident)
        request.flags |= dns.flags.RD
        return request

    def _answer(self, response: Any) -> Answer:
        # A name in the data (a CNAME's or PTR's target) compressed against the question comes back
        # in the question's case, which is renamer's own (dns/own_case.py): names are compared as
        # DNS compares them, in lower case; text (TXT) keeps its case.
        records = tuple((kind, str(item).lower() if kind in _NAMES else str(item))
                        for rrset in response.answer
                        for kind in (dns.rdatatype.to_text(rrset.rdtype),) for item in rrset)
        return Answer(dns.rcode.to_text(response.rcode()), records)

    def _tcp(self, request: Any) -> Answer:
        work.add("dns queries over tcp")
        try:
            return self._answer(dns.query.tcp(request, self.where, port=self.port, timeout=self.timeout))
        except (dns.exception.DNSException, OSError) as exc:
            raise NoAnswer(str(exc)) from None

    def __call__(self, name: str, rdtype: str) -> Answer:
        work.add("dns queries")
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

        answers: list[Answer | None] = [None] * len(questions)
        pending = list(range(len(questions)))
        with socket.socket(self.family, socket.SOCK_DGRAM) as sock:
            sock.connect((self.where, self.port))
            for attempt in range(2):
                in_flight: dict[int, tuple[int, Any]] = {}
                queue = list(pending)
                free = _RANDOM.sample(range(0x10000), min(len(queue), 0x10000))  # no id twice in flight
                deadline = time.monotonic() + self.timeout
                while queue or in_flight:
                    while queue and free and len(in_flight) < self.WINDOW:
                        index = queue.pop(0)
                        ident = free.pop()
                        work.add("dns queries" if attempt == 0 else "dns queries again")  # again: timed out
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
                    free.append(response.id)
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

    header = ident.to_bytes(2, "big") + b"\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00"
    question = dns.name.from_text(marked(name)).to_wire() or b""  # in renamer's case: dns/own_case.py
    return header + question + int(dns.rdatatype.from_text(rdtype)).to_bytes(2, "big") + b"\x00\x01"


def dnspython_querier(resolver: Resolver) -> Querier:
    return DnsPythonQuerier(resolver)
