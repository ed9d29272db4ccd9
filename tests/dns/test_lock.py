"""One apply at a time (dns/lock.py): a lock is taken over only when its holder is provably gone.
An exported playbook run by hand names its controller and the ansible-playbook process in the
lock, so a hand run killed with SIGKILL is taken over by the next `renamer dns apply`; a lock
renamer cannot prove stale is refused, naming its holder and the exact command that clears it.
Real ansible-playbook and dnsmasq; what is served asked over DNS."""

from __future__ import annotations

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

from tests.testing.resolvers import Lab, addresses, dns, move_gateway

THREE = ("ns-l1", "ns-l2", "ns-l3")
GW = "fv-gw.fv.lan."


def _hand_run(folder: Path) -> subprocess.Popen[bytes]:
    """ansible-playbook started by a person in the export folder (no renamer_pid: renamer is not
    its parent), in a session of its own so that a kill reaches its workers too."""
    env = {**os.environ, "ANSIBLE_CONFIG": str(folder / "ansible.cfg"), "ANSIBLE_NOCOLOR": "1"}
    env.pop("RENAMER_EVENTS", None)
    return subprocess.Popen([str(Path(sys.executable).parent / "ansible-playbook"), "playbook.yml"], cwd=folder,
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)


def test_a_hand_run_killed_with_sigkill_is_taken_over_and_rolled_back(run, fleet: Lab, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert dns(run, fleet, "apply", "--resolvers", "all").exit_code == 0
    mark = tmp_path / "restarting"
    # ns-l2's restart waits (once its new snippet is written): the hand run is killed there
    reload = fleet.instances["ns-l2"].reload_command()
    slow = f'touch {mark}; sleep 60; exec "$@"'
    fleet.write_resolvers(ns_l2={"reload": ["sh", "-c", slow, "sh", *reload]})
    move_gateway(fleet)
    folder = tmp_path / "export"
    assert dns(run, fleet, "export", "ansible", "--out", str(folder), "--batch-size", "3").exit_code == 0
    hand = _hand_run(folder)
    try:
        end = time.monotonic() + 180
        while not mark.exists() and time.monotonic() < end and hand.poll() is None:
            time.sleep(0.1)
        assert mark.exists(), "the hand run reached ns-l2's restart"
        # the kill lands while only ns-l2's restart waits: ns-l1 and ns-l3 restarted and serving
        while time.monotonic() < end and _serving(fleet, "ns-l1", "ns-l3") != {("10.251.0.2",)}:
            time.sleep(0.2)
        lock = json.loads((fleet.root / "backups" / "ns-l2" / "renamer-apply.lock").read_text())
        # the lock names this machine and the ansible-playbook process itself
        assert (lock["host"], lock["pid"], lock["engine"]) == (socket.gethostname(), hand.pid, "ansible"), lock
    finally:
        os.killpg(hand.pid, signal.SIGKILL)
        hand.wait()
    assert (fleet.root / "backups" / "ns-l2" / "renamer-apply-pending").exists()  # half-done
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
    alive = {"host": socket.gethostname(), "pid": os.getpid(), "user": "op", "started": "2026-12-01T10:00:00Z"}
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
