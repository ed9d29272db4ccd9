"""An old host name as a label of a Service's DNS name (sweep/kube_labels.py): which labels are
occurrences, beside the matches the plain rules found."""

from __future__ import annotations

import pytest

from renamer.kube_identities import Services
from renamer.occurrences import Match
from renamer.sweep.kube_labels import label_matches

KNOWN = Services(pairs={("api", "pug"), ("pug", "db")}, namespaces={"pug", "db"}, affixes={("prod-", "-v2"), ("", "-x")})


@pytest.mark.parametrize(("text", "expected"), [
    pytest.param("api.pug.svc.cluster.local", ["pug"], id="namespace-label"),
    pytest.param("API.PUG.svc", ["PUG"], id="any-case"),
    pytest.param("api.pug:80 other.pug:80", ["pug"], id="short-only-of-a-service"),
    pytest.param("prod-pug-v2.db.svc pug-x.db:5432 my-pug-v2.db.svc", ["pug", "pug"], id="affixes"),
    pytest.param("mail.pug.lan pug.pug.lan", [], id="no-service-name"),
    pytest.param("api.pugs.svc pug-v2.db.svc", [], id="not-whole"),
])
def test_label_matches(text: str, expected: list[str]) -> None:
    data = text.encode()
    found = label_matches(data, [], [("pug", "wolf"), ("pug.ana.lan", "wolf.fv.lan")], KNOWN)
    assert [m.old for m in found] == expected
    assert all(m.new == "wolf" and data[m.start:m.end].decode() == m.old for m in found)


def test_a_label_the_rules_matched_is_not_added_twice() -> None:
    data = b"pug.db.svc"
    first = Match(0, 3, "pug", "wolf", "host")
    assert label_matches(data, [first], [("pug", "wolf")], KNOWN) == [first]
