"""The Ansible engine rolls back what it changed, asserted by asking each dnsmasq over DNS (not by the
playbook's report): a host that had no snippet before, and a host with two snippets to restore. Both
engines record the same apply identity on every resolver they write (dns/applies.py), so a rollback
or resume by either engine acts on the interrupted apply's resolvers alone (B-f1)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from renamer.dns.dnsmasq import sandbox
from tests.testing.resolvers import (
    Lab,
    addresses,
    broken_test,
    dies_on_start,
    dns,
    dns_process,
    move_gateway,
    playbook_by_hand,
)

THREE = ("ns-b1", "ns-b2", "ns-b3")


def test_a_host_without_snippets_is_rolled_back_to_none(run, fleet) -> None:  # type: ignore[no-untyped-def]
    """Every snippet an apply added is removed by its rollback: ABSENT lists each on a line."""
    fleet.write_resolvers(**broken_test(fleet, "ns-b3"))
    result = dns(run, fleet, "apply", "--resolvers", "all", "--engine", "ansible", "--batch-size", "3")
    assert result.exit_code == 1, result.stdout + result.stderr
    assert fleet.snippets() == {}, "the two new snippets (two sites) are removed again"
    assert set(addresses(fleet, "fv-gw.fv.lan.").values()) == {()}
    assert set(addresses(fleet, "ana-gw.ana.lan.").values()) == {()}


def test_two_changed_snippets_are_backed_up_and_restored(run, fleet) -> None:  # type: ignore[no-untyped-def]
    assert dns(run, fleet, "apply", "--resolvers", "all").exit_code == 0
    before = fleet.snippets()
    assert len(before) == 6  # two sites on each of three resolvers
    move_gateway(fleet)  # fv-gw 10.251.0.1 -> .2
    path = fleet.inventory / "sites" / "ana.yaml"
    path.write_text(path.read_text().replace("address: 10.250.0.1", "address: 10.250.0.2"))
    fleet.write_resolvers(**broken_test(fleet, "ns-b3"))
    result = dns(run, fleet, "apply", "--resolvers", "all", "--engine", "ansible", "--batch-size", "3")
    assert result.exit_code == 1, result.stdout + result.stderr
    assert "rollback FAILED" not in result.stdout
    assert fleet.snippets() == before
    assert set(addresses(fleet, "fv-gw.fv.lan.").values()) == {("10.251.0.1",)}
    assert set(addresses(fleet, "ana-gw.ana.lan.").values()) == {("10.250.0.1",)}
    fleet.write_resolvers()  # the test mended: the same apply now goes through, both sites
    assert dns(run, fleet, "apply", "--resolvers", "all", "--engine", "ansible").exit_code == 0
    assert set(addresses(fleet, "fv-gw.fv.lan.").values()) == {("10.251.0.2",)}
    assert set(addresses(fleet, "ana-gw.ana.lan.").values()) == {("10.250.0.2",)}


GW = "fv-gw.fv.lan."


def _gateway(lab: Lab, address: str) -> None:
    path = lab.inventory / "sites" / "fv.yaml"
    path.write_text(re.sub(r"(name: fv-gw\n    address: )\S+", rf"\g<1>{address}", path.read_text()))


def _last(lab: Lab, name: str) -> list[str]:
    return (lab.root / "backups" / name / "renamer-apply-last").read_text().split()


ENGINES = [pytest.param("ansible", "builtin", id="ansible-apply-builtin-rollback"),
           pytest.param("builtin", "ansible", id="builtin-apply-ansible-rollback")]


@pytest.mark.parametrize(("writer", "undoer"), ENGINES)
def test_a_rollback_never_restores_what_a_later_apply_of_the_other_engine_wrote(
        run, fleet, writer: str, undoer: str) -> None:  # type: ignore[no-untyped-def]
    """Apply A (engine `writer`) cannot restart ns-b3: its rollback fails there and leaves the
    marker. Apply B (same engine) then changes ns-b1 and ns-b2 and is verified. `--rollback` by
    the other engine restores ns-b3 alone: ns-b1 and ns-b2 keep serving B."""
    engine = ["--engine", "ansible"] if writer == "ansible" else []
    assert dns(run, fleet, "apply", "--resolvers", "all", *engine).exit_code == 0  # sequence 1
    assert [_last(fleet, n)[::2] for n in THREE] == [["1", "applied"]] * 3
    hand = dies_on_start(fleet, "ns-b3")
    _gateway(fleet, "10.251.0.4")
    # a process of its own: the lock it may leave names a process that is gone, as in real life
    failed = dns_process(fleet, "apply", "--resolvers", "all", *engine)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert re.search(r"ns-b3 +\S+ +rollback FAILED", failed.stdout), failed.stdout
    hand.unlink()
    sandbox.start(fleet.instances["ns-b3"].folder)
    first = (fleet.root / "backups" / "ns-b3" / "renamer-apply-pending").read_text().split()
    assert first[2] == "2"  # A's sequence there
    assert [_last(fleet, n) for n in ("ns-b1", "ns-b2")] == [["2", first[1], "rolled", "back"]] * 2
    _gateway(fleet, "10.251.0.5")
    later = dns_process(fleet, "apply", "--resolvers", "ns-b1,ns-b2", *engine)
    assert later.returncode == 0, later.stdout + later.stderr
    assert [_last(fleet, n)[::2] for n in ("ns-b1", "ns-b2")] == [["3", "applied"]] * 2
    assert addresses(fleet, GW, "ns-b1", "ns-b2") == {"ns-b1": ("10.251.0.5",), "ns-b2": ("10.251.0.5",)}
    pids = fleet.pids()
    other = ["--engine", "ansible"] if undoer == "ansible" else []
    rolled = dns_process(fleet, "apply", "--resolvers", "all", "--rollback", *other)
    assert rolled.returncode == 0, rolled.stdout + rolled.stderr
    assert re.search(r"ns-b3 +\S+ +rolled back +restored", rolled.stdout), rolled.stdout
    for name in ("ns-b1", "ns-b2"):
        assert re.search(rf"renamer: {name}: left as it is, not part of the interrupted apply {first[1]}: the "
                         r"last apply there is \S+ \(sequence 3\), applied", rolled.stderr), rolled.stderr
        assert fleet.pids()[name] == pids[name]  # never restarted
    assert addresses(fleet, GW) == {"ns-b1": ("10.251.0.5",), "ns-b2": ("10.251.0.5",), "ns-b3": ("10.251.0.1",)}
    assert _last(fleet, "ns-b3") == ["2", first[1], "rolled", "back"]


def test_resume_under_ansible_after_a_builtin_failure_then_a_builtin_rollback_refuses(
        run, fleet) -> None:  # type: ignore[no-untyped-def]
    """The built-in engine leaves ns-b3 half-done; `--resume --engine ansible` restores it and
    applies the inventory everywhere through the playbook (each resolver's third apply); a
    `--rollback` afterwards has nothing to act on and refuses, resolvers untouched."""
    assert dns(run, fleet, "apply", "--resolvers", "all").exit_code == 0
    hand = dies_on_start(fleet, "ns-b3")
    _gateway(fleet, "10.251.0.4")
    failed = dns(run, fleet, "apply", "--resolvers", "all")
    assert failed.exit_code == 1 and re.search(r"ns-b3 +\S+ +rollback FAILED", failed.stdout), failed.stdout
    hand.unlink()
    resumed = dns_process(fleet, "apply", "--resolvers", "all", "--resume", "--engine", "ansible")
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert set(addresses(fleet, GW).values()) == {("10.251.0.4",)}
    assert [_last(fleet, n)[0] for n in THREE] == ["3", "3", "3"]
    assert len({_last(fleet, n)[1] for n in THREE}) == 1  # the playbook's apply, on each
    assert not any((fleet.root / "backups" / n / "renamer-apply-pending").exists() for n in THREE)
    pids = fleet.pids()
    refused = dns(run, fleet, "apply", "--resolvers", "all", "--rollback")
    assert refused.exit_code == 3
    assert "--rollback: no interrupted apply to roll back on ns-b1, ns-b2, ns-b3" in refused.stderr
    assert fleet.pids() == pids
    assert set(addresses(fleet, GW).values()) == {("10.251.0.4",)}


def test_a_rollback_under_ansible_with_nothing_interrupted_refuses_and_applies_nothing(
        run, fleet) -> None:  # type: ignore[no-untyped-def]
    """`--rollback --engine ansible` where no apply was interrupted is refused as the built-in
    engine refuses it (exit 3), never run as a forward apply of the changed inventory (break-it)."""
    assert dns(run, fleet, "apply", "--resolvers", "all").exit_code == 0
    pids = fleet.pids()
    _gateway(fleet, "10.251.0.6")  # a change an apply would serve
    refused = dns(run, fleet, "apply", "--resolvers", "all", "--rollback", "--engine", "ansible")
    assert refused.exit_code == 3, refused.stdout + refused.stderr
    assert "--rollback: no interrupted apply to roll back on ns-b1, ns-b2, ns-b3" in refused.stderr
    assert "nothing written" in refused.stderr
    assert fleet.pids() == pids
    assert set(addresses(fleet, GW).values()) == {("10.251.0.1",)}


def _pending(lab: Lab, name: str) -> list[str]:
    return (lab.root / "backups" / name / "renamer-apply-pending").read_text().split()


def test_each_run_of_an_exported_playbook_is_an_apply_of_its_own(
        run, fleet, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The same exported folder run twice by hand (the Ansible habit: run it again after a fix)
    makes two applies, each with its own id. The first reaches ns-b2 and ns-b3 (--limit), the
    second writes only ns-b1; a rollback of it restores ns-b1 alone, and ns-b2 and ns-b3 keep
    serving what the first run wrote (break-it: with one id per export, the rollback restored them
    to before the first run). (A resolver changed since the export by other means is refused as
    outdated since round 4: tests/dns/test_ansible_by_hand.py.)"""
    assert dns(run, fleet, "apply", "--resolvers", "all").exit_code == 0  # sequence 1, 10.251.0.1
    _gateway(fleet, "10.251.0.4")
    folder = tmp_path / "export"
    assert dns(run, fleet, "export", "ansible", "--out", str(folder)).exit_code == 0
    # --limit leaves localhost out: the run's id is still made (a fact of localhost, not a play)
    first = playbook_by_hand(folder, "--limit", ",".join(THREE[1:]))
    assert first.returncode == 0, first.stdout[-3000:]
    assert addresses(fleet, GW) == {"ns-b1": ("10.251.0.1",), "ns-b2": ("10.251.0.4",), "ns-b3": ("10.251.0.4",)}
    records = [_last(fleet, name) for name in THREE]
    assert [r[::2] for r in records[1:]] == [["2", "applied"]] * 2 and len({r[1] for r in records[1:]}) == 1
    assert records[0][::2] == ["1", "applied"]
    one_id = records[1][1]
    hand = dies_on_start(fleet, "ns-b1")  # ns-b1 will not start after the next restart
    second = playbook_by_hand(folder)
    assert second.returncode != 0, second.stdout[-3000:]
    pending = _pending(fleet, "ns-b1")  # its rollback could not restart it: the marker stays
    assert pending[2] == "2" and pending[1] != one_id, pending
    assert [_last(fleet, name) for name in THREE] == records  # nothing ended anywhere
    hand.unlink()
    sandbox.start(fleet.instances["ns-b1"].folder)
    # the hand run is over, as `dns apply` asks to check before its lock is removed
    (fleet.root / "backups" / "ns-b1" / "renamer-apply.lock").unlink()
    pids = fleet.pids()
    rolled = dns_process(fleet, "apply", "--resolvers", "all", "--rollback")
    assert rolled.returncode == 0, rolled.stdout + rolled.stderr
    assert re.search(r"ns-b1 +\S+ +rolled back +restored", rolled.stdout), rolled.stdout
    assert addresses(fleet, GW) == {"ns-b1": ("10.251.0.1",), "ns-b2": ("10.251.0.4",),
                                    "ns-b3": ("10.251.0.4",)}
    assert {n: fleet.pids()[n] for n in ("ns-b2", "ns-b3")} == {n: pids[n] for n in ("ns-b2", "ns-b3")}
    assert [_last(fleet, name) for name in ("ns-b2", "ns-b3")] == records[1:]
    assert _last(fleet, "ns-b1") == ["2", pending[1], "rolled", "back"]
