"""A key whose reference cannot follow it is held back with that reference (break-it round 7,
findings 10b and 10c).

Two calls of ./dns set `hosts = { pug = ... }`, one kept: the module's `var.hosts.pug` was a
`key-reference` residual, yet the second call's key was renamed, so the module read a key that
one caller no longer gives. Helm's `$root.Values.hosts.pug` likewise: the reader left, the values
key renamed. Wherever a reference is a residual, the keys it may read are not renamed in this
sweep either (a residual each, naming the reference), nor the references that follow those keys;
nothing of the pair is written, exit 1; once the reader is fixed, a second sweep moves them all.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import git, snapshot

CONFIG = """\
version: 1
renames:
  hosts: {pug: wolf, pug.ana.lan: wolf.fv.lan}
allowlist: allow.yaml
"""
ALLOW = 'version: 1\ncurrent: ["**"]\n'
MODULE = 'variable "hosts" {}\noutput "ip" { value = var.hosts.pug.ip }\n'


def _call(name: str, keep: str = "") -> str:
    return f'module "{name}" {{\n  source = "./modules/dns"\n  hosts  = {{ pug = {{ ip = "x" }} }}{keep}\n}}\n'


CHART = {"chart/Chart.yaml": "apiVersion: v2\nname: web\nversion: 0.1.0\n",
         "chart/values.yaml": "hosts:\n  pug: x\n"}
CASES = [
    pytest.param({"modules/dns/main.tf": MODULE, "main.tf": _call("a", "  # renamer: keep") + _call("b")},
                 {"modules/dns/main.tf": 2, "main.tf": 7},
                 ("main.tf", "  # renamer: keep", ""), id="10b-two-calls-one-kept"),
    pytest.param({"modules/dns/main.tf": MODULE, "main.tf": _call("a", "  # renamer: keep old box") + _call("b")
                  + _call("c")},
                 {"modules/dns/main.tf": 2, "main.tf": 7},
                 ("main.tf", "  # renamer: keep old box", ""), id="three-calls-one-kept"),
    pytest.param({**CHART, "chart/templates/cm.yaml": "{{- $root := . }}\nip: {{ $root.Values.hosts.pug }}\n"
                                                      "b: {{ .Values.hosts.pug }}\n"},
                 {"chart/templates/cm.yaml": 2, "chart/values.yaml": 2},
                 ("chart/templates/cm.yaml", "$root.Values", ".Values"), id="10c-helm-root-variable"),
    pytest.param({"group_vars/all.yml": "net:\n  hosts:\n    pug: {ip: x}\n",
                  "templates/a.j2": "{{ hosts.pug.ip }}\n{{ net.hosts.pug.ip }}\n"},
                 {"templates/a.j2": 1, "group_vars/all.yml": 3},
                 ("templates/a.j2", "{{ hosts.pug", "{{ net.hosts.pug"), id="a-partial-path-and-a-follower"),
]


def _findings(root: Path, run: Callable[..., Result]) -> set[tuple[str, str, int]]:
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    return {(str(f["reason"]), str(f["path"]), int(f["line"])) for f in found}


@pytest.mark.parametrize(("files", "residuals", "fix"), CASES)
def test_a_key_is_held_back_with_a_reference_that_cannot_follow_it(
        files: dict[str, str], residuals: dict[str, int], fix: tuple[str, str, str],
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    before = snapshot(root)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert snapshot(root) == before  # nothing of the pair written
    assert "held back with" in done.stdout, done.stdout
    found = _findings(root, run)
    for rel, line in residuals.items():
        assert ("key-reference", rel, line) in found, found
    # the user fixes the reader (or drops the keep): the next sweep moves key and readers together
    rel, old, new = fix
    (root / rel).write_text((root / rel).read_text().replace(old, new, 1))
    git(root, "commit", "-qam", "fix the reader")
    again = run(root, "sweep", "--commit")
    assert again.exit_code == 0, again.stdout + again.stderr
    for rel in files:
        if rel.endswith("Chart.yaml"):
            continue
        assert "pug" not in (root / rel).read_text(), rel
    assert run(root, "verify").exit_code == 0


def test_a_dry_run_shows_the_hold_and_changes_nothing(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"modules/dns/main.tf": MODULE, "main.tf": _call("a", "  # renamer: keep") + _call("b")},
                config=CONFIG, allowlist=ALLOW)
    before = snapshot(root)
    done = run(root, "sweep", "--dry-run")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert "main.tf:7" in done.stdout and "held back with `var.hosts.pug` at modules/dns/main.tf:2" in done.stdout
    assert snapshot(root) == before
