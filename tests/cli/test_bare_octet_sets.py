"""An address set written as one address then bare last octets (t31 sweep finding 14; issue 27
item 2, ranges and sets in every dress): `10.0.0.70/71/72`, `10.0.0.70,71,72`, `10.0.0.70 & 71`,
`10.0.0.70+71`, `10.0.0.70|71|72`, `10.0.0.70, 71 and 72` had the first member rewritten to the
new /24 and the bare tails then read there (machines that did not move). Each is a residual
`range` now, as `10.0.0.70/.71` and `web01/02/03` were, and the file is left byte for byte; a
prefix length, a port and a table's next cell are no set."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.testing.repos import CURRENT_ALL, Repo, Run

CONFIG = """\
version: 1
renames:
  addresses: {10.0.0.70: 10.0.1.70}
allowlist: allow.yaml
"""


def _range_lines(run: Run, root: Path) -> tuple[int, set[tuple[str, int]]]:
    done = run(root, "verify", "--strict", "--format", "json")
    found = json.loads(done.stdout)["findings"]
    return done.exit_code, {(f["path"], f["line"]) for f in found if f["reason"] == "range"}


@pytest.mark.parametrize(("rel", "data", "lines"), [
    pytest.param("RUNBOOK.md", b"a 10.0.0.70/71/72 are the web VIP set.\nb 10.0.0.70,71,72 is the pool.\n"
                 b"c 10.0.0.70 & 71 first.\nd 10.0.0.70+71 together.\ne 10.0.0.70|71|72 answer on 443.\n"
                 b"h 10.0.0.70, 71 and 72 host the site.\n", {1, 2, 3, 4, 5, 6}, id="repro-14"),
    pytest.param("keepalived.conf", b"# VIPs 10.0.0.70/71/72\nvip=10.0.0.90\n", {1}, id="comment-of-a-config"),
    # variants of our own: CRLF, a BOM, Latin-1 prose, code spans, a YAML comment, quotes, `or`
    pytest.param("notes.txt", b"\xef\xbb\xbfpool 10.0.0.70/71\r\nweb 10.0.0.70 , 71 , 72\r\n", {1, 2},
                 id="crlf-bom"),
    pytest.param("notes-latin1.txt", "r\u00e9serv\u00e9es : 10.0.0.70+71+72 (caf\u00e9)\n".encode("latin-1"),
                 {1}, id="latin-1"),
    pytest.param("README.md", b"The VIPs `10.0.0.70`/`71`/`72` float.\n", {1}, id="code-spans"),
    pytest.param("vars.yml", b"vip: 10.0.0.90  # was 10.0.0.70, 71 or 72\n", {1}, id="yaml-comment-or"),
    pytest.param("run.sh", b"echo 'pool 10.0.0.70&71'\n", {1}, id="shell-string-amp"),
])
def test_an_address_set_with_bare_last_octets_is_held(repo: Repo, run: Run, rel: str, data: bytes,
                                                       lines: set[int]) -> None:
    root = repo({rel: data}, config=CONFIG, allowlist=CURRENT_ALL)
    code, found = _range_lines(run, root)
    assert code == 1 and found == {(rel, n) for n in lines}, found
    assert run(root, "sweep", "--commit").exit_code == 1  # residuals left for a decision
    assert (root / rel).read_bytes() == data
    assert _range_lines(run, root) == (1, {(rel, n) for n in lines})


@pytest.mark.parametrize(("text", "after"), [
    pytest.param("address 10.0.0.70/24\n", "address 10.0.1.70/24\n", id="a-prefix-length"),
    pytest.param("address 10.0.0.70/31\n", "address 10.0.1.70/31\n", id="a-point-to-point-prefix"),
    pytest.param("web,10.0.0.70,443,tcp\n", "web,10.0.1.70,443,tcp\n", id="a-csv-port"),
    pytest.param("backend 10.0.0.70,80\n", "backend 10.0.1.70,80\n", id="one-number-after-a-comma"),
    pytest.param("| web01 | 10.0.0.70 | 24 | 20 |\n", "| web01 | 10.0.1.70 | 24 | 20 |\n", id="table-cells"),
    pytest.param("|web01|10.0.0.70|24|1500|\n", "|web01|10.0.1.70|24|1500|\n", id="tight-table-mtu"),
    pytest.param("see 10.0.0.70 and 12 more\n", "see 10.0.1.70 and 12 more\n", id="a-count"),
    pytest.param("two 10.0.0.70, 10.0.0.71\n", "two 10.0.1.70, 10.0.0.71\n", id="two-whole-addresses"),
])
def test_noop_what_is_no_bare_octet_set_is_rewritten(repo: Repo, run: Run, text: str, after: str) -> None:
    root = repo({"n.txt": text}, config=CONFIG, allowlist=CURRENT_ALL)
    assert _range_lines(run, root)[1] == set()
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "n.txt").read_text() == after
    assert run(root, "verify", "--strict").exit_code == 0
