"""sweep/composed_addresses.py's decisions with the values given (tests/cli/test_composed_addresses.py
asks real repos for them)."""

from __future__ import annotations

import pytest

from renamer.match import Matcher
from renamer.sweep.composed_addresses import composed_address_matches
from renamer.sweep.templated import Fate
from renamer.variable_values import Definition, Resolved, Values

MATCHER = Matcher([("pug", "wolf")], [("10.0.0.5", "10.1.0.5")])


class Given:
    def __init__(self, **table: list[str]) -> None:
        self.table = table

    def fate(self, path: str, line: int) -> Fate:
        return "rewritten"

    def values(self, variable: str, near: str | None = None) -> Values:
        if variable not in self.table:
            return Values((), (f"`{variable}` is defined nowhere in the repo",))
        return Values(tuple(Resolved(v, ((variable, "a.env", i + 1, v),)) for i, v in enumerate(self.table[variable])),
                      ())

    def list_items(self, variable: str, near: str | None = None,
                   split: bool = False) -> tuple[list[Definition], list[str]]:
        return [("a.env", 1, v) for v in self.table.get(variable, [])], []


@pytest.mark.parametrize(("given", "text", "old"), [
    pytest.param(Given(P=["10.0.0"]), b"${P}.5", "10.0.0.5", id="prefix"),
    pytest.param(Given(P=["10.9.9", "10.0.0"]), b"x $P.5 y", "10.0.0.5", id="one-value-of-two"),
    pytest.param(Given(), b"${X:-10.0.0}.5", "10.0.0.5", id="default-of-an-unknown-variable"),
    pytest.param(Given(A=["5"], B=["0.0.10.in-addr.arpa"]), b"${A}.${B}", "5.0.0.10.in-addr.arpa", id="reverse"),
    pytest.param(Given(), b"for o in 4 5; do x 10.0.0.$o; done", "10.0.0.5", id="a-loop"),
])
def test_refused(given: Given, text: bytes, old: str) -> None:
    [found] = composed_address_matches(text, [], MATCHER, given)
    assert (found.old, found.refused) == (old, "composed-address")
    assert found.note is not None and found.note.startswith(f"{text[found.start:found.end].decode()} is {old}")


@pytest.mark.parametrize(("given", "text"), [
    pytest.param(Given(P=["10.0.0"]), b"${P}.6 ${P}.50 v1.${P}.5", id="other-addresses"),
    pytest.param(Given(), b"${P}.5", id="unknown"),
    pytest.param(Given(P=["10.1.0"]), b"${P}.5", id="the-new-prefix"),
])
def test_nothing_to_say(given: Given, text: bytes) -> None:
    assert composed_address_matches(text, [], MATCHER, given) == []
