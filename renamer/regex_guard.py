"""Regular expressions a repo supplies (allowlist keys such as `dated.sections`, `near_miss.ignore`;
regex-looking tokens in files), refused before they run when Python's backtracking engine could
take exponential time on them.

Why a check and not another engine: a linear-time engine (RE2) is a compiled dependency for every
install and drops lookarounds and backreferences people write in these keys; a deadline needs a
process to kill, since a running `re` match never yields to a signal handler. The exponential
cases all have one shape, a repetition that can match the same text in more than one way: a
repeated group holding a quantifier of variable count (`(a+)+`, `(a?){50}`, `(\\w+\\s?)*`), or
an alternation whose branches can start alike (`(a|ab)*`, `(\\w|\\d)+`). Those are refused, with
the way to write them safely. Polynomial cases (`.*.*.*x`) stay: their time is bounded by a
line's length (docs/reliability.md).
"""

from __future__ import annotations

import re
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any

# A bounded repetition of more than this many rounds counts as unbounded: (a|aa){40} is as slow.
_MANY = 8
_REPEATS = {sre.MAX_REPEAT, sre.MIN_REPEAT}


class UnsafeRegex(ValueError):
    """A regular expression refused before it runs; the message says why and what to write."""


def compile_untrusted(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`pattern` compiled, or UnsafeRegex when it could backtrack exponentially (re.error as usual)."""
    compiled = re.compile(pattern, flags)
    problem = refusal(pattern, flags)
    if problem:
        raise UnsafeRegex(problem)
    return compiled


def refusal(pattern: str | bytes, flags: int = 0) -> str | None:
    """Why `pattern` could take exponential time, or None; the pattern must compile."""
    try:
        parsed = sre_parse.parse(pattern, flags)
    except (re.error, OverflowError, RecursionError):
        return None  # not ours to judge: compiling it says what is wrong
    return _walk(list(parsed), rounds=1)


def _walk(items: list[tuple[Any, Any]], rounds: float) -> str | None:
    """`rounds`: how many times the enclosing repetitions may run these items, multiplied
    ((?:(?:a?){8}){8} runs `a?` 64 times: as many as an unbounded one, for backtracking)."""
    for op, av in items:
        problem = _item(op, av, rounds)
        if problem:
            return problem
    return None


def _item(op: Any, av: Any, rounds: float) -> str | None:
    repeated = rounds > _MANY
    if op in _REPEATS or op == getattr(sre, "POSSESSIVE_REPEAT", None):
        low, high, body = av
        varies = low != high
        if repeated and varies and _matches_text(body):
            return ("a quantifier inside a repeated group ((a+)+ style) can take exponential time: "
                    "repeat a character class instead, or make the inner part fixed")
        return _walk(list(body), rounds * (float("inf") if high == sre.MAXREPEAT else max(high, 1)))
    if op == sre.BRANCH:
        branches = av[1]
        if repeated and not _distinct_starts(branches):
            return ("an alternation whose branches can start alike inside a repetition ((a|ab)* style) "
                    "can take exponential time: use a character class, or branches that start differently")
        return next((p for b in branches if (p := _walk(list(b), rounds))), None)
    if op == sre.SUBPATTERN:
        return _walk(list(av[3]), rounds)
    if op in (sre.ASSERT, sre.ASSERT_NOT):
        return _walk(list(av[1]), rounds)
    if op == getattr(sre, "ATOMIC_GROUP", None):
        return _walk(list(av), rounds)
    if op == sre.GROUPREF_EXISTS:
        return _walk(list(av[1]), rounds) or (_walk(list(av[2]), rounds) if av[2] else None)
    return None


def _matches_text(body: Any) -> bool:
    """Can the repeated part match a character at all? (`(?:^)*` cannot, and costs nothing.)"""
    return bool(body.getwidth()[1])


def _distinct_starts(branches: list[Any]) -> bool:
    """Does each branch start with its own literal character, so at most one can match here?"""
    firsts = []
    for branch in branches:
        items = list(branch)
        if not items or items[0][0] != sre.LITERAL:
            return False
        firsts.append(items[0][1])
    return len(set(firsts)) == len(firsts)
