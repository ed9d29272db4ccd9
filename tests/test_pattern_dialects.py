"""pattern_dialects.py's pure logic: where a dialect pattern or a prefix test stands, and the
regular expression each grammar reads as (the CLI test, tests/cli/test_pattern_dialects.py, runs
the sweep). Each conversion is checked against what Python's own fnmatch / re say."""

from __future__ import annotations

import fnmatch
import re

from renamer import declared_patterns, pattern_dialects
from renamer.patterns import find_patterns, fragments


def _texts(data: bytes) -> list[tuple[str, str]]:
    return [(data[s:e].decode(), grammar) for s, e, grammar, _ in pattern_dialects.positions(data)]


def test_positions_and_grammars() -> None:
    data = (b"if h.startswith('kworker'):\n{% if x is match('n\\d-cls\\d') %}\n"
            b"hostname | grep -qi \"^WEB01\"\nif h:match(\"^web0%d$\") then end\n"
            b"regex: \"(?i)WEB01\\\\.lab:9100\"\nacl w hdr(host) -i WEB01.lab web02.lab\n"
            b"up{instance=~\"n.-cls1:9100\"}\nup{instance=~\"a.lab|b.lab\"}\n'web0[!2-9]': []\n")
    assert _texts(data) == [("kworker", "prefix"), ("n\\d-cls\\d", "prefix-regex"), ("WEB01", "prefix-regex"),
                            ("^web0%d$", "lua"), ("WEB01\\\\.lab:9100", "regex-search"),
                            ("WEB01.lab", "literal"), ("n.-cls1:9100", "anchored"), ("web0[!2-9]", "glob")]
    assert all(d.grammar in pattern_dialects.GRAMMARS or d.grammar == "regex"
               for d in declared_patterns.positions(data))


def test_globs_read_as_fnmatch_and_posix_do() -> None:
    for glob in ("web0[!2-9]", "web0[!0-9]", "?eb0[!5]", "*-cls[!2]"):
        regex = pattern_dialects.as_regex(glob, pattern_dialects.GLOB)
        assert regex is not None
        for name in ("web01", "web05", "n1-cls1", "n1-cls2"):
            assert bool(re.fullmatch(regex, name)) == fnmatch.fnmatchcase(name, glob), (glob, name)
    assert pattern_dialects.as_regex("web0[[:digit:]]", pattern_dialects.GLOB) == "web0[0-9]"
    assert pattern_dialects.as_regex("web0[[:bogus:]]", pattern_dialects.GLOB) is None


def test_lua_and_prefix_grammars() -> None:
    lua = pattern_dialects.as_regex("^10%.0%.0%.7%d$", pattern_dialects.LUA)
    assert lua is not None and re.fullmatch(lua, "10.0.0.70") and not re.fullmatch(lua, "10.0.1.90")
    prefix = pattern_dialects.as_regex("kwork", pattern_dialects.PREFIX)
    assert prefix is not None and re.fullmatch(prefix, "kworker01") and not re.fullmatch(prefix, "kw-a")
    anchored = pattern_dialects.as_regex("^n\\d", pattern_dialects.PREFIX_REGEX)
    assert anchored is not None and re.fullmatch(anchored, "n1-cls1") and not re.fullmatch(anchored, "pve-a")


def test_whole_name_alternations_are_plain() -> None:
    assert pattern_dialects.plain_names("n1-cls1.homelab.lan|n2-cls1.homelab.lan:9100")
    assert not pattern_dialects.plain_names("(n1|n2)-cls1")
    assert not pattern_dialects.plain_names("n.-cls1")  # a label starts with no `-`: `.` is a wildcard


def test_find_patterns_decides_by_what_matches() -> None:
    olds, news = ["web01", "n1-cls1"], {"web01": "app01", "n1-cls1": "pve-a"}
    starts = fragments(olds)
    assert b"eb0" in starts and b"cls" in starts  # a wildcard in the first characters
    hits = find_patterns(b"a: '?eb01'\nb: '*-cls1'\nc: '*01'\n", olds, starts, news)
    assert [h.old for h in hits] == ["web01", "n1-cls1"]  # `*01` matches app01 too: no decision


def test_round25_09_a_lua_pattern_anchored_at_the_start_is_a_pattern() -> None:
    """Outside round 25, finding 09: `string.find(h, "^web0")`, `h:match("^web0")` hold no `%`
    class but are Lua patterns all the same; a plain `h:find("web0")` stays a substring test."""
    data = b'if string.find(h, "^web0") then end\nif h:match("^web0") then end\nif h:find("web0") then end\n'
    assert [t for t in _texts(data) if t[1] == "lua"] == [("^web0", "lua"), ("^web0", "lua")]
