"""composed_names.py's grammar: templates as host parts, their default words, the domains of
interest (tests/cli/test_composed_names.py runs the sweep on real repos)."""

from __future__ import annotations

import pytest

from renamer import composed_names

TAILS = composed_names.tails_of([("ana-ml2", "fv-ml1"), ("ana-ml2.ana.lan", "fv-ml1.fv.lan")])


def test_tails() -> None:
    assert TAILS == ("ana.lan",)
    assert composed_names.tails_of([("ana.lan", "fv.lan")]) == ("ana.lan", "lan")


@pytest.mark.parametrize(("text", "variables", "builtin", "tail"), [
    (b"https://${NODE}.ana.lan/", ("NODE",), None, "ana.lan"),
    (b"ssh $NODE.ana.lan", ("NODE",), None, "ana.lan"),
    (b'curl "${NODE}".ana.lan', ("NODE",), None, "ana.lan"),
    (b"{{ inventory_hostname }}.ana.lan", ("inventory_hostname",), "inventory_hostname", "ana.lan"),
    (b"{{- node | lower -}}.ana.lan", ("node",), None, "ana.lan"),
    (b"%{facts.hostname}.ana.lan", ("hostname",), "hostname", "ana.lan"),
    (b"%{::hostname}.ana.lan.", ("hostname",), "hostname", "ana.lan"),
    (b"$(hostname -s).ana.lan:22", (), "hostname", "ana.lan"),
    (b"`uname -n`.ana.lan", (), "hostname", "ana.lan"),
    (b"${var.node}.ana.lan", ("node",), None, "ana.lan"),
    (b"gpu-${N}-bmc.ana.lan", ("N",), None, "ana.lan"),
    (b"${X:-${Y:-ana-ml2}}.ana.lan", ("X", "Y"), None, "ana.lan"),
])
def test_found(text: bytes, variables: tuple[str, ...], builtin: str | None, tail: str) -> None:
    [found] = composed_names.find(text, TAILS)
    assert (found.template.variables, found.template.builtin, found.tail) == (variables, builtin, tail)
    assert text[found.tail_start:found.end].decode() == tail


@pytest.mark.parametrize("text", [
    pytest.param(b"sub.${NODE}.ana.lan", id="a-label-before"),
    pytest.param(b"x_${NODE}.ana.lan", id="an-underscore-before"),
    pytest.param(b"${NODE}.ana.lanx", id="a-longer-label"),
    pytest.param(b"${NODE}.ana.lan.example", id="a-longer-domain"),
    pytest.param(b"${NODE}.other.lan", id="another-domain"),
    pytest.param(b"${NODE}-ana.lan", id="no-dot"),
    pytest.param(b"$(cat x).ana.lan", id="another-command"),
    pytest.param(b"ana-ml2.ana.lan", id="no-template"),
])
def test_not_found(text: bytes) -> None:
    assert composed_names.find(text, TAILS) == []


@pytest.mark.parametrize(("text", "default"), [
    (b"${X:-ana-ml2}", "ana-ml2"),
    (b'${X:-"ana-ml2"}', "ana-ml2"),
    (b"${X-'ana-ml2'}", "ana-ml2"),
    (b"${X:=ana-ml2}", "ana-ml2"),
    (b"${X:+ana-ml2}", "ana-ml2"),
    (b"${X:-${Y:-ana-ml2}}", "ana-ml2"),
    (b"{{ x | default('ana-ml2') }}", "ana-ml2"),
    (b'{{ x | d("ana-ml2") }}', "ana-ml2"),
    (b"{{ x | default('ana-ml2', true) | lower }}", "ana-ml2"),
])
def test_default_words(text: bytes, default: str) -> None:
    [found] = list(composed_names.defaults(text))
    assert found.default == default
    assert found.default_span is not None
    assert text[found.default_span[0]:found.default_span[1]].decode() == default


@pytest.mark.parametrize("text", [b"${X:?ana-ml2}", b"${X}", b"{{ x }}", b'${X:-"ana-ml2\'}', b"${X:-a b}"])
def test_no_default_word(text: bytes) -> None:
    assert list(composed_names.defaults(text)) == []
