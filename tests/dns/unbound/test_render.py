"""The Unbound file renamer writes, and how it reads one back (plan summaries, drift, rollback
checks, stale hand-written lines): pure functions."""

from __future__ import annotations

import dataclasses

from renamer.dns.dnsmasq import render as dnsmasq_render
from renamer.dns.inventory import Site
from renamer.dns.load import load_sites
from renamer.dns.unbound import render
from renamer.shipped import shipped


def sites() -> dict[str, Site]:
    return {s.name: s for s in load_sites(shipped("dns"))}


def test_the_records_are_those_dnsmasq_serves_with_aliases_as_addresses() -> None:
    for site in sites().values():
        text = render.render_site(site)
        ours, theirs = render.records(text), dnsmasq_render.records(dnsmasq_render.render_site(site))
        hosts = {k: v for k, v in theirs.items() if not k.startswith("dhcp:") and not v.startswith("CNAME")}
        assert {k: v for k, v in ours.items() if k in hosts} == hosts
        for alias, target in ((k, v) for k, v in theirs.items() if v.startswith("CNAME")):
            assert ours[alias] == theirs[target.split()[1]]  # the alias answers its host's address
        assert render.drift(text) == []
        name, digest = render.canary_of(text) or ("", "")
        assert (name, digest) == render.canary(site, text[: text.index("  # The canary")])


def test_a_hand_edit_of_the_file_is_drift_and_the_canary_moves() -> None:
    site = sites()["fv"]
    text = render.render_site(site)
    hand = ['  cache-max-ttl: 5', '  local-data: "fv.lan. MX 10 fv-gw.fv.lan."', '  local-zone: "old.lan." refuse']
    edited = text.replace("server:\n", "server:\n" + "\n".join(hand) + "\n")
    assert render.drift(edited) == hand
    moved = render.render_site(dataclasses.replace(site, source="elsewhere.yaml"))
    assert render.canary_of(moved) != render.canary_of(text)  # the header is part of the digest


def test_lines_are_read_as_unbound_reads_them() -> None:
    assert render.answers_of('local-data: "Fv-GW.fv.lan. 300 IN A 10.251.0.9" # old') == [
        ("fv-gw.fv.lan", "A", "10.251.0.9")]
    assert render.answers_of("  local-data: 'x.fv.lan. TXT \"a#b\"'  # a comment") == [("x.fv.lan", "TXT", '"a#b"')]
    assert render.answers_of('local-data-ptr: "10.251.0.9 fv-gw.fv.lan"') == [
        ("9.0.251.10.in-addr.arpa", "PTR", "fv-gw.fv.lan.")]
    assert render.answers_of('local-data-ptr: "2001:db8::9 3600 v6.fv.lan."') == [
        ("9.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa", "PTR", "v6.fv.lan.")]
    assert render.answers_of('# local-data: "gone.fv.lan. A 10.0.0.1"') == []  # commented out
    assert render.host_records('  local-data: "a.fv.lan. AAAA 2001:db8::1"\n') == [(["a.fv.lan"], "2001:db8::1")]
