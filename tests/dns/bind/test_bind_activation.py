"""What BIND's activation reaches (DNS break-it round 2, finding 12): with an `rndc ... reload`
command, renamer reloads only the zones it changed (`rndc reload ZONE`, and `rndc reconfig` when
its zones file changed), so an operator's pending, unreloaded edit of their own zone is made
live neither by renamer's apply nor by its rollback."""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from pathlib import Path
from typing import Any

from renamer.dns.bind.backend import reloads
from renamer.dns.inventory import Resolver
from renamer.dns.transport import LocalTransport
from tests.testing import bind
from tests.testing.resolvers import Lab, answers, dns, fails_once_written, move_gateway, reload_until


def pending_operator_zone(lab: Lab) -> Path:
    """The operator's own zone other.lan on ns-fv, served with www 10.9.0.1; then edited to .2
    (serial bumped) and not reloaded yet: a pending change of theirs."""
    instance = lab.instances["ns-fv"]
    assert isinstance(instance, bind.Resolver)
    zone = lab.root / "other.zone"
    zone.write_text("$TTL 300\n@ IN SOA localhost. hostmaster 1 3600 600 604800 300\n  IN NS localhost.\n"
                    "www IN A 10.9.0.1\n")
    instance.conf.write_text(instance.conf.read_text() + f'zone "other.lan" {{ type master; file "{zone}"; }};\n')
    reload_until(lab, "ns-fv", "www.other.lan.", "A", "10.9.0.1")
    assert www(lab) == ("10.9.0.1",)
    zone.write_text(zone.read_text().replace(" 1 3600", " 2 3600").replace("10.9.0.1", "10.9.0.2"))
    return zone


def www(lab: Lab) -> tuple[str, ...]:
    return answers(lab, "www.other.lan.", "A", "ns-fv")["ns-fv"]


def test_an_apply_reloads_only_renamers_zones(run: Callable[..., Any], pair: Lab) -> None:
    assert dns(run, pair, "apply", "--resolvers", "all").exit_code == 0
    pending_operator_zone(pair)
    move_gateway(pair)
    moved = dns(run, pair, "apply", "--resolvers", "all")
    assert moved.exit_code == 0, moved.stdout
    assert answers(pair, "fv-gw.fv.lan.", "A", "ns-fv")["ns-fv"] == ("10.251.0.2",)
    assert answers(pair, "2.0.251.10.in-addr.arpa.", "PTR", "ns-fv")["ns-fv"] == ("fv-gw.fv.lan.",)
    assert www(pair) == ("10.9.0.1",)  # the operator's pending edit stays pending


def test_a_first_apply_loads_new_zones_with_reconfig_and_a_rollback_leaves_the_operators_edit(
        run: Callable[..., Any], pair: Lab) -> None:
    pending_operator_zone(pair)
    applied = dns(run, pair, "apply", "--resolvers", "all")  # new zones: renamer-zones.conf changed
    assert applied.exit_code == 0, applied.stdout
    assert answers(pair, "fv-gw.fv.lan.", "A", "ns-fv")["ns-fv"] == ("10.251.0.1",)
    assert www(pair) == ("10.9.0.1",)
    move_gateway(pair)
    pair.write_resolvers(ns_fv2={"test": fails_once_written(pair, "ns-fv2")})
    failed = dns(run, pair, "apply", "--resolvers", "all")
    assert failed.exit_code == 1 and "restored, reloaded, old records served" in failed.stdout, failed.stdout
    assert answers(pair, "fv-gw.fv.lan.", "A", "ns-fv")["ns-fv"] == ("10.251.0.1",)
    assert www(pair) == ("10.9.0.1",)


def test_the_reload_commands(tmp_path: Path) -> None:
    folder = tmp_path / "named.d"
    folder.mkdir()
    for name in ("renamer-zones.conf", "renamer-fv.lan.zone", "renamer-251.10.in-addr.arpa.zone"):
        (folder / name).write_text("")
    rndc = ("/usr/sbin/rndc", "-s", "127.0.0.1", "reload")
    base: dict[str, Any] = {"name": "ns", "address": ipaddress.ip_address("127.0.0.1"), "port": 53,
                            "target": "local", "snippet_dir": str(folder), "backup_dir": str(tmp_path / "b"),
                            "test": ("true",), "sites": (), "dhcp": (), "backend": "bind"}
    resolver = Resolver(**base, reload=rndc)
    local = LocalTransport()
    assert reloads(resolver, local, ["renamer-fv.lan.zone"]) == [(*rndc, "fv.lan")]
    assert reloads(resolver, local, ["renamer-zones.conf", "renamer-fv.lan.zone", "renamer-ana.lan.zone"]) == [
        ("/usr/sbin/rndc", "-s", "127.0.0.1", "reconfig"), (*rndc, "fv.lan")]  # ana.lan's file is gone
    assert reloads(resolver, local, ["renamer-fv.lan.zone", "/etc/bind/corp.zone"]) == [rndc]  # --retire-stale
    assert reloads(resolver, local, []) == [rndc]
    own = Resolver(**base, reload=("systemctl", "reload", "named"))
    assert reloads(own, local, ["renamer-fv.lan.zone"]) == [("systemctl", "reload", "named")]
