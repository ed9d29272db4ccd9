"""concatenated.py's pure logic: which joins of literals spell an old value across a seam (the CLI
test, tests/cli/test_concatenated_names.py, runs the sweep and the real consumers)."""

from __future__ import annotations

import pytest

from renamer.concatenated import concatenated_matches, joins_adjacent, might_hold
from renamer.match import Matcher

MATCHER = Matcher([("ana-ml2", "fv-ml1"), ("ana-ml2.ana.lan", "fv-ml1.fv.lan")],
                  [("10.250.50.54", "10.251.50.54")])


def _joined(data: bytes, rel: str = "x.txt") -> list[tuple[bytes, str, str | None]]:
    found = concatenated_matches(data, MATCHER.find(data), MATCHER.find, MATCHER.set_needles, rel)
    return [(data[m.start:m.end], m.old, m.refused) for m in found]


@pytest.mark.parametrize(("data", "rel", "spelled", "old"), [
    (b'x = "ana-" + "ml2"', "x.js", b'"ana-" + "ml2', "ana-ml2"),
    (b"x = 'ana-m' + 'l2'", "x.py", b"ana-m' + 'l2", "ana-ml2"),
    (b'h = "10.250." + "50.54"', "x.go", b'10.250." + "50.54', "10.250.50.54"),
    (b'h = ("ana-"\n     "ml2")', "x.py", b'ana-"\n     "ml2', "ana-ml2"),
    (b'h = "ana-" "ml2";', "x.c", b'ana-" "ml2', "ana-ml2"),
    (b'a = "ana-${"ml2"}"', "x.tf", b'ana-${"ml2', "ana-ml2"),
    (b'a = "#{"ana"}-ml2"', "x.rb", b'ana"}-ml2', "ana-ml2"),
    (b"a: \"{{ 'ana-' ~ 'ml2' }}\"", "x.yaml", b"ana-' ~ 'ml2", "ana-ml2"),
    (b"a: ana-{{ 'ml2' }}", "x.j2", b"ana-{{ 'ml2", "ana-ml2"),
    (b'local h = "ana-" .. "ml2"', "x.lua", b'ana-" .. "ml2', "ana-ml2"),
    (b'$h = "ana-" . "ml2";', "x.php", b'ana-" . "ml2', "ana-ml2"),
    (b'u = "ana-ml2" + ".ana.lan"', "x.py", b'ana-ml2" + ".ana.lan', "ana-ml2.ana.lan"),  # the FQDN wins
])
def test_a_join_spelling_an_old_value_is_split(data: bytes, rel: str, spelled: bytes, old: str) -> None:
    found = [hit for hit in _joined(data, rel) if hit[2] == "split"]
    assert [(hit[0].lstrip(b'"'), hit[1]) for hit in found] == [(spelled.lstrip(b'"'), old)]


@pytest.mark.parametrize(("data", "rel"), [
    (b'echo "ana-" "ml2"', "x.sh"),  # two words in a shell
    (b'{"parts": ["ana-", "ml2"]}', "x.json"),
    (b'print("ana-", "ml2")', "x.py"),
    (b'x = "ana-" + suffix', "x.py"),
    (b'x = "ana-ml2" + ":22"', "x.py"),  # whole in one literal: the exact matcher's
    (b'x = "fv-" + "ml2"', "x.py"),
    (b"Run `ana-` + `ml2` by hand", "README.md"),  # two code spans in prose
])
def test_no_join_or_no_old_value_across_a_seam(data: bytes, rel: str) -> None:
    assert all(refused != "split" for _, _, refused in _joined(data, rel))


def test_the_prefilter_and_the_adjacent_languages() -> None:
    assert might_hold(b'"ana-" + "ml2"', MATCHER.set_needles)
    assert not might_hold(b"ana-ml2 plain", MATCHER.set_needles)
    assert not might_hold(b'"web" + "01"', MATCHER.set_needles)
    assert joins_adjacent("a/b.py") and joins_adjacent("x.h") and not joins_adjacent("run.sh")
