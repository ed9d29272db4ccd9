"""hba_rules.py (t33-33 finding 11): PostgreSQL client authentication, the first match deciding: a
`reject` of part of a network before the entry that admits the whole, in pg_hba.conf and as data (the
geerlingguy.postgresql role's `postgresql_hba_entries`), judged by except_blocks.covering."""

from __future__ import annotations

import ipaddress

import pytest

from renamer.except_blocks import TOOL, except_hits
from renamer.hba_rules import rules
from renamer.prefix_moves import PrefixMove


def _refused(old: str, new: str, text: str) -> list[str]:
    move = PrefixMove(ipaddress.ip_network(old), ipaddress.ip_network(new))
    return [h.old for h in except_hits(text.encode(), [move]) if h.refused == TOOL]


ROLE = ("postgresql_hba_entries:\n  - {type: local, database: all, user: postgres, auth_method: peer}\n"
        "  - {type: host, database: all, user: all, address: '10.0.48.0/25', auth_method: reject}\n"
        "  - {type: host, database: all, user: all, address: '10.0.48.0/24', auth_method: scram-sha-256}\n")


@pytest.mark.parametrize(("text", "part"), [
    ("host all all 10.0.48.0/25 reject\nhost all all 10.0.48.0/24 scram-sha-256\n", "10.0.48.0/25"),
    # a `host` reject matches SSL connections too; `all` matches the user `app`
    ("host all all 10.0.48.0/25 reject\nhostssl all app 10.0.48.0/24 scram-sha-256\n", "10.0.48.0/25"),
    ("host all all 10.0.48.0 255.255.255.128 reject\nhost all all 10.0.48.0 255.255.255.0 md5\n",
     "10.0.48.0 255.255.255.128"),
    (ROLE, "10.0.48.0/25"),
    ("postgresql_hba_entries:\n  - type: host\n    database: all\n    user: all\n    address: 10.0.48.0/25\n"
     "    auth_method: reject\n  - type: hostssl\n    database: app\n    user: all\n"
     "    address: 10.0.48.0/24\n    auth_method: md5\n", "10.0.48.0/25"),
    ("postgresql_hba_entries:\n  - {type: host, database: all, user: all, ip_address: '10.0.48.0', "
     "ip_mask: '255.255.255.128', auth_method: reject}\n  - {type: host, database: all, user: all, "
     "ip_address: '10.0.48.0', ip_mask: '255.255.255.0', auth_method: scram-sha-256}\n", "10.0.48.0"),
    ('{"hba": [{"type": "host", "database": "all", "user": "all", "address": "10.0.48.0/25", '
     '"method": "reject"},\n {"type": "host", "database": "all", "user": "all", "address": "10.0.48.0/24", '
     '"method": "md5"}]}\n', "10.0.48.0/25"),
])
def test_a_reject_of_part_before_the_entry_of_the_whole_refuses_a_shrink(text: str, part: str) -> None:
    assert _refused("10.0.48.0/24", "10.0.48.0/25", text) == [part]
    assert _refused("10.0.48.0/24", "10.0.60.0/25", text) == [part]
    assert _refused("10.0.48.0/24", "10.0.48.0/22", text) == []


def test_other_lengths_ipv6_and_a_written_file() -> None:
    v6 = "host all all 2001:db8:a::/56 reject\nhostssl all all 2001:db8:a::/48 scram-sha-256\n"
    assert _refused("2001:db8:a::/48", "2001:db8:a::/56", v6) == ["2001:db8:a::/56"]
    assert _refused("2001:db8:a::/48", "2001:db8::/44", v6) == []
    grow = "host all all 2001:db8:a:b::/66 reject\nhost all all 2001:db8:a:b::/64 md5\n"
    assert _refused("2001:db8:a:b::/64", "2001:db8:a:b0::/60", grow) == []
    assert _refused("10.0.48.0/23", "10.0.48.0/24", ROLE.replace("/24", "/23").replace("/25", "/24")) == [
        "10.0.48.0/24"]
    assert _refused("10.0.48.8/29", "10.0.48.16/28", ROLE.replace("0/24", "8/29").replace("0/25", "8/30")) == []
    assert _refused("10.0.48.0/24", "10.0.48.0/25", ROLE.replace("/24", "/25")) == ["10.0.48.0/25"]  # written


@pytest.mark.parametrize("text", [
    "host all all 10.0.48.0/24 md5\nhost all all 10.0.48.0/25 reject\n",  # the reject after: dead
    "host all all 10.0.48.0/26 reject\nhost all all 10.0.48.0/24 md5\n",  # still a part
    "hostssl all all 10.0.48.0/25 reject\nhost all all 10.0.48.0/24 md5\n",  # non-SSL clients still admitted
    "host app all 10.0.48.0/25 reject\nhost all all 10.0.48.0/24 md5\n",  # one database
    "host all bob 10.0.48.0/25 reject\nhost all all 10.0.48.0/24 md5\n",  # one user
    ROLE.replace("user: all, address: '10.0.48.0/25'", "user: bob, address: '10.0.48.0/25'"),
])
def test_no_exclusion_of_the_network_is_none(text: str) -> None:
    assert _refused("10.0.48.0/24", "10.0.48.0/25", text) == []


def test_the_rule_words() -> None:
    [(included, excluded, what)] = list(rules(ROLE.encode()))
    assert included == [ipaddress.ip_network("10.0.48.0/24")]
    assert [str(net) for _, _, net in excluded] == ["10.0.48.0/25"]
    assert what == "a pg_hba `reject` before the entry that admits it, the first match deciding"
