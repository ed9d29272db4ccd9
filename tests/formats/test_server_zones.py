"""Zone statements of name-server configuration: which file holds which zone (pure parsing)."""

from __future__ import annotations

import pytest

from renamer.formats.server_zones import bind_includes, server_zone_files


@pytest.mark.parametrize(("data", "expected"), [
    pytest.param(b'zone "lab.example" { type master; file "db.lab"; };', [("lab.example.", "db.lab")], id="bind"),
    pytest.param(b'zone "Lab.Example." IN {\n type primary;\n file "/etc/bind/db.lab";\n};',
                 [("lab.example.", "/etc/bind/db.lab")], id="class-final-dot-case"),
    pytest.param(b'view "in" { zone "a.example" { file "a"; }; zone "b.example" { file "b"; }; };',
                 [("a.example.", "a"), ("b.example.", "b")], id="inside-a-view"),
    pytest.param(b'zone "x.example" { type secondary; primaries { 192.0.2.1; }; file "x"; };',
                 [("x.example.", "x")], id="nested-braces-before-file"),
    pytest.param(b'zone "x.example" { file "a;b}c"; };', [("x.example.", "a;b}c")], id="quoted-punctuation"),
    pytest.param(b"zone:\n  name: \"50.250.10.in-addr.arpa\"\n  zonefile: \"db.rev\"\n",
                 [("50.250.10.in-addr.arpa.", "db.rev")], id="nsd"),
    pytest.param(b"zone:\n  - domain: lab.example\n    file: lab.zone # the zone\n",
                 [("lab.example.", "lab.zone")], id="knot"),
    pytest.param(b'// zone "x.example" { file "x"; };\n/* zone "y.example" { file "y"; }; */\n# zone "z" { file "z"; };',
                 [], id="noop-commented-out-three-styles"),
    pytest.param(b'zone "x.example" { type forward; forwarders { 192.0.2.1; }; };', [], id="noop-no-file"),
    pytest.param(b'zone "bad name" { file "x"; };', [], id="noop-not-a-zone-name"),
    pytest.param(b"template:\n  - id: default\n    file: \"%s.zone\"\n", [], id="noop-knot-template"),
    pytest.param(b"the zone file is db.lab\n", [], id="noop-prose"),
])
def test_server_zone_files(data: bytes, expected: list[tuple[str, str]]) -> None:
    assert server_zone_files(data) == expected


@pytest.mark.parametrize(("data", "expected"), [
    pytest.param(b'include "/etc/bind/named.conf.local";\ninclude "zones.conf";', ["/etc/bind/named.conf.local",
                                                                                    "zones.conf"], id="two"),
    pytest.param(b'// include "x";\ninclude x;', [], id="noop-commented-or-unquoted"),
])
def test_bind_includes(data: bytes, expected: list[str]) -> None:
    assert bind_includes(data) == expected
