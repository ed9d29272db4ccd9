"""scan.named_like: a path named by the host (a whole component, or the stem before its extensions)."""

from __future__ import annotations

import pytest

from renamer.sweep.scan import named_like


@pytest.mark.parametrize(("rel", "old", "named"), [
    ("hosts/pug/app.conf", "pug", True), ("nodes/pug.yaml.j2", "pug", True), ("pug", "pug", True),
    ("dns/pug.lab.lan.zone", "pug.lab.lan", True), ("hosts/xpug/a", "pug", False), ("hosts/a.pug", "pug", False),
    ("hosts/pugx/a", "pug", False)])
def test_a_path_named_by_the_host(rel: str, old: str, named: bool) -> None:
    start = rel.index(old)
    assert named_like(rel, start, start + len(old)) is named
