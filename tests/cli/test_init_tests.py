"""renamer init and tests that check live values (issue 27, item 13 / newcomer-pass-2 B1): a test that
reads the live configuration is current state, rewritten with what it tests; fixtures that freeze old
data are records; a test init cannot judge is listed as undecided, with why, and verify fails on it."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import init_and_commit

RENDER = '#!/bin/sh\necho "node_a=pihole0.local.theama.co addr=10.1.0.53"\n'
LIVE_TEST = ('#!/bin/sh\nout=$(sh "$ROOT/scripts/render-node-config.sh")\n'
             '[ "$out" = "node_a=pihole0.local.theama.co addr=10.1.0.53" ] || exit 1\n')
PAIRS = ("--from", "pihole0.local.theama.co=dns-a.local.theama.co", "--from", "10.1.0.53=10.2.0.53")


def _init(root: Path, run: Callable[..., Result]) -> Result:
    return init_and_commit(root, run, PAIRS)  # type: ignore[no-any-return]


@pytest.mark.parametrize(("rel", "text"), [
    pytest.param("tests/render-regression.sh", LIVE_TEST, id="root-variable"),
    pytest.param("tests/render-regression.sh",
                 LIVE_TEST.replace('"$ROOT/scripts/render-node-config.sh"', "../scripts/render-node-config.sh"),
                 id="relative-path"),
    pytest.param("test/test_render.py",
                 'import subprocess\n\ndef test_render():\n    out = subprocess.check_output(["sh", '
                 '"scripts/render-node-config.sh"], text=True)\n'
                 '    assert out.strip() == "node_a=pihole0.local.theama.co addr=10.1.0.53"\n', id="python-root"),
    pytest.param("spec/render_spec.sh", LIVE_TEST.replace('"$ROOT/scripts/render-node-config.sh"',
                                                          '"${REPO}/scripts/render-node-config.sh"'),
                 id="braced-variable"),
])
def test_a_test_that_reads_a_live_file_is_current_and_passes_after_the_sweep(
        rel: str, text: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"scripts/render-node-config.sh": RENDER, rel: text}, config=None, allowlist=None)
    done = _init(root, run)
    assert "Tests that read live files, made current (1;" in done.stdout
    assert f"  {rel}  (reads scripts/render-node-config.sh)" in done.stdout
    assert "test-fixtures" not in next((root / "allowlists").glob("*.yaml")).read_text()
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 0, swept.stdout + swept.stderr
    assert "10.2.0.53" in (root / rel).read_text()
    if rel.endswith(".sh"):  # the repo's own test passes after the move, as it did before
        env = {"ROOT": str(root), "REPO": str(root), "PATH": "/usr/bin:/bin"}
        folder, name = rel.rsplit("/", 1)  # run where it lives: `../scripts/...` is relative to it
        check = subprocess.run(["sh", name], cwd=root / folder, env=env, capture_output=True, text=True)
        assert check.returncode == 0, check.stdout + check.stderr
    assert run(root, "verify").exit_code == 0


def test_fixtures_that_freeze_old_data_are_records(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"scripts/render-node-config.sh": RENDER,
                 "tests/fixtures/2026-09-lease-dump.txt": "10.1.0.53 pihole0.local.theama.co\n",
                 "tests/testdata/old-inventory.ini": "[dns]\npihole0.local.theama.co\n"},
                config=None, allowlist=None)
    done = _init(root, run)
    assert "Test fixtures (test-fixtures): tests/fixtures/**, tests/testdata/** (2 files)" in done.stdout
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 0, swept.stdout + swept.stderr
    assert "pihole0" in (root / "tests/testdata/old-inventory.ini").read_text()


@pytest.mark.parametrize(("rel", "text"), [
    pytest.param("tests/test_parse.py", "def test_parse():\n    assert parse('10.1.0.53') == ('10.1.0.53',)\n",
                 id="names-no-file"),
    pytest.param("tests/check.sh", 'sh ./missing/render.sh | grep -q 10.1.0.53\n', id="names-a-missing-file"),
    pytest.param("tests/check.sh", 'grep -q 10.1.0.53 tests/fixtures/frozen.txt\n', id="names-only-a-fixture"),
])
def test_a_test_init_cannot_judge_is_undecided_with_why(rel: str, text: str, repo: Callable[..., Path],
                                                        run: Callable[..., Result]) -> None:
    root = repo({"scripts/render-node-config.sh": RENDER, rel: text,
                 "tests/fixtures/frozen.txt": "10.1.0.53\n"}, config=None, allowlist=None)
    done = _init(root, run)
    folder = rel.split("/")[0]
    assert (f"  {rel}  (a test in {folder}/ that names no live file: does it check live values (current) "
            "or freeze old data (a record)?)") in done.stdout
    assert f"#   {rel}  (a test in" in next((root / "allowlists").glob("*.yaml")).read_text()
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 1  # an undecided file is left for a decision
    assert (root / rel).read_text() == text
    verify = run(root, "verify")
    assert verify.exit_code == 1 and rel in verify.stdout
