"""DNS limits checked at load, and a rollback after any failure, asserted by what dnsmasq answers."""

from __future__ import annotations

import pytest

from renamer.dns.rollout import Rollout
from tests.testing.resolvers import addresses, dns, move_gateway

LONG_DOMAIN = ".".join(["d" * 60] * 3) + ".abcdefg"  # 190 octets: every host fits, a 63-octet alias not
@pytest.mark.parametrize("edits, where", [
    pytest.param([("domain: fv.lan", "domain: " + ".".join(["d" * 60] * 4))], "domain: the canary name",
                 id="canary-over-253"),
    pytest.param([("domain: fv.lan", "domain: " + LONG_DOMAIN), ("aliases: [scriberr]", "aliases: [" + "a" * 63 + "]")],
                 "aliases: the FQDN", id="alias-fqdn-over-253"),
    pytest.param([("aliases: [scriberr]", "aliases: [" + "a" * 63 + "]")], None, id="long-alias-fits"),
])
def test_names_over_dns_limits_are_refused_at_load(run, lab, edits: list[tuple[str, str]],  # type: ignore[no-untyped-def]
                                                   where: str | None) -> None:
    path = lab.inventory / "sites" / "fv.yaml"
    for edit in edits:
        path.write_text(path.read_text().replace(*edit))
    for command in (("render",), ("plan", "--resolvers", "all"), ("apply", "--resolvers", "all")):
        result = dns(run, lab, *command)
        if where is None:
            assert result.exit_code == 0, result.stderr
            continue
        assert result.exit_code == 2, result.stdout + result.stderr
        assert "dns/sites/fv.yaml:" in result.stderr and where in result.stderr
        assert "over DNS's 253" in result.stderr
        assert lab.snippets() == {}
    if where is None:  # the long alias is served, and its FQDN too
        assert set(addresses(lab, "a" * 63 + ".fv.lan.").values()) == {("10.251.50.54",)}


def test_any_exception_after_the_write_rolls_back(run, lab, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """B-6's class: an error that is neither a failed step nor a transport error (here a bug in
    verification) must not leave a changed resolver behind."""
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    assert set(addresses(lab, "fv-gw.fv.lan.").values()) == {("10.251.0.1",)}
    move_gateway(lab)
    calls = []

    def broken(self, resolver, outcome, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(resolver.name)
        if len(calls) == 2:
            raise ValueError("a bug in verification")

    monkeypatch.setattr(Rollout, "_verify", broken)
    result = dns(run, lab, "apply", "--resolvers", "all", "--batch-size", "3")
    assert result.exit_code != 0 and "internal error: ValueError: a bug in verification" in result.stderr
    assert set(addresses(lab, "fv-gw.fv.lan.").values()) == {("10.251.0.1",)}, "rolled back"
