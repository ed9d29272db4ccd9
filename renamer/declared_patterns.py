"""Patterns at the positions a format declares one: the value there is a regular expression, a glob
or an SQL `LIKE` pattern whatever syntax it holds.

patterns.py finds regex-ish runs by their syntax (`\\d`, `[0-9]`, `.*`), which a pattern without
such syntax (`~^web0.\\.lab$`, `LIKE 'web0%'`, `LIKE '10.0.0.7_'`) never shows. Where the format
says "a pattern stands here", the value is read as one in that grammar and matched against each
old value (and a short name's FQDN in the pattern's own domain) by patterns.py:

* nginx: `server_name ~regex` (each `~` name), `location ~ regex` / `~*`, `if ($host ~ regex)`
  (also `$http_host`, `$server_name`, `!~`);
* HAProxy: `hdr_reg(host) regex`, `-m reg regex` (each pattern up to `if`, `unless` or `}`);
* Apache: `RewriteCond %{HTTP_HOST} regex`;
* bash: `[[ $x =~ regex ]]`;
* SQL: `LIKE 'pattern'`, `ILIKE`, `NOT LIKE` (`%` any text, `_` one character), `SIMILAR TO`.

A match is a `pattern` residual (patterns.PatternHit, then occurrences.with_patterns), never
rewritten. Cost: the positions are looked for only in a file holding one of LITERALS and an old
value's start (patterns.fragments); each is one regex over such a file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from renamer import lazy_re, pattern_dialects

# What every declared position spells (caseless where the grammar is: SQL's keywords).
LITERALS = (b"server_name", b"location", b"$host", b"$http_host", b"_reg(", b"-m reg", b"RewriteCond",
            b"=~", b"LIKE '", b"like '", b'LIKE "', b'like "', b"SIMILAR TO", b"similar to",
            *pattern_dialects.LITERALS)  # prefix tests, Lua, fnmatch/POSIX globs, caseless matchers
# (might_hold asks a looser test, each `in` spelled out: a generator over LITERALS cost more than the
# tests themselves on a dense repo's small files.)

REGEX, SQL_LIKE, SIMILAR = "regex", "like", "similar"


@dataclass(frozen=True, slots=True)
class Declared:
    start: int  # the pattern's bytes in the file
    end: int
    grammar: str  # REGEX, SQL_LIKE or SIMILAR
    anchored: bool  # does the consumer match the whole name (SQL) or search in it (nginx, PCRE)?


# (also after `{` or `;`: `server { server_name ...; }` on one line)
_NGINX_NAMES = lazy_re.compile(rb"(?:^|[{;])[ \t]*server_name[ \t]+([^;\n]*)", re.MULTILINE)
_NGINX_LOCATION = lazy_re.compile(rb"^[ \t]*location[ \t]+~\*?[ \t]+(\"[^\"\n]+\"|'[^'\n]+'|[^\s{]+)",
                             re.MULTILINE)
_NGINX_IF = lazy_re.compile(
    rb"\(\s*\$(?:host|http_host|server_name)\s+!?~\*?\s+(\"[^\"\n]+\"|'[^'\n]+'|[^\s)]+)")
_HAPROXY = lazy_re.compile(rb"(?:hdr_reg\([^)\n]*\)|-m[ \t]+reg)((?:[ \t]+(?!if\b|unless\b|\})[^\s{}]+)+)")
_APACHE = lazy_re.compile(rb"RewriteCond[ \t]+%\{HTTP_HOST\}[ \t]+!?(\"[^\"\n]+\"|[^\s\"]+)")
_BASH = lazy_re.compile(rb"\[\[[^\]\n]*?=~[ \t]+(\"[^\"\n]+\"|'[^'\n]+'|[^\s\]]+)")
# (One space before the quote: LITERALS spell it so, and the first pass looks for them.)
_SQL = lazy_re.compile(rb"\b(?P<kind>(?:[Ii]?[Ll][Ii][Kk][Ee])|(?:SIMILAR|similar) (?:TO|to)) "
                  rb"(?P<text>'(?:[^'\n]|''){1,200}'|\"[^\"\n]{1,200}\")")


# What might_hold asks for, in lower case, read in any case (a looser test: `~` beside nginx's and
# bash's words left out, each case-sensitive word in any case): a file holding none of these holds
# no declared pattern, dialect or prefix test. The native first pass asks them in its one scan
# (Matcher.context_groups' "pattern words"), so the three prefilters below (14 `in` tests and a
# lower-cased copy of the file: 0.1 s over a dense repo's 2,000 files) run only where one stands.
WORDS = (b"server_name", b"location", b"$h", b"=~", b"reg", b"ike ", b"rewritecond", b"imilar to",
         # pattern_dialects.might_hold
         b"}}", b"${", b"match(", b"find(", b"grep", b"search(", b"startswith(", b"(?i)", b" -i ", b"[!",
         b"[[:",
         # prefix_tests.might_hold
         b"with", b"prefix", b"includ", b"contain", b"index", b"strstr", b"strpos", b"instr", b"find",
         b"' in ", b'" in ', b"' not in ", b'" not in ')


def might_hold(data: bytes) -> bool:
    """The cheap prefilter: one of LITERALS."""
    nginx_or_bash = b"~" in data and (b"server_name" in data or b"location" in data or b"$h" in data
                                      or b"=~" in data)
    if pattern_dialects.might_hold(data):
        return True
    return (nginx_or_bash or b"reg" in data or b"IKE " in data or b"ike " in data or b"RewriteCond" in data
            or b"IMILAR TO" in data or b"imilar to" in data)


def positions(data: bytes) -> list[Declared]:
    """Every declared pattern in `data`, in file order."""
    if not might_hold(data):
        return []
    out: list[Declared] = []
    if b"server_name" in data:
        for line in _NGINX_NAMES.finditer(data):
            at = line.start(1)
            for word in re.finditer(rb"\S+", line.group(1)):
                if word.group().startswith(b"~"):
                    start = at + word.start() + 1 + (word.group()[1:2] == b"*")
                    out.append(_unquoted(data, start, at + word.end(), REGEX, False))
    if b"location" in data:
        out += [_unquoted(data, *x.span(1), REGEX, False) for x in _NGINX_LOCATION.finditer(data)]
    if b"$host" in data or b"$http_host" in data or b"$server_name" in data:
        out += [_unquoted(data, *x.span(1), REGEX, False) for x in _NGINX_IF.finditer(data)]
    if b"_reg(" in data or b"-m reg" in data:
        for x in _HAPROXY.finditer(data):
            at = x.start(1)
            out += [Declared(at + w.start(), at + w.end(), REGEX, False)
                    for w in re.finditer(rb"[^\s{}]+", x.group(1)) if not w.group().startswith(b"-")]
    if b"RewriteCond" in data:
        out += [_unquoted(data, *x.span(1), REGEX, False) for x in _APACHE.finditer(data)]
    if b"=~" in data:
        out += [_unquoted(data, *x.span(1), REGEX, False) for x in _BASH.finditer(data)]
    if b"LIKE" in data or b"like" in data or b"SIMILAR" in data or b"similar" in data:
        for x in _SQL.finditer(data):
            grammar = SQL_LIKE if x.group("kind").lower().endswith(b"like") else SIMILAR
            out.append(Declared(x.start("text") + 1, x.end("text") - 1, grammar, True))
    # Prefix tests, Lua patterns, fnmatch/POSIX globs, caseless matchers (pattern_dialects.py).
    out += [Declared(start, end, grammar, anchored)
            for start, end, grammar, anchored in pattern_dialects.positions(data)]
    return sorted((d for d in out if d.end > d.start), key=lambda d: d.start)


def _unquoted(data: bytes, start: int, end: int, grammar: str, anchored: bool) -> Declared:
    if end - start >= 2 and data[start] in b"\"'" and data[end - 1] == data[start]:
        start, end = start + 1, end - 1
    return Declared(start, end, grammar, anchored)


def as_regex(text: str, grammar: str) -> str | None:
    """The pattern `text` of `grammar` as a Python regular expression (None where it cannot be)."""
    if grammar == REGEX:
        return text
    if grammar in pattern_dialects.GRAMMARS:
        return pattern_dialects.as_regex(text, grammar)
    out = []
    for char in text.replace("''", "'"):
        if char == "%":
            out.append(".*")
        elif char == "_":
            out.append(".")
        elif grammar == SIMILAR and char in "|()[]*+?{}":
            out.append(char)
        else:
            out.append(re.escape(char))
    return "".join(out)
