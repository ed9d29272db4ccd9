"""variable_values.py's pure logic: a variable's values followed through the variables its
definitions name (tests/cli/test_templated_names.py and test_composed_names.py run it on repos)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


def _reference(variable: str, lookup: variable_values.Lookup, chain: tuple[str, ...] = (),
               depth: int = variable_values.DEPTH) -> variable_values.Values:
    """The resolution as first written, with no memo: every path to a variable followed anew."""
    vv = variable_values
    if variable in chain:
        cycle = (*chain[chain.index(variable):], variable)
        return vv.Values((), (f"`{variable}` is defined through a cycle ({' -> '.join(cycle)})",))
    if depth <= 0:
        return vv.Values((), (f"`{variable}` is defined through more than {vv.DEPTH} variables",))
    definitions = lookup(variable)
    if not definitions:
        return vv.Values((), (f"`{variable}` is defined nowhere in the repo",))
    found: list[vv.Resolved] = []
    unknown: list[str] = []
    for path, line, raw in definitions:
        if vv._COMPUTED.search(raw):
            unknown.append(f"`{variable}` is {raw} at {path}:{line}, computed when it runs")
            continue
        partial: list[tuple[str, tuple[vv.Step, ...]]] = [("", ())]
        why: list[str] = []
        last, dead = 0, False
        for ref in vv._REFERENCE.finditer(raw):
            name, default, keeps = vv._reference(ref)
            literal, last = raw[last:ref.start()], ref.end()
            if not keeps:
                partial, why, dead = [], [f"`{name}` goes through a filter that changes it"], True
                break
            inner = _reference(name, lookup, (*chain, variable), depth - 1)
            options = [(r.value, r.via) for r in inner.found]
            if not options and default is not None:
                options = [(default, ())]
            else:
                why += list(inner.unknown)
            if not options:
                partial, dead = [], True
                break
            partial = [(h + literal + v, via + more) for h, via in partial for v, more in options][:vv.WIDTH]
        options_out = [] if dead else [(h + raw[last:], via) for h, via in partial]
        unknown += [f"`{variable}` is {raw} at {path}:{line} and {reason}" for reason in why]
        found += [vv.Resolved(value, ((variable, path, line, raw), *via)) for value, via in options_out]
    return vv.Values(tuple(vv._unique(found)[:vv.WIDTH]), tuple(dict.fromkeys(unknown)))


_NAMES = ["d", "A", "B", "C", "E"]


@given(st.dictionaries(st.sampled_from(_NAMES), st.lists(
    st.lists(st.sampled_from([*(f"${{{n}}}" for n in _NAMES), "x", ".lan", "{{ B | lower }}",
                              "{{ C | replace('a', 'b') }}", "${A:-dflt}", "$(hostname)"]),
             min_size=1, max_size=3).map("".join), min_size=1, max_size=3)))
@settings(max_examples=300, deadline=None)
def test_the_memo_gives_what_following_every_path_gives(table: dict[str, list[str]]) -> None:
    """Cycles through variables above, and below, a reused result; defaults; filters; depth."""
    for variable in _NAMES:
        assert variable_values.resolve(variable, _lookup(table)) == _reference(variable, _lookup(table))


def test_a_variable_named_by_many_paths_is_looked_up_once_per_depth() -> None:
    """mailcow-dockerized's generate_config.sh-style chains: each variable naming the next two,
    once each. Every path was followed anew: 2**16 lookups for 17 variables; now each variable
    at each depth it is reached at, once."""
    table = {f"v{i}": [f"${{v{i + 1}}}${{v{i + 2}}}"] for i in range(16)} | {"v16": ["a"], "v17": ["b"]}
    asked: list[str] = []
    lookup = _lookup(table)

    def counting(variable: str) -> Sequence[Definition]:
        asked.append(variable)
        return lookup(variable)

    found = variable_values.resolve("v0", counting, depth=20)
    assert found.found and found.unknown == ()
    assert len(asked) <= 18 * 20  # before: 5,167 for this chain, growing as 1.6**n; now 89
