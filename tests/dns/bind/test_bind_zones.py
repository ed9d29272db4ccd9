"""Zone ownership on a real named (DNS break-it round 2, findings 02 and 11): a zone renamer would
declare inside an operator's wider zone that serves other names under it (10.in-addr.arpa, `lan`)
is refused before any write, naming the operator's zone, its file:line and a name it would hide;
so is an operator's zone inside renamer's; nested zones of two sites are written and answered."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.testing import bind
from tests.testing.resolvers import Lab, answers, dns, reload_until, start_bind_lab


@pytest.fixture
def ns(tmp_path: Path) -> Iterator[Lab]:
    started = start_bind_lab(tmp_path / "lab", ("ns-fv",))
    try:
        yield started
    finally:
        started.stop()


def _operator_zone(lab: Lab, zone: str, records: str) -> Path:
    instance = lab.instances["ns-fv"]
    assert isinstance(instance, bind.Resolver)
    path = lab.root / f"{zone}.zone"
    path.write_text(f"$TTL 300\n@ IN SOA localhost. hostmaster 1 3600 600 604800 300\n  IN NS localhost.\n{records}")
    instance.conf.write_text(instance.conf.read_text() + f'zone "{zone}" {{ type master; file "{path}"; }};\n')
    reload_until(lab, "ns-fv", f"{zone}.")
    return path


def _ask(lab: Lab, name: str, rdtype: str = "A") -> tuple[str, ...]:
    return answers(lab, name, rdtype, "ns-fv")["ns-fv"]


def _only_fv(lab: Lab, network: str | None = None) -> None:
    (lab.inventory / "sites" / "ana.yaml").unlink()
    if network is not None:
        path = lab.inventory / "sites" / "fv.yaml"
        path.write_text(path.read_text().replace("network: 10.251.0.0/16", f"network: {network}")
                        .replace("address: 10.251.0.1", "address: 10.251.50.1"))


@pytest.mark.parametrize(("network", "hidden"), [
    pytest.param("10.251.50.0/23", "200.50.251.10.in-addr.arpa (and 1 more)", id="slash-23-in-its-slash-16"),
    pytest.param("10.251.50.0/25", "200.50.251.10.in-addr.arpa", id="slash-25-in-its-slash-24"),
])
def test_a_zone_inside_the_operators_wider_reverse_zone_is_refused(run: Callable[..., Any], ns: Lab,
                                                                  network: str, hidden: str) -> None:
    _only_fv(ns, network)
    wide = _operator_zone(ns, "10.in-addr.arpa", "9.60.251 IN PTR printer.corp.\n200.50.251 IN PTR nvr.corp.\n"
                                                 "54.50.251 IN PTR old-name.corp.\n")
    before = ns.snippets()
    assert _ask(ns, "200.50.251.10.in-addr.arpa.", "PTR") == ("nvr.corp.",)
    planned = dns(run, ns, "plan", "--resolvers", "all")
    assert planned.exit_code == 1, planned.stdout + planned.stderr
    refused = dns(run, ns, "apply", "--resolvers", "all")
    assert refused.exit_code == 3, refused.stdout + refused.stderr
    instance = ns.instances["ns-fv"]
    assert isinstance(instance, bind.Resolver)
    assert refused.stderr.startswith(f'renamer: error: ns-fv: {instance.conf}:') and \
        f'the operator\'s zone "10.in-addr.arpa" ({wide}:' in refused.stderr, refused.stderr
    assert f"serves {hidden} under " in refused.stderr and "would hide" in refused.stderr
    assert refused.stderr.endswith("; nothing written\n") and ns.snippets() == before
    assert _ask(ns, "200.50.251.10.in-addr.arpa.", "PTR") == ("nvr.corp.",)  # still served


def test_a_forward_zone_inside_the_operators_wider_zone_is_refused(run: Callable[..., Any], ns: Lab) -> None:
    """05b: the operator's zone `lan` serves printer.fv.lan: renamer's fv.lan would hide it."""
    _only_fv(ns)
    _operator_zone(ns, "lan", "printer.fv IN A 10.9.0.7\nwiki.fv IN CNAME printer.fv\n")
    refused = dns(run, ns, "apply", "--resolvers", "all")
    assert refused.exit_code == 3, refused.stdout + refused.stderr
    assert "serves printer.fv.lan (and 1 more) under fv.lan" in refused.stderr, refused.stderr
    assert _ask(ns, "printer.fv.lan.") == ("10.9.0.7",)


def test_a_wider_zone_with_nothing_else_under_renamers_zone_is_accepted(run: Callable[..., Any], ns: Lab) -> None:
    """The operator's zone holds only what renamer replaces (fv-gw's PTR) and names outside the
    site's zone: nothing is hidden, the apply goes on and both are answered."""
    _only_fv(ns, "10.251.50.0/23")
    _operator_zone(ns, "10.in-addr.arpa", "54.50.251 IN PTR old-name.corp.\n1.0.252 IN PTR elsewhere.corp.\n")
    applied = dns(run, ns, "apply", "--resolvers", "all")
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    assert _ask(ns, "54.50.251.10.in-addr.arpa.", "PTR") == ("fv-ml1.fv.lan.",)
    assert _ask(ns, "1.0.252.10.in-addr.arpa.", "PTR") == ("elsewhere.corp.",)


def test_an_operators_zone_inside_renamers_is_refused(run: Callable[..., Any], ns: Lab) -> None:
    _only_fv(ns)
    _operator_zone(ns, "50.251.10.in-addr.arpa", "200 IN PTR nvr.corp.\n")
    refused = dns(run, ns, "apply", "--resolvers", "all")
    assert refused.exit_code == 3, refused.stdout + refused.stderr
    assert ('the operator\'s zone "50.251.10.in-addr.arpa" lies inside zone 251.10.in-addr.arpa that renamer '
            "would declare: named would answer 54.50.251.10.in-addr.arpa (and 1 more)") in refused.stderr


@pytest.mark.parametrize("nesting", ["network", "domain"])
def test_two_sites_whose_zones_nest_are_written_and_answered(run: Callable[..., Any], ns: Lab, nesting: str) -> None:
    """Finding 11: ana 10.250.0.0/16 with lab 10.250.60.0/24 (or lab.ana.lan under ana.lan): named
    serves each name and PTR from the longest zone, where renamer homes it."""
    domain, network, address = (("lab.lan", "10.250.60.0/24", "10.250.60.10") if nesting == "network"
                                else ("lab.ana.lan", "10.252.0.0/16", "10.252.0.10"))
    (ns.inventory / "sites" / "lab.yaml").write_text(
        f"site: lab\ndomain: {domain}\nnetwork: {network}\nhosts:\n  - name: lab-nas\n    address: {address}\n"
        "authoritative: true\n")
    applied = dns(run, ns, "apply", "--resolvers", "all")
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    assert _ask(ns, f"lab-nas.{domain}.") == (address,)
    reverse = ".".join(reversed(address.split("."))) + ".in-addr.arpa."
    assert _ask(ns, reverse, "PTR") == (f"lab-nas.{domain}.",)
    assert _ask(ns, "ana-gw.ana.lan.") == ("10.250.0.1",)
    assert _ask(ns, "1.0.250.10.in-addr.arpa.", "PTR") == ("ana-gw.ana.lan.",)
    assert dns(run, ns, "verify", "--resolvers", "all").exit_code == 0


def test_a_host_hidden_by_another_sites_nested_zone_is_refused_naming_the_resolver(
        run: Callable[..., Any], ns: Lab) -> None:
    (ns.inventory / "sites" / "lab.yaml").write_text(
        "site: lab\ndomain: nas.ana.lan\nnetwork: 10.252.0.0/16\nhosts:\n  - name: lab-nas\n"
        "    address: 10.252.0.10\n")
    path = ns.inventory / "sites" / "ana.yaml"
    path.write_text(path.read_text().replace("name: ana-nas", "name: nas"))
    refused = dns(run, ns, "plan", "--resolvers", "all")
    assert refused.exit_code == 2
    assert refused.stderr.startswith("renamer: error: ns-fv (backend: bind): nas.ana.lan (zone ana.lan, from "
                                     "dns/sites/ana.yaml) lies inside zone nas.ana.lan (from dns/sites/lab.yaml)"), \
        refused.stderr


def test_a_wildcard_above_renamers_zone_is_refused(run: Callable[..., Any], ns: Lab) -> None:
    """DNS trial on public configs, finding 02: the operator's zone `lan` answers every name by
    `* CNAME printer`; renamer's fv.lan would answer those under it NXDOMAIN. Refused, naming the
    wildcard's line; nothing written, the wildcard still answers."""
    _only_fv(ns)
    wide = _operator_zone(ns, "lan", "* IN CNAME printer\nprinter IN A 10.9.0.7\n")
    before = ns.snippets()
    assert _ask(ns, "grafana.fv.lan.", "CNAME") == ("printer.lan.",)
    refused = dns(run, ns, "apply", "--resolvers", "all")
    assert refused.exit_code == 3, refused.stdout + refused.stderr
    assert f"({wide}:4) serves every name under fv.lan by its wildcard *.lan" in refused.stderr, refused.stderr
    assert ns.snippets() == before and _ask(ns, "grafana.fv.lan.", "CNAME") == ("printer.lan.",)


def test_a_txt_only_wildcard_above_renamers_zone_is_no_refusal(run: Callable[..., Any], ns: Lab) -> None:
    """DNS break-it round 4, finding 04: `* IN TXT "v=spf1 -all"` answers no address under fv.lan."""
    _only_fv(ns)
    _operator_zone(ns, "lan", '* IN TXT "v=spf1 -all"\n')
    applied = dns(run, ns, "apply", "--resolvers", "all")
    assert applied.exit_code == 0, applied.stdout + applied.stderr


def test_views_are_refused_before_any_write_unless_the_reload_is_the_operators(run: Callable[..., Any],
                                                                              ns: Lab) -> None:
    """DNS break-it round 3, finding 04 (trial 06): with views, `rndc reload ZONE` names no view
    (named refuses a zone found in several) and the zones file must sit in each view: every apply
    failed and rolled back, and a rollback could fail too. Refused before any write, naming the
    view; a `reload` of the operator's own is run as written."""
    instance = ns.instances["ns-fv"]
    assert isinstance(instance, bind.Resolver)
    zones = instance.snippet_dir / "renamer-zones.conf"
    conf = instance.conf.read_text().replace(f'include "{zones}";',
                                             f'view "inside" {{ match-clients {{ any; }}; include "{zones}"; }};')
    instance.conf.write_text(conf)
    before = ns.snippets()
    refused = dns(run, ns, "apply", "--resolvers", "all")
    assert refused.exit_code == 3, refused.stdout + refused.stderr
    assert f'{instance.conf}:' in refused.stderr and 'named.conf has views (view "inside")' in refused.stderr
    assert "give the resolver a `reload` of your own" in refused.stderr and ns.snippets() == before
    ns.write_resolvers(ns_fv={"reload": [*instance.reload_command()[:-1], "reconfig"]})
    planned = dns(run, ns, "plan", "--resolvers", "all")
    assert "named.conf has views" not in planned.stdout + planned.stderr
