"""A dated file name is evidence of history; a live include of that file is evidence against it
(break-it round 21, finding 33): `k8s/app-2025-01-15.yaml` listed in a kustomization's
`resources:` and `haproxy-20250301.cfg` loaded by a unit's `haproxy -f` were kept as `dated-file`
records while kustomize and haproxy kept loading them (verify OK)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

CONFIG = "version: 1\nname: m\ncutover: 2026-10-05\nrenames:\n  hosts: {web01: app01}\nallowlist: allow.yaml\n"
DATED = "version: 1\ndated:\n  filenames: true\n"
FILES = {"k8s/app-2025-01-15.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n  host: web01\n",
         "k8s/kustomization.yaml": "resources:\n  - app-2025-01-15.yaml\n",
         "haproxy-20250301.cfg": "backend b\n  server web01 10.0.0.1:80\n",
         "haproxy.service": "[Service]\nExecStart=/usr/sbin/haproxy -f /etc/haproxy/haproxy-20250301.cfg\n"}


def test_an_include_by_a_file_nobody_classed_leaves_the_dated_file_undecided(repo: Callable[..., Path],
                                                                            run: Callable[..., Result]) -> None:
    root = repo(FILES, config=CONFIG, allowlist=DATED)
    done = run(root, "verify")
    assert done.exit_code == 1
    assert ("k8s/app-2025-01-15.yaml:6:9: unclassified: web01 -> app01 [data.host]: its dated name keeps it as "
            "history, but k8s/kustomization.yaml:2 names it by its path") in done.stdout
    assert "haproxy-20250301.cfg:2:10: unclassified" in done.stdout and "haproxy.service:2 names it" in done.stdout


def test_a_live_include_directive_makes_the_dated_file_current(repo: Callable[..., Path],
                                                              run: Callable[..., Result]) -> None:
    allow = DATED + "current: ['k8s/kustomization.yaml', 'haproxy.service']\n"
    root = repo(FILES, config=CONFIG, allowlist=allow)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr  # the unit's absolute path: undecided
    assert (root / "k8s/app-2025-01-15.yaml").read_text().endswith("host: app01\n")
    assert (root / "haproxy-20250301.cfg").read_text() == FILES["haproxy-20250301.cfg"]
    verify = run(root, "verify")
    assert "haproxy-20250301.cfg:2:10: unclassified" in verify.stdout


@pytest.mark.parametrize("files", [
    pytest.param({"notes/2025-01-15-outage.md": "web01 was down\n"}, id="named-by-nobody"),
    pytest.param({"notes/2025-01-15-outage.md": "web01 was down\n",
                  "CHANGELOG.md": "see notes/2025-01-15-outage.md\n"}, id="named-by-a-record"),
])
def test_a_dated_file_no_live_file_names_stays_history(files: dict[str, str], repo: Callable[..., Path],
                                                       run: Callable[..., Result]) -> None:
    allow = DATED + "records:\n  - name: changelog\n    paths: [CHANGELOG.md]\n    reason: history\n"
    root = repo(files, config=CONFIG, allowlist=allow)
    assert run(root, "verify").exit_code == 0
    assert (root / "notes/2025-01-15-outage.md").read_text() == "web01 was down\n"
