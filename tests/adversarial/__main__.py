"""`python -m tests.adversarial [--only N,M]`: re-run the report's table and print it as Markdown."""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from tests.adversarial.cases import CASES
from tests.adversarial.harness import Case, Outcome, run_case

HEADER = "| # | area | case | expected | verdict | detail |\n| ---: | --- | --- | --- | --- | --- |"


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def row(entry: Case, outcome: Outcome) -> str:
    cells = [str(entry.number), entry.area, entry.text, entry.expected, outcome.verdict, outcome.detail]
    return "| " + " | ".join(_cell(c) for c in cells) + " |"


def summary(outcomes: Sequence[Outcome]) -> str:
    counts = Counter(o.verdict for o in outcomes)
    return (f"{len(outcomes)} cases: {counts['ok']} ok, {counts['decided']} decided, "
            f"{counts['bug']} bug")


def _selected(only: str | None) -> list[Case]:
    if not only:
        return list(CASES.values())
    try:
        numbers = [int(part) for part in only.split(",") if part.strip()]
    except ValueError:
        raise SystemExit(f"--only: expected case numbers separated by commas, got {only!r}") from None
    unknown = [n for n in numbers if n not in CASES]
    if unknown:
        raise SystemExit(f"--only: no case {unknown[0]} (1..{len(CASES)})")
    return [CASES[n] for n in numbers]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.adversarial", description=__doc__)
    parser.add_argument("--only", metavar="N,M", help="run only these case numbers")
    options = parser.parse_args(argv)
    print(HEADER, flush=True)
    outcomes = []
    with tempfile.TemporaryDirectory(prefix="renamer-adversarial-") as folder:
        for entry in _selected(options.only):
            workdir = Path(folder) / f"case-{entry.number}"
            outcome = run_case(entry, workdir)
            shutil.rmtree(workdir, ignore_errors=True)
            outcomes.append(outcome)
            print(row(entry, outcome), flush=True)
    print(summary(outcomes))
    return 1 if any(o.verdict == "bug" for o in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())
