"""variable_values.py's pure logic: a variable's values followed through the variables its
definitions name (tests/cli/test_templated_names.py and test_composed_names.py run it on repos)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from renamer import variable_values
from renamer.variable_values import Definition


def _lookup(table: dict[str, list[str]]) -> variable_values.Lookup:
    def lookup(variable: str) -> Sequence[Definition]:
        return [("defs", index + 1, raw) for index, raw in enumerate(table.get(variable, []))]
    return lookup


@pytest.mark.parametrize(("table", "values"), [
    pytest.param({"d": ["ana.lan"]}, ["ana.lan"], id="plain"),
    pytest.param({"d": ["${BASE}"], "BASE": ["ana.lan"]}, ["ana.lan"], id="shell-braces"),
    pytest.param({"d": ["$BASE"], "BASE": ["ana.lan"]}, ["ana.lan"], id="shell-bare"),
    pytest.param({"d": ["{{ base }}"], "base": ["ana.lan"]}, ["ana.lan"], id="jinja"),
    pytest.param({"d": ["{{ base | lower }}"], "base": ["ana.lan"]}, ["ana.lan"], id="jinja-keeping-filter"),
    pytest.param({"d": ["var.base"], "base": ["ana.lan"]}, ["ana.lan"], id="terraform-var"),
    pytest.param({"d": ["${local.base}"], "base": ["ana.lan"]}, ["ana.lan"], id="terraform-interpolation"),
    pytest.param({"d": ["${SUB}.${TLD}"], "SUB": ["ana", "fv"], "TLD": ["lan"]}, ["ana.lan", "fv.lan"],
                 id="a-product"),
    pytest.param({"d": ["${BASE:-ana.lan}"]}, ["ana.lan"], id="default-where-defined-nowhere"),
    pytest.param({"d": ["${BASE:-ana.lan}"], "BASE": ["fv.lan"]}, ["fv.lan"], id="definition-over-default"),
    pytest.param({"d": ["{{ base | default('ana.lan') }}"]}, ["ana.lan"], id="jinja-default"),
    # once per definition giving it: one may be kept while the other is rewritten (sweep/composed.py)
    pytest.param({"d": ["ana.lan", "${B}"], "B": ["ana.lan"]}, ["ana.lan", "ana.lan"], id="a-value-once-per-definition"),
])
def test_values(table: dict[str, list[str]], values: list[str]) -> None:
    found = variable_values.resolve("d", _lookup(table))
    assert [r.value for r in found.found] == values
    assert found.unknown == ()


@pytest.mark.parametrize(("table", "said"), [
    pytest.param({}, "`d` is defined nowhere in the repo", id="nowhere"),
    pytest.param({"d": ["${B}"], "B": ["${d}"]}, "cycle (d -> B -> d)", id="a-cycle"),
    pytest.param({"d": ["${d}"]}, "cycle (d -> d)", id="itself"),
    pytest.param({"d": ["${B}"]}, "`d` is ${B} at defs:1 and `B` is defined nowhere", id="to-nowhere"),
    pytest.param({"d": ["$(cat /etc/domain)"]}, "computed when it runs", id="command"),
    pytest.param({"d": ["`hostname -d`"]}, "computed when it runs", id="backticks"),
    pytest.param({"d": ["{{ b | replace('x', 'y') }}"], "b": ["x.lan"]}, "a filter that changes it", id="filter"),
    pytest.param({f"v{i}": [f"${{v{i + 1}}}"] for i in range(10)} | {"d": ["${v0}"]}, "more than 8",
                 id="too-deep"),
])
def test_unknown(table: dict[str, list[str]], said: str) -> None:
    found = variable_values.resolve("d", _lookup(table))
    assert found.found == ()
    assert any(said in reason for reason in found.unknown), found.unknown


def test_why_names_every_step() -> None:
    found = variable_values.resolve("d", _lookup({"d": ["{{ base }}"], "base": ["ana.lan"]}))
    assert found.found[0].why() == "`d` is {{ base }} at defs:1, `base` is ana.lan at defs:1"


def test_width_is_bounded() -> None:
    table = {"d": ["${A}${B}${C}"], "A": [str(i) for i in range(10)], "B": [str(i) for i in range(10)],
             "C": [str(i) for i in range(10)]}
    assert len(variable_values.resolve("d", _lookup(table)).found) == variable_values.WIDTH
