"""Each dns apply has an id: --rollback and --resume act on the interrupted apply's resolvers
alone (dns/applies.py), against real dnsmasq, asserting what the resolvers answer."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from renamer.dns.dnsmasq import sandbox
from tests.testing.resolvers import Lab, addresses, dns

GW = "fv-gw.fv.lan"
ID = r"\d{8}T\d{6}\.\d{6}Z"


def _gateway(lab: Lab, address: str) -> None:
    path = lab.inventory / "sites" / "fv.yaml"
    path.write_text(re.sub(r"(name: fv-gw\n    address: )\S+", rf"\g<1>{address}", path.read_text()))


def _dies_on_start(lab: Lab, name: str) -> Path:
    """A hand file that `dnsmasq --test` accepts but that stops dnsmasq from starting."""
    hand = lab.instances[name].snippet_dir / "10-site.conf"
    hand.write_text("interface=eth9\n")
    return hand


def _rollback_failed_on(run, lab: Lab, broken: str, spec: str, address: str) -> str:  # type: ignore[no-untyped-def]
    """Apply fv-gw -> address to `spec` while `broken` cannot restart: its rollback fails and
    leaves its marker; the others are rolled back. Returns the apply's id."""
    hand = _dies_on_start(lab, broken)
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
                         rf"a later apply, {ID}, applied there since", rolled.stderr), rolled.stderr
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
                        rf"\(ns-ana: its last apply, ({ID}), applied there; ns-ana2: its last apply, \1, "
                        rf"applied there\); nothing written\n", refused.stderr), refused.stderr
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
    assert {"apply": first, "resolvers": {"ns-fv": "rolled back"}} in entries
    assert {"apply": second, "resolvers": {"ns-ana": "rollback FAILED"}} in entries
