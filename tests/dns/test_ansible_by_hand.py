"""The exported playbook run by hand (`renamer dns export ansible --out DIR`, then `ansible-playbook
playbook.yml` in DIR), break-it round 4: real ansible-playbook, real dnsmasq and Unbound on loopback;
what is served is asked of the resolvers over DNS, never read from the playbook's report."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from renamer.dns.dnsmasq import sandbox
from tests.testing.resolvers import Lab, addresses, dns, move_gateway, playbook_by_hand
from tests.testing.unbound import Forwarder, ask, reverse_zone, start_forwarder

GW = "fv-gw.fv.lan."
ZONES = ("fv.lan", "ana.lan", reverse_zone("10.251.0.0/16"), reverse_zone("10.250.0.0/16"))
CACHED = 1.1  # Unbound holds dnsmasq's TTL 0 answers until the next second


def _forwarder(lab: Lab, name: str, to: str, zones: tuple[str, ...] = ZONES,
               sites: tuple[str, ...] = ("fv",)) -> Forwarder:
    """Unbound forwarding `zones` to the lab resolver `to` alone, listed as `name`, manage: false."""
    instance = lab.instances[to]
    forwarder = start_forwarder(lab.root / name, {zone: [(instance.address, instance.port)] for zone in zones})
    lab.write_resolvers(({"name": name, "address": forwarder.address, "port": forwarder.port,
                          "manage": False, "timeout": 0.5, "sites": list(sites)},))
    return forwarder


@pytest.fixture
def ub_fv(lab: Lab) -> Iterator[Forwarder]:
    """ub-fv: the fv site's Unbound, forwarding fv.lan to ns-fv only (the last resolver of a run)."""
    forwarder = _forwarder(lab, "ub-fv", "ns-fv")
    try:
        yield forwarder
    finally:
        forwarder.stop()


def _export(run, lab: Lab, folder: Path, *policy: str) -> None:  # type: ignore[no-untyped-def]
    exported = dns(run, lab, "export", "ansible", "--out", str(folder), *policy)
    assert exported.exit_code == 0, exported.stdout + exported.stderr


# ---- item 1: the forwarders are asked once, after the run's last batch ----------------------------

@pytest.mark.parametrize("policy", [
    pytest.param(("--canary", "1", "--batch-size", "10"), id="canary-then-the-rest"),
    pytest.param(("--batch-size", "1"), id="one-at-a-time"),
    pytest.param((), id="one-batch"),
])
def test_a_batched_hand_run_reaches_every_batch_when_the_forwarder_sits_in_front_of_a_later_one(
        run, lab: Lab, ub_fv: Forwarder, tmp_path: Path, policy: tuple[str, ...]) -> None:  # type: ignore[no-untyped-def]
    """ub-fv serves fv and forwards to ns-fv, the last resolver: after batch 1 (ns-ana) it cannot
    serve the move yet. Before, the run stopped after batch 1 naming ub-fv, and every re-run
    again; now it asks ub-fv once, after the last batch, as `dns apply` does."""
    move_gateway(lab)
    folder = tmp_path / "export"
    _export(run, lab, folder, *policy)
    done = playbook_by_hand(folder)
    assert done.returncode == 0, done.stdout[-4000:]
    assert "(manage: false, in front of the resolvers of this run)" not in done.stdout
    assert set(addresses(lab, GW).values()) == {("10.251.0.2",)}  # every batch reached
    assert ask(ub_fv, GW) == ("NOERROR", ("A 10.251.0.2",))  # what a client at fv gets


def test_dns_apply_with_the_same_policy_applies_all_three(run, lab: Lab, ub_fv: Forwarder) -> None:  # type: ignore[no-untyped-def]
    """The reference the hand run must match: `dns apply --canary 1 --batch-size 10`, either engine."""
    move_gateway(lab)
    for engine in ("builtin", "ansible"):
        applied = dns(run, lab, "apply", "--resolvers", "all", "--canary", "1", "--batch-size", "10",
                      "--engine", engine)
        assert applied.exit_code == 0, applied.stdout + applied.stderr
        assert set(addresses(lab, GW).values()) == {("10.251.0.2",)}
        assert ask(ub_fv, GW) == ("NOERROR", ("A 10.251.0.2",))


@pytest.mark.parametrize("limit", [
    pytest.param("ns-ana,ns-fv", id="limit-keeps-the-resolver-it-forwards-to"),
    pytest.param("ns-ana", id="limit-leaves-it-out"),
])
def test_under_limit_the_forwarders_of_the_limited_hosts_are_asked_after_the_last_of_them(
        run, lab: Lab, ub_fv: Forwarder, tmp_path: Path, limit: str) -> None:  # type: ignore[no-untyped-def]
    """--limit makes the run's last batch the last limited host. Limited to ns-ana and ns-fv the
    forwarder serves the move; limited to ns-ana alone (ub-fv forwards to ns-fv, not reached), the
    run fails naming ub-fv, as `dns apply --resolvers ns-ana` does, and rolls nothing back."""
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    move_gateway(lab)
    folder = tmp_path / "export"
    _export(run, lab, folder, "--batch-size", "1")
    done = playbook_by_hand(folder, "--limit", limit)
    if "ns-fv" in limit:
        assert done.returncode == 0, done.stdout[-4000:]
        assert ask(ub_fv, GW) == ("NOERROR", ("A 10.251.0.2",))
    else:
        assert done.returncode != 0, done.stdout[-4000:]
        assert "ub-fv (manage: false, in front of the resolvers of this run) does not serve the records " \
               "(ub-fv: _renamer.fv.fv.lan TXT (canary): expected " in done.stdout, done.stdout[-4000:]
        builtin = dns(run, lab, "apply", "--resolvers", "ns-ana")
        assert builtin.exit_code == 1 and "dns apply: FAILED at ub-fv (manage: false)" in builtin.stdout
    # ns-ana keeps what it was written and verified: nothing rolled back for a forwarder's fault
    assert addresses(lab, GW, "ns-ana") == {"ns-ana": ("10.251.0.2",)}
    assert addresses(lab, GW, "ns-ana2") == {"ns-ana2": ("10.251.0.1",)}  # never in the run


def test_a_forwarder_that_serves_a_stale_answer_at_the_end_fails_the_run_naming_it(
        run, lab: Lab, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A forwarder in front of every batch that forwards to a resolver outside the run (ns-ana2,
    --limit leaves it out) still gives the old address after the last batch, and after the
    retries: the run fails, naming it and what it answered; the resolvers keep the move."""
    forwarder = _forwarder(lab, "ub-fv", "ns-ana2")
    try:
        assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
        move_gateway(lab)
        folder = tmp_path / "export"
        _export(run, lab, folder, "--canary", "1", "--batch-size", "10")
        started = time.monotonic()
        done = playbook_by_hand(folder, "--limit", "ns-ana,ns-fv")
        assert done.returncode != 0, done.stdout[-4000:]
        assert "ub-fv (manage: false, in front of the resolvers of this run) does not serve the records " \
               "(ub-fv: _renamer.fv.fv.lan TXT (canary): expected " in done.stdout, done.stdout[-4000:]
        assert time.monotonic() - started > 2.2  # asked twice more, a second apart, as dns apply asks
        assert addresses(lab, GW, "ns-ana", "ns-fv") == {"ns-ana": ("10.251.0.2",), "ns-fv": ("10.251.0.2",)}
        assert ask(forwarder, GW) == ("NOERROR", ("A 10.251.0.1",))
    finally:
        forwarder.stop()


# ---- item 2: an outdated export is refused before anything is written ----------------------------

def _outdated(run, lab: Lab, tmp_path: Path) -> tuple[Path, dict[str, bytes], dict[str, str]]:  # type: ignore[no-untyped-def]
    """Export the gateway at .2, then the inventory moves it to .3 and `dns apply` runs: the
    export is older than every resolver."""
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    move_gateway(lab)  # .1 -> .2
    folder = tmp_path / "export"
    _export(run, lab, folder)
    path = lab.inventory / "sites" / "fv.yaml"
    path.write_text(path.read_text().replace("address: 10.251.0.2", "address: 10.251.0.3"))
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    return folder, lab.snippets(), lab.pids()


@pytest.mark.parametrize("args", [pytest.param((), id="run"), pytest.param(("--check",), id="check"),
                                  pytest.param(("--limit", "ns-fv"), id="limit")])
def test_a_hand_run_of_an_outdated_export_is_refused_before_anything_is_written(
        run, lab: Lab, tmp_path: Path, args: tuple[str, ...]) -> None:  # type: ignore[no-untyped-def]
    """Before: the old records were written and every resolver restarted, verify failed, the
    restore's check compared with the export's previous/ and failed on every host, leaving marks
    and locks. Now the run stops before the first write, naming the resolver, and leaves nothing."""
    folder, before, pids = _outdated(run, lab, tmp_path)
    done = playbook_by_hand(folder, *args)
    assert done.returncode != 0, done.stdout[-4000:]
    for name in (["ns-fv"] if "--limit" in args else lab.instances):
        assert f"this export is outdated: resolver {name} changed since it was exported" in done.stdout
    assert lab.snippets() == before and lab.pids() == pids  # nothing written, nothing restarted
    assert set(addresses(lab, GW).values()) == {("10.251.0.3",)}
    leftovers = [p.name for p in (lab.root / "backups").rglob("*") if p.name.startswith("renamer-apply-pending")
                 or p.name == "renamer-apply.lock"]
    assert leftovers == []
    assert dns(run, lab, "verify", "--resolvers", "all").exit_code == 0


def test_a_restore_is_checked_against_this_run_s_own_backup(run, lab: Lab, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """ns-ana's fv snippet already holds what the export writes (it changed since the export,
    which is allowed), its ana snippet what it had. The run writes the ana snippet, its verify
    fails (the reload never restarts), and the restore must be checked against what this run
    backed up: before, it was checked against the export's previous/ (the old fv records), the
    check failed, and the host was left marked and locked as `rollback FAILED`."""
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    lab.write_resolvers(ns_ana={"reload": ["/bin/true"]})  # a reload that reloads nothing
    move_gateway(lab)
    ana = lab.inventory / "sites" / "ana.yaml"
    ana.write_text(ana.read_text().replace("address: 10.250.0.1", "address: 10.250.0.2"))
    folder = tmp_path / "export"
    _export(run, lab, folder)
    instance = lab.instances["ns-ana"]
    (instance.snippet_dir / "renamer-fv.conf").write_bytes((folder / "files" / "ns-ana" / "renamer-fv.conf").read_bytes())
    sandbox.restart(instance.folder)
    done = playbook_by_hand(folder, "--limit", "ns-ana")
    assert done.returncode != 0, done.stdout[-4000:]
    assert re.search(r"TASK \[Restore \| check the resolver serves the previous records\][^\n]*\nok: \[ns-ana",
                     done.stdout), done.stdout[-4000:]
    assert addresses(lab, GW, "ns-ana") == {"ns-ana": ("10.251.0.2",)}  # as it held before the run
    assert addresses(lab, "ana-gw.ana.lan.", "ns-ana") == {"ns-ana": ("10.250.0.1",)}
    backups = lab.root / "backups" / "ns-ana"
    assert not (backups / "renamer-apply-pending").exists() and not (backups / "renamer-apply.lock").exists()
    assert (backups / "renamer-apply-last").read_text().split()[2:] == ["rolled", "back"]


# ---- item 3: a preflight before the first batch writes anything -----------------------------------

def _stopped(lab: Lab, name: str) -> str:
    sandbox.stop(lab.instances[name].folder)
    return f"{name}: did not answer before the apply (127.0.0.1:{lab.instances[name].port}: "


def _duplicate_cname(lab: Lab, name: str) -> str:
    """A hand file with a second cname= for renamer's alias: `dnsmasq --test` refuses the config."""
    (lab.instances[name].snippet_dir / "zz-hand.conf").write_text("cname=scriberr.fv.lan,fv-gw.fv.lan\n")
    return "its configuration as it stands already fails its test ("


@pytest.mark.parametrize("fault, host", [
    pytest.param("stopped", "ns-fv", id="a-resolver-of-the-last-batch-stopped"),
    pytest.param("cname", "ns-ana2", id="a-config-already-failing-its-test"),
    pytest.param("forwarder", "ns-fv", id="a-forwarder-in-front-down"),
    pytest.param("stopped-check", "ns-fv", id="check-mode-says-it-too"),
])
def test_a_fault_already_there_stops_a_hand_run_before_any_write(
        run, lab: Lab, tmp_path: Path, fault: str, host: str) -> None:  # type: ignore[no-untyped-def]
    """Before: batch 1 (and more) was written and restarted, then the run failed on the faulty
    host. Now every host of the run is checked first, read-only, and nothing is written."""
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    forwarder = _forwarder(lab, "ub-fv", "ns-fv") if fault == "forwarder" else None
    try:
        move_gateway(lab)
        folder = tmp_path / "export"
        _export(run, lab, folder, "--canary", "1", "--batch-size", "10")
        if fault.startswith("stopped"):
            expected = _stopped(lab, host)
        elif fault == "cname":
            expected = _duplicate_cname(lab, host)
        else:
            assert forwarder is not None
            forwarder.stop()
            expected = f"ub-fv: did not answer before the apply (127.0.0.1:{forwarder.port}: "
        before, pids = lab.snippets(), lab.pids()
        done = playbook_by_hand(folder, *(("--check",) if fault.endswith("check") else ()))
        assert done.returncode != 0, done.stdout[-4000:]
        assert expected in done.stdout, done.stdout[-4000:]
        assert re.search(rf"fatal: \[{host}\]: FAILED!", done.stdout), done.stdout[-4000:]
        assert "PLAY [Apply renamer DNS snippets]" not in done.stdout  # no batch started
        assert lab.snippets() == before and lab.pids() == pids  # nothing written, nothing restarted
        running = [n for n in lab.instances if not (fault.startswith("stopped") and n == host)]
        assert set(addresses(lab, GW, *running).values()) == {("10.251.0.1",)}
    finally:
        if forwarder is not None:
            forwarder.stop()


# ---- item 4: --check on a fleet a killed apply left half-done --------------------------------------

def test_check_mode_on_a_half_done_fleet_says_interrupted_as_a_real_run_would(
        run, lab: Lab, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A killed apply leaves a half-done mark and a dead lock on every host. Before, `--check`
    said every host was unchanged, rc 0; now it fails, naming the interrupted apply, as the real
    run does, and changes nothing (the marks and locks stay for `dns apply --resume`)."""
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    move_gateway(lab)
    folder = tmp_path / "export"
    _export(run, lab, folder)
    for name in lab.instances:  # what a killed apply leaves: its mark, and a lock naming a gone pid
        backups = lab.root / "backups" / name
        (backups / f"{name}-20261201T000000Z.0badc0de").mkdir()
        (backups / "renamer-apply-pending").write_text(
            f"{backups}/{name}-20261201T000000Z.0badc0de\n20261201T000000Z.0badc0de\n2\n")
        (backups / "renamer-apply.lock").write_text('{"host": "gone-box", "pid": 999999, "user": "op"}\n')
    marks = {p: p.read_bytes() for p in (lab.root / "backups").rglob("renamer-apply*")}
    for args in (("--check",), ("--check", "--diff"), ()):
        done = playbook_by_hand(folder, *args)
        assert done.returncode != 0, done.stdout[-4000:]
        for name in lab.instances:
            # check mode: the preflight cannot tell a live holder from a killed one (its own mark is
            # there while it runs), so it names both, never "interrupted" alone (F4); a real run's
            # lock step asks whether the holder still runs: one on another host cannot be proved gone
            said = (rf"renamer-apply\.lock is held \(.*\), with the half-done mark of its apply \(backup "
                    rf"[^)]*{name}-20261201T000000Z\.0badc0de\): an apply runs there" if args else
                    r"op@gone-box pid 999999.*this controller cannot tell whether it still runs")
            assert re.search(rf"fatal: \[{name}\]: FAILED! => .*{said}", done.stdout), done.stdout[-4000:]
        assert "would change" not in done.stdout
        assert {p: p.read_bytes() for p in (lab.root / "backups").rglob("renamer-apply*")} == marks
    assert set(addresses(lab, GW).values()) == {("10.251.0.1",)}
