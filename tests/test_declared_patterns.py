"""declared_patterns.py's pure logic: where a format declares a pattern, in which grammar, and
patterns.py's reading of it (the CLI test, tests/cli/test_declared_patterns.py, runs the sweep)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from renamer import declared_patterns
from renamer.declared_patterns import WORDS, might_hold
from renamer.patterns import domain_tail, extglob_regex, find_patterns, fragments

OLDS = ["web01", "10.0.0.70"]
NEWS = {"web01": "app01", "10.0.0.70": "10.0.1.70"}


def _hits(data: bytes) -> list[tuple[bytes, str]]:
    return [(data[h.start:h.end], h.old) for h in find_patterns(data, OLDS, fragments(OLDS), NEWS)]


@pytest.mark.parametrize(("data", "pattern", "grammar"), [
    (b"  server_name ~^web0.\\.lab$ www;", b"^web0.\\.lab$", "regex"),
    (b"  server_name ~*^web0.$;", b"^web0.$", "regex"),
    (b"location ~* \"^/web0.\" {", b"^/web0.", "regex"),
    (b"if ($http_host !~ ^web0.\\.) {", b"^web0.\\.", "regex"),
    (b"acl a hdr_reg(host) -i ^web0. if x", b"^web0.", "regex"),
    (b"RewriteCond %{HTTP_HOST} ^web0.$ [NC]", b"^web0.$", "regex"),
    (b"[[ $h =~ ^web0.$ ]]", b"^web0.$", "regex"),
    (b"WHERE n NOT LIKE 'web0%'", b"web0%", "like"),
    (b"WHERE n ilike 'web0%'", b"web0%", "like"),
    (b"WHERE n SIMILAR TO 'web0(1|2)'", b"web0(1|2)", "similar"),
])
def test_each_declared_position_is_found_in_its_grammar(data: bytes, pattern: bytes, grammar: str) -> None:
    found = declared_patterns.positions(data)
    assert (data[found[0].start:found[0].end], found[0].grammar) == (pattern, grammar)


@pytest.mark.parametrize(("data", "spelled", "old"), [
    (b"server_name ~^web0.\\.lab$;", b"^web0.\\.lab$", "web01"),  # no syntax the probe knows
    (b"if ($host ~* \"^web0[12]\\.\") {}", b"^web0[12]\\.", "web01"),  # the name in any domain
    (b"acl a hdr_reg(host) ^web0[1-3]\\.lab$", b"^web0[1-3]\\.lab$", "web01"),
    (b"WHERE ip LIKE '10.0.0.7_'", b"10.0.0.7_", "10.0.0.70"),
    (b"WHERE n LIKE 'web0%'", b"web0%", "web01"),
    (b"[[ $h == web0@(1|2) ]]", b"web0@(1|2)", "web01"),  # extglob, read by the probe
    (b"match: ^web0[12]\\.lab\\.example$", b"^web0[12]\\.lab\\.example$", "web01"),  # a domain tail
])
def test_a_pattern_matching_an_old_value_is_a_hit(data: bytes, spelled: bytes, old: str) -> None:
    assert _hits(data) == [(spelled, old)]


@pytest.mark.parametrize("data", [
    b"server_name ~^www\\.lab$;", b"location ~ \\.php$ {", b"WHERE n LIKE 'db%'",
    b"WHERE n LIKE '%'",  # matches the new value too: nothing to decide
    b"server_name ~^(?P<h>.+)\\.lab$;", b"We like 'web' here", b"WHERE n LIKE 'web01'",
])
def test_no_hit(data: bytes) -> None:
    assert _hits(data) == []


def test_the_grammars_translate() -> None:
    assert declared_patterns.as_regex("web0%", "like") == "web0.*"
    assert declared_patterns.as_regex("10.0.0.7_", "like") == "10\\.0\\.0\\.7."
    assert extglob_regex("web0@(1|2)") == "web0(?:1|2)"
    assert extglob_regex("web0!(3)") == "web0(?:(?!(?:3)$).*)"
    assert extglob_regex("web0[12]") is None
    assert domain_tail("web0[12]\\.lab\\.example", regex=True) == ".lab.example"
    assert domain_tail("web0?.lab", regex=False) == ".lab"
    assert domain_tail("web0[1-3]", regex=True) == ""


_SPELLED = ["server_name", "location", "$host", "=~", "~", "_reg(", "-m reg", "RewriteCond", "LIKE '", "like \"",
            "SIMILAR TO", "similar to", "}}", "${", "match(", "find(", "grep", "search(", "startswith(", "(?i)",
            " -i ", "[!", "[[:", "with", "prefix", "include", "contain", "index", "strstr", "strpos", "instr",
            "' in ", '" in ', "' not in ", '" not in ', "WITH", "Prefix", "FIND", "IndexOf", "InStr", "Reg",
            "IKE ", "imilar To", "x", " ", "'", '"', "(", "\n"]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_SPELLED) | st.text(max_size=2), max_size=12))
def test_a_file_holding_no_word_in_any_case_holds_no_declared_pattern(pieces: list[str]) -> None:
    """WORDS, read in any case, cover every literal might_hold asks (its own, pattern_dialects' and
    prefix_tests'): the native first pass asks them once, and where none stands might_hold is not
    asked (issue 30)."""
    data = "".join(pieces).encode("utf-8", "surrogateescape")
    if might_hold(data):
        assert any(word in data.lower() for word in WORDS)
