"""A site an apply deletes from a PowerDNS server (removed from the inventory, or no longer served by
the resolver), against a real pdns_server on loopback, both engines: the apply holds
X-RENAMER-LOCK in that site's zones too (a lock another apply holds there stops it, nothing
written), and gives it back; a PATCH that fails midway stops the writes there (the later zones
untouched) and what was written is rolled back; an apply killed (SIGKILL) after deleting a
removed site's RRsets is rolled back, or resumed, with that site's RRsets too."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.dns.powerdns.test_ansible_powerdns import FOREIGN, ask, owned
from tests.dns.powerdns.test_cli_powerdns import Fleet, dns
from tests.testing import powerdns

ANA_REVERSE = "250.10.in-addr.arpa."  # a zone only the site ana writes in


@pytest.fixture
def fleet(tmp_path: Path) -> Iterator[Fleet]:
    started = Fleet(tmp_path / "lab")
    try:
        for zone in powerdns.lab_zones():
            started.server.create_zone(zone)
        _resolvers(started)
        yield started
    finally:
        started.stop()


def _resolvers(fleet: Fleet, **extra: object) -> None:
    (fleet.inventory / "resolvers.yaml").write_text(f"resolvers:\n  - {json.dumps(fleet.pdns_entry(**extra))}\n")


def _locks(fleet: Fleet) -> dict[str, list[str]]:
    client = fleet.server.client()
    return {zone: client.metadata(zone) for zone in powerdns.lab_zones()}


@pytest.mark.parametrize(("engine", "how"), [("builtin", "removed"), ("builtin", "unserved"),
                                             ("ansible", "removed")])
def test_an_apply_locks_the_zones_of_a_site_it_deletes(run: Callable[..., Any], fleet: Fleet, engine: str,
                                                       how: str) -> None:
    assert dns(run, fleet, "apply", "--resolvers", "all").exit_code == 0
    applied = owned(fleet)
    if how == "removed":
        (fleet.inventory / "sites" / "ana.yaml").unlink()
    else:  # ana stays in the inventory, this resolver no longer serves it: its RRsets go too
        _resolvers(fleet, sites=["fv"])
    client = fleet.server.client()
    client.add_metadata(ANA_REVERSE, FOREIGN)  # another operator's apply holds ana's reverse zone
    refused = dns(run, fleet, "apply", "--resolvers", "all", "--engine", engine)
    said = refused.stdout + refused.stderr
    assert refused.exit_code != 0, said
    assert f"zones/{ANA_REVERSE}/metadata/X-RENAMER-LOCK" in said, said
    assert "is locked (metadata X-RENAMER-LOCK) by alice@ops-laptop pid 4242" in said, said
    assert owned(fleet) == applied and ask(fleet.server, "ana-nas.ana.lan.") == ("10.250.20.10",)
    assert _locks(fleet) == {zone: [FOREIGN] if zone == ANA_REVERSE else [] for zone in powerdns.lab_zones()}

    client.set_metadata(ANA_REVERSE, [])  # the other apply is done
    done = dns(run, fleet, "apply", "--resolvers", "all", "--engine", engine)
    assert done.exit_code == 0, done.stdout + done.stderr
    assert ask(fleet.server, "ana-nas.ana.lan.") == () and ask(fleet.server, "10.20.250.10.in-addr.arpa.", "PTR") == ()
    assert ask(fleet.server, "fv-gw.fv.lan.") == ("10.251.0.1",)
    assert _locks(fleet) == {zone: [] for zone in powerdns.lab_zones()}  # every lock given back


@pytest.mark.parametrize("engine", ["builtin", "ansible"])
@pytest.mark.parametrize("fail_at", [(2,), (2, 3)], ids=["apply", "apply-and-rollback"])
def test_a_patch_failing_on_the_second_zone_stops_the_writes_and_what_was_written_is_rolled_back(
        run: Callable[..., Any], fleet: Fleet, engine: str, fail_at: tuple[int, ...]) -> None:
    """The second PATCH of the apply (ana's reverse zone, after ana.lan.) answered HTTP 500: no
    later zone is written, the first is put back, the server holds what it held before; where the
    rollback's PATCH fails too, the apply says "rollback FAILED" and why (HTTP 500), as it is."""
    before = owned(fleet)
    fleet.proxy = powerdns.Proxy(fleet.server.url, "fail", fail_at=fail_at)
    _resolvers(fleet, api=fleet.proxy.url)
    failed = dns(run, fleet, "apply", "--resolvers", "all", "--engine", engine)
    said = failed.stdout + failed.stderr
    paths = [path for path, _ in fleet.proxy.patches]
    statuses = [status in (200, 204) for _, status in fleet.proxy.patches]
    # the first zone written, the second failed, then only the first again: its rollback
    assert len(paths) == 3 and paths[0] == paths[2] != paths[1], fleet.proxy.patches
    assert "ana.lan." in paths[0] and "250.10.in-addr.arpa." in paths[1], paths
    assert failed.exit_code == 1 and "HTTP 500" in said, said
    if fail_at == (2,):
        assert _locks(fleet) == {zone: [] for zone in powerdns.lab_zones()}
        assert statuses == [True, False, True], fleet.proxy.patches
        assert "rolled back" in failed.stdout and "rollback FAILED" not in said, said
        assert owned(fleet) == before and ask(fleet.server, "ana-nas.ana.lan.") == ()
        return
    assert statuses == [True, False, False], fleet.proxy.patches
    assert "rollback FAILED" in failed.stdout, said
    row = next(line for line in failed.stdout.splitlines() if line.startswith("ns-pdns "))
    assert "rollback FAILED" in row and "restored" not in row, row  # never a step it did not do
    failure = next(line for line in failed.stdout.splitlines() if line.startswith("ns-pdns: "))
    # the apply's own cause, then the rollback's (before: the Ansible engine named the last alone)
    cause, rollback = failure.index("250.10.in-addr.arpa.: HTTP 500"), failure.index("ana.lan.: HTTP 500")
    assert cause < rollback, failure
    assert ask(fleet.server, "ana-nas.ana.lan.") == ("10.250.20.10",)  # as it is: left, and said
    # kept for `dns apply --rollback`: the half-done mark; the playbook keeps its locks too (the
    # built-in engine gives its own back: the mark alone stops the next apply)
    assert (fleet.root / "backups" / "ns-pdns" / "renamer-apply-pending").exists()
    held = {zone for zone, entries in _locks(fleet).items() if entries}
    assert held == (set() if engine == "builtin" else set(powerdns.lab_zones())), _locks(fleet)


def _killed_after_removing_ana(fleet: Fleet, engine: str) -> dict[str, list[str]]:
    """Apply both sites, remove ana from the inventory, then kill -9 the apply that deletes ana's
    RRsets once both its zones are written (held by the proxy at its next call); the RRsets the
    server held before that apply."""
    command = [sys.executable, "-m", "renamer", "--repo", str(fleet.root), "dns", "apply", "--resolvers", "all",
               "--inventory", str(fleet.inventory)]
    assert subprocess.run(command, cwd=fleet.root, capture_output=True).returncode == 0
    applied = owned(fleet)
    (fleet.inventory / "sites" / "ana.yaml").unlink()
    fleet.proxy = powerdns.Proxy(fleet.server.url, "hold", hold_after=2)  # ana.lan., 250.10.in-addr.arpa.
    _resolvers(fleet, api=fleet.proxy.url)
    apply = subprocess.Popen([*command, "--engine", engine], cwd=fleet.root, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        assert fleet.proxy.held.wait(120), "the apply never got past its writes"
    finally:
        os.killpg(apply.pid, signal.SIGKILL)  # renamer, and ansible-playbook where it runs one
        apply.wait()
    _resolvers(fleet)  # the API reached directly again
    assert ask(fleet.server, "ana-nas.ana.lan.") == () and ask(fleet.server, "10.20.250.10.in-addr.arpa.", "PTR") == ()
    assert len(fleet.proxy.patches) == 2, fleet.proxy.patches
    assert (fleet.root / "backups" / "ns-pdns" / "renamer-apply-pending").exists()
    return applied


@pytest.mark.parametrize(("engine", "after"), [("builtin", "rollback"), ("builtin", "resume"),
                                               ("ansible", "rollback")])
def test_an_apply_killed_after_deleting_a_removed_sites_rrsets_is_rolled_back_or_resumed_with_them(
        run: Callable[..., Any], fleet: Fleet, engine: str, after: str) -> None:
    applied = _killed_after_removing_ana(fleet, engine)
    refused = dns(run, fleet, "apply", "--resolvers", "all")
    assert refused.exit_code == 3 and "was interrupted on ns-pdns" in refused.stderr, refused.stderr
    done = dns(run, fleet, "apply", "--resolvers", "all", f"--{after}")
    assert done.exit_code == 0, done.stdout + done.stderr
    if after == "rollback":  # ana's RRsets back as they were, comments and all
        assert owned(fleet) == applied and ask(fleet.server, "ana-nas.ana.lan.") == ("10.250.20.10",)
        # the killed apply's lock entries taken over (ana's zones locked while put back), given back
        assert _locks(fleet) == {zone: [] for zone in powerdns.lab_zones()}
        assert ask(fleet.server, "10.20.250.10.in-addr.arpa.", "PTR") == ("ana-nas.ana.lan.",)
        planned = dns(run, fleet, "plan", "--resolvers", "all")
        assert "renamer-ana.rrsets" in planned.stdout and "+++ /dev/null" in planned.stdout, planned.stdout
        return
    assert ask(fleet.server, "ana-nas.ana.lan.") == ()
    assert ask(fleet.server, "fv-gw.fv.lan.") == ("10.251.0.1",)
    assert _locks(fleet) == {zone: [] for zone in powerdns.lab_zones()}
    assert dns(run, fleet, "plan", "--resolvers", "all", "--expect-no-changes").exit_code == 0
