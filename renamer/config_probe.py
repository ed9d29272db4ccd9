"""renamer.yaml's `probe:` (docs/probe.md), checked: health paths, expected statuses, exclusions,
timeout, concurrency."""

from __future__ import annotations

from typing import Any

from renamer import lazy_re
from renamer.config import ProbeConfig
from renamer.formats.yaml_source import Problems, check_mapping, shown

_STATUS = lazy_re.compile(r"[1-5]xx\Z")


def read_probe(top: dict[str, Any], problems: Problems) -> ProbeConfig:
    if "probe" not in top:
        return ProbeConfig()
    section = check_mapping(top["probe"], "probe", {"health", "expect", "exclude", "timeout", "concurrency"},
                            problems, top, "probe")
    if section is None:
        return ProbeConfig()
    health = section.get("health", {})
    if not isinstance(health, dict) or not all(isinstance(k, str) and isinstance(v, str) and v.startswith("/")
                                               for k, v in health.items()):
        problems.add(section, "health", "probe.health",
                     "expected a mapping of key patterns to paths, e.g. {api_base: /health/liveliness}")
        health = {}
    expect = section.get("expect")
    if expect is not None and (not isinstance(expect, list) or not expect
                               or not all(isinstance(e, str) and _STATUS.match(e) for e in expect)):
        problems.add(section, "expect", "probe.expect",
                     f"expected a list like [2xx, 3xx], got {shown(expect)}")
        expect = None
    exclude = section.get("exclude", [])
    if not isinstance(exclude, list) or not all(isinstance(e, str) for e in exclude):
        problems.add(section, "exclude", "probe.exclude", "expected a list of patterns")
        exclude = []
    timeout = section.get("timeout", 3.0)
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not 0 < timeout <= 60:
        problems.add(section, "timeout", "probe.timeout",
                     f"expected seconds between 0 and 60, got {shown(timeout)}")
        timeout = 3.0
    concurrency = section.get("concurrency", 32)
    if isinstance(concurrency, bool) or not isinstance(concurrency, int) or not 1 <= concurrency <= 256:
        problems.add(section, "concurrency", "probe.concurrency",
                     f"expected a number from 1 to 256, got {shown(concurrency)}")
        concurrency = 32
    return ProbeConfig(tuple((str(k), str(v)) for k, v in health.items()),
                       tuple(expect) if expect else None, tuple(exclude), float(timeout), concurrency)
