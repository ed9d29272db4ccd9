"""A template whose value renamer cannot tell, completing a head wider than a moved network (issue
33, f25 item 1).

`10.0.48.${count.index + 9}`, `10.0.48.{{ item + 9 }}` and `10.0.48.$((i+9))` around 10.0.48.0/28
were silent under every move of that network (verify OK, sweep 0), and an existing test required
the silence for `10.0.${var.third}.5` around a /24: the head `10.0.48.` names 10.0.48.0/24, wider
than the network, so it does not prove the address is the network's. Nor does anything prove it is
not, and a shrink to /29 leaves 10.0.48.9 and up with no place: terraform, sh and jinja2 below make
exactly those. DESIGN: what renamer cannot prove, it reports. Each is now a `composed-address`
residual saying why; a grow in place (every address stays) and a literal tail no address of the
network ends with (`10.0.${x}.200` around a /28) say nothing; a composition whose values are known
is decided by them, as before.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import jinja2
import pytest

from tests.testing.findings import networks_config as _config
from tests.testing.repos import Repo, Run, snapshot

ALLOW = 'version: 1\ncurrent: ["**"]\n'

FILES = {
    "tf/main.tf": 'resource "terraform_data" "vm" {\n  count = 3\n  input = "10.0.48.${count.index + 9}/28"\n}\n',
    "play.yml": '- command: ping -c1 10.0.48.{{ item + 9 }}\n  loop: "{{ groups.lab }}"\n',
    "ping.sh": "#!/bin/sh\nfor i in $(seq 3); do ping -c1 10.0.48.$((i+9)); done\n",
}
WHERE = [("ping.sh", 2, 32), ("play.yml", 1, 21), ("tf/main.tf", 3, 12)]


def test_the_tools_make_addresses_a_shrink_to_29_cannot_place(tmp_path: Path) -> None:
    console = subprocess.run(["terraform", "console"], input='[for i in range(3) : "10.0.48.${i + 9}"]\n',
                             cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    assert '"10.0.48.9"' in console and '"10.0.48.11"' in console, console
    shell = subprocess.run(["sh", "-c", "for i in $(seq 3); do echo 10.0.48.$((i+9)); done"],
                           capture_output=True, text=True, check=True).stdout.split()
    assert shell == ["10.0.48.10", "10.0.48.11", "10.0.48.12"]
    assert jinja2.Template("10.0.48.{{ item + 9 }}").render(item=3) == "10.0.48.12"


@pytest.mark.parametrize("networks", [
    pytest.param("10.0.48.0/28: 10.0.48.0/29", id="shrink-in-place"),
    pytest.param("10.0.48.0/28: 10.0.49.0/29", id="shrink-elsewhere"),
    pytest.param("10.0.48.0/28: 10.0.49.0/28", id="equal-length"),
    pytest.param("10.0.48.0/28: 10.0.64.0/27", id="grow-elsewhere"),
])
def test_an_unknown_value_in_a_moved_network_is_a_residual_with_why(networks: str, repo: Repo, run: Run) -> None:
    root = repo(FILES, config=_config(networks), allowlist=ALLOW)
    verified = run(root, "verify", "--format", "json")
    assert verified.exit_code == 1, verified.stdout
    found = json.loads(verified.stdout)["findings"]
    assert [(f["path"], f["line"], f["column"], f["reason"]) for f in found] == [
        (path, line, column, "composed-address") for path, line, column in WHERE], found
    old, new = networks.split(": ")
    for finding in found:
        assert (finding["old"], finding["new"]) == (old, new)
        assert "a template whose value renamer cannot tell" in finding["note"], finding
        assert f"may make an address of {old}" in finding["note"], finding
    before = snapshot(root)
    dry = run(root, "sweep", "--dry-run", "--strict")
    assert dry.exit_code == 1, dry.stdout + dry.stderr
    assert "3 references left for a decision" in dry.stderr
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert snapshot(root) == before  # nothing written into a template's word


def test_a_grow_in_place_moves_no_address_so_nothing_to_say(repo: Repo, run: Run) -> None:
    root = repo({k: v for k, v in FILES.items() if k != "tf/main.tf"},
                config=_config("10.0.48.0/28: 10.0.48.0/27"), allowlist=ALLOW)
    assert json.loads(run(root, "verify", "--format", "json").stdout)["findings"] == []
    assert run(root, "sweep", "--commit").exit_code == 0


@pytest.mark.parametrize(("text", "said"), [
    pytest.param('ip = "10.0.${var.third}.5"\n', True, id="tail-of-the-network"),
    pytest.param('ip = "10.0.${var.third}.200"\n', False, id="tail-no-address-of-the-network-ends-with"),
    pytest.param("for k in 200 201; do ping 10.0.48.$k; done\n", False, id="known-values-outside"),
    pytest.param("for k in 3 4; do ping 10.0.48.$k; done\n", False, id="known-values-kept-in-place"),
])
def test_what_the_tail_or_the_values_rule_out_is_left(text: str, said: bool, repo: Repo, run: Run) -> None:
    root = repo({"f.sh": text}, config=_config("10.0.48.0/28: 10.0.48.0/29"), allowlist=ALLOW)
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert [f["reason"] for f in found] == (["composed-address"] if said else []), found
