"""Issue 33's "done when", end to end: the fv move of the seeds as a network move
(`10.250.0.0/16 -> 10.251.0.0/16`), and a length change (`192.168.40.0/24 -> 192.168.40.0/22`) on a
generated homelab repo (benchmarks/generate.py)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from benchmarks.generate import generate
from renamer.shipped import build_example
from tests.testing.repos import Run, git


def _commit(root: Path, message: str) -> None:
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)


def test_the_fv_move_of_the_seeds_as_a_network_move(tmp_path: Path, run: Run) -> None:
    root = build_example(tmp_path / "fv")
    config = (root / "renamer.yaml").read_text()
    addresses = "  addresses:\n    10.250.50.54: 10.251.50.54\n    10.250.50.55: 10.251.50.55\n"
    assert addresses in config
    (root / "renamer.yaml").write_text(config.replace(addresses, "  networks:\n    10.250.0.0/16: 10.251.0.0/16\n"))
    _commit(root, "the move as a network move")
    shown = run(root, "sweep", "--dry-run")
    assert "  10.250.0.0/16 -> 10.251.0.0/16: rename 250.10.in-addr.arpa -> 251.10.in-addr.arpa" in shown.stdout
    assert "  10.250.20.10 -> 10.251.20.10: 1" in shown.stdout  # ana-nas: the whole network moves
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert "10.251.50.54" in (root / "stacks/meromero-charrp/.env").read_text()
    assert "ansible_host=10.251.50.55" in (root / "playbooks/inventory.ini").read_text()
    assert "ana-ml20 ansible_host=10.250.50.540" in (root / "playbooks/inventory.ini").read_text()  # no address
    assert "10.250.50.55" in (root / "incidents/2026-09-28-bmc-vlan.md").read_text()  # a record keeps it
    checked = run(root, "verify")
    assert checked.exit_code == 0, checked.stdout
    assert "would change 0 files" in run(root, "sweep", "--dry-run").stdout


_ADDRESSES = re.compile(rb"192\.168\.[0-9]{1,3}\.[0-9]{1,3}(?![0-9])")
_LENGTHED = re.compile(rb"192\.168\.40\.[0-9]{1,3}/(?:22|24)(?![0-9])")


def test_a_length_change_on_a_generated_homelab(tmp_path: Path, run: Run) -> None:
    """The homelab shape, its 192.168.1.x on 192.168.40.x, grown to a /22 in place: every `/24` after
    an address of the network in a current-state file becomes `/22`, the addresses stay, records and
    other networks keep theirs, and a second sweep finds nothing."""
    root = tmp_path / "homelab"
    generate(root, 240, seed=3, shape="homelab")
    for path in root.rglob("*"):
        if path.is_file() and ".git" not in path.parts:
            data = path.read_bytes()
            if b"192.168.1." in data:
                path.write_bytes(data.replace(b"192.168.1.", b"192.168.40."))
    (root / "renamer.yaml").write_text("version: 1\nname: homelab-grow\ncutover: 2026-10-05\nrenames:\n"
                                       "  hosts:\n    pve2: pve-b2\n    nas: tank\n"
                                       "  networks:\n    192.168.40.0/24: 192.168.40.0/22\nallowlist: allowlist.yaml\n")
    allow = (root / "allowlist.yaml").read_text()
    (root / "allowlist.yaml").write_text(allow.replace("conf/**]", "conf/**, vendor/**]"))
    _commit(root, "a homelab on 192.168.40.0/24")
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file() and ".git" not in p.parts}
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout[-3000:] + done.stderr
    assert "add 41.168.192.in-addr.arpa, 42.168.192.in-addr.arpa, 43.168.192.in-addr.arpa" in done.stdout
    grown = kept = 0
    for path, old in before.items():
        new = path.read_bytes()
        rel = path.relative_to(root).as_posix()
        if rel in ("renamer.yaml", "allowlist.yaml"):
            continue
        if rel.startswith(("notes/", "incidents/")) or path.suffix == ".bin":
            assert new == old, rel  # records (and binary files) keep every old value
            kept += len(_LENGTHED.findall(new))
            continue
        # the addresses stay; only the length after one of the network's changes
        assert _ADDRESSES.findall(new) == _ADDRESSES.findall(old), rel
        assert not re.search(rb"192\.168\.40\.[0-9]{1,3}/24(?![0-9])", new), rel
        grown += new.count(b"/22")
        assert re.findall(rb"192\.168\.(?:0|10|20|178)\.[0-9]+/24", new) == \
            re.findall(rb"192\.168\.(?:0|10|20|178)\.[0-9]+/24", old), rel  # other networks keep theirs
    assert grown > 50 and kept > 0
    checked = run(root, "verify")
    assert checked.exit_code == 0, checked.stdout[-3000:]
    assert "would change 0 files" in run(root, "sweep", "--dry-run").stdout
    status = subprocess.run(["git", "-C", str(root), "status", "--porcelain"], capture_output=True, text=True)
    assert status.stdout == ""
