"""Untrusted regex (issue 27, item 16a / adversarial B-9): a regular expression taken from the repo
that could backtrack exponentially is refused at load, in seconds, naming file, line and key; the
patterns people write still load and work."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from renamer.regex_guard import refusal
from tests.conftest import Result

CONFIG = "version: 1\ncutover: 2026-10-05\nrenames: {hosts: {ana-ml2: fv-ml1}}\nallowlist: allow.yaml\n"
# Lines that make each hostile pattern below backtrack for minutes under Python's engine.
NOTES = "a" * 40 + "c\n" + "x" * 40 + "\nana-ml2\n"


def _allow(key: str, pattern: str) -> str:
    section, _, name = key.partition(".")
    escaped = pattern.replace("\\", "\\\\").replace('"', '\\"')
    return f'version: 1\ncurrent: ["**"]\n{section}:\n  {name}: ["{escaped}"]\n'


@pytest.mark.parametrize(("key", "pattern", "why"), (
    pytest.param("dated.sections", r"^(a+)+b(?P<date>\d{4}-\d{2}-\d{2})", "a quantifier inside a repeated group",
                 id="b9-reproduction"),
    pytest.param("dated.sections", r"^(?:a|aa)+b(?P<date>\d{4}-\d{2}-\d{2})", "an alternation whose branches",
                 id="overlapping-alternation"),
    pytest.param("dated.sections", r"^(\w+\s?)*(?P<date>\d{4}-\d{2}-\d{2})", "a quantifier inside",
                 id="words-and-optional-space"),
    pytest.param("dated.sections", r"^(a?){40}(?P<date>\d{4}-\d{2}-\d{2})", "a quantifier inside",
                 id="bounded-but-many-rounds"),
    pytest.param("dated.sections", r"^(?=(a*)*b)(?P<date>\d{4}-\d{2}-\d{2})", "a quantifier inside",
                 id="inside-a-lookahead"),
    pytest.param("near_miss.ignore", r"(x|xy)*z", "an alternation whose branches", id="near-miss-ignore"),
    pytest.param("near_miss.ignore", r"((x+)+)+y", "a quantifier inside", id="three-deep"),
    # bounds that are small each but multiply: 8 x 8 rounds of `a?` (found by the break-it pass)
    pytest.param("dated.sections", r"^(?:(?:a?){8}){8}(?P<date>\d{4}-\d\d-\d\d)", "a quantifier inside",
                 id="nested-bounds-multiply"),
))
def test_a_catastrophic_regex_is_refused_at_load(key: str, pattern: str, why: str, repo: Callable[..., Path],
                                                  run: Callable[..., Result]) -> None:
    root = repo({"notes.md": NOTES}, config=CONFIG, allowlist=_allow(key, pattern))
    for command in (("verify",), ("sweep", "--dry-run"), ("audit",)):
        started = time.monotonic()
        result = run(root, *command)
        assert time.monotonic() - started < 10
        assert result.exit_code == 2 and result.stdout == ""
        line = next(line for line in result.stderr.splitlines() if line.startswith("renamer: error:"))
        assert line.startswith(f"renamer: error: allow.yaml:4: {key}[0]: refused regular expression: {why}")
        assert "Traceback" not in result.stderr


@pytest.mark.parametrize("pattern", (
    pytest.param(r"^#{1,6}\s+\[?(?P<date>\d{4}-\d{2}-\d{2})", id="shipped-heading"),
    pytest.param(r"^\[(?P<date>\d{4}-\d{2}-\d{2})\]", id="shipped-bracket"),
    pytest.param(r"^(?:\d{1,3}\.){3}\d{1,3} (?P<date>\d{4}-\d{2}-\d{2})", id="bounded-address"),
    pytest.param(r"^(?:foo|bar)+ (?P<date>\d{4}-\d{2}-\d{2})", id="distinct-alternation"),
    pytest.param(r"^(?:ab){2,}\s*(?P<date>\d{4}-\d{2}-\d{2})", id="fixed-body"),
))
def test_ordinary_section_patterns_still_work(pattern: str, repo: Callable[..., Path],
                                              run: Callable[..., Result]) -> None:
    notes = "# Notes\n\nssh ana-ml2\n\n# 2026-09-01\nana-ml2 then\n"
    root = repo({"notes.md": notes}, config=CONFIG, allowlist=_allow("dated.sections", pattern))
    result = run(root, "verify")
    assert "renamer: error" not in result.stderr and result.exit_code == 1  # the live line is reported


@pytest.mark.parametrize(("pattern", "refused"), (
    pytest.param(r"(a+)+", True, id="nested-plus"),
    pytest.param(r"(a|ab)*", True, id="alternation-alike"),
    pytest.param(r"(?:x+)*y", True, id="non-capturing"),
    pytest.param(r"(\w|\d)+", False, id="alternation-of-classes-is-one-class"),
    pytest.param(r"(a{2})+", False, id="fixed-inner"),
    pytest.param(r"(?:\d{1,3}\.){3}", False, id="few-rounds"),
    pytest.param(r"(?:^)*x", False, id="empty-body"),
    pytest.param(r".*.*x", False, id="polynomial-left-alone"),
))
def test_refusal_reads_the_pattern_tree(pattern: str, refused: bool) -> None:
    assert (refusal(pattern) is not None) is refused
