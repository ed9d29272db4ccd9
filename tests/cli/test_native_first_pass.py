"""The native first pass changes nothing a user sees: the corpus differential, end to end.

`sweep --dry-run` (diff and JSON), `verify`, `verify --strict` and `audit --format json` print the
same bytes and exit alike with `RENAMER_NATIVE=0` (the pure-Python pass, the reference) and
`RENAMER_NATIVE=1`, over the example repo, the fixture repo of the CLI tests and a generated repo
of every benchmark shape (and a clean one); a sweep that writes leaves the same tree. `-vv` names
the pass that ran, and a hyperscan that will not import is the pure-Python pass, never an error;
a small repo is scanned in Python unless `RENAMER_NATIVE=1` (the compile would not pay).
The suite itself runs with the native pass (the default); the last test here runs a
representative set of the CLI tests again with it off.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.testing.repos import ALLOWLIST, git, make_repo, snapshot

ROOT = Path(__file__).resolve().parents[2]
SHAPES = ("dense10", "homelab", "json")  # the other shapes share their file kinds; the suite has 15 minutes
# One command a scan path: the text diff and plain verify read the same scan as these.
COMMANDS = [("sweep", "--dry-run", "--format", "json"), ("verify", "--strict"), ("audit", "--format", "json")]
# The fixture repo of the CLI tests: every kind of file the rules tell apart.
FIXTURE = {
    "stacks/app.yaml": "host: ana-ml2\nurl: http://ana-ml2.ana.lan:8001/\nip: 10.250.50.54\n",
    "stacks/app.json": '{"host": "ana-ml2", "match": "10\\\\.250\\\\.50\\\\.\\\\d+"}\n',
    "scripts/run.sh": "ssh root@ana-\\\nml2 true\nfor h in ana-ml{1..3}; do :; done\n",
    "scripts/tool.py": "HOST = 'ana-ml2'\nana_ml2 = 1\n",
    "runbook.md": "# ana-ml2\n\nSee [the box](#ana-ml2). Not ana-ml20, not ANA_ML2.\n",
    "servers.md": "| ana-ml2-bmc | 10.250.50.54 |\r\n",
    "app.env": "\ufeffHOST=ana-ml2\r\n",
    "stacks/wide.txt": "ana-ml2\n".encode("utf-16"),
    "stacks/blob.bin": b"\x00ana-ml2\x00",
    "stacks/latin1.conf": "# caf\xe9\nserver ana-ml2\n".encode("latin-1"),
    "stacks/zone.db": "$ORIGIN 250.10.in-addr.arpa.\n54.50 IN PTR ANA-ML2.ana.lan.\n",
    "incidents/2026-01-01.md": "ana-ml2 was down\n",
    # Spellings only a decoder finds: an escape (escapes.py), quotes inside one word (decoded.py),
    # a shell default without colon (name_starts.py), a zone named by named.conf (zone_origins.py).
    "stacks/escaped.json": '{"host": "ana\\u002dml2", "url": "http://ana%2Dml2/"}\n',
    "scripts/joined.sh": 'ssh ana-"ml2" true\nH=${W-ana-ml2}\n',
    "named.conf": 'zone "50.250.10.in-addr.arpa" { type master; file "db.10.250.50"; };\n',
    "db.10.250.50": "54 IN PTR ana-ml2.ana.lan.\n",
}


def _generate(dest: Path, shape: str, *, clean: bool = False) -> Path:
    spec = importlib.util.spec_from_file_location("generate", ROOT / "benchmarks" / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["generate"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    hits = {"hits": 0.0, "decoys": 0.0} if clean else {}
    module.generate(dest, 240, seed=3, shape=shape, **hits)
    return dest


def _example(dest: Path) -> Path:
    shutil.copytree(ROOT / "examples" / "fv-ml1", dest)
    shutil.copytree(ROOT / "allowlists", dest / "allowlists")  # as `renamer demo` lays it out
    git(dest, "init", "-q", "-b", "main")
    git(dest, "add", "-A")
    git(dest, "commit", "-q", "-m", "example")
    return dest


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("corpus")
    repos = {shape: _generate(base / shape, shape) for shape in SHAPES}
    repos["dense10-clean"] = _generate(base / "dense10-clean", "dense10", clean=True)
    repos["example"] = _example(base / "example")
    repos["fixture"] = make_repo(base / "fixture", FIXTURE, allowlist=ALLOWLIST)
    return repos


def _both(run: Callable[..., object], monkeypatch: pytest.MonkeyPatch, repo: Path,
          *args: str) -> tuple[object, object]:
    out = []
    for native in ("0", "1"):
        monkeypatch.setenv("RENAMER_NATIVE", native)
        result = run(repo, *args)
        out.append((result.exit_code, result.stdout_bytes))  # type: ignore[attr-defined]
    return out[0], out[1]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
@pytest.mark.parametrize("name", [*SHAPES, "dense10-clean", "example", "fixture"])
def test_the_output_is_the_same_byte_for_byte(corpus: dict[str, Path], run, monkeypatch: pytest.MonkeyPatch,
                                              name: str, command: tuple[str, ...]) -> None:
    python, native = _both(run, monkeypatch, corpus[name], *command)
    assert native == python
    assert python[0] in (0, 1, 3)  # an answer, never a crash
    assert python[1] or command[0] == "verify"  # verify may print nothing but its verdict's exit


@pytest.mark.parametrize("name", ["dense10", "fixture"])
def test_a_sweep_that_writes_leaves_the_same_tree(corpus: dict[str, Path], tmp_path: Path, run,
                                                  monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    trees, exits = [], []
    for native in ("0", "1"):
        copy = tmp_path / f"{name}-{native}"
        shutil.copytree(corpus[name], copy, symlinks=True)
        monkeypatch.setenv("RENAMER_NATIVE", native)
        exits.append(run(copy, "sweep").exit_code)
        trees.append(snapshot(copy))
    assert exits[0] == exits[1] in (0, 1)  # 1: the fixture's binary and UTF-16 files are left as they are
    assert trees[0] == trees[1]
    assert trees[0] != snapshot(corpus[name])  # the sweep rewrote something


def _cli(repo: Path, env: dict[str, str], *prelude: str) -> subprocess.CompletedProcess[str]:
    code = "; ".join([*prelude, "from renamer.cli import main", "sys.argv = ['renamer', '-vv', 'sweep', "
                      "'--dry-run', '--format', 'json']", "main()"])
    inherited = {k: v for k, v in os.environ.items() if k != "RENAMER_NATIVE"}
    return subprocess.run([sys.executable, "-c", "import sys; " + code], cwd=repo, capture_output=True,
                          text=True, env={**inherited, **env}, check=False)


def test_vv_names_the_pass_that_ran_and_a_broken_hyperscan_is_the_python_pass(corpus: dict[str, Path]) -> None:
    repo = corpus["fixture"]
    native = _cli(repo, {"RENAMER_NATIVE": "1"})
    off = _cli(repo, {"RENAMER_NATIVE": "0"})
    # A module that fails to import, as on a platform without a wheel: None in sys.modules.
    missing = _cli(repo, {"RENAMER_NATIVE": "1"}, "sys.modules['hyperscan'] = None")
    small = _cli(repo, {})  # unset: a repo this small is scanned in Python (NATIVE_FROM)
    assert "renamer: debug: scan: first pass: hyperscan 0.9" in native.stderr
    assert "native scans 15" in native.stderr  # work.py counts the native step: 16 files, less the zone named.conf names
    assert "renamer: debug: scan: first pass: pure Python (RENAMER_NATIVE=0)" in off.stderr
    assert "native scans" not in off.stderr
    assert "renamer: debug: scan: first pass: pure Python (hyperscan not installed)" in missing.stderr
    assert "Traceback" not in missing.stderr
    assert re.search(r"renamer: debug: scan: first pass: pure Python \(1\d files, under 1000: compiling "
                     r"would not pay\)", small.stderr), small.stderr
    assert native.returncode == off.returncode == missing.returncode == small.returncode == 0
    assert native.stdout == off.stdout == missing.stdout == small.stdout != ""
