"""Each dns apply has an id: --rollback and --resume act on the interrupted apply's resolvers
alone (dns/applies.py), against real dnsmasq, asserting what the resolvers answer."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from renamer.dns.dnsmasq import sandbox
from tests.testing.resolvers import Lab, addresses, dies_on_start, dns, dns_process, start_lab

GW = "fv-gw.fv.lan"
ID = r"\d{8}T\d{6}Z\.[0-9a-f]{8}"  # a label for people, then the random part


def _gateway(lab: Lab, address: str) -> None:
    path = lab.inventory / "sites" / "fv.yaml"
    path.write_text(re.sub(r"(name: fv-gw\n    address: )\S+", rf"\g<1>{address}", path.read_text()))


def _rollback_failed_on(run, lab: Lab, broken: str, spec: str, address: str) -> str:  # type: ignore[no-untyped-def]
    """Apply fv-gw -> address to `spec` while `broken` cannot restart: its rollback fails and
    leaves its marker; the others are rolled back. Returns the apply's id."""
    hand = dies_on_start(lab, broken)
    _gateway(lab, address)
    failed = dns(run, lab, "apply", "--resolvers", spec)
    assert failed.exit_code == 1, failed.stdout
    assert re.search(rf"{broken} +\S+ +rollback FAILED", failed.stdout), failed.stdout
    hand.unlink()
    marker = (lab.root / "backups" / broken / "renamer-apply-pending").read_text().split()
    return marker[1]


def test_b_f1_rollback_never_restores_what_a_later_apply_changed(run, lab: Lab) -> None:
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    assert set(addresses(lab, GW).values()) == {("10.251.0.1",)}
    first = _rollback_failed_on(run, lab, "ns-fv", "all", "10.251.0.4")
    assert addresses(lab, GW, "ns-ana", "ns-ana2") == {"ns-ana": ("10.251.0.1",), "ns-ana2": ("10.251.0.1",)}
    _gateway(lab, "10.251.0.5")
    later = dns(run, lab, "apply", "--resolvers", "ns-ana,ns-ana2")
    assert later.exit_code == 0, later.stdout
    pids = lab.pids()
    rolled = dns(run, lab, "apply", "--resolvers", "all", "--rollback")
    assert rolled.exit_code == 0, rolled.stdout + rolled.stderr
    assert rolled.stdout.splitlines()[-1] == "dns apply: OK, the interrupted apply is rolled back"
    assert re.search(r"ns-fv +\S+ +rolled back +restored .*, old records served", rolled.stdout)
    assert "ns-ana " not in rolled.stdout and "ns-ana2 " not in rolled.stdout  # not in the table
    for name in ("ns-ana", "ns-ana2"):
        assert re.search(rf"renamer: {name}: left as it is, not part of the interrupted apply {first}: "
                         rf"the last apply there is {ID} \(sequence 3\), applied, not {first}",
                         rolled.stderr), rolled.stderr
        assert lab.pids()[name] == pids[name]  # never restarted
    # What the resolvers answer: the later, verified apply stays; ns-fv is back to the old data.
    assert addresses(lab, GW) == {"ns-ana": ("10.251.0.5",), "ns-ana2": ("10.251.0.5",),
                                  "ns-fv": ("10.251.0.1",)}
    assert not (lab.root / "backups" / "ns-fv" / "renamer-apply-pending").exists()
    again = dns(run, lab, "apply", "--resolvers", "all", "--rollback")  # nothing left to roll back
    assert again.exit_code == 3
    assert addresses(lab, GW)["ns-fv"] == ("10.251.0.1",)


def test_rollback_of_only_later_applied_resolvers_is_refused_naming_them(run, lab: Lab) -> None:
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    _rollback_failed_on(run, lab, "ns-fv", "all", "10.251.0.4")
    _gateway(lab, "10.251.0.5")
    assert dns(run, lab, "apply", "--resolvers", "ns-ana,ns-ana2").exit_code == 0
    pids = lab.pids()
    refused = dns(run, lab, "apply", "--resolvers", "ns-ana,ns-ana2", "--rollback")
    assert refused.exit_code == 3
    assert re.fullmatch(rf"renamer: error: --rollback: no interrupted apply to roll back on ns-ana, ns-ana2 "
                        rf"\(ns-ana: its last apply, ({ID}) \(sequence 3\), applied there; ns-ana2: its last "
                        rf"apply, \1 \(sequence 3\), applied there\); nothing written\n", refused.stderr), refused.stderr
    assert lab.pids() == pids
    assert addresses(lab, GW, "ns-ana") == {"ns-ana": ("10.251.0.5",)}


def test_rollback_with_nothing_interrupted_never_applies(run, lab: Lab) -> None:
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    _gateway(lab, "10.251.0.9")  # a change nobody asked to apply
    refused = dns(run, lab, "apply", "--resolvers", "all", "--rollback")
    assert refused.exit_code == 3
    assert "--rollback: no interrupted apply to roll back on ns-ana, ns-ana2, ns-fv" in refused.stderr
    assert set(addresses(lab, GW).values()) == {("10.251.0.1",)}


def test_resume_restores_only_the_interrupted_resolver_then_applies(run, lab: Lab) -> None:
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    _rollback_failed_on(run, lab, "ns-fv", "all", "10.251.0.4")
    _gateway(lab, "10.251.0.5")
    assert dns(run, lab, "apply", "--resolvers", "ns-ana,ns-ana2").exit_code == 0
    pids = lab.pids()
    resumed = dns(run, lab, "apply", "--resolvers", "all", "--resume")
    assert resumed.exit_code == 0, resumed.stdout + resumed.stderr
    assert resumed.stdout.count("unchanged") == 2 and re.search(r"ns-fv +\S+ +applied", resumed.stdout)
    assert set(addresses(lab, GW).values()) == {("10.251.0.5",)}
    assert lab.pids()["ns-ana"] == pids["ns-ana"]


def test_markers_of_two_applies_are_refused_then_rolled_back_one_apply_at_a_time(run, lab: Lab) -> None:
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    first = _rollback_failed_on(run, lab, "ns-fv", "ns-fv", "10.251.0.4")
    sandbox.start(lab.instances["ns-fv"].folder)  # back up by hand, still half-done
    second = _rollback_failed_on(run, lab, "ns-ana", "ns-ana", "10.251.0.6")
    sandbox.start(lab.instances["ns-ana"].folder)
    assert first != second
    refused = dns(run, lab, "apply", "--resolvers", "all", "--rollback")
    assert refused.exit_code == 3
    assert refused.stderr == (f"renamer: error: the resolvers were left half-done by 2 different applies "
                              f"(ns-ana by apply {second}, ns-fv by apply {first}): --rollback one apply at a "
                              "time, naming its resolvers with --resolvers; nothing written\n")
    assert dns(run, lab, "apply", "--resolvers", "all", "--resume").exit_code == 3
    for name in ("ns-fv", "ns-ana"):
        done = dns(run, lab, "apply", "--resolvers", name, "--rollback")
        assert done.exit_code == 0, done.stdout + done.stderr
    assert set(addresses(lab, GW).values()) == {("10.251.0.1",)}
    # The control machine's log names each apply and what it did on each resolver.
    logs = list(Path(os.environ["XDG_STATE_HOME"]).rglob("renamer-dns-applies.jsonl"))
    entries = [json.loads(line) for line in logs[0].read_text().splitlines()]
    assert {"apply": first, "resolvers": {"ns-fv": "rolled back"}} in entries  # a rollback takes none
    # ... and the sequence each apply took on each resolver it wrote (the first apply took 1)
    assert {"apply": second, "resolvers": {"ns-ana": "rollback FAILED"}, "sequences": {"ns-ana": 2}} in entries


def test_a_later_apply_whose_clock_is_behind_is_never_rolled_back(run, lab: Lab) -> None:
    """The later apply's id sorts before the interrupted one's (its controller's clock is 10
    minutes behind): only the per-resolver sequence says which came last."""
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    first = _rollback_failed_on(run, lab, "ns-fv", "all", "10.251.0.4")
    _gateway(lab, "10.251.0.5")
    later = dns_process(lab, "apply", "--resolvers", "ns-ana,ns-ana2", minutes=-10)
    assert later.returncode == 0, later.stdout + later.stderr
    last = (lab.root / "backups" / "ns-ana" / "renamer-apply-last").read_text().split()
    assert last[0] == "3" and last[1] < first and last[2:] == ["applied"]  # sequence 3, an "older" stamp
    pids = lab.pids()
    rolled = dns(run, lab, "apply", "--resolvers", "all", "--rollback")
    assert rolled.exit_code == 0, rolled.stdout + rolled.stderr
    assert "ns-ana " not in rolled.stdout and "ns-ana2 " not in rolled.stdout
    assert {n: lab.pids()[n] for n in ("ns-ana", "ns-ana2")} == {n: pids[n] for n in ("ns-ana", "ns-ana2")}
    assert addresses(lab, GW) == {"ns-ana": ("10.251.0.5",), "ns-ana2": ("10.251.0.5",),
                                  "ns-fv": ("10.251.0.1",)}


def test_an_earlier_apply_whose_clock_was_ahead_never_blocks_the_rollback(run, lab: Lab) -> None:
    """The apply before the interrupted one ran 10 minutes ahead: its id sorts after the
    interrupted apply's, yet the interrupted one is the last that happened on ns-fv."""
    earlier = dns_process(lab, "apply", "--resolvers", "all", minutes=10)
    assert earlier.returncode == 0, earlier.stdout + earlier.stderr
    first = _rollback_failed_on(run, lab, "ns-fv", "all", "10.251.0.4")
    marker = (lab.root / "backups" / "ns-fv" / "renamer-apply-pending").read_text().split()
    assert marker[1:] == [first, "2"]  # the apply's id and the sequence it took there
    last = (lab.root / "backups" / "ns-fv" / "renamer-apply-last").read_text().split()
    assert last[0] == "1" and last[1] > first  # the earlier apply "looks" later
    sandbox.start(lab.instances["ns-fv"].folder)  # started by hand, still half-done
    pids = lab.pids()
    rolled = dns_process(lab, "apply", "--resolvers", "all", "--rollback", minutes=-10)  # this clock behind
    assert rolled.returncode == 0, rolled.stdout + rolled.stderr
    assert re.search(r"ns-fv +\S+ +rolled back +restored", rolled.stdout), rolled.stdout
    assert {n: lab.pids()[n] for n in ("ns-ana", "ns-ana2")} == {n: pids[n] for n in ("ns-ana", "ns-ana2")}
    assert set(addresses(lab, GW).values()) == {("10.251.0.1",)}
    assert (lab.root / "backups" / "ns-fv" / "renamer-apply-last").read_text() == f"2 {first} rolled back\n"


def test_a_marker_its_resolver_s_sequence_has_passed_is_refused(run, lab: Lab) -> None:
    """A marker whose sequence the resolver's record has gone past (an apply ended there after
    the marked one began: written by hand, or by a tool that ignored the marker) is never
    restored over: refused, naming both, with nothing written."""
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    first = _rollback_failed_on(run, lab, "ns-fv", "all", "10.251.0.4")
    sandbox.start(lab.instances["ns-fv"].folder)
    last = lab.root / "backups" / "ns-fv" / "renamer-apply-last"
    last.write_text("5 20200101T000000Z.0badc0de applied\n")
    before, pids = lab.snippets(), lab.pids()
    refused = dns(run, lab, "apply", "--resolvers", "all", "--rollback")
    assert refused.exit_code == 3, refused.stdout + refused.stderr
    assert refused.stderr == (f"renamer: error: ns-fv: its pending marker names apply {first}, but a later apply, "
                              f"20200101T000000Z.0badc0de (sequence 5), applied, ended there since (apply {first} "
                              f"wrote sequence 2): check {lab.root / 'backups' / 'ns-fv'} by hand; nothing "
                              "written\n")
    assert lab.snippets() == before and lab.pids() == pids  # nothing written, nothing restarted
    assert (lab.root / "backups" / "ns-fv" / "renamer-apply-pending").exists()  # still for a person to judge


def test_a_resolver_written_by_the_previous_version_is_read(run, lab: Lab) -> None:
    """Records without a sequence (`<id> <outcome>`, a marker of two lines) count as sequence 0:
    the marker is restored, and the next apply there takes sequence 1."""
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    first = _rollback_failed_on(run, lab, "ns-fv", "ns-fv", "10.251.0.4")
    backups = lab.root / "backups" / "ns-fv"
    (backups / "renamer-apply-pending").write_text(f"{backups / f'ns-fv-{first}'}\n{first}\n")  # old: 2 lines
    (backups / "renamer-apply-last").write_text("29991231T235959.999999Z applied\n")  # old, and "later"
    rolled = dns(run, lab, "apply", "--resolvers", "ns-fv", "--rollback")
    assert rolled.exit_code == 0, rolled.stdout + rolled.stderr
    assert addresses(lab, GW, "ns-fv") == {"ns-fv": ("10.251.0.1",)}
    assert (backups / "renamer-apply-last").read_text() == f"1 {first} rolled back\n"
    _gateway(lab, "10.251.0.6")
    assert dns(run, lab, "apply", "--resolvers", "ns-fv").exit_code == 0
    assert (backups / "renamer-apply-last").read_text().split()[::2] == ["2", "applied"]
    assert addresses(lab, GW, "ns-fv") == {"ns-fv": ("10.251.0.6",)}


FOUR = ("ns-q1", "ns-q2", "ns-q3", "ns-q4")


@pytest.fixture
def four(tmp_path: Path) -> Iterator[Lab]:
    started = start_lab(tmp_path / "four", FOUR)
    try:
        yield started
    finally:
        started.stop()


@pytest.mark.parametrize("engine", ["builtin", "ansible"])
def test_rollback_of_a_batched_apply_restores_every_batch_it_wrote_and_no_other(
        run, four: Lab, engine: str) -> None:
    """Batches [q1] (the canary), [q2, q3], [q4]: q1 is applied and final; q3 cannot restart, so
    batch 2 is rolled back (q2 restored, q3's rollback fails, its marker stays) and q4 is never
    reached. `--rollback` restores the canary batch and q3, leaves q2 (already rolled back) and
    q4 (no batch reached it) untouched: every resolver answers the old address."""
    assert dns(run, four, "apply", "--resolvers", "all").exit_code == 0
    hand = dies_on_start(four, "ns-q3")
    _gateway(four, "10.251.0.7")
    chosen = ["--engine", "ansible"] if engine == "ansible" else []
    failed = dns_process(four, "apply", "--resolvers", "all", "--canary", "1", "--batch-size", "2", *chosen)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    table = {line.split()[0]: line.split()[2] for line in failed.stdout.splitlines()[1:5]}
    assert table == {"ns-q1": "applied", "ns-q2": "rolled", "ns-q3": "rollback", "ns-q4": "not"}, failed.stdout
    hand.unlink()
    sandbox.start(four.instances["ns-q3"].folder)
    assert addresses(four, GW, "ns-q1", "ns-q2", "ns-q4") == {
        "ns-q1": ("10.251.0.7",), "ns-q2": ("10.251.0.1",), "ns-q4": ("10.251.0.1",)}
    pids = four.pids()
    rolled = dns(run, four, "apply", "--resolvers", "all", "--rollback")
    assert rolled.exit_code == 0, rolled.stdout + rolled.stderr
    assert {line.split()[0] for line in rolled.stdout.splitlines()[1:] if " rolled back " in line} == {
        "ns-q1", "ns-q3"}, rolled.stdout
    assert re.search(r"renamer: ns-q2: left as it is, not part of the interrupted apply \S+: apply \S+ is "
                     r"already rolled back there", rolled.stderr), rolled.stderr
    assert {n: four.pids()[n] for n in ("ns-q2", "ns-q4")} == {n: pids[n] for n in ("ns-q2", "ns-q4")}
    assert four.pids()["ns-q1"] != pids["ns-q1"]
    assert set(addresses(four, GW).values()) == {("10.251.0.1",)}
    assert (four.root / "backups" / "ns-q4" / "renamer-apply-last").read_text().split()[0] == "1"  # only the first
