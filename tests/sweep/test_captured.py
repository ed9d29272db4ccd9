"""The other direction of patterns.py (sweep/captured.py, issue 27, t35 finding 01): a glob, regex
or access network that matches a NEW value and did not match the old one, read from bytes."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

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
    pytest.param('expr: up{host=~"^(db03|web02)$"}\n', id="alternation-spelling-the-new-name"),
    pytest.param('regex: "DB03(\\.lab)?"\n', id="the-new-name-in-another-case"),
])
def test_noop_patterns_that_change_nothing(text: str) -> None:
    assert pattern_hits(text.encode(), HOST) == []


def test_an_address_pattern_the_new_address_falls_under() -> None:
    text = b'  - source_labels: [__address__]\n    regex: "10\\.0\\.2\\.\\d+:9100"\n'
    hits = pattern_hits(text, ADDRESS)
    assert [(old, new) for _, _, old, new in hits] == [("10.0.0.70", "10.0.2.70")]
    assert pattern_hits(b'regex: "10\\.0\\.[0-9]\\.\\d+"\n', ADDRESS) == []  # both
    for own in (b'instance=~"10[.]0[.]2[.]70:9100"\n', b'regex: "10\\.0\\.2\\.70:.*"\n',
                b'regex: "10\\\\.0\\\\.2\\\\.70"\n'):  # the new address itself, escaped
        assert pattern_hits(own, ADDRESS) == [], own


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


def _parsed_everywhere(data: bytes, pairs: list[tuple[str, str]]) -> list[tuple[int, int, str, str, str]]:
    """network_hits as first written: ipaddress parses every network literal (the reference)."""
    import ipaddress

    from renamer.access_nets import NET, in_access_rule, network_of
    out = []
    for found in NET.finditer(data):
        net = network_of(found)
        if net is None:
            continue
        for old, new in pairs:
            if ipaddress.ip_address(new) in net and ipaddress.ip_address(old) not in net \
                    and in_access_rule(data, found.start()):
                out.append((found.start(), found.end(), old, new, str(net)))
                break
    return out


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["allow ", "deny ", "-s ", "route ", "  - ", "cidr: "]),
                          st.sampled_from(["10", "10", "10", "010", "0", "256", "1"]),
                          st.sampled_from([0, 1, 2, 300]), st.integers(0, 3), st.sampled_from([0, 9, 64, 70, 260]),
                          st.sampled_from(["0", "7", "8", "08", "22", "24", "31", "32", "33", "99",
                                           "255.255.252.0", "0.0.3.255", "255.0.255.0"])), max_size=6),
       st.sampled_from([[("10.0.0.70", "10.0.2.70")], [("10.0.0.70", "10.1.0.70"), ("10.0.3.9", "192.168.0.9")],
                        [("1.2.3.4", "10.0.2.70")]]))
def test_the_integer_test_turns_away_only_what_ipaddress_would(
        rows: list[tuple[str, str, int, int, int, str]], pairs: list[tuple[str, str]]) -> None:
    # Leading zeros, octets over 255, lengths over 32, dotted masks (netmask and hostmask): the
    # quick test decides only the spellings it reads as ipaddress does, network_of the rest.
    data = "".join(f"{word}{a}.{b}.{c}.{d}/{length}\n" for word, a, b, c, d, length in rows).encode()
    expected = _parsed_everywhere(data, pairs)
    event("a hit" if expected else "no hit")
    assert network_hits(data, pairs) == expected


def test_a_network_that_cannot_hold_a_new_address_is_never_parsed() -> None:
    from renamer import work
    data = "".join(f"allow 10.{i % 250}.{i % 7}.0/24;\n" for i in range(500)).encode() + b"allow 10.0.2.0/24;\n"
    start = Counter(work.COUNTS)
    hits = network_hits(data, ADDRESS)
    assert [h[4] for h in hits] == ["10.0.2.0/24"]
    assert work.since(start)["captured network parses"] <= 3  # 10.0.2.0/24 twice in 501 lines


def test_forked_workers_find_what_one_process_finds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Past _FORK_FROM files the repo's files are read in forked workers (sweep/captured.py): the
    # same residuals, in the same order, and the work they counted comes back to the parent.
    from renamer import work
    from renamer.project import load_project
    from renamer.sweep import captured as module
    from tests.testing.repos import CONFIG, Files, make_repo

    files: Files = {}
    for i in range(300):
        files[f"stacks/host{i:03}.conf"] = (f"hosts allow = 10.{i % 200}.0.0/16 10.251.0.0/16\n" if i % 7 == 0
                                        else f"Host fv-ml*\n  User u{i}\n" if i % 11 == 0
                                        else f"value: {{a: {i}}}\n")
    root = make_repo(tmp_path / "repo", files, config=CONFIG)
    project = load_project(root, None, root)
    monkeypatch.setattr(module, "available_cores", lambda: 4)
    monkeypatch.setattr(module, "_FORK_FROM", 10**9)
    alone = module.captured(project)
    monkeypatch.setattr(module, "_FORK_FROM", 1)
    before = Counter(work.COUNTS)
    forked = module.captured(project)
    assert forked == alone
    assert len({r.path for r in alone}) == len([i for i in range(300) if i % 7 == 0 or i % 11 == 0])
    assert work.since(before)["captured network parses"] == len([i for i in range(300) if i % 7 == 0])
