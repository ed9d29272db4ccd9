"""renamer.yaml's old host names resolve nowhere after the move (`dns verify`), asked as clients
ask them: a short old name as written and under every site's domain (a client's search list),
so a hand-written record answering only the FQDN fails verify; on a backend that serves no
one-label names (BIND) the FQDNs are asked (DNS trial on public configs, finding 09)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.testing.repos import ALLOWLIST, make_repo
from tests.testing.resolvers import Lab, start_bind_lab, start_lab, stray

CONFIG = """version: 1
renames:
  hosts: {old-box: fv-ml1}
allowlist: allow.yaml
dns: dns
"""
STARTERS: dict[str, Callable[[Path, tuple[str, ...]], Lab]] = {"dnsmasq": start_lab, "bind": start_bind_lab}


@pytest.mark.parametrize("backend", sorted(STARTERS))
def test_a_short_old_name_answered_under_a_site_domain_fails_verify(run: Callable[..., Any], tmp_path: Path,
                                                                    backend: str) -> None:
    lab = STARTERS[backend](tmp_path / "lab", ("ns-fv",))
    try:
        make_repo(lab.root, {}, config=CONFIG, allowlist=ALLOWLIST)
        assert run(lab.root, "dns", "apply", "--resolvers", "all").exit_code == 0
        clean = run(lab.root, "dns", "verify", "--resolvers", "all", "--format", "json")
        assert clean.exit_code == 0, clean.stdout
        checks = {c["check"] for r in json.loads(clean.stdout)["resolvers"] for c in r["checks"]}
        assert {"old-box.fv.lan A gone", "old-box.ana.lan AAAA gone"} <= checks
        stray(lab, "ns-fv", "old-box.fv.lan.", "A", "10.251.0.99")  # by hand, the FQDN only
        failed = run(lab.root, "dns", "verify", "--resolvers", "all")
        assert failed.exit_code == 1, failed.stdout
        assert "old-box.fv.lan A gone" in failed.stdout and "10.251.0.99" in failed.stdout
    finally:
        lab.stop()
