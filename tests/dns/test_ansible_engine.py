"""Every path of `dns apply --engine ansible` with the real ansible-playbook against real dnsmasq
resolvers (ansible_connection=local, loopback ports), asserted by asking the resolvers over DNS:
a failed test never restarts, a snippet over the argv limit, --diff and the restart handler of
the exported playbook, --retire-stale, --plan, --rollback and --resume."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from dns import message as dns_message
from dns import query as dns_query
from dns import rcode as dns_rcode
from tests.testing.resolvers import Lab, addresses, broken_test, dns, move_gateway, playbook_by_hand

TWO = ("ns-e1", "ns-e2")
OLD, NEW = ("10.251.0.1",), ("10.251.0.2",)  # fv-gw before and after move_gateway


def _rcode(lab: Lab, resolver: str, name: str) -> str:
    instance = lab.instances[resolver]
    response = dns_query.udp(dns_message.make_query(name, "A"), instance.address, port=instance.port, timeout=2.0)
    return str(dns_rcode.to_text(response.rcode()))


def test_a_failed_test_never_restarts_the_resolver(run, pair) -> None:  # type: ignore[no-untyped-def]
    """C3: the host whose test failed keeps running (same pid, old answers); the other host of its
    batch, which was restarted, is restored and restarted."""
    assert dns(run, pair, "apply", "--resolvers", "all").exit_code == 0
    move_gateway(pair)
    pair.write_resolvers(**broken_test(pair, "ns-e2"))
    pids = pair.pids()
    result = dns(run, pair, "apply", "--resolvers", "all", "--engine", "ansible", "--batch-size", "2")
    assert result.exit_code == 1, result.stdout + result.stderr
    assert pair.pids()["ns-e2"] == pids["ns-e2"], "the resolver whose test failed was restarted"
    assert pair.pids()["ns-e1"] != pids["ns-e1"]  # applied, then rolled back: restarted twice
    assert addresses(pair, "fv-gw.fv.lan.") == {"ns-e1": OLD, "ns-e2": OLD}
    assert "not restarted (it never was)" in result.stdout
    assert "rollback FAILED" not in result.stdout


# Names as long as DNS allows (a 63-byte label, a 253-byte name): a snippet line is ~340 bytes,
# so a few hundred hosts cross the limit, where short names took thousands (each one resolved
# and verified: the size is what this proves, not the count).
BULK_DOMAIN = ".".join(f"{part}-" + "l" * (60 - len(part)) for part in ("bulk", "argv", "limit")) + ".lan"
BULK = 420


def _bulk_host(i: int) -> str:
    return f"bulk-host-{i:04d}-" + "h" * 48


def test_a_snippet_over_the_argv_limit_is_applied(run, pair) -> None:  # type: ignore[no-untyped-def]
    """A site of 420 hosts of the longest names (a snippet over Linux's 128 KiB cap on one
    argument) goes through `copy`, never a command line; a change to it activates and a failure
    rolls it back."""
    hosts = "".join(f"  - name: {_bulk_host(i)}\n    address: 10.252.{i // 250}.{i % 250 + 1}\n"
                    for i in range(BULK))
    (pair.inventory / "sites" / "bulk.yaml").write_text(
        f"site: bulk\ndomain: {BULK_DOMAIN}\nnetwork: 10.252.0.0/16\nhosts:\n{hosts}")
    last = f"{_bulk_host(BULK - 1)}.{BULK_DOMAIN}."
    assert len(last) == 254 and len(last.split(".")[0]) == 63  # the longest a name and a label can be
    result = dns(run, pair, "apply", "--resolvers", "all", "--engine", "ansible", "--batch-size", "2")
    assert result.exit_code == 0, result.stdout[-3000:] + result.stderr[-3000:]
    sizes = {name: (i.snippet_dir / "renamer-bulk.conf").stat().st_size for name, i in pair.instances.items()}
    assert min(sizes.values()) > 128 * 1024, sizes
    assert addresses(pair, last) == {name: ("10.252.1.170",) for name in TWO}
    assert addresses(pair, "fv-gw.fv.lan.") == {name: OLD for name in TWO}
    # A change to the big snippet, failing on one host: both are put back (the backup holds it).
    path = pair.inventory / "sites" / "bulk.yaml"
    path.write_text(path.read_text().replace("address: 10.252.1.170", "address: 10.252.1.200"))
    before = pair.snippets()
    pair.write_resolvers(**broken_test(pair, "ns-e2"))
    failed = dns(run, pair, "apply", "--resolvers", "all", "--engine", "ansible", "--batch-size", "2")
    assert failed.exit_code == 1 and "rollback FAILED" not in failed.stdout, failed.stdout[-3000:]
    assert pair.snippets() == before
    assert addresses(pair, last) == {name: ("10.252.1.170",) for name in TWO}


def test_the_exported_playbook_shows_its_diff_and_restarts_through_a_handler(
        run, pair, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert dns(run, pair, "apply", "--resolvers", "all").exit_code == 0
    move_gateway(pair)
    folder = tmp_path / "export"
    assert dns(run, pair, "export", "ansible", "--out", str(folder)).exit_code == 0
    pids = pair.pids()
    done = playbook_by_hand(folder, "--diff")  # a real run, not --check
    assert done.returncode == 0, done.stdout[-3000:]
    assert [line for line in done.stdout.splitlines() if line.startswith("-") and "10.251.0.1" in line]
    assert [line for line in done.stdout.splitlines() if line.startswith("+") and "10.251.0.2" in line]
    assert "RUNNING HANDLER [Apply | restart the resolver]" in done.stdout
    assert addresses(pair, "fv-gw.fv.lan.") == {name: NEW for name in TWO}
    assert all(pair.pids()[name] != pids[name] for name in TWO)
    again = playbook_by_hand(folder, "--diff")
    assert again.returncode == 0 and "RUNNING HANDLER" not in again.stdout, again.stdout[-3000:]


def _hand_file(lab: Lab, resolver: str) -> Path:
    """A hand-written line keeping the retired ana-ml2 alive on one resolver."""
    path = lab.instances[resolver].snippet_dir / "50-legacy.conf"
    path.write_text("# kept by hand\nhost-record=ana-ml2,ana-ml2.ana.lan,10.250.50.54\n")
    path.chmod(0o640)
    return path


def test_retire_stale_and_a_reviewed_plan(run, pair, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert dns(run, pair, "apply", "--resolvers", "all").exit_code == 0
    # The hand file, written after the apply, is read only on the next restart: restart it now.
    hand = _hand_file(pair, "ns-e2")
    subprocess.run(pair.instances["ns-e2"].reload_command(), check=True)
    assert _rcode(pair, "ns-e2", "ana-ml2.ana.lan.") == "NOERROR"
    move_gateway(pair)
    reviewed = dns(run, pair, "plan", "--resolvers", "all", "--retire-stale", "--format", "json")
    assert reviewed.exit_code == 0, reviewed.stderr
    plan_file = tmp_path / "plan.json"
    plan_file.write_text(reviewed.stdout)
    assert str(hand) in json.dumps(json.loads(reviewed.stdout)["resolvers"])
    # A failure on the other host rolls the batch back: the hand file too, byte for byte, mode kept.
    original = hand.read_bytes()
    pair.write_resolvers(**broken_test(pair, "ns-e1"))
    failed = dns(run, pair, "apply", "--plan", str(plan_file), "--retire-stale", "--engine", "ansible",
                 "--batch-size", "2")
    assert failed.exit_code == 1 and "rollback FAILED" not in failed.stdout, failed.stdout[-3000:]
    assert hand.read_bytes() == original and hand.stat().st_mode & 0o777 == 0o640
    assert _rcode(pair, "ns-e2", "ana-ml2.ana.lan.") == "NOERROR"
    assert addresses(pair, "fv-gw.fv.lan.") == {name: OLD for name in TWO}
    pair.write_resolvers()
    applied = dns(run, pair, "apply", "--plan", str(plan_file), "--retire-stale", "--engine", "ansible")
    assert applied.exit_code == 0, applied.stdout[-3000:] + applied.stderr[-2000:]
    assert {name: _rcode(pair, name, "ana-ml2.ana.lan.") for name in TWO} == {n: "NXDOMAIN" for n in TWO}
    assert addresses(pair, "fv-gw.fv.lan.") == {name: NEW for name in TWO}
    assert "# retired by `renamer dns apply --retire-stale`" in hand.read_text()
    assert hand.stat().st_mode & 0o777 == 0o640
    # The plan reviewed before is spent: the resolvers changed since, so it is refused.
    stale = dns(run, pair, "apply", "--plan", str(plan_file), "--engine", "ansible")
    assert stale.exit_code == 3 and "differs from the reviewed plan" in stale.stderr, stale.stderr


def _half_done(lab: Lab, resolver: str, stamp: str) -> None:
    """What an apply killed after its write and restart leaves, as both engines write it: the
    backup folder (snippets saved, ABSENT), the half-done mark, new snippets served."""
    instance = lab.instances[resolver]
    backup = lab.root / "backups" / resolver
    folder = backup / f"{resolver}-{stamp}"
    folder.mkdir(parents=True)
    for snippet in instance.snippet_dir.glob("renamer-*.conf"):
        (folder / snippet.name).write_bytes(snippet.read_bytes())
    (folder / "ABSENT").write_text("# snippets that did not exist before this apply\n")
    (backup / "renamer-apply-pending").write_text(f"{folder}\n{stamp}\n")
    fv = instance.snippet_dir / "renamer-fv.conf"
    fv.write_text(fv.read_text().replace("10.251.0.1", "10.251.0.2"))
    subprocess.run(instance.reload_command(), check=True)


def test_rollback_and_resume_after_a_killed_apply(run, pair) -> None:  # type: ignore[no-untyped-def]
    assert dns(run, pair, "apply", "--resolvers", "all").exit_code == 0
    before = pair.snippets()
    move_gateway(pair)
    _half_done(pair, "ns-e1", "29991201T100000.000000Z")  # later than the apply above
    assert addresses(pair, "fv-gw.fv.lan.") == {"ns-e1": NEW, "ns-e2": OLD}
    refused = dns(run, pair, "apply", "--resolvers", "all", "--engine", "ansible")
    assert refused.exit_code == 3 and "--resume" in refused.stderr
    rolled = dns(run, pair, "apply", "--resolvers", "all", "--engine", "ansible", "--rollback")
    assert rolled.exit_code == 0, rolled.stdout + rolled.stderr
    assert "ns-e1" in rolled.stdout and "rolled back" in rolled.stdout
    assert pair.snippets() == before
    assert addresses(pair, "fv-gw.fv.lan.") == {name: OLD for name in TWO}
    _half_done(pair, "ns-e2", "29991201T110000.000000Z")
    resumed = dns(run, pair, "apply", "--resolvers", "all", "--engine", "ansible", "--resume")
    assert resumed.exit_code == 0, resumed.stdout + resumed.stderr
    assert addresses(pair, "fv-gw.fv.lan.") == {name: NEW for name in TWO}
    assert not (pair.root / "backups" / "ns-e2" / "renamer-apply-pending").exists()
