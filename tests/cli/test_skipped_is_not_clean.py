"""Skipped is not clean (issue 27, item 15 / adversarial B-11): a current-state file renamer could not
read as text (a stray NUL, over max_file_size; UTF-16/32 is read since break-it round 17, finding
18: tests/cli/test_wide_text_without_a_bom.py) that holds an old value fails verify --strict."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import CONFIG

ALLOW = "version: 1\ncurrent: [stacks/**, runbook.md]\nrecords:\n  - name: archive\n    paths: [archive/**]\n    reason: history\n"


@pytest.mark.parametrize(("files", "config"), (
    pytest.param({"stacks/.env": b"DB_HOST=ana-ml2\n\0\n"}, CONFIG, id="a-stray-nul"),
    pytest.param({"stacks/big.txt": b"ana-ml2\n" + b"x" * 4096}, CONFIG + "options:\n  max_file_size: 1KB\n",
                 id="over-max-file-size"),
))
def test_a_skipped_live_file_fails_strict(files: dict[str, bytes], config: str, repo: Callable[..., Path],
                                          run: Callable[..., Result]) -> None:
    root = repo({"runbook.md": "ssh fv-ml1\n", **files}, config=config, allowlist=ALLOW)
    plain = run(root, "verify")
    assert plain.exit_code == 0 and "Skipped, holding old values" in plain.stdout
    strict = run(root, "verify", "--strict")
    assert strict.exit_code == 1
    assert "verify: FAILED" in strict.stdout and "1 current-state file skipped unread" in strict.stdout
    assert json.loads(run(root, "verify", "--strict", "--format", "json").stdout)["ok"] is False


def test_a_skipped_record_stays_clean(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"runbook.md": "ssh fv-ml1\n", "archive/dump.bin": b"ana-ml2\0\x01"}, allowlist=ALLOW)
    assert run(root, "verify", "--strict").exit_code == 0
