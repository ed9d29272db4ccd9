"""The grammars of issue 27 (h16): a machine's search list, dnsmasq's short flags, Pi-hole's names."""

from __future__ import annotations

import pytest

from renamer import helm_tails, pihole_names, resolver_flags, search_lists

WORDS = {"pug", "wolf"}


@pytest.mark.parametrize(("rel", "text", "domains"), [
    pytest.param("etc/resolv.conf", "search ana.lan b.lan\n", ("ana.lan", "b.lan"), id="resolv-search"),
    pytest.param("etc/resolv.conf", "search ana.lan\ndomain b.lan\n", ("b.lan",), id="resolv-last-wins"),
    pytest.param("roles/dns/templates/resolv.conf.j2", "search {{ domain }}\n", (), id="resolv-template"),
    pytest.param("etc/systemd/resolved.conf", "[Resolve]\nDomains=~. ~corp ana.lan\n", ("ana.lan",),
                 id="resolved-routing-left"),
    pytest.param("n/10.network", "[Network]\nDomains=a.lan\nDomains=\nDomains=b.lan\n", ("b.lan",),
                 id="networkd-reset"),
    pytest.param("netplan/50.yaml", "network:\n  ethernets:\n    e:\n      nameservers:\n        search: [a.lan, "
                 "b.lan]\n", ("a.lan", "b.lan"), id="netplan-flow"),
    pytest.param("x/lan.nmconnection", "[ipv4]\ndns-search=a.lan;b.lan;\n", ("a.lan", "b.lan"), id="nm"),
    pytest.param("dhclient.conf", 'prepend domain-name "a.lan b.lan";\n', ("a.lan", "b.lan"), id="dhclient-name"),
    pytest.param("dhclient.conf", '# supersede domain-search "a.lan";\n', (), id="dhclient-commented-out"),
    pytest.param("cloud/user-data", "manage_resolv_conf: true\nresolv_conf:\n  domain: a.lan\n", ("a.lan",),
                 id="cloud-init-domain"),
    pytest.param("cloud/user-data", "#manage_resolv_conf: true\nresolv_conf:\n  domain: a.lan\n", (),
                 id="cloud-init-commented-out"),
    pytest.param("cloud/x.yaml", "dnsproxy_manage_resolv_conf: true\nresolv_conf:\n  domain: a.lan\n", (),
                 id="cloud-init-another-key"),
    pytest.param("docs/resolv.md", "search ana.lan\n", (), id="no-configuration-path"),
])
def test_search_list(rel: str, text: str, domains: tuple[str, ...]) -> None:
    assert search_lists.search_list(rel, text.encode()) == domains


@pytest.mark.parametrize(("rel", "machine"), [
    ("hosts/pug/etc/resolv.conf", "hosts/pug"), ("etc/systemd/network/a.network", ""),
    ("roles/net/files/netplan/a.yaml", "roles/net/files/netplan"),
])
def test_machine(rel: str, machine: str) -> None:
    assert search_lists.machine(rel) == machine


def test_looked_up_words() -> None:
    data = b"ssh admin@pug\ncurl http://pug:80/x\ncat hosts/pug/a /srv/pug/b\n10.0.0.5 pug\npug.ana.lan\n"
    found = [(data.count(b"\n", 0, c.start) + 1, c.word) for c in search_lists.looked_up(data, WORDS, ("ana.lan",), "")]
    assert found == [(1, "pug"), (2, "pug")]


@pytest.mark.parametrize(("text", "flags"), [
    pytest.param("ExecStart=/usr/sbin/dnsmasq -k -s ana.lan -E -H /etc/h\n",
                 [(b"domain", b"ana.lan"), (b"expand-hosts", b""), (b"addn-hosts", b"/etc/h")], id="unit"),
    pytest.param("dnsmasq -kEsana.lan -h\n", [(b"expand-hosts", b""), (b"domain", b"ana.lan"), (b"no-hosts", b"")],
                 id="bundled"),
    pytest.param("dnsmasq -p 5353 -s a.lan\n", [(b"domain", b"a.lan")], id="a-value-taking-letter"),
    pytest.param('services:\n  d:\n    image: x/dnsmasq\n    command: ["-s", "a.lan", "-G", "aa,pug"]\n',
                 [(b"domain", b"a.lan"), (b"dhcp-host", b"aa,pug")], id="compose-flow"),
    pytest.param("grep -s a.lan -E x\n", [], id="another-command"),
    pytest.param("services:\n  d:\n    image: app\n    command: -s a.lan -E\n", [], id="another-image"),
    pytest.param("dnsmasq -k # -s a.lan\n", [], id="a-comment"),
])
def test_short_flags(text: str, flags: list[tuple[bytes, bytes]]) -> None:
    assert [(f.key, f.value) for f in resolver_flags.short_flags(text.encode())] == flags


@pytest.mark.parametrize(("text", "found"), [
    pytest.param('[dns]\nhosts = ["10.0.0.5 pug wolf"]\ndomain = "a.lan"\nexpandHosts = true\n', ["pug", "wolf"],
                 id="toml"),
    pytest.param('[dns]\nhosts = ["10.0.0.5 pug"]\ndomain = "a.lan"\n', [], id="toml-no-expand"),
    pytest.param('[dns]\nhosts = ["pug 10.0.0.5"]\ndomain = "a.lan"\nexpandHosts = true\n', [], id="toml-no-address"),
    pytest.param('[dns]\nhosts = ["10.0.0.5 pug"]\nexpandHosts = true\n', [], id="toml-default-domain"),
    pytest.param('[dns]\ndomain = "a.lan"\n[dhcp]\nhosts = [\n  "aa:bb,10.0.0.5,pug", # x\n]\n', ["pug"],
                 id="toml-dhcp"),
    pytest.param("FTLCONF_dns_domain: a.lan\nFTLCONF_dns_expandHosts: 'true'\nFTLCONF_dns_hosts: |-\n"
                 "  10.0.0.5 pug\n  10.0.0.6 rex\nX: 1\n", ["pug"], id="env-block-scalar"),
    pytest.param("FTLCONF_dns_domain=a.lan\nFTLCONF_dns_domain_name=b.lan\nFTLCONF_dns_expandHosts=true\n"
                 "FTLCONF_dns_hosts=10.0.0.5 pug\n", [], id="env-two-domains"),
])
def test_pihole_names(text: str, found: list[str]) -> None:
    assert [c.word for c in pihole_names.composed(text.encode(), WORDS)] == found


def test_helm_pairs_and_value_spans() -> None:
    data = b"a: {{ .Values.db.host }}.{{- $.Values.domain -}}\n"
    assert list(helm_tails.pairs(data)) == [(("db", "host"), ("domain",), 1)]
    values = b"db:\n  host: 'pug'\nhost: rex\n"
    assert [(values[s:e], v) for s, e, v in helm_tails.value_spans(values, ("db", "host"))] == [(b"pug", "pug")]
