"""address_patterns.decide: a rewritten address pattern matches exactly the moved addresses of what
it matched before, checked by running both regexes over every address of the old and new networks
(break-it round 16, #4); a pattern it cannot rewrite so is a residual, never a rewrite."""

from __future__ import annotations

import ipaddress
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from renamer import work
from renamer.address_patterns import decide, heads

NETS = [
    (ipaddress.IPv4Network("10.0.40.0/24"), ipaddress.IPv4Network("10.0.50.0/24")),
    (ipaddress.IPv4Network("10.42.0.0/21"), ipaddress.IPv4Network("10.43.8.0/21")),
    (ipaddress.IPv4Network("172.16.0.0/16"), ipaddress.IPv4Network("172.20.0.0/16")),
]


def _applied(token: str, nets: list[tuple[ipaddress.IPv4Network, ipaddress.IPv4Network]]) -> tuple[str, bool]:
    data = f'regex: "{token}"\n'.encode()
    found = decide(data, nets, [])
    out = data
    residual = False
    for d in reversed(found):
        if d.rewrite:
            out = out[:d.start] + d.new.encode() + out[d.end:]
        else:
            residual = True
    return out.decode()[len('regex: "'):-2], residual


def _matches(regex: str, address: str) -> bool:
    return re.fullmatch(regex, address) is not None


OCTET = st.integers(0, 255).map(str)
ESCAPED_DOT = st.sampled_from(["\\.", "[.]", "."])
TAIL = st.one_of(
    st.lists(OCTET, min_size=1, max_size=4, unique=True).map(lambda xs: "(" + "|".join(xs) + ")"),
    st.sampled_from(["[0-9]+", "\\d{1,3}", "1[0-9]", "2[0-4][0-9]", ".*", "(?:1|2)[0-9]?"]),
    OCTET,
)


@given(net=st.sampled_from(NETS), third=st.integers(0, 255), tail=TAIL, dot=ESCAPED_DOT)
def test_a_rewritten_pattern_matches_the_moved_addresses_exactly(net, third: int, tail: str, dot: str) -> None:
    old, new = net
    first, second = str(old.network_address).split(".")[:2]
    token = dot.join([first, second, str(third)]) + dot + tail
    if dot == "." and re.fullmatch(r"[0-9]{1,3}", tail):
        return  # a plain address: the exact matcher's
    written, residual = _applied(token, [net])
    if written == token:
        return  # left alone (nothing of the network) or a residual: never a wrong rewrite
    assert not residual
    shift = int(new.network_address) - int(old.network_address)
    for address in old:
        moved = ipaddress.IPv4Address(int(address) + shift)
        assert _matches(token, str(address)) == _matches(written, str(moved)), (token, written, address)


@pytest.mark.parametrize(("token", "written"), [
    ("10.42.1.(91|92|93|10)", "10.43.9.(91|92|93|10)"),  # a /21 moved onto another third octet
    ("10\\.42\\.7\\.[0-9]+", "10\\.43\\.15\\.[0-9]+"),
    ("172\\.16\\.[0-9]+\\.[0-9]+", "172\\.20\\.[0-9]+\\.[0-9]+"),  # the head is the /16 itself
    # a regex in a JSON string in a JSON file (a Grafana dashboard's PromQL), break-it round 17 #6
    ("10\\\\\\\\.42\\\\\\\\.7\\\\\\\\.[0-9]+", "10\\\\\\\\.43\\\\\\\\.15\\\\\\\\.[0-9]+"),
])
def test_rewrites(token: str, written: str) -> None:
    assert _applied(token, NETS) == (written, False)


@pytest.mark.parametrize("token", ["10\\.42\\.[0-9]+\\.5", "10.42.(7|8).1", "172\\.1[0-9]\\.0\\.1"])
def test_residuals(token: str) -> None:
    assert _applied(token, NETS) == (token, True)


@pytest.mark.parametrize(("old", "new", "token", "rewritten", "residual"), [
    # a grow: a block inside the old network moves inside the new one, offsets kept; one naming all
    # of the old network would name only part of the new one (t29-33, finding 05): a residual
    ("10.9.0.0/24", "10.10.0.0/23", r"10\.9\.0\.[0-9]+", r"10\.9\.0\.[0-9]+", True),
    ("10.9.0.0/24", "10.9.0.0/22", r"^10\.9\.0\.", r"^10\.9\.0\.", True),  # a grow in place too
    ("10.9.0.0/23", "10.10.0.0/22", r"10\.9\.1\.[0-9]+", r"10\.10\.1\.[0-9]+", False),
    ("10.0.0.0/16", "10.6.0.0/15", r"^10\.0\.3\.", r"^10\.6\.3\.", False),
    # a shrink: a block wider than the new network, or moved past its end, would match others
    ("10.1.0.0/24", "10.2.0.0/25", r"10\.1\.0\.[0-9]+", r"10\.1\.0\.[0-9]+", True),
    ("10.0.0.0/16", "10.5.0.0/17", r"^10\.0\.200\.", r"^10\.0\.200\.", True),
    ("10.0.0.0/16", "10.5.0.0/17", r"^10\.0\.3\.", r"^10\.5\.3\.", False),
])
def test_a_resized_move_rewrites_only_a_block_the_new_network_holds(old: str, new: str, token: str,
                                                                    rewritten: str, residual: bool) -> None:
    nets = [(ipaddress.IPv4Network(old), ipaddress.IPv4Network(new))]
    assert _applied(token, nets) == (rewritten, residual)


# Issue 30: where no network is renamed, decide reads a token only where it starts with a head of
# a renamed address (heads). Pieces spelling heads every way _HEAD reads one (escaped dots, `[.]`,
# four backslashes, leading zeros), groups, prefixes, templates, and heads of other addresses.
HEAD_PIECES = ["10.", "10\\.", "10[.]", "10\\\\\\\\.", "250.", "250\\.", "0250\\.", "050.", "50\\.", "42.", "1.",
               "(54|55)", "(91|92|10)", "(?:54|7)", "[0-9]+", "*", "^", "$", "${n}", "{{ x }}", ".", "\\.", " ",
               "\n", "|", ")", "(", ":22", "11.", "5.", "251.", "40\\.", "0\\."]
HEAD_PAIRS = [
    (("10.250.50.54", "10.251.50.54"),),
    (("10.250.50.54", "10.250.50.99"),),
    (("10.42.1.91", "10.42.1.95"),),
    (("10.250.50.54", "11.0.0.1"),),
    (("10.0.40.11", "10.0.50.21"), ("10.5.1.1", "10.5.1.2"), ("11.250.50.54", "11.250.50.55")),
]


@given(text=st.lists(st.sampled_from(HEAD_PIECES), max_size=16).map("".join), pairs=st.sampled_from(HEAD_PAIRS))
def test_the_head_gate_changes_no_decision(text: str, pairs: tuple[tuple[str, str], ...]) -> None:
    data = text.encode()
    found = decide(data, (), pairs)
    assert decide(data, (), pairs, heads(pairs)) == found
    if found:  # the file-level gate (Matcher._address_patterns) lets every such file through
        assert heads(pairs).search(data) is not None


@pytest.mark.parametrize("token, pairs", [
    pytest.param("10.250.50.(54|60)", (("10.250.50.54", "10.250.50.99"),), id="group"),
    pytest.param("^10\\.250\\.", (("10.250.50.54", "10.251.50.54"),), id="prefix"),
    pytest.param("^10\\.050\\.", (("10.50.1.1", "10.51.1.1"),), id="leading-zero"),
    pytest.param("10\\\\\\\\.250\\\\\\\\.", (("10.250.50.54", "10.251.50.54"),), id="four-backslashes"),
    pytest.param("^10\\.", (("10.250.50.54", "11.0.0.1"),), id="first-octet-moves"),
])
def test_a_head_gate_lets_each_deciding_spelling_through(token: str, pairs: tuple[tuple[str, str], ...]) -> None:
    data = f'match: "{token}"\n'.encode()
    assert decide(data, (), pairs)  # it decides something
    assert heads(pairs).search(data) is not None
    assert decide(data, (), pairs, heads(pairs)) == decide(data, (), pairs)


def test_a_head_of_another_address_is_not_read() -> None:
    """`10.74.[0-9]*` beside a rename of 10.250.50.54: nothing to decide, and no token read."""
    before = work.COUNTS.copy()
    assert decide(b'a: "10.74.[0-9]*" b: 10.9.(1|2)\n', (), (("10.250.50.54", "10.251.50.54"),),
                  heads((("10.250.50.54", "10.251.50.54"),))) == []
    assert work.since(before)["address pattern tokens"] == 0


# -- t33-33 findings 05 and 16: a regex closed by its `/` delimiter, and hosts_access `?` globs ----------

EQUAL = [(ipaddress.IPv4Network("10.0.48.0/24"), ipaddress.IPv4Network("10.0.60.0/24"))]
GROW = [(ipaddress.IPv4Network("10.0.48.0/24"), ipaddress.IPv4Network("10.0.60.0/22"))]


def _written(text: str, nets: list[tuple[ipaddress.IPv4Network, ipaddress.IPv4Network]]) -> tuple[str, int]:
    data = text.encode()
    residuals = 0
    for d in reversed(decide(data, nets, [])):
        if d.rewrite:
            data = data[:d.start] + d.new.encode() + data[d.end:]
        else:
            residuals += 1
    return data.decode(), residuals


@pytest.mark.parametrize("text", [
    '{"regex": "/10\\\\.0\\\\.48\\\\.[0-9]+/"}\n',  # Grafana's template variable, dashboard JSON
    "regex: /^10\\.0\\.48\\./\n",  # the same, provisioned in YAML
    "const isLan = (ip) => /^10\\.0\\.48\\.\\d+/i.test(ip);\n",  # a JS literal with a flag
    "if ($remote_addr ~ /10\\.0\\.48\\.(1|2)[0-9]/) { }\n",  # a group before the closing slash
])
def test_a_regex_closed_by_its_slash(text: str) -> None:
    assert _written(text, EQUAL) == (text.replace("48", "60"), 0)
    assert _written(text, GROW) == (text, 1)  # a grow: the head names a quarter of the /22


@pytest.mark.parametrize(("text", "after"), [
    ("in.tftpd: 10.0.48.??\n", "in.tftpd: 10.0.60.??\n"),  # .10-.99, as tcpd's fnmatch reads it
    ("in.tftpd: 10.0.48.1??\n", "in.tftpd: 10.0.60.1??\n"),  # .100-.199
    ("sshd: 10.0.48.?\n", "sshd: 10.0.60.?\n"),  # .0-.9
])
def test_hosts_access_question_marks(text: str, after: str) -> None:
    assert _written(text, EQUAL) == (after, 0)
    assert _written(text, GROW) == (text, 1)


def test_a_glob_of_another_network_is_no_hit() -> None:
    assert _written("in.tftpd: 10.0.49.??\n", EQUAL) == ("in.tftpd: 10.0.49.??\n", 0)
    assert _written("/10\\.0\\.49\\.[0-9]+/\n", GROW) == ("/10\\.0\\.49\\.[0-9]+/\n", 0)
