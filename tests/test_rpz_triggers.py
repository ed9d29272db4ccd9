"""rpz_triggers.py's parse and spell (t31-33 finding 03): a trigger's labels and its network."""

from __future__ import annotations

import ipaddress

import pytest

from renamer.prefix_moves import OUTSIDE, PrefixMove
from renamer.rpz_triggers import parse, spell, triggers


@pytest.mark.parametrize(("labels", "network"), [
    ("24.0.48.0.10", "10.0.48.0/24"), ("32.7.48.0.10", "10.0.48.7/32"),
    ("64.zz.10.a.db8.2001", "2001:db8:a:10::/64"), ("128.5.zz.10.a.db8.2001", "2001:db8:a:10::5/128"),
    ("48.zz.a.db8.2001", "2001:db8:a::/48"), ("128.1.0.0.0.0.0.0.fd00", "fd00::1/128"),
])
def test_parse_and_spell_round_trip(labels: str, network: str) -> None:
    length, *rest = labels.split(".")
    assert parse(length, rest) == ipaddress.ip_network(network)
    assert spell(ipaddress.ip_network(network)) in (labels, labels.replace("0.0.0.0.0.0", "zz"))


def test_not_a_trigger() -> None:
    assert parse("24", ["0", "48", "10"]) is None  # three labels: neither family
    assert parse("64", ["zz", "1", "zz"]) is None
    assert parse("33", ["0", "48", "0", "10"]) is None


def test_triggers_in_text() -> None:
    move = PrefixMove(ipaddress.ip_network("10.0.48.0/24"), ipaddress.ip_network("10.0.48.0/25"))
    found = list(triggers(b"24.0.48.0.10.rpz-ip CNAME .\n32.200.48.0.10.rpz-nsip CNAME .\n", [move]))
    assert [(t.new, t.refused) for t in found] == [("25.0.48.0.10.rpz-ip", None),
                                                    ("32.200.48.0.10.rpz-nsip", OUTSIDE)]


def test_relative_triggers_under_an_origin() -> None:
    """t32-33 14: `$ORIGIN rpz-ip.x.` then `24.0.48.0.10`; a label the origin holds is a residual."""
    move = PrefixMove(ipaddress.ip_network("10.0.48.0/24"), ipaddress.ip_network("10.0.60.0/22"))
    data = b"$ORIGIN rpz-ip.x.\n24.0.48.0.10 CNAME .\nns A 10.0.48.1\n$ORIGIN x.\n24.0.48.0.10 A 1.2.3.4\n"
    assert [(t.old, t.new, t.refused) for t in triggers(data, [move])] == [("24.0.48.0.10", "22.0.60.0.10", None)]
    data = b"$ORIGIN 48.0.10.rpz-ip.x.\n24.0 CNAME .\n"
    assert [(t.old, t.new, t.refused) for t in triggers(data, [move])] == [("24.0", "24.0", "reverse-zone")]
