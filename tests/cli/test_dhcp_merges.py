"""A DHCP merge dnsmasq would refuse (issue 27 round 3, break-it item 2): two dhcp-host lines that
a listed merge (renames.merges) makes share an address or a name are refused like two ssh Host
blocks, naming both lines; `dnsmasq --test` proves what the refusal spares and what a merge that
collides nowhere writes."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import git, snapshot

ALLOW = "version: 1\ncurrent: ['**']\n"
CONFIG = ("version: 1\nname: merge\ncutover: 2026-10-05\nrenames:\n  hosts: {web01: app01, web02: app01}\n"
          "  addresses: {10.0.0.71: 10.0.0.80, 10.0.0.72: 10.0.0.80}\n"
          "  merges: {app01: [web01, web02], 10.0.0.80: [10.0.0.71, 10.0.0.72]}\nallowlist: allow.yaml\n")
RANGE = "dhcp-range=10.0.0.50,10.0.0.150\n"


def _dnsmasq_test(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["dnsmasq", "--test", "-C", str(path)], capture_output=True, text=True, check=False)


@pytest.mark.parametrize("text, line, says, dnsmasq_refuses", [
    pytest.param(RANGE + "dhcp-host=aa:bb:cc:dd:ee:01,web01,10.0.0.71\ndhcp-host=aa:bb:cc:dd:ee:02,web02,10.0.0.72\n",
                 2, "web01 (line 2) and web02 (line 3) are merged into app01: both would become the dhcp-host name "
                 "app01", True, id="report-name-and-address"),
    pytest.param(RANGE + "dhcp-host=aa:bb:cc:dd:ee:01,gpu1,10.0.0.71\n# spare\ndhcp-host=aa:bb:cc:dd:ee:02,gpu2,10.0.0.72\n",
                 2, "10.0.0.71 (line 2) and 10.0.0.72 (line 4) are merged into 10.0.0.80: both would become the "
                 "dhcp-host address 10.0.0.80", True, id="address-only"),
    pytest.param(RANGE + "dhcp-host=10.0.0.71,aa:bb:cc:dd:ee:01,set:gpu,gpu1,12h\n"
                 "dhcp-host=id:01:02:03,gpu2,10.0.0.72,infinite\n",
                 2, "both would become the dhcp-host address 10.0.0.80", True, id="fields-in-any-order"),
    pytest.param(RANGE + "dhcp-host=aa:bb:cc:dd:ee:01,10.0.0.71\ndhcp-host=aa:bb:cc:dd:ee:01,10.0.0.72\n",
                 2, "both would become the dhcp-host address 10.0.0.80", True, id="one-client-two-lines"),
    pytest.param(RANGE + "dhcp-host=aa:bb:cc:dd:ee:01,web01,10.0.0.10\ndhcp-host=aa:bb:cc:dd:ee:02,web02,10.0.0.20\n",
                 2, "both would become the dhcp-host name app01", False, id="name-only"),
])
def test_dhcp_hosts_a_merge_would_collide_are_refused(text: str, line: int, says: str, dnsmasq_refuses: bool,
                                                      tmp_path: Path,
                                                      repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"dnsmasq.conf": text, "notes.env": "HOST=web01\n"}, config=CONFIG, allowlist=ALLOW)
    before, head = snapshot(root), git(root, "rev-parse", "HEAD")
    dry = run(root, "sweep", "--dry-run", "--format", "json")
    listed = json.loads(dry.stdout)["refused"]
    assert [(r["path"], r["line"]) for r in listed] == [("dnsmasq.conf", line)], dry.stdout
    assert says in listed[0]["problem"]
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3 and done.stderr.startswith("renamer: error: 1 file would no longer parse")
    assert says in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert snapshot(root) == before and git(root, "rev-parse", "HEAD") == head
    # What the refusal spares: every edit made, the file dnsmasq refuses (or two leases under one name).
    merged = tmp_path / "merged.conf"
    merged.write_text(text.replace("web01", "app01").replace("web02", "app01")
                      .replace("10.0.0.71", "10.0.0.80").replace("10.0.0.72", "10.0.0.80"))
    checked = _dnsmasq_test(merged)
    # dnsmasq refuses a duplicate address; two leases under one name it takes, silently.
    assert (checked.returncode != 0) == dnsmasq_refuses, checked.stderr
    if dnsmasq_refuses:
        assert "duplicate dhcp-host IP address 10.0.0.80" in checked.stderr
    assert _dnsmasq_test(root / "dnsmasq.conf").returncode == 0  # what stands is still good


def test_a_merge_that_collides_nowhere_writes_a_config_dnsmasq_accepts(repo: Callable[..., Path],
                                                                      run: Callable[..., Result]) -> None:
    text = RANGE + "dhcp-host=aa:bb:cc:dd:ee:01,web01,10.0.0.71\nhost-record=web02.lan,10.0.0.72\n"
    root = repo({"dnsmasq.conf": text}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    after = (root / "dnsmasq.conf").read_text()
    assert "app01,10.0.0.80" in after and "host-record=app01.lan,10.0.0.80" in after
    checked = _dnsmasq_test(root / "dnsmasq.conf")
    assert checked.returncode == 0, checked.stderr
