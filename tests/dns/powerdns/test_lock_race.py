"""X-RENAMER-LOCK between two `renamer dns apply` processes at once on one PowerDNS zone, as two
operators on two machines (two inventories, two backup_dirs: their lock files never meet; only the
zone's metadata does), against a real pdns_server on loopback. A proxy holds the winner's PATCH, so
it holds the lock while the other asks for it: exactly one applies, the other refuses (exit 3, one
line naming the winner's pid). With a lock left by an apply provably gone on this machine, both
judge it stale and race to take it over: still exactly one wins (the compare-and-set of ops.take;
before it, each replaced the list with its own entry, and both went on)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from renamer.dns import lock as local_lock
from renamer.dns.powerdns import ops
from renamer.dns.powerdns.api import Client
from renamer.shipped import shipped
from tests.testing import powerdns

ZONES = ("fv.lan.", "251.10.in-addr.arpa.")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[powerdns.Server]:
    started = powerdns.start(tmp_path / "pdns")
    try:
        for zone in ZONES:
            started.create_zone(zone)
        yield started
    finally:
        started.stop()


def operator(root: Path, server: powerdns.Server, api: str) -> Path:
    """An operator's repo: fv's site, a resolvers.yaml for the server (through `api`), their own key
    file and backup_dir."""
    (root / "dns" / "sites").mkdir(parents=True)
    shutil.copy(shipped("dns") / "sites" / "fv.yaml", root / "dns" / "sites" / "fv.yaml")
    key = root / "pdns.key"
    key.write_text(powerdns.KEY + "\n")
    key.chmod(0o600)
    entry = {"name": "ns-pdns", "address": server.address, "port": server.port, "backend": "powerdns",
             "api": api, "api_key_file": str(key), "backup_dir": str(root / "backups"), "timeout": 0.5}
    (root / "dns" / "resolvers.yaml").write_text(f"resolvers:\n  - {json.dumps(entry)}\n")
    return root


def apply(root: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "renamer", "--repo", str(root), "dns", "apply", "--resolvers",
                             "all", "--inventory", str(root / "dns")], cwd=root, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def gone_entry() -> str:
    """A lock entry of an apply on this machine and boot whose process has ended."""
    dead = subprocess.Popen(["true"])
    dead.wait()
    return json.dumps(dict(json.loads(local_lock._holder()), pid=dead.pid, pid_start="1"))


@pytest.mark.parametrize("stale", [False, True], ids=["free", "left-by-a-killed-apply"])
def test_two_applies_at_once_exactly_one_wins_the_other_names_it(server: powerdns.Server, tmp_path: Path,
                                                                   stale: bool) -> None:
    client = server.client()
    for round_ in range(2):
        left = gone_entry() if stale else None
        for zone in ZONES:
            client.set_metadata(zone, [left] if left else [])
        # the winner's first PATCH waits for release; what each reads of the lock is a second old
        proxy = powerdns.Proxy(server.url, "hold", lock_delay=1.0)
        try:
            roots = [operator(tmp_path / f"round{round_}" / name, server, proxy.url) for name in ("alice", "bob")]
            if round_:  # the records are there from round 0: move the gateway, so that there is a PATCH
                for root in roots:
                    site = root / "dns" / "sites" / "fv.yaml"
                    site.write_text(site.read_text().replace("address: 10.251.0.1", "address: 10.251.0.2"))
            processes = [apply(root) for root in roots]
            assert proxy.held.wait(120), "\n".join(p.communicate()[1] for p in processes)
            end = time.monotonic() + 120
            while all(p.poll() is None for p in processes) and time.monotonic() < end:
                time.sleep(0.1)  # the loser's refusal, while the winner waits on its PATCH
            losers = [p for p in processes if p.poll() is not None]
            assert len(losers) == 1, "both ended while one held its PATCH"
        finally:
            proxy.release.set()
        outs = [p.communicate(timeout=120) for p in processes]
        proxy.stop()
        codes = sorted(p.returncode for p in processes)
        assert codes == [0, 3], [o[1] for o in outs]
        winner = next(p for p in processes if p.returncode == 0)
        stderr = outs[processes.index(losers[0])][1]
        errors = [line for line in stderr.splitlines() if line.startswith("renamer: error: ")]
        assert len(errors) == 1 and "is locked (metadata X-RENAMER-LOCK) by" in errors[0], stderr
        assert f" pid {winner.pid}," in errors[0] and "nothing written" in errors[0], errors[0]
        left_there = {zone: client.metadata(zone) for zone in ZONES}
        assert left_there == {zone: [] for zone in ZONES}, left_there  # the winner's given back, the stale gone
        want = "10.251.0.2" if round_ else "10.251.0.1"
        assert [rr["records"][0]["content"] for rr in client.zone("fv.lan.")["rrsets"]
                if rr["name"] == "fv-gw.fv.lan." and rr["type"] == "A"] == [want]


def test_take_refuses_behind_a_live_entry_and_holds_behind_a_gone_one(server: powerdns.Server) -> None:
    """The rule itself, one zone: an apply holds when its entry is there with no live entry before
    it; a gone holder's entry is taken out by the compare-and-set; a live one (here: this very
    process, as another operator's apply) is never dropped."""
    client = Client(server.url, powerdns.KEY)
    other = ops.entry(local_lock._holder().decode())  # this process: live
    mine = ops.entry(local_lock._holder().decode())
    assert other != mine  # the nonce: two applies never write the same entry
    client.set_metadata("fv.lan.", [other])
    with pytest.raises(Exception, match="is locked"):
        ops.take(client, "fv.lan.", mine, [])
    assert client.metadata("fv.lan.") == [other]  # nothing of this apply's left, the other's kept
    left = gone_entry()
    client.set_metadata("fv.lan.", [left])
    notes: list[str] = []
    ops.take(client, "fv.lan.", mine, notes)
    assert client.metadata("fv.lan.") == [mine] and "took over the lock of" in notes[0]
    client.add_metadata("fv.lan.", other)  # one who came after: this apply still holds
    ops.confirm(client, ["fv.lan."], mine, delay=0)
    ops.give_back(client, ["fv.lan."], mine)
    assert client.metadata("fv.lan.") == [other]
