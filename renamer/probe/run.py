"""The probe use case: collect the endpoints the current-state files name through a new value,
then check them concurrently, every one bounded in time."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from renamer import vcs_listing
from renamer.classify import CURRENT
from renamer.dns.answers import Querier
from renamer.dns.inventory import Inventory, Resolver
from renamer.dns.query import dnspython_querier
from renamer.ignore import walk
from renamer.match import new_values_matcher
from renamer.probe.checks import EndpointCheck, Limits, check
from renamer.probe.collect import Endpoint, endpoints_in, merged
from renamer.project import LoadedProject
from renamer.sweep.content import read_texts


@dataclass(frozen=True)
class ProbeResult:
    endpoints: list[Endpoint]
    verdicts: list[EndpointCheck]  # empty for a dry run
    dry_run: bool

    @property
    def ok(self) -> bool:
        return all(v.ok for v in self.verdicts)


def collect(project: LoadedProject) -> list[Endpoint]:
    """Every endpoint of a current-state file that holds a new value, once, with its places."""
    root, config = project.root, project.config
    listed = vcs_listing.listed_files(root, ignored=False)[0] if project.git else walk(root)[0]
    own = {config.display(config.path), *(config.display(p) for p in config.allowlist_paths)}
    current = [rel for rel in listed if rel not in own and project.classifier.classify(rel).status == CURRENT]
    renames = config.renames
    matcher = new_values_matcher(renames.hosts, renames.addresses)
    found = []
    for rel, data in read_texts(root, current):
        found += list(endpoints_in(rel, data, matcher))
    return merged(found, config.probe.exclude)


def probe(project: LoadedProject, inventory: Inventory | None, limits: Limits, *, concurrency: int,
          total: float, dry_run: bool = False,
          make_querier: Callable[[Resolver], Querier] = dnspython_querier) -> ProbeResult:
    """Check every endpoint (none with `dry_run`: nothing is contacted). At most `concurrency`
    at once; what is not done after `total` seconds is reported as not probed."""
    endpoints = collect(project)
    if dry_run or not endpoints:
        return ProbeResult(endpoints, [], dry_run)
    # Daemon threads, not an executor: what is still stuck at the deadline (a resolver that
    # never answers) is reported and left behind, and the process still ends on time.
    results: dict[int, EndpointCheck] = {}
    waiting = list(enumerate(endpoints))
    lock = threading.Lock()

    def work() -> None:
        while True:
            with lock:
                if not waiting:
                    return
                index, endpoint = waiting.pop(0)
            try:
                results[index] = check(endpoint, inventory, limits, make_querier)
            except Exception as exc:  # one endpoint's surprise is its verdict, not the run's end
                failed = EndpointCheck(endpoint, connect="failed")
                failed.problems.append(f"probe failed: {type(exc).__name__}: {exc}")
                results[index] = failed

    workers = [threading.Thread(target=work, daemon=True) for _ in range(min(concurrency, len(endpoints)))]
    for worker in workers:
        worker.start()
    deadline = time.monotonic() + total
    for worker in workers:
        worker.join(max(0.0, deadline - time.monotonic()))
    verdicts = []
    for index, endpoint in enumerate(endpoints):
        verdict = results.get(index)
        if verdict is None:
            verdict = EndpointCheck(endpoint, connect="not probed")
            verdict.problems.append(f"not probed: the run's limit of {total:g} s was reached")
        verdicts.append(verdict)
    return ProbeResult(endpoints, verdicts, dry_run)
