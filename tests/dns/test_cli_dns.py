"""DNS end to end against real dnsmasq resolvers, through the CLI."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from renamer.dns.dnsmasq import sandbox
from renamer.dns.dnsmasq.render import render_site
from renamer.dns.load import load_inventory
from tests.testing.resolvers import dns, fails_once_written

GOLDEN = Path(__file__).parent / "golden"




def test_render_is_golden_and_passes_dnsmasq_test(run, lab, tmp_path: Path) -> None:
    result = dns(run, lab, "render", "--site", "fv", "--resolver", "ns-fv")
    assert result.exit_code == 0
    assert result.stdout == (GOLDEN / "renamer-fv.conf").read_text()
    without_dhcp = dns(run, lab, "render", "--site", "fv", "--resolver", "ns-ana2").stdout
    assert "dhcp-host" not in without_dhcp
    lines = result.stdout.splitlines()
    bmc = lines.index("host-record=fv-ml1-bmc.fv.lan,fv-ml1-bmc,10.251.50.55")
    assert lines[bmc - 3].startswith("# WARNING fv-ml1-bmc: 802.1q VLAN tagging must stay disabled")
    assert all(line.startswith("#") for line in lines[bmc - 3:bmc])
    out = tmp_path / "snippets"
    assert dns(run, lab, "render", "--out", str(out)).exit_code == 0
    assert sorted(p.name for p in out.iterdir()) == ["renamer-ana.conf", "renamer-fv.conf"]
    instance = sandbox.create(tmp_path / "check")
    for snippet in out.iterdir():
        (instance.snippet_dir / snippet.name).write_bytes(snippet.read_bytes())
    checked = subprocess.run(instance.test_command(), capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr


def test_render_is_deterministic_and_drops_retired(lab) -> None:
    inventory = load_inventory(lab.inventory, str)
    ana = inventory.site("ana")
    assert render_site(ana) == render_site(ana)
    assert "ana-ml2" not in render_site(ana)


def test_apply_then_verify_then_idempotent_reapply(run, lab) -> None:
    plan = dns(run, lab, "plan", "--resolvers", "all")
    assert plan.exit_code == 0
    assert "records: 13 added, 0 changed, 0 removed" in plan.stdout
    assert lab.snippets() == {}
    applied = dns(run, lab, "apply", "--resolvers", "all")
    assert applied.exit_code == 0, applied.stdout
    assert applied.stdout.splitlines()[-1] == "dns apply: OK"
    assert len(lab.snippets()) == 6
    backups = sorted(p.name for p in (lab.root / "backups" / "ns-fv").iterdir() if p.is_dir())
    assert len(backups) == 1 and (lab.root / "backups/ns-fv" / backups[0] / "ABSENT").read_text() == (
        "renamer-ana.conf\nrenamer-fv.conf\n")
    verified = dns(run, lab, "verify", "--resolvers", "all")
    assert verified.exit_code == 0, verified.stdout
    assert verified.stdout.splitlines()[-1] == "dns verify: OK: 118 checks on 3 resolvers"
    pids = lab.pids()
    again = dns(run, lab, "apply", "--resolvers", "all")
    assert again.exit_code == 0
    assert again.stdout.count("unchanged") == 3
    assert lab.pids() == pids  # not restarted
    assert dns(run, lab, "plan", "--resolvers", "all").stdout.count("up to date") == 3


def _fail_on(lab, resolver: str, step: str) -> None:  # type: ignore[no-untyped-def]
    # The test fails only on what the apply writes: the configuration as it stands passes (the preflight's).
    failing = (fails_once_written(lab, resolver) if step == "test" else ["sh", "-c", "echo broken >&2; exit 1"])
    lab.write_resolvers(**{resolver.replace("-", "_"): {step: failing}})


def _change_inventory(lab) -> None:  # type: ignore[no-untyped-def]
    path = lab.inventory / "sites" / "fv.yaml"
    path.write_text(path.read_text().replace("address: 10.251.0.1", "address: 10.251.0.2"))


@pytest.mark.parametrize("step", ["test", "reload"])
def test_a_failing_step_rolls_every_resolver_back(run, lab, step: str) -> None:
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    before = lab.snippets()
    _change_inventory(lab)
    _fail_on(lab, "ns-fv", step)
    result = dns(run, lab, "apply", "--resolvers", "all")
    assert result.exit_code == 1
    assert re.search(rf"ns-fv: {step} failed \(sh -c .*echo broken >&2; exit 1.*\): broken", result.stdout)
    rows = {line.split()[0]: line for line in result.stdout.splitlines()[1:4]}
    assert "  rolled back  " in rows["ns-ana"] and "  rolled back  " in rows["ns-ana2"]
    # A broken reload also fails the reload after the restore: said, not hidden.
    expected = "rollback FAILED" if step == "reload" else "rolled back"
    assert f"  {expected}  " in rows["ns-fv"]
    assert lab.snippets() == before
    lab.write_resolvers()
    for name in ("ns-ana", "ns-ana2"):  # old records served again after the rollback
        out = dns(run, lab, "verify", "--resolvers", name).stdout
        assert "fv-gw A: expected 10.251.0.2, got 10.251.0.1" in out


def test_a_resolver_that_stays_down_fails_verify_and_rolls_back(run, lab) -> None:
    # Its restart stops it for good (one down before the apply is the preflight's: test_preflight.py).
    stop = [sys.executable, "-m", "renamer.dns.dnsmasq.sandbox", "stop", str(lab.instances["ns-ana2"].folder)]
    lab.write_resolvers(ns_ana2={"reload": stop})
    result = dns(run, lab, "apply", "--resolvers", "all")
    assert result.exit_code == 1
    port = lab.instances["ns-ana2"].port
    assert f"ns-ana2: verify failed: 127.0.0.1:{port}: no answer within 3 s" in result.stdout
    rows = [" ".join(row.split()[2:4]) for row in result.stdout.splitlines()[1:4]]
    assert rows == ["rolled back", "rollback FAILED", "not reached"]
    assert lab.snippets() == {}


def test_verify_names_a_dead_resolver_quickly(run, lab) -> None:
    import time

    sandbox.stop(lab.instances["ns-fv"].folder)
    port = lab.instances["ns-fv"].port
    start = time.monotonic()
    result = dns(run, lab, "verify", "--resolvers", "ns-fv,ns-ana")
    assert time.monotonic() - start < 20
    assert result.exit_code == 1
    assert f"ns-fv 127.0.0.1:{port}: no answer in 0.5 s" in result.stdout


def test_verify_reports_wrong_data_as_it_is(run, lab) -> None:
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    instance = lab.instances["ns-ana"]
    (instance.snippet_dir / "legacy.conf").write_text("host-record=ana-ml2.ana.lan,10.250.50.54\n")
    sandbox.restart(instance.folder)
    result = dns(run, lab, "verify", "--resolvers", "all", "--format", "json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    bad = [(r["name"], c["check"], c["got"]) for r in data["resolvers"] for c in r["checks"] if not c["ok"]]
    assert bad == [("ns-ana", "ana-ml2.ana.lan A gone", "10.250.50.54"), ("ns-ana", "ana-ml2.ana.lan AAAA gone", "NOERROR")]


def test_dry_run_and_plan_write_nothing(run, lab) -> None:
    result = dns(run, lab, "apply", "--resolvers", "ns-fv", "--dry-run")
    assert result.exit_code == 0 and "+host-record=fv-ml1.fv.lan,fv-ml1,10.251.50.54" in result.stdout
    assert lab.snippets() == {} and not (lab.root / "backups").exists()


def test_unknown_resolver_is_a_usage_error(run, lab) -> None:
    result = dns(run, lab, "verify", "--resolvers", "ns-nope")
    assert (result.exit_code, result.stderr) == (
        2, "renamer: error: --resolvers: unknown resolver ns-nope (known: ns-ana, ns-ana2, ns-fv, or all)\n")


BAD_SITES = [
    pytest.param("name: fv-ml1\n    address: 10.251.50.54\n    aliases: [\"x\\nserver=8.8.8.8\"]",
                 "fv.yaml:7: hosts[0].aliases[0]: invalid alias 'x\\nserver=8.8.8.8'", id="newline"),
    pytest.param("name: \"fv-ml1,evil\"\n    address: 10.251.50.54",
                 "fv.yaml:5: hosts[0].name: invalid host name 'fv-ml1,evil'", id="comma"),
    pytest.param("name: \"fv#1\"\n    address: 10.251.50.54",
                 "fv.yaml:5: hosts[0].name: invalid host name 'fv#1'", id="hash"),
    pytest.param("name: fv-ml1\n    address: 10.250.50.54",
                 "fv.yaml:6: hosts[0].address: 10.250.50.54 is outside the site's network 10.251.0.0/16",
                 id="outside-network"),
    pytest.param("name: fv-ml1\n    address: 10.251.50.54\n    mac: 3c:ec:ef:12:34",
                 "fv.yaml:7: hosts[0].mac: invalid MAC address '3c:ec:ef:12:34'", id="mac"),
    pytest.param("name: fv-ml1\n    address: 10.251.999.1",
                 "fv.yaml:6: hosts[0].address: invalid address '10.251.999.1'", id="address"),
]


@pytest.mark.parametrize("first_host, message", BAD_SITES)
def test_bad_inventories_are_refused_and_nothing_written(run, lab, first_host: str, message: str) -> None:
    path = lab.inventory / "sites" / "fv.yaml"
    text = path.read_text()
    start = text.index("name: fv-ml1\n")
    end = text.index("  - name: fv-ml1-bmc")
    path.write_text(text[:start] + first_host + "\n" + text[end:])
    result = dns(run, lab, "apply", "--resolvers", "all")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"renamer: error: dns/sites/{message}")
    assert lab.snippets() == {} and not (lab.root / "backups").exists()


@pytest.mark.parametrize("edit, message", [
    pytest.param(("site: fv", "site: ../etc"), "dns/sites/fv.yaml:1: site: expected a plain site name",
                 id="traversal-site"),
    pytest.param(("retired: [ana-ml2", "retired: [ana-nas"),
                 "dns/sites/ana.yaml: retired: 'ana-nas' is retired but still defined", id="retired-defined"),
    pytest.param(("aliases: [scriberr]", "aliases: [fv-gw]"), "dns/sites/fv.yaml: aliases: 'fv-gw' is also a host",
                 id="alias-is-host"),
    pytest.param(("address: 10.251.0.1", "address: 10.251.50.54"),
                 "dns/sites/fv.yaml: hosts: address 10.251.50.54 of 'fv-gw' is defined twice", id="address-twice"),
])
def test_cross_file_rejections(run, lab, edit: tuple[str, str], message: str) -> None:
    for site in ("fv.yaml", "ana.yaml"):
        path = lab.inventory / "sites" / site
        path.write_text(path.read_text().replace(*edit))
    result = dns(run, lab, "verify", "--resolvers", "all")
    assert result.exit_code == 2
    assert message in result.stderr


def test_resolver_listed_twice_and_bad_targets(run, lab) -> None:
    text = (lab.inventory / "resolvers.yaml").read_text()
    lines = text.splitlines()
    (lab.inventory / "resolvers.yaml").write_text("\n".join([*lines, lines[1]]) + "\n")
    result = dns(run, lab, "verify", "--resolvers", "all")
    assert result.exit_code == 2 and "resolver 'ns-ana' is listed twice" in result.stderr
    lab.write_resolvers(ns_fv={"target": "ssh://-oProxyCommand=touch@x"})
    result = dns(run, lab, "verify", "--resolvers", "all")
    assert result.exit_code == 2 and "resolvers[2].target: expected local or ssh://" in result.stderr
    lab.write_resolvers(ns_fv={"backup_dir": str(lab.instances["ns-fv"].snippet_dir / "old")})
    result = dns(run, lab, "verify", "--resolvers", "all")
    assert "backup_dir: must lie outside snippet_dir" in result.stderr


def test_a_restart_that_leaves_the_resolver_down_is_rolled_back_and_verified(run, lab) -> None:
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    before = lab.snippets()
    _change_inventory(lab)
    fv = lab.instances["ns-fv"]
    # The new snippet "breaks" the daemon at start: it stops and stays down until the old one is back.
    restart = ["sh", "-c", 'python3 -m renamer.dns.dnsmasq.sandbox stop "$1"; '
               'grep -q 10.251.0.2 "$1/dnsmasq.d/renamer-fv.conf" || python3 -m renamer.dns.dnsmasq.sandbox start "$1"',
               "sh", str(fv.folder)]
    import sys

    restart = [part.replace("python3", sys.executable) for part in restart]
    lab.write_resolvers(ns_fv={"reload": restart})
    result = dns(run, lab, "apply", "--resolvers", "all")
    assert result.exit_code == 1
    rows = {line.split()[0]: line for line in result.stdout.splitlines()[1:4]}
    assert "restored, reloaded, old records served" in rows["ns-fv"]
    assert "  rolled back  " in rows["ns-fv"]
    assert lab.snippets() == before
    lab.write_resolvers()
    assert "fv-gw A: expected 10.251.0.2, got 10.251.0.1" in dns(run, lab, "verify", "--resolvers", "ns-fv").stdout


def test_unreachable_ssh_target_is_a_fast_clear_error(run, lab) -> None:
    import time

    lab.write_resolvers(ns_fv={"target": "ssh://nobody@127.0.0.1:1"})
    start = time.monotonic()
    result = dns(run, lab, "apply", "--resolvers", "all")
    assert time.monotonic() - start < 20
    assert result.exit_code == 1
    assert "\nns-fv: unreachable: ns-fv (ssh://nobody@127.0.0.1:1): ssh failed: " in result.stdout
    assert result.stdout.endswith("; nothing written\ndns apply: FAILED, nothing was changed\n")
    assert lab.snippets() == {}  # the preflight reaches every resolver first: nothing was touched


def test_inventory_values_never_reach_a_shell(run, lab, tmp_path: Path) -> None:
    marker = tmp_path / "PWNED"
    hostile = ["true", f"; touch {marker}", f"$(touch {marker})", f"`touch {marker}`", "|", "&&"]
    lab.write_resolvers(ns_fv={"test": hostile, "reload": lab.instances["ns-fv"].reload_command()})
    assert dns(run, lab, "apply", "--resolvers", "ns-fv").exit_code == 0
    assert not marker.exists()


def test_a_symlinked_snippet_is_replaced_never_written_through(run, lab, tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.conf"
    target.write_text("# someone else's file\n")
    link = lab.instances["ns-fv"].snippet_dir / "renamer-fv.conf"
    link.symlink_to(target)
    assert dns(run, lab, "apply", "--resolvers", "ns-fv").exit_code == 0
    assert target.read_text() == "# someone else's file\n"
    assert not link.is_symlink() and "host-record=fv-ml1.fv.lan," in link.read_text()


def test_a_hosts_own_warning_replaces_the_bmc_default(run, lab) -> None:
    path = lab.inventory / "sites" / "fv.yaml"
    path.write_text(path.read_text().replace(
        "    role: bmc                     # gets the 802.1q VLAN warning",
        "    role: bmc\n    warning: firmware 4.2 drops gratuitous ARP, ping it after a restart"))
    text = dns(run, lab, "render", "--site", "fv").stdout
    lines = text.splitlines()
    bmc = lines.index("host-record=fv-ml1-bmc.fv.lan,fv-ml1-bmc,10.251.50.55")
    assert lines[bmc - 1].startswith("#") and "firmware 4.2 drops gratuitous ARP" in "".join(lines[bmc - 2:bmc])
    assert "802.1q" not in text


def test_a_failing_test_leaves_that_resolver_running_with_the_same_pid(run, lab) -> None:
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    _change_inventory(lab)
    _fail_on(lab, "ns-fv", "test")
    pid = lab.pids()["ns-fv"]
    result = dns(run, lab, "apply", "--resolvers", "all")
    assert result.exit_code == 1
    assert lab.pids()["ns-fv"] == pid
    assert "restored, not restarted (it never was), old records served" in result.stdout
    assert result.stdout.splitlines()[-1] == "dns apply: FAILED, changed resolvers rolled back"


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_n1_an_interrupted_apply_rolls_back_what_it_changed(lab, sig: signal.Signals) -> None:
    env = {**os.environ, "NO_COLOR": "1"}
    command = [sys.executable, "-m", "renamer", "dns", "apply", "--resolvers", "all", "--inventory",
               str(lab.inventory)]
    assert subprocess.run(command, cwd=lab.root, env=env, capture_output=True).returncode == 0
    before = lab.snippets()
    _change_inventory(lab)
    lab.write_resolvers(ns_fv={"test": fails_once_written(lab, "ns-fv", "sleep 30")})  # the last one hangs in its test
    apply = subprocess.Popen(command, cwd=lab.root, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
    fv = lab.instances["ns-fv"].snippet_dir / "renamer-fv.conf"
    deadline = time.monotonic() + 30
    while fv.read_bytes() == before["ns-fv/renamer-fv.conf"] and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)  # inside ns-fv's test now
    apply.send_signal(sig)
    out, err = apply.communicate(timeout=60)
    assert apply.returncode == 130, out + err
    assert err.endswith("renamer: aborted\n")
    rows = {line.split()[0]: line for line in out.splitlines()[1:4]}
    assert all("  rolled back  " in rows[name] for name in ("ns-ana", "ns-ana2", "ns-fv")), out
    assert "ns-fv: interrupted: every resolver changed so far is rolled back" in out
    assert lab.snippets() == before
    lab.write_resolvers()
    for name in ("ns-ana", "ns-ana2"):
        assert "fv-gw A: expected 10.251.0.2, got 10.251.0.1" in dns_cli(lab, "verify", "--resolvers", name)


def dns_cli(lab, *args: str) -> str:  # type: ignore[no-untyped-def]
    done = subprocess.run([sys.executable, "-m", "renamer", "dns", *args, "--inventory", str(lab.inventory)],
                          cwd=lab.root, capture_output=True, text=True)
    return done.stdout


def test_n3_a_site_removed_from_the_inventory_is_removed_from_its_resolvers(run, lab) -> None:
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    (lab.inventory / "sites" / "ana.yaml").unlink()
    lab.write_resolvers(**{name.replace("-", "_"): {"sites": ["fv"], "dhcp": [s for s in ("fv",)
                                                                             if name == "ns-fv"]}
                           for name in lab.instances})
    plan = dns(run, lab, "plan", "--resolvers", "all")
    assert plan.exit_code == 0
    assert "--- a" in plan.stdout and "+++ /dev/null" in plan.stdout
    assert plan.stdout.count("records: 0 added, 0 changed, 4 removed\n  - ana-gw\n") == 3, plan.stdout
    applied = dns(run, lab, "apply", "--resolvers", "all")
    assert applied.exit_code == 0, applied.stdout
    assert "removed renamer-ana.conf" in applied.stdout
    assert sorted(lab.snippets()) == ["ns-ana/renamer-fv.conf", "ns-ana2/renamer-fv.conf", "ns-fv/renamer-fv.conf"]
    assert dns(run, lab, "plan", "--resolvers", "all").stdout.count("up to date") == 3


def test_m5_a_hand_edited_snippet_is_drift_warned_and_counted(run, lab) -> None:
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    snippet = lab.instances["ns-fv"].snippet_dir / "renamer-fv.conf"
    snippet.write_text(snippet.read_text() + "address=/hand.example/192.0.2.99\n")
    plan = dns(run, lab, "plan", "--resolvers", "ns-fv")
    assert "records: 0 added, 0 changed, 1 removed\n  - address:/hand.example/192.0.2.99\n" in plan.stdout
    assert ("warning: drift: ns-fv: renamer-fv.conf holds 1 line renamer did not write "
            "(address=/hand.example/192.0.2.99); apply replaces them, the backup keeps them") in plan.stdout
    applied = dns(run, lab, "apply", "--resolvers", "ns-fv")
    assert applied.exit_code == 0
    assert "renamer: warning: drift: ns-fv: renamer-fv.conf holds 1 line" in applied.stderr
    assert "hand.example" not in snippet.read_text()
    kept = [p for p in (lab.root / "backups" / "ns-fv").rglob("renamer-fv.conf") if "hand.example" in p.read_text()]
    assert len(kept) == 1  # the backup keeps the hand-made line


def _killed_midway(lab) -> dict[str, bytes]:  # type: ignore[no-untyped-def]
    """Apply the old inventory, then kill -9 an apply of the new one inside ns-fv's test."""
    command = [sys.executable, "-m", "renamer", "dns", "apply", "--resolvers", "all", "--inventory",
               str(lab.inventory)]
    assert subprocess.run(command, cwd=lab.root, capture_output=True).returncode == 0
    before = lab.snippets()
    _change_inventory(lab)
    lab.write_resolvers(ns_fv={"test": fails_once_written(lab, "ns-fv", "sleep 30")})
    apply = subprocess.Popen(command, cwd=lab.root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    fv = lab.instances["ns-fv"].snippet_dir / "renamer-fv.conf"
    deadline = time.monotonic() + 30
    while fv.read_bytes() == before["ns-fv/renamer-fv.conf"] and time.monotonic() < deadline:
        time.sleep(0.05)
    apply.kill()
    apply.wait()
    lab.write_resolvers()
    return before


def test_n2_after_an_apply_killed_outright_the_next_refuses_then_rolls_back(run, lab) -> None:
    before = _killed_midway(lab)
    assert lab.snippets() != before
    refused = dns(run, lab, "apply", "--resolvers", "all")
    assert refused.exit_code == 3
    assert "an earlier dns apply was interrupted on ns-ana (backup " in refused.stderr
    assert "--resume" in refused.stderr and refused.stderr.count("\n") == 1
    rolled = dns(run, lab, "apply", "--resolvers", "all", "--rollback")
    assert rolled.exit_code == 0, rolled.stdout
    assert rolled.stdout.splitlines()[-1] == "dns apply: OK, the interrupted apply is rolled back"
    assert lab.snippets() == before
    for name in ("ns-ana", "ns-ana2", "ns-fv"):
        assert "fv-gw A: expected 10.251.0.2, got 10.251.0.1" in dns(run, lab, "verify", "--resolvers", name).stdout
    assert dns(run, lab, "plan", "--resolvers", "all").stdout.count("1 snippet to change") == 3


def test_n2_resume_restores_the_half_done_resolvers_then_applies(run, lab) -> None:
    _killed_midway(lab)
    resumed = dns(run, lab, "apply", "--resolvers", "all", "--resume")
    assert resumed.exit_code == 0, resumed.stdout
    assert resumed.stdout.splitlines()[-1] == "dns apply: OK"
    assert dns(run, lab, "verify", "--resolvers", "all").exit_code == 0
    assert dns(run, lab, "apply", "--resolvers", "all").stdout.count("unchanged") == 3


def test_sigkill_during_dns_apply_never_leaves_a_partial_snippet_or_an_unmarked_change(lab) -> None:
    """15 kill -9 at random moments of `dns apply` (most inside its writes): every snippet is whole (old or new), a
    half-done apply is marked, and --rollback restores every resolver it touched."""
    command = [sys.executable, "-m", "renamer", "dns", "apply", "--resolvers", "all", "--no-verify",
               "--inventory", str(lab.inventory)]
    site = lab.inventory / "sites" / "fv.yaml"
    old_text = site.read_text()
    slow = 'sleep 0.3; exec "$@"'  # a slower whole-config test: a wider window to land kills in
    lab.write_resolvers(**{name.replace("-", "_"): {"test": ["sh", "-c", slow, "sh", *i.test_command()]}
                           for name, i in lab.instances.items()})
    assert subprocess.run(command, cwd=lab.root, capture_output=True).returncode == 0
    old = lab.snippets()
    _change_inventory(lab)
    new_text = site.read_text()
    rng = random.Random(20261129)
    landed = 0
    pending = [lab.root / "backups" / name / "renamer-apply-pending" for name in lab.instances]
    for trial in range(15):
        site.write_text(new_text)
        apply = subprocess.Popen(command, cwd=lab.root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if trial % 5 == 0:  # anywhere: the preflight (every test once, df on each backup_dir) included
            time.sleep(rng.uniform(0.5, 5.5))
        else:  # once the first resolver is marked: inside the writes, tests, reloads
            deadline = time.monotonic() + 30
            while not any(p.exists() for p in pending) and apply.poll() is None and time.monotonic() < deadline:
                time.sleep(0.002)
            time.sleep(rng.uniform(0.0, 1.5))
        apply.kill()
        apply.wait()
        now = lab.snippets()
        marked = {name for name, i in lab.instances.items()
                  if (lab.root / "backups" / name / "renamer-apply-pending").exists()}
        changed = {key.split("/")[0] for key in now if now[key] != old.get(key)}  # a temporary file too
        assert marked or len(changed) in (0, 3), f"trial {trial}: {changed} changed, nothing marked"
        site.write_text(old_text)
        if marked:
            landed += 1
            done = subprocess.run([*command, "--rollback"], cwd=lab.root, capture_output=True, text=True)
            assert done.returncode == 0, f"trial {trial}: {done.stdout}{done.stderr}"
        else:
            assert subprocess.run(command, cwd=lab.root, capture_output=True).returncode == 0
        assert lab.snippets() == old, f"trial {trial}"
    assert landed >= 6, landed  # the kills really hit the applies


def test_dns_tables_are_coloured_like_the_rest_only_when_asked(run, lab) -> None:
    applied = dns(run, lab, "apply", "--resolvers", "all", "--color", "always")
    assert applied.exit_code == 0
    assert "\x1b[32mapplied\x1b[0m  " in applied.stdout  # the cell coloured, the padding kept
    assert applied.stdout.endswith("\x1b[32m\x1b[1mdns apply: OK\x1b[0m\n")
    lines = [re.sub(r"\x1b\[[\d;]*m", "", line) for line in applied.stdout.splitlines()]
    plain = dns(run, lab, "verify", "--resolvers", "all")
    assert "\x1b[" not in plain.stdout  # not a terminal, not asked: no colour
    coloured = dns(run, lab, "verify", "--resolvers", "all", "--color", "always")
    assert re.sub(r"\x1b\[[\d;]*m", "", coloured.stdout) == plain.stdout  # same columns
    assert "\x1b[32mok\x1b[0m" in coloured.stdout
    sandbox.stop(lab.instances["ns-ana2"].folder)
    down = dns(run, lab, "verify", "--resolvers", "all", "--color", "always")
    assert "\x1b[31m\x1b[1mDOWN\x1b[0m" in down.stdout
    assert down.stdout.endswith("\x1b[31m\x1b[1mdns verify: FAILED on ns-ana2\x1b[0m\n")
    assert lines[0].split() == ["resolver", "target", "result", "steps"]


def test_a_resolvers_file_replaces_the_inventorys_list(run, lab, tmp_path: Path) -> None:
    # A lab's or a staging fleet's list: the inventory's own resolvers.yaml names no reachable one.
    listed = lab.inventory / "resolvers.yaml"
    elsewhere = tmp_path / "lab-resolvers.yaml"
    elsewhere.write_bytes(listed.read_bytes())
    listed.write_text(listed.read_text().replace('"port": ', '"port": 1, "was": '))
    assert dns(run, lab, "plan", "--resolvers", "all").exit_code == 2  # the broken list is read
    applied = dns(run, lab, "apply", "--resolvers", "all", "--resolvers-file", str(elsewhere))
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    assert dns(run, lab, "verify", "--resolvers", "ns-fv", "--resolvers-file", str(elsewhere)).exit_code == 0
    missing = dns(run, lab, "plan", "--resolvers", "all", "--resolvers-file", str(tmp_path / "nope.yaml"))
    assert missing.exit_code == 2
    assert missing.stderr == f"renamer: error: --resolvers-file {tmp_path / 'nope.yaml'}: file not found\n"
