"""Names over the platform's limits (issue 27, item 16c / adversarial B-12): a file whose name is
near 255 bytes is swept (its temporary file is of fixed length), and a rename whose new name or
path would pass NAME_MAX or PATH_MAX is refused at plan time: the dry run says so, the commit
refuses before any write."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from renamer.paths import limit_problem
from tests.conftest import Result
from tests.testing.repos import git

LONG_NEW = "fountain-valley-ml1"  # 12 bytes longer than ana-ml2
CONFIG = f"version: 1\nrenames:\n  hosts: {{ana-ml2: {LONG_NEW}}}\nallowlist: allow.yaml\n"
ALLOW = 'version: 1\ncurrent: ["**"]\n'


@pytest.mark.parametrize("name", (
    pytest.param("ab-" + "x" * 240 + ".txt", id="b12-reproduction"),
    pytest.param("é" * 125 + ".md", id="multibyte-255-bytes"),
    pytest.param("deep/" * 3 + "y" * 255, id="255-in-a-folder"),
))
def test_a_name_near_the_limit_is_swept(name: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({name: "host ana-ml2\n", "runbook.md": "ssh ana-ml2\n"}, config=CONFIG, allowlist=ALLOW)
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 0, result.stderr
    assert (root / name).read_text() == f"host {LONG_NEW}\n" and git(root, "status", "--porcelain") == ""


@pytest.mark.parametrize(("old", "part"), (
    pytest.param("z" * 240 + "@ana-ml2.yml", "z" * 24, id="file-name"),
    pytest.param("host_vars/" + "q" * 245 + "@ana-ml2/vars.yml", "q" * 24, id="folder-name"),
    pytest.param("é" * 120 + "@ana-ml2", "é" * 24, id="multibyte"),
))
def test_a_rename_over_name_max_is_refused_at_plan_time(old: str, part: str, repo: Callable[..., Path],
                                                        run: Callable[..., Result]) -> None:
    root = repo({old: "host ana-ml2\n", "runbook.md": "ssh ana-ml2\n"}, config=CONFIG, allowlist=ALLOW)
    head = git(root, "rev-parse", "HEAD")
    for args in (("sweep", "--dry-run"), ("sweep", "--commit")):
        result = run(root, *args)
        assert result.exit_code == 3, result.stdout
        message = result.stderr.strip().splitlines()[-1]
        assert message.startswith(f"renamer: error: {old}: cannot rename to ")
        assert f"its name {part}... is " in message and "over the file system's limit of 255 (NAME_MAX)" in message
    assert git(root, "rev-parse", "HEAD") == head and git(root, "status", "--porcelain") == ""
    assert (root / "runbook.md").read_text() == "ssh ana-ml2\n"  # no write began


def test_a_path_over_path_max_is_a_problem(tmp_path: Path) -> None:
    """PATH_MAX counts from /: a path that fits in each part can still be too long as a whole."""
    deep = "/".join(["d" * 200] * (os.pathconf(tmp_path, "PC_PATH_MAX") // 201 + 1))
    assert limit_problem(tmp_path, deep) is not None and "(PATH_MAX)" in str(limit_problem(tmp_path, deep))
    assert limit_problem(tmp_path, "d" * 200 + "/x") is None
    assert "(NAME_MAX)" in str(limit_problem(tmp_path, "a/" + "b" * 256))
