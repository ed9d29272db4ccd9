"""Pattern dialects and prefix tests that patterns.py's token reader does not see (issue 27,
break-it round 22, findings 03, 22, 25, 01).

Each is a position where the code says "a pattern stands here" in a grammar of its own; the value
is turned into a Python regular expression and matched against the old values by patterns.py (as
declared_patterns.py's are), a match that the new value does not also make being a residual
`pattern`:

* prefix tests of a name, decided as the glob `x*` of the same set is: Python/Jinja
  `.startswith('kworker')` (a literal prefix), Jinja/Salt `is match('n\\d-cls\\d')` and Python
  `re.match(...)` (a regex anchored at the start only), `grep "^kworker"` (a regex from the
  line's start);
* Lua patterns (`:match("^web0%d$")`, `string.find(x, "^10%.0%.0%.7%d$")`): `%d`, `%a`, `%w`,
  `%s`, `%l`, `%u`, `%x`, `%p` classes, `%.` an escaped character, `-` a lazy `*`;
* globs in the fnmatch/POSIX dialects (`web0[!2-9]`, `web0[[:digit:]]`): a negated class written
  `[!...]`, a POSIX class `[[:digit:]]`;
* matchers that declare case-insensitivity: a regex opening with `(?i)` (Prometheus, RE2, PCRE),
  HAProxy `-i` string matches, `grep -i`; read caselessly (patterns.py compiles every declared
  pattern with IGNORECASE), so `WEB01` there is the old name, not a near-miss;
* PromQL label matchers `=~"..."`, fully anchored, a trailing `:port` no part of the name;
* a name composed of a literal head shorter than four characters, a template and a literal tail
  (`'n{{ i }}-cls1.homelab.lan'`): the template read as any run of label characters (the values a
  loop gives it are not evaluated here), so it is a residual where it can make an old name.

An alternation of plain whole names (`n1-cls1.lab|n2-cls1.lab`) spells each name: it is the exact
matcher's (each branch rewritten as itself), never a pattern here (finding 26).
"""

from __future__ import annotations

import re

from renamer import lazy_re, prefix_tests

# Grammars (declared_patterns.Declared.grammar): each read by as_regex below.
PREFIX = "prefix"  # a literal prefix: startswith('x') is the glob x*
PREFIX_REGEX = "prefix-regex"  # a regex anchored at the start only: re.match, `is match`, grep ^
LUA = "lua"  # a Lua pattern (searching)
GLOB = "glob"  # fnmatch / POSIX-class glob (whole name)
REGEX_SEARCH = "regex-search"  # a regex that searches: `(?i)...`
ANCHORED = "anchored"  # a fully anchored regex: PromQL's =~
LITERAL = "literal"  # a plain name compared caselessly: HAProxy -i
COMPOSED = "composed"  # a short literal head, a template, a literal tail: `n{{ i }}-cls1.lab`

# prefix and substring tests in any language (prefix_tests.py, round 23 finding 02)
CONTAINS = prefix_tests.CONTAINS  # a literal substring: `includes('x')`, `'x' in h`: the glob *x*
GLOB_PREFIX = prefix_tests.GLOB_PREFIX  # a glob the name starts with: `${h#x}`
REGEX_CONTAINS = prefix_tests.REGEX_CONTAINS  # a regex searching anywhere: Ansible `select('search', 'x')`
MAKE_PATTERN = prefix_tests.MAKE_PATTERN  # Make's `$(filter x%,...)`: `%` matches any run

GRAMMARS = (PREFIX, PREFIX_REGEX, LUA, GLOB, REGEX_SEARCH, ANCHORED, LITERAL, COMPOSED, CONTAINS, GLOB_PREFIX,
            REGEX_CONTAINS, MAKE_PATTERN)

# What each position spells (the first pass looks for them; caseless there).
LITERALS = (b"startswith(", b"match(", b"find(", b"grep", b"(?i)", b"=~", b" -i ", b"[!", b"[[:",
            b"}}", b"${", b"search(", *prefix_tests.LITERALS)

_Q = rb"(?P<q>['\"])"
_STARTSWITH = lazy_re.compile(rb"\.startswith\(\s*[rbuRBU]?" + _Q + rb"(?P<text>[^'\"\n\\]{1,128})(?P=q)")
_PREFIX_MATCH = lazy_re.compile(rb"(?:\bis\s+match|\bre\.match|\bregex_match)\(\s*[rR]?" + _Q
                           + rb"(?P<text>[^'\"\n]{1,128})(?P=q)")
_SEARCH = lazy_re.compile(rb"(?:\bis\s+search|\bre\.search|\bregex_search)\(\s*[rR]?" + _Q
                     + rb"(?P<text>[^'\"\n]{1,128})(?P=q)")
_LUA = lazy_re.compile(rb"(?::(?:match|find|gmatch)\(\s*|\bstring\.(?:match|find|gmatch)\([^,\n]{1,80},\s*)"
                  + _Q + rb"(?P<text>[^'\"\n]{1,128})(?P=q)")
_GREP = lazy_re.compile(rb"\bgrep\b(?P<opts>(?:[ \t]+-[A-Za-z]+)*)[ \t]+(?P<q>['\"]?)\^"
                   rb"(?P<text>[^'\"\s|;&)]{1,128})(?P=q)")
_CASELESS = lazy_re.compile(rb"\(\?i\)(?P<text>[^\s\"'`,;]{1,128})")
_HAPROXY_I = lazy_re.compile(rb"\)[ \t]+-i((?:[ \t]+(?!if\b|unless\b|\})[^\s{}]+)+)")
_PROMQL = lazy_re.compile(rb"=~[ \t]*\"(?P<text>[^\"\n]{1,200})\"")
_DIALECT_GLOB = lazy_re.compile(rb"[A-Za-z0-9_.*?-]*(?:\[![^\]\s]{1,40}\]|\[\[:[a-z]{3,6}:\]\])"
                           rb"(?:[A-Za-z0-9_.*?-]|\[![^\]\s]{1,40}\]|\[\[:[a-z]{3,6}:\]\]|\[[^\]\s!]{1,40}\])*")
# A name whose variable stands after a literal head shorter than composed_tails reads (4
# characters) and before a literal tail: `'n{{ i }}-cls1.homelab.lan'` in a Jinja loop (finding 01).
_TEMPLATE = rb"(?:\{\{[^{}\n]{1,60}\}\}|\$\{[^{}\n]{1,60}\})"
_COMPOSED = lazy_re.compile(rb"(?<![A-Za-z0-9_.$-])[A-Za-z0-9][A-Za-z0-9_-]{0,2}" + _TEMPLATE
                       + rb"[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}")
_PORT = lazy_re.compile(r"(?::[0-9]{1,5}|:\\d\+|:\[0-9\]\+)\Z")
_NAME = r"[A-Za-z0-9_][A-Za-z0-9_-]*(?:\\?\.[A-Za-z0-9_][A-Za-z0-9_-]*)*(?::[0-9]{1,5})?"
_PLAIN_NAMES = lazy_re.compile(_NAME + r"(?:\|" + _NAME + r")*")


def might_hold(data: bytes) -> bool:
    """The cheap prefilter: one of LITERALS (each `in` spelled out: a generator costs more)."""
    return (b"}}" in data or b"${" in data or b"match(" in data or b"find(" in data or b"grep" in data
            or b"search(" in data
            or b"=~" in data or b"startswith(" in data or b"(?i)" in data or b" -i " in data
            or b"[!" in data or b"[[:" in data or prefix_tests.might_hold(data))


def might_be_caseless(data: bytes) -> bool:
    """Can `data` hold a pattern read in any case (`(?i)`, nginx `~*`, HAProxy or grep `-i`) or one
    spelling no start of an old value (Lua's `10%.0`)? Only then are starts looked for in any case."""
    return b"(?i)" in data or b"~*" in data or b"-i" in data or b"grep" in data or b"%." in data


def plain_names(text: str) -> bool:
    """Is `text` one name or an alternation of whole plain names (each spelled: the exact matcher's)?"""
    return _PLAIN_NAMES.fullmatch(text) is not None


def positions(data: bytes) -> list[tuple[int, int, str, bool]]:
    """(start, end, grammar, anchored) of each dialect pattern in `data`, in file order."""
    if not might_hold(data):
        return []
    out: list[tuple[int, int, str, bool]] = []
    if b"startswith(" in data:
        out += [(*x.span("text"), PREFIX, True) for x in _STARTSWITH.finditer(data)]
    if b"match(" in data:
        out += [(*x.span("text"), PREFIX_REGEX, True) for x in _PREFIX_MATCH.finditer(data)]
    if b"search(" in data:
        # a search anchored at the start only (`regex_search('^web0')`) is a prefix test, as re.match
        # is (round 23 finding 02): the name need not end where the regex does
        out += [(*x.span("text"), PREFIX_REGEX if x.group("text").startswith(b"^")
                 and not x.group("text").endswith(b"$") else REGEX_SEARCH, x.group("text").startswith(b"^"))
                for x in _SEARCH.finditer(data)]
    if b"match(" in data or b"find(" in data:
        # a Lua pattern: one with a class (`%d`), or one anchored at the start (`^web0`, outside round 25,
        # finding 09: `string.find(h, "^web0")` is no substring test)
        out += [(*x.span("text"), LUA, False) for x in _LUA.finditer(data)
                if b"%" in x.group("text") or x.group("text").startswith(b"^")]
    if b"grep" in data:
        out += [(*x.span("text"), PREFIX_REGEX, True) for x in _GREP.finditer(data)]
    if b"(?i)" in data:
        out += [(*x.span("text"), REGEX_SEARCH, False) for x in _CASELESS.finditer(data)]
    if b" -i " in data:
        for x in _HAPROXY_I.finditer(data):
            at = x.start(1)
            out += [(at + w.start(), at + w.end(), LITERAL, True)
                    for w in re.finditer(rb"[^\s{}]+", x.group(1))
                    if not w.group().startswith(b"-") and w.group() != w.group().lower()]
    if b"=~" in data:
        for x in _PROMQL.finditer(data):
            text = x.group("text").decode("ascii", "replace")
            if not plain_names(text.replace("\\\\", "\\")):
                out.append((*x.span("text"), ANCHORED, True))
    if b"}}" in data or b"${" in data:
        out += [(*x.span(), COMPOSED, True) for x in _COMPOSED.finditer(data)]
    if b"[!" in data or b"[[:" in data:
        out += [(*x.span(), GLOB, True) for x in _DIALECT_GLOB.finditer(data)]
    # `start_with?`, `HasPrefix`, `includes`, `'x' in h`, `${h#x}`: in any language
    out += [(start, end, grammar, True) for start, end, grammar in prefix_tests.positions(data)]
    return sorted({p for p in out if p[1] > p[0]})


_LUA_CLASSES = {"d": r"\d", "a": "[A-Za-z]", "w": "[A-Za-z0-9]", "s": r"\s", "l": "[a-z]", "u": "[A-Z]",
                "x": "[0-9A-Fa-f]", "p": r"[!-/:-@\[-`{-~]", "D": r"\D", "A": "[^A-Za-z]",
                "W": "[^A-Za-z0-9]", "S": r"\S"}
_POSIX = {"digit": "0-9", "alpha": "A-Za-z", "alnum": "A-Za-z0-9", "upper": "A-Z", "lower": "a-z",
          "xdigit": "0-9A-Fa-f", "space": r"\s", "punct": r"!-/:-@\[-`{-~", "word": "A-Za-z0-9_"}


def as_regex(text: str, grammar: str) -> str | None:
    """The pattern `text` of `grammar` as a Python regular expression (None where it cannot be)."""
    if "\\\\" in text:  # inside a string of its own (YAML/JSON double quotes): `\\.` is the regex `\.`
        text = text.replace("\\\\", "\\")
    if grammar == PREFIX:
        return re.escape(text) + ".*"
    if grammar == PREFIX_REGEX:
        return "(?:" + text.removeprefix("^") + ").*"
    if grammar == REGEX_SEARCH:
        port = _PORT.search(text)
        return text[:port.start()] if port else text
    if grammar == ANCHORED:
        port = _PORT.search(text)
        return text[:port.start()] if port else text
    if grammar == LITERAL:
        return re.escape(text)
    if grammar == LUA:  # anchored at the start only, a search is a prefix test (`^web0`: web01 too)
        lua = _lua(text)
        return lua + ".*" if lua is not None and text.startswith("^") and not text.endswith("$") else lua
    if grammar == COMPOSED:  # the template stands for a run of label characters
        pieces = re.split(r"\{\{[^{}]*\}\}|\$\{[^{}]*\}", text)
        return "[A-Za-z0-9-]+".join(re.escape(piece) for piece in pieces)
    if grammar == GLOB:
        return _glob(text)
    if grammar == CONTAINS:
        return ".*" + re.escape(text) + ".*"
    if grammar == GLOB_PREFIX:
        glob = _glob(text)
        return None if glob is None else glob + ".*"
    if grammar == REGEX_CONTAINS:
        return ".*(?:" + text + ").*"
    if grammar == MAKE_PATTERN:  # one `%` matches any run (Make reads the first only)
        head, percent, tail = text.partition("%")
        return re.escape(head) + (".*" + re.escape(tail) if percent else "")
    return None


def _lua(text: str) -> str | None:
    out: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char == "%":
            nxt = text[i + 1:i + 2]
            if not nxt:
                return None
            out.append(_LUA_CLASSES.get(nxt, re.escape(nxt)))
            i += 2
            continue
        if char == "-" and out and i > 0:
            out.append("*?")  # Lua's lazy `*`
        elif char == "[":
            end = text.find("]", i + 2)
            if end == -1:
                return None
            body = text[i + 1:end]
            for key, value in _LUA_CLASSES.items():
                body = body.replace("%" + key, value.strip("[]"))
            out.append("[" + body.replace("%", "\\") + "]")
            i = end + 1
            continue
        elif char in "^$.*+?()":
            out.append(char)
        else:
            out.append(re.escape(char))
        i += 1
    return "".join(out)


def _glob(text: str) -> str | None:
    out: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char == "*":
            out.append(".*")
        elif char == "?":
            out.append(".")
        elif char == "[":
            end = text.find("]", i + 2 if text[i + 1:i + 2] in ("!", "^", "]") else i + 1)
            if text[i + 1:i + 3] == "[:":  # `[[:digit:]]`: the class closes after `:]`
                close = text.find(":]", i + 3)
                end = text.find("]", close + 2) if close != -1 else -1
            if end == -1:
                return None
            body = text[i + 1:end]
            negated = body.startswith(("!", "^"))
            body = body[1:] if negated else body
            body = re.sub(r"\[:([a-z]+):\]", lambda m: _POSIX.get(m.group(1), "\0"), body)
            if "\0" in body:
                return None
            out.append("[" + ("^" if negated else "") + body + "]")
            i = end + 1
            continue
        else:
            out.append(re.escape(char))
        i += 1
    return "".join(out)
