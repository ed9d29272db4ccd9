"""An address computed from a literal network and a literal number (break-it round 8, finding 8).

`cidrhost("10.0.40.0/24", 11)` and `cidrhost("10.0.40.0/28", -5)` are 10.0.40.11 to Terraform;
Ansible's `nthhost(11)`/`ipaddr(11)`/`ipmath`, Python's `ip_network(...)[11]` and
`ip_address(...) + n`, and a format whose last octet is a directive (`printf '10.0.40.%d' 11`,
`format()`, `%`, Jinja's `| format`) make it too. No byte spells the old address: the sweep
rewrote nothing and verify said OK. Each is evaluated as its tool does; one that makes an old
address is a `composed-address` residual (nothing rewritten), one whose number is not a literal
while its network holds an old address "may spell" it; a network renamed with its hosts moves the
literal and the expression follows. terraform, python and printf evaluate the cases themselves.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import jinja2
import pytest

from tests.conftest import Result

CONFIG = """\
version: 1
renames:
  addresses: {10.0.40.11: 10.0.50.21}
allowlist: allow.yaml
"""
NETWORKS = """\
version: 1
renames:
  networks: {10.0.40.0/24: 10.0.50.0/24}
allowlist: allow.yaml
"""
ALLOW = 'version: 1\ncurrent: ["**"]\n'
TF = """\
resource "terraform_data" "a" { input = cidrhost("10.0.40.0/24", 11) }
resource "terraform_data" "b" { input = cidrhost("10.0.40.0/28", -5) }
resource "terraform_data" "c" { input = format("10.0.40.%d", 11) }
resource "terraform_data" "d" { input = cidrhost(cidrsubnet("10.0.0.0/16", 8, 40), 11) }
output "a" { value = terraform_data.a.input }
output "b" { value = terraform_data.b.input }
output "c" { value = terraform_data.c.input }
output "d" { value = terraform_data.d.input }
"""


def _residuals(root: Path, run: Callable[..., Result]) -> list[tuple[str, int, str]]:
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    return [(str(f["path"]), int(f["line"]), str(f["reason"])) for f in found]


def _terraform_outputs(root: Path, tmp: Path) -> str:
    env = {**os.environ, "TF_CLI_CONFIG_FILE": os.devnull, "TF_IN_AUTOMATION": "1",
           "TF_DATA_DIR": str(tmp / "tf-data")}
    subprocess.run(["terraform", "init", "-input=false", "-backend=false", "-no-color"], cwd=root, env=env,
                   capture_output=True, text=True, check=True)
    planned = subprocess.run(["terraform", "plan", "-input=false", "-refresh=false", "-no-color"], cwd=root,
                             env=env, capture_output=True, text=True, check=False)
    assert planned.returncode == 0, planned.stdout + planned.stderr
    return " ".join(planned.stdout.split())


def test_terraform_computes_the_old_address_and_verify_fails(tmp_path: Path, repo: Callable[..., Path],
                                                              run: Callable[..., Result]) -> None:
    root = repo({"main.tf": TF}, config=CONFIG, allowlist=ALLOW)
    planned = _terraform_outputs(root, tmp_path)
    for name in "abcd":
        assert f'{name} = "10.0.40.11"' in planned, planned
    assert _residuals(root, run) == [("main.tf", n, "composed-address") for n in (1, 2, 3, 4)]
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "main.tf").read_text() == TF
    assert run(root, "verify", "--strict").exit_code == 1


PY = """\
import ipaddress
from ipaddress import ip_address, ip_network
print(ip_network("10.0.40.0/24")[11])
print(ipaddress.ip_network('10.0.40.0/28')[-5])
print(ip_address("10.0.40.1") + 10)
print('10.0.40.%d' % 11)
"""
SH = "#!/bin/sh\nprintf '10.0.40.%d\\n' 11\nprintf \"10.0.40.%s\\n\" 11\n"
J2 = "{{ '10.0.40.%d' | format(11) }}\n"
PLAY = ("- hosts: all\n  vars:\n    a: \"{{ '10.0.40.0/24' | ansible.utils.nthhost(11) }}\"\n"
        "    b: \"{{ '10.0.40.0/24' | ansible.utils.ipaddr(11) }}\"\n"
        "    c: \"{{ '10.0.40.0' | ansible.utils.ipmath(11) }}\"\n")


def test_every_dress_is_a_residual_and_each_tool_makes_the_old_address(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"net.py": PY, "run.sh": SH, "t.j2": J2, "play.yml": PLAY}, config=CONFIG, allowlist=ALLOW)
    made = subprocess.run([sys.executable, "net.py"], cwd=root, capture_output=True, text=True, check=True)
    assert made.stdout.split() == ["10.0.40.11"] * 4
    made = subprocess.run(["sh", "run.sh"], cwd=root, capture_output=True, text=True, check=True)
    assert made.stdout.split() == ["10.0.40.11"] * 2
    assert jinja2.Environment().from_string(J2).render().strip() == "10.0.40.11"
    found = _residuals(root, run)
    expected = ([("net.py", n, "composed-address") for n in (3, 4, 5, 6)]
                + [("play.yml", n, "composed-address") for n in (3, 4, 5)]
                + [("run.sh", 2, "composed-address"), ("run.sh", 3, "composed-address"),
                   ("t.j2", 1, "composed-address")])
    assert sorted(found) == sorted(expected)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "net.py").read_text() == PY and (root / "run.sh").read_text() == SH


@pytest.mark.parametrize("text", [
    pytest.param('x = cidrhost("10.0.40.0/24", 12)\n', id="another-host"),
    pytest.param('x = cidrhost("10.0.41.0/24", 11)\n', id="another-network"),
    pytest.param('x = cidrhost("10.0.40.0/28", 40)\n', id="out-of-range"),
    pytest.param("printf '10.0.41.%d' 11\n", id="format-another-network"),
    pytest.param("print(ip_network('10.0.40.0/24')[-12])\n", id="from-the-end-another"),
])
def test_other_addresses_are_left_alone(text: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"main.tf": text}, config=CONFIG, allowlist=ALLOW)
    assert _residuals(root, run) == []
    assert run(root, "sweep", "--commit").exit_code == 0


def test_an_unknown_number_in_a_network_holding_an_old_address_may_spell_it(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    text = 'x = cidrhost("10.0.40.0/24", count.index + 10)\ny = cidrhost("10.0.41.0/24", count.index)\n'
    root = repo({"main.tf": text}, config=CONFIG, allowlist=ALLOW)
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert [(f["line"], f["reason"]) for f in found] == [(1, "composed-address")]
    assert "may spell 10.0.40.11" in json.dumps(found)


def test_a_renamed_network_moves_the_literal_and_the_expression_follows(
        tmp_path: Path, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    text = "".join(line for line in TF.replace('format("10.0.40.%d", 11)', 'cidrhost("10.0.40.0/24", local.n + 3)')
                   .splitlines(keepends=True) if '"d"' not in line) + "locals { n = 1 }\n"
    root = repo({"main.tf": text}, config=NETWORKS, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "main.tf").read_text() == text.replace("10.0.40.0", "10.0.50.0")
    assert run(root, "verify", "--strict").exit_code == 0
    planned = _terraform_outputs(root, tmp_path)
    assert 'a = "10.0.50.11"' in planned and 'b = "10.0.50.11"' in planned and 'c = "10.0.50.4"' in planned, planned


def test_a_subnet_computed_into_a_renamed_network_is_a_residual(repo: Callable[..., Path],
                                                                run: Callable[..., Result]) -> None:
    # the /16 literal is no renamed network: the rename reaches no byte of it, yet it makes 10.0.40.11
    text = 'output "d" { value = cidrhost(cidrsubnet("10.0.0.0/16", 8, 40), 11) }\n'
    root = repo({"main.tf": text}, config=NETWORKS, allowlist=ALLOW)
    assert _residuals(root, run) == [("main.tf", 1, "composed-address")]
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "main.tf").read_text() == text


# Break-it round 9, finding 9: the network through a name, the usual idiom. Terraform's
# `cidrhost(var.net, 11)` through the module's literal default (another file too, a local naming
# the variable), `cidrhost(local.net, 11)`; Python's `NET[11]` with `NET = ip_network(...)`,
# `NET.network_address + 11`, `list(NET.hosts())[10]`, `"10.0.40.{}".format(11)`.
TF_NAMED = """\
locals {
  net2 = "10.0.40.0/24"
  net3 = var.net
}
resource "terraform_data" "a" { input = cidrhost(var.net, 11) }
resource "terraform_data" "b" { input = cidrhost(local.net2, 11) }
resource "terraform_data" "c" { input = cidrhost(local.net3, -245) }
resource "terraform_data" "d" { input = cidrhost(cidrsubnet(var.wide, 8, 40), 11) }
output "a" { value = terraform_data.a.input }
output "b" { value = terraform_data.b.input }
output "c" { value = terraform_data.c.input }
output "d" { value = terraform_data.d.input }
"""
TF_VARIABLES = 'variable "net" {\n  default = "10.0.40.0/24"\n}\nvariable "wide" { default = "10.0.0.0/16" }\n'
PY_NAMED = """\
import ipaddress
NET = ipaddress.ip_network("10.0.40.0/24")
print(NET[11])
print(NET.network_address + 11)
print(list(NET.hosts())[10])
print("10.0.40.{}".format(11))
print(ipaddress.ip_network("10.0.40.0/24").network_address + 11)
print(list(ipaddress.ip_network("10.0.40.0/28").hosts())[10])
print("%s.%d" % ("10.0.40", 11))
"""


def test_a_network_through_a_name_is_evaluated_and_each_tool_makes_the_old_address(
        tmp_path: Path, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"main.tf": TF_NAMED, "variables.tf": TF_VARIABLES, "net.py": PY_NAMED},
                config=CONFIG, allowlist=ALLOW)
    planned = _terraform_outputs(root, tmp_path)
    for name in "abcd":
        assert f'{name} = "10.0.40.11"' in planned, planned
    made = subprocess.run([sys.executable, "net.py"], cwd=root, capture_output=True, text=True, check=True)
    assert made.stdout.split() == ["10.0.40.11"] * 7
    expected = [("main.tf", n, "composed-address") for n in (5, 6, 7, 8)]
    expected += [("net.py", n, "composed-address") for n in (3, 4, 5, 6, 7, 8, 9)]
    assert sorted(_residuals(root, run)) == sorted(expected)
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert "(`var.net` at variables.tf:2)" in json.dumps(found)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "main.tf").read_text() == TF_NAMED and (root / "net.py").read_text() == PY_NAMED
    assert run(root, "verify", "--strict").exit_code == 1


@pytest.mark.parametrize("files", [
    pytest.param({"main.tf": 'variable "net" { default = "10.0.41.0/24" }\nx = cidrhost(var.net, 11)\n'},
                 id="another-network"),
    pytest.param({"main.tf": 'variable "net" { default = "10.0.40.0/24" }\nx = cidrhost(var.net, 12)\n'},
                 id="another-host"),
    pytest.param({"main.tf": "x = cidrhost(var.net, 11)\n", "mod/v.tf": 'variable "net" { default = "10.0.40.0/24" }\n'},
                 id="a-variable-of-another-module"),
    pytest.param({"net.py": 'NET = ip_network("10.0.41.0/24")\nprint(NET[11], OTHER[11])\n'}, id="python-another"),
])
def test_a_name_standing_for_another_network_is_left_alone(files: dict[str, str], repo: Callable[..., Path],
                                                          run: Callable[..., Result]) -> None:
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert _residuals(root, run) == []
    assert run(root, "sweep", "--commit").exit_code == 0


def test_an_unknown_number_through_a_name_may_spell_it(repo: Callable[..., Path],
                                                       run: Callable[..., Result]) -> None:
    text = ('variable "net" { default = "10.0.40.0/24" }\n'
            'locals {\n  ips = [for i in range(10, 13) : cidrhost(var.net, i)]\n}\n')
    root = repo({"main.tf": text}, config=CONFIG, allowlist=ALLOW)
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert [(f["line"], f["reason"]) for f in found] == [(3, "composed-address")]
    assert "may spell 10.0.40.11" in json.dumps(found)


def test_a_renamed_network_through_a_name_follows(tmp_path: Path, repo: Callable[..., Path],
                                                  run: Callable[..., Result]) -> None:
    """The variable's default is the renamed network: it is rewritten, cidrhost(var.net, 11) makes
    the new address, no residual."""
    text = 'variable "net" { default = "10.0.40.0/24" }\noutput "a" { value = cidrhost(var.net, 11) }\n'
    root = repo({"main.tf": text}, config=NETWORKS, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "main.tf").read_text() == text.replace("10.0.40.0", "10.0.50.0")
    assert run(root, "verify", "--strict").exit_code == 0
    assert 'a = "10.0.50.11"' in _terraform_outputs(root, tmp_path)
