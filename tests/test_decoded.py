"""Old values split by a line-ending backslash: the joined reading, mapped back to the bytes."""

from __future__ import annotations

import pytest

from renamer.decoded import is_makefile, might_split, split_matches
from renamer.match import Matcher

MATCHER = Matcher([("ana-ml2", "fv-ml1"), ("ana-ml2.ana.lan", "fv-ml1.fv.lan")], [("10.250.50.54", "10.251.50.54")])


def _split(data: bytes, indent: bool) -> list[tuple[bytes, str, str | None]]:
    return [(data[m.start:m.end], m.old, m.refused)
            for m in split_matches(MATCHER, data, MATCHER.find(data), indent=indent)]


@pytest.mark.parametrize(("data", "indent", "expected"), (
    pytest.param(b"ana-\\\nml2", False, [(b"ana-\\\nml2", "ana-ml2", "split")], id="shell"),
    pytest.param(b"a\\\n  na-ml2 x", True, [(b"a\\\n  na-ml2", "ana-ml2", "split")], id="yaml-after-first-letter"),
    pytest.param(b"ana-ml\\\n2", False, [(b"ana-ml\\\n2", "ana-ml2", "split")], id="before-the-last-letter"),
    pytest.param(b"ana-ml2\\\n.ana.lan", False, [(b"ana-ml2\\\n.ana.lan", "ana-ml2.ana.lan", "split")],
                 id="the-fqdn-wins-over-the-plain-match"),
    pytest.param(b"10.2\\\n50.5\\\n0.54", False, [(b"10.2\\\n50.5\\\n0.54", "10.250.50.54", "split")],
                 id="two-breaks-in-one-value"),
    pytest.param(b"x" * 500 + b" ana-\\\nml2 " + b"y" * 500, False,
                 [(b"ana-\\\nml2", "ana-ml2", "split")], id="far-from-either-end"),
    pytest.param(b"ana-\\\n  ml2", False, [], id="noop-shell-keeps-the-indent"),
    pytest.param(b"ana-\\\\\nml2", False, [], id="noop-escaped-backslash"),
    pytest.param(b"ana-ml2 \\\nx", False, [(b"ana-ml2", "ana-ml2", None)], id="noop-a-whole-name-before-a-break"),
    pytest.param(b"xana-\\\nml2", False, [], id="noop-longer-name-joined"),
    pytest.param(b"y" * 30 + b"ana-\\\nml2", False, [], id="noop-a-longer-name-past-the-window"),
))
def test_split_matches(data: bytes, indent: bool, expected: list[tuple[bytes, str, str | None]]) -> None:
    assert _split(data, indent) == expected


def test_the_prefilter_sees_both_joins() -> None:
    assert might_split(MATCHER, b'"ana-\\\n   ml2"') and might_split(MATCHER, b"ana-\\\r\nml2")
    assert not might_split(MATCHER, b"ana-\nml2") and not might_split(MATCHER, b"web01\\\nweb02")


@pytest.mark.parametrize(("data", "expected"), (
    pytest.param(b"all:\n\tssh ana-\\\n\tml2\n", [(b"ana-\\\n\tml2", "ana-ml2", "split")], id="recipe-tab-dropped"),
    pytest.param(b"all:\n\tping 10.250.\\\r\n\t50.54\n", [(b"10.250.\\\r\n\t50.54", "10.250.50.54", "split")],
                 id="recipe-crlf"),
    pytest.param(b"H = ana-\\\n\tml2\n", [], id="noop-a-variable-make-joins-with-a-space"),
    pytest.param(b"all:\n\tssh ana-\\\n\t\tml2\n", [], id="noop-a-second-tab-the-shell-keeps"),
))
def test_a_makefile_recipe_joins_as_make_and_the_shell_do(data: bytes,
                                                          expected: list[tuple[bytes, str, str | None]]) -> None:
    found = split_matches(MATCHER, data, MATCHER.find(data), indent=False, recipe=True)
    assert [(data[m.start:m.end], m.old, m.refused) for m in found] == expected


@pytest.mark.parametrize(("rel", "make"), (("Makefile", True), ("sub/makefile", True), ("GNUmakefile", True),
                                           ("rules.mk", True), ("Makefile.inc", True), ("build.sh", False),
                                           ("Makefile.d/x.yaml", False), ("notmakefile", False)))
def test_which_files_make_reads(rel: str, make: bool) -> None:
    assert is_makefile(rel) is make
