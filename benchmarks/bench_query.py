"""dns verify's querier: 1,000 questions to one loopback dnsmasq, pipelined (`many`) against one
dnspython `dns.query.udp` at a time. From the repo root: python benchmarks/bench_query.py"""

from __future__ import annotations

import ipaddress
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from renamer.dns.query import DnsPythonQuerier
from tests.testing.resolvers import start_lab


def _median(run: Callable[[], list[Any]]) -> tuple[float, int]:
    times, answered = [], 0
    for _ in range(3):
        start = time.perf_counter()
        answers = run()
        times.append(time.perf_counter() - start)
        answered = sum(a is not None for a in answers)
    return statistics.median(times), answered


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        lab = start_lab(Path(scratch) / "lab", ("ns-a",))
        try:
            instance = lab.instances["ns-a"]
            resolver = SimpleNamespace(address=ipaddress.ip_address(instance.address), port=instance.port,
                                       timeout=2.0)
            querier = DnsPythonQuerier(resolver)  # type: ignore[arg-type]
            questions = [(f"h{i}.example.invalid", "A") for i in range(1000)]
            for label, run in (("many (pipelined)", lambda: querier.many(questions)),
                               ("one dns.query.udp at a time", lambda: [querier(*q) for q in questions])):
                seconds, answered = _median(run)
                print(f"{label}: {seconds:.3f} s for {len(questions)} questions ({answered} answered)")
        finally:
            lab.stop()


if __name__ == "__main__":
    main()
