"""An RFC 2317 classless reverse zone (break-it round 22, finding 16): under `$ORIGIN
64/26.0.0.10.in-addr.arpa.` (named-checkzone loads it) the owner `70` and the absolute PTR target
`web01.lab.example.` were `zone-origin` residuals saying "no $ORIGIN before it", though it stood on
line 2. They are now `classless-zone` residuals that say what the zone is and what to do; nothing
is rewritten (the parent's CNAMEs, which the sweep does not read, decide the owner)."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

ALLOW = 'version: 1\ncurrent: ["**"]\n'
CONFIG = ("version: 1\nrenames:\n  hosts: {web01.lab.example: app01.lab.example}\n"
          "  addresses: {10.0.0.70: 10.0.0.90}\nallowlist: allow.yaml\n")
ZONE = ("$TTL 300\n$ORIGIN {origin}\n@ IN SOA ns.lab.example. admin.lab.example. ( 2026010101 3600 600 86400 300 )\n"
        "  IN NS ns.lab.example.\n70 IN PTR web01.lab.example.\n")


@pytest.mark.parametrize("origin", ["64/26.0.0.10.in-addr.arpa.", "64-26.0.0.10.in-addr.arpa.",
                                    "64/26.0.0.10.IN-ADDR.ARPA. ; the web block"])
def test_a_classless_zone_says_what_it_is(origin: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    text = ZONE.replace("{origin}", origin)
    root = repo({"zones/db.10.0.0.64-26": text}, config=CONFIG, allowlist=ALLOW)
    if shutil.which("named-checkzone"):
        zone = origin.split()[0].rstrip(".")
        checked = subprocess.run(["named-checkzone", zone, str(root / "zones/db.10.0.0.64-26")],
                                 capture_output=True, text=True, check=False)
        assert checked.returncode == 0, checked.stdout  # a zone BIND loads
    planned = run(root, "sweep", "--dry-run")
    lines = [line for line in planned.stdout.splitlines() if "zones/db.10.0.0.64-26:5:" in line]
    assert len(lines) == 2, planned.stdout
    for line in lines:  # before: zone-origin, "no $ORIGIN before it"
        assert line.rstrip().endswith("(classless-zone)"), line
    # the two lines share the explanation: said once, under Why (t35 finding 23)
    assert planned.stdout.count("classless-zone: a name in an RFC 2317 classless reverse zone") == 1, planned.stdout
    assert "no $ORIGIN before it" not in planned.stdout
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 1
    assert (root / "zones/db.10.0.0.64-26").read_text() == text  # nothing rewritten that cannot be proved
    verified = run(root, "verify")
    assert verified.exit_code == 1 and "classless-zone" in verified.stdout


def test_a_zone_with_no_origin_still_says_so(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    text = ZONE.replace("$ORIGIN {origin}\n", "")
    root = repo({"zones/db.unknown": text}, config=CONFIG, allowlist=ALLOW)
    planned = run(root, "sweep", "--dry-run")
    assert "zone-origin: a relative name in a zone file whose origin is unknown" in planned.stdout, planned.stdout
    assert "classless-zone" not in planned.stdout
