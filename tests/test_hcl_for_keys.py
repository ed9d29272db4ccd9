"""hcl_for_keys: what a Terraform object-`for`'s keys are built from (the lead's L1). The unit
half reads the text; the end-to-end half sweeps a module where a host rename and a network move
meet a `for_each` whose keys are each object's `name`: the network literal, which feeds only a
value (`cidrhost`), follows the move; the host name, which feeds the keys, is a `terraform-label`
residual that names no made-up instance key."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from renamer.hcl_for_keys import key_feed
from tests.conftest import Result

LOCALS = """locals {
  vms = { for k in flatten([
    for zone in local.zones : [
      for inx in range(2) : {
        NAME_KEY : "${lower(zone)}-vm-${1 + inx}"
        ipv4 : "${cidrhost(local.subnet, inx)}/24"
      }
    ]
  ]) : KEY => k }
}
"""


@pytest.mark.parametrize(("attr", "key"), [("name", "k.name"), ("hostname", 'k["hostname"]')])
def test_the_keys_feed_is_the_headers_and_the_attribute(attr: str, key: str) -> None:
    feed = key_feed(LOCALS.replace("NAME_KEY", attr).replace("KEY =>", f"{key} =>"))
    assert feed is not None and feed.attribute == attr
    assert feed.definitions == ('"${lower(zone)}-vm-${1 + inx}"',)
    assert "local.zones" in feed.text and "local.subnet" not in feed.text


@pytest.mark.parametrize("text", [
    "{ for k, v in var.instances : k => v }",  # the key is the iteration variable itself
    '{ for k in local.list : "${k.zone}-${k.role}" => k }',  # a composed key
    "[for k, v in var.instances : k]",  # no object for
])
def test_other_shapes_feed_whole(text: str) -> None:
    assert key_feed(text) is None


MODULE = {
    "network.tf": ('locals {\n  zones  = [for k, v in var.instances : k]\n'
                   '  subnet = cidrsubnet(var.vpc_cidr, 5, 1)\n}\n'),
    "variables.tf": ('variable "vpc_cidr" {\n  type    = string\n  default = "192.168.20.0/24"\n}\n\n'
                     'variable "instances" {\n  type = map(any)\n  default = {\n    "pve-r740xd" = {\n'
                     '      count = 2\n    }\n  }\n}\n'),
    "vms.tf": LOCALS.replace("NAME_KEY", "name").replace("KEY =>", "k.name =>")
    + '\nresource "terraform_data" "vm" {\n  for_each = local.vms\n  input    = each.value.ipv4\n}\n',
}
CONFIG = ("version: 1\nrenames:\n  hosts: {pve-r740xd: pve-r760}\n  networks: {192.168.20.0/24: 192.168.21.0/24}\n"
          "allowlist: allow.yaml\n")


def test_a_network_feeding_only_values_follows_and_the_key_advice_names_no_made_up_key(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo(MODULE, config=CONFIG, allowlist='version: 1\ncurrent: ["**"]\n')
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 1, swept.stdout + swept.stderr  # written; the key is left for a decision
    variables = (root / "variables.tf").read_text()
    assert 'default = "192.168.21.0/24"' in variables  # before: held as "the instance key 192.168.20.0"
    assert '"pve-r740xd" = {' in variables  # feeds the keys: kept
    verify = run(root, "verify")
    said = verify.stdout
    assert "variables.tf:9:6: residual (terraform-label)" in said, said
    assert "pve-r740xd, which feeds the instance keys of terraform_data.vm" in said
    assert "each key is an object's `name`" in said
    assert 'terraform_data.vm["pve-r740xd"]' not in said and "192.168.20.0" not in said
    fmt = subprocess.run(["terraform", "fmt", "-check", "-no-color"], cwd=root, capture_output=True, text=True)
    assert fmt.returncode == 0, fmt.stdout
