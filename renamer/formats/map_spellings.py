"""Keys of a map in the spellings formats/map_calls.py does not read (t31 sweep finding 03; issue 27
item 7, collisions).

map_calls.py reads a map built by one call (by position, by infix pairs, by pairs). A map is also
built key by key, or by a call whose arguments are words, in other languages:

- **an associative array's literal** in bash (`declare -A ROLE=([web01]=frontend [app01]=backend)`):
  each `[key]=` in the parentheses;
- **one assignment per key** to one variable: Go/Python/JS/PHP/bash `m["web01"] = x`,
  `ROLE[web01]=x`, Perl `$role{web01} = x`, Tcl `dict set role web01 x`: the variable is the map;
- **a chain or sequence of put/set calls**: Guava's `builder().put("web01", a).put("app01", b)`,
  JavaScript `new Map().set("web01", a).set(...)`, Java `m.put("web01", a);`, Rust
  `m.insert("web01", a);`: the chain (or the receiving variable) is the map;
- **a call whose arguments alternate key and value without commas**: Clojure `(hash-map "web01" a
  "app01" b)` (`array-map`, `sorted-map`), Tcl `dict create web01 a app01 b` and `array set role
  {web01 a app01 b}`: the words at even positions are keys;
- **keys zipped with values**: Python `dict(zip(["web01", "app01"], [...]))` and
  `dict.fromkeys(["web01", ...])`: the first list's strings.

(Erlang's `maps:from_list([{"web01", a}, ...])` and Elixir's `Map.new([...])` are map_calls.py's
pairs.) Two keys of one map are two machines under one name: the later silently wins. Pure: text
in, (container, key, line) out; formats/entry_lists.py compares before and after.
"""

from __future__ import annotations

from renamer import lazy_re

Entry = tuple[tuple[str, object], str, int]

# bash: `NAME=(` (after `declare -A` or alone) whose items are `[key]=value`
_BASH_ARRAY = lazy_re.compile(r"(?<![\w$])(?P<name>[A-Za-z_]\w*)\+?=\((?P<body>[^()]*)\)")
_BASH_ITEM = lazy_re.compile(r"""\[[ \t]*(?P<q>["']?)(?P<key>[^\]"'\s]+)(?P=q)[ \t]*\]\+?=""")
# `m["web01"] = x`, `ROLE[web01]=x`, `$m['web01'] =`, `this.m["web01"] =`; never `==`
_INDEX_SET = lazy_re.compile(r"""(?<![\w$.])(?P<var>[$@]?[A-Za-z_][\w$]*(?:(?:\.|->)[A-Za-z_]\w*)*)"""
                        r"""\[[ \t]*(?:(?P<q>["'])(?P<qkey>[^"'\n\\]+)(?P=q)|(?P<bkey>[A-Za-z0-9][\w.-]*))"""
                        r"""[ \t]*\]"""
                        r"""[ \t]*(?:=(?![=~])|:=)""")
# Perl: `$role{web01} = x`, `$role{'web01'} = x`
_PERL_SET = lazy_re.compile(r"""\$(?P<var>[A-Za-z_]\w*)\{[ \t]*(?P<q>["']?)(?P<key>[\w.-]+)(?P=q)[ \t]*\}"""
                       r"""[ \t]*=(?![=~])""")
# Tcl: `dict set role web01 x`
_TCL_DICT_SET = lazy_re.compile(r"""(?<![\w$])dict[ \t]+set[ \t]+(?P<var>\w+)[ \t]+"""
                           r"""(?P<q>["']?)(?P<key>[\w.-]+)(?P=q)[ \t]""")
# `.put("web01", ...)`, `.set('web01', ...)`, `.insert("web01", ...)`, `.putIfAbsent(...)`
_PUT = lazy_re.compile(r"""\.(?:put|set|insert|putIfAbsent|put_new)[ \t]*\("""
                  r"""[ \t]*(?P<q>["'])(?P<key>[^"'\n\\]+)(?P=q)[ \t]*,""")
_RECEIVER = lazy_re.compile(r"""(?P<var>[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)[ \t]*\Z""")
# Clojure: `(hash-map ...)`; Tcl: `dict create ...`, `array set NAME {...}` / `[list ...]`
_CLOJURE = lazy_re.compile(r"\((?:hash-map|array-map|sorted-map)[ \t\r\n]")
_TCL_CREATE = lazy_re.compile(r"(?<![\w$])dict[ \t]+create[ \t]")
_TCL_ARRAY = lazy_re.compile(r"(?<![\w$])array[ \t]+set[ \t]+\w+[ \t]+(?:\{|\[[ \t]*list[ \t])")
# Python: `dict(zip([...], ...))`, `dict.fromkeys([...])`
_ZIPPED = lazy_re.compile(
    r"(?<![\w$.])(?:dict[ \t]*\([ \t]*zip[ \t]*\(|dict\.fromkeys[ \t]*\()[ \t\r\n]*[\[(]")
_QUOTED = lazy_re.compile(r"""(?P<q>["'])(?P<key>[^"'\n\\]*)(?P=q)""")
# a word of a Tcl or Clojure argument list: a quoted string, a braced or bracketed group, a bare word
_WORD = lazy_re.compile(r"""[ \t\r\n]*(?:"(?P<dq>(?:[^"\\\n]|\\.)*)"|(?P<group>[{\[(])|(?P<close>[}\])])"""
                   r"""|(?P<bare>[^\s{}\[\]()"]+))""")
_STATEMENT_END = lazy_re.compile(r"[;{}]|\n[ \t]*\n")


def _line(text: str, at: int) -> int:
    return text.count("\n", 0, at) + 1


def entries(text: str) -> list[Entry]:
    """(container, key, line) of each key of a map in these spellings."""
    out: list[Entry] = []
    if "=(" in text or "+=(" in text:
        for found in _BASH_ARRAY.finditer(text):
            body_at = found.start("body")
            out += [(("bash-array", found.start()), item.group("key"), _line(text, body_at + item.start()))
                    for item in _BASH_ITEM.finditer(found.group("body"))]
    if "[" in text:
        for found in _INDEX_SET.finditer(text):
            key = found.group("qkey") or found.group("bkey")
            out.append((("index", found.group("var").lstrip("$@")), key, _line(text, found.start())))
    if "{" in text and "$" in text:
        out += [(("index", found.group("var")), found.group("key"), _line(text, found.start()))
                for found in _PERL_SET.finditer(text)]
    if "dict" in text:
        out += [(("index", found.group("var")), found.group("key"), _line(text, found.start()))
                for found in _TCL_DICT_SET.finditer(text)]
    if "." in text:
        out += _puts(text)
    if "-map" in text:
        for found in _CLOJURE.finditer(text):
            out += _alternating(text, found.end(), found.start())
    if "dict" in text:
        for found in _TCL_CREATE.finditer(text):
            out += _alternating(text, found.end(), found.start(), line_ends=True)
    if "array" in text:
        for found in _TCL_ARRAY.finditer(text):
            out += _alternating(text, found.end(), found.start())
    if "dict" in text:
        out += _zipped(text)
    return out


def _puts(text: str) -> list[Entry]:
    """Keys of put/set/insert calls: one map per chain (`builder().put(..).put(..)`) or per
    receiving variable (`m.put(..);` statements)."""
    out: list[Entry] = []
    for found in _PUT.finditer(text):
        before = text[max(0, found.start() - 200):found.start()].rstrip()
        after = text[_skip_group(text, text.index("(", found.start())):][:200].lstrip()
        if before.endswith(")") or after.startswith("."):
            # a chain: the map is the statement the chain belongs to
            ends = list(_STATEMENT_END.finditer(text, 0, found.start()))
            scope: object = ends[-1].end() if ends else 0
            out.append((("chain", scope), found.group("key"), _line(text, found.start("key"))))
            continue
        receiver = _RECEIVER.search(before)
        if receiver is not None:
            key = found.group("key")
            out.append((("index", receiver.group("var")), key, _line(text, found.start("key"))))
    return out


def _alternating(text: str, at: int, scope: int, line_ends: bool = False) -> list[Entry]:
    """The words at even positions of the argument list starting at `at`, up to its closing bracket
    (and, for a Tcl command, `line_ends`, its line's end or `;`): each a key (a Clojure keyword or
    a variable is no host name's key, but it counts its position)."""
    out: list[Entry] = []
    index = 0
    pos = at
    while pos < len(text):
        if line_ends and text[pos:pos + 1] in ("\n", ";"):
            break
        word = _WORD.match(text, pos)
        if word is None or word.group("close") is not None:
            break
        if line_ends and "\n" in text[pos:word.start(0) + len(word.group(0)) - len(word.group(0).lstrip())]:
            break
        if word.group("group") is not None:
            pos = _skip_group(text, word.end() - 1)
            index += 1
            continue
        if index % 2 == 0:
            value = word.group("dq") if word.group("dq") is not None else word.group("bare")
            key_at = word.start("dq") if word.group("dq") is not None else word.start("bare")
            if value and not value.startswith((":", "$")):
                out.append((("words", scope), value, _line(text, key_at)))
        index += 1
        pos = word.end()
    return out


def _skip_group(text: str, at: int) -> int:
    """The offset after the bracketed group opened at `at` (nesting counted, strings not read)."""
    depth = 0
    for pos in range(at, min(len(text), at + 20000)):
        char = text[pos]
        if char in "{[(":
            depth += 1
        elif char in "}])":
            depth -= 1
            if depth == 0:
                return pos + 1
    return len(text)


def _zipped(text: str) -> list[Entry]:
    out: list[Entry] = []
    for found in _ZIPPED.finditer(text):
        end = _skip_group(text, found.end() - 1)
        out += [(("zip", found.start()), key.group("key"), _line(text, key.start()))
                for key in _QUOTED.finditer(text, found.end(), end)]
    return out
