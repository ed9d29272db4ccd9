"""The other direction of patterns.py (sweep/captured.py, issue 27, t35 finding 01): a glob, regex
or access network that matches a NEW value and did not match the old one, read from bytes."""

from __future__ import annotations

import pytest

from renamer.sweep.captured import file_references, network_hits, pattern_hits, set_hits

HOST = [("web01", "db03")]
ADDRESS = [("10.0.0.70", "10.0.2.70")]


@pytest.mark.parametrize("text, token", [
    pytest.param('- hosts: "db*"\n  roles: [postgresql]\n', "db*", id="ansible-play-glob"),
    pytest.param("Host db*\n  User postgres\n", "db*", id="ssh-host-glob"),
    pytest.param('    regex: "db0[0-9].*"\n    action: keep\n', "db0[0-9].*", id="relabel-regex"),
    pytest.param("- hosts: ~db0\\d\n", "db0\\d", id="ansible-regex-pattern"),
    pytest.param("Host db0?\n", "db0?", id="ssh-one-character"),
    pytest.param('  regex: "^db0(1|2|3)$"\n', "^db0(1|2|3)$", id="regex-alternation"),
    pytest.param("[[ $h == db0[1-5] ]]\n", "db0[1-5]", id="shell-class"),
])
def test_a_pattern_the_new_name_falls_under(text: str, token: str) -> None:
    hits = pattern_hits(text.encode(), HOST)
    assert [(text.encode()[s:e].decode(), old, new) for s, e, old, new in hits] == [(token, "web01", "db03")]


@pytest.mark.parametrize("text", [
    pytest.param("Host *\n  ServerAliveInterval 30\n", id="matches-both"),
    pytest.param("- hosts: '*0[0-9]'\n", id="matches-both-numbered"),
    pytest.param("Host web*\n", id="matches-only-the-old"),  # patterns.py's direction, not this one
    pytest.param("Host db1*\n", id="matches-neither"),
    pytest.param("Host db03\n", id="spelled-in-full"),
    pytest.param("**Note** the db hosts\n", id="markdown-bold"),
])
def test_noop_patterns_that_change_nothing(text: str) -> None:
    assert pattern_hits(text.encode(), HOST) == []


def test_an_address_pattern_the_new_address_falls_under() -> None:
    text = b'  - source_labels: [__address__]\n    regex: "10\\.0\\.2\\.\\d+:9100"\n'
    hits = pattern_hits(text, ADDRESS)
    assert [(old, new) for _, _, old, new in hits] == [("10.0.0.70", "10.0.2.70")]
    assert pattern_hits(b'regex: "10\\.0\\.[0-9]\\.\\d+"\n', ADDRESS) == []  # both


@pytest.mark.parametrize("text, net", [
    pytest.param("iptables -A INPUT -s 10.0.2.64/28 -j DROP\n", "10.0.2.64/28", id="iptables-drop"),
    pytest.param("deny 10.0.2.0/24;\n", "10.0.2.0/24", id="nginx-deny"),
    pytest.param("ufw deny from 10.0.2.64/26\n", "10.0.2.64/26", id="ufw"),
    pytest.param("hosts deny = 10.0.2.0/255.255.255.0\n", "10.0.2.0/24", id="samba-dotted-mask"),
    pytest.param("ingress:\n  - from:\n    - ipBlock:\n        cidr: 10.0.0.0/16\n        except:\n"
                 "          - 10.0.2.0/24\n", "10.0.2.0/24", id="networkpolicy-except"),
])
def test_an_access_network_the_new_address_falls_under(text: str, net: str) -> None:
    hits = network_hits(text.encode(), ADDRESS)
    assert [(old, new, found) for _, _, old, new, found in hits] == [("10.0.0.70", "10.0.2.70", net)]


@pytest.mark.parametrize("text", [
    pytest.param("iptables -A INPUT -s 10.0.0.0/16 -j ACCEPT\n", id="holds-both"),
    pytest.param("iptables -A INPUT -s 10.0.3.0/24 -j DROP\n", id="holds-neither"),
    pytest.param("address 10.0.2.1/24\n", id="an-interface-no-access-rule"),
    pytest.param("routes:\n  - to: 10.0.2.0/24\n", id="a-route"),
])
def test_noop_networks_that_change_nothing(text: str) -> None:
    assert network_hits(text.encode(), ADDRESS) == []


def test_references_name_line_column_and_what_it_falls_under() -> None:
    data = b"#!/bin/sh\niptables -A INPUT -s 10.0.2.64/28 -j DROP\nHost db*\n"
    refs = file_references("fw.sh", data, HOST, ADDRESS)
    assert [(r.line, r.column, r.reason) for r in refs] == [(3, 6, "captured"), (2, 22, "captured")]
    assert "db* matches db03 and not web01" in (refs[0].note or "").replace("`", "")
    assert "10.0.2.64/28 holds 10.0.2.70 and not 10.0.0.70" in (refs[1].note or "")


@pytest.mark.parametrize("text, token", [
    pytest.param("[db]\ndb[01:05] ansible_user=pg\n", "db[01:05]", id="ansible-ini-range"),
    pytest.param("db:\n  hosts:\n    db[01:05]:\n", "db[01:05]", id="ansible-yaml-range"),
    pytest.param("for h in db{01..05}; do ssh $h; done\n", "db{01..05}", id="shell-sequence"),
])
def test_a_host_set_the_new_name_joins(text: str, token: str) -> None:
    hits = set_hits(text.encode(), HOST)
    assert [(text.encode()[s:e].decode(), old, new) for s, e, old, new in hits] == [(token, "web01", "db03")]


def test_noop_host_sets_that_change_nothing() -> None:
    assert set_hits(b"db[04:09] ansible_user=pg\n", HOST) == []  # not db03
    assert set_hits(b"{web01,db03}\n", HOST) == []  # names both
