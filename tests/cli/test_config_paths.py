"""What renamer says of the paths it is given and prints (break-it round 6, #4): a renamer.yaml that is
a folder or a link to a device is said to be one, not "file not found"; POSIX classes in a path
pattern match as git's wildmatch reads them (git itself is the oracle), with no warning; a file
name that is not UTF-8 comes out of `--format json` faithfully, two such names told apart."""

from __future__ import annotations

import base64
import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Result
from tests.testing.repos import git, snapshot


def _plain(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q")
    return root


@pytest.mark.parametrize(("make", "said"), (
    pytest.param(lambda p: p.mkdir(), "a folder, expected a YAML file", id="folder"),
    pytest.param(lambda p: p.symlink_to("/dev/zero"), "a link to /dev/zero, a character device", id="dev-zero"),
    pytest.param(lambda p: p.symlink_to("gone.yaml"), "a link to gone.yaml, which does not exist", id="dangling"),
    pytest.param(lambda p: os.mkfifo(p), "a FIFO, expected a YAML file", id="fifo"),
))
def test_a_renamer_yaml_that_is_no_file_is_said_to_be_what_it_is(make: Callable[[Path], None], said: str,
                                                                 tmp_path: Path, run: Callable[..., Result]) -> None:
    root = _plain(tmp_path)
    make(root / "renamer.yaml")
    for args in (("verify",), ("sweep", "--commit")):
        done = run(root, *args)
        assert done.exit_code == 2, done.stderr
        line, = done.stderr.splitlines()
        assert line == f"renamer: error: {root / 'renamer.yaml'}: {said}" or said in line, line
        assert "not found" not in line


def test_a_config_option_naming_a_device_is_said_to_be_one(tmp_path: Path, run: Callable[..., Result]) -> None:
    root = _plain(tmp_path)
    done = run(root, "verify", "--config", "/dev/zero")
    assert done.exit_code == 2
    assert done.stderr == "renamer: error: --config /dev/zero: a character device, expected a YAML file\n"


NAMES = ["a.txt", "B.txt", "1.txt", "_x.txt", "x y.txt", "xy.txt", "Zz9.txt", "-dash.txt", ".hidden.txt",
         "caf\u00e9.txt"]


def _git_matches(tmp_path: Path, pattern: str) -> set[str]:
    """The names git's own wildmatch matches with `pattern` (as a .gitignore line)."""
    oracle = tmp_path / "oracle"
    if not oracle.exists():
        oracle.mkdir()
        git(oracle, "init", "-q")
    (oracle / ".gitignore").write_text(pattern + "\n")
    done = subprocess.run(["git", "-C", str(oracle), "-c", "core.quotePath=false", "check-ignore",
                           "--no-index", "--stdin"], input="\n".join(NAMES) + "\n", capture_output=True,
                          text=True, check=False)
    assert done.returncode in (0, 1), done.stderr
    return set(done.stdout.splitlines())


@pytest.mark.parametrize("pattern", ("[[:alpha:]]*", "[[:digit:]]*", "[[:upper:]]*", "[![:alnum:]]*",
                                     "[[:punct:]]*", "x[[:space:]]y.txt", "[[:lower:][:digit:]]*.txt",
                                     "[[:xdigit:]][[:alpha:]]*"))
def test_posix_classes_match_as_git_reads_them(pattern: str, tmp_path: Path, repo: Callable[..., Path],
                                               run: Callable[..., Result]) -> None:
    expected = _git_matches(tmp_path, pattern)
    allow = f"version: 1\ncurrent: [{json.dumps(pattern)}]\n"
    root = repo(dict.fromkeys(NAMES, "host ana-ml2\n"), allowlist=allow)
    done = run(root, "sweep", "--dry-run", "--format", "json")
    assert done.exit_code == 0, done.stderr
    assert done.stderr == ""  # no FutureWarning, nothing
    rewritten = {edit["path"] for edit in json.loads(done.stdout)["edits"]}
    assert rewritten == expected, (pattern, rewritten, expected)


def _all(document: Any, key: str) -> list[Any]:
    if isinstance(document, dict):
        return [v for k, v in document.items() if k == key] + [x for v in document.values() for x in _all(v, key)]
    if isinstance(document, list):
        return [x for v in document for x in _all(v, key)]
    return []


@pytest.mark.parametrize("args", (pytest.param(("sweep", "--dry-run", "--format", "json"), id="sweep"),
                                  pytest.param(("verify", "--format", "json"), id="verify"),
                                  pytest.param(("audit", "--format", "json"), id="audit")))
def test_names_that_are_not_utf8_come_out_of_json_faithfully(args: tuple[str, ...], repo: Callable[..., Path],
                                                            run: Callable[..., Result]) -> None:
    allow = "version: 1\ncurrent: ['**']\n"
    root = repo({}, allowlist=allow, commit=False)
    names = [b"n\xe9-ana-ml2.txt", b"n\xe8-ana-ml2.txt", b"n\\xe9-ana-ml2.txt"]  # the last: a real backslash
    for name in names:
        (root / os.fsdecode(name)).write_bytes(b"host ana-ml2\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "names")
    before = snapshot(root)
    done = run(root, *args)
    done.stdout_bytes.decode("utf-8")  # strict UTF-8, no lone surrogate anywhere
    assert "\\udc" not in done.stdout
    document = json.loads(done.stdout)
    exact = {base64.b64decode(b) for b in _all(document, "path_bytes")}
    assert exact == set(names[:2])  # each name that is not UTF-8, byte for byte
    shown = set(_all(document, "path"))
    assert {"n\\xe9-ana-ml2.txt", "n\\xe8-ana-ml2.txt"} <= shown
    assert snapshot(root) == before
