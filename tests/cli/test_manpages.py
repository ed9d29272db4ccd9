"""The committed man pages are what click-man makes of the commands' own --help today."""

from __future__ import annotations

import re
from pathlib import Path

from renamer.cli.manpages import pages

MAN = Path(__file__).resolve().parents[2] / "man" / "man1"
_DATE = re.compile(r'^(\.TH "[^"]*" "1") "[^"]*"', re.MULTILINE)  # the day they were made


def _undated(text: str) -> str:
    return _DATE.sub(r'\1 ""', text)


def test_the_man_pages_match_the_help() -> None:
    generated = {name: _undated(text) for name, text in pages("").items()}
    committed = {p.name: _undated(p.read_text(encoding="utf-8")) for p in MAN.glob("*.1")}
    assert sorted(committed) == sorted(generated), "regenerate: python -m renamer.cli.manpages man/man1"
    for name, text in generated.items():
        assert committed[name] == text, f"{name} is stale: python -m renamer.cli.manpages man/man1"


def test_one_page_per_command() -> None:
    names = set(pages(""))
    assert {"renamer.1", "renamer-sweep.1", "renamer-verify.1", "renamer-dns-apply.1"} <= names
