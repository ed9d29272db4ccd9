"""sweep/composed.py's decisions over the values a variable may hold, with the values given
(tests/cli/test_composed_names.py asks real repos for them)."""

from __future__ import annotations

import pytest

from renamer.occurrences import Match
from renamer.sweep.composed import composed_matches
from renamer.sweep.templated import Fate
from renamer.variable_values import Resolved, Values

MOVED = (("ana-ml2", "fv-ml1"), ("ana-ml2.ana.lan", "fv-ml1.fv.lan"))
KEPT = (("ana-ml2", "fv-ml1"), ("ana-ml2.ana.lan", "fv-ml1.ana.lan"))


class Given:
    def __init__(self, kept: tuple[int, ...] = (), unknown: tuple[int, ...] = (), **table: list[str]) -> None:
        self.table = table
        self.kept = kept  # lines of a.env the sweep keeps
        self.unknown = unknown  # lines whose fate cannot be told

    def fate(self, path: str, line: int) -> Fate:
        return "kept" if line in self.kept else "unknown" if line in self.unknown else "rewritten"

    def values(self, variable: str, near: str | None = None) -> Values:
        if variable not in self.table:
            return Values((), (f"`{variable}` is defined nowhere in the repo",))
        return Values(tuple(Resolved(v, ((variable, "a.env", i + 1, v),)) for i, v in enumerate(self.table[variable])),
                      ())


def _apply(data: bytes, matches: list[Match]) -> bytes:
    for m in sorted(matches, key=lambda m: -m.start):
        assert m.refused is None
        data = data[:m.start] + m.new.encode() + data[m.end:]
    return data


@pytest.mark.parametrize(("hosts", "given", "text", "expected"), [
    pytest.param(MOVED, Given(NODE=["ana-ml2"]), b"${NODE}.ana.lan", b"${NODE}.fv.lan", id="follows"),
    pytest.param(MOVED, Given(NODE=["fv-ml1"]), b"${NODE}.ana.lan", b"${NODE}.fv.lan", id="definition-already-new"),
    pytest.param(MOVED, Given(X=["ana-ml2"]), b"${X:-'ana-ml2'}.ana.lan", b"${X:-'fv-ml1'}.fv.lan",
                 id="default-and-value"),
    pytest.param((("ana-ml2", "fv-ml1"), ("ana.lan", "fv.lan")), Given(NODE=["ana-ml2"]), b"$NODE.ana.lan",
                 b"$NODE.fv.lan", id="domain-renamed"),
])
def test_follows(hosts: tuple[tuple[str, str], ...], given: Given, text: bytes, expected: bytes) -> None:
    matches, notes = composed_matches(text, [], hosts, given)
    assert notes == []
    assert _apply(text, matches) == expected


@pytest.mark.parametrize(("hosts", "given", "text"), [
    pytest.param(MOVED, Given(NODE=["ana-ml2", "db01"]), b"${NODE}.ana.lan", id="two-values"),
    pytest.param(MOVED, Given(), b"{{ inventory_hostname }}.ana.lan", id="builtin"),
    pytest.param(MOVED, Given(X=["db01"]), b"${X:-ana-ml2}.ana.lan", id="default-against-its-variable"),
    pytest.param(MOVED, Given(N=["ml2"]), b"ana-${N}.ana.lan", id="the-host-part-cannot-follow"),
    pytest.param(MOVED, Given(unknown=(1,), NODE=["ana-ml2"]), b"${NODE}.ana.lan", id="fate-unknown"),
    pytest.param(MOVED, Given(kept=(1,), NODE=["ana-ml2", "ana-ml2"]), b"${NODE}.ana.lan", id="kept-beside-rewritten"),
])
def test_refused(hosts: tuple[tuple[str, str], ...], given: Given, text: bytes) -> None:
    matches, _ = composed_matches(text, [], hosts, given)
    assert [(m.start, m.end, m.refused) for m in matches] == [(0, len(text), "composed-name")]


@pytest.mark.parametrize(("hosts", "given", "text"), [
    pytest.param(MOVED, Given(NODE=["db01"]), b"${NODE}.ana.lan", id="another-host"),
    pytest.param(MOVED, Given(kept=(1,), NODE=["ana-ml2"]), b"${NODE}.ana.lan", id="definition-kept"),
    pytest.param(MOVED, Given(unknown=(1,), NODE=["db01"]), b"${NODE}.ana.lan", id="fate-unknown-another-host"),
    pytest.param(KEPT, Given(NODE=["ana-ml2"]), b"${NODE}.ana.lan", id="domain-kept"),
    pytest.param(KEPT, Given(), b"$(hostname).ana.lan", id="builtin-domain-kept"),
    pytest.param(MOVED, Given(), b"${X:-ana-ml2}.ana.lan", id="default-of-an-unknown-variable-is-decoded-s"),
])
def test_nothing_to_say(hosts: tuple[tuple[str, str], ...], given: Given, text: bytes) -> None:
    assert composed_matches(text, [], hosts, given) == ([], [])


def test_unknown_is_a_note() -> None:
    matches, notes = composed_matches(b"x ${NODE}.ana.lan", [], MOVED, Given())
    assert matches == []
    [(start, text, like, why)] = notes
    assert (start, text, like) == (2, "${NODE}.ana.lan", "ana-ml2.ana.lan")
    assert why.startswith("composed: `NODE` is defined nowhere in the repo; where it holds ana-ml2")
