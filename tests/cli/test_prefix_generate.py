"""BIND `$GENERATE` lines under a shrink (t36-33 finding 16), end to end on real git repos: a range
whose hosts the new, smaller network cannot hold refuses the sweep (exit 3, nothing written), as the
same hosts written one by one do, naming the range and how many lie outside; a range the new network
holds is written as before, and named-checkzone loads what the sweep wrote.
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

from tests.testing.findings import networks_config as _config
from tests.testing.repos import Run, make_repo, snapshot

ALLOW = 'version: 1\ncurrent: ["**"]\n'
HEAD = "$TTL 3600\n@ IN SOA ns root 1 2 3 4 5\n@ IN NS ns\nns IN A 192.0.2.1\n"


def _repo(tmp: Path, files: dict[str, str], networks: str) -> Path:
    return make_repo(Path(tempfile.mkdtemp(dir=tmp)) / "repo", files, config=_config(networks), allowlist=ALLOW)


def _loads(zone: str, path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["named-checkzone", zone, str(path)], capture_output=True, text=True, check=False)


def test_a_generate_range_a_shrink_cannot_place_refuses_the_sweep(run: Run, tmp_path: Path) -> None:
    """The finding's A line, its reverse PTR line, an `${offset}` template, a stepped range, an
    AAAA line in hex nibbles (`${0,4,x}`) under an IPv6 shrink, and a shrink that also moves the
    network: each refused, naming its range and the count outside; nothing written."""
    cases = {
        "db.lab": (HEAD + "$GENERATE 100-200 dyn-$ A 192.168.40.$\n", "lab",
                   "db.lab:5: outside the new, smaller network: $GENERATE 100-200 makes 73 addresses of "
                   "192.168.40.0/24 (the iterator at 128-200)"),
        "db.40.168.192": ("$ORIGIN 40.168.192.in-addr.arpa.\n" + HEAD + "$GENERATE 100-200 $ PTR dyn-$.lab.\n",
                          "40.168.192.in-addr.arpa",
                          "db.40.168.192:6: outside the new, smaller network: $GENERATE 100-200 makes 73 addresses"),
        "db.offset": (HEAD + "$GENERATE 1-20 pool-$ A 192.168.40.${120}\n", "offset",
                      "db.offset:5: outside the new, smaller network: $GENERATE 1-20 makes 13 addresses of "
                      "192.168.40.0/24 (the iterator at 8-20)"),
        "db.step": (HEAD + "$GENERATE 0-254/10 s-$ A 192.168.40.$\n", "step",
                    "db.step:5: outside the new, smaller network: $GENERATE 0-254/10 makes 13 addresses"),
        "db.v6": (HEAD + "$GENERATE 65280-65300 v6-$ AAAA 2001:db8:a::${0,4,x}\n", "v6",
                  "db.v6:5: outside the new, smaller network: $GENERATE 65280-65300 makes 21 addresses of "
                  "2001:db8:a::/112"),
    }
    files = {name: text for name, (text, _zone, _said) in cases.items()}
    for name, (_text, zone, _said) in cases.items():  # each zone loads as written
        (tmp_path / name).write_text(files[name])
        assert _loads(zone, tmp_path / name).returncode == 0, (name, _loads(zone, tmp_path / name).stdout)
    for name, (_text, _zone, said) in cases.items():
        root = _repo(tmp_path, {name: files[name]},
                     '192.168.40.0/24: 192.168.40.0/25, "2001:db8:a::/112": "2001:db8:a::/120"')
        snap = snapshot(root)
        done = run(root, "sweep", "--commit")
        assert done.exit_code == 3, (name, done.stdout, done.stderr)
        assert said in done.stderr, (name, done.stderr)
        assert snapshot(root) == snap
    moved = _repo(tmp_path, {"db.lab": cases["db.lab"][0]}, "192.168.40.0/24: 10.9.8.0/25")
    done = run(moved, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert "$GENERATE 100-200 makes 73 addresses of 192.168.40.0/24" in done.stderr, done.stderr


def test_a_generate_range_the_new_network_holds_is_no_refusal(run: Run, tmp_path: Path) -> None:
    """Control: `$GENERATE 10-100` fits the /25; the sweep goes on (the template is said as before, never
    refused for a place it has) and named-checkzone loads the zone it leaves."""
    text = HEAD + "gw IN A 192.168.40.1\n$GENERATE 10-100 dyn-$ A 192.168.40.$\n"
    root = _repo(tmp_path, {"db.lab": text, "l.yml": "lan: 192.168.40.0/24\n"}, "192.168.40.0/24: 192.168.40.0/25")
    done = run(root, "sweep", "--commit")
    assert done.exit_code in (0, 1), done.stdout + done.stderr
    assert "outside-prefix" not in done.stdout + done.stderr
    assert "outside the new, smaller network" not in done.stdout + done.stderr
    assert (root / "l.yml").read_text() == "lan: 192.168.40.0/25\n"
    checked = _loads("lab", root / "db.lab")
    assert checked.returncode == 0, checked.stdout
