"""Patterns rewritten to open with a literal (issue 30): `re` skips ahead to a pattern's leading
literal, but tries every byte of a file where a pattern opens with a lookbehind, a `\\b` or
`(?i)`. Each rewrite moved the look behind its literal; these properties prove each answers
exactly as its older spelling did (the same spans, the same groups), on bytes dense in what
the pattern reads."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from renamer import access_nets, hostlists, markdown_emphasis, name_limits, own_storage

OLD_BRACKET = re.compile(hostlists.BRACKET.pattern.replace(
    rb"\[(?<=[A-Za-z0-9._-]\[)", rb"(?<=[A-Za-z0-9._-])\[", 1))
OLD_OWN = re.compile(own_storage._OWN_NAME.pattern.replace(rb"%(?<!%%)[Hl]", rb"(?<!%)%[Hl]", 1))
OLD_UNDERSCORE = re.compile(rb"(?<=[A-Za-z0-9.-])_{1,3}(?![A-Za-z0-9_])")
OLD_WORDS = re.compile(rb"(?i)netbios|computer[_-]?name|-computer|renamecomputer|\bname[ \t]*=|set-name"
                       rb"|win_hostname|win_domain_membership"
                       rb"|interface-name|\biface\b|\bauto\b|allow-hotplug|ip[ \t]+link")


def _texts(*pieces: bytes) -> st.SearchStrategy[bytes]:
    return st.lists(st.sampled_from(pieces) | st.binary(max_size=2), max_size=30).map(b"".join)


def _same(old: re.Pattern[bytes], new: re.Pattern[bytes], text: bytes) -> None:
    assert [(m.span(), m.groups()) for m in old.finditer(text)] == \
        [(m.span(), m.groups()) for m in new.finditer(text)]
    # (with lazy patterns both sides are compiled on first use: `.pattern` is the source)


@settings(max_examples=400)
@given(_texts(b"[", b"]", b"a", b"0", b"1", b"-", b",", b"/", b".", b"_", b"9-9", b"x", b"*", b" "))
def test_hostlist_brackets_read_as_before(text: bytes) -> None:
    _same(OLD_BRACKET, re.compile(hostlists.BRACKET.pattern), text)


@settings(max_examples=400)
@given(_texts(b"%", b"%H", b"%l", b"%%H", b"a", b"_", b"$HOSTNAME", b"${HOSTNAME}", b" ", b"{{ inventory_hostname }}"))
def test_own_names_read_as_before(text: bytes) -> None:
    _same(OLD_OWN, re.compile(own_storage._OWN_NAME.pattern), text)


@settings(max_examples=400)
@given(_texts(b"_", b"__", b"a", b".", b"-", b"0", b" ", b"*"))
def test_underscore_closers_read_as_before(text: bytes) -> None:
    _same(OLD_UNDERSCORE, re.compile(markdown_emphasis._UNDERSCORE_CLOSE.pattern), text)


@settings(max_examples=400)
@given(_texts(b"name", b"NAME", b"Name =", b"=", b" ", b"a", b"_", b"iface", b"IFACE", b"auto", b"Auto",
              b"netbios", b"ComputerName", b"-computer", b"ip link", b"IP\tLINK", b"0"))
def test_limited_place_words_read_as_before(text: bytes) -> None:
    # the new pattern reads lower-cased bytes: the same answer, at the same places
    assert [m.span() for m in OLD_WORDS.finditer(text)] == \
        [m.span() for m in re.compile(name_limits._WORDS.pattern).finditer(text.lower())]
    assert name_limits.might_hold(text) == (OLD_WORDS.search(text) is not None)


@settings(max_examples=400)
@given(_texts(b"10.0.0.", b"1", b"5", b"/", b".", b"0", b"110.0.0.", b"a", b" ", b"24"))
def test_host_literals_read_as_before(text: bytes) -> None:
    head = b"10.0.0."
    old = re.compile(rb"(?<![0-9.])" + re.escape(head) + rb"([0-9]{1,3})/")
    _same(old, access_nets.host_literal(head), text)
