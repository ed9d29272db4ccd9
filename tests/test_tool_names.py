"""The host words ssh, compose and dnsmasq compose with a domain, and a systemd template's token."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest

from renamer.tool_names import (
    Dnsmasq,
    composed,
    dnsmasq,
    hosts_names,
    instances,
    template_suffixes,
    template_unit,
)

WORDS = {"pug", "rex"}


def _found(text: str) -> list[tuple[str, str, str]]:
    return [(c.word, c.prefix, c.suffix) for c in composed(text.encode(), WORDS)]


def test_ssh_host_words_with_one_token() -> None:
    assert _found("Host pug rex\n  HostName %h.ana.lan\nHost x\n  HostName y\n") == [
        ("pug", "", ".ana.lan"), ("rex", "", ".ana.lan")]
    assert _found("Host=pug\n  hostname=%n-mgmt.ana.lan\n") == [("pug", "", "-mgmt.ana.lan")]
    assert _found("Host pug\n  User x\nHost rex\n  HostName %h.ana.lan\n") == [("rex", "", ".ana.lan")]
    assert _found("Match host pug\n  HostName %h.ana.lan\n") == [("pug", "", ".ana.lan")]


def test_ssh_match_patterns_and_tokens_in_other_keywords() -> None:
    assert _found("Match final originalhost !rex,pug exec \"true\"\n  HostName %h.ana.lan\n") == [
        ("pug", "", ".ana.lan")]
    assert _found("Match user pug host rex\n  HostName %h.ana.lan\n") == [("rex", "", ".ana.lan")]
    assert _found("Host pug\n  ProxyCommand nc %h.ana.lan %p\n  ProxyJump j@%n.b.lan:22\n") == [
        ("pug", "", ".ana.lan"), ("pug", "", ".b.lan")]
    # `%h` is the HostName the block sets; `%n` stays the word; `%%h` is no token; a path is no name
    assert _found("Host pug\n  HostName 10.0.0.9\n  LocalCommand ping %h.ana.lan %n.b.lan\n") == [
        ("pug", "", ".b.lan")]
    assert _found("Host pug\n  RemoteCommand echo %%h.ana.lan\n  IdentityFile ~/%h.ana.lan.key\n") == []
    assert _found("Host pug\n  KnownHostsCommand /bin/keys mgmt-%h.ana.lan\n") == [("pug", "mgmt-", ".ana.lan")]


def test_compose_service_pairs_and_dnsmasq_single_domain() -> None:
    assert _found("services:\n  a:\n    domainname: ana.lan\n    hostname: 'pug'\n") == [("pug", "", ".ana.lan")]
    assert _found("domain=ana.lan\ndhcp-host=aa:bb:cc:dd:ee:ff,set:x,pug,10.0.0.5,12h\n") == [("pug", "", ".ana.lan")]
    assert _found("domain=a.lan,10.0.0.0/24\ndomain=b.lan\ndhcp-host=aa,pug\n") == []


def test_compose_dns_search_bare_words() -> None:
    text = ("services:\n  app:\n    image: pug\n    dns_search: [ana.lan, b.lan]\n    environment:\n"
            "      - DB=pug\n      URL: postgres://pug:5432/x\n      FQDN: pug.ana.lan\n    hostname: pug\n"
            "  rex:\n    image: x\n    command: --peer rex\n")
    found = list(composed(text.encode(), WORDS))
    assert [(c.word, c.suffix, c.others) for c in found] == [("pug", ".ana.lan", (".b.lan",))] * 2
    assert [text[c.start - 3:c.end] for c in found] == ["DB=pug", "://pug"]
    assert _found("services:\n  app:\n    dns_search: ${SEARCH}\n    command: pug\n") == []


def test_kubernetes_dnsconfig_searches_and_match_exec() -> None:
    pod = ("spec:\n  dnsConfig:\n    searches:\n      - ana.lan\n  containers:\n    - name: pug\n      image: pug\n"
           "      env:\n        - name: DB\n          value: pug\n  nodeSelector:\n    kubernetes.io/hostname: pug\n")
    assert [(c.word, c.suffix, pod[c.start - 7:c.end]) for c in composed(pod.encode(), WORDS)] == [
        ("pug", ".ana.lan", "value: pug")]
    assert _found("spec:\n  searches: [ana.lan]\n  value: pug\n") == []  # no dnsConfig: no resolver's list
    assert _found('Match host pug exec "nc -z %h.ana.lan 22"\n  HostName 10.0.0.9\n') == [("pug", "", ".ana.lan")]


def test_dnsmasq_settings_and_hosts_lines() -> None:
    read = dnsmasq(b"domain=ana.lan,10.0.0.0/24 # lab\nexpand-hosts\naddn-hosts=/etc/a.hosts\nno-hosts\n")
    assert read == Dnsmasq(True, True, ("ana.lan",), ("/etc/a.hosts",))
    text = b"# 10.0.0.5 pug\n10.0.0.5 pug rex # pug\nfe80::1%eth0 pug\n[web]\npug ansible_host=10.0.0.5\n"
    assert [(c.word, c.suffix, text[c.start:c.end]) for c in hosts_names(text, WORDS, "ana.lan", "x")] == [
        ("pug", ".ana.lan", b"pug"), ("rex", ".ana.lan", b"rex"), ("pug", ".ana.lan", b"pug")]


def test_systemd_templates() -> None:
    assert template_unit("etc/check@.service") == ("check", "service")
    assert template_unit("etc/check@pug.service") is None
    assert [s for _, _, s in template_suffixes(b"ExecStart=ssh %i.ana.lan %I.b.lan %i\n")] == [".ana.lan", ".b.lan"]
    assert instances(["w/check@pug.service", "check@.service", "x@pug.timer"], "check", "service") == [
        ("w/check@pug.service", "pug")]


def test_ssh_first_values_over_every_block_that_applies() -> None:
    """Break-it round 14 (finding 1): ssh's first value per keyword, over the blocks in order."""
    assert _found("Host pug\n  User a\nHost *\n  HostName %h.ana.lan\n") == [("pug", "", ".ana.lan")]
    assert _found("HostName %h.b.lan\nHost *\n  HostName %h.ana.lan\nHost pug\n") == [("pug", "", ".b.lan")]
    assert _found("Host pug\n  HostName 10.0.0.9\nHost *\n  HostName %h.ana.lan\n") == []
    assert _found("Host *\n  HostName %h.ana.lan\nHost pug\n  HostName 10.0.0.9\n") == [("pug", "", ".ana.lan")]
    assert _found("Host * !pug\n  HostName %h.ana.lan\nHost pug\n") == []
    assert _found("Match user x\n  HostName %h.ana.lan\nHost pug\n") == []
    assert _found("Match host p?g\n  HostName %h.ana.lan\nHost pug\n") == [("pug", "", ".ana.lan")]
    assert _found("Host rex\n  ProxyJump pug,j@rex:22\nHost *\n  HostName %h.ana.lan\n") == [
        ("rex", "", ".ana.lan"), ("rex", "", ".ana.lan"), ("pug", "", ".ana.lan")]  # its Host word, two targets
    assert _found("Host pug\n  HostName %h.ana.lan.\n") == [("pug", "", ".ana.lan")]


def test_ssh_canonical_domains_are_a_search_list() -> None:
    found = list(composed(b"CanonicalizeHostname yes\nCanonicalDomains ana.lan b.lan\nHost pug\n", WORDS))
    assert [(c.word, c.suffix, c.others) for c in found] == [("pug", ".ana.lan", (".b.lan",))]
    assert _found("CanonicalizeHostname no\nCanonicalDomains ana.lan\nHost pug\n") == []
    assert _found("CanonicalizeHostname yes\nCanonicalDomains ana.lan\nHost pug\n  HostName 10.0.0.9\n") == []


def test_dnsmasq_spellings_flags_uci_nixos() -> None:
    assert _found('command: ["--domain=ana.lan", "--dhcp-host=aa:bb,pug,10.0.0.5"]\n') == [("pug", "", ".ana.lan")]
    flags = dnsmasq(b"ExecStart=/usr/sbin/dnsmasq --expand-hosts --domain ana.lan --addn-hosts=/srv/h --no-hosts\n")
    assert (flags.expand_hosts, flags.no_hosts, flags.domains, flags.addn_hosts) == (True, True, ("ana.lan",),
                                                                                     ("/srv/h",))
    uci = "config dnsmasq\n\toption domain 'ana.lan'\n{}\nconfig domain\n\toption name 'pug'\n"
    assert _found(uci.format("\toption expandhosts '1'")) == [("pug", "", ".ana.lan")]
    assert _found(uci.format("")) == []
    assert _found("config dnsmasq\n\toption domain 'ana.lan'\nconfig host\n\toption name 'pug'\n") == [
        ("pug", "", ".ana.lan")]
    nix = ('services.dnsmasq.settings = { domain = "ana.lan"; %s };\nnetworking.hosts."10.0.0.5" = [ "pug" ];\n')
    assert _found(nix % "expand-hosts = true;") == [("pug", "", ".ana.lan")]
    assert _found(nix % "") == []


def test_search_lists_through_merges_configmaps_docker_and_nomad() -> None:
    assert _found("x: &d\n  dns_search: ana.lan\nservices:\n  a:\n    <<: *d\n    command: pug\n") == [
        ("pug", "", ".ana.lan")]
    assert _found("x: &d\n  dns_search: ana.lan\nservices:\n  a:\n    <<: *e\n    command: pug\n") == []
    assert _found("docker run --dns-search ana.lan -e A=pug x pug\n") == [("pug", "", ".ana.lan")]
    nomad = 'group "a" {\n  network {\n    dns {\n      searches = ["ana.lan"]\n    }\n  }\n  env {\n    A = "pug"\n  }\n}\n'
    assert _found(nomad) == [("pug", "", ".ana.lan")]
    assert _found(nomad.replace("searches", "servers")) == []


SSH_CONFIGS = [
    "HostName %h.ana.lan\n\nHost pug\n  User admin\n",
    "Host pug\n  User admin\nHost p* !rex\n  HostName %h.ana.lan\n",
    "Host * !pug\n  HostName %h.ana.lan\nHost pug\n  User x\n",
    "Host pug\n  HostName 10.0.0.9\nHost *\n  HostName %h.ana.lan\n",
    "Host *\n  HostName %h.ana.lan\nHost pug\n  HostName 10.0.0.9\n",
    "Match host p?g\n  HostName %h.ana.lan\nHost pug\n",
    "Match user nobody\n  HostName %h.ana.lan\nHost pug\n",
    "Host pug\n  HostName \"%h.ana.lan.\"\n",
    "Match all\n  HostName %h.ana.lan\nHost pug\n",
    "Host rex\n  User x\nHost *\n  HostName %h.ana.lan\nHost pug\n  User y\n",
    "Host pug\n  HostName %h.b.lan\nHost *\n  HostName %h.ana.lan\n",
]


@pytest.mark.parametrize("config", SSH_CONFIGS)
def test_ssh_first_values_agree_with_ssh(config: str, tmp_path: Path) -> None:
    """The name read for `pug` is the one the real `ssh -G` computes (no connection)."""
    (tmp_path / "ssh_config").write_text(config)
    done = subprocess.run(["ssh", "-G", "-F", str(tmp_path / "ssh_config"), "pug"], capture_output=True, text=True,
                          check=True)
    hostname = next(line.split()[1] for line in done.stdout.splitlines() if line.startswith("hostname "))
    ours = {c.prefix + "pug" + c.suffix for c in composed(config.encode(), {"pug"})}
    # the host itself or an address: nothing composed; else the composed name (a trailing dot: the same)
    assert ours == (set() if hostname in ("pug", "10.0.0.9") else {hostname.rstrip(".")})


def test_many_merged_services_are_read_in_linear_time() -> None:
    """2,000 services merging one anchor's `dns_search`: each scope read once (5.7 s before the
    keys of each indent were listed once and rows found by bisection; about 0.1 s after)."""
    compose = b"x-dns: &dns\n  dns_search: ana.lan\nservices:\n" + b"".join(
        b"  s%d:\n    <<: *dns\n    image: x\n    environment:\n      A: pug\n" % i for i in range(2000))
    start = time.perf_counter()
    assert len(list(composed(compose, WORDS))) == 2000
    assert time.perf_counter() - start < 2.0
