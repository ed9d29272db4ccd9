"""An old name inside a longer name of a path is a near-miss, as in a file's text (a trial on
mholzen/init: `bin/ssh-ubuntu-1`, an ssh wrapper named after the host, stayed after the sweep
renamed what it ran, and verify said OK, 0 near-misses). The exact rules rename only a whole
component or stem; `ssh-ubuntu-1` may be another host's name, so it is said, not renamed. A
folder's spelling is said once, not once per file under it; records, kept paths, the allowlist's
`near_miss:` settings and whole components (renamed) are not near-misses."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import make_repo

Run = Callable[..., Result]
CONFIG = "version: 1\nrenames:\n  hosts: {ubuntu-1: lab-1}\nallowlist: allow.yaml\n"
ALLOW = "version: 1\ncurrent: ['**']\nrecords:\n  - {name: old, paths: ['old/**'], reason: history}\n"


def _misses(run: Run, root: Path) -> list[tuple[str, int, int, str, str, str]]:
    verified = run(root, "verify", "--format", "json")
    return [(m["path"], m["line"], m["column"], m["text"], m["name"], m["why"])
            for m in json.loads(verified.stdout)["near_misses"]]


@pytest.mark.parametrize(("path", "column", "spelling", "name"), [
    pytest.param("bin/ssh-ubuntu-1", 9, "ubuntu-1", "ssh-ubuntu-1", id="prefixed-file-name"),
    pytest.param("backups/ubuntu-1-etc.tar", 9, "ubuntu-1", "ubuntu-1-etc.tar", id="suffixed-file-name"),
    pytest.param("roles/setup-ubuntu-1/tasks/main.yml", 13, "ubuntu-1", "setup-ubuntu-1", id="folder"),
    pytest.param("host_vars/UBUNTU-1.yml", 11, "UBUNTU-1", "", id="other-case"),
])
def test_an_old_name_inside_a_path_is_a_near_miss(tmp_path: Path, run: Run, path: str, column: int,
                                                  spelling: str, name: str) -> None:
    root = make_repo(tmp_path / "repo", {path: "nothing to rename here\n", "hosts": "ubuntu-1\n"},
                     config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / path).exists()  # said, not renamed: it may be another host's name
    misses = _misses(run, root)
    assert [(p, line, col, text, named) for p, line, col, text, named, _ in misses] == [
        (path, 0, column, spelling, name)]
    assert misses[0][5].endswith(", in the path")
    shown = run(root, "verify")
    assert f"{path}:0:{column}: warning: near-miss" in shown.stderr + shown.stdout
    assert shown.exit_code == 0  # a warning, as in text
    assert run(root, "verify", "--strict").exit_code == 1


def test_a_folders_spelling_is_said_once_and_whole_components_are_renamed(tmp_path: Path, run: Run) -> None:
    files = {f"backup-ubuntu-1/part{i}.txt": f"{i}\n" for i in range(4)}
    files.update({"hosts/ubuntu-1/vars.yml": "x: 1\n", "old/ssh-ubuntu-1": "history\n"})
    root = make_repo(tmp_path / "repo", files, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "hosts/lab-1/vars.yml").exists()  # a whole component: renamed, no near-miss
    assert [(p, name) for p, _, _, _, name, _ in _misses(run, root)] == [
        ("backup-ubuntu-1/part0.txt", "backup-ubuntu-1")]  # once; the record's path not at all


@pytest.mark.parametrize("allow", [
    pytest.param("near_miss:\n  ignore: ['ubuntu-1']\n", id="near-miss-ignore"),
    pytest.param("near_miss:\n  paths: ['bin/**']\n", id="near-miss-paths"),
    pytest.param("keep_paths: ['bin/ssh-ubuntu-1']\n", id="keep-paths"),
])
def test_the_allowlist_silences_a_paths_near_miss(tmp_path: Path, run: Run, allow: str) -> None:
    root = make_repo(tmp_path / "repo", {"bin/ssh-ubuntu-1": "ssh lab-1\n"}, config=CONFIG,
                     allowlist=ALLOW + allow)
    assert _misses(run, root) == []
    assert run(root, "verify", "--strict").exit_code == 0
