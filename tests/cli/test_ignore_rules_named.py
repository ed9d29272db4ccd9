"""A rename into an ignored path, and `explain` of an ignored file, name the rule that ignores it
(adversarial pass 2 B-17: `.git/info/exclude` was called "(.gitignore)"): `SOURCE:LINE: PATTERN`,
as `git check-ignore -v` gives it, for each place git reads ignore rules from."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.testing.repos import git, snapshot


def _exclude_file(root: Path) -> str:
    path = root.parent / "global-ignore"
    path.write_text("# mine\n*.bak\nstacks/fv-ml1.env\n")
    git(root, "config", "core.excludesFile", str(path))
    return f"{path}:3: stacks/fv-ml1.env"


def _info_exclude(root: Path) -> str:
    (root / ".git/info").mkdir(exist_ok=True)
    (root / ".git/info/exclude").write_text("# git ls-files --others --exclude-from=.git/info/exclude\n"
                                            "stacks/fv-ml1*\n")
    return ".git/info/exclude:2: stacks/fv-ml1*"


def _nested(root: Path) -> str:
    (root / "stacks/.gitignore").write_text("*.tmp\n/fv-ml1.env\n")
    git(root, "add", "stacks/.gitignore")
    git(root, "commit", "-q", "-m", "ignore")
    return "stacks/.gitignore:2: /fv-ml1.env"


@pytest.mark.parametrize("ignore", [_info_exclude, _exclude_file, _nested],
                         ids=["info-exclude", "core-excludesfile", "nested-gitignore"])
def test_a_rename_into_an_ignored_path_names_the_rule(repo, run, ignore) -> None:  # type: ignore[no-untyped-def]
    root = repo({"stacks/ana-ml2.env": "HOST=ana-ml2\n"})
    rule = ignore(root)
    before = snapshot(root)
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 3
    assert result.stderr == (f"renamer: error: stacks/ana-ml2.env: cannot rename to stacks/fv-ml1.env: git "
                             f"ignores that path ({rule}); add an exception or rename it by hand; "
                             "nothing changed\n")
    assert snapshot(root) == before and git(root, "status", "--porcelain") == ""


def test_a_negated_rule_is_not_named_as_the_one_that_ignores(repo, run) -> None:
    root = repo({"stacks/ana-ml2.env": "HOST=ana-ml2\n", ".gitignore": "stacks/fv-ml1*\n!stacks/fv-ml1.env\n"})
    assert run(root, "explain", "stacks/fv-ml1.env").exit_code == 2  # not there yet
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 0, result.stderr
    assert (root / "stacks/fv-ml1.env").read_text() == "HOST=fv-ml1\n"


def test_explain_names_the_rule_that_ignores_a_file(repo, run) -> None:
    root = repo({"stacks/a.env": "HOST=ana-ml2\n"})
    _info_exclude(root)
    (root / "stacks/fv-ml1-secret.env").write_text("HOST=ana-ml2\n")
    shown = run(root, "explain", "stacks/fv-ml1-secret.env").stdout
    assert shown.startswith("stacks/fv-ml1-secret.env: git ignores this file (.git/info/exclude:2: "
                            "stacks/fv-ml1*): never scanned")
