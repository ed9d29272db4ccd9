"""An nsupdate script's `zone` over the names its `update` lines change (break-it round 19,
finding 17): with `pug.ana.lan -> wolf.fv.lan` the sweep wrote `update add wolf.fv.lan.` under
`zone ana.lan`, no residual (nsupdate then fails NOTZONE). Each such name is a `zone-owner`
residual, as a zone file's owner leaving its zone is; a name staying in the zone, or a zone the
renames move with it, follows."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import PUG_ALLOW as ALLOW
from tests.testing.repos import PUG_CONFIG as CONFIG

SCRIPT = ("#!/bin/sh\nnsupdate -k /etc/bind/key <<EOF\nserver 127.0.0.1\nzone ana.lan\n"
          "update delete pug.ana.lan. A\nupdate add pug.ana.lan. 3600 A 10.0.0.5\nsend\nEOF\n")


def _owners(root: Path, run: Callable[..., Result]) -> list[tuple[str, int]]:
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    return sorted((f["path"], f["line"]) for f in found if f["reason"] == "zone-owner")


@pytest.mark.parametrize(("path", "text", "lines"), [
    pytest.param("dns/update.sh", SCRIPT, [5, 6], id="heredoc"),
    pytest.param("dns/web.txt", "zone ana.lan.\nadd pug.ana.lan. 300 A 10.0.0.5\nsend\n", [2],
                 id="a-file-for-nsupdate-l-absolute-zone-bare-add"),
    pytest.param("roles/dns/templates/upd.j2", "server ns1\nzone ana.lan\nupdate add pug.ana.lan 60 A {{ ip }}\nsend\n"
                 "zone fv.lan\nupdate add pug.ana.lan 60 A {{ ip }}\nsend\n", [3], id="two-zone-blocks"),
])
def test_an_update_whose_new_name_leaves_the_zone_is_a_residual(path: str, text: str, lines: list[int],
                                                                 repo: Callable[..., Path],
                                                                 run: Callable[..., Result]) -> None:
    root = repo({path: text}, config=CONFIG, allowlist=ALLOW)
    assert _owners(root, run) == [(path, line) for line in lines]
    assert run(root, "sweep", "--commit").exit_code == 1
    written = (root / path).read_text().splitlines()
    for line in lines:  # the name stays where nsupdate can still apply it
        assert "pug.ana.lan" in written[line - 1], written


@pytest.mark.parametrize("config", [
    pytest.param(CONFIG.replace("wolf.fv.lan", "wolf.ana.lan"), id="the-new-name-stays-in-the-zone"),
    pytest.param(CONFIG.replace("pug.ana.lan: wolf.fv.lan", "pug.ana.lan: wolf.fv.lan, ana.lan: fv.lan"),
                 id="the-zone-moves-too"),
])
def test_an_update_that_stays_in_its_zone_follows(config: str, repo: Callable[..., Path],
                                                  run: Callable[..., Result]) -> None:
    root = repo({"dns/update.sh": SCRIPT}, config=config, allowlist=ALLOW)
    assert _owners(root, run) == []
    assert run(root, "sweep", "--commit").exit_code == 0
    assert "pug" not in (root / "dns/update.sh").read_text()
