"""composed_tails.py's pure rules, in pairs: what a literal start and its interpolation may make,
and where they stay quiet (the CLI's end-to-end cases are tests/cli/test_composed_tails.py)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from renamer.composed_tails import Completions, interpolation_end, loop_values

COMPLETIONS = Completions([("k3s-server-01", "k3s-cp-01"), ("pug", "wolf")],
                          [("10.0.40.101", "10.0.41.101"), ("fd00::11", "fd00::911")])


@pytest.mark.parametrize(("text", "old"), [
    pytest.param('ip = "10.0.40.10${count.index + 1}"', "10.0.40.101", id="hcl"),
    pytest.param("10.0.40.1${i}", "10.0.40.101", id="two-digits-left"),
    pytest.param("10.0.40.${octet}", "10.0.40.101", id="whole-last-octet"),
    pytest.param("ssh 10.0.40.10$i", "10.0.40.101", id="bare-shell"),
    pytest.param("host: 10.0.40.10{{ item }}", "10.0.40.101", id="jinja"),
    pytest.param('ip: "10.0.40.10#{i}"', "10.0.40.101", id="ruby"),
    pytest.param("10.0.40.10$(seq 1 1)", "10.0.40.101", id="command"),
    pytest.param("k3s-server-0${n}", "k3s-server-01", id="host"),
    pytest.param("k3s-server-${n}", "k3s-server-01", id="host-after-a-dash"),
    pytest.param("k3s-server-0${n}.lab.example", "k3s-server-01", id="host-then-domain"),
    pytest.param("dns fd00::1${x}", "fd00::11", id="ipv6"),
    pytest.param("url=http://10.0.40.10${N}:8080/", "10.0.40.101", id="then-a-port"),
])
def test_a_literal_start_completed_is_found(text: str, old: str) -> None:
    found = COMPLETIONS.find(text.encode())
    assert [c.old for c in found] == [old], found
    assert "may spell" in found[0].note


@pytest.mark.parametrize("text", [
    pytest.param("10.${rest}", id="bare-first-octet"),
    pytest.param("10.0.${x}", id="two-octets"),
    pytest.param("10.0.40${x}", id="no-dot"),
    pytest.param("k3s-${role}", id="bare-prefix"),
    pytest.param("k3s-server${n}", id="before-a-dash"),
    pytest.param("pu${x}", id="short-name"),
    pytest.param("k3s-agent-0${n}", id="another-set"),
    pytest.param("k3s-server-1${n}", id="another-digit"),
    pytest.param("xk3s-server-0${n}", id="longer-name"),
    pytest.param("110.0.40.10${n}", id="longer-address"),
    pytest.param("k3s-server-0${n}-disk", id="derived"),
    pytest.param("10.0.40.10${n}5", id="then-another-digit-too-many"),
    pytest.param("10.0.40.10%s 10.0.40.10{} 10.0.40.10{0}", id="format-placeholders"),
    pytest.param("10.0.40.10$", id="dollar-alone"),
    pytest.param("10.0.40.10${unclosed", id="unclosed"),
])
def test_quiet(text: str) -> None:
    assert COMPLETIONS.find(text.encode()) == []


@pytest.mark.parametrize(("text", "made", "quiet"), [
    pytest.param('resource "x" "y" {\n  count = 3\n  ip = "10.0.40.10${count.index + 1}"\n}\n',
                 "10.0.40.101, 10.0.40.102, 10.0.40.103 (count = 3)", False, id="count"),
    pytest.param('resource "x" "y" {\n  ip = "10.0.40.10${count.index + 1}"\n  count = 2\n}\n',
                 "10.0.40.101, 10.0.40.102 (count = 2)", False, id="count-after-its-use"),
    pytest.param('resource "x" "y" {\n  count = 3\n  ip = "10.0.40.10${count.index + 4}"\n}\n', "", True,
                 id="count-none-old"),
    pytest.param('resource "x" "y" {\n  count = 3\n  ip = "10.0.40.${count.index + 100}"\n}\n',
                 "10.0.40.100, 10.0.40.101, 10.0.40.102 (count = 3)", False, id="count-whole-octet"),
    # break-it round 17, #17: the number first, the index in parentheses (insanitywholesale/home-infra)
    pytest.param('resource "x" "y" {\n  count = 3\n  ip = "10.0.40.${61 + count.index}"\n}\n', "", True,
                 id="number-first-none-old"),
    pytest.param('resource "x" "y" {\n  count = 1\n  ip = "10.0.40.${(count.index) + 20}"\n}\n', "", True,
                 id="parenthesised-none-old"),
    pytest.param('resource "x" "y" {\n  count = 3\n  ip = "10.0.40.${99 + count.index}"\n}\n',
                 "10.0.40.99, 10.0.40.100, 10.0.40.101 (count = 3)", False, id="number-first-reaches-an-old"),
    pytest.param('resource "x" "y" {\n  count = 2\n  ip = "10.0.40.${(count.index) + 100}"\n}\n',
                 "10.0.40.100, 10.0.40.101 (count = 2)", False, id="parenthesised-reaches-an-old"),
    pytest.param('resource "x" "y" {\n  for_each = {a = "1", b = "2"}\n  ip = "10.0.40.10${each.value}"\n}\n',
                 '10.0.40.101, 10.0.40.102 (for_each = {a = "1", b = "2"})', False, id="for-each-map"),
    pytest.param("for i in 7 8; do\n  echo 10.0.40.10$i\ndone\n", "", True, id="shell-none-old"),
    pytest.param("for i in {0..2}; do\n  echo 10.0.40.10$i\ndone\n",
                 "10.0.40.100, 10.0.40.101, 10.0.40.102 (for i in {0..2})", False, id="shell-brace-range"),
])
def test_certain_values_name_what_they_make(text: str, made: str, quiet: bool) -> None:
    found = COMPLETIONS.find(text.encode())
    if quiet:
        assert found == []
    else:
        assert [c.old for c in found] == ["10.0.40.101"], found
        assert f"makes {made}: 10.0.40.101 is an old address" in found[0].note, found[0].note


@pytest.mark.parametrize(("text", "values"), [
    pytest.param("for i in 1 $N; do\n  echo ${i}\ndone\n", None, id="computed-words"),
    pytest.param("for i in 1 2; do\n  echo x\ndone\necho ${i}\n", None, id="closed-loop"),
    pytest.param('resource "x" "y" {\n  count = var.n\n  a = "${count.index}"\n}\n', None, id="count-variable"),
    pytest.param('resource "x" "y" {\n  count = 2\n}\nlocals {\n  a = "${count.index}"\n}\n', None,
                 id="count-of-another-block"),
    pytest.param("for i in a b; do\n  echo ${i}\ndone\n", ("a", "b"), id="words"),
])
def test_loop_values(text: str, values: tuple[str, ...] | None) -> None:
    data = text.encode()
    pos = data.rfind(b"$")
    end = interpolation_end(data, pos)
    assert end is not None
    found = loop_values(data, pos, data[pos:end].decode())
    assert (found.items if found else None) == values


def test_every_old_value_a_loop_makes_is_named() -> None:
    both = Completions([], [("10.0.40.101", "10.0.41.101"), ("10.0.40.103", "10.0.41.103")])
    text = b'resource "x" "y" {\n  count = 3\n  ip = "10.0.40.10${count.index + 1}"\n}\n'
    [found] = both.find(text)
    assert ("10.0.40.101 is an old address, renamed 10.0.41.101; 10.0.40.103 is an old address, "
            "renamed 10.0.41.103; no one text") in found.note, found.note


# Issue 30: the first pass's test asks the shortest start of each group of literals first; its
# answer is the one of asking every literal.
_MOVES = [([("k3s-server-01", "k3s-cp-01"), ("pug", "wolf")], [("10.0.40.10", "10.0.41.10")]),
          ([("ana-ml2", "fv-ml1"), ("ana-ml2.ana.lan", "fv-ml1.fv.lan"), ("ana-ml2-bmc", "fv-ml1-bmc")],
           [("10.250.50.54", "10.251.50.54"), ("2001:db8:50::54", "2001:db8:51::54")]),
          ([(f"node{n:02d}", f"edge{n:02d}") for n in range(1, 12)], [(f"10.20.0.{n}", f"10.21.0.{n}") for n in range(1, 12)])]
_PIECES = ["k3s-", "k3s-server-0", "pug", "pu", "10.0.40.", "10.0.40.1", "ana-m", "ana-ml2.ana.", "10.250.50.",
           "2001:db8:50::", "node", "node0", "10.20.0.", "$", "{{", "#{", "${x}", "x", " ", "\n", "1", "."]


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(range(len(_MOVES))), st.lists(st.sampled_from(_PIECES), max_size=30).map("".join))
def test_might_hold_answers_as_every_literal_asked(move: int, text: str) -> None:
    hosts, addresses = _MOVES[move]
    completions = Completions(hosts, addresses)
    data = text.encode()
    assert completions.might_hold(data) == any(literal in data for literal in completions.literals)


def test_round25_05_erb_epp_and_a_join_complete_a_name() -> None:
    """Outside round 25, finding 05: ERB/EPP tags and a quote joined to a number's text."""

    found = Completions([("web01", "app01")], []).find(
        b"a web0<%= @i %>.lab\nb web0<%= $i %>\nc = \"web0\" + str(1)\nd = 'web0' ~ item\ne = \"web0\" .. i\n")
    assert [c.text for c in found] == ["web0<%= @i %>.lab", "web0<%= $i %>", "web0\" + str(1)",
                                       "web0' ~ item", "web0\" .. i"]
    assert "makes web01 (1 joined)" in found[2].note


def test_round25_05_a_quote_joined_to_a_text_or_nothing_completes_nothing() -> None:

    assert Completions([("web01", "app01")], []).find(b"a = \"web0\" + \"1\"\nb = \"web0\"\nc = \"web0\" + str(3)\n") == []
