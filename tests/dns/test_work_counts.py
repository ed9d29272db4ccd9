"""A regression guard that counts instead of timing, for the DNS commands: `-vv`'s last line
(`work: ...`, renamer/cli/dns.py) counts the DNS questions asked, the PowerDNS API calls by
method and the commands run at the resolvers. The same numbers on any machine: a change that
asks every question twice, PATCHes a zone per RRset or reloads a daemon per zone fails here
with the count, where benchmarks/bench_backends.py would only be slower on a busy machine.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from renamer.dns import verify
from tests.testing import powerdns
from tests.testing.resolvers import Lab, dns, start_bind_lab, start_powerdns_lab


def work(stderr: str) -> dict[str, int]:
    """The counts of -vv's `work:` line (the last one: one command)."""
    found = re.findall(r"^renamer: debug: work: (.*)$", stderr, re.M)
    assert found, f"no work line in:\n{stderr[-2000:]}"
    return {what: int(n) for what, n in (part.rsplit(" ", 1) for part in found[-1].split(", "))}


def commands(stderr: str, word: str) -> list[str]:
    """The commands -vv says were run whose argv holds `word`."""
    return [line for line in stderr.splitlines() if line.startswith("renamer: debug: run: ") and word in line]


@pytest.mark.parametrize("forked", [False, True], ids=["threads", "forked"])
def test_verify_asks_each_check_once(run: Callable[..., Any], lab: Lab, monkeypatch: pytest.MonkeyPatch,
                                     forked: bool) -> None:
    """Each resolver asked from a thread of its own (the lab's few checks), or from a forked
    worker (as from 3,000 checks in all, where a machine has 2 cores or more): nothing counted
    twice or lost."""
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    if forked:
        monkeypatch.setattr(verify, "PROCESSES_FROM", 0)
    verified = dns(run, lab, "verify", "--resolvers", "all", "--format", "json", "-vv")
    assert verified.exit_code == 0, verified.stdout
    checks = [c for r in json.loads(verified.stdout)["resolvers"] for c in r["checks"]]
    asked = [c for c in checks if c["type"] != "DHCP"]  # a dhcp-host line is read from the files
    assert len(asked) > 3 * 10 and len(asked) < len(checks)  # the shipped sites on three resolvers
    counted = work(verified.stderr)
    assert counted["dns queries"] == len(asked)  # asked again after a timeout: counted apart


def test_a_bind_apply_reloads_each_zone_it_changed_once(run: Callable[..., Any], tmp_path: Path) -> None:
    """`rndc reload ZONE` per zone renamer changed (DNS break-it round 2, finding 12: a whole
    `rndc reload` put an operator's pending edit of their own zone live), each once, none again."""
    lab = start_bind_lab(tmp_path / "lab")
    try:
        applied = dns(run, lab, "apply", "--resolvers", "all", "-vv")
        assert applied.exit_code == 0, applied.stdout
        zones = [p for p in lab.instances["ns-ana"].snippet_dir.iterdir() if p.name.endswith(".zone")]
        assert len(zones) >= 4  # two sites, each a forward and a reverse zone
        assert len(commands(applied.stderr, " reload ")) == len(zones) * len(lab.instances)  # each zone once
        assert len(commands(applied.stderr, "named-checkconf")) == 2 * len(lab.instances)  # before, after
        again = dns(run, lab, "apply", "--resolvers", "all", "-vv")
        assert again.exit_code == 0 and not commands(again.stderr, " reload")  # nothing to do: no reload
    finally:
        lab.stop()


def test_a_powerdns_apply_patches_each_zone_once(run: Callable[..., Any], tmp_path: Path) -> None:
    lab = start_powerdns_lab(tmp_path / "lab")
    try:
        zones, servers = len(powerdns.lab_zones()), len(lab.instances)
        applied = dns(run, lab, "apply", "--resolvers", "all", "-vv")
        assert applied.exit_code == 0, applied.stdout
        counted = work(applied.stderr)
        assert counted["api PATCH"] == zones * servers  # one PATCH a zone, whatever its RRsets
        # per server: each zone read before the write, for the write's diff and for the read-back
        # (3), the lock's metadata read to take it, confirm it and give it back (4); a search of
        # renamer's comments twice, the server once and its zone list once (a zone that is a
        # secondary, or that would shadow or be shadowed: DNS break-it round 2, findings 06, 14)
        assert counted["api GET"] <= (7 * zones + 4) * servers
        again = dns(run, lab, "apply", "--resolvers", "all", "-vv")
        assert again.exit_code == 0, again.stdout
        assert "api PATCH" not in work(again.stderr)  # unchanged: nothing written
    finally:
        lab.stop()
