"""A fleet of two daemons serving the same sites: a dnsmasq and an Unbound, each a real daemon on
loopback, applied and verified in one run (issue 31: every resolver behind one contract)."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from dns import message as dns_message
from dns import query as dns_query
from dns import rdatatype as dns_rdatatype
from renamer.dns.answers import Answer, Expectation
from renamer.dns.dnsmasq import sandbox
from renamer.dns.load import load_inventory
from renamer.dns.verify import judge
from renamer.shipped import shipped
from tests.testing import unbound
from tests.testing.resolvers import Lab, answers, dns, move_gateway


@pytest.fixture
def fleet(tmp_path: Path) -> Iterator[Lab]:
    root = tmp_path / "lab"
    shutil.copytree(shipped("dns") / "sites", root / "dns" / "sites")
    resolver = unbound.create_resolver(root / "run" / "ns-fv")
    lab = Lab(root, {"ns-ana": sandbox.create(root / "run" / "ns-ana"), "ns-fv": resolver})
    lab.write_resolvers()
    try:
        sandbox.start(lab.instances["ns-ana"].folder)
        unbound.start_resolver(resolver)
        yield lab
    finally:
        lab.stop()


QUESTIONS = [("fv-gw.fv.lan.", "A"), ("fv-gw.", "A"), ("fv-ml1.fv.lan.", "A"), ("scriberr.fv.lan.", "A"),
             ("ana-nas.ana.lan.", "A"), ("54.50.251.10.in-addr.arpa.", "PTR"), ("ana-ml2.ana.lan.", "A"),
             ("fv-gw.fv.lan.", "AAAA")]


def test_dnsmasq_and_unbound_answer_the_same_after_one_apply(run: Callable[..., Any], fleet: Lab) -> None:
    applied = dns(run, fleet, "apply", "--resolvers", "all")
    assert applied.exit_code == 0, applied.stdout
    assert (fleet.instances["ns-ana"].snippet_dir / "renamer-fv.conf").read_text().count("host-record=") == 3
    assert (fleet.instances["ns-fv"].snippet_dir / "renamer-fv.conf").read_text().count("local-data-ptr:") == 3
    for name, rdtype in QUESTIONS:  # asked over DNS, each daemon directly
        got = answers(fleet, name, rdtype)
        assert got["ns-ana"] == got["ns-fv"], (name, rdtype, got)
    assert answers(fleet, "fv-gw.fv.lan.", "A")["ns-fv"] == ("10.251.0.1",)
    assert answers(fleet, "scriberr.fv.lan.", "A")["ns-fv"] == ("10.251.50.54",)
    verified = dns(run, fleet, "verify", "--resolvers", "all")
    assert verified.exit_code == 0, verified.stdout
    move_gateway(fleet)
    moved = dns(run, fleet, "apply", "--resolvers", "all")
    assert moved.exit_code == 0, moved.stdout
    assert answers(fleet, "fv-gw.fv.lan.", "A") == {"ns-ana": ("10.251.0.2",), "ns-fv": ("10.251.0.2",)}
    assert dns(run, fleet, "verify", "--resolvers", "all").exit_code == 0


def test_render_names_the_syntax_it_writes(run: Callable[..., Any], fleet: Lab) -> None:
    refused = dns(run, fleet, "render")
    assert refused.exit_code == 2
    assert "the resolvers run dnsmasq and unbound, whose files differ: name one with --resolver" in refused.stderr
    assert "local-data: " in dns(run, fleet, "render", "--resolver", "ns-fv", "--site", "fv").stdout
    assert "host-record=" in dns(run, fleet, "render", "--resolver", "ns-ana", "--site", "fv").stdout


@pytest.mark.parametrize("upstream", ["ns-ana", "ns-fv"])
def test_a_forwarder_in_front_of_a_mixed_fleet_verifies_whichever_daemon_it_asks(
        run: Callable[..., Any], fleet: Lab, tmp_path: Path, upstream: str) -> None:
    """A forwarder (manage: false) in front of dnsmasq and Unbound gets an alias as a CNAME from
    the one and as the host's address from the other. Before: verify demanded the CNAME, and a
    demo whose forwarder happened to ask the Unbound failed with `expected 10.251.50.54, got
    10.251.50.54`. Either answer gives a client the host's address: both pass."""
    assert dns(run, fleet, "apply", "--resolvers", "all").exit_code == 0
    inventory = load_inventory(fleet.inventory, str)
    forwarder = sandbox.create_forwarder(tmp_path / "edge", [s.domain for s in inventory.sites],
                                         [str(n) for s in inventory.sites for n in s.networks],
                                         [fleet.instances[upstream]])
    forwarder.start()
    try:
        fleet.write_resolvers(({"name": "fv-edge", "address": forwarder.address, "port": forwarder.port,
                                "manage": False},))
        response = dns_query.udp(dns_message.make_query("scriberr.fv.lan.", "A"), forwarder.address,
                                 port=forwarder.port, timeout=3.0)
        kinds = [dns_rdatatype.to_text(rrset.rdtype) for rrset in response.answer]
        assert kinds == (["CNAME", "A"] if upstream == "ns-ana" else ["A"]), kinds  # what a client gets
        verified = dns(run, fleet, "verify", "--resolvers", "all")
        assert verified.exit_code == 0, verified.stdout
        assert "fv-edge" in verified.stdout.splitlines()[0]
    finally:
        forwarder.stop()


def test_an_alias_that_fails_says_the_chain_it_expected() -> None:
    alias = Expectation("scriberr.fv.lan CNAME", "scriberr.fv.lan.", "A", ("10.251.50.54",), via=("fv-ml1.fv.lan.",))
    assert judge(alias, Answer("NOERROR", (("A", "10.251.50.54"),))).ok is False
    assert alias.wanted == "fv-ml1.fv.lan. -> 10.251.50.54"  # not `expected 10.251.50.54, got 10.251.50.54`
    either = Expectation("scriberr.fv.lan CNAME", "scriberr.fv.lan.", "A", ("10.251.50.54",),
                         via=("fv-ml1.fv.lan.",), via_optional=True)
    assert judge(either, Answer("NOERROR", (("A", "10.251.50.54"),))).ok
    assert judge(either, Answer("NOERROR", (("CNAME", "fv-ml1.fv.lan."), ("A", "10.251.50.54")))).ok
    assert not judge(either, Answer("NOERROR", (("CNAME", "fv-ml1."), ("A", "10.251.50.54")))).ok  # one label
    assert either.wanted == "fv-ml1.fv.lan. -> 10.251.50.54 (or 10.251.50.54 alone)"
