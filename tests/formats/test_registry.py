"""The registry: a file's own format, and the zone records any file's content may hold besides."""

from __future__ import annotations

import datetime as dt

import pytest

from renamer.formats import format_of
from renamer.formats.base import UNBUMPED
from renamer.formats.toml_format import locate

ZONE = b"$ORIGIN lab.example.\n@ IN SOA ns1 admin ( 2026010101 3600 900 604800 300 )\nweb01 IN A 10.0.0.70\n"
TODAY = dt.date(2026, 12, 1)


@pytest.mark.parametrize(("path", "data", "own"), (
    pytest.param("zones/db.lab", ZONE, "zone", id="a-zone-file"),
    pytest.param("zones/lab", ZONE, "zone", id="no-suffix"),
    pytest.param("notes/zone.txt", ZONE, "prose", id="in-a-note"),
    pytest.param("docs/zone.md", ZONE, "markdown", id="in-markdown"),
    pytest.param("ansible/zone.yml", b"--- |\n" + ZONE, "yaml", id="in-a-yaml-literal"),
    pytest.param("cfg/zone.toml", b'z = """\n' + ZONE + b'"""\n', "toml", id="in-a-toml-string"),
    pytest.param("scripts/mkzone.py", ZONE, "python", id="in-python"),
))
def test_zone_records_are_seen_in_any_format(path: str, data: bytes, own: str) -> None:
    """A change of records bumps the serial, and names in it collide, whatever the file's format."""
    fmt = format_of(path, data)
    assert fmt.name == own and fmt.structured
    serial = fmt.serial(data, TODAY)
    assert serial is not None and serial[3:] == ("2026010101", "2026120101")


@pytest.mark.parametrize(("path", "data"), (
    pytest.param("docs/notes.md", b"The SOA serial went up.\n", id="prose-about-a-serial"),
    pytest.param("stack.yml", b"a: 1\n", id="yaml"),
    pytest.param("docs/zone.md", b"```\n" + ZONE + b"```\n", id="fenced-in-markdown"),
))
def test_no_zone_records_noop(path: str, data: bytes) -> None:
    fmt = format_of(path, data)
    assert fmt.serial(data, TODAY) is None


def test_records_without_a_usable_serial_are_unbumped_in_plain_text() -> None:
    data = b"web01 IN A 10.0.0.70\n"
    assert format_of("zones/part", data).serial(data, TODAY) == UNBUMPED


@pytest.mark.parametrize(("path", "data"), (
    pytest.param("docs/weird.md", b"#!/usr/bin/env python\n# web01 runbook\n", id="markdown-with-a-shebang"),
    pytest.param("docs/.md", b"# web01\n", id="a-file-named-dot-md"),
    pytest.param("README.MD", b"# web01\n", id="upper-case"),
))
def test_markdown_by_its_name_whatever_its_first_line(path: str, data: bytes) -> None:
    fmt = format_of(path, data)
    assert fmt.name == "markdown" and fmt.needs_edits and fmt.comment is not None


def test_a_bom_is_no_part_of_the_first_toml_key() -> None:
    text = '\ufeffhost = "web01"\n'
    assert locate(text, [text.index("web01")]) == [("host", "value")]


@pytest.mark.parametrize(("path", "dns"), (
    pytest.param("etc/hosts", True, id="hosts"),
    pytest.param("files/web.hosts", True, id="dot-hosts"),
    pytest.param("dnsmasq.conf", True, id="dnsmasq-conf"),
    pytest.param("roles/dns/files/dnsmasq.d/lab.conf", True, id="dnsmasq-drop-in"),
    pytest.param("unbound.conf", True, id="unbound-conf"),
    pytest.param("etc/unbound/unbound.conf.d/lab.conf", True, id="unbound-drop-in"),
    pytest.param("zones/db.lab", True, id="a-zone-by-content"),
    pytest.param("etc/hosts.allow", False, id="noop-tcp-wrappers"),
    pytest.param("docs/dnsmasq.md", False, id="noop-a-page-about-dnsmasq"),
    pytest.param("app/nginx.conf", False, id="noop-other-conf"),
    pytest.param("docs/zone.md", False, id="noop-zone-quoted-in-markdown"),
    pytest.param("hosts.yml", False, id="noop-ansible-inventory"),
))
def test_dns_names_by_file(path: str, dns: bool) -> None:
    """Where host names are DNS names, matched in any case (issue 27, item 4)."""
    data = ZONE if path.startswith(("zones/", "docs/zone")) else b"x\n"
    assert format_of(path, data).dns_names is dns
