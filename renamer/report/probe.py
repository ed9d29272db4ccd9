"""renamer probe's output: the endpoint table, markdown for a job summary, JSON."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from renamer.documents import versioned
from renamer.probe.checks import EndpointCheck
from renamer.probe.collect import Endpoint
from renamer.table import table as padded
from renamer.words import plural


def _where(endpoint: Endpoint) -> str:
    first = str(endpoint.places[0])
    more = len(endpoint.places) - 1
    return first + (f" (+{more} more)" if more else "")


def _latency(verdict: EndpointCheck) -> str:
    return f"{verdict.latency_ms:.0f} ms" if verdict.latency_ms is not None else "-"


def _rows(verdicts: Sequence[EndpointCheck]) -> list[list[str]]:
    return [[v.endpoint.shown(), _where(v.endpoint), v.resolution, v.connect, v.http, _latency(v),
             "ok" if v.ok else "FAIL"] for v in verdicts]


HEADER = ["endpoint", "where", "resolvers", "connect", "http", "latency", "result"]


def table(verdicts: Sequence[EndpointCheck], paint: Callable[[str], str] = lambda cell: cell,
          width: int | None = None) -> str:
    lines = [padded([HEADER, *_rows(verdicts)], paint, width).rstrip("\n")]
    for verdict in verdicts:
        lines += [f"{verdict.endpoint.shown()}: {problem}" for problem in verdict.problems]
    return "\n".join(lines) + "\n" + verdict_line(verdicts) + "\n"


def verdict_line(verdicts: Sequence[EndpointCheck]) -> str:
    failed = sum(not v.ok for v in verdicts)
    if failed:
        return f"probe: FAILED: {failed} of {plural(len(verdicts), 'endpoint')} did not answer as expected"
    return f"probe: OK: {plural(len(verdicts), 'endpoint')} resolve and answer"


def markdown(verdicts: Sequence[EndpointCheck]) -> str:
    lines = ["| " + " | ".join(HEADER) + " |", "|" + " --- |" * len(HEADER)]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in _rows(verdicts)]
    problems = [f"- `{v.endpoint.shown()}`: {p}" for v in verdicts for p in v.problems]
    tail = ["", *problems] if problems else []
    return "\n".join([f"**{verdict_line(verdicts)}**", "", *lines, *tail]) + "\n"


def listing(endpoints: Sequence[Endpoint]) -> str:
    """--dry-run: what would be probed, and from where; nothing is contacted."""
    lines = [f"{e.shown()}  {', '.join(str(p) for p in e.places)}" for e in endpoints]
    lines.append(f"probe: {plural(len(endpoints), 'endpoint')} would be probed (dry run: nothing contacted)")
    return "\n".join(lines) + "\n"


def document(endpoints: Sequence[Endpoint], verdicts: Sequence[EndpointCheck],
             dry_run: bool) -> dict[str, Any]:
    by_endpoint = {id(v.endpoint): v for v in verdicts}
    items = []
    for endpoint in endpoints:
        item: dict[str, Any] = {
            "endpoint": endpoint.shown(), "scheme": endpoint.scheme, "host": endpoint.host,
            "port": endpoint.effective_port, "pinned": endpoint.pinned,
            "places": [{"path": p.path, "line": p.line, "key": p.key} for p in endpoint.places],
        }
        verdict = by_endpoint.get(id(endpoint))
        if verdict is not None:
            item.update({"ok": verdict.ok, "resolution": verdict.resolution, "answers": verdict.answers,
                         "connect": verdict.connect, "http": verdict.http, "url": verdict.url,
                         "latency_ms": None if verdict.latency_ms is None else round(verdict.latency_ms, 1),
                         "problems": verdict.problems})
        items.append(item)
    return versioned({"dry_run": dry_run, "ok": all(v.ok for v in verdicts), "endpoints": items})
