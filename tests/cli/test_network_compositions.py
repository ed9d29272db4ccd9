"""Addresses a template completes, under a network renumber (break-it round 16, #15).

With `networks: {10.0.40.0/24: 10.0.50.0/24}` the network literals followed (`cidrhost("10.0.40.0/24",
...)`), but Terraform's `"10.0.40.${count.index + 11}/24"`, `"10.0.40.${var.x}"`, Jinja's
`"10.0.40.{{ 10 + idx }}"`, shell's `10.0.40.$((10 + 1))` and `HOST=$PREFIX.5` beside
`PREFIX=10.0.40` kept making 10.0.40.x addresses, verify OK, while under a plain address rename
the same spellings are `composed-address` residuals. Now a literal head inside a renamed network
completed by a template is a `composed-address` residual (whatever the template gives, the address
is one of the old network), and a bare variable before any octet is expanded as `${P}.5` was.
sh and jinja2 evaluate the cases to old addresses first.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import jinja2
import pytest

from tests.testing.repos import Repo, Run

ALLOW = 'version: 1\ncurrent: ["**"]\n'
NETWORK = "version: 1\nrenames:\n  networks: {10.0.40.0/24: 10.0.50.0/24}\nallowlist: allow.yaml\n"

CASES = [
    pytest.param({"tf/main.tf": 'resource "terraform_data" "vm" {\n  count = 3\n'
                                '  input = "10.0.40.${count.index + 11}/24"\n}\n'}, "tf/main.tf", 3, id="count-index"),
    pytest.param({"tf/m.tf": 'variable "x" { default = 11 }\noutput "o" { value = "10.0.40.${var.x}" }\n'},
                 "tf/m.tf", 2, id="terraform-variable"),
    pytest.param({"vars.yml": 'idx: 1\nansible_host: "10.0.40.{{ 10 + idx }}"\n'}, "vars.yml", 2,
                 id="jinja-arithmetic"),
    pytest.param({"ping.sh": "#!/bin/sh\nping -c1 10.0.40.$((10 + 1))\n"}, "ping.sh", 2, id="shell-arithmetic"),
    pytest.param({"a.env": "PREFIX=10.0.40\nHOST=$PREFIX.5\n"}, "a.env", 2, id="bare-prefix-variable"),
    pytest.param({"b.sh": "OCT=7\nssh root@10.0.40.$OCT\n"}, "b.sh", 2, id="bare-octet-variable"),
    pytest.param({"c.tf": 'locals { ip = "10.0.40.%{if true}11%{endif}" }\n'}, "c.tf", 1, id="terraform-directive"),
    # a one-line variable block's default is a definition too (it was read only on the lines below)
    pytest.param({"d.tf": 'variable "prefix" { default = "10.0.40" }\noutput "a" { value = "${var.prefix}.5" }\n'},
                 "d.tf", 2, id="one-line-variable-default"),
]


def test_a_one_line_variable_default_makes_an_old_address_under_a_plain_rename_too(repo: Repo, run: Run) -> None:
    config = "version: 1\nrenames:\n  addresses: {10.0.40.5: 10.0.50.5}\nallowlist: allow.yaml\n"
    text = 'variable "prefix" { default = "10.0.40" }\noutput "a" { value = "${var.prefix}.5" }\n'
    root = repo({"d.tf": text}, config=config, allowlist=ALLOW)
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert [(f["line"], f["reason"], f["old"]) for f in found] == [(2, "composed-address", "10.0.40.5")]
    assert "`prefix` is 10.0.40 at d.tf:1" in found[0]["note"]


@pytest.mark.parametrize(("files", "path", "line"), CASES)
def test_a_head_in_a_renamed_network_completed_by_a_template_is_a_residual(
        files: dict[str, str], path: str, line: int, repo: Repo, run: Run) -> None:
    root = repo(files, config=NETWORK, allowlist=ALLOW)
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    # The prefix value itself (`PREFIX=10.0.40`, `default = "10.0.40"`) is a residual of its own
    # (break-it round 21: the guard for every composer, prefix_values.py).
    prefixes = [(path, 1, "prefix")] if ("PREFIX=10.0.40" in files[path] or '"10.0.40"' in files[path]) else []
    assert [(f["path"], f["line"], f["reason"]) for f in found] == sorted([(path, line, "composed-address"),
                                                                             *prefixes], key=lambda t: t[1])
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / path).read_text() == files[path]  # nothing written into the word


def test_sh_and_jinja_make_old_addresses_of_the_cases(tmp_path: Path) -> None:
    shell = subprocess.run(["sh", "-c", "PREFIX=10.0.40; OCT=7; echo $PREFIX.5 10.0.40.$((10 + 1)) 10.0.40.$OCT"],
                           capture_output=True, text=True, check=True).stdout.split()
    assert shell == ["10.0.40.5", "10.0.40.11", "10.0.40.7"]
    assert jinja2.Template("10.0.40.{{ 10 + idx }}").render(idx=1) == "10.0.40.11"


def test_the_note_says_what_the_new_head_is(repo: Repo, run: Run) -> None:
    root = repo({"ping.sh": "ping 10.0.40.${N}\n"}, config=NETWORK, allowlist=ALLOW)
    done = run(root, "verify")
    assert done.exit_code == 1
    assert "ping.sh:1:6: residual (composed-address): 10.0.40.0/24 -> 10.0.50.0/24" in done.stdout
    assert "the new network's is `10.0.50.`" in done.stdout


@pytest.mark.parametrize("text", [
    pytest.param("ping 10.0.41.${N}\n", id="another-network"),
    pytest.param("ping 10.0.40.${N}  # renamer: keep the old lab's scan\n", id="a-kept-line"),
    pytest.param("echo ${HOME}.5 $HOME.txt\n", id="no-address"),
])
def test_what_makes_no_address_of_the_network_is_left(text: str, repo: Repo, run: Run) -> None:
    root = repo({"f.sh": text}, config=NETWORK, allowlist=ALLOW)
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert found == []
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "f.sh").read_text() == text


def test_a_head_wider_than_the_network_with_an_unknown_value_is_a_residual(repo: Repo, run: Run) -> None:
    """`10.0.${var.third}.5` around 10.0.40.0/24 with `var.third` defined nowhere: this test required
    silence (the head does not prove the address is the network's), yet nothing proves it is not,
    and DESIGN has renamer report what it cannot prove (issue 33, f25 item 1): a residual saying so."""
    text = 'ip = "10.0.${var.third}.5"\n'
    root = repo({"f.tf": text}, config=NETWORK, allowlist=ALLOW)
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert [(f["path"], f["line"], f["reason"], f["old"], f["new"]) for f in found] == [
        ("f.tf", 1, "composed-address", "10.0.40.0/24", "10.0.50.0/24")]
    assert "a template whose value renamer cannot tell" in found[0]["note"]
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "f.tf").read_text() == text


def test_a_composition_evaluated_keeps_its_own_note(repo: Repo, run: Run) -> None:
    """`10.0.40.{{ octet }}` with `octet: 7`: the composition's evaluation names the definition."""
    root = repo({"v.yml": 'ip: "10.0.40.{{ octet }}"\noctet: 7\n'}, config=NETWORK, allowlist=ALLOW)
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert [(f["reason"], f["old"]) for f in found] == [("composed-address", "10.0.40.7")]


SUBNET_TF = 'locals {\n  lan = cidrsubnet("10.0.0.0/16", 8, 40)\n  other = cidrsubnet("10.0.0.0/16", 8, 41)\n}\n'


def test_a_subnet_computed_inside_a_renamed_network_is_a_residual(repo: Repo, run: Run, tmp_path: Path) -> None:
    """`cidrsubnet("10.0.0.0/16", 8, 40)` is the renamed 10.0.40.0/24 (terraform console says so); the
    /16 literal does not move, so the subnet would stay the old network."""
    console = subprocess.run(["terraform", "console"], input='cidrsubnet("10.0.0.0/16", 8, 40)\n', cwd=tmp_path,
                             capture_output=True, text=True, check=True)
    assert console.stdout.strip() == '"10.0.40.0/24"'
    root = repo({"main.tf": SUBNET_TF}, config=NETWORK, allowlist=ALLOW)
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert [(f["line"], f["reason"], f["old"], f["new"]) for f in found] == [
        (2, "composed-address", "10.0.40.0/24", "10.0.50.0/24")]
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "main.tf").read_text() == SUBNET_TF


def test_a_subnet_of_a_renamed_literal_network_follows_it(repo: Repo, run: Run) -> None:
    config = "version: 1\nrenames:\n  networks: {10.0.0.0/16: 10.1.0.0/16}\nallowlist: allow.yaml\n"
    root = repo({"main.tf": SUBNET_TF}, config=config, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "main.tf").read_text() == SUBNET_TF.replace("10.0.0.0/16", "10.1.0.0/16")
    assert run(root, "verify").exit_code == 0
