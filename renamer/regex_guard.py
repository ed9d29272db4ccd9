"""Regular expressions a repo supplies (allowlist keys such as `dated.sections`, `near_miss.ignore`;
regex-looking tokens in files), refused before they run when Python's backtracking engine could
take more than quadratic time on them.

Why a check and not another engine: a linear-time engine (RE2) is a compiled dependency for every
install and drops lookarounds and backreferences people write in these keys; a deadline needs a
process to kill, since a running `re` match never yields to a signal handler. Two shapes make
backtracking blow up, and both are a way to match the same text in more than one way:

* exponential: a repeated group holding a quantifier of variable count (`(a+)+`, `(a?){50}`,
  `(\\w+\\s?)*`), or an alternation whose branches can start alike (`(a|ab)*`, `(\\w|\\d)+`);
* polynomial (issue 27, break-it pass 2: `\\s*\\s*\\s*\\s*\\s*\\s*z` on 300 blanks ran for minutes):
  two unbounded quantifiers in one sequence that can match the same character, with nothing
  between them that must match a character outside that run (`\\s*\\s*`, `\\w+\\w+`,
  `.*x.*y`, `\\s*a?\\s*`, `a+.\\w+`): each way of sharing the text between them is tried, so k
  of them cost a line's length to the power k. A quantifier at the very end of the pattern is exempt (nothing
  after it can fail, so it is never backtracked into).

Each is refused with the way to write it safely. What is accepted costs at most a line's length
squared (one quantifier tried from each start), proved by a property test over generated patterns.
Tokens from files are matched only against the configured old values (a few dozen characters), so
for them the polynomial rule is not applied (`lines=False`).
"""

from __future__ import annotations

import importlib
import re
from typing import Any

# CPython's own regex parser (private modules, typed by no stub: looked up by name, so that mypy
# reads them as modules with any attribute whatever else is installed)
sre: Any = importlib.import_module("re._constants")
sre_parse: Any = importlib.import_module("re._parser")

# A bounded repetition of more than this many rounds counts as unbounded: (a|aa){40} is as slow.
_MANY = 8
_REPEATS = {sre.MAX_REPEAT, sre.MIN_REPEAT}


class UnsafeRegex(ValueError):
    """A regular expression refused before it runs; the message says why and what to write."""


def compile_untrusted(pattern: str, flags: int = 0, *, lines: bool = True) -> re.Pattern[str]:
    """`pattern` compiled, or UnsafeRegex when it could backtrack exponentially, or polynomially
    where it runs over a file's lines (`lines`); re.error as usual."""
    compiled = re.compile(pattern, flags)
    problem = refusal(pattern, flags, lines=lines)
    if problem:
        raise UnsafeRegex(problem)
    return compiled


def refusal(pattern: str | bytes, flags: int = 0, *, lines: bool = True) -> str | None:
    """Why `pattern` could take exponential (or, with `lines`, polynomial) time, or None; the
    pattern must compile."""
    try:
        parsed = sre_parse.parse(pattern, flags)
    except (re.error, OverflowError, RecursionError):
        return None  # not ours to judge: compiling it says what is wrong
    problem = _walk(list(parsed), rounds=1)
    if problem is None and lines:
        problem = _Polynomial(parsed.state).sequence(list(parsed), last_exempt=True)
    return problem


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


# The characters a pattern item's chars are tested against: ASCII, and a few of each Unicode
# class `\\d`, `\\w` and `\\s` hold beyond it.
_SAMPLE = [chr(c) for c in range(128)] + ["\u00e9", "\u00c4", "\u00a0", "\u2003", "\u0663", "\u4e00",
                                           "\u00df"]
_CATEGORIES: dict[Any, Any] = {
    sre.CATEGORY_DIGIT: str.isdecimal, sre.CATEGORY_SPACE: str.isspace,
    sre.CATEGORY_WORD: lambda c: c.isalnum() or c == "_",
    sre.CATEGORY_NOT_DIGIT: lambda c: not c.isdecimal(), sre.CATEGORY_NOT_SPACE: lambda c: not c.isspace(),
    sre.CATEGORY_NOT_WORD: lambda c: not (c.isalnum() or c == "_"),
    sre.CATEGORY_LINEBREAK: lambda c: c == "\n", sre.CATEGORY_NOT_LINEBREAK: lambda c: c != "\n",
}
_POLYNOMIAL = ("two quantifiers that can match the same characters, one after the other (\\s*\\s* or .*x.*y "
               "style), can take polynomial time on a long line: merge them into one, or make the first "
               "exclude what follows it ([^x]*x)")


class _Polynomial:
    """The polynomial shape, over one parsed pattern (its flags decide case)."""

    def __init__(self, state: Any) -> None:
        self.state = state
        self.fold = bool(state.flags & re.IGNORECASE)

    def sequence(self, items: list[tuple[Any, Any]], *, last_exempt: bool) -> str | None:
        flat = self._flatten(items)
        for i, item in enumerate(flat):
            if not self._elastic(item):
                continue
            # The characters a run shared by the first and what follows can be made of: the
            # items between slide along such a run (`a+.\\w+` on `aaaa`), so each narrows it.
            run = self._chars(item)
            for j in range(i + 1, len(flat)):
                later = flat[j]
                if self._elastic(later) and run & self._chars(later):
                    if j == len(flat) - 1 and last_exempt:
                        break  # nothing after it can fail: it is never backtracked into
                    return _POLYNOMIAL
                if not self._nullable(later):
                    run &= self._chars(later)
                if not run:
                    break  # must match a character the run cannot hold: no sharing past it
        for op, av in flat:  # the sequences inside: a branch, a lookaround, a repeated body
            problem = None
            if op == sre.BRANCH:
                problem = next((p for b in av[1] if (p := self.sequence(list(b), last_exempt=False))), None)
            elif op in (sre.ASSERT, sre.ASSERT_NOT):
                problem = self.sequence(list(av[1]), last_exempt=False)
            elif op in _REPEATS or op == getattr(sre, "POSSESSIVE_REPEAT", None):
                # Two rounds in a row are one sequence: `(?:\\s{0,20}){2}` is `\\s{0,20}\\s{0,20}`.
                problem = self.sequence(list(av[2]) * (2 if av[1] >= 2 else 1), last_exempt=False)
            if problem:
                return problem
        return None

    def _flatten(self, items: list[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
        """A group's items stand in the sequence around it (`(?P<date>...)\\s*` is one sequence)."""
        out: list[tuple[Any, Any]] = []
        for op, av in items:
            if op == sre.SUBPATTERN:
                out += self._flatten(list(av[3]))
            else:
                out.append((op, av))
        return out

    def _width(self, item: tuple[Any, Any]) -> tuple[int, int]:
        low, high = sre_parse.SubPattern(self.state, [item]).getwidth()
        return int(low), int(high)

    def _elastic(self, item: tuple[Any, Any]) -> bool:
        """Can it match many lengths (an unbounded quantifier, or a bound wider than _MANY)?
        An atomic group or a possessive quantifier never gives back what it took."""
        if item[0] in (getattr(sre, "ATOMIC_GROUP", None), getattr(sre, "POSSESSIVE_REPEAT", None)):
            return False
        low, high = self._width(item)
        return high - low > _MANY

    def _nullable(self, item: tuple[Any, Any]) -> bool:
        return self._width(item)[0] == 0

    def _chars(self, item: tuple[Any, Any]) -> frozenset[str]:
        """The sample characters `item` can match anywhere in it (a lookaround, none)."""
        return frozenset(c for c in _SAMPLE if self._holds([item], c))

    def _holds(self, items: list[tuple[Any, Any]], c: str) -> bool:
        return any(self._item_holds(op, av, c) for op, av in items)

    def _item_holds(self, op: Any, av: Any, c: str) -> bool:
        if op == sre.LITERAL:
            return self._same(av, c)
        if op == sre.NOT_LITERAL:
            return not self._same(av, c)
        if op == sre.ANY:
            return c != "\n" or bool(self.state.flags & re.DOTALL)
        if op == sre.IN:
            negate = any(o == sre.NEGATE for o, _ in av)
            return negate != any(self._set_holds(o, a, c) for o, a in av if o != sre.NEGATE)
        if op in _REPEATS or op == getattr(sre, "POSSESSIVE_REPEAT", None):
            return self._holds(list(av[2]), c)
        if op == sre.SUBPATTERN:
            return self._holds(list(av[3]), c)
        if op == sre.BRANCH:
            return any(self._holds(list(b), c) for b in av[1])
        if op == getattr(sre, "ATOMIC_GROUP", None):
            return self._holds(list(av), c)
        if op == sre.GROUPREF_EXISTS:
            return self._holds(list(av[1]), c) or bool(av[2] and self._holds(list(av[2]), c))
        return bool(op == sre.GROUPREF)  # a backreference: any character; an anchor or lookaround: none

    def _set_holds(self, op: Any, av: Any, c: str) -> bool:
        if op == sre.LITERAL:
            return self._same(av, c)
        if op == sre.RANGE:
            return any(av[0] <= ord(x) <= av[1] for x in self._cases(c))
        if op == sre.CATEGORY:
            test = _CATEGORIES.get(av)
            return True if test is None else bool(test(c))
        return True  # anything else in a set: assume it may

    def _same(self, code: int, c: str) -> bool:
        return chr(code) in self._cases(c)

    def _cases(self, c: str) -> set[str]:
        return {c, c.lower(), c.upper()} if self.fold else {c}
