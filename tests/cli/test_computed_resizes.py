"""Computed addresses and subnets under a resized network move (t26-33 findings 01, 03, 04, 09, 16).

Under `192.168.40.0/24: 192.168.40.0/22` (a grow in place: no address moves) the sweep rewrote
`cidrhost("192.168.40.0/24", -2)` to `/22` (terraform: 40.254 became 43.254), `cidrsubnets`,
`cidrhost(cidrsubnet(...))`, Ansible's `ipaddr('last_usable')`, `ipsubnet(26, -1)`, `nthhost(-2)`,
Python's `ip_network(...)[-2]`, every expression over a `var.lan_cidr` whose default it rewrote and
`cidrsubnet(aws_vpc.main.cidr_block, 2, count.index)`; sweep 0, verify OK. IPv6 literals were never
evaluated (`cidrsubnet("2001:db8:a::/48", 8, 16)` under a shrink to /56). Each is evaluated now:
a value a shrink leaves outside refuses the sweep (exit 3), one that changes is a residual (exit
1) with the literal left as it was, and verify after the sweep still fails. terraform and python
compute every value the tests compare.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import jinja2
import pytest
import yaml

from tests.conftest import Result
from tests.testing.findings import networks_config as _config
from tests.testing.terraform import applied_outputs as _outputs
from tests.testing.terraform import needs_terraform

ALLOW = 'version: 1\ncurrent: ["**"]\n'


GROW = _config("192.168.40.0/24: 192.168.40.0/22")


def _findings(root: Path, run: Callable[..., Result], *args: str) -> list[tuple[str, int, str]]:
    done = run(root, "verify", "--format", "json", *args)
    return sorted((str(f["path"]), int(f["line"]), str(f["reason"]))
                  for f in json.loads(done.stdout)["findings"] if f["reason"] is not None)


# Finding 01 and 03: literal networks in the expression, and the class's variants (/29 -> /28).
TF_LITERALS = """\
locals {
  router = cidrhost("192.168.40.0/24", -2)
  subs   = cidrsubnets("192.168.40.0/24", 2, 2)
  inner  = cidrhost(cidrsubnet("192.168.40.0/24", 2, 3), 5)
  gw     = cidrhost("192.168.40.0/24", 1)
  small  = cidrhost("10.0.48.0/29", -3)
}
output "router" { value = local.router }
output "subs" { value = local.subs }
output "inner" { value = local.inner }
output "gw" { value = local.gw }
output "small" { value = local.small }
"""


@needs_terraform
def test_terraform_expressions_counting_from_the_end_or_the_length_are_residuals(
        tmp_path: Path, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    config = _config("192.168.40.0/24: 192.168.40.0/22, 10.0.48.0/29: 10.0.48.0/28")
    root = repo({"main.tf": TF_LITERALS}, config=config, allowlist=ALLOW)
    before = _outputs(root, tmp_path / "a")
    assert before == {"router": "192.168.40.254", "subs": ["192.168.40.0/26", "192.168.40.64/26"],
                      "inner": "192.168.40.197", "gw": "192.168.40.1", "small": "10.0.48.5"}
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    text = (root / "main.tf").read_text()
    # the one that counts from the start follows; the others keep their literal
    assert text == TF_LITERALS.replace('cidrhost("192.168.40.0/24", 1)', 'cidrhost("192.168.40.0/22", 1)')
    assert _outputs(root, tmp_path / "b") == before
    assert _findings(root, run) == [("main.tf", n, "composed-address") for n in (2, 3, 4, 6)]
    shown = run(root, "verify").stdout
    assert "192.168.43.254" in shown and "counts from the network's end" in shown


# Finding 16: IPv6 literals (a shrink /48 -> /56 refuses; a grow /64 -> /60 leaves residuals).
TF_V6_SHRINK = """\
locals {
  a = cidrsubnet("2001:db8:a::/48", 8, 16)
  c = cidrsubnet("2001:db8:a::/48", 16, 0)
  h = cidrhost("2001:db8:a::/48", 4722366482869645213696)
}
"""


def test_an_ipv6_subnet_a_shrink_leaves_outside_refuses_the_sweep(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"v6.tf": TF_V6_SHRINK}, config=_config('"2001:db8:a::/48": "2001:db8:a::/56"'), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert (root / "v6.tf").read_text() == TF_V6_SHRINK
    said = done.stdout + done.stderr
    assert "v6.tf:2" in said and "2001:db8:a:1000::/56" in said and "v6.tf:4" in said
    assert ("v6.tf", 3, "composed-address") in _findings(root, run)


TF_V6_GROW = """\
locals {
  last = cidrhost("2001:db8:a:10::/64", -2)
  half = cidrsubnet("2001:db8:a:10::/64", 1, 1)
  host = cidrhost("2001:db8:a:10::/64", 16)
}
output "last" { value = local.last }
output "half" { value = local.half }
output "host" { value = local.host }
"""


@needs_terraform
def test_an_ipv6_grow_leaves_what_changes_and_rewrites_what_follows(
        tmp_path: Path, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"v6.tf": TF_V6_GROW}, config=_config('"2001:db8:a:10::/64": "2001:db8:a:10::/60"'),
                allowlist=ALLOW)
    before = _outputs(root, tmp_path / "a")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "v6.tf").read_text() == TF_V6_GROW.replace('cidrhost("2001:db8:a:10::/64", 16)',
                                                              'cidrhost("2001:db8:a:10::/60", 16)')
    assert _outputs(root, tmp_path / "b") == before == {
        "last": "2001:db8:a:10:ffff:ffff:ffff:fffe", "half": "2001:db8:a:10:8000::/65", "host": "2001:db8:a:10::10"}
    assert _findings(root, run) == [("v6.tf", 2, "composed-address"), ("v6.tf", 3, "composed-address")]


# Finding 09: the network behind a variable's default in another file, and the AWS shape.
VARIABLES = 'variable "lan_cidr" {\n  type    = string\n  default = "192.168.40.0/24"\n}\n'
MAIN = """\
locals {
  dmz    = cidrsubnet(var.lan_cidr, 2, 1)
  router = cidrhost(var.lan_cidr, -2)
  vms    = [for i in range(4) : cidrhost(cidrsubnet(var.lan_cidr, 2, 3), i + 10)]
  gw     = cidrhost(var.lan_cidr, 1)
}
output "dmz" { value = local.dmz }
output "router" { value = local.router }
output "vms" { value = local.vms }
output "gw" { value = local.gw }
"""


@needs_terraform
def test_a_variable_default_the_sweep_rewrites_leaves_each_dependent_said_and_verify_fails(
        tmp_path: Path, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"variables.tf": VARIABLES, "main.tf": MAIN}, config=GROW, allowlist=ALLOW)
    expected = [("main.tf", n, "composed-address") for n in (2, 3, 4)]
    assert _findings(root, run) == expected
    dry = run(root, "sweep", "--dry-run", "--strict")
    assert dry.exit_code == 1, dry.stdout + dry.stderr
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "variables.tf").read_text() == VARIABLES.replace("/24", "/22")
    # verify after the sweep still names each line the sweep named (it said OK: finding 09)
    assert _findings(root, run) == expected
    shown = run(root, "verify").stdout
    assert "192.168.40.0/22, the new network of the move from 192.168.40.0/24" in shown
    assert run(root, "verify", "--strict").exit_code == 1
    after = _outputs(root, tmp_path / "b")
    assert after["gw"] == "192.168.40.1" and after["router"] == "192.168.43.254"  # what the residual says
    # a person decides one: the inline marker keeps it, the others stay said
    main = (root / "main.tf").read_text().replace("cidrhost(var.lan_cidr, -2)",
                                                  "cidrhost(var.lan_cidr, -2) # renamer: keep: the /22's router")
    (root / "main.tf").write_text(main)
    subprocess.run(["git", "commit", "-qam", "keep the router"], cwd=root, check=True, capture_output=True)
    assert _findings(root, run) == [("main.tf", 2, "composed-address"), ("main.tf", 4, "composed-address")]


AWS = """\
resource "aws_vpc" "main" {
  cidr_block = "10.0.48.0/24"
}
resource "aws_subnet" "s" {
  count      = 4
  vpc_id     = aws_vpc.main.id
  cidr_block = cidrsubnet(aws_vpc.main.cidr_block, 2, count.index)
}
"""


def test_subnets_carved_from_a_resource_attribute_are_residuals_before_and_after(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"main.tf": AWS}, config=_config("10.0.48.0/24: 10.0.48.0/22"), allowlist=ALLOW)
    assert _findings(root, run) == [("main.tf", 7, "composed-address")]
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert _findings(root, run) == [("main.tf", 7, "composed-address")]
    assert run(root, "audit", "--strict").exit_code != 0


def test_a_shrink_whose_subnets_may_fall_outside_refuses_or_says(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    # /23 -> /24: cidrhost(var.net, -2) is 10.0.49.254, outside the new /24: refused naming the line
    text = 'variable "net" { default = "10.0.48.0/23" }\nlocals {\n  a = cidrhost(var.net, -2)\n}\n'
    root = repo({"main.tf": text}, config=_config("10.0.48.0/23: 10.0.48.0/24"), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert "main.tf:3" in done.stdout + done.stderr and "10.0.49.254" in done.stdout + done.stderr
    assert (root / "main.tf").read_text() == text


# Finding 04: Ansible's filters, on a literal and on a variable defined in group_vars.
PLAY = """\
last: "{{ '192.168.40.0/24' | ansible.utils.ipaddr('last_usable') }}"
sub: "{{ '192.168.40.0/24' | ansible.utils.ipsubnet(26, -1) }}"
nth: "{{ '192.168.40.0/24' | ansible.utils.nthhost(-2) }}"
end: "{{ '192.168.40.0/24' | ansible.utils.ipaddr('broadcast') | ansible.utils.ipmath(-1) }}"
first: "{{ '192.168.40.0/24' | ansible.utils.ipsubnet(26, 0) }}"
gw: "{{ lan_cidr | ansible.utils.nthhost(-2) }}"
"""


def test_ansible_filters_counting_from_the_end_are_residuals(repo: Callable[..., Path],
                                                             run: Callable[..., Result]) -> None:
    files = {"group_vars/all.yml": "lan_cidr: 192.168.40.0/24\n", "vars.yml": PLAY}
    root = repo(files, config=GROW, allowlist=ALLOW)
    expected = [("vars.yml", n, "composed-address") for n in (1, 2, 3, 4, 6)]
    assert _findings(root, run) == expected
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    text = (root / "vars.yml").read_text()
    assert text == PLAY.replace("'192.168.40.0/24' | ansible.utils.ipsubnet(26, 0)",
                                "'192.168.40.0/22' | ansible.utils.ipsubnet(26, 0)")
    assert (root / "group_vars/all.yml").read_text() == "lan_cidr: 192.168.40.0/22\n"
    assert _findings(root, run) == expected  # line 6 read through the rewritten definition
    # the rewritten file still parses as YAML and each value as a Jinja template (ansible.utils'
    # filters need netaddr, which is not installed: tests/test_computed_lengths.py checks their values)
    for value in yaml.safe_load(text).values():
        jinja2.Environment().parse(value)


# Finding 01's Python twin: ip_network(...)[-2], hosts(), subnets(), broadcast_address - 1.
PY = """\
import ipaddress
NET = ipaddress.ip_network("192.168.40.0/24")
print(ipaddress.ip_network("192.168.40.0/24")[-2])
print(list(ipaddress.ip_network("192.168.40.0/24").hosts())[-1])
print(ipaddress.ip_network("192.168.40.0/24").broadcast_address - 1)
print(list(ipaddress.ip_network("192.168.40.0/24").subnets(prefixlen_diff=2))[1])
print(NET[-2])
print(ipaddress.ip_network("192.168.40.0/24")[7])
"""


def test_python_expressions_counting_from_the_end_are_residuals_and_python_agrees(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"net.py": PY}, config=GROW, allowlist=ALLOW)
    made = subprocess.run([sys.executable, "net.py"], cwd=root, capture_output=True, text=True, check=True)
    before = made.stdout.split()
    assert before == ["192.168.40.254", "192.168.40.254", "192.168.40.254", "192.168.40.64/26",
                      "192.168.40.254", "192.168.40.7"]
    expected = [("net.py", n, "composed-address") for n in (3, 4, 5, 6, 7)]
    assert _findings(root, run) == expected
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    made = subprocess.run([sys.executable, "net.py"], cwd=root, capture_output=True, text=True, check=True)
    after = made.stdout.split()
    # each literal line kept its value; NET's definition followed, and its dependent is still said
    assert after[:4] == before[:4] and after[5] == before[5]
    assert after[4] == "192.168.43.254"
    assert _findings(root, run) == expected


@pytest.mark.parametrize(("networks", "text", "code"), [
    pytest.param("192.168.40.0/24: 192.168.40.0/22", 'x = cidrhost("192.168.40.0/24", 200)\n', 0, id="grow-follows"),
    pytest.param("192.168.40.0/23: 192.168.40.0/24", 'x = cidrhost("192.168.40.0/23", 300)\n', 3, id="shrink-out"),
    pytest.param("192.168.40.0/23: 192.168.40.0/24", 'x = cidrhost("192.168.40.0/23", 20)\n', 0, id="shrink-fits"),
    pytest.param("10.9.0.0/24: 10.10.0.0/23", 'x = cidrhost("10.9.0.0/24", -2)\n', 1, id="move-and-grow"),
    pytest.param("10.9.0.0/24: 10.10.0.0/24", 'x = cidrhost("10.9.0.0/24", -2)\n', 0, id="same-length"),
    pytest.param("10.0.48.0/24: 10.0.48.0/22", 'x = cidrsubnet("10.0.0.0/16", 8, 48)\n', 1, id="wider-makes-old"),
    # (beyond where the grown network lands: 10.0.49.0/24 inside it is a collision, g31-gaps33)
    pytest.param("10.0.48.0/24: 10.0.48.0/22", 'x = cidrsubnet("10.0.0.0/16", 8, 52)\n', 0, id="wider-makes-other"),
    pytest.param('"2001:db8:a::/48": "2001:db8:a::/56"', 'x = cidrsubnet("2001:db8::/32", 16, 10)\n', 1,
                 id="v6-wider-makes-old"),
    pytest.param('"2001:db8:a::/48": "2001:db8:a::/56"', 'x = cidrsubnet(cidrsubnet("2001:db8::/32", 16, 10), 8, 9)\n',
                 3, id="v6-wider-makes-outside"),
])
def test_the_sweep_exit_says_the_verdict(networks: str, text: str, code: int, repo: Callable[..., Path],
                                         run: Callable[..., Result]) -> None:
    root = repo({"main.tf": text}, config=_config(networks), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == code, done.stdout + done.stderr
    if code == 0:
        assert run(root, "verify", "--strict").exit_code == 0


@pytest.mark.parametrize(("networks", "files", "where"), [
    pytest.param("10.0.48.0/23: 10.0.48.0/24", {"main.tf": 'locals {\n  s = cidrsubnets("10.0.48.0/23", 1, 1)\n}\n'},
                 "main.tf:2", id="tf-cidrsubnets-23-24"),
    pytest.param("10.0.48.0/23: 10.0.48.0/24",
                 {"host_vars/r1.yml": "mgmt_net: 10.0.48.0/23\n",
                  "templates/r.conf.j2": "gw={{ mgmt_net | ansible.utils.ipaddr('last_usable') }}\n"},
                 "templates/r.conf.j2:1", id="jinja-variable-last-usable"),
    pytest.param('"2001:db8:a::/48": "2001:db8:a::/56"',
                 {"vars.yml": "v6: \"{{ '2001:db8:a::/48' | ansible.utils.ipsubnet(64, -1) }}\"\n"},
                 "vars.yml:1", id="ansible-ipsubnet-v6"),
    pytest.param('"2001:db8:a::/48": "2001:db8:a::/56"',
                 {"n.py": 'import ipaddress\nprint(ipaddress.IPv6Network("2001:db8:a::/48")[-2])\n'},
                 "n.py:2", id="python-v6-index"),
])
def test_a_value_a_shrink_leaves_outside_refuses_in_every_dress(
        networks: str, files: dict[str, str], where: str, repo: Callable[..., Path],
        run: Callable[..., Result]) -> None:
    root = repo(files, config=_config(networks), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert f"{where}: outside the new, smaller network" in done.stdout + done.stderr
    for rel, text in files.items():
        assert (root / rel).read_text() == text
