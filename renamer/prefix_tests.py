"""Prefix and substring tests of a name in any language (issue 27, round 23 finding 02).

pattern_dialects.py reads Python's and Jinja's `.startswith('web0')` as the glob `web0*`. The same
test is spelled in every language, and a substring test is the glob `*web0*`: after `web01 ->
app01` none of them selects the machine any more. They are found by the operation's name, not by
language:

* **prefix calls**: a call or method whose name says "starts with" or "has prefix", in any case
  and joining (`start_with?`, `startsWith`, `starts_with`, `str_starts_with`, `StartsWith`,
  `HasPrefix`, `hasPrefix`, `has_prefix`, `beginsWith`, `begins_with`, `string-prefix?`,
  XPath's `starts-with`): every string literal among its arguments is a prefix;
* **substring calls**: `includes`, `include?`, `contains`, `Contains`, `str_contains`,
  `strstr`, `strpos`, `stripos`, `index`, `indexOf`, `find` with a string argument, `in` after a
  string literal (Python's `'web0' in h`), `instr`: every string literal among its arguments is a
  substring;
* **the shell's prefix removal** `${h#web0}` / `${h##web0*}` (the test `[ "${h#web0}" != "$h" ]`):
  its pattern is a glob the name starts with.

Each literal is matched against the old values by patterns.py as its grammar says (a literal that
is a whole old value is the exact matcher's reference, rewritten as any other; one that names a
proper prefix or substring of an old value and not of its new value is a `pattern` residual).
Pure: bytes in, (start, end, grammar) out.
"""

from __future__ import annotations

import re

PREFIX = "prefix"  # pattern_dialects.PREFIX: the glob `x*`
CONTAINS = "contains"  # the glob `*x*`
GLOB_PREFIX = "glob-prefix"  # a glob the name starts with: `${h#web0}`

# What each position spells (caseless in the first pass).
LITERALS = (b"with", b"prefix", b"include", b"contain", b"index", b"strstr", b"strpos", b"stripos",
            b"instr", b"${", b"' in ", b'" in ', b"' not in ", b'" not in ')

_STRING = re.compile(rb"""(?P<q>['"])(?P<text>[^'"\n\\]{1,128})(?P=q)""")
# The call's name, then its opening parenthesis (or Ruby's blank before an argument), or an infix
# use (`x startsWith "a"` in Kotlin, `str.startswith?` without parentheses is rare).
_PREFIX_CALL = re.compile(rb"(?i)(?<![A-Za-z0-9_])(?:[a-z_]*(?:starts?|begins?)[_-]?with\??"
                          rb"|(?:str[_-]?)?has[_-]?prefix|string-prefix\?|str_starts_with)"
                          rb"[ \t]*(?:\(|[ \t](?=[ \t]*['\"]))")
_CONTAINS_CALL = re.compile(rb"(?i)(?<![A-Za-z0-9_])(?:includes?\??|contains?\??|str_contains|strstr|stristr"
                            rb"|strpos|stripos|index(?:of)?|instr|find)[ \t]*(?:\(|[ \t](?=[ \t]*['\"]))")
# the arguments: up to the call's closing parenthesis on the line (no nesting deeper than one call)
_ARGS = re.compile(rb"(?:[^()\n]|\([^()\n]*\))*")
# Python's `'web0' in h` / `"web0" not in h` (not `in [`, `in (`, `in {`: a collection's membership)
_IN = re.compile(rb"""(?P<q>['"])(?P<text>[^'"\n\\]{1,128})(?P=q)[ \t]+(?:not[ \t]+)?in[ \t]+"""
                 rb"""(?=[A-Za-z_$])""")
# the shell's `${h#pattern}` and `${h##pattern}` (the pattern up to `}`, no nested expansion)
_SHELL_PREFIX = re.compile(rb"\$\{[A-Za-z_][A-Za-z0-9_]*##?(?P<text>[^{}$\s\"'`]{1,128})\}")


def might_hold(data: bytes, lowered: bytes | None = None) -> bool:
    """The cheap prefilter: a word of one of the tests, in any case."""
    lowered = data.lower() if lowered is None else lowered
    return (b"with" in lowered or b"prefix" in lowered or b"includ" in lowered or b"contain" in lowered
            or b"index" in lowered or b"strstr" in lowered or b"strpos" in lowered or b"instr" in lowered
            or b"find" in lowered or b"${" in data or b"' in " in data or b'" in ' in data
            or b"' not in " in data or b'" not in ' in data)


# The calls' words, found with bytes.find over a lower-cased copy (C speed): a whole-file search
# of the two call patterns tried every position (1.4 s over 2 MB); each word found is matched
# from the start of its identifier instead.
_KEYS = (b"with", b"prefix", b"includ", b"contain", b"index", b"strstr", b"stristr", b"strpos", b"stripos",
         b"instr", b"find")
# a word, the rest of its name, then a call's parenthesis or a quoted argument
_KEY_CALLS = tuple(re.compile(re.escape(key) + rb"[a-z_?-]{0,8}[ \t]*(?:\(|[\"'])") for key in _KEYS)
_IDENT = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def _calls(data: bytes, lowered: bytes) -> list[tuple[str, re.Match[bytes]]]:
    """Each prefix or substring call in `data` (`lowered`: it in lower case): (its grammar, the match)."""
    starts: set[int] = set()
    for key in _KEY_CALLS:  # each starts with its word: re finds it in C, prose fails at once
        for found in key.finditer(lowered):
            pos = start = found.start()
            while start > 0 and pos - start < 40 and data[start - 1] in _IDENT:
                start -= 1
            starts.add(start)
    out = []
    for start in sorted(starts):
        for call, grammar in ((_PREFIX_CALL, PREFIX), (_CONTAINS_CALL, CONTAINS)):
            hit = call.match(data, start)
            if hit is not None:
                out.append((grammar, hit))
                break
    return out


def positions(data: bytes) -> list[tuple[int, int, str]]:
    """(start, end, grammar) of each literal a prefix or substring test reads, in file order."""
    lowered = data.lower()
    if not might_hold(data, lowered):
        return []
    out: list[tuple[int, int, str]] = []
    for grammar, hit in _calls(data, lowered):
        args = _ARGS.match(data, hit.end())
        end = args.end() if args is not None else hit.end()
        if not hit.group().endswith(b"("):  # Ruby/Kotlin without parentheses: the first literal
            gap = data[hit.end():end]
            first = _STRING.match(data, hit.end() + len(gap) - len(gap.lstrip()))
            if first is not None:
                out.append((*first.span("text"), grammar))
            continue
        out += [(*s.span("text"), grammar) for s in _STRING.finditer(data, hit.end(), end)]
    if b"' in " in data or b'" in ' in data or b"' not in " in data or b'" not in ' in data:
        out += [(*x.span("text"), CONTAINS) for x in _IN.finditer(data)]
    if b"${" in data:
        out += [(*x.span("text"), GLOB_PREFIX) for x in _SHELL_PREFIX.finditer(data)]
    # a substring of one or two characters (`"-"`, `"."`) tests no name; a prefix of one neither
    return sorted({p for p in set(out) if p[1] - p[0] >= (3 if p[2] == CONTAINS else 2)
                   and re.search(rb"[A-Za-z0-9]", data[p[0]:p[1]])})
