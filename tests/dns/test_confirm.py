"""Commit-confirmed apply (dns/confirm.py): `dns apply --confirm-within` leaves, on each resolver it
changed, a revert that runs there by itself unless `dns confirm` disarms it. Real dnsmasq on
loopback (and a real sshd for the remote path); what is served is asked over DNS, never taken
from renamer's report."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from renamer.dns import confirm
from renamer.dns.confirm import parse_within
from renamer.dns.dnsmasq.backend import DNSMASQ
from renamer.errors import ConfigError
from tests.testing.resolvers import (
    Lab,
    addresses,
    answers,
    broken_test,
    dns,
    fails_once_written,
    move_gateway,
    playbook_by_hand,
    stray,
    with_hosts_dir,
)

TWO = ("ns-c1", "ns-c2")
THREE = ("ns-c1", "ns-c2", "ns-c3")
GW = "fv-gw.fv.lan."


def _lock(lab: Lab, name: str) -> Path:
    return lab.root / "backups" / name / "renamer-apply.lock"


def _canary(lab: Lab, name: str) -> tuple[str, str]:
    """The canary (TXT name, digest) of the fv snippet as it is written at `name` now."""
    found = DNSMASQ.canary_of((lab.instances[name].snippet_dir / "renamer-fv.conf").read_text())
    assert found is not None
    return found


def _served_canary(lab: Lab, name: str, owner: str) -> tuple[str, ...]:
    return answers(lab, f"{owner}.", "TXT", name)[name]


def _until_released(lab: Lab, *names: str, within: float = 30.0) -> None:
    end = time.monotonic() + within
    while any(_lock(lab, n).exists() for n in names) and time.monotonic() < end:
        time.sleep(0.1)
    assert not any(_lock(lab, n).exists() for n in names), "each revert released its lock"


def _armed(lab: Lab, name: str) -> dict[str, object]:
    data = json.loads(_lock(lab, name).read_text())
    assert isinstance(data["armed"], dict), data
    return data["armed"]


def _past_deadline(armed: dict[str, dict[str, object]]) -> None:
    """Sleep until every armed deadline (the resolvers' clock: this machine's) is 2 s past."""
    last = max(int(str(a["deadline"])) for a in armed.values())
    time.sleep(max(0.0, last + 2 - time.time()))


def _what(pid: int) -> str:
    try:
        return (Path(f"/proc/{pid}/stat").read_text() + " " +
                Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " "))
    except OSError as exc:
        return str(exc)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie (its parent has not reaped it) has stopped running: /proc says so
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()[0] != "Z"


def _applied_then_moved(run, pair: Lab) -> dict[str, tuple[str, str]]:  # type: ignore[no-untyped-def]
    """The inventory applied (fv-gw at 10.251.0.1), then fv-gw moved in it: each resolver's canary
    of what it serves before the commit-confirmed apply."""
    first = dns(run, pair, "apply", "--resolvers", "all")
    assert first.exit_code == 0, first.stdout + first.stderr
    move_gateway(pair)
    return {name: _canary(pair, name) for name in TWO}


def test_an_apply_not_confirmed_reverts_by_itself_on_every_resolver(run, pair: Lab) -> None:  # type: ignore[no-untyped-def]
    old = _applied_then_moved(run, pair)
    result = dns(run, pair, "apply", "--resolvers", "all", "--confirm-within", "4s")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "dns apply: OK, not final: armed on 2 resolvers" in result.stdout, result.stdout
    assert "renamer dns confirm --resolvers ns-c1,ns-c2" in result.stdout
    assert set(addresses(pair, GW).values()) == {("10.251.0.2",)}  # applied and served meanwhile
    new = {name: _canary(pair, name) for name in TWO}
    assert all(new[n][1] != old[n][1] and _served_canary(pair, n, new[n][0]) == (f'"{new[n][1]}"',)
               for n in TWO)
    armed = {name: _armed(pair, name) for name in TWO}
    # no systemd as PID 1 here (nor in CI): the detached revert, its pid in the lock
    assert all(a["how"] == "detached" and isinstance(a["pid"], int) for a in armed.values()), armed
    assert not Path("/run/systemd/system").exists()
    _until_released(pair, *TWO)
    # each resolver answers the old records again, and serves the old snippet (its canary)
    assert set(addresses(pair, GW).values()) == {("10.251.0.1",)}
    for name in TWO:
        assert _served_canary(pair, name, old[name][0]) == (f'"{old[name][1]}"',), name
        backups = pair.root / "backups" / name
        assert (backups / "renamer-apply-last").read_text() == f"2 {armed[name]['apply']} rolled back\n"
        assert not (backups / "renamer-apply-pending").exists()
        # the lock goes as the revert's last step, its "done" line just after: wait for the line too
        # (the full run here, at load 7, read the log between the two)
        log, end = Path(str(armed[name]["folder"])) / "REVERT.log", time.monotonic() + 30
        while "renamer revert: done" not in log.read_text() and time.monotonic() < end:
            time.sleep(0.1)
        assert "renamer revert: done" in log.read_text()
    # a confirm now is too late, and says so: never OK
    late = dns(run, pair, "confirm", "--resolvers", "all")
    assert late.exit_code == 1, late.stdout
    assert f"ns-c1: too late: the revert of apply {armed['ns-c1']['apply']} ran" in late.stdout
    # and the next apply finds nothing half-done: it applies again
    again = dns(run, pair, "apply", "--resolvers", "all")
    assert again.exit_code == 0, again.stdout + again.stderr
    assert set(addresses(pair, GW).values()) == {("10.251.0.2",)}


def test_a_confirmed_apply_stays_and_its_revert_is_stopped(run, pair: Lab) -> None:  # type: ignore[no-untyped-def]
    _applied_then_moved(run, pair)
    result = dns(run, pair, "apply", "--resolvers", "all", "--confirm-within", "20s")
    assert result.exit_code == 0, result.stdout + result.stderr
    armed = {name: _armed(pair, name) for name in TWO}
    new = {name: _canary(pair, name) for name in TWO}
    # while armed: the lock is held, a second apply is refused naming the resolver and the deadline
    status = dns(run, pair, "status", "--format", "json")
    assert status.exit_code == 0, status.stdout
    states = {r["resolver"]: r for r in json.loads(status.stdout)["resolvers"]}
    assert {n: states[n]["state"] for n in TWO} == {"ns-c1": "armed", "ns-c2": "armed"}
    assert all(0 < states[n]["armed"]["seconds_left"] <= 20 for n in TWO), states
    assert states["ns-c1"]["armed"]["apply"] == armed["ns-c1"]["apply"]
    text = dns(run, pair, "status")
    assert "ns-c1" in text.stdout and "armed" in text.stdout and states["ns-c1"]["armed"]["deadline"] in text.stdout
    second = dns(run, pair, "apply", "--resolvers", "all", "--force")
    assert second.exit_code == 3, second.stdout + second.stderr
    assert (f"ns-c1: a commit-confirmed apply ({armed['ns-c1']['apply']}, by " in second.stderr
            and f"is armed there: it reverts at {states['ns-c1']['armed']['deadline']} unless "
                "`renamer dns confirm --resolvers ns-c1` keeps it" in second.stderr), second.stderr
    # dns plan says the same: armed, not an interrupted apply to --resume or --rollback
    planned = dns(run, pair, "plan", "--resolvers", "all")
    assert planned.exit_code == 1 and "is armed there" in planned.stdout, planned.stdout
    assert "interrupted" not in planned.stdout and "--rollback" not in planned.stdout, planned.stdout
    confirmed = dns(run, pair, "confirm", "--resolvers", "all")
    assert confirmed.exit_code == 0, confirmed.stdout + confirmed.stderr
    assert "dns confirm: OK, confirmed on ns-c1, ns-c2" in confirmed.stdout
    assert f"disarmed (pid {armed['ns-c1']['pid']} stopped)" in confirmed.stdout
    assert not any(_lock(pair, n).exists() for n in TWO)
    for name in TWO:  # the revert's process was stopped, not left to find the decision taken
        pid = armed[name]["pid"]
        assert isinstance(pid, int)
        end = time.monotonic() + 5
        while _alive(pid) and time.monotonic() < end:
            time.sleep(0.05)
        assert not _alive(pid), (name, _what(pid))
    _past_deadline(armed)  # nothing reverted
    assert set(addresses(pair, GW).values()) == {("10.251.0.2",)}
    for name in TWO:
        assert _served_canary(pair, name, new[name][0]) == (f'"{new[name][1]}"',)
        backups = pair.root / "backups" / name
        assert (backups / "renamer-apply-last").read_text() == f"2 {armed[name]['apply']} applied\n"
        assert not (backups / "renamer-apply-pending").exists()
        assert "restored" not in (Path(str(armed[name]["folder"])) / "REVERT.log").read_text()
    # confirmed twice: nothing armed any more, said so (exit 1), nothing changed
    twice = dns(run, pair, "confirm", "--resolvers", "ns-c1")
    assert twice.exit_code == 1 and "ns-c1: nothing armed there (no lock); nothing confirmed" in twice.stdout
    plain = dns(run, pair, "apply", "--resolvers", "all")
    assert plain.exit_code == 0 and plain.stdout.count("unchanged") == 2, plain.stdout


def test_killing_renamer_after_a_resolver_was_armed_still_reverts_it(pair: Lab, tmp_path: Path) -> None:
    """--batch-size 1: ns-c1 applied and armed, then renamer hangs in ns-c2's test and is killed
    with SIGKILL (its whole session). ns-c1 reverts by itself; so does ns-c2, armed before its
    first write (finding 01): nothing is left for --rollback."""
    assert dns_process(pair, "apply", "--resolvers", "all").returncode == 0
    move_gateway(pair)
    mark = tmp_path / "in-test"
    pair.write_resolvers(ns_c2={"test": fails_once_written(pair, "ns-c2", f"touch {mark}; sleep 60")})
    old = _canary(pair, "ns-c1")
    apply = subprocess.Popen([sys.executable, "-m", "renamer", "dns", "apply", "--resolvers", "all",
                              "--batch-size", "1", "--confirm-within", "3s", "--inventory", str(pair.inventory)],
                             cwd=pair.root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
    try:
        end = time.monotonic() + 60
        while not mark.exists() and time.monotonic() < end and apply.poll() is None:
            time.sleep(0.05)
        assert mark.exists(), "the apply reached ns-c2's test"
        assert _armed(pair, "ns-c1")["pid"]  # ns-c1's batch ended: armed
        assert addresses(pair, GW, "ns-c1") == {"ns-c1": ("10.251.0.2",)}
    finally:
        os.killpg(apply.pid, signal.SIGKILL)
        apply.wait()
    assert apply.returncode == -signal.SIGKILL
    _until_released(pair, *TWO)
    assert addresses(pair, GW, "ns-c1") == {"ns-c1": ("10.251.0.1",)}
    assert _served_canary(pair, "ns-c1", old[0]) == (f'"{old[1]}"',)
    # ns-c2: killed in its test (written, never restarted): its own revert put the file back
    pair.write_resolvers()
    assert set(addresses(pair, GW).values()) == {("10.251.0.1",)}
    rolled = dns_process(pair, "apply", "--resolvers", "all", "--rollback")
    assert rolled.returncode == 3 and "no interrupted apply to roll back" in rolled.stderr, rolled.stdout + rolled.stderr


def dns_process(lab: Lab, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "renamer", "dns", *args, "--inventory", str(lab.inventory)],
                          cwd=lab.root, capture_output=True, text=True, env={**os.environ, "NO_COLOR": "1"},
                          check=False)


def test_a_revert_that_fails_keeps_the_lock_and_says_so(run, pair: Lab, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The daemon's restart fails when the revert runs: the lock stays, `dns status` names the
    failure (exit 1), a later apply is refused; never an OK."""
    _applied_then_moved(run, pair)
    broken = tmp_path / "restart-broken"
    reload = pair.instances["ns-c1"].reload_command()
    pair.write_resolvers(ns_c1={"reload": ["sh", "-c", f'[ ! -e {broken} ] || {{ echo no restart >&2; exit 7; }}; '
                                                       'exec "$@"', "sh", *reload]})
    result = dns(run, pair, "apply", "--resolvers", "ns-c1", "--confirm-within", "2s")
    assert result.exit_code == 0, result.stdout + result.stderr
    armed = _armed(pair, "ns-c1")
    broken.touch()
    failed = Path(str(armed["folder"])) / "REVERT.failed"
    end = time.monotonic() + 20
    while not failed.exists() and time.monotonic() < end:
        time.sleep(0.1)
    assert "exit status 7 from: sh -c" in failed.read_text()
    assert _lock(pair, "ns-c1").exists()
    status = dns(run, pair, "status", "--resolvers", "ns-c1")
    assert status.exit_code == 1, status.stdout
    assert "revert failed" in status.stdout and "the lock is kept: restore by hand from" in status.stdout
    assert "dns status: needs a look: ns-c1" in status.stdout
    refused = dns(run, pair, "apply", "--resolvers", "ns-c1")
    assert refused.exit_code == 3 and "is armed there" in refused.stderr
    late = dns(run, pair, "confirm", "--resolvers", "ns-c1")
    assert late.exit_code == 1 and "too late" in late.stdout and "it failed:" in late.stdout, late.stdout


@pytest.mark.parametrize("given, seconds", [("3s", 3), ("10m", 600), ("1h", 3600), ("24h", 86400)])
def test_confirm_within_reads_a_number_and_a_unit(given: str, seconds: int) -> None:
    assert parse_within(given) == seconds


@pytest.mark.parametrize("given", ["3", "0s", "10 m", "1.5h", "3S", "-3s", "1d", "25h", "s", "03s", " 3s"])
def test_confirm_within_refuses_anything_else(given: str) -> None:
    with pytest.raises(ConfigError):
        parse_within(given)


def test_a_bad_duration_is_a_usage_error_before_anything_is_read(run, pair: Lab) -> None:  # type: ignore[no-untyped-def]
    result = dns(run, pair, "apply", "--resolvers", "all", "--confirm-within", "10 minutes")
    assert result.exit_code == 2
    assert "--confirm-within" in result.stderr and "s, m or h" in result.stderr
    assert "Traceback" not in result.stderr
    assert not list(pair.root.glob("backups/*/renamer-apply.lock"))
    with_ansible = dns(run, pair, "apply", "--resolvers", "all", "--confirm-within", "1m", "--engine", "ansible")
    assert with_ansible.exit_code == 2 and "built-in engine" in with_ansible.stderr


def _over_ssh(server) -> dict[str, object]:  # type: ignore[no-untyped-def]
    return {"target": server.target(), "ssh_config": str(server.client_config)}


@pytest.mark.parametrize("sudo", [False, True], ids=["root", "sudo"])
def test_over_ssh_the_resolver_reverts_by_itself_once_the_path_to_it_is_gone(  # type: ignore[no-untyped-def]
        run, pair: Lab, sshd, sudo: bool) -> None:
    old = _applied_then_moved(run, pair)
    pair.write_resolvers(ns_c2={**_over_ssh(sshd), "sudo": sudo})
    # the window counts from each resolver's arm, before its write: long enough for ns-c2 over ssh
    result = dns(run, pair, "apply", "--resolvers", "all", "--confirm-within", "12s")
    assert result.exit_code == 0, result.stdout + result.stderr
    armed = _armed(pair, "ns-c2")  # armed through ssh: the detached revert, on the resolver's machine
    assert armed["how"] == "detached" and isinstance(armed["pid"], int)
    assert set(addresses(pair, GW).values()) == {("10.251.0.2",)}
    sshd.stop()  # the path to the resolver dies: no confirm can reach it any more
    unreachable = dns(run, pair, "confirm", "--resolvers", "ns-c2")
    assert unreachable.exit_code == 1 and "ns-c2: unreachable: " in unreachable.stdout, unreachable.stdout
    _until_released(pair, *TWO)
    assert set(addresses(pair, GW).values()) == {("10.251.0.1",)}
    for name in TWO:
        assert _served_canary(pair, name, old[name][0]) == (f'"{old[name][1]}"',), name


def test_over_ssh_confirm_stops_the_revert_and_the_apply_stays(run, pair: Lab, sshd) -> None:  # type: ignore[no-untyped-def]
    _applied_then_moved(run, pair)
    pair.write_resolvers(ns_c1=_over_ssh(sshd), ns_c2=_over_ssh(sshd))
    result = dns(run, pair, "apply", "--resolvers", "all", "--confirm-within", "20s")
    assert result.exit_code == 0, result.stdout + result.stderr
    armed = {name: _armed(pair, name) for name in TWO}
    status = dns(run, pair, "status", "--format", "json")
    assert [r["state"] for r in json.loads(status.stdout)["resolvers"]] == ["armed", "armed"], status.stdout
    confirmed = dns(run, pair, "confirm", "--resolvers", "all")
    assert confirmed.exit_code == 0, confirmed.stdout + confirmed.stderr
    for name in TWO:
        pid = armed[name]["pid"]
        assert isinstance(pid, int)
        end = time.monotonic() + 5
        while _alive(pid) and time.monotonic() < end:
            time.sleep(0.05)
        assert not _alive(pid), name
    _past_deadline(armed)
    assert set(addresses(pair, GW).values()) == {("10.251.0.2",)}
    assert not any(_lock(pair, n).exists() for n in TWO)
    free = dns(run, pair, "status", "--format", "json")
    assert free.exit_code == 0 and [r["state"] for r in json.loads(free.stdout)["resolvers"]] == ["free", "free"]


def test_confirm_never_kills_a_pid_that_is_now_another_process(run, pair: Lab) -> None:  # type: ignore[no-untyped-def]
    """The revert's process ended (killed here), and its pid now names another process: confirm
    claims the decision (nothing reverts), kills nothing, says so."""
    _applied_then_moved(run, pair)
    result = dns(run, pair, "apply", "--resolvers", "ns-c1", "--confirm-within", "30s")
    assert result.exit_code == 0, result.stdout + result.stderr
    data = json.loads(_lock(pair, "ns-c1").read_text())
    pid = data["armed"]["pid"]
    os.killpg(pid, signal.SIGKILL)  # the revert is gone...
    other = subprocess.Popen(["sleep", "60"])  # ...and its pid, as the lock says it, is another process's
    try:
        data["armed"]["pid"] = other.pid
        _lock(pair, "ns-c1").write_text(json.dumps(data) + "\n")
        confirmed = dns(run, pair, "confirm", "--resolvers", "ns-c1")
        assert confirmed.exit_code == 0, confirmed.stdout + confirmed.stderr
        assert f"(pid {other.pid} is now another process: left alone)" in confirmed.stdout, confirmed.stdout
        assert other.poll() is None  # not killed
    finally:
        other.kill()
        other.wait()
    assert not _lock(pair, "ns-c1").exists()
    assert addresses(pair, GW, "ns-c1") == {"ns-c1": ("10.251.0.2",)}


@pytest.mark.parametrize("systemd_run_works", [True, False], ids=["systemd-timer", "systemd-run-fails-detached"])
def test_where_systemd_is_pid_1_the_revert_is_a_transient_timer(run, pair: Lab, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                monkeypatch: pytest.MonkeyPatch,
                                                                systemd_run_works: bool) -> None:
    """The choice alone (no systemd here or in CI): /run/systemd/system stands in as a folder, and
    systemd-run and systemctl are stand-ins on PATH that record their argv. With systemd-run
    working, the lock names the unit and confirm stops its timer and service; where it fails, the
    revert is started detached (and still reverts by itself)."""
    marker = tmp_path / "run-systemd-system"
    marker.mkdir()
    monkeypatch.setattr(confirm, "SYSTEMD", str(marker))
    bin_dir, said = tmp_path / "bin", tmp_path / "said"
    bin_dir.mkdir()
    for tool, code in (("systemd-run", 0 if systemd_run_works else 1), ("systemctl", 0)):
        (bin_dir / tool).write_text(f'#!/bin/sh\necho "{tool} $*" >> {said}\nexit {code}\n')
        (bin_dir / tool).chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    old = _applied_then_moved(run, pair)
    result = dns(run, pair, "apply", "--resolvers", "ns-c1", "--confirm-within", "3s")
    assert result.exit_code == 0, result.stdout + result.stderr
    armed = _armed(pair, "ns-c1")
    unit = f"renamer-revert-ns-c1-{armed['apply']}"
    assert f"systemd-run --quiet --collect --unit={unit} --on-active=3 -- /bin/sh {armed['script']} 0" in said.read_text()
    if not systemd_run_works:
        assert (armed["how"], armed["unit"]) == ("detached", None) and isinstance(armed["pid"], int)
        _until_released(pair, "ns-c1")
        assert _served_canary(pair, "ns-c1", old["ns-c1"][0]) == (f'"{old["ns-c1"][1]}"',)
        assert "systemd-run failed: starting it detached instead" in (Path(str(armed["folder"])) / "REVERT.log").read_text()
        return
    assert (armed["how"], armed["unit"], armed["pid"]) == ("systemd", unit, None)
    assert "unit " + unit in result.stdout
    confirmed = dns(run, pair, "confirm", "--resolvers", "ns-c1")
    assert confirmed.exit_code == 0, confirmed.stdout + confirmed.stderr
    assert f"systemctl stop {unit}.timer {unit}.service" in said.read_text()
    assert f"disarmed (unit {unit} stopped)" in confirmed.stdout
    assert not _lock(pair, "ns-c1").exists()


def test_a_change_read_live_is_reverted_live(run, pair: Lab) -> None:  # type: ignore[no-untyped-def]
    """hosts_dir: an apply that changes only addresses is never restarted, and neither is its
    revert: the hosts file goes back, dnsmasq re-reads it by itself (the same pid throughout)."""
    with_hosts_dir(pair)
    assert dns(run, pair, "apply", "--resolvers", "all").exit_code == 0
    move_gateway(pair)
    pids = pair.pids()
    result = dns(run, pair, "apply", "--resolvers", "all", "--confirm-within", "3s")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert result.stdout.count("no restart (re-read live)") == 2, result.stdout
    assert set(addresses(pair, GW).values()) == {("10.251.0.2",)}
    ops = (Path(str(_armed(pair, "ns-c1")["folder"])) / "REVERT.ops").read_text()
    assert not any(line.startswith("X ") for line in ops.splitlines()), ops  # no reactivation armed
    _until_released(pair, *TWO)
    end = time.monotonic() + 10
    while set(addresses(pair, GW).values()) != {("10.251.0.1",)} and time.monotonic() < end:
        time.sleep(0.1)
    assert set(addresses(pair, GW).values()) == {("10.251.0.1",)}
    assert pair.pids() == pids  # never restarted


def test_status_says_overdue_when_a_revert_never_released_its_lock(run, pair: Lab) -> None:  # type: ignore[no-untyped-def]
    """The revert's process died before its deadline (the machine's reboot, a kill): the lock
    stays, and a minute past the deadline `dns status` says so, exit 1; applies stay refused."""
    _applied_then_moved(run, pair)
    result = dns(run, pair, "apply", "--resolvers", "ns-c1", "--confirm-within", "1h")
    assert result.exit_code == 0, result.stdout + result.stderr
    data = json.loads(_lock(pair, "ns-c1").read_text())
    os.killpg(data["armed"]["pid"], signal.SIGKILL)
    data["armed"]["deadline"] = int(time.time()) - 120  # as if it had been due two minutes ago
    _lock(pair, "ns-c1").write_text(json.dumps(data) + "\n")
    status = dns(run, pair, "status", "--format", "json")
    assert status.exit_code == 1, status.stdout
    ns_c1 = json.loads(status.stdout)["resolvers"][0]
    assert ns_c1["state"] == "overdue" and -130 < ns_c1["armed"]["seconds_left"] <= -120, ns_c1
    text = dns(run, pair, "status", "--resolvers", "ns-c1")
    assert text.exit_code == 1
    assert "and has not released the lock" in text.stdout and "dns status: needs a look: ns-c1" in text.stdout
    refused = dns(run, pair, "apply", "--resolvers", "ns-c1")
    assert refused.exit_code == 3, refused.stderr
    # nothing will ever revert it (its process is gone): the refusal names the way out, no `rm` by
    # hand (t25-34 05/06: dns/confirm.finishable); --rollback takes the lock over and restores
    assert "nothing will revert apply" in refused.stderr, refused.stderr
    assert "finish it with `renamer dns apply --resolvers ns-c1 --rollback`" in refused.stderr
    assert addresses(pair, GW, "ns-c1") == {"ns-c1": ("10.251.0.2",)}  # the refusal wrote nothing
    rolled = dns(run, pair, "apply", "--resolvers", "ns-c1", "--rollback")
    assert rolled.exit_code == 0, rolled.stdout + rolled.stderr
    assert "took over the lock of the armed apply" in rolled.stdout + rolled.stderr
    assert addresses(pair, GW, "ns-c1") == {"ns-c1": ("10.251.0.1",)}
    assert not _lock(pair, "ns-c1").exists()


def test_the_revert_puts_back_retired_hand_written_lines_and_removes_added_snippets(  # type: ignore[no-untyped-def]
        run, pair: Lab) -> None:
    """A first apply with --retire-stale: it adds the snippets and comments out the operator's
    stray line in dnsmasq.conf. Not confirmed: the snippets it added are removed, dnsmasq.conf
    is back byte for byte, and the stray record is served again, as before the apply."""
    stray(pair, "ns-c1", "scriberr.fv.lan.", "A", "10.9.9.9")
    conf = pair.instances["ns-c1"].conf
    before, files = conf.read_bytes(), pair.written("ns-c1")
    result = dns(run, pair, "apply", "--resolvers", "ns-c1", "--retire-stale", "--confirm-within", "3s")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert conf.read_bytes() != before and b"# retired by" in conf.read_bytes()
    assert "10.9.9.9" not in answers(pair, "scriberr.fv.lan.", "A", "ns-c1")["ns-c1"]
    _until_released(pair, "ns-c1")
    assert conf.read_bytes() == before
    assert pair.written("ns-c1") == files
    assert "10.9.9.9" in answers(pair, "scriberr.fv.lan.", "A", "ns-c1")["ns-c1"]


def test_a_hand_run_of_the_exported_playbook_stops_at_an_armed_resolver(run, pair: Lab, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The playbook run by hand meets the lock an armed revert keeps: it says armed, with the
    deadline and the confirm command, and writes nothing (never "interrupted", never taken over)."""
    _applied_then_moved(run, pair)
    folder = tmp_path / "export"  # the moved gateway, exported before the commit-confirmed apply of it
    assert dns(run, pair, "export", "ansible", "--out", str(folder), "--resolvers", "ns-c1").exit_code == 0
    result = dns(run, pair, "apply", "--resolvers", "ns-c1", "--confirm-within", "5m")
    assert result.exit_code == 0, result.stdout + result.stderr
    armed = _armed(pair, "ns-c1")
    # an export now is refused the same way (exit 3), never as an interrupted apply
    again = dns(run, pair, "export", "ansible", "--out", str(tmp_path / "again"), "--resolvers", "ns-c1")
    assert again.exit_code == 3 and "is armed there" in again.stderr and "nothing exported" in again.stderr
    assert "interrupted" not in again.stderr
    written = pair.written("ns-c1")
    hand = playbook_by_hand(folder)
    said = " ".join((hand.stdout + hand.stderr).split())
    assert hand.returncode != 0, said
    deadline = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(int(str(armed["deadline"]))))
    assert (f"a commit-confirmed apply ({armed['apply']}, by " in said and f"is armed here: it reverts by itself at "
            f"{deadline} unless `renamer dns confirm --resolvers ns-c1` keeps it" in said), said
    assert "interrupted" not in said
    assert pair.written("ns-c1") == written and _armed(pair, "ns-c1") == armed
    assert addresses(pair, GW, "ns-c1") == {"ns-c1": ("10.251.0.2",)}
    assert dns(run, pair, "confirm", "--resolvers", "ns-c1").exit_code == 0


def test_a_confirm_that_stopped_short_is_said_and_finished_by_the_next(run, pair: Lab) -> None:  # type: ignore[no-untyped-def]
    """A confirm killed right after it claimed the decision: nothing reverts, `dns status` says the
    confirm is unfinished (exit 1), and the next `dns confirm` stops the revert and ends it."""
    _applied_then_moved(run, pair)
    assert dns(run, pair, "apply", "--resolvers", "ns-c1", "--confirm-within", "20s").exit_code == 0
    armed = _armed(pair, "ns-c1")
    (Path(str(armed["folder"])) / "DECIDED").write_text("confirmed 2026-12-06T10:00:00Z\n")  # the claim alone
    status = dns(run, pair, "status", "--resolvers", "ns-c1")
    assert status.exit_code == 1, status.stdout
    assert "confirm unfinished" in status.stdout and "nothing reverts; run `renamer dns confirm" in status.stdout
    confirmed = dns(run, pair, "confirm", "--resolvers", "ns-c1")
    assert confirmed.exit_code == 0, confirmed.stdout
    assert f"(pid {armed['pid']} stopped)" in confirmed.stdout
    assert not _lock(pair, "ns-c1").exists()
    _past_deadline({"ns-c1": armed})
    assert addresses(pair, GW, "ns-c1") == {"ns-c1": ("10.251.0.2",)}


# Break-it round t24-conf (findings 01, 02, 03, 06, 07): each failed before its fix.


@pytest.mark.parametrize("sig", [signal.SIGHUP, signal.SIGKILL], ids=["SIGHUP", "SIGKILL"])
def test_a_session_that_dies_mid_batch_leaves_every_changed_resolver_reverting_by_itself(
        pair: Lab, tmp_path: Path, sig: int) -> None:
    """Finding 01: one batch; ns-c1 is written, restarted and verified, then renamer hangs in
    ns-c2's test and gets SIGHUP (the operator's session closed) or SIGKILL. Each resolver was
    armed before its first write: ns-c1 (and ns-c2) serve the old record again by themselves."""
    assert dns_process(pair, "apply", "--resolvers", "all").returncode == 0
    move_gateway(pair)
    mark = tmp_path / "in-test"
    pair.write_resolvers(ns_c2={"test": fails_once_written(pair, "ns-c2", f"touch {mark}; sleep 60")})
    apply = subprocess.Popen([sys.executable, "-m", "renamer", "dns", "apply", "--resolvers", "all",
                              "--confirm-within", "3s", "--inventory", str(pair.inventory)],
                             cwd=pair.root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
    try:
        end = time.monotonic() + 60
        while not mark.exists() and time.monotonic() < end and apply.poll() is None:
            time.sleep(0.05)
        assert mark.exists(), "the apply reached ns-c2's test"
        assert addresses(pair, GW, "ns-c1") == {"ns-c1": ("10.251.0.2",)}  # ns-c1 went live
        os.kill(apply.pid, sig)
        apply.wait(timeout=60)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(apply.pid, signal.SIGKILL)  # the hung test's sleep
        apply.wait()
    _until_released(pair, *TWO)
    assert addresses(pair, GW, *TWO) == {"ns-c1": ("10.251.0.1",), "ns-c2": ("10.251.0.1",)}
    pair.write_resolvers()
    status = dns_process(pair, "status", "--resolvers", "all")
    assert status.returncode == 0, status.stdout + status.stderr


@pytest.mark.parametrize("how", ["killed", "folder gone", "never started"])
def test_status_says_revert_lost_where_nothing_will_revert(run, pair: Lab, how: str) -> None:  # type: ignore[no-untyped-def]
    """Finding 02: the detached revert killed (an OOM kill, a reboot), its folder deleted by a
    cleanup, or its pid never recorded (renamer killed while starting it): `dns status` says
    `revert lost`, exit 1, not `armed ... OK`; and past the deadline the resolver indeed still
    serves the new record (nothing reverted it)."""
    _applied_then_moved(run, pair)
    assert dns(run, pair, "apply", "--resolvers", "ns-c1", "--confirm-within", "4s").exit_code == 0
    data = json.loads(_lock(pair, "ns-c1").read_text())
    what = data["armed"]
    if how != "folder gone":
        os.killpg(what["pid"], signal.SIGKILL)
    else:
        for name in ("REVERT", "REVERT.ops"):
            (Path(what["folder"]) / name).unlink()
    if how == "never started":
        data["armed"]["pid"] = None
        _lock(pair, "ns-c1").write_text(json.dumps(data) + "\n")
    status = dns(run, pair, "status", "--resolvers", "ns-c1")
    assert status.exit_code == 1, status.stdout + status.stderr
    assert "revert lost" in status.stdout and "nothing will revert apply" in status.stdout, status.stdout
    assert "dns status: needs a look: ns-c1" in status.stdout
    time.sleep(max(0.0, what["deadline"] + 2 - time.time()))
    assert addresses(pair, GW, "ns-c1") == {"ns-c1": ("10.251.0.2",)}  # what status said: not reverted
    assert dns(run, pair, "status", "--resolvers", "ns-c1").exit_code == 1


def test_status_says_armed_while_the_revert_waits(run, pair: Lab) -> None:  # type: ignore[no-untyped-def]
    """The other side of finding 02: a revert alive and waiting is `armed`, exit 0."""
    _applied_then_moved(run, pair)
    assert dns(run, pair, "apply", "--resolvers", "ns-c1", "--confirm-within", "30s").exit_code == 0
    status = dns(run, pair, "status", "--resolvers", "ns-c1")
    assert status.exit_code == 0 and "armed" in status.stdout and "revert lost" not in status.stdout, status.stdout
    assert dns(run, pair, "confirm", "--resolvers", "ns-c1").exit_code == 0


def test_a_late_revert_never_restores_over_a_later_apply(run, pair: Lab) -> None:  # type: ignore[no-untyped-def]
    """Finding 03: apply A's revert is frozen (SIGSTOP: a paused VM). The operator clears its lock
    (the `rm` the overdue refusal gives), rolls A back with --rollback, moves fv-gw again and
    applies B, final. When A's revert resumes, the lock no longer names A (and --rollback claimed
    A's DECIDED): it does nothing, and ns-c1 keeps serving B's record."""
    _applied_then_moved(run, pair)
    assert dns(run, pair, "apply", "--resolvers", "ns-c1", "--confirm-within", "3s").exit_code == 0
    what = _armed(pair, "ns-c1")
    pid = int(str(what["pid"]))
    os.kill(pid, signal.SIGSTOP)
    try:
        _lock(pair, "ns-c1").unlink()  # what the overdue refusal tells the operator to run
        rolled = dns(run, pair, "apply", "--resolvers", "ns-c1", "--rollback")
        assert rolled.exit_code == 0, rolled.stdout + rolled.stderr
        assert (Path(str(what["folder"])) / "DECIDED").read_text().startswith("aborted")
        sites = pair.inventory / "sites" / "fv.yaml"
        sites.write_text(sites.read_text().replace("address: 10.251.0.2", "address: 10.251.0.3"))
        final = dns(run, pair, "apply", "--resolvers", "ns-c1")
        assert final.exit_code == 0, final.stdout + final.stderr
        assert addresses(pair, GW, "ns-c1") == {"ns-c1": ("10.251.0.3",)}
        time.sleep(max(0.0, int(str(what["deadline"])) + 1 - time.time()))
    finally:
        os.kill(pid, signal.SIGCONT)
    log = Path(str(what["folder"])) / "REVERT.log"
    end = time.monotonic() + 20
    while _alive(pid) and time.monotonic() < end:
        time.sleep(0.1)
    assert not _alive(pid)
    assert "nothing done" in log.read_text() and "restored" not in log.read_text(), log.read_text()
    assert addresses(pair, GW, "ns-c1") == {"ns-c1": ("10.251.0.3",)}
    assert "rolled back" not in (pair.root / "backups" / "ns-c1" / "renamer-apply-last").read_text()


def test_a_revert_resumed_mid_way_stops_once_the_lock_is_not_its_apply(run, pair: Lab) -> None:  # type: ignore[no-untyped-def]
    """Finding 03, the revert frozen after its claim: before each step it checks the lock still
    names its apply; a lock now held by someone else stops it before it restores anything."""
    _applied_then_moved(run, pair)
    assert dns(run, pair, "apply", "--resolvers", "ns-c1", "--confirm-within", "30s").exit_code == 0
    what = _armed(pair, "ns-c1")
    folder = Path(str(what["folder"]))
    os.killpg(int(str(what["pid"])), signal.SIGKILL)
    lock = _lock(pair, "ns-c1")
    held = lock.read_text()
    # the revert run by hand (no wait) against a lock another apply took meanwhile, resumed as it
    # would be once the window ran out: its DEADLINE now (the revert waits while `date +%s` is
    # below it), not 30 s of sleep; the window stays 30 s so the revert is surely killed before it
    lock.write_text(json.dumps({"host": "other", "pid": 1, "user": "x", "started": "now"}) + "\n")
    (folder / "DEADLINE").write_text(f"{int(time.time())}\n")
    started = time.monotonic()
    done = subprocess.run(["sh", str(folder / "REVERT"), "0"], capture_output=True, text=True, check=False)
    assert time.monotonic() - started < 20, "the revert waited out the window: DEADLINE not read"
    assert done.returncode == 0 and "the lock no longer names apply" in done.stdout, done.stdout + done.stderr
    assert addresses(pair, GW, "ns-c1") == {"ns-c1": ("10.251.0.2",)}
    lock.write_text(held)
    assert dns(run, pair, "confirm", "--resolvers", "ns-c1").exit_code == 0


def test_a_revert_whose_data_is_gone_fails_and_says_so(run, pair: Lab) -> None:  # type: ignore[no-untyped-def]
    """Finding 06: REVERT.ops deleted while armed: the revert writes REVERT.failed (`cannot read
    REVERT.ops`), never logs `done`, keeps the lock; `dns status` says `revert failed`, exit 1."""
    _applied_then_moved(run, pair)
    assert dns(run, pair, "apply", "--resolvers", "ns-c1", "--confirm-within", "3s").exit_code == 0
    what = _armed(pair, "ns-c1")
    folder = Path(str(what["folder"]))
    (folder / "REVERT.ops").unlink()
    pid = int(str(what["pid"]))
    end = time.monotonic() + 30
    while _alive(pid) and time.monotonic() < end:
        time.sleep(0.1)
    assert "cannot read REVERT.ops" in (folder / "REVERT.failed").read_text()
    assert "done" not in (folder / "REVERT.log").read_text()
    assert _lock(pair, "ns-c1").exists()
    status = dns(run, pair, "status", "--resolvers", "ns-c1")
    assert status.exit_code == 1 and "revert failed" in status.stdout, status.stdout
    assert addresses(pair, GW, "ns-c1") == {"ns-c1": ("10.251.0.2",)}


def test_confirm_never_kills_a_reader_of_the_script(run, pair: Lab) -> None:  # type: ignore[no-untyped-def]
    """Finding 07: the revert died and its pid is now an operator's `tail -f REVERT` in a session of
    its own: its argv names the script, but it is not `sh SCRIPT N`: confirm leaves it alone."""
    _applied_then_moved(run, pair)
    assert dns(run, pair, "apply", "--resolvers", "ns-c1", "--confirm-within", "60s").exit_code == 0
    data = json.loads(_lock(pair, "ns-c1").read_text())
    os.killpg(data["armed"]["pid"], signal.SIGKILL)
    reader = subprocess.Popen(["tail", "-f", data["armed"]["script"]], start_new_session=True,
                              stdout=subprocess.DEVNULL)
    try:
        data["armed"]["pid"] = reader.pid
        _lock(pair, "ns-c1").write_text(json.dumps(data) + "\n")
        confirmed = dns(run, pair, "confirm", "--resolvers", "ns-c1")
        assert confirmed.exit_code == 0, confirmed.stdout + confirmed.stderr
        assert f"pid {reader.pid} is now another process: left alone" in confirmed.stdout
        time.sleep(0.5)
        assert reader.poll() is None, "the reader was killed"
    finally:
        reader.kill()
        reader.wait()
    assert addresses(pair, GW, "ns-c1") == {"ns-c1": ("10.251.0.2",)}


def test_a_later_batch_failing_says_the_earlier_one_is_armed_not_kept(run, pair: Lab) -> None:  # type: ignore[no-untyped-def]
    """Finding 04: --batch-size 1, ns-c2's test fails after ns-c1 was armed: the verdict counts
    ns-c1 as armed (never `kept`) and gives the confirm command; DNS agrees."""
    _applied_then_moved(run, pair)
    pair.write_resolvers(**broken_test(pair, "ns-c2"))
    result = dns(run, pair, "apply", "--resolvers", "all", "--batch-size", "1", "--confirm-within", "30s")
    assert result.exit_code == 1, result.stdout + result.stderr
    verdict = result.stdout.strip().splitlines()[-1]
    assert "kept" not in verdict.replace("keeps it", ""), verdict
    assert verdict.startswith("dns apply: FAILED: 1 armed: each reverts by itself from "), verdict
    assert "unless `renamer dns confirm --resolvers ns-c1` keeps it; 1 rolled back; 0 not reached" in verdict
    assert addresses(pair, GW, *TWO) == {"ns-c1": ("10.251.0.2",), "ns-c2": ("10.251.0.1",)}
    pair.write_resolvers()
    assert dns(run, pair, "confirm", "--resolvers", "ns-c1").exit_code == 0


@pytest.mark.parametrize("text", ["SCRIPT", "ALIVE", "DISARM", "LAUNCH"])
def test_each_shell_text_parses_in_the_resolvers_sh(text: str) -> None:
    """The revert and its helpers run under the resolver's /bin/sh (dash here): each parses whole
    (`sh -n`), so no syntax error waits past the steps a run happens to reach."""
    done = subprocess.run(["sh", "-n", "-c", getattr(confirm, text)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_a_lock_garbled_while_armed_needs_a_look_everywhere(run, pair: Lab) -> None:  # type: ignore[no-untyped-def]
    """Finding 05: the lock truncated while armed (an editor, a full disk). `dns status` says it
    cannot be read, exit 1; confirm says so (never "an apply without --confirm-within"); the revert,
    unable to see its apply in the lock, restores nothing and says why in REVERT.failed."""
    _applied_then_moved(run, pair)
    assert dns(run, pair, "apply", "--resolvers", "ns-c1", "--confirm-within", "3s").exit_code == 0
    what = _armed(pair, "ns-c1")
    text = _lock(pair, "ns-c1").read_text()
    _lock(pair, "ns-c1").write_text(text[: text.index('"armed"')])  # cut before what was armed
    status = dns(run, pair, "status", "--resolvers", "ns-c1")
    assert status.exit_code == 1 and "renamer cannot read who holds the lock" in status.stdout, status.stdout
    confirmed = dns(run, pair, "confirm", "--resolvers", "ns-c1")
    assert confirmed.exit_code == 1 and "its lock cannot be read" in confirmed.stdout, confirmed.stdout
    pid = int(str(what["pid"]))
    end = time.monotonic() + 30
    while _alive(pid) and time.monotonic() < end:
        time.sleep(0.1)
    failed = Path(str(what["folder"])) / "REVERT.failed"
    assert "does not name apply" in failed.read_text() and "unreadable" in failed.read_text()
    assert addresses(pair, GW, "ns-c1") == {"ns-c1": ("10.251.0.2",)}  # as the revert said: nothing restored
    assert dns(run, pair, "status", "--resolvers", "ns-c1").exit_code == 1


# Outside pass t24-conf, the rest (f25-undoconf): each failed before its fix.


def test_a_hand_edit_made_while_armed_is_never_overwritten_by_the_revert(run, pair: Lab) -> None:  # type: ignore[no-untyped-def]
    """Finding 08: while armed, the operator mends the file the apply changed. At the deadline the
    revert finds the file is no longer what the apply wrote (its sha256, recorded at arming):
    it restores nothing there, keeps the edit, and says so in REVERT.log, REVERT.failed, `dns
    status` (exit 1) and the next apply's refusal; `dns confirm` then keeps the apply and the edit."""
    _applied_then_moved(run, pair)
    done = dns(run, pair, "apply", "--resolvers", "all", "--confirm-within", "4s")
    assert done.exit_code == 0, done.stdout + done.stderr
    armed = {name: _armed(pair, name) for name in TWO}
    snippet = pair.instances["ns-c1"].snippet_dir / "renamer-fv.conf"
    edited = snippet.read_text() + "# hand fix while armed: keep me\naddress=/hand-fix.fv.lan/10.251.9.9\n"
    snippet.write_text(edited)
    _past_deadline(armed)
    _until_released(pair, "ns-c2")  # the untouched resolver reverts as ever
    folder = Path(str(armed["ns-c1"]["folder"]))
    end = time.monotonic() + 20
    while not (folder / "REVERT.failed").exists() and time.monotonic() < end:
        time.sleep(0.1)
    assert snippet.read_text() == edited  # the hand edit is still there, byte for byte
    failed = (folder / "REVERT.failed").read_text()
    assert f"edited since apply {armed['ns-c1']['apply']} wrote it: {snippet}" in failed, failed
    assert "nothing restored, the edit kept" in failed
    log = (folder / "REVERT.log").read_text()
    assert "FAILED: edited since apply" in log and "restored" not in log.replace("nothing restored", ""), log
    assert not (folder / "DECIDED").exists()
    # not reverted, as DNS says: ns-c1 still serves the apply's record, ns-c2 the old one
    assert addresses(pair, GW, *TWO) == {"ns-c1": ("10.251.0.2",), "ns-c2": ("10.251.0.1",)}
    assert _lock(pair, "ns-c1").exists()
    status = dns(run, pair, "status", "--resolvers", "all")
    assert status.exit_code == 1, status.stdout
    assert "revert failed" in status.stdout and "was edited by hand while armed" in status.stdout, status.stdout
    assert "renamer dns confirm --resolvers ns-c1" in status.stdout
    assert "dns status: needs a look: ns-c1" in status.stdout
    refused = dns(run, pair, "apply", "--resolvers", "ns-c1")
    assert refused.exit_code == 3 and "its revert stopped:" in refused.stderr and "edited since" in refused.stderr
    kept = dns(run, pair, "confirm", "--resolvers", "ns-c1")
    assert kept.exit_code == 0, kept.stdout + kept.stderr
    assert not _lock(pair, "ns-c1").exists() and snippet.read_text() == edited
    assert (pair.root / "backups" / "ns-c1" / "renamer-apply-last").read_text() == \
        f"2 {armed['ns-c1']['apply']} applied\n"
    assert addresses(pair, GW, "ns-c1") == {"ns-c1": ("10.251.0.2",)}


def test_in_one_large_batch_no_window_runs_out_before_the_batch_is_applied(run, fleet: Lab) -> None:  # type: ignore[no-untyped-def]
    """Known gap (large single batch): three resolvers, one batch, a 6 s window; ns-c2's and
    ns-c3's tests each take 3.5 s, so ns-c1's window (armed before its write) ran out while ns-c3
    was still applied and its revert ran while the apply went on to say `armed on 3`. Each armed
    deadline is now pushed on as the batch goes and to the whole window when the batch is
    applied: right after the apply every resolver serves the new record, each lock's deadline is
    the window from the batch's end; then each reverts by itself."""
    first = dns(run, fleet, "apply", "--resolvers", "all")
    assert first.exit_code == 0, first.stdout + first.stderr
    move_gateway(fleet)
    slow = "sleep 3.5; exit 0"
    fleet.write_resolvers(ns_c2={"test": fails_once_written(fleet, "ns-c2", slow)},
                          ns_c3={"test": fails_once_written(fleet, "ns-c3", slow)})
    started = time.time()
    result = dns(run, fleet, "apply", "--resolvers", "all", "--confirm-within", "6s")
    ended = time.time()
    assert result.exit_code == 0, result.stdout + result.stderr
    assert ended - started > 7, "the batch took longer than the window (else this proves nothing)"
    assert "dns apply: OK, not final: armed on 3 resolvers" in result.stdout, result.stdout
    # what DNS says right after the apply: nobody reverted yet
    assert addresses(fleet, GW, *THREE) == {name: ("10.251.0.2",) for name in THREE}
    armed = {name: _armed(fleet, name) for name in THREE}
    for name, what in armed.items():  # the window counts from the batch's end, said in the lock
        assert int(str(what["deadline"])) >= int(ended) + 6 - 3, (name, what, ended)
        assert "started" not in (Path(str(what["folder"])) / "REVERT.log").read_text()
    status = dns(run, fleet, "status", "--resolvers", "all")
    assert status.exit_code == 0 and status.stdout.count(" armed ") >= 3, status.stdout
    _until_released(fleet, *THREE, within=40)
    assert addresses(fleet, GW, *THREE) == {name: ("10.251.0.1",) for name in THREE}


def test_two_resolvers_sharing_one_backup_dir_each_keep_a_lock_of_their_own(run, pair: Lab) -> None:  # type: ignore[no-untyped-def]
    """Finding 09: two dnsmasq on one host with the same backup_dir were refused, exit 3, "another
    dns apply holds the lock" naming the apply's own pid, and waiting never helped. Each resolver
    now keeps its lock, record and pending marker in `<backup_dir>/<name>`: a plain apply and a
    commit-confirmed one pass, each armed on its own; confirming one keeps it while the other
    reverts by itself (DNS asked); a lock left in the shared folder from before is refused."""
    first = dns(run, pair, "apply", "--resolvers", "all")
    assert first.exit_code == 0, first.stdout + first.stderr
    move_gateway(pair)
    shared = pair.root / "backups" / "shared"
    pair.write_resolvers(ns_c1={"backup_dir": str(shared)}, ns_c2={"backup_dir": str(shared)})
    done = dns(run, pair, "apply", "--resolvers", "all", "--confirm-within", "6s")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert "dns apply: OK, not final: armed on 2 resolvers" in done.stdout, done.stdout
    assert addresses(pair, GW, *TWO) == {"ns-c1": ("10.251.0.2",), "ns-c2": ("10.251.0.2",)}
    locks = {name: json.loads((shared / name / "renamer-apply.lock").read_text())["armed"] for name in TWO}
    assert not (shared / "renamer-apply.lock").exists()
    assert locks["ns-c1"]["pid"] != locks["ns-c2"]["pid"]
    status = dns(run, pair, "status", "--resolvers", "all")
    assert status.exit_code == 0 and status.stdout.count(" armed ") >= 2, status.stdout
    kept = dns(run, pair, "confirm", "--resolvers", "ns-c1")
    assert kept.exit_code == 0, kept.stdout + kept.stderr
    assert not (shared / "ns-c1" / "renamer-apply.lock").exists()
    assert (shared / "ns-c2" / "renamer-apply.lock").exists()  # ns-c2's own lock, still armed
    end = time.monotonic() + 30
    while (shared / "ns-c2" / "renamer-apply.lock").exists() and time.monotonic() < end:
        time.sleep(0.1)
    assert addresses(pair, GW, *TWO) == {"ns-c1": ("10.251.0.2",), "ns-c2": ("10.251.0.1",)}
    assert (shared / "ns-c1" / "renamer-apply-last").read_text().endswith(" applied\n")
    assert (shared / "ns-c2" / "renamer-apply-last").read_text().endswith(" rolled back\n")
    plain = dns(run, pair, "apply", "--resolvers", "all")  # no confirm: both applied again, exit 0
    assert plain.exit_code == 0, plain.stdout + plain.stderr
    assert addresses(pair, GW, *TWO) == {"ns-c1": ("10.251.0.2",), "ns-c2": ("10.251.0.2",)}
    (shared / "renamer-apply.lock").write_text('{"user": "op", "host": "ctl", "pid": 1}\n')
    left = dns(run, pair, "apply", "--resolvers", "all")
    assert left.exit_code == 3, left.stdout + left.stderr
    assert f"{shared}/renamer-apply.lock is still there, from an apply made before it was shared" in left.stderr
