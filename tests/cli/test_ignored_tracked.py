"""A tracked file under an ignored folder (break-it round 21, finding 01; notthebee/infra's
`.gitignore` holds `/group_vars/` and `!/group_vars/all/vars.yml`, a negation git cannot honour
under an ignored folder, while vars.yml is tracked): the sweep wrote it, then `git add` refused
the path and every rerun failed the same way. It is staged as git stages a tracked file
(`git add -u`), by the plain commit and by `--allow-dirty`'s temporary index. Real git repos."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import git, make_repo

CONFIG = "version: 1\nrenames:\n  hosts: {pug: wolf}\nallowlist: allow.yaml\n"
ALLOW = "version: 1\ncurrent: ['**']\n"


def _repo(root: Path) -> Path:
    made = make_repo(root, {".gitignore": "/group_vars/\n!/group_vars/all/vars.yml\n", "site.yml": "hosts: pug\nport: 1\nuser: x\n"},
                     config=CONFIG, allowlist=ALLOW)
    (made / "group_vars/all").mkdir(parents=True)
    (made / "group_vars/all/vars.yml").write_text("host: pug\n")
    git(made, "add", "-f", "group_vars/all/vars.yml")
    git(made, "commit", "-qm", "vars")
    return made


@pytest.mark.parametrize("dirty", [False, True], ids=["clean", "allow-dirty"])
def test_a_tracked_file_under_an_ignored_folder_is_committed(dirty: bool, tmp_path: Path,
                                                             run: Callable[..., Result]) -> None:
    root = _repo(tmp_path / "repo")
    args = ["sweep", "--commit"]
    if dirty:
        (root / "notes.txt").write_text("untracked, unrelated\n")
        (root / "site.yml").write_text("hosts: pug\nport: 1\nuser: y\n")
        args.append("--allow-dirty")
    done = run(root, *args)
    assert done.exit_code == 0, done.stdout + done.stderr
    assert git(root, "show", "HEAD:group_vars/all/vars.yml") == "host: wolf\n"
    assert (root / "group_vars/all/vars.yml").read_text() == "host: wolf\n"
    assert git(root, "status", "--porcelain", "--", "group_vars") == ""
    again = run(root, "sweep", "--commit")
    assert again.exit_code == 0 and "changed 0 files" in again.stdout + again.stderr
    assert run(root, "verify").exit_code == 0
    if dirty:  # the user's edit and the untracked file stay out of the commit
        assert git(root, "show", "HEAD:site.yml") == "hosts: wolf\nport: 1\nuser: x\n"
        assert "notes.txt" not in git(root, "ls-files")
