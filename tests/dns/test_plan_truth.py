"""Plan tells the truth (issue 28, item 8 / dns-pass-2 B-f4, B-f5): a second address for a current
host, wherever it is written, and a resolver left half-done by a kill show in `dns plan`, whose
`--expect-no-changes` then exits 1; never "up to date". Real dnsmasq; answers asked over DNS."""

from __future__ import annotations

import json
import re

import pytest

from renamer.dns.dnsmasq import sandbox
from tests.testing.resolvers import (
    Lab,
    addresses,
    dns,
    fill_leaving_8k,
    kill_apply_in_ns_ana2_test,
    move_gateway,
    small_backup_dir,
)


def _plan(run, lab: Lab):  # type: ignore[no-untyped-def]
    result = dns(run, lab, "plan", "--resolvers", "all", "--expect-no-changes")
    return result.exit_code, result.stdout


def _up_to_date(out: str, name: str) -> bool:
    return any(line.startswith(f"== {name} ") and line.endswith(": up to date, nothing to do")
               for line in out.splitlines())


@pytest.mark.parametrize("hand, shown, name, second", [
    pytest.param("host-record=fv-ml1.fv.lan,10.251.9.9\n", "50-legacy.conf:1: host-record=fv-ml1.fv.lan,10.251.9.9",
                 "fv-ml1.fv.lan.", "10.251.9.9", id="host-record"),
    pytest.param("# an old record\nhost-record=fv-gw,fv-gw.fv.lan,10.251.7.7\n",
                 "50-legacy.conf:2: host-record=fv-gw,fv-gw.fv.lan,10.251.7.7", "fv-gw.", "10.251.7.7",
                 id="short-name"),
    pytest.param("addn-hosts={hosts}\n", "legacy.hosts:2: 10.251.9.8 fv-ml1-bmc.fv.lan", "fv-ml1-bmc.fv.lan.",
                 "10.251.9.8", id="addn-hosts"),
    # the same address under the short name: no second address, but dnsmasq's PTR now names the
    # first host-record it read (the hand file sorts first): found over DNS
    pytest.param("host-record=fv-ml1,10.251.50.54\n", "  10.251.50.54 PTR: expected fv-ml1.fv.lan., got fv-ml1.\n",
                 "fv-ml1.fv.lan.", None, id="same-address-other-ptr"),
])
def test_b_f4_a_hand_written_second_address_shows_in_plan_and_retire_stale_removes_it(
        run, lab: Lab, hand: str, shown: str | None, name: str, second: str | None) -> None:  # type: ignore[no-untyped-def]
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    hosts = lab.root / "legacy.hosts"
    hosts.write_text("# printers\n10.251.9.8 fv-ml1-bmc.fv.lan\n")
    instance = lab.instances["ns-ana2"]
    (instance.snippet_dir / "50-legacy.conf").write_text(hand.format(hosts=hosts))
    sandbox.restart(instance.folder)
    first = addresses(lab, name)["ns-fv"]
    served = addresses(lab, name)["ns-ana2"]
    if second is None:
        assert served == first
        code, out = _plan(run, lab)
        assert code == 1 and shown in out and not _up_to_date(out, "ns-ana2"), out
        return
    assert served == tuple(sorted((first[0], second))), "dnsmasq serves both"
    code, out = _plan(run, lab)
    assert code == 1, out
    assert shown in out and not _up_to_date(out, "ns-ana2"), out
    assert "== ns-ana2 (local, " in out and ": snippets up to date, but not done (above)" in out
    assert _up_to_date(out, "ns-ana") and _up_to_date(out, "ns-fv")
    retired = dns(run, lab, "apply", "--resolvers", "all", "--retire-stale")
    assert retired.exit_code == 0, retired.stdout + retired.stderr
    assert addresses(lab, name)["ns-ana2"] == first
    assert _plan(run, lab)[0] == 0


def test_b_f4_a_second_address_no_file_shows_is_found_over_dns(run, lab: Lab) -> None:  # type: ignore[no-untyped-def]
    """check_layout: false (a layout renamer cannot read): only the answers reveal it."""
    lab.write_resolvers(ns_ana2={"check_layout": False})
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    instance = lab.instances["ns-ana2"]
    (instance.snippet_dir / "50-legacy.conf").write_text("host-record=fv-ml1.fv.lan,10.251.9.9\n")
    sandbox.restart(instance.folder)
    code, out = _plan(run, lab)
    assert code == 1 and not _up_to_date(out, "ns-ana2"), out
    assert "not served: ns-ana2 does not answer as its snippets say (asked over DNS):\n" in out
    assert "  fv-ml1.fv.lan A: expected 10.251.50.54, got 10.251.50.54 -> 10.251.9.9\n" in out \
        or "  fv-ml1.fv.lan A: expected 10.251.50.54, got 10.251.9.9 -> 10.251.50.54\n" in out, out


def test_b_f4_a_second_address_in_the_managed_snippet_is_a_change(run, lab: Lab) -> None:  # type: ignore[no-untyped-def]
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    instance = lab.instances["ns-ana"]
    snippet = instance.snippet_dir / "renamer-fv.conf"
    snippet.write_text(snippet.read_text() + "host-record=fv-ml1.fv.lan,10.251.9.9\n")
    sandbox.restart(instance.folder)
    code, out = _plan(run, lab)
    assert code == 1 and not _up_to_date(out, "ns-ana"), out
    assert "-host-record=fv-ml1.fv.lan,10.251.9.9\n" in out
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    assert set(addresses(lab, "fv-ml1.fv.lan.").values()) == {("10.251.50.54",)}


def test_b_f5_a_snippet_written_but_not_restarted_is_not_up_to_date(run, lab: Lab, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """No marker at all (copied by hand, say): the canary asked over DNS reveals it."""
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    move_gateway(lab)
    out_dir = tmp_path / "rendered"
    assert dns(run, lab, "render", "--resolver", "ns-ana", "--out", str(out_dir)).exit_code == 0
    for rendered in out_dir.iterdir():
        (lab.instances["ns-ana"].snippet_dir / rendered.name).write_bytes(rendered.read_bytes())
    assert addresses(lab, "fv-gw.fv.lan.")["ns-ana"] == ("10.251.0.1",)  # written, not served
    code, out = _plan(run, lab)
    assert code == 1 and not _up_to_date(out, "ns-ana"), out
    assert "_renamer.fv.fv.lan TXT (canary): expected " in out
    assert "it is written but not served (not restarted since it was written" in out


def test_b_f5_an_apply_killed_between_two_resolvers_shows_in_plan(run, lab: Lab) -> None:  # type: ignore[no-untyped-def]
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    kill_apply_in_ns_ana2_test(lab)
    # ns-ana: applied and restarted; ns-ana2: written, not restarted; ns-fv: not reached
    assert addresses(lab, "fv-gw.fv.lan.") == {"ns-ana": ("10.251.0.2",), "ns-ana2": ("10.251.0.1",),
                                               "ns-fv": ("10.251.0.1",)}
    code, out = _plan(run, lab)
    assert code == 1, out
    assert not _up_to_date(out, "ns-ana") and not _up_to_date(out, "ns-ana2"), out
    for name in ("ns-ana", "ns-ana2"):
        assert f"interrupted: {name}: an earlier dns apply was killed with this resolver half-done" in out
        assert f"locked: {name}: " in out and "(that process is gone)" in out
    assert "it is written but not served" in out  # ns-ana2's snippet, never restarted
    lab.write_resolvers()
    rolled = dns(run, lab, "apply", "--resolvers", "all", "--rollback")
    assert rolled.exit_code == 0, rolled.stdout + rolled.stderr
    assert set(addresses(lab, "fv-gw.fv.lan.").values()) == {("10.251.0.1",)}
    code, out = _plan(run, lab)
    assert code == 1 and "interrupted" not in out and "locked" not in out  # only the move itself is left


@pytest.mark.parametrize("changed", [True, False], ids=["to-change", "up-to-date"])
def test_plan_exits_1_naming_a_stopped_resolver(run, lab: Lab, changed: bool) -> None:  # type: ignore[no-untyped-def]
    """The apply's preflight would refuse a resolver that does not answer: plan says so and
    exits 1 (attention needed), whether or not its snippets need a change."""
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    if changed:
        move_gateway(lab)
    sandbox.stop(lab.instances["ns-ana2"].folder)
    planned = dns(run, lab, "plan", "--resolvers", "all")
    assert planned.exit_code == 1, planned.stdout + planned.stderr
    port = lab.instances["ns-ana2"].port
    assert f"down: ns-ana2: it does not answer over DNS (127.0.0.1:{port}: " in planned.stdout
    assert "a stopped resolver is not started by dns apply; start it, or leave it out with --resolvers" in \
        planned.stdout
    assert "down:" not in planned.stdout.replace("down: ns-ana2", "")  # the others answer
    assert lab.pids()["ns-ana2"] == ""  # plan started nothing
    sandbox.start(lab.instances["ns-ana2"].folder)
    again = dns(run, lab, "plan", "--resolvers", "all")
    assert again.exit_code == 0 and "down:" not in again.stdout, again.stdout


def test_plan_exits_1_when_the_safety_thresholds_would_refuse_the_apply(run, lab: Lab) -> None:  # type: ignore[no-untyped-def]
    path = lab.inventory / "sites" / "fv.yaml"
    extra = "".join(f"  - name: fv-n{i}\n    address: 10.251.9.{i}\n" for i in range(1, 9))
    grown = path.read_text().replace("hosts:\n", "hosts:\n" + extra, 1)
    path.write_text(grown)
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    path.write_text(grown.replace(extra, ""))  # a bad merge: most of the site gone
    planned = dns(run, lab, "plan", "--resolvers", "all")
    assert planned.exit_code == 1, planned.stdout + planned.stderr
    assert "refused: dns apply would refuse this plan without --force (the safety thresholds):\n" in planned.stdout
    assert "  ns-ana: renamer-fv.conf: the apply would delete 16 of its" in planned.stdout
    document = dns(run, lab, "plan", "--resolvers", "all", "--format", "json")
    assert document.exit_code == 1
    assert len(json.loads(document.stdout)["over_thresholds"]) == 3  # one per resolver
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 3  # what plan said
    assert set(addresses(lab, "fv-n1.fv.lan.").values()) == {("10.251.9.1",)}


HAND_BROKEN = "cname=scriberr.fv.lan,fv-gw.fv.lan\n"  # a duplicate CNAME: dnsmasq --test refuses it


def _refused_by_preflight(planned, name: str, why: str, code: int = 1) -> None:  # type: ignore[no-untyped-def]
    assert planned.exit_code == code, planned.stdout + planned.stderr
    lines = [line for line in planned.stdout.splitlines() if line.startswith("preflight: ")]
    assert len(lines) == 1, planned.stdout + "\n".join(lines)  # one line: the resolver apply would refuse
    assert re.match(rf"preflight: {name}: dns apply would refuse it: {why}", lines[0]), lines[0]


@pytest.mark.parametrize("broken, fault, why", [
    pytest.param("ns-fv", "hand-file", r"its configuration as it stands already fails its test \(\S*dnsmasq --test .*\): "
                 r".*duplicate.*; fix that first$", id="dnsmasq-test"),
    pytest.param("ns-ana", "test-argv", r"its configuration as it stands already fails its test \(sh -c .*\): "
                 r"config broken by hand; fix that first$", id="any-test-command"),
])
def test_plan_says_the_apply_would_refuse_a_resolver_whose_config_already_fails_its_test(  # type: ignore[no-untyped-def]
        run, lab: Lab, broken: str, fault: str, why: str) -> None:
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    if fault == "hand-file":
        (lab.instances[broken].snippet_dir / "zz-hand.conf").write_text(HAND_BROKEN)
    else:
        lab.write_resolvers(**{broken.replace("-", "_"): {"test": ["sh", "-c", "echo config broken by hand >&2; "
                                                                             "exit 1"]}})
    move_gateway(lab)
    before, pids = lab.snippets(), lab.pids()
    _refused_by_preflight(dns(run, lab, "plan", "--resolvers", "all"), broken, why)
    # the dry run shows the same line; as any preview, it exits 0
    _refused_by_preflight(dns(run, lab, "apply", "--resolvers", "all", "--dry-run"), broken, why, code=0)
    document = dns(run, lab, "plan", "--resolvers", "all", "--format", "json")
    assert document.exit_code == 1
    refused = {r["resolver"]: r["preflight"] for r in json.loads(document.stdout)["resolvers"]}
    assert refused[broken] and re.match(why, refused[broken]), refused
    assert all(v is None for k, v in refused.items() if k != broken), refused
    # what plan promised: the apply refuses it, with the same reason, before any write
    applied = dns(run, lab, "apply", "--resolvers", "all")
    assert applied.exit_code == 1
    assert f"\n{broken}: {refused[broken]}; nothing written\n" in applied.stdout, applied.stdout
    assert lab.snippets() == before and lab.pids() == pids
    assert set(addresses(lab, "fv-gw.fv.lan.").values()) == {("10.251.0.1",)}


def test_plan_says_nothing_of_a_broken_config_the_apply_would_not_touch(run, lab: Lab) -> None:  # type: ignore[no-untyped-def]
    """The preflight tests only the resolvers it changes (a resolver's own configuration is its
    business until renamer writes there): up to date, the plan has nothing to refuse."""
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    (lab.instances["ns-ana2"].snippet_dir / "zz-hand.conf").write_text(HAND_BROKEN)
    planned = dns(run, lab, "plan", "--resolvers", "all")
    assert planned.exit_code == 0 and "preflight:" not in planned.stdout, planned.stdout
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0


def test_plan_says_the_apply_would_refuse_a_backup_dir_without_room(run, lab: Lab) -> None:  # type: ignore[no-untyped-def]
    with small_backup_dir(lab, "ns-ana2") as backups:
        assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
        fill_leaving_8k(backups)
        move_gateway(lab)
        why = rf"backup_dir {backups} has \d KiB free, the backup needs 20 KiB: free some space there first$"
        _refused_by_preflight(dns(run, lab, "plan", "--resolvers", "all"), "ns-ana2", why)
        _refused_by_preflight(dns(run, lab, "plan", "--resolvers", "ns-ana2"), "ns-ana2", why)
        assert dns(run, lab, "plan", "--resolvers", "ns-ana,ns-fv").exit_code == 0  # the others are fine
        (backups / "filler").unlink()
        again = dns(run, lab, "plan", "--resolvers", "all")
        assert again.exit_code == 0 and "preflight:" not in again.stdout, again.stdout
