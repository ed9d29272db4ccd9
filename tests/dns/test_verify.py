"""The comparison behind dns verify, with a fake querier (pure logic; real dnsmasq in test_dns.py)."""

from __future__ import annotations

import ipaddress

import pytest

from renamer.dns.answers import Answer, Expectation, NoAnswer
from renamer.dns.inventory import Host, Inventory, Resolver, Site
from renamer.dns.verify import judge, verify_resolver

SITE = Site("fv", "fv.lan", ipaddress.ip_network("10.251.0.0/16"),
            (Host("fv-ml1", ipaddress.ip_address("10.251.50.54"), aliases=("scriberr",)),),
            ("old-box",), "dns/sites/fv.yaml")
RESOLVER = Resolver("ns", ipaddress.ip_address("127.0.0.1"), 53, "local", "/s", "/b", ("true",),
                    ("true",), ("fv",), ("fv",), timeout=0.1)
INVENTORY = Inventory(None, (SITE,), (RESOLVER,))  # type: ignore[arg-type]
A = Expectation("fv-ml1 A", "fv-ml1.", "A", ("10.251.50.54",))
ALIAS = Expectation("scriberr CNAME", "scriberr.", "A", ("10.251.50.54",), via=("fv-ml1.", "fv-ml1.fv.lan."))
GONE = Expectation("old-box gone", "old-box.", "A", ("NXDOMAIN",))
# a transitional alias across zones on BIND (dns/transition.py): the CNAME alone does too
ACROSS = Expectation("ana-ml2.ana.lan CNAME", "ana-ml2.ana.lan.", "A", ("10.251.50.54",), via=("fv-ml1.fv.lan.",),
                     target_optional=True)


@pytest.mark.parametrize("expectation, answer, ok, got", [
    pytest.param(A, Answer("NOERROR", (("A", "10.251.50.54"),)), True, "10.251.50.54", id="right"),
    pytest.param(A, Answer("NOERROR", (("A", "10.250.50.54"),)), False, "10.250.50.54", id="wrong-address"),
    pytest.param(A, Answer("NOERROR", (("A", "10.251.50.54"), ("A", "10.1.1.1"))), False,
                 "10.251.50.54 -> 10.1.1.1", id="extra-address"),
    pytest.param(A, Answer("NXDOMAIN"), False, "NXDOMAIN", id="missing"),
    pytest.param(A, Answer("REFUSED"), False, "REFUSED", id="refused"),
    pytest.param(A, Answer("NOERROR"), False, "no records (NODATA)", id="nodata"),
    pytest.param(A, Answer("NOERROR", (("CNAME", "x."), ("A", "10.251.50.54"))), False,
                 "x. -> 10.251.50.54", id="unexpected-cname"),
    pytest.param(ALIAS, Answer("NOERROR", (("CNAME", "fv-ml1."), ("A", "10.251.50.54"))), True,
                 "fv-ml1. -> 10.251.50.54", id="alias"),
    pytest.param(ALIAS, Answer("NOERROR", (("A", "10.251.50.54"),)), False, "10.251.50.54",
                 id="alias-without-cname"),
    pytest.param(ALIAS, Answer("NOERROR", (("CNAME", "other."), ("A", "10.251.50.54"))), False,
                 "other. -> 10.251.50.54", id="alias-to-other-host"),
    pytest.param(ACROSS, Answer("NOERROR", (("CNAME", "fv-ml1.fv.lan."),)), True, "fv-ml1.fv.lan.",
                 id="across-zones-cname-alone"),
    pytest.param(ACROSS, Answer("NOERROR", (("CNAME", "fv-ml1.fv.lan."), ("A", "10.251.50.54"))), True,
                 "fv-ml1.fv.lan. -> 10.251.50.54", id="across-zones-followed"),
    pytest.param(ACROSS, Answer("NOERROR", (("CNAME", "fv-ml1.fv.lan."), ("A", "10.9.9.9"))), False,
                 "fv-ml1.fv.lan. -> 10.9.9.9", id="across-zones-wrong-address"),
    pytest.param(ACROSS, Answer("NOERROR", (("CNAME", "ana-nas.ana.lan."),)), False, "ana-nas.ana.lan.",
                 id="across-zones-elsewhere"),
    pytest.param(ACROSS, Answer("NOERROR", (("A", "10.251.50.54"),)), False, "10.251.50.54",
                 id="across-zones-no-cname"),
    pytest.param(ACROSS, Answer("NXDOMAIN"), False, "NXDOMAIN", id="across-zones-missing"),
    pytest.param(GONE, Answer("NXDOMAIN"), True, "NXDOMAIN", id="retired-gone"),
    pytest.param(GONE, Answer("NOERROR", (("A", "10.250.50.54"),)), False, "10.250.50.54",
                 id="retired-still-answers"),
    pytest.param(GONE, Answer("REFUSED"), False, "REFUSED", id="retired-refused"),
])
def test_judge(expectation: Expectation, answer: Answer, ok: bool, got: str) -> None:
    check = judge(expectation, answer)
    assert (check.ok, check.got) == (ok, got)


def test_dead_resolver_is_reported_once() -> None:
    calls = []

    def dead(name: str, rdtype: str) -> Answer:
        calls.append(name)
        raise NoAnswer("timeout")

    report = verify_resolver(INVENTORY, RESOLVER, dead)
    assert report.unreachable == "ns 127.0.0.1:53: no answer in 0.1 s"
    assert calls == ["_renamer.fv.fv.lan."] and not report.ok  # the canary is asked first


def test_every_expected_check_is_asked() -> None:
    asked = []

    def record(name: str, rdtype: str) -> Answer:
        asked.append((name, rdtype))
        return Answer("NXDOMAIN")

    verify_resolver(INVENTORY, RESOLVER, record)
    assert asked == [("_renamer.fv.fv.lan.", "TXT"), ("fv-ml1.", "A"), ("fv-ml1.", "AAAA"),
                     ("fv-ml1.fv.lan.", "A"), ("fv-ml1.fv.lan.", "AAAA"), ("54.50.251.10.in-addr.arpa.", "PTR"),
                     ("scriberr.", "A"), ("scriberr.", "AAAA"), ("scriberr.fv.lan.", "A"),
                     ("scriberr.fv.lan.", "AAAA"), ("old-box.", "A"), ("old-box.", "AAAA"),
                     ("old-box.fv.lan.", "A"), ("old-box.fv.lan.", "AAAA")]


@pytest.mark.parametrize("target, ok", [
    pytest.param("fv-ml1.fv.lan.", True, id="fqdn-target"),
    pytest.param("fv-ml1.", False, id="one-label-target-breaks-behind-a-forwarder"),
    pytest.param("other.fv.lan.", False, id="another-name"),
])
def test_an_alias_must_point_at_the_fqdn(target: str, ok: bool) -> None:
    """What verify expects of an alias: a CNAME to the host's FQDN, which a forwarding resolver
    (Unbound, Pi-hole) that forwards only the site's domain can still resolve."""
    from renamer.dns.verify import expectations

    aliases = [e for e in expectations(INVENTORY, RESOLVER) if e.label.startswith("scriberr")]
    assert [e.via for e in aliases] == [("fv-ml1.fv.lan.",)] * 4  # A and AAAA (none) of both names
    answer = Answer("NOERROR", (("CNAME", target), ("A", "10.251.50.54")))
    assert all(judge(e, answer).ok is ok for e in aliases if e.rdtype == "A")
    nodata = Answer("NOERROR", (("CNAME", target),))  # the v4-only host's AAAA: the CNAME alone
    assert all(judge(e, nodata).ok is ok for e in aliases if e.rdtype == "AAAA")


NO_AAAA = Expectation("scriberr CNAME AAAA", "scriberr.", "AAAA", ("none",), via=("fv-ml1.fv.lan.",))


@pytest.mark.parametrize("answer, ok, got", [
    pytest.param(Answer("NOERROR", (("CNAME", "fv-ml1.fv.lan."),)), True, "fv-ml1.fv.lan.", id="cname-alone"),
    pytest.param(Answer("NOERROR", (("CNAME", "fv-ml1.fv.lan."), ("AAAA", "fd00::98"))), False,
                 "fv-ml1.fv.lan. -> fd00::98", id="host-has-a-stray-aaaa"),
    pytest.param(Answer("NOERROR", (("AAAA", "fd00::99"),)), False, "fd00::99", id="stray-aaaa-no-cname"),
    pytest.param(Answer("NOERROR"), False, "no records", id="no-cname"),
    pytest.param(Answer("NXDOMAIN"), False, "NXDOMAIN", id="nxdomain"),
    pytest.param(Answer("NOERROR", (("CNAME", "other.fv.lan."),)), False, "other.fv.lan.", id="other-target"),
])
def test_an_alias_of_a_one_family_host_answers_none_of_the_other(answer: Answer, ok: bool, got: str) -> None:
    """DNS break-it round 2, finding 03: an alias's other family is asked too: the CNAME to its
    host and no record of the type."""
    check = judge(NO_AAAA, answer)
    assert (check.ok, check.got) == (ok, got)
    either = judge(Expectation("x", "scriberr.", "AAAA", ("none",), via=("fv-ml1.fv.lan.",), via_optional=True),
                   Answer("NOERROR"))
    assert either.ok  # a forwarder in front of a mixed fleet: no CNAME is fine too
