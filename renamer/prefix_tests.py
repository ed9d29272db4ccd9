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

Round 24 (t31 sweep finding 02) adds the other spellings of the same test:

* **a slice or substring compared with a literal** (`h[:4] == 'web0'`, Perl `substr($h, 0, 4) eq
  'web0'`, bash `[ "${h:0:4}" = "web0" ]`, `.slice(0, 4) === 'web0'`, `.substring(0, 4)`, Lua
  `h:sub(1, 4) == "web0"`, SQL `LEFT(name, 4) = 'web0'`, and the literal first): a prefix where the
  slice starts at the first character, else a substring;
* **more words for the calls**: `strncmp`/`strncasecmp`/`memcmp`, Haskell `isPrefixOf` (also infix
  between backticks, the literal first), Erlang `string:prefix`, Nix `hasInfix`, Haskell
  `isInfixOf`, Terraform `strcontains`;
* **a matcher named by a word**: Ansible/Jinja `select('match', 'web0')` and `is match('web0')`
  (a regex anchored at the start), `'search'` and `is search(...)` (a searching regex); Make's
  `$(filter web0%, ...)` / `$(filter-out ...)` (`%` matches any run);
* a JavaScript template literal in backticks (`` startsWith(`web0`) ``).

Each literal is matched against the old values by patterns.py as its grammar says (a literal that
is a whole old value is the exact matcher's reference, rewritten as any other; one that names a
proper prefix or substring of an old value and not of its new value is a `pattern` residual).
Pure: bytes in, (start, end, grammar) out.
"""

from __future__ import annotations

import re

from renamer import lazy_re

PREFIX = "prefix"  # pattern_dialects.PREFIX: the glob `x*`
PREFIX_REGEX = "prefix-regex"  # pattern_dialects.PREFIX_REGEX: re.match, Ansible's `match`
REGEX_CONTAINS = "regex-contains"  # a regex that searches anywhere: Ansible's `search`: `.*(?:x).*`
MAKE_PATTERN = "make-pattern"  # Make's `%` pattern: `web0%`
CONTAINS = "contains"  # the glob `*x*`
GLOB_PREFIX = "glob-prefix"  # a glob the name starts with: `${h#web0}`

# What each position spells (caseless in the first pass).
LITERALS = (b"with", b"prefix", b"include", b"contain", b"index", b"strstr", b"strpos", b"stripos",
            b"instr", b"${", b"' in ", b'" in ', b"' not in ", b'" not in ')
# (round 24's spellings need no literal here: each test's literal holds an old value's first three
# characters, a pattern start the first pass asks for already; might_hold below gates the full read)

_STRING = lazy_re.compile(rb"""(?P<q>['"`])(?P<text>[^'"`\n\\]{1,128})(?P=q)""")
# The call's name, then its opening parenthesis (or Ruby's blank before an argument), or an infix
# use (`x startsWith "a"` in Kotlin, `str.startswith?` without parentheses is rare).
_PREFIX_CALL = lazy_re.compile(rb"(?i)(?<![A-Za-z0-9_])(?:[a-z_]*(?:starts?|begins?)[_-]?with\??"
                          rb"|(?:str[_-]?)?has[_-]?prefix|string-prefix\?|str_starts_with|is[_-]?prefix[_-]?of"
                          rb"|prefix|strn(?:case)?cmp|_?strnicmp|memcmp)"
                          rb"[ \t]*(?:\(|[ \t](?=[ \t]*['\"]))")
_CONTAINS_CALL = lazy_re.compile(
    rb"(?i)(?<![A-Za-z0-9_])(?:includes?\??|contains?\??|str_contains|strstr|stristr"
                            rb"|strpos|stripos|index(?:of)?|instr|find|str[_-]?contains|has[_-]?infix|is[_-]?infix[_-]?of)"
                            rb"[ \t]*(?:\(|[ \t](?=[ \t]*['\"]))")
# the arguments: up to the call's closing parenthesis on the line (no nesting deeper than one call)
_ARGS = lazy_re.compile(rb"(?:[^()\n]|\([^()\n]*\))*")
# Python's `'web0' in h` / `"web0" not in h` (not `in [`, `in (`, `in {`: a collection's membership)
_IN = lazy_re.compile(rb"""(?P<q>['"])(?P<text>[^'"\n\\]{1,128})(?P=q)[ \t]+(?:not[ \t]+)?in[ \t]+"""
                 rb"""(?=[A-Za-z_$])""")
# Haskell's infix call between backticks, the literal first: `"web0" `isPrefixOf` h`
_INFIX_BEFORE = lazy_re.compile(rb"""(?P<q>['"])(?P<text>[^'"\n\\]{1,128})(?P=q)"""
                           rb"[ \t]*`(?P<name>isPrefixOf|isInfixOf)`")
# A slice or substring of a name compared with a literal, either side: `h[:4] == 'web0'`,
# `substr($h, 0, 4) eq 'web0'`, `"${h:0:4}" = "web0"`, `.slice(0, 4) === 'web0'`, `LEFT(n, 4) = 'web0'`
_SLICE = (rb"(?:\[[ \t]*(?P<s1>-?[0-9]*)[ \t]*(?::|\.\.\.?|,)[ \t]*-?[0-9]+[ \t]*\]"
          # Kotlin/Scala `h.take(4)`, Haskell `take 4 h`: the first characters
          rb"|\.take[ \t]*\([ \t]*[0-9]+[ \t]*\)|(?<![\w.])take[ \t]+[0-9]+[ \t]+[A-Za-z_][\w']*"
          rb"|\$\{[A-Za-z_][A-Za-z0-9_]*:[ \t]*(?P<s2>[0-9]+)[ \t]*:[ \t]*[0-9]+\}[\"']?"
          # a method, the start first: `.slice(0, 4)`, `.substring(0, 4)`, Lua's `h:sub(1, 4)`
          rb"|[.:](?:substr(?:ing)?|slice|sub)[ \t]*\([ \t]*(?P<s4>[0-9]+)[ \t]*(?:,[ \t]*-?[0-9]+[ \t]*)?\)"
          # a function, the string first: `substr($h, 0, 4)`, `SUBSTRING(name, 1, 4)`, awk `substr($1, 1, 4)`
          rb"|(?<![A-Za-z0-9_.:])(?:substr(?:ing)?|mid|strpart)[ \t]*\("
          rb"(?:[^()\n,]|\([^()\n]*\))*,[ \t]*(?P<s3>[0-9]+)(?:[ \t]*,[ \t]*[0-9]+)?[ \t]*\)"
          # Nix's `builtins.substring 0 4 name` (`lib.substring`, bare): the start first, no parentheses
          rb"|(?<![\w-])(?:builtins\.|lib\.(?:strings\.)?)?substring[ \t]+(?P<s5>[0-9]+)[ \t]+[0-9]+[ \t]+"
          rb"[A-Za-z_][\w'.-]*"
          # `LEFT(name, 4)`: the first characters
          rb"|(?<![A-Za-z0-9_.:])left[ \t]*\((?:[^()\n,]|\([^()\n]*\))*,[ \t]*[0-9]+[ \t]*\))")
_COMPARE = (rb"[ \t]*(?:===?|!==?|=|<>|(?<![A-Za-z0-9_])(?:eq|ne)(?![A-Za-z0-9_])"
            rb"|-[ci]?(?:eq|ne)(?![A-Za-z0-9_]))[ \t]*")  # PowerShell's `-eq`, `-ceq`, `-ne`
_SLICE_THEN = lazy_re.compile(
    rb"(?i)" + _SLICE + _COMPARE + rb"""(?P<q>['"`])(?P<text>[^'"`\n\\]{1,128})(?P=q)""")
_LITERAL_THEN = lazy_re.compile(rb"""(?i)(?P<q>['"`])(?P<text>[^'"`\n\\]{1,128})(?P=q)""" + _COMPARE
                           + rb"[\"']?[A-Za-z_$@%][\w$.:>-]*" + _SLICE)
# Ansible/Jinja: `select('match', 'web0')`, `selectattr('name', 'search', 'web0')`, `is match('web0')`
_JINJA_TEST = lazy_re.compile(
    rb"""(?:(?:select|reject)(?:attr)?[ \t]*\((?:[ \t]*['"][^'"\n]*['"][ \t]*,)?[ \t]*"""
                         rb"""(?P<q1>['"])(?P<kind>match|search|regex)(?P=q1)[ \t]*,[ \t]*"""
                         rb"""|(?<![A-Za-z0-9_])is[ \t]+(?:not[ \t]+)?(?P<kind2>match|search|regex)"""
                         rb"""[ \t]*\([ \t]*)"""
                         rb"""(?P<q>['"])(?P<text>[^'"\n\\]{1,128})(?P=q)""")
# A regex literal that searches a name: Perl/Ruby `h =~ /^web0/`, JS `h.match(/^web0/)`,
# `/^web0/.test(h)`, PowerShell `$h -match '^web0'`
_REGEX_LITERAL = lazy_re.compile(rb"(?:=~|!~|\.match[ \t]*\(|\.search[ \t]*\()"
                            rb"[ \t]*/(?P<text>(?:[^/\\\n]|\\.){1,128})/[a-z]*"
                            rb"|(?<![\w)\]])/(?P<text2>(?:[^/\\\n]|\\.){1,128})/[a-z]*\.test[ \t]*\(")
_PS_MATCH = lazy_re.compile(rb"""(?i)(?<![\w-])-[ci]?match[ \t]+(?P<q>['"])(?P<text>[^'"\n]{1,128})(?P=q)""")
# Make: `$(filter web0%,$(HOSTS))`, `$(filter-out web0% db%,...)`: the words before the comma
_MAKE_FILTER = lazy_re.compile(rb"\$[({]filter(?:-out)?[ \t]+(?P<words>[^,()${}\n]+),")
# Java's `h.regionMatches(0, "web0", 0, 4)` (`regionMatches(true, 0, ...)` caseless): a prefix
# where the name's offset is 0, else a substring
_REGION = lazy_re.compile(rb"""\.regionMatches[ \t]*\([ \t]*(?:(?:true|false|[A-Za-z_]\w*)[ \t]*,[ \t]*)?"""
                     rb"""(?P<at>[0-9]+|[A-Za-z_]\w*)[ \t]*,[ \t]*(?P<q>")(?P<text>[^"\n\\]{1,128})(?P=q)""")
# the shell's `${h#pattern}` and `${h##pattern}` (the pattern up to `}`, no nested expansion)
_SHELL_PREFIX = lazy_re.compile(rb"\$\{[A-Za-z_][A-Za-z0-9_]*##?(?P<text>[^{}$\s\"'`]{1,128})\}")


def might_hold(data: bytes, lowered: bytes | None = None) -> bool:
    """The cheap prefilter: a word of one of the tests, in any case."""
    lowered = data.lower() if lowered is None else lowered
    return (b"with" in lowered or b"prefix" in lowered or b"includ" in lowered or b"contain" in lowered
            or b"index" in lowered or b"strstr" in lowered or b"strpos" in lowered or b"instr" in lowered
            or b"find" in lowered or b"${" in data or b"' in " in data or b'" in ' in data
            or b"' not in " in data or b'" not in ' in data or b"infix" in lowered or b"strn" in lowered
            or b"memcmp" in lowered or b"`" in data or _might_slice(data, lowered)
            or b"match" in lowered or b"search" in lowered or b"filter" in data or b"=~" in data
            or b".test" in data or b"take" in lowered or b"regionmatches" in lowered)


# A slice's own spelling, found at C speed before the slice-and-compare grammars run (each tries
# every quote or bracket of a file: 5 s of a 2,000-file sweep read them in files with a `:` and a
# `]`, every YAML file, where none held a slice): `[0:4]`, `[..4]`, `[1,4]`, `${h:0:4}`.
_SLICE_BRACKET = lazy_re.compile(rb"\[[ \t]*-?[0-9]*[ \t]*(?::|\.\.\.?|,)[ \t]*-?[0-9]+[ \t]*\]")
_SHELL_SLICE = lazy_re.compile(rb"\$\{[A-Za-z_][A-Za-z0-9_]*:[ \t]*[0-9]+[ \t]*:")


_SLICE_CALL = lazy_re.compile(rb"(?i)[.:]sub[ \t]*\(|(?<![A-Za-z0-9_.:])(?:mid|left)[ \t]*\(")


def _might_slice(data: bytes, lowered: bytes) -> bool:
    """Whether `data` holds a slice's own spelling: every match of `_SLICE_THEN` and
    `_LITERAL_THEN` holds one (tests/test_prefix_tests.py checks the two agree)."""
    return (b"substr" in lowered or b"slice" in lowered or b"take" in lowered or b"strpart" in lowered
            or (b"]" in data and _SLICE_BRACKET.search(data) is not None)
            or (b"${" in data and _SHELL_SLICE.search(data) is not None)
            or (b"(" in data and _SLICE_CALL.search(data) is not None))


# The calls' words, found with bytes.find over a lower-cased copy (C speed): a whole-file search
# of the two call patterns tried every position (1.4 s over 2 MB); each word found is matched
# from the start of its identifier instead.
_KEYS = (b"with", b"prefix", b"includ", b"contain", b"index", b"strstr", b"stristr", b"strpos", b"stripos",
         b"instr", b"find", b"infix", b"strn", b"memcmp")
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
    if b"`is" in data:
        out += [(*x.span("text"), PREFIX if x.group("name") == b"isPrefixOf" else CONTAINS)
                for x in _INFIX_BEFORE.finditer(data)]
    if _might_slice(data, lowered):
        for x in (*_SLICE_THEN.finditer(data), *_LITERAL_THEN.finditer(data)):
            begin = next((g for g in (x.group(f"s{n}") for n in range(1, 6)) if g is not None), b"")
            starts = (b"0",) if x.group("s5") is not None else (b"", b"0", b"1")  # Nix counts from 0
            out.append((*x.span("text"), PREFIX if begin in starts else CONTAINS))
    if b"match" in lowered or b"search" in lowered or b"regex" in lowered:
        for x in _JINJA_TEST.finditer(data):
            kind = x.group("kind") or x.group("kind2")
            out.append((*x.span("text"), PREFIX_REGEX if kind == b"match" else REGEX_CONTAINS))
    if b"/" in data and (b"=~" in data or b"!~" in data or b"match" in data or b"search" in data
                         or b".test" in data):
        for x in _REGEX_LITERAL.finditer(data):
            group = "text" if x.group("text") is not None else "text2"
            out.append((*x.span(group), REGEX_CONTAINS))
    if b"match" in lowered:
        out += [(*x.span("text"), REGEX_CONTAINS) for x in _PS_MATCH.finditer(data)]
    if b"filter" in data:
        for x in _MAKE_FILTER.finditer(data):
            at = x.start("words")
            out += [(at + w.start(), at + w.end(), MAKE_PATTERN)
                    for w in re.finditer(rb"[^ \t]+", x.group("words")) if b"%" in w.group()]
    if b"regionMatches" in data:
        out += [(*x.span("text"), PREFIX if x.group("at") == b"0" else CONTAINS)
                for x in _REGION.finditer(data)]
    # a substring of one or two characters (`"-"`, `"."`) tests no name; a prefix of one neither
    return sorted({p for p in set(out) if p[1] - p[0] >= (3 if p[2] == CONTAINS else 2)
                   and re.search(rb"[A-Za-z0-9]", data[p[0]:p[1]])})
