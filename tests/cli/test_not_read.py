"""What the sweep does not read is said (break-it round 21, findings 24 and 34): a git submodule
holding the old name, a file the allowlist's `exclude:` hides while it spells an old value, an
`exclude` that leaves nothing to read. Each is listed by verify and audit ("Not read", JSON
`not_read`) and fails `verify --strict`; excluding a submodule once swept in its own clone, or
classing a file a record, clears it. Real git repos, a real submodule."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import git, make_repo

CONFIG = "version: 1\nrenames:\n  hosts: {web01: app01}\nallowlist: allow.yaml\n"
ALLOW = "version: 1\ncurrent: ['**']\n"


def _with_submodule(tmp_path: Path, allow: str = ALLOW) -> Path:
    role = make_repo(tmp_path / "role", {"main.yml": "ntp_server: web01\n"}, config=None, allowlist=None)
    root = make_repo(tmp_path / "site", {"site.yml": "h: web01\n"}, config=CONFIG, allowlist=allow)
    git(root, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(role), "roles/common")
    git(root, "commit", "-qm", "role as a submodule")
    return root


def test_a_submodule_is_listed_as_not_read_and_fails_strict(tmp_path: Path, run: Callable[..., Result]) -> None:
    root = _with_submodule(tmp_path)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "roles/common/main.yml").read_text() == "ntp_server: web01\n"  # never entered
    plain = run(root, "verify")
    assert plain.exit_code == 0, plain.stdout  # nothing it reads is left
    assert "Not read (1 current-state place that may hold an old value" in plain.stdout
    assert "  roles/common: a git submodule: its own repository, never entered" in plain.stdout
    strict = run(root, "verify", "--strict", "--format", "json")
    assert strict.exit_code == 1
    assert [entry["path"] for entry in json.loads(strict.stdout)["not_read"]] == ["roles/common"]
    audit = json.loads(run(root, "audit", "--format", "json").stdout)
    assert [entry["path"] for entry in audit["not_read"]] == ["roles/common"]


def test_a_submodule_excluded_once_checked_is_not_listed(tmp_path: Path, run: Callable[..., Result]) -> None:
    root = _with_submodule(tmp_path, ALLOW + "exclude: ['roles/common/**', 'roles/common']\n")
    assert run(root, "sweep", "--commit").exit_code == 0
    strict = run(root, "verify", "--strict")
    assert strict.exit_code == 0, strict.stdout
    assert "Not read" not in strict.stdout


@pytest.mark.parametrize("exclude, listed", [
    pytest.param("['**']", ["(every file)", "app.yml"], id="everything"),
    pytest.param("['*.yml']", ["(every file)", "app.yml"], id="every-yaml-file"),
    pytest.param("['app.yml']", ["app.yml"], id="one-file"),
])
def test_an_excluded_file_spelling_an_old_value_is_said(exclude: str, listed: list[str], repo: Callable[..., Path],
                                                        run: Callable[..., Result]) -> None:
    files = {"app.yml": "db_host: web01\n"} if exclude != "['app.yml']" else {
        "app.yml": "db_host: web01\n", "notes.txt": "nothing here\n"}
    root = repo(files, config=CONFIG, allowlist=ALLOW + f"exclude: {exclude}\n")
    plain = run(root, "verify", "--format", "json")
    assert plain.exit_code == 0  # `exclude` is the contract: never scanned, and verify's plain answer
    assert [entry["path"] for entry in json.loads(plain.stdout)["not_read"]] == listed
    strict = run(root, "verify", "--strict")
    assert strict.exit_code == 1
    assert "app.yml: excluded by the allowlist's `exclude:`, and it spells web01" in strict.stdout


@pytest.mark.parametrize("files, allow", [
    pytest.param({"vendor/lib.yml": "x: 1\n", "app.yml": "a: b\n"}, ALLOW + "exclude: ['vendor/**']\n",
                 id="excluded-without-an-old-value"),
    pytest.param({"old/app.yml": "db_host: web01\n", "app.yml": "a: b\n"},
                 "version: 1\ncurrent: ['/app.yml']\nexclude: ['old/**']\n", id="excluded-and-no-current-state"),
    pytest.param({".gitmodules": "# no submodule\n", "app.yml": "a: b\n"}, ALLOW, id="gitmodules-naming-nothing"),
])
def test_noop_nothing_unread_to_say(files: dict[str, str], allow: str, repo: Callable[..., Path],
                                    run: Callable[..., Result]) -> None:
    root = repo(files, config=CONFIG, allowlist=allow)
    strict = run(root, "verify", "--strict")
    assert strict.exit_code == 0, strict.stdout
    assert "Not read" not in strict.stdout
