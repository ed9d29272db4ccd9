"""A dual-stack host (issue 28, item 10): `address: [IPv4, IPv6]` in a site file, with the site's
`network: [IPv4 prefix, IPv6 prefix]`. Real dnsmasq on loopback, through the CLI, asserted with
what the resolvers answer over DNS (A, AAAA, both PTRs); every other shape refused at load."""

from __future__ import annotations

import ipaddress
import json
import re
from pathlib import Path

import pytest

from renamer.dns.dnsmasq import sandbox
from tests.testing.resolvers import Lab, answers, dns, with_hosts_dir

NETWORKS = "network: [10.251.0.0/16, 2001:db8:51::/64]"
ML1 = ("10.251.50.54", "2001:db8:51::54")
FQDN = ("fv-ml1.fv.lan.",)


def _ptr(address: str) -> str:
    return ipaddress.ip_address(address).reverse_pointer + "."


def _site(lab: Lab) -> Path:
    return lab.inventory / "sites" / "fv.yaml"


def _edit(lab: Lab, *pairs: tuple[str, str]) -> None:
    path = _site(lab)
    text = path.read_text()
    for old, new in pairs:
        assert old in text, old
        text = text.replace(old, new, 1)
    path.write_text(text)


def _dual(lab: Lab) -> None:
    """fv-ml1 dual-stack in a flow list; fv-gw too, as a block list written IPv6 first."""
    _edit(lab, ("network: 10.251.0.0/16", NETWORKS),
          ("address: 10.251.50.54", f"address: [{ML1[0]}, {ML1[1]}]"),
          ("address: 10.251.0.1", "address:\n      - 2001:db8:51::1\n      - 10.251.0.1"))


def _everywhere(lab: Lab, name: str, rdtype: str) -> set[tuple[str, ...]]:
    """The distinct answers of the lab's three resolvers (one set member: they all agree)."""
    return set(answers(lab, name, rdtype).values())


def test_a_dual_stack_host_is_served_a_aaaa_and_both_ptrs(run, lab) -> None:  # type: ignore[no-untyped-def]
    _dual(lab)
    plan = dns(run, lab, "plan", "--resolvers", "all")
    assert plan.exit_code == 0, plan.stdout + plan.stderr
    assert "  + fv-ml1 AAAA\n" in plan.stdout and "  + fv-gw.fv.lan AAAA\n" in plan.stdout
    applied = dns(run, lab, "apply", "--resolvers", "all")
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    for name in ("fv-ml1.", "fv-ml1.fv.lan."):
        assert _everywhere(lab, name, "A") == {ML1[:1]}
        assert _everywhere(lab, name, "AAAA") == {ML1[1:]}
    assert _everywhere(lab, _ptr(ML1[0]), "PTR") == {FQDN}
    assert _everywhere(lab, _ptr(ML1[1]), "PTR") == {FQDN}
    assert _everywhere(lab, "scriberr.fv.lan.", "AAAA") == {ML1[1:]}  # the alias follows both families
    assert _everywhere(lab, "scriberr.fv.lan.", "A") == {ML1[:1]}
    # Written IPv6 first: the same records.
    assert _everywhere(lab, "fv-gw.fv.lan.", "A") == {("10.251.0.1",)}
    assert _everywhere(lab, "fv-gw.fv.lan.", "AAAA") == {("2001:db8:51::1",)}
    assert _everywhere(lab, _ptr("2001:db8:51::1"), "PTR") == {("fv-gw.fv.lan.",)}
    assert _everywhere(lab, "fv-ml1-bmc.fv.lan.", "AAAA") == {()}  # a single-family host: none
    # The DHCP reservation pins both (dnsmasq --test passed it in the apply on ns-fv).
    snippet = (lab.instances["ns-fv"].snippet_dir / "renamer-fv.conf").read_text()
    assert "dhcp-host=3c:ec:ef:12:34:56,10.251.50.54,[2001:db8:51::54],fv-ml1\n" in snippet
    verified = dns(run, lab, "verify", "--resolvers", "all")
    assert verified.exit_code == 0, verified.stdout
    for check in ("fv-ml1.fv.lan AAAA", "2001:db8:51::54 PTR", "10.251.50.54 PTR", "scriberr.fv.lan CNAME AAAA",
                  "2001:db8:51::1 PTR"):
        assert any(line.startswith(check + " ") for line in verified.stdout.splitlines()), check


def test_verify_fails_on_a_wrong_aaaa_and_its_ptr(run, lab) -> None:  # type: ignore[no-untyped-def]
    _dual(lab)
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    instance = lab.instances["ns-ana2"]  # someone edits the snippet on one resolver: another IPv6 address
    snippet = instance.snippet_dir / "renamer-fv.conf"
    snippet.write_text(snippet.read_text().replace(ML1[1], "2001:db8:51::99"))
    sandbox.restart(instance.folder)
    assert answers(lab, "fv-ml1.fv.lan.", "AAAA", "ns-ana2") == {"ns-ana2": ("2001:db8:51::99",)}
    assert answers(lab, _ptr(ML1[1]), "PTR", "ns-ana2") == {"ns-ana2": ()}
    assert answers(lab, "fv-ml1.fv.lan.", "A", "ns-ana2") == {"ns-ana2": ML1[:1]}
    result = dns(run, lab, "verify", "--resolvers", "all", "--format", "json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    bad = {(r["name"], c["check"], c["got"]) for r in data["resolvers"] for c in r["checks"] if not c["ok"]}
    assert ("ns-ana2", "fv-ml1.fv.lan AAAA", "2001:db8:51::99") in bad
    assert ("ns-ana2", "fv-ml1 AAAA", "2001:db8:51::99") in bad
    assert any(r == "ns-ana2" and c == "2001:db8:51::54 PTR" for r, c, _ in bad)
    assert ("ns-ana2", "fv-ml1.fv.lan A", "10.251.50.54") not in bad  # the A record is right
    assert {r for r, _, _ in bad} == {"ns-ana2"}


def test_a_hand_written_second_aaaa_shows_in_plan_and_fails_verify(run, lab) -> None:  # type: ignore[no-untyped-def]
    _dual(lab)
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    instance = lab.instances["ns-ana2"]
    legacy = instance.snippet_dir / "50-legacy.conf"
    # The inventory's own IPv6 address, written by hand too: no contradiction, nothing to report.
    legacy.write_text(f"host-record=fv-ml1.fv.lan,{ML1[1]}\n")
    sandbox.restart(instance.folder)
    plan = dns(run, lab, "plan", "--resolvers", "ns-ana2", "--expect-no-changes")
    assert plan.exit_code == 0 and "up to date, nothing to do" in plan.stdout, plan.stdout
    legacy.write_text("host-record=fv-ml1.fv.lan,2001:db8:51::99\n")  # a second AAAA: dnsmasq serves both
    sandbox.restart(instance.folder)
    assert answers(lab, "fv-ml1.fv.lan.", "AAAA", "ns-ana2") == {"ns-ana2": ("2001:db8:51::54", "2001:db8:51::99")}
    plan = dns(run, lab, "plan", "--resolvers", "ns-ana2", "--expect-no-changes")
    assert plan.exit_code == 1
    assert f"  {legacy}:1: host-record=fv-ml1.fv.lan,2001:db8:51::99\n" in plan.stdout, plan.stdout
    verified = dns(run, lab, "verify", "--resolvers", "ns-ana2", "--format", "json")
    assert verified.exit_code == 1
    bad = [c["check"] for r in json.loads(verified.stdout)["resolvers"] for c in r["checks"] if not c["ok"]]
    # The hand-written line names the FQDN only; the aliases point at it, so they get both too.
    assert bad == ["fv-ml1.fv.lan AAAA", "scriberr CNAME AAAA", "scriberr.fv.lan CNAME AAAA"]


def test_renumbering_one_family_then_dropping_it(run, lab) -> None:  # type: ignore[no-untyped-def]
    _dual(lab)
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    _edit(lab, (f"[{ML1[0]}, {ML1[1]}]", f"[{ML1[0]}, 2001:db8:51::64]"))
    plan = dns(run, lab, "plan", "--resolvers", "all").stdout
    assert "  ~ fv-ml1 AAAA\n" in plan and "  ~ fv-ml1.fv.lan AAAA\n" in plan
    assert "  ~ fv-ml1\n" not in plan  # the A record is not touched
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    assert _everywhere(lab, "fv-ml1.fv.lan.", "AAAA") == {("2001:db8:51::64",)}
    assert _everywhere(lab, _ptr("2001:db8:51::64"), "PTR") == {FQDN}
    assert _everywhere(lab, _ptr(ML1[1]), "PTR") == {()}  # the old IPv6 address's PTR is gone
    assert _everywhere(lab, "fv-ml1.fv.lan.", "A") == {ML1[:1]}
    # Back to a plain string: the AAAA goes, the A stays.
    _edit(lab, (f"[{ML1[0]}, 2001:db8:51::64]", ML1[0]))
    plan = dns(run, lab, "plan", "--resolvers", "all").stdout
    assert "  - fv-ml1 AAAA\n" in plan
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    assert _everywhere(lab, "fv-ml1.fv.lan.", "AAAA") == {()}
    assert _everywhere(lab, "fv-ml1.fv.lan.", "A") == {ML1[:1]}
    assert dns(run, lab, "verify", "--resolvers", "all").exit_code == 0


def test_with_a_hosts_dir_both_families_go_live_without_a_restart(run, lab) -> None:  # type: ignore[no-untyped-def]
    with_hosts_dir(lab)
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    pids = lab.pids()
    _dual(lab)  # an address-only change: the hosts files alone change, re-read live
    applied = dns(run, lab, "apply", "--resolvers", "all")
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    hosts = (lab.instances["ns-ana"].folder / "hosts.d" / "renamer-fv.hosts").read_text()
    assert f"{ML1[0]} fv-ml1.fv.lan fv-ml1\n{ML1[1]} fv-ml1.fv.lan fv-ml1\n" in hosts
    assert _everywhere(lab, "fv-ml1.fv.lan.", "AAAA") == {ML1[1:]}
    assert _everywhere(lab, "fv-ml1.", "A") == {ML1[:1]}
    assert _everywhere(lab, _ptr(ML1[1]), "PTR") == {FQDN}
    assert _everywhere(lab, _ptr(ML1[0]), "PTR") == {FQDN}
    after = lab.pids()
    assert {n: after[n] for n in ("ns-ana", "ns-ana2")} == {n: pids[n] for n in ("ns-ana", "ns-ana2")}
    # ns-fv serves the site's DHCP: its dhcp-host line now pins both addresses, which takes a restart.
    assert after["ns-fv"] != pids["ns-fv"]
    assert "[2001:db8:51::54]" in (lab.instances["ns-fv"].snippet_dir / "renamer-fv.conf").read_text()
    assert dns(run, lab, "verify", "--resolvers", "all").exit_code == 0


def _grow(lab: Lab, count: int) -> None:
    """`count` more hosts in the fv site, IPv4 only for now (fv-n1 ... with 10.251.9.N)."""
    _edit(lab, ("hosts:\n", "hosts:\n" + "".join(f"  - name: fv-n{i}\n    address: 10.251.9.{i}\n"
                                                  for i in range(1, count + 1))))


def _v6(lab: Lab, count: int, low: str) -> None:
    """Give fv-n1 ... fv-n`count` the IPv6 address 2001:db8:51::`low`:N (replacing any)."""
    text = _site(lab).read_text()
    for i in range(1, count + 1):
        text = re.sub(rf"address: \[?10\.251\.9\.{i}(, [0-9a-f:]+\])?\n",
                      f"address: [10.251.9.{i}, 2001:db8:51::{low}:{i}]\n", text)
    _site(lab).write_text(text)


def test_thresholds_count_each_family_apart(run, lab) -> None:  # type: ignore[no-untyped-def]
    _grow(lab, 8)
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    # Dual-stacking most of the site adds AAAA records: nothing updated, nothing deleted.
    _edit(lab, ("network: 10.251.0.0/16", NETWORKS))
    _v6(lab, 8, "9")
    added = dns(run, lab, "apply", "--resolvers", "all")
    assert added.exit_code == 0, added.stdout + added.stderr
    assert _everywhere(lab, "fv-n1.fv.lan.", "AAAA") == {("2001:db8:51::9:1",)}
    # Renumbering the IPv6 addresses of most of it is an update of the AAAA records, the A left alone.
    _v6(lab, 8, "8")
    refused = dns(run, lab, "apply", "--resolvers", "all")
    assert refused.exit_code == 3, refused.stdout + refused.stderr
    assert "renamer-fv.conf: the apply would update 16 of its" in refused.stderr
    assert "would delete" not in refused.stderr
    assert _everywhere(lab, "fv-n1.fv.lan.", "AAAA") == {("2001:db8:51::9:1",)}  # nothing written
    assert dns(run, lab, "apply", "--resolvers", "all", "--force").exit_code == 0
    assert _everywhere(lab, "fv-n1.fv.lan.", "AAAA") == {("2001:db8:51::8:1",)}
    # Dropping them is a delete of the AAAA records.
    text = _site(lab).read_text()
    for i in range(1, 9):
        text = text.replace(f"[10.251.9.{i}, 2001:db8:51::8:{i}]", f"10.251.9.{i}")
    _site(lab).write_text(text)
    refused = dns(run, lab, "apply", "--resolvers", "all")
    assert refused.exit_code == 3 and "the apply would delete 16 of its" in refused.stderr
    assert "would update" not in refused.stderr
    assert _everywhere(lab, "fv-n1.fv.lan.", "A") == {("10.251.9.1",)}


@pytest.mark.parametrize("edits, message", [
    pytest.param([(ML1[0], "[10.251.50.54, 10.251.50.56]")],
                 "fv.yaml:6: hosts[0].address: expected a list of one IPv4 and one IPv6 address, got two IPv4 "
                 "ones (10.251.50.54, 10.251.50.56)", id="two-ipv4"),
    pytest.param([("10.251.0.0/16", "[10.251.0.0/16, 2001:db8:51::/64]"),
                  (ML1[0], "[2001:db8:51::54, 2001:db8:51::55]")],
                 "fv.yaml:6: hosts[0].address: expected a list of one IPv4 and one IPv6 address, got two IPv6 "
                 "ones (2001:db8:51::54, 2001:db8:51::55)", id="two-ipv6"),
    pytest.param([("10.251.0.0/16", "[10.251.0.0/16, 2001:db8:51::/64]"),
                  (ML1[0], "[10.251.50.54, 2001:db8:51::54, 2001:db8:51::55]")],
                 "fv.yaml:6: hosts[0].address: expected a list of one IPv4 and one IPv6 address, got 3 items",
                 id="three"),
    pytest.param([(ML1[0], "[]")],
                 "fv.yaml:6: hosts[0].address: expected a list of one IPv4 and one IPv6 address, got an empty "
                 "list", id="empty"),
    pytest.param([(ML1[0], "[10.251.50.54]")],
                 "fv.yaml:6: hosts[0].address: expected a list of one IPv4 and one IPv6 address, got 1 item "
                 "(one address needs no list)", id="one-in-a-list"),
    pytest.param([(ML1[0], "[10.251.50.54, fv-ml1]")],
                 "fv.yaml:6: hosts[0].address[1]: invalid address 'fv-ml1'", id="a-name"),
    pytest.param([(ML1[0], "[10.251.50.54, 2001:db8:51::54/64]")],
                 "fv.yaml:6: hosts[0].address[1]: invalid address '2001:db8:51::54/64'", id="a-prefix"),
    pytest.param([(ML1[0], "\n      - 10.251.50.54\n      - 54")],
                 "fv.yaml:8: hosts[0].address[1]: invalid address 54", id="a-number-block-list"),
    pytest.param([(ML1[0], "{v4: 10.251.50.54}")],
                 "fv.yaml:6: hosts[0].address: expected one address or a list of one IPv4 and one IPv6 address, "
                 "got a mapping", id="a-mapping"),
    pytest.param([(ML1[0], "[10.251.50.54, 2001:db8:51::54]")],
                 "fv.yaml:6: hosts[0].address[1]: 2001:db8:51::54 is IPv6 but the site declares no IPv6 network "
                 "(give the site's network as a list of one IPv4 and one IPv6 network)", id="no-ipv6-network"),
    pytest.param([("10.251.0.0/16", "[10.251.0.0/16, 2001:db8:51::/64]"),
                  (ML1[0], "[2001:db8:52::54, 10.251.50.54]")],
                 "fv.yaml:6: hosts[0].address[0]: 2001:db8:52::54 is outside the site's network 2001:db8:51::/64",
                 id="ipv6-outside"),
    pytest.param([("10.251.0.0/16", "[10.251.0.0/16, 2001:db8:51::/64]"),
                  (ML1[0], "[10.250.50.54, 2001:db8:51::54]")],
                 "fv.yaml:6: hosts[0].address[0]: 10.250.50.54 is outside the site's network 10.251.0.0/16",
                 id="ipv4-outside"),
    pytest.param([("10.251.0.0/16", "[10.251.0.0/16, 10.252.0.0/16]")],
                 "fv.yaml:3: network: expected a list of one IPv4 and one IPv6 network, got two IPv4 ones "
                 "(10.251.0.0/16, 10.252.0.0/16)", id="two-ipv4-networks"),
    pytest.param([("10.251.0.0/16", "[10.251.0.0/16, 2001:db8:51::1/64]")],
                 "fv.yaml:3: network[1]: invalid network '2001:db8:51::1/64'", id="host-bits-in-a-network"),
])
def test_other_shapes_are_refused_at_load(run, lab, edits: list[tuple[str, str]], message: str) -> None:  # type: ignore[no-untyped-def]
    _edit(lab, *edits)
    for command in (("render",), ("apply", "--resolvers", "all")):
        result = dns(run, lab, *command)
        assert (result.exit_code, result.stderr) == (2, f"renamer: error: dns/sites/{message}\n"), command
    assert lab.snippets() == {} and not (lab.root / "backups").exists()


def test_an_ipv6_address_defined_twice_is_refused(run, lab) -> None:  # type: ignore[no-untyped-def]
    _dual(lab)
    _edit(lab, ("- 2001:db8:51::1", f"- {ML1[1]}"))
    result = dns(run, lab, "apply", "--resolvers", "all")
    assert result.exit_code == 2
    assert (f"dns/sites/fv.yaml: hosts: address {ML1[1]} of 'fv-gw' is defined twice (fv-ml1 in "
            "dns/sites/fv.yaml)") in result.stderr
    assert lab.snippets() == {}
