"""A fleet of two daemons serving the same sites: a dnsmasq and an Unbound, each a real daemon on
loopback, applied and verified in one run (issue 31: every resolver behind one contract)."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from renamer.dns.dnsmasq import sandbox
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
