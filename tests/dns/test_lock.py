"""One apply at a time (dns/lock.py): a lock is taken over only when its holder is provably gone.
An exported playbook run by hand names its controller and the ansible-playbook process in the
lock, so a hand run killed with SIGKILL is taken over by the next `renamer dns apply`; a lock
renamer cannot prove stale is refused, naming its holder and the exact command that clears it.
Real ansible-playbook and dnsmasq; what is served asked over DNS."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from dns.exception import Timeout

from renamer.dns.lock import identity, start_of
from tests.testing.resolvers import Lab, addresses, dns, move_gateway, playbook_by_hand

THREE = ("ns-l1", "ns-l2", "ns-l3")
GW = "fv-gw.fv.lan."


def _hand_run(folder: Path) -> subprocess.Popen[bytes]:
    """ansible-playbook started by a person in the export folder (no renamer_pid: renamer is not
    its parent), in a session of its own so that a kill reaches its workers too."""
    env = {**os.environ, "ANSIBLE_CONFIG": str(folder / "ansible.cfg"), "ANSIBLE_NOCOLOR": "1"}
    env.pop("RENAMER_EVENTS", None)
    return subprocess.Popen([str(Path(sys.executable).parent / "ansible-playbook"), "playbook.yml"], cwd=folder,
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)


def _waiting_in_ns_l2_restart(run, fleet: Lab,  # type: ignore[no-untyped-def]
                              tmp_path: Path) -> tuple[subprocess.Popen[bytes], Path, Path]:
    """The fleet applied, the gateway moved and exported, and a hand run started that waits in
    ns-l2's restart (once its new snippet is written) until the file `go` exists: (the run, go,
    the export folder)."""
    assert dns(run, fleet, "apply", "--resolvers", "all").exit_code == 0
    mark, go = tmp_path / "restarting", tmp_path / "go"
    reload = fleet.instances["ns-l2"].reload_command()
    slow = f'touch {mark}; while [ ! -e {go} ]; do sleep 0.1; done; exec "$@"'
    fleet.write_resolvers(ns_l2={"reload": ["sh", "-c", slow, "sh", *reload]})
    move_gateway(fleet)
    folder = tmp_path / "export"
    assert dns(run, fleet, "export", "ansible", "--out", str(folder), "--batch-size", "3").exit_code == 0
    hand = _hand_run(folder)
    end = time.monotonic() + 180
    while not mark.exists() and time.monotonic() < end and hand.poll() is None:
        time.sleep(0.1)
    if not mark.exists():
        hand.kill()
        hand.wait()
    assert mark.exists(), "the hand run reached ns-l2's restart"
    return hand, go, folder


def test_a_hand_run_killed_with_sigkill_is_taken_over_and_rolled_back(run, fleet: Lab, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    hand, go, folder = _waiting_in_ns_l2_restart(run, fleet, tmp_path)  # the hand run is killed there
    try:
        end = time.monotonic() + 180
        # the kill lands while only ns-l2's restart waits: ns-l1 and ns-l3 restarted and serving
        while time.monotonic() < end and _serving(fleet, "ns-l1", "ns-l3") != {("10.251.0.2",)}:
            time.sleep(0.2)
        lock = json.loads((fleet.root / "backups" / "ns-l2" / "renamer-apply.lock").read_text())
        # the lock names this machine and the ansible-playbook process itself, with its start time,
        # this machine's id and boot (a reused pid or a controller of the same name never passes)
        assert (lock["host"], lock["pid"], lock["engine"]) == (socket.gethostname(), hand.pid, "ansible"), lock
        assert {k: lock[k] for k in ("pid_start", "machine", "boot")} == identity(hand.pid), lock
    finally:
        os.killpg(hand.pid, signal.SIGKILL)
        hand.wait()
    assert (fleet.root / "backups" / "ns-l2" / "renamer-apply-pending").exists()  # half-done
    # a second hand run now: its holder provably gone, the half-done hosts are "interrupted" (F4)
    second = _said(playbook_by_hand(folder))
    assert f"an earlier dns apply was interrupted here: its run ({lock['user']}@{lock['host']} pid {hand.pid}, " \
        f"since {lock['started']}, " in second and "is gone, leaving its lock" in second, second
    assert "another renamer apply is running" not in second
    assert json.loads((fleet.root / "backups" / "ns-l2" / "renamer-apply.lock").read_text()) == lock
    # the kill left ns-l2's restart running on the host (F2): renamer waits for it, then takes over
    step = fleet.root / "backups" / "ns-l2" / ".renamer-apply.step"
    waiting = dns(run, fleet, "apply", "--resolvers", "all")
    assert waiting.exit_code == 3 and "is gone, but a step it started there still runs" in waiting.stderr
    go.touch()
    end = time.monotonic() + 60
    while _step_held(step) and time.monotonic() < end:
        time.sleep(0.1)
    # the lock is taken over (that process is gone): what stops this apply is the half-done
    # resolvers, no longer the lock; before, the lock named no pid and was never taken over
    plain = dns(run, fleet, "apply", "--resolvers", "all")
    assert plain.exit_code == 3, plain.stdout + plain.stderr
    assert "another dns apply holds the lock" not in plain.stderr, plain.stderr
    assert "an earlier dns apply was interrupted on " in plain.stderr and "ns-l2 (backup" in plain.stderr
    assert not list((fleet.root / "backups").glob("*/renamer-apply.lock"))
    fleet.write_resolvers()
    rolled = dns(run, fleet, "apply", "--resolvers", "all", "--rollback")
    assert rolled.exit_code == 0, rolled.stdout + rolled.stderr
    assert set(addresses(fleet, GW).values()) == {("10.251.0.1",)}
    assert not list((fleet.root / "backups").glob("*/renamer-apply.lock"))
    done = dns(run, fleet, "apply", "--resolvers", "all")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert set(addresses(fleet, GW).values()) == {("10.251.0.2",)}


def _serving(lab: Lab, *names: str) -> set[tuple[str, ...]]:
    try:
        return set(addresses(lab, GW, *names).values())
    except (OSError, Timeout):  # a restart in progress: nothing answers for a moment
        return set()


def _gone_pid() -> int:
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


@pytest.mark.parametrize("holder, why", [
    pytest.param({"host": "elsewhere", "pid": 4242}, "its process runs, or ran, on elsewhere, not on this machine, "
                 "so renamer cannot check it", id="another-machine"),
    pytest.param({"host": "HERE", "pid": None}, "it names no process renamer can check (a playbook run by "
                 "hand from an older export?)", id="older-hand-run-no-pid"),
    pytest.param({"host": "ansible-playbook", "pid": None}, "its process runs, or ran, on ansible-playbook, "
                 "not on this machine", id="older-export-placeholder-host"),
    pytest.param({"host": "HERE", "pid": 0}, "it names no process renamer can check", id="pid-zero"),
    pytest.param(None, "renamer cannot read who holds it", id="unreadable"),
])
def test_a_lock_renamer_cannot_prove_stale_is_refused_with_the_command_that_clears_it(  # type: ignore[no-untyped-def]
        run, fleet: Lab, holder: dict[str, object] | None, why: str) -> None:
    assert dns(run, fleet, "apply", "--resolvers", "all").exit_code == 0
    move_gateway(fleet)
    path = fleet.root / "backups" / "ns-l1" / "renamer-apply.lock"
    if holder is None:
        path.write_text("{not json\n")
    else:
        data = {**holder, "user": "op", "started": "2026-12-01T10:00:00Z", "engine": "ansible"}
        data["host"] = socket.gethostname() if data["host"] == "HERE" else data["host"]
        path.write_text(json.dumps(data) + "\n")
    before, pids = fleet.snippets(), fleet.pids()
    refused = dns(run, fleet, "apply", "--resolvers", "all")
    assert refused.exit_code == 3, refused.stdout + refused.stderr
    line = refused.stderr.strip()
    assert len(line.splitlines()) == 1 and line.startswith("renamer: error: ns-l1: another dns apply holds "
                                                           "the lock ("), line
    if holder is not None:
        assert f"(op@{socket.gethostname() if holder['host'] == 'HERE' else holder['host']} pid " in line
        assert "since 2026-12-01T10:00:00Z" in line
    assert why in line and ("it is over 1 h old, but " in line) == (holder is not None)
    clear = re.search(r"clear it with `([^`]+)` and apply again", line)
    assert clear is not None and clear.group(1) == f"rm -- {path}", line
    assert fleet.snippets() == before and fleet.pids() == pids
    subprocess.run(shlex.split(clear.group(1)), check=True)  # the command as it is given
    done = dns(run, fleet, "apply", "--resolvers", "all")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert set(addresses(fleet, GW).values()) == {("10.251.0.2",)}


def test_a_lock_whose_holder_runs_here_is_waited_for_and_one_provably_gone_is_taken_over(  # type: ignore[no-untyped-def]
        run, fleet: Lab) -> None:
    assert dns(run, fleet, "apply", "--resolvers", "all").exit_code == 0
    path = fleet.root / "backups" / "ns-l3" / "renamer-apply.lock"
    alive = {"host": socket.gethostname(), "pid": os.getpid(), "user": "op", "started": "2026-12-01T10:00:00Z",
             **identity(os.getpid())}
    path.write_text(json.dumps(alive) + "\n")
    refused = dns(run, fleet, "apply", "--resolvers", "all")
    assert refused.exit_code == 3
    assert "it is running on this machine: wait for it to end; nothing written" in refused.stderr
    assert "rm --" not in refused.stderr  # never offered while it provably runs
    gone = {**alive, "pid": _gone_pid()}
    path.write_text(json.dumps(gone) + "\n")
    taken = dns(run, fleet, "apply", "--resolvers", "all")
    assert taken.exit_code == 0, taken.stdout + taken.stderr
    assert f"took over a stale lock of pid {gone['pid']}" in taken.stderr


def _said(result: subprocess.CompletedProcess[str]) -> str:
    """A hand run's output in one line (its messages are folded YAML: spaces where lines were)."""
    assert result.returncode != 0, result.stdout
    return " ".join(result.stdout.split())


def _sleeper() -> subprocess.Popen[bytes]:
    return subprocess.Popen(["sleep", "300"])


def _other_machine() -> str:
    return "0123456789abcdef0123456789abcdef"


@pytest.mark.parametrize("shape, verdict", [
    # a reused pid: that pid runs, but a process started at another time (F6)
    pytest.param("reused-pid", "gone: pid {pid} is now another process, started later", id="reused-pid"),
    # the same host name on another machine: its pid means nothing here (F8), gone or alive
    pytest.param("other-machine-gone", "unproven: taken on another machine of the same name", id="other-machine-gone"),
    pytest.param("other-machine-alive", "unproven: taken on another machine of the same name",
                 id="other-machine-alive"),
    pytest.param("other-boot", "unproven: before this machine last booted", id="other-boot"),
    # an older lock: pid alive, no start time: not provably live, nor gone: the refusal says how
    # old it is and how to clear it (F6: before, "wait" with neither)
    pytest.param("no-start-time", "unproven: the lock does not say when its process started", id="no-start-time"),
])
def test_a_lock_is_judged_by_machine_boot_and_start_time_not_by_host_name_and_pid(  # type: ignore[no-untyped-def]
        run, fleet: Lab, shape: str, verdict: str) -> None:
    assert dns(run, fleet, "apply", "--resolvers", "all").exit_code == 0
    move_gateway(fleet)
    sleeper = _sleeper()
    try:
        mine = identity(sleeper.pid)
        assert mine["pid_start"] is not None and mine["machine"] and mine["boot"]
        holder: dict[str, object] = {"host": socket.gethostname(), "pid": sleeper.pid, "user": "op",
                                     "started": "2026-12-01T10:00:00Z", **mine}
        if shape == "reused-pid":
            holder["pid_start"] = str(int(str(mine["pid_start"])) - 1)  # the holder started earlier
        elif shape == "other-machine-gone":
            holder.update(machine=_other_machine(), pid=_gone_pid())
        elif shape == "other-machine-alive":
            holder["machine"] = _other_machine()
        elif shape == "other-boot":
            holder.update(boot="00000000-0000-0000-0000-000000000000", pid=_gone_pid())
        else:
            del holder["pid_start"], holder["machine"], holder["boot"]
        path = fleet.root / "backups" / "ns-l2" / "renamer-apply.lock"
        path.write_text(json.dumps(holder) + "\n")
        before, pids = fleet.snippets(), fleet.pids()
        result = dns(run, fleet, "apply", "--resolvers", "all")
        state, _, why = verdict.partition(": ")
        if state == "gone":
            assert result.exit_code == 0, result.stdout + result.stderr
            assert (f"ns-l2: took over a stale lock of pid {sleeper.pid} on {socket.gethostname()} (that process is "
                    f"gone: pid {sleeper.pid} is now another process, started later)") in result.stderr
            assert set(addresses(fleet, GW).values()) == {("10.251.0.2",)}
            return
        assert result.exit_code == 3, result.stdout + result.stderr
        line = result.stderr.strip()
        assert len(line.splitlines()) == 1 and why in line, line
        assert f"(op@{socket.gethostname()} pid {holder['pid']}, since 2026-12-01T10:00:00Z, " in line
        assert re.search(r", since 2026-12-01T10:00:00Z, (\d+ h )?\d+ min ago\)", line), line
        clear = re.search(r"clear it with `([^`]+)` and apply again", line)
        assert clear is not None and clear.group(1) == f"rm -- {path}", line
        assert fleet.snippets() == before and fleet.pids() == pids
        assert set(addresses(fleet, GW).values()) == {("10.251.0.1",)}
        assert sleeper.poll() is None  # never touched the process it named
        subprocess.run(shlex.split(clear.group(1)), check=True)
        done = dns(run, fleet, "apply", "--resolvers", "all")
        assert done.exit_code == 0, done.stdout + done.stderr
        assert set(addresses(fleet, GW).values()) == {("10.251.0.2",)}
    finally:
        sleeper.kill()
        sleeper.wait()


def test_a_second_hand_run_while_the_first_is_live_is_told_it_runs_and_touches_nothing(  # type: ignore[no-untyped-def]
        run, fleet: Lab, tmp_path: Path) -> None:
    """F4: the look step takes the lock before it reads the half-done mark, so the live first run's
    own mark never makes the second one say "interrupted"; the first then finishes as if alone."""
    first, go, folder = _waiting_in_ns_l2_restart(run, fleet, tmp_path)
    try:
        locks = {n: (fleet.root / "backups" / n / "renamer-apply.lock").read_bytes() for n in THREE}
        files = {p: p.read_bytes() for p in sorted((fleet.root / "backups").rglob("*")) if p.is_file()}
        snippets = fleet.snippets()
        second = _said(playbook_by_hand(folder))
        holder = json.loads(locks["ns-l2"])
        for name in THREE:
            lock = fleet.root / "backups" / name / "renamer-apply.lock"
            assert (f"another renamer apply is running: it holds the lock {lock} ({holder['user']}@"
                    f"{socket.gethostname()} pid {first.pid}, since ") in second, second
        assert "min ago, still running on this controller); this run stops here, nothing written on ns-l2" in second
        assert "interrupted" not in second
        # nothing touched: every lock, backup, mark and snippet as the first run left them
        assert {n: (fleet.root / "backups" / n / "renamer-apply.lock").read_bytes() for n in THREE} == locks
        assert {p: p.read_bytes() for p in sorted((fleet.root / "backups").rglob("*")) if p.is_file()} == files
        assert fleet.snippets() == snippets
        go.touch()
        assert first.wait(timeout=300) == 0
    finally:
        go.touch()
        if first.poll() is None:
            os.killpg(first.pid, signal.SIGKILL)
            first.wait()
    assert set(addresses(fleet, GW).values()) == {("10.251.0.2",)}
    assert not list((fleet.root / "backups").glob("*/renamer-apply.lock"))
    assert not list((fleet.root / "backups").glob("*/renamer-apply-pending"))


@pytest.mark.parametrize("shape, says", [
    pytest.param("reused-pid", "a stale lock {lock}: its run (op@{host} pid {pid}, since 2026-12-01T10:00:00Z, ",
                 id="reused-pid"),
    pytest.param("other-machine", "another renamer apply holds the lock {lock} (op@{host} pid {pid}, since "
                 "2026-12-01T10:00:00Z, ", id="other-machine"),
])
def test_a_hand_run_judges_a_held_lock_as_renamer_does(run, fleet: Lab, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                       shape: str, says: str) -> None:
    """The playbook's own check on the controller: a reused pid is a run that is gone; a lock of
    another machine of the same name is never called gone. Either way nothing is written."""
    assert dns(run, fleet, "apply", "--resolvers", "all").exit_code == 0
    move_gateway(fleet)
    folder = tmp_path / "export"
    assert dns(run, fleet, "export", "ansible", "--out", str(folder), "--batch-size", "3").exit_code == 0
    sleeper = _sleeper()
    try:
        holder: dict[str, object] = {"host": socket.gethostname(), "pid": sleeper.pid, "user": "op",
                                     "started": "2026-12-01T10:00:00Z", "engine": "ansible", **identity(sleeper.pid)}
        if shape == "reused-pid":
            holder["pid_start"] = str(int(str(start_of(sleeper.pid))) - 1)
        else:
            holder["machine"] = _other_machine()
        lock = fleet.root / "backups" / "ns-l1" / "renamer-apply.lock"
        lock.write_text(json.dumps(holder) + "\n")
        before = fleet.snippets()
        said = _said(playbook_by_hand(folder))
        assert says.format(lock=lock, host=socket.gethostname(), pid=sleeper.pid) in said, said
        if shape == "reused-pid":
            assert "is gone; `renamer dns apply` takes it over" in said
        else:
            assert "this controller cannot tell whether it still runs" in said and " is gone" not in said
        assert fleet.snippets() == before and json.loads(lock.read_text()) == holder
        assert set(addresses(fleet, GW).values()) == {("10.251.0.1",)}
        assert sleeper.poll() is None
    finally:
        sleeper.kill()
        sleeper.wait()


def _step_held(path: Path) -> bool:
    return subprocess.run(["flock", "-n", str(path), "true"], check=False).returncode == 1


def test_a_takeover_waits_for_a_step_a_killed_run_left_running_on_the_host(  # type: ignore[no-untyped-def]
        run, fleet: Lab, tmp_path: Path) -> None:
    """F2: kill -9 of ansible-playbook alone leaves its module running on the host (here a slow
    restart). The playbook runs its test and restarts under flock on a step file, and renamer
    does not take the dead run's lock over while a step holds it."""
    step = fleet.root / "backups" / "ns-l2" / ".renamer-apply.step"
    hand, go, _folder = _waiting_in_ns_l2_restart(run, fleet, tmp_path)
    try:
        end = time.monotonic() + 180
        # ns-l1's and ns-l3's restarts are over: only ns-l2's still runs at the kill
        while time.monotonic() < end and _serving(fleet, "ns-l1", "ns-l3") != {("10.251.0.2",)}:
            time.sleep(0.2)
        for name in ("ns-l1", "ns-l3"):
            while _step_held(fleet.root / "backups" / name / ".renamer-apply.step") and time.monotonic() < end:
                time.sleep(0.1)
        os.kill(hand.pid, signal.SIGKILL)  # ansible-playbook alone: its module goes on on the host
        hand.wait()
        assert _step_held(step), "the restart still runs, holding the step file"
        fleet.write_resolvers()
        before = fleet.snippets()
        lock = (fleet.root / "backups" / "ns-l2" / "renamer-apply.lock").read_bytes()
        refused = dns(run, fleet, "apply", "--resolvers", "all", "--rollback")
        assert refused.exit_code == 3, refused.stdout + refused.stderr
        assert (f"ns-l2: the lock's holder (pid {hand.pid} on {socket.gethostname()}) is gone, but a step it "
                f"started there still runs (it holds {step}: a test or a restart): wait for it to end, then "
                "apply again; nothing written") in refused.stderr, refused.stderr
        assert fleet.snippets() == before
        assert (fleet.root / "backups" / "ns-l2" / "renamer-apply.lock").read_bytes() == lock
        go.touch()  # the restart ends: the step file is free
        while _step_held(step) and time.monotonic() < end:
            time.sleep(0.1)
        assert not _step_held(step)
    finally:
        go.touch()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(hand.pid, signal.SIGKILL)
    rolled = dns(run, fleet, "apply", "--resolvers", "all", "--rollback")
    assert rolled.exit_code == 0, rolled.stdout + rolled.stderr
    assert set(addresses(fleet, GW).values()) == {("10.251.0.1",)}
    assert not list((fleet.root / "backups").glob("*/renamer-apply.lock"))
