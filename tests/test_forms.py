"""The spellings of an old value: the case a DNS name's new value takes (pure logic)."""

from __future__ import annotations

import pytest

from renamer.forms import case_like


@pytest.mark.parametrize(("found", "new", "expected"), (
    pytest.param("ana-ml2", "fv-ml1", "fv-ml1", id="lower-as-configured"),
    pytest.param("ANA-ML2", "fv-ml1", "FV-ML1", id="upper"),
    pytest.param("Ana-Ml2", "fv-ml1", "Fv-Ml1", id="capitalised-runs"),
    pytest.param("ANA-ml2", "fv-ml1", "FV-ml1", id="run-by-run"),
    pytest.param("Ana-ML2.ana.lan", "fv-ml1.fv.lan", "Fv-ML1.fv.lan", id="fqdn-run-by-run"),
    pytest.param("ANA-ML2.ANA.LAN", "fv-ml1.fv.lan", "FV-ML1.FV.LAN", id="fqdn-upper"),
    pytest.param("aNa-mL2", "fv-ml1", "fv-ml1", id="irregular-as-configured"),
    pytest.param("Ana-Ml2", "fvml1", "fvml1", id="other-run-count-as-configured"),
    pytest.param("ana-ml2", "FV-ml1", "FV-ml1", id="configured-case-kept-for-lower"),
    pytest.param("10.250.50.54", "10.251.50.54", "10.251.50.54", id="no-letters"),
))
def test_case_like(found: str, new: str, expected: str) -> None:
    assert case_like(found, new) == expected
