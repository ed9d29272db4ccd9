"""The report's 95-case table as a test: no row may be a bug (see tests/adversarial/__init__.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.adversarial.cases import CASES
from tests.adversarial.harness import run_case

REPORT = Path(__file__).with_name("table.md")  # the report's table, copied from ../shared/reports
ROW = re.compile(r"\| (\d+) \| (.*?) \| (.*) \| (.*?) \| .*? \| (.*?) \|$")

def _params() -> list[object]:
    return [pytest.param(number, id=entry.test_id) for number, entry in CASES.items()]


@pytest.mark.parametrize("number", _params())
def test_case(number: int, tmp_path: Path) -> None:
    entry = CASES[number]
    outcome = run_case(entry, tmp_path / f"case-{number}")
    assert outcome.verdict != "bug", f"case {number} ({entry.text}): {outcome.detail}"
    assert outcome.verdict == ("decided" if entry.doubtful else "ok"), outcome


def test_the_registry_is_the_reports_table() -> None:
    rows = {int(m[1]): (m[2], m[3], m[4], m[5] == "doubtful")
            for m in map(ROW.match, REPORT.read_text().splitlines()) if m}
    registry = {n: (c.area, c.text, c.expected, c.doubtful) for n, c in CASES.items()}
    assert registry == rows
