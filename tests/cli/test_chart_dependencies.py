"""A Helm subchart reads its parent's values under its dependency's alias, and a parent reads a
subchart's values through `import-values` (break-it round 7, finding 7).

`dependencies: [{name: web, alias: frontend, repository: file://charts/web}]` gives charts/web
the parent's `frontend:` block: values.yaml's `frontend.hosts.pug` was renamed while the
subchart's `{{ .Values.hosts.pug }}` and `{{ $h.pug }}` were left (verify OK, near-misses).
`import-values: [{child: hosts, parent: subhosts}]` maps the child's `hosts` into the parent's
`subhosts`: a parent reader of `subhosts.pug` follows the child's key (or keeps with it, or is a
residual where the two disagree).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import snapshot

CONFIG = """\
version: 1
renames:
  hosts: {pug: wolf, pug.ana.lan: wolf.fv.lan}
allowlist: allow.yaml
"""
ALLOW = 'version: 1\ncurrent: ["**"]\n'
KEEP = "  # renamer: keep"
SUB_META = "apiVersion: v2\nname: web\nversion: 0.1.0\n"
READER = "a: {{ .Values.hosts.pug }}\n{{- $h := .Values.hosts }}\nb: {{ $h.pug }}\n"


def _parent(dependencies: str) -> str:
    return f"apiVersion: v2\nname: app\nversion: 0.1.0\ndependencies:{dependencies}"


ALIASED = [
    pytest.param(" [{name: web, alias: frontend, repository: file://charts/web, version: 0.1.0}]\n",
                 "charts/web", id="the-report-flow"),
    pytest.param("\n  - name: web\n    alias: frontend\n    repository: \"file://charts/web\"\n    version: 0.1.0\n",
                 "charts/web", id="block"),
    pytest.param("\n  - name: web\n    alias: frontend\n    version: 0.1.0\n", "charts/web", id="no-repository"),
]


@pytest.mark.parametrize(("dependencies", "folder"), ALIASED)
def test_a_subchart_follows_its_alias_block(dependencies: str, folder: str, repo: Callable[..., Path],
                                            run: Callable[..., Result]) -> None:
    files = {"Chart.yaml": _parent(dependencies), "values.yaml": "frontend:\n  hosts:\n    pug: x\n",
             f"{folder}/Chart.yaml": SUB_META, f"{folder}/templates/cm.yaml": READER}
    values, reader = "values.yaml", f"{folder}/templates/cm.yaml"
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / values).read_text() == "frontend:\n  hosts:\n    wolf: x\n"
    assert (root / reader).read_text() == READER.replace("pug", "wolf")
    checked = run(root, "verify")
    assert checked.exit_code == 0 and " 0 near-misses" in checked.stdout, checked.stdout


def test_a_kept_alias_block_keeps_the_subchart_s_readers(repo: Callable[..., Path],
                                                         run: Callable[..., Result]) -> None:
    files = {"Chart.yaml": _parent(ALIASED[0].values[0]), "values.yaml": f"frontend:\n  hosts:\n    pug: x{KEEP}\n",
             "charts/web/Chart.yaml": SUB_META, "charts/web/templates/cm.yaml": READER}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "charts/web/templates/cm.yaml").read_text() == READER
    assert run(root, "verify").exit_code == 0


IMPORTS = "\n  - name: web\n    repository: file://charts/web\n    import-values:\n" \
          "      - child: hosts\n        parent: subhosts\n"


@pytest.mark.parametrize(("child", "expected"), [
    pytest.param("hosts:\n  pug: x\n", "follows", id="the-report"),
    pytest.param(f"hosts:\n  pug: x{KEEP}\n", "keeps", id="kept-child-key"),
])
def test_a_parent_reads_an_imported_child_value(child: str, expected: str, repo: Callable[..., Path],
                                                 run: Callable[..., Result]) -> None:
    reader = "a: {{ .Values.subhosts.pug }}\n"
    files = {"Chart.yaml": _parent(IMPORTS), "values.yaml": "x: 1\n", "templates/cm.yaml": reader,
             "charts/web/Chart.yaml": SUB_META, "charts/web/values.yaml": child}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    want = reader.replace("pug", "wolf") if expected == "follows" else reader
    assert (root / "templates/cm.yaml").read_text() == want
    assert run(root, "verify").exit_code == 0


def test_an_imported_value_the_parent_also_sets_and_keeps_is_held(repo: Callable[..., Path],
                                                                   run: Callable[..., Result]) -> None:
    """The parent's own kept `subhosts.pug` beside the child's renamed one: the reader cannot be
    told, and the child's key is held with it (finding 10)."""
    files = {"Chart.yaml": _parent(IMPORTS), "values.yaml": f"subhosts:\n  pug: y{KEEP}\n",
             "templates/cm.yaml": "a: {{ .Values.subhosts.pug }}\n",
             "charts/web/Chart.yaml": SUB_META, "charts/web/values.yaml": "hosts:\n  pug: x\n"}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    before = snapshot(root)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert snapshot(root) == before
    assert "charts/web/values.yaml:2" in done.stdout and "held back with" in done.stdout
