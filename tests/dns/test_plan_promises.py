"""`dns plan` never promises an apply that will be refused or fail (F3): a resolver an apply killed
outright left half-done (the apply refuses it, exit 3) and a hand-written record the apply leaves
in place that its verify then fails on (a second address, a retired name) exit 1 without
--expect-no-changes, said per resolver in text and JSON, found by the apply's own checks
(applies.interrupted, reading only; verify). The apply then does what the plan said. Real
dnsmasq; answers asked over DNS."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from renamer.dns.dnsmasq import sandbox
from tests.testing.resolvers import Lab, addresses, dns, kill_apply_in_ns_ana2_test, move_gateway

GW = "fv-gw.fv.lan."


def _plan(run, lab: Lab, *args: str) -> tuple[int, str, dict[str, list[str]]]:  # type: ignore[no-untyped-def]
    text = dns(run, lab, "plan", "--resolvers", "all", *args)
    document = json.loads(dns(run, lab, "plan", "--resolvers", "all", "--format", "json", *args).stdout)
    fails = {r["resolver"]: r["would_fail"] for r in document["resolvers"] if r["managed"]}
    return text.exit_code, text.stdout, fails


def test_plan_exits_1_where_the_apply_would_refuse_a_half_done_resolver(run, lab: Lab) -> None:  # type: ignore[no-untyped-def]
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    kill_apply_in_ns_ana2_test(lab)
    lab.write_resolvers()
    backups = {n: (lab.root / "backups" / n / "renamer-apply-pending").read_text().splitlines()[0]
               for n in ("ns-ana", "ns-ana2")}
    code, out, fails = _plan(run, lab)
    assert code == 1, out
    for name, backup in backups.items():
        why = (f"an earlier dns apply was interrupted on {name} (backup {backup}): run `renamer dns apply "
               "--resume` to restore them and apply again, or `--rollback` to restore them")
        assert f"would fail: {name}: {why} (exit 3, nothing written)\n" in out, out
        assert fails[name] == [f"{why} (exit 3, nothing written)"]
    assert fails["ns-fv"] == []
    refused = dns(run, lab, "apply", "--resolvers", "all")
    assert refused.exit_code == 3 and "an earlier dns apply was interrupted on ns-ana (backup " in refused.stderr
    assert "ns-ana2 (backup" in refused.stderr
    saved = (lab.root / "backups" / "ns-ana" / "renamer-apply-pending").read_bytes()
    assert dns(run, lab, "apply", "--resolvers", "all", "--rollback").exit_code == 0
    assert set(addresses(lab, GW).values()) == {("10.251.0.1",)}
    # A marker whose apply already ended there (a kill between renamer-apply-last and the
    # marker's removal): the apply drops it and goes on, so the plan promises nothing else, and
    # drops nothing itself
    marker = lab.root / "backups" / "ns-ana" / "renamer-apply-pending"
    marker.write_bytes(saved)
    code, out, fails = _plan(run, lab)
    assert code == 0 and fails == {"ns-ana": [], "ns-ana2": [], "ns-fv": []}, out
    assert "ns-ana: would drop the marker of apply " in out and "interrupted: ns-ana: " not in out, out
    assert marker.read_bytes() == saved  # the plan drops nothing itself
    done = dns(run, lab, "apply", "--resolvers", "all")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert "ns-ana: dropped the marker of apply " in done.stderr
    assert set(addresses(lab, GW).values()) == {("10.251.0.2",)}


@pytest.mark.parametrize("change, hand, why", [
    # unchanged snippets: the apply verifies them as they are
    pytest.param(False, "host-record=fv-gw,fv-gw.fv.lan,10.251.7.7\n",
                 "its verify fails now (not served, below), and the apply does not change its snippets: "
                 "dns apply would fail and roll back", id="unchanged-second-address"),
    # the gateway moves: the hand-written second address stays, and the verify after the write fails
    pytest.param(True, "host-record=fv-gw,fv-gw.fv.lan,10.251.7.7\n",
                 "its verify after the write would fail: fv-gw A: expected 10.251.0.2, got ",
                 id="changed-second-address"),
    pytest.param(True, "addn-hosts={hosts}\n", "its verify after the write would fail: fv-gw A: expected "
                 "10.251.0.2, got ", id="changed-second-address-in-a-hosts-file"),
    pytest.param(True, "host-record=ana-ml2.ana.lan,10.250.9.9\n",
                 "its verify after the write would fail: ana-ml2.ana.lan A gone: expected NXDOMAIN, got 10.250.9.9",
                 id="changed-retired-name"),
])
def test_plan_exits_1_where_the_apply_would_fail_on_a_hand_written_record(  # type: ignore[no-untyped-def]
        run, lab: Lab, change: bool, hand: str, why: str) -> None:
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    hosts = lab.root / "legacy.hosts"
    hosts.write_text("# by hand\n10.251.7.7 fv-gw.fv.lan fv-gw\n")
    instance = lab.instances["ns-ana2"]
    (instance.snippet_dir / "50-legacy.conf").write_text(hand.format(hosts=hosts))
    sandbox.restart(instance.folder)
    if change:
        move_gateway(lab)
    code, out, fails = _plan(run, lab)
    assert code == 1, out
    assert f"would fail: ns-ana2: {why}" in out, out
    assert len(fails["ns-ana2"]) == 1 and fails["ns-ana2"][0].startswith(why)
    assert fails["ns-ana"] == [] and fails["ns-fv"] == []
    before = addresses(lab, GW)
    failed = dns(run, lab, "apply", "--resolvers", "all")  # as the plan said: it fails, rolled back
    assert failed.exit_code == 1, failed.stdout + failed.stderr
    assert "ns-ana2" in failed.stdout and "verify failed" in failed.stdout
    assert addresses(lab, GW) == before
    # --retire-stale comments the record out: then the plan promises, and the apply keeps it
    code, out, fails = _plan(run, lab, "--retire-stale")
    assert code == 0 and fails == {"ns-ana": [], "ns-ana2": [], "ns-fv": []}, out
    retired = dns(run, lab, "apply", "--resolvers", "all", "--retire-stale")
    assert retired.exit_code == 0, retired.stdout + retired.stderr
    assert set(addresses(lab, GW).values()) == {("10.251.0.2",) if change else ("10.251.0.1",)}


def test_plan_does_not_alarm_over_a_hand_written_record_the_verify_accepts(run, lab: Lab, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The inventory's own address for a name, written by hand too: no contradiction, no failure."""
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    move_gateway(lab)
    instance = lab.instances["ns-ana2"]
    (instance.snippet_dir / "50-legacy.conf").write_text("host-record=fv-gw.fv.lan,10.251.0.2\n")
    sandbox.restart(instance.folder)
    code, out, fails = _plan(run, lab)
    assert code == 0 and fails == {"ns-ana": [], "ns-ana2": [], "ns-fv": []}, out
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    assert set(addresses(lab, GW).values()) == {("10.251.0.2",)}
