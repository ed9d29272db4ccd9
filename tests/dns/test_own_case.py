"""renamer's own case (dns/own_case.py): a pure mapping, and who-asks's test of it."""

from __future__ import annotations

import pytest

from renamer.dns.own_case import is_marked, marked


@pytest.mark.parametrize(("name", "asked"), [
    ("ana-ml2.ana.lan", "AnA-mL2.aNa.LaN"),
    ("54.50.250.10.in-addr.arpa", "54.50.250.10.In-AdDr.ArPa"),
    ("KID1-PC.home.lan.", "KiD1-pC.hOmE.lAn."),
])
def test_letters_alternate_whatever_the_case_given(name: str, asked: str) -> None:
    assert marked(name) == asked
    assert marked(marked(name)) == asked
    assert is_marked(asked)


@pytest.mark.parametrize("asked", [
    "ana-ml2.ana.lan", "ANA-ML2.ANA.LAN", "Ana-ml2.ana.lan",  # as people and stub resolvers ask
    "aNa-ML2.AnA.lAN",  # randomised (DNS 0x20), not renamer's pattern
    "Ns1", "Ns1.",  # too few letters to tell: never taken for renamer's
])
def test_other_spellings_are_a_clients(asked: str) -> None:
    assert not is_marked(asked)
