"""Keys of a map built by a call, by position or by pairs, wherever it stands (round 23, finding 10).

formats/entry_lists.py reads an entry as a key then a separator (`:`, `=>`, `=`). A map built by a
call names its keys another way, in any language:

- **by position**: the arguments alternate key, value (Java `Map.of("web01", a, "app01", b)`,
  Guava `ImmutableMap.of`, `ImmutableSortedMap.of`, Ruby `Hash["web01", a, "app01", b]`): the
  arguments at even positions are keys;
- **by an infix pair** (Kotlin `"web01" to a`, Scala and Groovy-style `"web01" -> a`): the quoted
  string before `to` or `->` is the key, in any bracketed list;
- **by pairs**: each argument is a two-item pair (`mapOf(Pair("web01", a), ...)`, Java
  `Map.ofEntries(entry("web01", a), ...)`, Python `dict([("web01", a), ...])`, JavaScript
  `new Map([["web01", a], ...])` and `Object.fromEntries`, Rust `HashMap::from([("web01", a),
  ...])`, Erlang `maps:from_list([{"web01", a}, ...])`, Elixir `Map.new([{"web01", a}])`; t31 sweep
  finding 03): the first item of each pair is the key.

Java's `Map.of` and `Map.ofEntries` throw on a duplicate key at class load; Kotlin, Python, Rust
and JavaScript keep the last one: either way, two keys of one map are two machines under one
name. Only quoted keys count (a bare word after `->` is C's member access, not a key). Pure:
text in, (container, key, line) out; formats/entry_lists.py compares before and after.
"""

from __future__ import annotations

from renamer import lazy_re

_TOKEN = lazy_re.compile(r"""[{}\[\]()]|,|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'""")
_STRING = lazy_re.compile(r"""\s*(?:"(?P<dq>(?:[^"\\\n]|\\.)*)"|'(?P<sq>(?:[^'\\\n]|\\.)*)')""")
# a quoted key then Kotlin's `to` or Scala's `->`
_INFIX = lazy_re.compile(r"""[ \t]*(?:->|to(?=[ \t]))""")
# calls whose arguments alternate key and value: `Map.of(`, `ImmutableMap.of(`, `ImmutableSortedMap.of(`,
# Ruby's `Hash[`
_POSITIONAL = lazy_re.compile(r"""(?:(?<![\w$])\w*Map\.of|(?<![\w$.])Hash)[ \t]*\Z""")
# calls whose arguments are pairs (or one list of pairs): a map's or a dict's constructor
_PAIRS = lazy_re.compile(r"""(?:(?<![\w$])(?:\w*Map(?:Of)?|\w+MapOf|mapOf|dict|OrderedDict|defaultdict"""
                    r"""|fromEntries|ofEntries|\w*Map::from(?:_iter)?|maps:from_list|Map\.new)"""
                    r"""|\bnew[ \t]+\w*Map)[ \t]*\Z""")
# a tuple's or a list's own bracket, no call before it
_BARE = lazy_re.compile(r"(?:^|[^\w$\s])\s*\Z")
# a pair written as a call: `Pair(`, `entry(`, `Map.entry(`, `SimpleEntry(`, `tuple(`
_PAIR_CALL = lazy_re.compile(r"""(?<![\w$])(?:\w+\.)?(?:Pair|entry|SimpleEntry|SimpleImmutableEntry"""
                        r"""|tuple|Tuple2)[ \t]*\Z""")


def _line(text: str, at: int) -> int:
    return text.count("\n", 0, at) + 1


def _string(text: str, at: int) -> tuple[str, int, int] | None:
    """The quoted string starting (after blanks) at `at`: (value, start, end), else None."""
    found = _STRING.match(text, at)
    if found is None:
        return None
    value = found.group("dq") if found.group("dq") is not None else found.group("sq")
    return value, found.start() + len(found.group()) - len(found.group().lstrip()), found.end()


def _arg_end(text: str, end: int) -> bool:
    """Does the argument end right after `end` (blanks, then `,` or a closing bracket)?"""
    rest = text[end:end + 40].lstrip()
    return rest[:1] in (",", ")", "]", "}")


def entries(text: str) -> list[tuple[tuple[str, int], str, int]]:
    """(container, key, line) of each key of a map built by a call or by infix pairs."""
    out: list[tuple[tuple[str, int], str, int]] = []
    # (closer, number, kind, argument index); kind: "positional", "pairs", "pair" (a pair's own
    # brackets: its first item is its parent's key), or ""
    stack: list[tuple[str, int, str, int]] = []
    opened = 0

    def argument(at: int) -> None:
        if not stack:
            return
        _, number, kind, index = stack[-1]
        found = _string(text, at)
        if found is None:
            return
        value, start, end = found
        if kind == "positional" and index % 2 == 0 and _arg_end(text, end):
            out.append((("map", number), value, _line(text, start)))
        elif kind == "pair" and index == 0 and len(stack) >= 2 and stack[-2][2] == "pairs":
            out.append((("map", stack[-2][1]), value, _line(text, start)))
        elif _INFIX.match(text, end):
            out.append((("map", number), value, _line(text, start)))

    for token in _TOKEN.finditer(text):
        mark = token.group()
        if mark in "{[(":
            opened += 1
            before = text[max(0, token.start() - 80):token.start()]
            parent = stack[-1][2] if stack else ""
            if mark in "([" and _POSITIONAL.search(before):
                kind = "positional"
            elif mark in "([" and _PAIRS.search(before):
                kind = "pairs"
            elif parent == "pairs" and (_PAIR_CALL.search(before) or _BARE.search(before)):
                # one list holding the pairs (`dict([...])`, `new Map([...])`) or one pair
                first = stack[-1][3] == 0 and mark == "[" and _holds_pairs(text, token.end())
                kind = "pairs" if first else "pair"
            else:
                kind = ""
            stack.append(({"{": "}", "[": "]", "(": ")"}[mark], opened, kind, 0))
            argument(token.end())
        elif mark in ")]}":
            if stack and stack[-1][0] == mark:
                stack.pop()
        elif mark == "," and stack:
            closer, number, kind, index = stack[-1]
            stack[-1] = (closer, number, kind, index + 1)
            argument(token.end())
    return out


def _holds_pairs(text: str, at: int) -> bool:
    """Does the list opened before `at` start with a pair (`[("a", 1), ...]`, `[["a", 1], ...]`)?"""
    rest = text[at:at + 200].lstrip()
    return rest[:1] in ("(", "[", "{")  # `{`: an Erlang or Elixir tuple
