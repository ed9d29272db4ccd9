"""except_moves.py on text (t33-33 findings 09, 23): exclusions judged together, and an except
that moves out of its cidr."""

from __future__ import annotations

import ipaddress

from renamer.except_blocks import except_hits
from renamer.except_moves import TOOL, landing
from renamer.prefix_moves import PrefixMove


def _move(old: str, new: str) -> PrefixMove:
    return PrefixMove(ipaddress.ip_network(old), ipaddress.ip_network(new))


def _hits(moves: list[tuple[str, str]], text: str) -> list[tuple[str, str | None]]:
    return [(h.old, h.refused) for h in except_hits(text.encode(), [_move(*m) for m in moves])]


TWO = "- ipBlock:\n    cidr: CIDR\n    except:\n      - ONE\n      - TWO\n"


def _two(cidr: str, one: str, two: str) -> str:
    return TWO.replace("CIDR", cidr).replace("ONE", one).replace("TWO", two)


def test_landing_keeps_offsets_and_longer_lengths() -> None:
    move = _move("10.0.48.0/24", "10.0.60.0/22")
    assert str(landing(ipaddress.ip_network("10.0.48.64/26"), move)) == "10.0.60.64/26"
    assert str(landing(ipaddress.ip_network("10.0.48.0/24"), move)) == "10.0.60.0/22"
    assert landing(ipaddress.ip_network("10.0.48.128/25"), _move("10.0.48.0/24", "10.0.48.0/25")) is None
    assert str(landing(ipaddress.ip_network("10.9.0.0/24"), move)) == "10.9.0.0/24"  # outside: itself


def test_excepts_that_together_cover_the_new_network() -> None:
    shrink = [("10.0.48.0/24", "10.0.48.0/25")]
    assert _hits(shrink, _two("10.0.48.0/24", "10.0.48.0/26", "10.0.48.64/26")) == [("10.0.48.0/26", TOOL)]
    # written already (cidr at the new network): verify sees the same
    assert _hits(shrink, _two("10.0.48.0/25", "10.0.48.0/26", "10.0.48.64/26")) == [("10.0.48.0/26", TOOL)]
    # half left, a grow, an author's rule that already covered the old network
    assert _hits(shrink, _two("10.0.48.0/24", "10.0.48.0/27", "10.0.48.32/27")) == []
    assert _hits([("10.0.48.0/24", "10.0.48.0/22")], _two("10.0.48.0/24", "10.0.48.0/26", "10.0.48.64/26")) == []
    assert _hits(shrink, _two("10.0.48.0/24", "10.0.48.0/25", "10.0.48.128/25")) == [("10.0.48.0/25", TOOL)]
    v6 = [("2001:db8:a::/48", "2001:db8:a::/56")]
    assert _hits(v6, _two("2001:db8:a::/48", "2001:db8:a::/57", "2001:db8:a:80::/57")) == [
        ("2001:db8:a::/57", TOOL)]


def test_bang_entries_of_one_line_together() -> None:
    shrink = [("10.0.48.0/24", "10.0.48.0/25")]
    text = "mynetworks = !10.0.48.0/26, !10.0.48.64/26, 10.0.48.0/24\n"
    assert _hits(shrink, text) == [("10.0.48.0/26", TOOL)]
    # two lines, two keys: not one rule
    apart = "mynetworks = !10.0.48.0/26, 10.0.48.0/24\nrelay = !10.0.48.64/26, 10.0.48.0/24\n"
    assert _hits(shrink, apart) == []


def test_first_match_denies_together() -> None:
    shrink = [("10.0.48.0/24", "10.0.48.0/25")]
    nginx = "location / {\n  deny 10.0.48.0/26;\n  deny 10.0.48.64/26;\n  allow 10.0.48.0/24;\n  deny all;\n}\n"
    assert _hits(shrink, nginx) == [("10.0.48.0/26", TOOL)]
    # two blocks, one deny each: each block admits half
    apart = ("location /a {\n  deny 10.0.48.0/26;\n  allow 10.0.48.0/24;\n}\n"
             "location /b {\n  deny 10.0.48.64/26;\n  allow 10.0.48.0/24;\n}\n")
    assert _hits(shrink, apart) == []
    # a deny after the allow is dead: it covers nothing
    dead = "location / {\n  deny 10.0.48.0/26;\n  allow 10.0.48.0/24;\n  deny 10.0.48.64/26;\n}\n"
    assert _hits(shrink, dead) == []
    iptables = ("*filter\n-A INPUT -s 10.0.48.0/26 -j DROP\n-A INPUT -s 10.0.48.64/26 -j DROP\n"
                "-A INPUT -s 10.0.48.0/24 -j ACCEPT\nCOMMIT\n")
    assert _hits(shrink, iptables) == [("10.0.48.0/26", TOOL)]


def test_an_except_moving_out_of_its_cidr() -> None:
    site = _two("10.0.0.0/16", "10.0.48.0/24", "10.0.9.0/24")
    assert _hits([("10.0.48.0/24", "172.16.8.0/22")], site) == [("10.0.48.0/24", TOOL)]
    assert _hits([("10.0.48.0/24", "10.0.52.0/22")], site) == []  # moves within the site
    # the site moves and the lab with it (the most specific move decides the lab's place)
    assert _hits([("10.0.0.0/16", "10.1.0.0/16")], site) == []
    # a written file: the except is the moved lab's new network, outside its cidr
    written = _two("10.0.0.0/16", "172.16.8.0/22", "10.0.9.0/24")
    assert _hits([("10.0.48.0/24", "172.16.8.0/22")], written) == [("172.16.8.0/22", TOOL)]
    v6 = _two("2001:db8:a::/48", "2001:db8:a:10::/64", "2001:db8:a:11::/64")
    assert _hits([("2001:db8:a:10::/64", "2001:db8:b:20::/60")], v6) == [("2001:db8:a:10::/64", TOOL)]


def test_a_first_match_deny_moving_out_is_no_refusal() -> None:
    assert _hits([("10.0.48.0/24", "172.16.8.0/22")], "mynetworks = !10.0.48.0/24, 10.0.0.0/16\n") == []


def test_an_except_grown_onto_its_cidr_that_stays() -> None:
    """`cidr: 10.0.48.0/22, except: [10.0.48.0/24]` under `10.0.48.0/24: 10.0.48.0/22`: the except
    lands on its whole cidr, which does not move: refused (round 7); grown only to /23: left."""
    text = "- ipBlock:\n    cidr: 10.0.48.0/22\n    except:\n      - 10.0.48.0/24\n"
    assert _hits([("10.0.48.0/24", "10.0.48.0/22")], text) == [("10.0.48.0/24", TOOL)]
    assert _hits([("10.0.48.0/24", "10.0.48.0/23")], text) == []
    pulumi = 'IPBlockArgs(cidr="10.0.0.0/16", except_=["10.0.0.0/24"])\n'
    assert _hits([("10.0.0.0/24", "10.0.0.0/16")], pulumi) == [("10.0.0.0/24", TOOL)]
