"""Before the first write (dns/preflight.py): a fault already there on one resolver stops the
apply before a healthy one is written or restarted (B-f3), and a resolver that was down is
named, never started by the apply (B-f2). Real dnsmasq; answers asked over DNS."""

from __future__ import annotations

import re

import pytest

from renamer.dns.dnsmasq import sandbox
from tests.testing.resolvers import (
    Lab,
    addresses,
    dns,
    fill_inodes_leaving,
    fill_leaving_8k,
    move_gateway,
    small_backup_dir,
)

GW = "fv-gw.fv.lan"


def _untouched(lab: Lab, before: dict[str, bytes], pids: dict[str, str], *names: str) -> None:
    assert lab.snippets() == before
    assert {n: lab.pids()[n] for n in names} == {n: pids[n] for n in names}  # never restarted


@pytest.mark.parametrize("broken", ["ns-fv", "ns-ana"], ids=["last", "first"])
def test_b_f3_a_config_that_already_fails_its_test_stops_the_apply_before_any_write(
        run, lab: Lab, broken: str) -> None:
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    # A duplicate CNAME by hand: dnsmasq --test refuses the configuration as it stands.
    (lab.instances[broken].snippet_dir / "zz-hand.conf").write_text("cname=scriberr.fv.lan,fv-gw.fv.lan\n")
    before, pids = lab.snippets(), lab.pids()
    move_gateway(lab)
    result = dns(run, lab, "apply", "--resolvers", "all")
    assert result.exit_code == 1, result.stdout
    assert re.search(rf"\n{broken}: its configuration as it stands already fails its test \(.*--test.*\): "
                     r".*; fix that first; nothing written\n", result.stdout), result.stdout
    assert re.search(rf"{broken} +\S+ +failed +preflight FAILED", result.stdout)
    healthy = [n for n in lab.instances if n != broken]
    for name in healthy:
        assert re.search(rf"{name} +\S+ +not reached +preflight failed on {broken}: not touched", result.stdout)
    assert result.stdout.endswith("dns apply: FAILED, nothing was changed\n")
    _untouched(lab, before, pids, *lab.instances)
    assert set(addresses(lab, GW).values()) == {("10.251.0.1",)}


def test_within_the_failure_budget_the_healthy_resolvers_go_on(run, lab: Lab) -> None:
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    (lab.instances["ns-ana2"].snippet_dir / "zz-hand.conf").write_text("cname=scriberr.fv.lan,fv-gw.fv.lan\n")
    pid = lab.pids()["ns-ana2"]
    move_gateway(lab)
    result = dns(run, lab, "apply", "--resolvers", "all", "--max-fail-percent", "34")
    assert result.exit_code == 1
    assert "dns apply: FAILED: 2 applied and kept; 0 rolled back; 0 not reached" in result.stdout
    assert lab.pids()["ns-ana2"] == pid
    assert addresses(lab, GW) == {"ns-ana": ("10.251.0.2",), "ns-ana2": ("10.251.0.1",),
                                  "ns-fv": ("10.251.0.2",)}


@pytest.mark.parametrize("narrowed", [False, True], ids=["changed", "unchanged-there"])
def test_b_f2_a_resolver_down_before_the_apply_is_named_and_not_started(run, lab: Lab, narrowed: bool) -> None:
    if narrowed:  # ns-ana2 serves only ana: the fv change leaves it as it is, but it must answer
        lab.write_resolvers(ns_ana2={"sites": ["ana"]})
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    sandbox.stop(lab.instances["ns-ana2"].folder)
    before, pids = lab.snippets(), lab.pids()
    move_gateway(lab)
    result = dns(run, lab, "apply", "--resolvers", "all")
    assert result.exit_code == 1
    port = lab.instances["ns-ana2"].port
    assert re.search(rf"\nns-ana2: did not answer before the apply \(127\.0\.0\.1:{port}: .*\): a stopped "
                     r"resolver is not started by dns apply; start it, or leave it out with --resolvers; "
                     r"nothing written\n", result.stdout), result.stdout
    assert lab.pids()["ns-ana2"] == ""  # still stopped
    _untouched(lab, before, pids, "ns-ana", "ns-fv")
    assert addresses(lab, GW, "ns-ana", "ns-fv") == {"ns-ana": ("10.251.0.1",), "ns-fv": ("10.251.0.1",)}
    left_out = dns(run, lab, "apply", "--resolvers", "ns-ana,ns-fv")  # what the message says to do
    assert left_out.exit_code == 0, left_out.stdout
    assert addresses(lab, GW, "ns-ana", "ns-fv") == {"ns-ana": ("10.251.0.2",), "ns-fv": ("10.251.0.2",)}


def test_the_ansible_engine_runs_the_same_preflight_before_the_playbook(run, lab: Lab) -> None:
    """The same faults, found before ansible-playbook starts: the same table, messages and exit
    codes as the built-in engine's, nothing written, nothing restarted."""
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    move_gateway(lab)
    # the configuration as it stands already fails its test on one resolver (B-f3)
    hand = lab.instances["ns-ana2"].snippet_dir / "zz-hand.conf"
    hand.write_text("cname=scriberr.fv.lan,fv-gw.fv.lan\n")
    before, pids = lab.snippets(), lab.pids()
    builtin = dns(run, lab, "apply", "--resolvers", "all")
    ansible = dns(run, lab, "apply", "--resolvers", "all", "--engine", "ansible")
    assert ansible.exit_code == builtin.exit_code == 1
    assert ansible.stdout == builtin.stdout
    assert re.search(r"ns-ana2 +\S+ +failed +preflight FAILED", ansible.stdout), ansible.stdout
    _untouched(lab, before, pids, *lab.instances)
    hand.unlink()
    # a resolver down before the apply (B-f2) is named and never started
    sandbox.stop(lab.instances["ns-fv"].folder)
    before = lab.snippets()
    builtin = dns(run, lab, "apply", "--resolvers", "all")
    ansible = dns(run, lab, "apply", "--resolvers", "all", "--engine", "ansible")
    assert ansible.exit_code == builtin.exit_code == 1
    assert ansible.stdout == builtin.stdout
    assert "ns-fv: did not answer before the apply" in ansible.stdout
    assert lab.pids()["ns-fv"] == ""
    _untouched(lab, before, pids, "ns-ana", "ns-ana2")
    sandbox.start(lab.instances["ns-fv"].folder)
    # a lock held by an apply that is still running: exit 3, the built-in engine's refusal
    lock = lab.root / "backups" / "ns-ana" / "renamer-apply.lock"
    lock.write_text('{"host": "elsewhere", "pid": 1, "user": "op", "started": "2026-12-01T00:00:00Z"}\n')
    builtin = dns(run, lab, "apply", "--resolvers", "all")
    ansible = dns(run, lab, "apply", "--resolvers", "all", "--engine", "ansible")
    assert ansible.exit_code == builtin.exit_code == 3
    assert ansible.stderr == builtin.stderr
    assert "ns-ana: another dns apply holds the lock (op@elsewhere pid 1" in ansible.stderr
    assert lab.snippets() == before
    assert set(addresses(lab, GW).values()) == {("10.251.0.1",)}


def test_a_backup_dir_without_room_for_the_backup_stops_the_apply_before_any_write(run, lab: Lab) -> None:
    """ns-fv's backup_dir is a small tmpfs, nearly full: the preflight measures it (df over the
    transport, with the other reads) and stops the apply before any resolver is written."""
    with small_backup_dir(lab, "ns-fv") as backups:
        assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
        fill_leaving_8k(backups)
        before, pids = lab.snippets(), lab.pids()
        move_gateway(lab)
        result = dns(run, lab, "apply", "--resolvers", "all")
        assert result.exit_code == 1, result.stdout + result.stderr
        assert re.search(rf"\nns-fv: backup_dir {backups} has \d KiB free, the backup needs 20 KiB: free some "
                         r"space there first; nothing written\n", result.stdout), result.stdout
        assert re.search(r"ns-ana +\S+ +not reached +preflight failed on ns-fv: not touched", result.stdout)
        _untouched(lab, before, pids, *lab.instances)
        assert set(addresses(lab, GW).values()) == {("10.251.0.1",)}
        (backups / "filler").unlink()
        done = dns(run, lab, "apply", "--resolvers", "all")
        assert done.exit_code == 0, done.stdout + done.stderr
        assert set(addresses(lab, GW).values()) == {("10.251.0.2",)}


def test_a_backup_that_cannot_be_written_leaves_no_backup_folder(run, lab: Lab) -> None:
    """Adversarial pass 2 B-21: a backup_dir with room by `df` but none left when the backup is
    written (here its tmpfs has no inode left for the backup file; the lock and the folder take the
    last two): the apply fails there, the others are rolled back, and no empty backup folder stays."""
    with small_backup_dir(lab, "ns-fv") as backups:
        assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
        move_gateway(lab)
        filler = fill_inodes_leaving(backups, 2)
        before = set(p.name for p in backups.iterdir())
        result = dns(run, lab, "apply", "--resolvers", "all")
        assert result.exit_code == 1, result.stdout + result.stderr
        assert re.search(r"\nns-fv: \S+/ns-fv-[0-9TZ]+\.[0-9a-f]+/renamer-fv\.conf: cannot write: No space left on "
                         r"device\n", result.stdout), result.stdout
        assert re.search(r"ns-fv +local +failed +nothing to restore", result.stdout)
        assert result.stdout.endswith("dns apply: FAILED, changed resolvers rolled back\n")
        assert set(p.name for p in backups.iterdir()) == before  # no ns-fv-<id>/ left, empty or not
        assert set(addresses(lab, GW).values()) == {("10.251.0.1",)}
        for path in filler:
            path.unlink()
        done = dns(run, lab, "apply", "--resolvers", "all")
        assert done.exit_code == 0, done.stdout + done.stderr
        assert set(addresses(lab, GW).values()) == {("10.251.0.2",)}
