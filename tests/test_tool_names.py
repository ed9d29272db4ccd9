"""The host words ssh, compose and dnsmasq compose with a domain, and a systemd template's token."""

from __future__ import annotations

from renamer.tool_names import composed, instances, template_suffixes, template_unit

WORDS = {"pug", "rex"}


def _found(text: str) -> list[tuple[str, str, str]]:
    return [(c.word, c.prefix, c.suffix) for c in composed(text.encode(), WORDS)]


def test_ssh_host_words_with_one_token() -> None:
    assert _found("Host pug rex\n  HostName %h.ana.lan\nHost x\n  HostName y\n") == [
        ("pug", "", ".ana.lan"), ("rex", "", ".ana.lan")]
    assert _found("Host=pug\n  hostname=%n-mgmt.ana.lan\n") == [("pug", "", "-mgmt.ana.lan")]
    assert _found("Host pug\n  User x\nHost rex\n  HostName %h.ana.lan\n") == [("rex", "", ".ana.lan")]
    assert _found("Match host pug\n  HostName %h.ana.lan\n") == []


def test_compose_service_pairs_and_dnsmasq_single_domain() -> None:
    assert _found("services:\n  a:\n    domainname: ana.lan\n    hostname: 'pug'\n") == [("pug", "", ".ana.lan")]
    assert _found("domain=ana.lan\ndhcp-host=aa:bb:cc:dd:ee:ff,set:x,pug,10.0.0.5,12h\n") == [("pug", "", ".ana.lan")]
    assert _found("domain=a.lan,10.0.0.0/24\ndomain=b.lan\ndhcp-host=aa,pug\n") == []


def test_systemd_templates() -> None:
    assert template_unit("etc/check@.service") == ("check", "service")
    assert template_unit("etc/check@pug.service") is None
    assert [s for _, _, s in template_suffixes(b"ExecStart=ssh %i.ana.lan %I.b.lan %i\n")] == [".ana.lan", ".b.lan"]
    assert instances(["w/check@pug.service", "check@.service", "x@pug.timer"], "check", "service") == [
        ("w/check@pug.service", "pug")]
