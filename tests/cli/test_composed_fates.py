"""A composed name reads the value its variable's definition will hold after the sweep (break-it
round 5, finding A): `NODE=pug  # renamer: keep` beside `https://${NODE}.ana.lan/` made the sweep
write `${NODE}.fv.lan`, pug.fv.lan, a name that does not exist, and verify passed. A definition
the sweep keeps holds the old host, so the literal domain stays; one in an unclassified file has
a fate nobody can tell: a `composed-name` residual."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import PUG_ALLOW as ALLOW
from tests.testing.repos import PUG_CONFIG as CONFIG

COMPOSE = "services:\n  app:\n    environment:\n      URL: https://${NODE}.ana.lan/\n"


def _shell(folder: Path, env_file: str, word: str) -> str:
    """What a POSIX shell (as compose interpolates) makes of `word` with `env_file` sourced."""
    script = f'set -a; . "./{env_file}"; printf %s "{word}"'
    done = subprocess.run(["bash", "-c", script], cwd=folder, capture_output=True, text=True, check=True,
                          env={"PATH": os.environ["PATH"]})
    return done.stdout


def _reasons(root: Path, run: Callable[..., Result], path: str) -> list[tuple[str, str]]:
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    return [(str(f["reason"]), str(f.get("note", ""))) for f in found if f["path"] == path]


KEEP_RULE = ('version: 1\ncurrent: ["**"]\nkeep:\n  - name: hand-test\n    path: a/.env\n'
             '    line_contains: "NODE="\n    reason: the hand-test box keeps its name\n')
KEEP_FILE = ('version: 1\ncurrent: ["**"]\nkeep:\n  - name: hand-test\n    path: a/.env\n'
             '    reason: the hand-test box keeps its name\n')


@pytest.mark.parametrize(("allow", "env"), [
    pytest.param(ALLOW, "NODE=pug # renamer: keep  hand-test box\n", id="inline-marker"),
    pytest.param(ALLOW, "NODE=pug # renamer: keep\r\nPORT=80\r\n", id="inline-marker-crlf"),
    pytest.param(KEEP_RULE, "NODE=pug\n", id="keep-rule-line-contains"),
    pytest.param(KEEP_FILE, "NODE=pug\n", id="keep-rule-whole-file"),
    pytest.param(ALLOW, "BASE=pug # renamer: keep\nNODE=${BASE}\n", id="kept-through-another-variable"),
])
def test_a_kept_definition_keeps_the_literal_domain(allow: str, env: str, repo: Callable[..., Path],
                                                    run: Callable[..., Result]) -> None:
    root = repo({"a/.env": env, "a/compose.yml": COMPOSE}, config=CONFIG, allowlist=allow)
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert (root / "a/compose.yml").read_text() == COMPOSE
    assert (root / "a/.env").read_bytes().decode() == env
    assert _shell(root / "a", ".env", "https://${NODE}.ana.lan/") == "https://pug.ana.lan/"
    assert all(reason != "composed-name" for reason, _ in _reasons(root, run, "a/compose.yml"))
    done = run(root, "verify")
    assert done.exit_code == 0, done.stdout


def test_a_kept_reference_to_a_rewritten_definition_follows(repo: Callable[..., Path],
                                                             run: Callable[..., Result]) -> None:
    """The marker on `NODE=${BASE}` keeps a line that spells no host: BASE's pug is rewritten."""
    env = "BASE=pug\nNODE=${BASE} # renamer: keep\n"
    root = repo({"a/.env": env, "a/compose.yml": COMPOSE}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "a/compose.yml").read_text() == COMPOSE.replace(".ana.lan", ".fv.lan")
    assert _shell(root / "a", ".env", "https://${NODE}.fv.lan/") == "https://wolf.fv.lan/"
    done = run(root, "verify")
    assert done.exit_code == 0, done.stdout


def test_an_unclassified_definition_is_a_residual(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    allow = 'version: 1\ncurrent: ["a/compose.yml"]\n'
    root = repo({"a/.env": "NODE=pug\n", "a/compose.yml": COMPOSE}, config=CONFIG, allowlist=allow)
    found = _reasons(root, run, "a/compose.yml")
    assert [reason for reason, _ in found] == ["composed-name"], found
    assert "no allowlist rule covers" in found[0][1] and "a/.env:1" in found[0][1], found
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 1, result.stdout + result.stderr
    assert (root / "a/compose.yml").read_text() == COMPOSE
    assert run(root, "verify").exit_code == 1


def test_a_kept_value_beside_a_rewritten_one_is_a_residual(repo: Callable[..., Path],
                                                           run: Callable[..., Result]) -> None:
    """Two vars files give `node` pug, one kept: no one literal domain is right for both."""
    files = {"group_vars/lab.yml": "node: pug  # renamer: keep\n", "group_vars/prod.yml": "node: pug\n",
             "roles/web/templates/site.j2": "server {{ node }}.ana.lan;\n"}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    found = _reasons(root, run, "roles/web/templates/site.j2")
    assert [reason for reason, _ in found] == ["composed-name"], found
    assert "kept: pug.ana.lan keeps .ana.lan" in found[0][1] and "becomes wolf.fv.lan" in found[0][1], found
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "roles/web/templates/site.j2").read_text() == "server {{ node }}.ana.lan;\n"


def test_a_kept_ansible_variable_keeps_the_template(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files = {"group_vars/all.yml": "node: pug  # renamer: keep\nother: pug\n",
             "roles/web/templates/site.j2": "server {{ node }}.ana.lan;\n"}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "roles/web/templates/site.j2").read_text() == "server {{ node }}.ana.lan;\n"
    assert (root / "group_vars/all.yml").read_text() == "node: pug  # renamer: keep\nother: wolf\n"
    done = run(root, "verify")
    assert done.exit_code == 0, done.stdout
