"""except_views: rules read where networks are respelled or named by variables, with each excluded
network's span in the file itself (pure logic; end to end in tests/cli/test_exclusions_t33.py)."""

from __future__ import annotations

from renamer.except_views import rules


def _read(text: str) -> list[tuple[list[str], list[str], str]]:
    data = text.encode()
    return sorted((sorted(str(n) for n in included), [data[s:e].decode() for s, e, _ in excluded], what)
                  for included, excluded, what in rules(data))


def test_a_bracketed_ipv6_stands_at_its_own_span() -> None:
    found = _read("mynetworks = ![2001:db8:a::]/56, [2001:db8:a::]/48\n")
    assert found == [(["2001:db8:a::/48"], ["[2001:db8:a::]/56"],
                      "a `!` entry of its list, the first match deciding")]


def test_variables_stand_at_their_definition() -> None:
    text = ("define LAN = 10.0.48.0/24\ndefine P = 10.0.48.0/25\n"
            "table inet f {\n chain c {\n  ip saddr $LAN ip saddr != $P accept\n }\n}\n")
    found = _read(text)
    assert found == [(["10.0.48.0/24"], ["10.0.48.0/25"], "nftables `ip saddr !=`, through a variable")]
    data = text.encode()
    (_, excluded, _), = rules(data)
    assert data.count(b"\n", 0, excluded[0][0]) == 1  # line 2: the definition


def test_shell_forms_and_a_name_defined_twice() -> None:
    shell = ('L="10.0.48.0/24"\nP=10.0.48.0/25\niptables -A INPUT -s "${P}" -j DROP\n'
             "iptables -A INPUT -s $L -j ACCEPT\n")
    assert [e for _, e, _ in _read(shell)] == [["10.0.48.0/25"]]
    twice = "P=10.0.48.0/25\nP=10.9.0.0/25\niptables -A INPUT -s $P -j DROP\niptables -A INPUT -s 10.0.48.0/24 -j ACCEPT\n"
    assert _read(twice) == []
    assert _read("L=10.0.48.0/24\necho $LAN $L2\n") == []  # `$LAN`, `$L2`: other names
