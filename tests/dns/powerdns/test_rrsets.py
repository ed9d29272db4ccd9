"""A site's RRsets for PowerDNS, pure: the zones, the records the other backends serve, the
canary, and the rendered text read back."""

from __future__ import annotations

import dataclasses
import ipaddress

from renamer.dns.dnsmasq import render as dnsmasq_render
from renamer.dns.inventory import Site
from renamer.dns.load import load_sites
from renamer.dns.powerdns import rrsets
from renamer.shipped import shipped


def sites() -> dict[str, Site]:
    return {s.name: s for s in load_sites(shipped("dns"))}


def test_reverse_zones_sit_at_the_label_boundary_at_or_above_the_prefix() -> None:
    cases = {"10.251.0.0/16": "251.10.in-addr.arpa.", "10.251.3.0/24": "3.251.10.in-addr.arpa.",
             "10.251.4.0/22": "251.10.in-addr.arpa.", "10.0.0.0/8": "10.in-addr.arpa.",
             "fd00:251::/48": "0.0.0.0.1.5.2.0.0.0.d.f.ip6.arpa.",
             "fd00:251:0:10::/62": "1.0.0.0.0.0.0.1.5.2.0.0.0.d.f.ip6.arpa."}  # 15 nibbles of 15.5
    for network, zone in cases.items():
        assert rrsets.reverse_zone(ipaddress.ip_network(network)) == zone, network


def test_the_records_are_those_dnsmasq_serves_and_the_text_reads_back() -> None:
    for site in sites().values():
        wanted = rrsets.desired(site)
        text = rrsets.render(wanted)
        assert rrsets.parse(text) == wanted
        theirs = dnsmasq_render.records(dnsmasq_render.render_site(site))
        fqdn = {k: v for k, v in theirs.items() if k.endswith(f".{site.domain}") or k.endswith(" AAAA")}
        assert {k: v for k, v in rrsets.records(text).items() if k in fqdn} == fqdn
        assert rrsets.canary_of(text) == (lambda n, d: (n.rstrip("."), d))(*rrsets.canary(site, wanted))
        assert {names[0] for names, _ in rrsets.host_records(text)} == {site.fqdn(h.name) for h in site.hosts}


def test_the_canary_moves_with_any_record_and_only_then() -> None:
    site = sites()["fv"]
    name, digest = rrsets.canary(site, rrsets.desired(site))
    assert name == "_renamer.fv.fv.lan."
    moved = dataclasses.replace(site, hosts=tuple(dataclasses.replace(h, address=h.address + 1)
                                                  if h.name == "fv-gw" else h for h in site.hosts))
    assert rrsets.canary(moved, rrsets.desired(moved))[1] != digest
    assert rrsets.canary(dataclasses.replace(site, source="x.yaml"), rrsets.desired(site))[1] == digest
