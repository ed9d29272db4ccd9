"""deny_rules.py on text (outside pass round 7, issue 33): which host-firewall denies win over an allow
of a network, matching all its packets but for the network."""

from __future__ import annotations

import ipaddress

from renamer import deny_rules
from renamer.deny_rules import Entry, broader


def _rules(text: str) -> list[tuple[list[str], list[str], str]]:
    data = text.encode()
    return [([str(n) for n in inc], [data[s:e].decode() for s, e, _ in exc], what)
            for inc, exc, what in deny_rules.rules(data)]


def test_ufw_first_rule_added_decides() -> None:
    got = _rules("ufw deny from 10.0.48.0/25\nufw allow from 10.0.48.0/24\n")
    assert [(i, e) for i, e, _ in got] == [(["10.0.48.0/24"], ["10.0.48.0/25"])]
    assert _rules("ufw allow from 10.0.48.0/24\nufw deny from 10.0.48.0/25\n") == []  # too late
    # `insert 1` and `prepend` go first whatever their place
    assert len(_rules("ufw allow from 10.0.48.0/24\nsudo ufw insert 1 reject from 10.0.48.0/25\n")) == 1
    assert len(_rules("ufw allow from 10.0.48.0/24\nufw prepend deny from 10.0.48.0/25\n")) == 1
    assert _rules("ufw allow from 10.0.48.0/24\nufw insert 3 deny from 10.0.48.0/25\n") == []  # not read


def test_ufw_deny_must_match_every_packet_of_the_allow() -> None:
    ssh = "ufw deny from 10.0.48.0/25 to any port 22\nufw allow from 10.0.48.0/24\n"
    assert _rules(ssh) == []  # a deny of ssh alone
    both = "ufw deny from 10.0.48.0/25\nufw allow from 10.0.48.0/24 to any port 22 proto tcp\n"
    assert len(_rules(both)) == 1  # a deny of everything before an allow of ssh
    assert _rules("ufw deny out to 10.0.48.0/25\nufw allow in from 10.0.48.0/24\n") == []
    assert len(_rules("ufw deny to 2001:db8:a::/56\nufw allow to 2001:db8:a::/48\n")) == 1


def test_firewalld_rich_rules_by_priority_then_deny_first() -> None:
    text = ("firewall-cmd --zone=public --add-rich-rule='rule family=\"ipv4\" source address=\"10.0.48.0/24\" "
            "accept'\nfirewall-cmd --zone=public --add-rich-rule='rule family=\"ipv4\" source "
            "address=\"10.0.48.0/25\" drop'\n")
    assert [e for _, e, _ in _rules(text)] == [["10.0.48.0/25"]]  # one priority: the deny first
    later = text.replace('rule family="ipv4" source address="10.0.48.0/25"',
                         'rule priority="5" family="ipv4" source address="10.0.48.0/25"')
    assert _rules(later) == []  # the allow's lower priority decides first
    other_zone = text.replace("--zone=public --add-rich-rule='rule family=\"ipv4\" source address=\"10.0.48.0/25\"",
                              "--zone=work --add-rich-rule='rule family=\"ipv4\" source address=\"10.0.48.0/25\"")
    assert _rules(other_zone) == []
    inverted = text.replace('source address="10.0.48.0/25"', 'source NOT address="10.0.48.0/25"')
    assert _rules(inverted) == []


def test_firewalld_zone_xml_and_sources() -> None:
    xml = ('<zone>\n  <rule priority="-1">\n    <source address="10.0.48.0/25"/>\n    <reject/>\n  </rule>\n'
           '  <rule>\n    <source address="10.0.48.0/24"/>\n    <service name="ssh"/>\n    <accept/>\n'
           '  </rule>\n</zone>\n')
    assert [e for _, e, _ in _rules(xml)] == [["10.0.48.0/25"]]
    only_http = xml.replace("<reject/>", '<service name="http"/>\n    <reject/>')
    assert _rules(only_http) == []  # the deny matches http alone
    sources = ("firewall-cmd --permanent --zone=trusted --add-source=10.0.48.0/24\n"
               "firewall-cmd --permanent --zone=drop --add-source 10.0.48.0/25\n")
    got = _rules(sources)
    assert [(i, e) for i, e, _ in got] == [(["10.0.48.0/24"], ["10.0.48.0/25"])]
    assert _rules(sources.replace("--zone=drop", "--zone=trusted")) == []  # one zone


def test_windows_block_wins_whatever_the_order() -> None:
    ps = ("New-NetFirewallRule -DisplayName LAN -Direction Inbound -RemoteAddress 10.0.48.0/24 -Action Allow\n"
          "New-NetFirewallRule -DisplayName P `\n  -RemoteAddress \"10.0.48.0/25\",\"10.0.49.7\" -Action Block\n")
    assert [e for _, e, _ in _rules(ps)] == [["10.0.48.0/25", "10.0.49.7"]]  # each address of the block
    assert _rules(ps.replace("-Action Block", "-Action Block -Enabled False")) == []
    assert _rules(ps.replace("-Action Allow", "-Action Allow -OverrideBlockRules")) == []
    assert _rules(ps.replace("-Action Block", "-Action Block -Direction Outbound")) == []
    assert _rules(ps.replace("-Action Block", "-Action Block -LocalPort 22")) == []
    netsh = ("netsh advfirewall firewall add rule name=a dir=in action=allow remoteip=10.0.48.0/24 protocol=tcp\n"
             "netsh advfirewall firewall add rule name=b dir=in action=block remoteip=10.0.48.0/25\n")
    assert [e for _, e, _ in _rules(netsh)] == [["10.0.48.0/25"]]
    ranged = netsh.replace("remoteip=10.0.48.0/25", "remoteip=10.0.48.1-10.0.48.126")
    assert _rules(ranged) == []  # a range's ends are no networks


def test_broader_compares_fields_and_sets() -> None:
    net = ipaddress.ip_network("10.0.48.0/24")
    deny = Entry(b"g", (0,), "deny", b"src", 0, 1, net, {b"other": frozenset({b"a", b"b"}), b"proto": b"any"})
    permit = Entry(b"g", (1,), "permit", b"src", 0, 1, net, {b"other": frozenset({b"a"}), b"proto": b"tcp"})
    assert broader(deny, permit)
    assert not broader(permit, deny)
