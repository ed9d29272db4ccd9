"""Refusals and collisions give their exit code, the dry run's included (issue 33, f25 item 2).

DESIGN: a dry run is a preview and exits 0; a sweep that writes exits 3 where it refuses and 1 where
it leaves work. Before, `sweep --dry-run` with a shrink refusal exited 0 and said so only in the
summary (gone under `-q`; `--format json` printed it on stdout only), while `sweep --commit` exited 3;
and a sweep that writes never read the collisions at all: a grown network swallowing a VLAN in a
YAML file was committed, exit 0, not a word, where `verify --strict` then failed. Now the dry run
says every refusal on stderr whatever the format or `-q`, `--strict` makes it exit 3 (refused) or 1
(work left, or a collision verify --strict fails on), and a sweep that writes lists its collisions
(exit 1 with `--strict` where verify --strict would fail).
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.testing.findings import networks_config as _config
from tests.testing.repos import Repo, Run, make_repo, snapshot

ALLOW = 'version: 1\ncurrent: ["**"]\n'


SHRINK = _config("10.0.48.0/28: 10.0.48.0/29")
REFUSAL = "a.yml:1: outside the new, smaller network: 10.0.48.12 lies 12 addresses into 10.0.48.0/28"


def test_a_dry_run_says_each_refusal_on_stderr_and_strict_exits_3(repo: Repo, run: Run) -> None:
    root = repo({"a.yml": "printer: 10.0.48.12\n", "b.yml": "gw: 10.0.48.1\n"}, config=SHRINK, allowlist=ALLOW)
    before = snapshot(root)
    for args in (("--dry-run",), ("--dry-run", "-q"), ("--dry-run", "--format", "json")):
        done = run(root, "sweep", *args)
        assert done.exit_code == 0, (args, done.stdout + done.stderr)  # DESIGN: a preview
        assert "renamer: warning: a sweep that writes would refuse (exit 3), nothing written" in done.stderr, args
        assert REFUSAL in done.stderr, (args, done.stderr)
    data = json.loads(run(root, "sweep", "--dry-run", "--format", "json").stdout)
    assert [(r["path"], r["line"]) for r in data["refused"]] == [("a.yml", 1)]
    strict = run(root, "sweep", "--dry-run", "--strict", "--format", "json")
    assert strict.exit_code == 3, strict.stdout + strict.stderr
    assert "renamer: error: a sweep that writes would refuse (exit 3)" in strict.stderr
    assert json.loads(strict.stdout)["refused"]  # JSON still printed whole
    committed = run(root, "sweep", "--commit")
    assert committed.exit_code == 3, committed.stdout + committed.stderr
    assert snapshot(root) == before


def test_strict_dry_run_exits_as_the_sweep_that_writes_would(repo: Repo, run: Run, tmp_path: Path) -> None:
    """Work left (a residual): the dry run --strict exits 1, as `sweep --commit` then does; nothing
    left: both 0."""
    files = {"s.sh": "ping -c1 10.0.48.${N}\n", "a.yml": "gw: 10.0.48.1\n"}
    root = repo(files, config=_config("10.0.48.0/24: 10.0.49.0/24"), allowlist=ALLOW)
    assert run(root, "sweep", "--dry-run").exit_code == 0
    strict = run(root, "sweep", "--dry-run", "--strict")
    assert strict.exit_code == 1, strict.stdout + strict.stderr
    assert "renamer: --strict: 1 reference left for a decision" in strict.stderr
    assert run(root, "sweep", "--commit").exit_code == 1
    clean = make_repo(tmp_path / "clean", {"a.yml": "gw: 10.0.48.1\n"}, config=_config("10.0.48.0/24: 10.0.49.0/24"),
                      allowlist=ALLOW)
    assert run(clean, "sweep", "--dry-run", "--strict").exit_code == 0
    assert run(clean, "sweep", "--commit", "--strict").exit_code == 0


SWALLOW = {"lan.yml": "lan: 10.9.0.1/24\n", "iot.yml": "iot: 10.10.1.1/24\n"}
GROW = _config("10.9.0.0/24: 10.10.0.0/23")


def test_a_sweep_that_writes_lists_the_collisions_and_strict_fails_on_them(repo: Repo, run: Run,
                                                                            tmp_path: Path) -> None:
    root = repo(SWALLOW, config=GROW, allowlist=ALLOW)
    dry = run(root, "sweep", "--dry-run")
    assert dry.exit_code == 0
    assert "renamer: warning: 1 collision: new values already there (1 that `renamer verify --strict` fails on)" \
        in dry.stderr, dry.stderr
    assert run(root, "sweep", "--dry-run", "--strict").exit_code == 1
    done = run(root, "sweep", "--commit")  # before: exit 0 and not a word of the VLAN it swallows
    assert done.exit_code == 0, done.stdout + done.stderr
    assert "iot.yml:1:6 [iot]: warning: collision: 10.10.1.1 is already here, inside 10.10.0.0/23" in done.stdout
    assert "renamer: warning: 1 collision" in done.stderr
    assert run(root, "verify", "--strict").exit_code == 1
    again = make_repo(tmp_path / "again", SWALLOW, config=GROW, allowlist=ALLOW)
    strict = run(again, "sweep", "--commit", "--strict")
    assert strict.exit_code == 1, strict.stdout + strict.stderr
    assert "renamer: --strict: 1 collision `renamer verify --strict` fails on (listed above)" in strict.stderr
    assert (again / "lan.yml").read_text() == "lan: 10.10.0.1/23\n"  # written, as verify --strict then fails


def test_a_json_sweep_that_writes_carries_its_collisions(repo: Repo, run: Run) -> None:
    root = repo(SWALLOW, config=GROW, allowlist=ALLOW)
    data = json.loads(run(root, "sweep", "--commit", "--format", "json").stdout)
    assert [(c["path"], c["line"], c["value"]) for c in data["collisions"]] == [("iot.yml", 1, "10.10.1.1")]
