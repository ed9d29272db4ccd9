"""Untrusted regex (issue 27, item 16a / adversarial B-9): a regular expression taken from the repo
that could backtrack exponentially is refused at load, in seconds, naming file, line and key; the
patterns people write still load and work."""

from __future__ import annotations

import random
import re
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
    pytest.param(r".*.*x", True, id="polynomial"),
    pytest.param(r".*x.*", False, id="trailing-quantifier-never-backtracked"),
    pytest.param(r"(?>\s*)\s*y", False, id="atomic-gives-nothing-back"),
    pytest.param(r"\s*+\s*y", False, id="possessive"),
    pytest.param(r"\s*x\s*y", False, id="separated-by-what-the-first-cannot-match"),
    pytest.param(r"a*A*b", False, id="case-sensitive-disjoint"),
    pytest.param(r"(?i)a*A*b", True, id="ignorecase-overlaps"),
))
def test_refusal_reads_the_pattern_tree(pattern: str, refused: bool) -> None:
    assert (refusal(pattern) is not None) is refused



# -- polynomial backtracking (break-it pass 2 on issue 27): refused at load as well -------------------

POLY_NOTES = "2025-01-01" + " " * 300 + "!\n" + "9" * 300 + "!\n" + "a" * 300 + "!\nana-ml2\n"


@pytest.mark.parametrize(("key", "pattern"), (
    pytest.param("dated.sections", r"(?P<date>\d{4}-\d{2}-\d{2})\s*\s*\s*\s*\s*\s*z", id="break-it-reproduction"),
    pytest.param("dated.sections", r"(?P<date>\d{4}-\d{2}-\d{2})\s+\s+\s+\s+z", id="plus-quantifiers"),
    pytest.param("dated.sections", r"(?P<date>\d{4}-\d{2}-\d{2})[ \t]*\s*(?: *)\s*z", id="class-and-group"),
    pytest.param("dated.sections", r"(?P<date>\d{4}-\d{2}-\d{2})\s*x?\s*y?\s*z", id="through-optional-items"),
    pytest.param("dated.sections", r"(?P<date>\d{4}-\d{2}-\d{2}).*.*.*.*z", id="dots"),
    pytest.param("dated.sections", r"(?P<date>\d{4}-\d{2}-\d{2})\s{0,400}\s{0,400}\s{0,400}z", id="wide-bounds"),
    pytest.param("near_miss.ignore", r"\d+\d+\d+\d+\d+!x", id="near-miss-digits"),
    pytest.param("dated.sections", r"^(?P<date>\d{4}-\d{2}-\d{2})?\w*\w*\w*\w*\w*z", id="words"),
))
def test_a_polynomial_regex_is_refused_at_load(key: str, pattern: str, repo: Callable[..., Path],
                                               run: Callable[..., Result]) -> None:
    allow = _allow(key, pattern) + ('  section_paths: ["**"]\n' if key == "dated.sections" else "")
    root = repo({"notes.txt": POLY_NOTES}, config=CONFIG, allowlist=allow)
    for command in (("sweep", "--dry-run"), ("verify", "--strict")):
        started = time.monotonic()
        result = run(root, *command)
        assert time.monotonic() - started < 10
        assert result.exit_code == 2 and result.stdout == ""
        assert result.stderr.startswith(f"renamer: error: allow.yaml:4: {key}[0]: refused regular expression: "
                                        "two quantifiers that can match the same characters")
        assert "Traceback" not in result.stderr


# A small grammar of the atoms and quantifiers people write; every pattern it makes that the guard
# accepts must run in bounded time on lines built to make it backtrack (each atom's character,
# repeated, then one that fails).
_ATOMS = (r"\s", r"\w", r"\d", ".", "a", "[a-z]", "[^x]", " ", r"\.", "(?:ab|c)", "(?:a|\\s)")
_QUANTIFIERS = ("", "*", "+", "?", "{0,20}", "{2,}", "*?")


def _generated(count: int) -> list[str]:
    chooser = random.Random(27)
    out = []
    while len(out) < count:
        items = [chooser.choice(_ATOMS) + chooser.choice(_QUANTIFIERS) for _ in range(chooser.randint(2, 6))]
        if chooser.random() < 0.3:
            cut = chooser.randint(0, len(items) - 1)
            items[cut] = "(?:" + items[cut] + ")" + chooser.choice(("", "?", "{2}"))
        out.append("".join(items) + chooser.choice(("z", "$", "!x", "")))
    return out


_HOSTILE = [c * 500 + "!" for c in (" ", "a", "9", "ab", "c", "a ", ".", "x")]


def test_every_accepted_pattern_runs_in_bounded_time_on_adversarial_lines() -> None:
    accepted = refused = 0
    for pattern in _generated(400):
        if refusal(pattern) is not None:
            refused += 1
            continue
        accepted += 1
        compiled = re.compile(pattern)
        started = time.monotonic()
        for line in _HOSTILE:
            compiled.search(line)
        # Quadratic at worst: 8 lines of 500 characters take a fraction of a second; a cubic pattern on
        # one of them alone takes seconds.
        assert time.monotonic() - started < 2, pattern
    assert accepted > 100 and refused > 50, (accepted, refused)  # the grammar makes both kinds
