"""An FQDN renamed alone (`pug.ana.lan -> wolf.fv.lan`, no `pug`): its derived names keep its
domain (`pug-ipmi.ana.lan`, a BMC beside the host) and are listed as candidates, never renamed,
whatever `derived_names` says (no one new name is certain for them); break-it round 17, #20
(onedr0p/home-ops' `expanse-ipmi.internal` beside `expanse.internal`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

ALLOW = 'version: 1\ncurrent: ["**"]\n'
PROBES = ("targets:\n  - pug.ana.lan\n  - pug-ipmi.ana.lan\n  - https://pug-bmc.ana.lan:623/\n"
          "  - PUG-KVM.ANA.LAN\n  - pug-ipmi.ana.lan.example.org\n  - pug-x.ana.lanx\n  - xpug-ipmi.ana.lan\n")


def _config(derived: bool, short: bool = False) -> str:
    hosts = "{pug.ana.lan: wolf.fv.lan" + (", pug: wolf" if short else "") + "}"
    return (f"version: 1\nrenames:\n  hosts: {hosts}\noptions: {{derived_names: {str(derived).lower()}}}\n"
            "allowlist: allow.yaml\n")


@pytest.mark.parametrize("derived", [False, True], ids=["derived-off", "derived-on"])
def test_an_fqdn_s_derived_names_are_candidates_and_never_renamed(derived: bool, repo: Callable[..., Path],
                                                                  run: Callable[..., Result]) -> None:
    root = repo({"probes.yaml": PROBES}, config=_config(derived), allowlist=ALLOW)
    dry = run(root, "sweep", "--dry-run")
    assert dry.exit_code == 0, dry.stdout
    assert "Derived-name candidates, not renamed (2;" in dry.stdout, dry.stdout
    assert "  pug-ipmi.ana.lan: 1 (first at probes.yaml:3:5)" in dry.stdout
    assert "  pug-bmc.ana.lan: 1 (first at probes.yaml:4:13)" in dry.stdout
    assert "pug-x.ana.lanx" not in dry.stdout and "xpug" not in dry.stdout  # another domain, another name
    assert "pug-ipmi.ana.lan.example.org" not in dry.stdout.split("Derived-name candidates")[1]
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "probes.yaml").read_text() == PROBES.replace("  - pug.ana.lan\n", "  - wolf.fv.lan\n")
    found = json.loads(run(root, "verify", "--format", "json").stdout)
    assert found["ok"] is True  # candidates are warnings: the exact rules left nothing
    near = {(n["line"], n["text"], n["like"]) for n in found["near_misses"] if n["kind"] == "derived-name"}
    # (PUG-KVM.ANA.LAN: outside a zone or hosts file a host name is case-sensitive, DESIGN)
    assert near == {(3, "pug-ipmi.ana.lan", "pug.ana.lan"), (4, "pug-bmc.ana.lan", "pug.ana.lan")}, near


def test_with_the_short_name_mapped_its_derived_names_are_the_candidates(repo: Callable[..., Path],
                                                                         run: Callable[..., Result]) -> None:
    root = repo({"probes.yaml": PROBES}, config=_config(False, short=True), allowlist=ALLOW)
    dry = run(root, "sweep", "--dry-run").stdout
    assert "  pug-ipmi: 2 (first at probes.yaml:3:5)" in dry, dry
