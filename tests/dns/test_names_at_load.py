"""A name that reads as an address is never a host name (RFC 1123 2.1, RFC 3696 2): a host, an
alias or a retired name that is all digits (`12345`) or what inet_aton reads as an address
(`0x1f`), and a domain whose last label is all digits, are refused at load, exit 2, one line
naming file, line and key, nothing written. Digits elsewhere are fine: real dnsmasq serves them."""

from __future__ import annotations

import pytest

from tests.testing.resolvers import Lab, addresses, dns

TWO = ("ns-ana", "ns-fv")
DIGITS = ("all digits (or hex, 0x...), it reads as an address, never a host name (RFC 1123 2.1, "
          "RFC 3696 2); give it a letter")
LAST = "its last label is all digits, so it reads as an address, never a host name (RFC 1123 2.1, RFC 3696 2)"


def _edit(lab: Lab, site: str, old: str, new: str) -> None:
    path = lab.inventory / "sites" / f"{site}.yaml"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


@pytest.mark.parametrize("site, old, new, message", [
    pytest.param("fv", "name: fv-ml1\n", "name: \"12345\"\n",
                 f"fv.yaml:5: hosts[0].name: invalid host name '12345': {DIGITS}", id="host-all-digits"),
    pytest.param("fv", "name: fv-gw\n", "name: \"0x1f\"\n",
                 f"fv.yaml:12: hosts[2].name: invalid host name '0x1f': {DIGITS}", id="host-hex"),
    pytest.param("fv", "aliases: [scriberr]", "aliases: [scriberr, \"4711\"]",
                 f"fv.yaml:8: hosts[0].aliases[1]: invalid alias '4711': {DIGITS}", id="alias-all-digits"),
    pytest.param("ana", "retired: [ana-ml2,", "retired: [\"250\", ana-ml2,",
                 f"ana.yaml:10: retired[0]: invalid retired name '250': {DIGITS}", id="retired-all-digits"),
    pytest.param("fv", "domain: fv.lan", "domain: fv.251",
                 f"fv.yaml:2: domain: invalid domain 'fv.251': {LAST}", id="domain-numeric-top"),
    pytest.param("fv", "domain: fv.lan", "domain: 10.251.0.1",
                 f"fv.yaml:2: domain: invalid domain '10.251.0.1': {LAST}", id="domain-an-address"),
    pytest.param("fv", "domain: fv.lan", "domain: fv..lan",
                 "fv.yaml:2: domain: invalid domain 'fv..lan' (RFC 1123: an empty label)", id="domain-empty-label"),
    pytest.param("fv", "domain: fv.lan", "domain: \"\"",
                 "fv.yaml:2: domain: invalid domain '': empty host name", id="domain-empty"),
    pytest.param("fv", "domain: fv.lan", "domain: " + ".".join(c * 60 for c in "abcde") + ".lan",
                 "fv.yaml:2: domain: invalid domain '" + "a" * 58 + "…: host name longer than 253 characters",
                 id="domain-too-long"),
    pytest.param("fv", "name: fv-ml1\n", "name: fv-ml1.\n",
                 "fv.yaml:5: hosts[0].name: invalid host name 'fv-ml1.': one DNS label", id="host-trailing-dot"),
])
def test_a_name_that_reads_as_an_address_is_refused_at_load(run, pair: Lab, site: str, old: str, new: str,  # type: ignore[no-untyped-def]
                                                            message: str) -> None:
    _edit(pair, site, old, new)
    for command in (("apply", "--resolvers", "all"), ("plan", "--resolvers", "all"), ("render",)):
        result = dns(run, pair, *command)
        assert result.exit_code == 2, result.stdout + result.stderr
        assert result.stdout == ""
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"renamer: error: dns/sites/{message}"), result.stderr
    assert pair.snippets() == {} and not (pair.root / "backups").exists()


def test_digits_inside_names_are_served(run, pair: Lab) -> None:
    """Not over-refused: a label starting with a digit, a digit-only label inside the domain, and
    the domain's absolute form (a final dot) load, and dnsmasq serves them."""
    _edit(pair, "fv", "name: fv-gw\n", "name: 3com-gw\n")
    _edit(pair, "fv", "aliases: [scriberr]", "aliases: [scriberr, 4u]")
    _edit(pair, "fv", "domain: fv.lan", "domain: fv.251.lan.")
    applied = dns(run, pair, "apply", "--resolvers", "all")
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    assert set(addresses(pair, "3com-gw.fv.251.lan.").values()) == {("10.251.0.1",)}
    assert set(addresses(pair, "4u.fv.251.lan.").values()) == {("10.251.50.54",)}
