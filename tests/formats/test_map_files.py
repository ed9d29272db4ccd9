"""formats/map_files: lookup tables keyed by a line's first field (HAProxy `.map`, Postfix and
sendmail tables; t32 round 25, finding 13): which files are tables, and the collision a rename makes
there (pure logic; the sweep's refusal end to end is tests/cli/test_map_files.py's)."""

from __future__ import annotations

import pytest

from renamer.formats import format_of
from renamer.formats.map_files import HAPROXY, POSTFIX, collision, is_table


@pytest.mark.parametrize(("path", "data", "table"), [
    ("haproxy/hosts.map", b"web01 pool_a\n", True),
    ("nginx/backends.map", b"web01.lab.example backend_a;\n", True),
    ("postfix/transport", b"x smtp:[h]\n", True),
    ("etc/virtual", b"a@b c\n", True),
    ("roles/mail/files/sender_access", b"x OK\n", True),
    ("etc/mail/access", b"x RELAY\n", True),
    ("etc/mail/mailertable", b"x esmtp:[h]\n", True),
    ("postfix/main.cf", b"relayhost = x\n", False),  # configuration, no table
    ("mail/sendmail.mc", b"x\n", False),
    ("dist/app.js.map", b'{"version":3,"sources":[]}\n', False),  # a source map is JSON
    ("docs/access", b"x\n", False),  # `access` alone only under mail/
    ("hosts.txt", b"web01 up\n", False),
])
def test_what_is_a_lookup_table(path: str, data: bytes, table: bool) -> None:
    assert is_table(path, data) is table
    assert (format_of(path, data) in (HAPROXY, POSTFIX)) is table


def test_postfix_tables_fold_case_and_haproxy_maps_do_not() -> None:
    assert format_of("postfix/transport", b"") is POSTFIX and format_of("hosts.map", b"") is HAPROXY
    before = "WEB01.lab.example smtp:[a]\napp01.lab.example smtp:[b]\n"
    after = before.replace("WEB01", "APP01")
    assert "'app01.lab.example' would stand twice" in (collision(before, after, fold=True) or "")
    assert collision(before, after, fold=False) is None  # HAProxy keys are exact


@pytest.mark.parametrize(("before", "after"), [
    ("web01 pool_a\napp01 pool_b\n", "app01 pool_a\napp01 pool_b\n"),
    ("# backends\r\nweb01\tpool_a\r\napp01\tpool_b\r\n", "# backends\r\napp01\tpool_a\r\napp01\tpool_b\r\n"),
    ("@web01.lab.example x\n  continued\n@app01.lab.example y\n", "@app01.lab.example x\n  continued\n"
     "@app01.lab.example y\n"),
])
def test_two_entries_under_one_key_name_both_lines(before: str, after: str) -> None:
    problem = collision(before, after, fold=False)
    assert problem is not None and "(lines " in problem and "would collide with an existing one" in problem


@pytest.mark.parametrize(("before", "after"), [
    ("web01 pool_a\ndb01 pool_b\n", "app01 pool_a\ndb01 pool_b\n"),  # no standing key
    ("web01 app01\n", "app01 app01\n"),  # a value is no key
    ("# app01 is the new one\nweb01 a\n", "# app01 is the new one\napp01 a\n"),  # a comment
    ("x a\nx b\n", "x a\nx b\n"),  # a duplicate standing before is not the rename's
])
def test_noop_what_makes_no_second_entry(before: str, after: str) -> None:
    assert collision(before, after, fold=True) is None
