"""Keys by syntax shape, wherever they stand: entries of one bracketed list, and UCI sections.

formats/keylines.py reads keys by line: a `key:` or `key =` line under its parents. An entry list
on one line escapes it (outside pass t28, finding 06): a one-line PHP array `['web01' => 1,
'app01' => 2]`, a Jsonnet, Lua, Ruby or JS object `{ web01: {..}, app01: {..} }`, a Perl list
`(web01 => 1, app01 => 2)`. Here a container is any `{`, `[` or `(` (strings on one line are
skipped) and an entry is what follows its opener or one of its `,` / `;` separators: a key
(bare, quoted, or Lua's `["key"]`) and then `:` (followed by a blank, a quote, a bracket or the
line's end: `web01:80` is one word), `=>` or a lone `=`. Two entries of one container with one key
are two things under one name, whatever the language: PHP, Python and Ruby keep the last, Jsonnet
and Go refuse the file.

OpenWrt UCI files (`/etc/config/*`) name their sections: `config host 'web01'`. UCI merges two
sections of one type and name (the second's options win), so a renamed section meeting a standing
one loses the first machine's settings.

The edits replace names by names (no bracket, quote or separator is added or taken), so the
containers of the text before and after the edits are the same, by their order of opening. An
edit set collides when some key stands more often in one container (some UCI section more often
in the file) than it did before. Pure: text in, a sentence out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from renamer import lazy_re
from renamer.formats import map_calls, map_spellings

_TOKEN = lazy_re.compile(r"""[{}\[\]()]|[,;]|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'""")
_ENTRY = lazy_re.compile(r"""\s*(?:"(?P<dq>(?:[^"\\\n]|\\.)*)"|'(?P<sq>(?:[^'\\\n]|\\.)*)'"""
                    r"""|\[[ \t]*(?P<bq>["'])(?P<bk>[^"'\n]*)(?P=bq)[ \t]*\]"""
                    r"""|(?P<bare>[A-Za-z_$][\w.$-]*))"""
                    r"""[ \t]*(?:=>|=(?![=~>])|:(?=[ \t"'{\[(]|\r?$|\r?\n)(?!:))""")
_CLOSES = {"}": "{", "]": "[", ")": "("}
_UCI = lazy_re.compile(r"""(?m)^[ \t]*config[ \t]+(?P<type>[\w-]+)[ \t]+(?P<q>["']?)(?P<name>[\w.-]+)(?P=q)"""
                  r"[ \t]*\r?$")
_UCI_OPTION = lazy_re.compile(r"(?m)^[ \t]+(?:option|list)[ \t]+\w")


def _line(text: str, at: int) -> int:
    return text.count("\n", 0, at) + 1


def entries(text: str) -> list[tuple[int, str, int]]:
    """(container, key, line) of each keyed entry of a bracketed list; containers numbered by
    their order of opening."""
    out: list[tuple[int, str, int]] = []
    stack: list[tuple[str, int]] = []  # (opener, container number)
    opened = 0

    def entry(at: int) -> None:
        found = _ENTRY.match(text, at)
        if found is None or not stack:
            return
        key = next(v for v in (found.group("dq"), found.group("sq"), found.group("bk"), found.group("bare"))
                   if v is not None)
        blank = len(found.group()) - len(found.group().lstrip())
        out.append((stack[-1][1], key, _line(text, found.start() + blank)))

    for token in _TOKEN.finditer(text):
        mark = token.group()
        if mark in "{[(":
            opened += 1
            stack.append((mark, opened))
            entry(token.end())
        elif mark in _CLOSES:
            if stack and stack[-1][0] == _CLOSES[mark]:
                stack.pop()
        elif mark in ",;":
            entry(token.end())
    return out


def sections(text: str) -> list[tuple[str, str, int]]:
    """(type, name, line) of each named UCI section, where the text reads as a UCI file."""
    if "config" not in text or _UCI_OPTION.search(text) is None:
        return []
    return [(m.group("type"), m.group("name"), _line(text, m.start("name"))) for m in _UCI.finditer(text)]


def collision(before: str, after: str) -> str | None:
    """Where the edited text holds a key twice in one bracketed list, or a UCI section twice, that
    the original did not; else None."""
    if "config" in after and (found := _twice(sections(before), sections(after))) is not None:
        (kind, name), lines = found
        return (f"line {lines[0]}: after the rename the UCI section {kind} {name!r} would stand twice "
                f"(lines {', '.join(map(str, lines))}): UCI merges them, the second's options win; "
                "a renamed section would collide with an existing one")
    if not any(c in after for c in "{[("):
        return None
    found_entry = _twice(entries(before), entries(after))
    if found_entry is None:
        return map_collision(before, after)
    (_, key), lines = found_entry
    return (f"line {lines[0]}: after the rename the key {key!r} would stand twice in one list "
            f"(lines {', '.join(map(str, lines))}): a renamed key would collide with an existing one")


def map_collision(before: str, after: str) -> str | None:
    """Where the edited text holds a key twice in one map built by a call (by position, by infix
    pairs or by pairs: formats/map_calls.py) that the original did not; else None."""
    if not any(c in after for c in "[(.{"):
        return None
    found = _twice([*map_calls.entries(before), *map_spellings.entries(before)],
                   [*map_calls.entries(after), *map_spellings.entries(after)])
    if found is None:
        return None
    (_, key), lines = found
    return (f"line {lines[0]}: after the rename the key {key!r} would stand twice in one map built by a "
            f"call (lines {', '.join(map(str, lines))}): a renamed key would collide with an existing one")


def _twice(earlier: Sequence[tuple[object, str, int]], later: Sequence[tuple[object, str, int]]
           ) -> tuple[tuple[object, str], list[int]] | None:
    old = Counter((scope, key) for scope, key, _ in earlier)
    now: dict[tuple[object, str], list[int]] = {}
    for scope, key, line in later:
        now.setdefault((scope, key), []).append(line)
    for where, lines in now.items():
        if len(lines) > max(old[where], 1):
            return where, lines
    return None
