"""Commit-confirmed apply (dns/confirm.py) cut short midway (t25-34 findings 05, 06, 12): a revert
killed between its restore and its reload, renamer killed while it rolls an armed resolver back,
a revert frozen (SIGSTOP) past its deadline. Real dnsmasq on loopback; what is served is asked over
DNS. Every half state is said as such by status, confirm and verify (never OK, never "rolled
back"), and `dns apply --rollback` finishes it: restore, reload, the old records served."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from tests.dns.test_confirm import _applied_then_moved, _armed, _lock
from tests.testing.resolvers import Lab, addresses, dns, fails_once_written

TWO = ("ns-c1", "ns-c2")  # the `pair` fixture's resolvers
GW = "fv-gw.fv.lan."
OLD, NEW = ("10.251.0.1",), ("10.251.0.2",)


def _wait(pred: Callable[[], bool], within: float = 30.0) -> bool:
    end = time.monotonic() + within
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.1)
    return pred()


def _armed_apply(lab: Lab, *args: str) -> None:
    """`dns apply ... --confirm-within` in a process of its own, as an operator runs it: once it
    ends, its pid in the lock is provably gone (the in-process runner's would still run)."""
    done = subprocess.run([sys.executable, "-m", "renamer", "dns", "apply", *args, "--inventory", str(lab.inventory)],
                          cwd=lab.root, capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def _snippet(lab: Lab, name: str) -> str:
    return (lab.instances[name].snippet_dir / "renamer-fv.conf").read_text()


def test_a_revert_killed_between_restore_and_reload_is_finished_by_rollback(  # type: ignore[no-untyped-def]
        run, pair: Lab, tmp_path: Path) -> None:
    """Finding 05: the file is old, the daemon serves the new record; nothing may call that OK."""
    _applied_then_moved(run, pair)
    slow = tmp_path / "slow"
    reload = pair.instances["ns-c1"].reload_command()
    pair.write_resolvers(ns_c1={"reload": ["sh", "-c", f'[ ! -e {slow} ] || sleep 8; exec "$@"', "sh", *reload]})
    _armed_apply(pair, "--resolvers", "ns-c1", "--confirm-within", "3s")
    what = _armed(pair, "ns-c1")
    folder = Path(str(what["folder"]))
    slow.touch()  # only the revert's reload is slow
    log = folder / "REVERT.log"
    assert _wait(lambda: log.exists() and "restored" in log.read_text(), 30), log
    time.sleep(0.5)  # in its slow reload now
    os.killpg(int(str(what["pid"])), signal.SIGKILL)
    slow.unlink()
    assert addresses(pair, GW, "ns-c1")["ns-c1"] == NEW  # the daemon: what the apply wrote
    assert "10.251.0.1" in _snippet(pair, "ns-c1")  # the file: restored

    status = dns(run, pair, "status", "--resolvers", "ns-c1")
    assert status.exit_code == 1, status.stdout
    assert "did not finish" in status.stdout and "--rollback" in status.stdout, status.stdout
    assert "keep it with `renamer dns confirm" not in status.stdout
    confirmed = dns(run, pair, "confirm", "--resolvers", "ns-c1")
    assert confirmed.exit_code == 1
    said = confirmed.stdout + confirmed.stderr
    assert "not confirmed, not rolled back" in said and "--rollback" in said, said
    assert "it is rolled back there" not in said
    verified = dns(run, pair, "verify", "--resolvers", "ns-c1")
    assert verified.exit_code == 1, verified.stdout  # served == inventory, but the files are not
    assert "revert lost" in verified.stdout, verified.stdout
    plain = dns(run, pair, "apply", "--resolvers", "ns-c1")
    assert plain.exit_code == 3
    assert "--rollback" in plain.stderr and "did not finish" in plain.stderr, plain.stderr
    assert addresses(pair, GW, "ns-c1")["ns-c1"] == NEW  # the refusal wrote nothing

    rolled = dns(run, pair, "apply", "--resolvers", "ns-c1", "--rollback")
    assert rolled.exit_code == 0, rolled.stdout + rolled.stderr
    assert "took over the lock" in rolled.stdout + rolled.stderr
    assert addresses(pair, GW, "ns-c1")["ns-c1"] == OLD  # asked over DNS: restored and reloaded
    assert not _lock(pair, "ns-c1").exists()
    after = dns(run, pair, "status", "--resolvers", "ns-c1")
    assert after.exit_code == 0, after.stdout


def test_renamer_killed_in_the_rollback_of_an_armed_resolver_is_finished_by_rollback(  # type: ignore[no-untyped-def]
        run, pair: Lab, tmp_path: Path) -> None:
    """Finding 06: the rollback disarmed ns-c1's revert, then renamer died in its reload: nothing
    reverts it any more; status says so and `--rollback` (refused as armed before) finishes it."""
    _applied_then_moved(run, pair)
    slow, mark = tmp_path / "slow", tmp_path / "in-reload"
    reload = pair.instances["ns-c1"].reload_command()
    pair.write_resolvers(
        ns_c1={"reload": ["sh", "-c", f'if [ -e {slow} ]; then touch {mark}; sleep 8; fi; exec "$@"', "sh", *reload]},
        ns_c2={"test": fails_once_written(pair, "ns-c2", then=f"touch {slow}; echo broken >&2; exit 1")})
    proc = subprocess.Popen([sys.executable, "-m", "renamer", "dns", "apply", "--resolvers", "all",
                             "--confirm-within", "6s", "--inventory", str(pair.inventory)], cwd=pair.root,
                            start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert _wait(mark.exists, 60)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    slow.unlink()
    time.sleep(8)  # past the window: nothing reverted it
    assert addresses(pair, GW, "ns-c1")["ns-c1"] == NEW

    status = dns(run, pair, "status", "--resolvers", "ns-c1")
    assert status.exit_code == 1, status.stdout
    assert "did not finish" in status.stdout and "--rollback" in status.stdout, status.stdout
    assert "keep it with `renamer dns confirm" not in status.stdout
    verified = dns(run, pair, "verify", "--resolvers", "ns-c1")
    assert verified.exit_code == 1, verified.stdout

    rolled = dns(run, pair, "apply", "--resolvers", "all", "--rollback")
    assert rolled.exit_code == 0, rolled.stdout + rolled.stderr
    assert addresses(pair, GW) == {"ns-c1": OLD, "ns-c2": OLD}
    after = dns(run, pair, "status")
    assert after.exit_code == 0, after.stdout


def test_a_revert_frozen_past_its_deadline_is_not_said_armed(run, pair: Lab) -> None:  # type: ignore[no-untyped-def]
    """Finding 12: SIGSTOP of the revert's group (a frozen cgroup): status is not OK from the first
    second past the deadline, and `--rollback` stops it for good and rolls back."""
    _applied_then_moved(run, pair)
    _armed_apply(pair, "--resolvers", "ns-c1", "--confirm-within", "3s")
    what = _armed(pair, "ns-c1")
    pid = int(str(what["pid"]))
    os.killpg(pid, signal.SIGSTOP)
    try:
        time.sleep(max(0.0, int(str(what["deadline"])) + 2 - time.time()))
        assert addresses(pair, GW, "ns-c1")["ns-c1"] == NEW
        status = dns(run, pair, "status", "--resolvers", "ns-c1")
        assert status.exit_code == 1, status.stdout
        assert "stopped (state T" in status.stdout, status.stdout
        rolled = dns(run, pair, "apply", "--resolvers", "ns-c1", "--rollback")
        assert rolled.exit_code == 0, rolled.stdout + rolled.stderr
        assert addresses(pair, GW, "ns-c1")["ns-c1"] == OLD
    finally:
        if _exists(pid):
            os.killpg(pid, signal.SIGCONT)
    time.sleep(1)
    assert addresses(pair, GW, "ns-c1")["ns-c1"] == OLD
    assert dns(run, pair, "status", "--resolvers", "ns-c1").exit_code == 0


def _exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_confirm_within_that_changes_nothing_says_nothing_is_armed(run, pair: Lab) -> None:  # type: ignore[no-untyped-def]
    """t25-34 finding 07: both resolvers up to date: the apply arms nothing and says that no
    confirm is needed (a pipeline's `dns confirm` would find nothing armed)."""
    assert dns(run, pair, "apply", "--resolvers", "all").exit_code == 0
    again = dns(run, pair, "apply", "--resolvers", "all", "--confirm-within", "5s")
    assert again.exit_code == 0, again.stdout + again.stderr
    assert "nothing armed, no `renamer dns confirm` needed" in again.stderr, again.stderr
    assert not _lock(pair, "ns-c1").exists() and not _lock(pair, "ns-c2").exists()
    assert addresses(pair, GW) == {"ns-c1": OLD, "ns-c2": OLD}


def test_a_window_that_runs_out_during_the_apply_says_so(run, pair: Lab) -> None:  # type: ignore[no-untyped-def]
    """t25-34 finding 15: ns-c1's reload takes 4 s, the window 2 s: its revert runs first, and the
    failure names the window, not the canary mismatch its restore caused. Both serve the old record."""
    _applied_then_moved(run, pair)
    reload = pair.instances["ns-c1"].reload_command()
    pair.write_resolvers(ns_c1={"reload": ["sh", "-c", 'sleep 4; exec "$@"', "sh", *reload]})
    result = dns(run, pair, "apply", "--resolvers", "all", "--confirm-within", "2s")
    assert result.exit_code == 1, result.stdout + result.stderr
    assert "window (2 s) ran out during this resolver's apply: its revert ran first" in result.stdout, result.stdout
    assert _wait(lambda: addresses(pair, GW) == {"ns-c1": OLD, "ns-c2": OLD}, 20)
