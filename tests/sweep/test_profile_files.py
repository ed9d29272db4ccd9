"""A profile's name that names a file by a framework's convention (break-it round 22, finding 10):
`spring.profiles.active=web01` was rewritten while `config/application-web01.yml` kept its name (the
old value inside a longer name), so the profile loaded nothing, sweep exit 0 and verify OK. The word is
now a `held-path` residual (never one without the other); an ordinary mention elsewhere still moves."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

CONFIG = "version: 1\nrenames:\n  hosts: {web01: app01}\nallowlist: allow.yaml\n"
ALLOW = 'version: 1\ncurrent: ["**"]\n'

# (file that sets the profile, its text, the file the convention names)
CASES = {
    "properties": ("config/application.properties", "spring.profiles.active=web01\n",
                   "config/application-web01.yml"),
    "list": ("src/main/resources/application.properties", "spring.profiles.active=prod,web01\n",
             "src/main/resources/application-web01.properties"),
    "yaml": ("config/application.yml", "server:\n  port: 80\nspring:\n  profiles:\n    active: web01\n",
             "config/application-web01.yaml"),
    "env": ("deploy/app.env", "SPRING_PROFILES_ACTIVE=web01\n", "config/application-web01.yml"),
    "symfony": (".env", "APP_ENV=web01\n", ".env.web01"),
    "flag": ("run.sh", "java -jar app.jar --spring.profiles.active=web01\n", "config/bootstrap-web01.yml"),
}
# Conventions whose file the sweep renames with the word (both follow), unless its path is kept.
FOLLOWING = {
    "rails": ("Procfile", "web: RAILS_ENV=web01 bundle exec puma\n", "config/environments/web01.rb",
              "config/environments/app01.rb"),
    "node": ("deploy/service.env", "NODE_ENV=web01\n", "config/web01.json", "config/app01.json"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_profile_word_is_held_with_its_file(case: str, repo: Callable[..., Path],
                                              run: Callable[..., Result]) -> None:
    setter, text, named = CASES[case]
    root = repo({setter: text, named: "server.port: 8443\n", "notes/hosts.conf": "server web01\n"},
                config=CONFIG, allowlist=ALLOW)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 1, swept.stdout + swept.stderr  # before: 0, the word rewritten alone
    assert (root / setter).read_text() == text  # the word stays with the file it names
    assert (root / named).exists()
    assert (root / "notes/hosts.conf").read_text() == "server app01\n"  # a plain mention moves
    verified = run(root, "verify")
    assert verified.exit_code == 1
    assert f"{setter}:" in verified.stdout and "held-path" in verified.stdout, verified.stdout
    assert named in verified.stdout, verified.stdout


def test_a_profile_naming_no_held_file_moves(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """No file spells the profile: the word is an ordinary value and follows the rename."""
    root = repo({"config/application.properties": "spring.profiles.active=web01\n",
                 "config/application-db.yml": "x: 1\n"}, config=CONFIG, allowlist=ALLOW)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 0, swept.stdout + swept.stderr
    assert (root / "config/application.properties").read_text() == "spring.profiles.active=app01\n"


@pytest.mark.parametrize("case", sorted(FOLLOWING))
def test_a_profile_word_follows_its_renamed_file(case: str, repo: Callable[..., Path],
                                                 run: Callable[..., Result]) -> None:
    setter, text, named, renamed = FOLLOWING[case]
    root = repo({setter: text, named: "x: 1\n"}, config=CONFIG, allowlist=ALLOW)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 0, swept.stdout + swept.stderr
    assert (root / setter).read_text() == text.replace("web01", "app01")
    assert (root / renamed).exists() and not (root / named).exists()
    assert run(root, "verify", "--strict").exit_code == 0


@pytest.mark.parametrize("case", sorted(FOLLOWING))
def test_a_profile_word_stays_with_its_kept_file(case: str, repo: Callable[..., Path],
                                                 run: Callable[..., Result]) -> None:
    """`keep_paths` keeps the file's name: the word that names it is kept with it."""
    setter, text, named, _ = FOLLOWING[case]
    allow = f'version: 1\ncurrent: ["**"]\nkeep_paths: ["{named}"]\n'
    root = repo({setter: text, named: "x: 1\n"}, config=CONFIG, allowlist=allow)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 1, swept.stdout + swept.stderr
    assert (root / setter).read_text() == text  # before: rewritten, naming no file
    assert (root / named).exists()
    verified = run(root, "verify")
    assert verified.exit_code == 1 and "held-path" in verified.stdout, verified.stdout
