"""A regression guard that counts instead of timing: the work a scan does on a generated repo
on a 10/8 network (`10.x` on most lines) must stay within committed bounds.

A timed test passes on a fast machine and fails on a busy one; these counts are the same on any
machine. Each bound is the measured count with some headroom; a change that makes a count grow
past it (the pattern probe looking at every `10.` again, every file scanned in full, a parse per
file) fails with the count, the bound and what it measures. Raise a bound only with the reason in
the commit message.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from renamer.sweep.native_gate import FOLD_SOURCE

HERE = Path(__file__).resolve().parent
BOUNDS = json.loads((HERE / "work_bounds.json").read_text())
WHAT = {
    "full scans": "files the first pass could not reject, scanned in full",
    "pattern positions": "fragment positions the pattern probe looked at (patterns.py)",
    "placeholder positions": "tokens the placeholder reader read (placeholders.py): where one of an old value's "
                             "stems stands before a placeholder's first byte (`10.250.50.5x`), not at every `10.` "
                             "of a file on 10/8",
    "loose positions": "positions the loose pass tried its regex at (near_miss.py)",
    "python parses": "Python files parsed for the roles of their matches",
    "key path parses": "files parsed for YAML/JSON/TOML key paths",
    "edit checks": "results parsed to prove an edit keeps the structure",
    "native scans": "files the native first pass scanned (sweep/native_gate.py): each read file once",
    "native follow-ups": "Python tests the native first pass could not rule out (a context, a split, loose, any case)",
    "native join scans": "files the native first pass scanned again without quotes, `}` and backslashes (JOINED)",
    "decoder tests": "files the first pass asked its decoder tests (quote joins, escapes, Unicode forms)",
    "range context checks": "addresses under an old one's stem looked at for a declared range (context.py)",
    "tree greps": "git greps over the whole work tree (variable definitions, keys named by a host)",
    "key index reads": "times the key index was read (sweep/key_index.py): once a scan at most, and only where a "
                       "file with a match may define a key or holds a key reference, not once per forked worker",
    "key index files": "files the key index parsed for keys named by a host (sweep/key_index.py): only those "
                       "where a name may stand as a key, not every file holding one",
    "key index lines": "lines the key index parsed: up to the last where a name may stand as a key "
                       "(key_paths.key_text), not every line of every file holding a name",
    "address pattern reads": "files address_patterns.decide read: only where a renamed network's first octet, or "
                             "(no network renamed) a renamed address's head, stands beside regex syntax",
    "address pattern tokens": "tokens address_patterns read: with no network renamed, only those starting with a "
                              "renamed address's head (address_patterns.heads), not every `10.` before a `[`",
    "scan readers": "readers a literal gates that the full scan ran (tool names, zone records, own storage, "
                    "address parts, computed, formatted): where the native pass ran, only those whose literals "
                    "the file holds (Matcher.may_hold)",
    "native context readers": "readers of might_hold_context the native pass asked: only those whose literals "
                              "the file holds (Matcher.context_groups), not all ten of every file with a `10.`",
}


def _generate(dest: Path, **clean: float) -> None:
    spec = importlib.util.spec_from_file_location("generate", HERE.parents[1] / "benchmarks" / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["generate"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    module.generate(dest, BOUNDS["files"], seed=1, shape=BOUNDS["shape"], **clean)


@pytest.fixture(scope="module")
def dense(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = tmp_path_factory.mktemp("dense") / "repo"
    _generate(repo)
    return repo


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = tmp_path_factory.mktemp("clean") / "repo"
    _generate(repo, hits=0.0, decoys=0.0)
    return repo


def counted(repo: Path, *args: str, native: str | None = None) -> dict[str, int]:
    env = {k: v for k, v in os.environ.items() if k != "RENAMER_NATIVE"}
    if native is not None:
        env["RENAMER_NATIVE"] = native
    done = subprocess.run([sys.executable, "-m", "renamer", "-vv", *args], cwd=repo,
                          capture_output=True, text=True, check=False, env=env)
    assert done.returncode in (0, 1), done.stderr[-2000:]
    line = next(line for line in done.stderr.splitlines() if line.startswith("renamer: debug: work: "))
    pairs = [item.rsplit(" ", 1) for item in line.removeprefix("renamer: debug: work: ").split(", ")]
    return {what: int(n) for what, n in pairs}


@pytest.mark.parametrize("command", sorted(BOUNDS["commands"]))
def test_the_work_stays_within_its_bounds(dense: Path, command: str) -> None:
    counts = counted(dense, *command.split())
    bounds = BOUNDS["commands"][command]
    grown = [f"{what}: {counts.get(what, 0)} > bound {bound} ({WHAT[what]})"
             for what, bound in bounds.items() if counts.get(what, 0) > bound]
    assert not grown, f"`renamer {command}` on the dense repo does more work than before: " + "; ".join(grown)
    assert set(counts) <= set(bounds), f"a new count needs a bound in work_bounds.json: {set(counts) - set(bounds)}"
    assert counts["full scans"] > 0  # the repo holds old values: the guard measures a real scan


def test_a_clean_file_never_reaches_the_decoder_tests(clean: Path) -> None:
    """On a repo where no old value stands in any spelling, the native first pass rules the decoder
    tests out for every file where ESCAPE, FOLD and JOINED hold nowhere: here every file but those
    holding a UTF-8 lead byte (FOLD: an ASCII name in compatibility dress, `ａｎａ-ｍｌ２`, is one
    too; the generated binaries hold such bytes), where the pure-Python pass asks them of every
    file; both passes scan every file."""
    native = counted(clean, "sweep", "--dry-run", "--format", "summary", native="1")
    python = counted(clean, "sweep", "--dry-run", "--format", "summary", native="0")
    assert native["native scans"] > BOUNDS["files"] - 10  # the native pass ran, over every file
    fold = re.compile(FOLD_SOURCE)
    leads = sum(1 for path in clean.rglob("*") if ".git" not in path.parts and path.is_file()
                and fold.search(path.read_bytes()))
    assert leads < 20  # the shape: a few binaries, every text file ASCII
    assert native.get("decoder tests", 0) <= leads, native
    assert python["decoder tests"] > BOUNDS["files"] - 10, python  # the counter counts where it is asked
    assert native.get("full scans", 0) == python.get("full scans", 0)


def test_the_native_pass_asks_a_file_only_the_readers_whose_literals_it_holds(dense: Path, clean: Path) -> None:
    """Issue 30: the readers of rounds 16-17 (formatted and joined names, backup locations, zone
    records, address patterns...) each read every file of a dense repo holding a `10.` again. The
    native pass's one scan says which groups of literals a file holds; might_hold_context and the
    full scan ask only those groups' readers, and address_patterns reads only the tokens starting
    with a renamed address's head. The answers stay the Python pass's."""
    bounds = BOUNDS["native"]
    for repo in (dense, clean):
        native = counted(repo, "sweep", "--dry-run", "--format", "summary", native="1")
        python = counted(repo, "sweep", "--dry-run", "--format", "summary", native="0")
        groups = 10  # Matcher.context_groups on the generated repo's renames
        assert native["native follow-ups"] > BOUNDS["files"] // 2  # nearly every file asks a context
        grown = [f"{what}: {native.get(what, 0)} > bound {bound} ({WHAT[what]})"
                 for what, bound in bounds.items() if native.get(what, 0) > bound]
        assert not grown, "; ".join(grown)
        # every reader of every file asking a context would be ten times the follow-ups. Joins of
        # literals (round 21, finding 08: `"ana-" + "ml2"`) are asked of every file holding a piece of
        # an old value, as sets are (their literals are the pieces): a second reader per follow-up.
        assert native["native context readers"] < 2.5 * native["native follow-ups"] < groups * native["native follow-ups"] / 3
        assert native.get("scan readers", 0) <= python.get("scan readers", 0)
        assert native.get("full scans", 0) == python.get("full scans", 0)
    # The repo holds many `10.` before regex syntax (tokens the reader looked at each of before).
    starts = re.compile(rb"10(?:\\{1,4}\.|\[\.\]|(?=(?:\.[0-9]{1,3}){0,2}\.[0-9]{0,3}(?:[\[(*+?{|\\]|\.[*+?])))")
    held = sum(len(starts.findall(path.read_bytes())) for path in clean.rglob("*")
               if ".git" not in path.parts and path.is_file())
    assert held > 10 * bounds["address pattern tokens"], held


def _composed_repo(dest: Path, files: int) -> Path:
    """`files` plain files, three of them (far apart in path order) composing a name from a
    variable and reading a renamed key: each asks the scanner for the tree's definitions and keys."""
    dest.mkdir()
    (dest / "renamer.yaml").write_text("version: 1\nrenames:\n  hosts: {pug: wolf, pug.ana.lan: wolf.fv.lan}\n"
                                       "  addresses: {10.0.0.5: 10.1.0.5}\nallowlist: allow.yaml\n")
    (dest / "allow.yaml").write_text('version: 1\ncurrent: ["**"]\n')
    (dest / ".env").write_text("NODE=pug\n")
    (dest / "d").mkdir()
    (dest / "d" / "hosts.yml").write_text("hosts:\n  pug: 10.0.0.5\n")
    # `f0010.txt` would be a candidate by its name (the loose pass's zero-padded `010.` of 10.0.0.5,
    # near_miss._padded_prefixes) in both repos, `f1010.txt` in the larger one only: no digit
    # before a name's dot, so that both repos hold the same candidates.
    for i in range(files):
        (dest / "d" / f"f{i:04}x.txt").write_text(f"line {i}\n")
    for i in (0, files // 2, files - 1):
        (dest / "d" / f"f{i:04}x.txt").write_text("url: https://${NODE}.ana.lan/\nkey: {{ hosts.pug }}\n")
    subprocess.run(["git", "init", "-q"], cwd=dest, check=True)
    subprocess.run(["git", "add", "-A"], cwd=dest, check=True)
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init"], cwd=dest, check=True)
    return dest


def test_the_tree_is_grepped_once_per_scan_not_once_per_chunk(tmp_path: Path) -> None:
    """Variable definitions and keys are read from the whole tree by git grep, lazily, by the
    scanner: one scanner for every chunk of a scan (sweep/parallel.py), so a repo of three chunks
    greps the tree as often as a repo of one."""
    one = counted(_composed_repo(tmp_path / "one", 300), "sweep", "--dry-run", "--format", "summary")
    three = counted(_composed_repo(tmp_path / "three", 1400), "sweep", "--dry-run", "--format", "summary")
    assert one["full scans"] == three["full scans"] >= 3
    assert one["tree greps"] > 0  # the composed names asked for the tree's definitions and keys
    assert three["tree greps"] == one["tree greps"], (one, three)


def _keyed_repo(dest: Path, files: int, lines: int) -> Path:
    """`files` YAML files naming the old host on many lines, as values only (`host: pug`, a URL,
    a list), one file defining the key `hosts.pug` and one template reading it."""
    dest.mkdir()
    (dest / "renamer.yaml").write_text("version: 1\nrenames:\n  hosts: {pug: wolf}\nallowlist: allow.yaml\n")
    (dest / "allow.yaml").write_text('version: 1\ncurrent: ["**"]\n')
    (dest / "vars").mkdir()
    (dest / "vars" / "net.yml").write_text("net:\n  hosts:\n    pug: {ip: 10.0.0.5}\n" + "  x: 1\n" * lines)
    (dest / "t.j2").write_text("ip: {{ net.hosts.pug.ip }}\n")
    body = "".join(f"k{i}: pug\nurl{i}: http://pug:80/\nl{i}: [pug, 'pug']\n" for i in range(lines // 3))
    for i in range(files):
        (dest / "vars" / f"f{i:04}.yml").write_text(body)
    subprocess.run(["git", "init", "-q"], cwd=dest, check=True)
    subprocess.run(["git", "add", "-A"], cwd=dest, check=True)
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init"], cwd=dest, check=True)
    return dest


def test_the_key_index_parses_only_where_a_name_may_stand_as_a_key(tmp_path: Path) -> None:
    """Issue 30: the index of keys named by a host parsed every line of every keyed file holding
    the name (here 200 files of 30 lines, the name on each as a value); it parses only the files
    where the name stands as a key (vars/net.yml, and renamer.yaml's `{pug: wolf}`), up to that
    line, and is read once; the template's reference still follows the key."""
    repo = _keyed_repo(tmp_path / "repo", 200, 30)
    counts = counted(repo, "sweep", "--dry-run", "--format", "summary")
    assert counts["key index reads"] == 1, counts  # the template's reference asks for it
    assert counts["key index files"] == 2, counts
    assert counts["key index lines"] == 3 + 3, counts  # up to `pug:`, the third line of each
    done = subprocess.run([sys.executable, "-m", "renamer", "sweep", "--dry-run", "--format", "json"], cwd=repo,
                          capture_output=True, text=True, check=False)
    edits = json.loads(done.stdout)["edits"]
    assert {"path": "t.j2", "line": 1, "column": 18, "old": "pug", "new": "wolf"} in edits


def _chained_repo(dest: Path) -> Path:
    """An address composed of a variable defined through eight others (`NET=${O1}.${O2}.${O3}`,
    each `O` through an `X`, one `X` through a `Y`), the composition in compose.yml."""
    dest.mkdir()
    (dest / "renamer.yaml").write_text("version: 1\nrenames:\n  addresses: {10.0.0.5: 10.0.1.5}\n"
                                       "allowlist: allow.yaml\n")
    (dest / "allow.yaml").write_text('version: 1\ncurrent: ["**"]\n')
    (dest / "compose.yml").write_text('services:\n  dns:\n    command: --listen-address=${NET}.5\n'
                                      '    extra_hosts: ["gw:10.0.0.5"]\n')
    (dest / ".env").write_text("NET=${O1}.${O2}.${O3}\nO1=${X1}\nO2=${X2}\nO3=${X3}\nX1=10\nX2=0\nX3=${Y3}\nY3=0\n")
    subprocess.run(["git", "init", "-q"], cwd=dest, check=True)
    subprocess.run(["git", "add", "-A"], cwd=dest, check=True)
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init"], cwd=dest, check=True)
    return dest


def test_the_variables_a_composition_names_are_read_in_batches(tmp_path: Path) -> None:
    """Issue 30: each variable a definition names cost two git greps over the work tree (its
    definitions, Terraform's `variable` blocks): 16 for this chain of 8, and on mailcow-dockerized,
    whose scripts define hundreds of variables through each other, minutes. The names a file's
    compositions hold are read in one grep, and each level of names their definitions name in
    one more (templated.Definitions._fetch); the residual is the same."""
    repo = _chained_repo(tmp_path / "repo")
    counts = counted(repo, "verify", "--format", "json")
    # The same repo with NET defined plainly: the greps every verify makes whatever it composes
    # (other readers add theirs over time), so that only the chain's own greps are bounded.
    flat = _chained_repo(tmp_path / "flat")
    (flat / ".env").write_text("NET=10.0.0\n")
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "flat"], cwd=flat,
                   check=True)
    plain = counted(flat, "verify", "--format", "json")
    # NET, then three levels of the names definitions name (O1-O3, X1-X3, Y3): two greps a level
    # at most (definitions, Terraform's `variable` blocks), never two per variable (16)
    assert counts["tree greps"] - plain["tree greps"] <= 10, (counts, plain)
    done = subprocess.run([sys.executable, "-m", "renamer", "verify", "--format", "json"], cwd=repo,
                          capture_output=True, text=True, check=False)
    found = [f for f in json.loads(done.stdout)["findings"] if f["reason"] == "composed-address"]
    assert [(f["path"], f["line"]) for f in found] == [("compose.yml", 3)], found
    assert "`Y3` is 0 at .env:8" in found[0]["note"], found[0]
