"""Patterns compiled on first use: they answer as compiled patterns do, every one of them compiles,
and importing the sweep compiles few (a work count, not a timing)."""

from __future__ import annotations

import copy
import importlib
import pickle
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from renamer import lazy_re

PACKAGE = Path(__file__).resolve().parent.parent / "renamer"


def _every_module() -> list[str]:
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if PACKAGE / "dns" / "playbook" in path.parents or path.name == "__main__.py":
            continue  # the playbook's plugins are Ansible's to run; __main__ runs the CLI
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def test_every_pattern_made_lazily_compiles() -> None:
    for name in _every_module():
        importlib.import_module(name)
    made = lazy_re.pending()
    assert len(made) > 1000  # renamer's module-level patterns, nearly all of them
    broken = []
    for pattern, flags in made:
        try:
            re.compile(pattern, flags)
        except re.error as error:
            broken.append(f"{pattern!r}: {error}")
    assert not broken, broken


def test_no_code_compares_a_matchs_pattern_with_a_stand_in() -> None:
    """`match.re` is the compiled pattern, never the stand-in that made it: `found.re is SPACED`
    was always false once SPACED was lazy, and a mask spelled apart crashed the sweep (IndexError,
    the lead's dense10 benchmark). Tell a match's kind by where it came from instead."""
    compared = re.compile(r"\.re\s*(?:is|==|!=)\s|(?:is|==|!=)\s*[\w.]+\.re\b")
    found = [f"{path.relative_to(PACKAGE.parent)}:{n}" for path in sorted(PACKAGE.rglob("*.py"))
             for n, line in enumerate(path.read_text().splitlines(), 1) if compared.search(line)]
    assert not found, found


@pytest.mark.parametrize("pattern,flags,text", [
    (r"(?P<host>web0[0-9])\.(?P<domain>lab\.example)", 0, "ssh web01.lab.example; ping web02.lab.example"),
    (rb"(?m)^[ \t]*address[ \t]+(?P<a>[0-9.]+)$", 0, b"iface eth0\n  address 10.0.0.5\n address 10.0.0.6\n"),
    (r"ANA-ML2", re.IGNORECASE, "ana-ml2 Ana-Ml2 fv-ml1"),
])
def test_a_lazy_pattern_answers_as_the_compiled_one(pattern: Any, flags: int, text: Any) -> None:
    lazy: re.Pattern[Any] = lazy_re.compile(pattern, flags)
    real: re.Pattern[Any] = re.compile(pattern, flags)
    assert lazy.pattern == real.pattern
    assert lazy.flags == real.flags and lazy.groups == real.groups and lazy.groupindex == real.groupindex
    assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in real.finditer(text)]
    assert lazy.findall(text) == real.findall(text)
    first = real.search(text)
    assert first is not None
    found = lazy.search(text)
    assert found is not None and found.span() == first.span()
    assert (lazy.match(text) is None) == (real.match(text) is None)
    assert lazy.split(text) == real.split(text)
    empty = text[:0]
    assert lazy.sub(empty, text) == real.sub(empty, text) and lazy.subn(empty, text) == real.subn(empty, text)
    assert lazy.fullmatch(text) is None and real.fullmatch(text) is None


def test_a_lazy_pattern_compiles_on_its_first_use_only() -> None:
    lazy = lazy_re.compile(r"web0[1-9]")
    assert "search" not in vars(lazy)  # nothing compiled by making it
    assert lazy.search("web01") is not None
    kept = vars(lazy)["search"]
    assert lazy.search == kept  # later calls find the compiled pattern's own method on the stand-in


def test_a_lazy_pattern_that_does_not_compile_fails_when_used() -> None:
    lazy = lazy_re.compile(r"web0[")
    with pytest.raises(re.error):
        lazy.search("web0")


def test_a_lazy_pattern_pickles_copies_and_compares_as_a_pattern_does() -> None:
    lazy = lazy_re.compile(rb"10\.0\.0\.[0-9]+", re.MULTILINE)
    for other in (pickle.loads(pickle.dumps(lazy)), copy.copy(lazy), copy.deepcopy(lazy)):
        assert other == lazy and hash(other) == hash(lazy)
        assert other.findall(b"10.0.0.5 10.0.1.5\n10.0.0.7") == [b"10.0.0.5", b"10.0.0.7"]
    assert lazy != lazy_re.compile(rb"10\.0\.0\.[0-9]+")  # other flags
    lazy.search(b"")  # compiled: still pickles (no bound method goes into the pickle)
    assert pickle.loads(pickle.dumps(lazy)) == lazy


# Patterns compiled while `renamer sweep`'s modules are imported, in a fresh interpreter: 378 at
# the stop that made them lazy (the rest, some 1,400, wait for first use: 0.18 s of CPU less in
# every run; most of the 378 sit in tables, lists and dicts of patterns). A pattern added at module level with `re.compile` instead of `lazy_re.compile` is
# compiled in every run of every command, needed or not.
IMPORT_COMPILES = 400

_COUNT = """
import re, sys
made = [0]
real = re.compile
def counted(pattern, flags=0):
    made[0] += 1
    return real(pattern, flags)
re.compile = counted
import renamer.cli.sweep, renamer.sweep.run
print(made[0])
"""


def test_importing_the_sweep_compiles_few_patterns() -> None:
    done = subprocess.run([sys.executable, "-c", _COUNT], capture_output=True, text=True, check=True)
    count = int(done.stdout.split()[-1])
    assert count <= IMPORT_COMPILES, (
        f"importing the sweep compiles {count} patterns, more than the bound {IMPORT_COMPILES}: "
        "a module-level pattern that only its methods use belongs in lazy_re.compile")
