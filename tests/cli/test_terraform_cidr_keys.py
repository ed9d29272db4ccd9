"""A Terraform `for_each` key that is a moved network's CIDR, or an address inside it, moves with a
`moved` block (t36-33, finding 06).

`for_each = toset(["192.168.40.0/24", ...])` and `terraform_data.subnet["192.168.40.0/24"]` were
rewritten to `"10.20.0.0/22"` with no `moved` block: `terraform plan` destroyed the old instance and
created the new one (for an `aws_subnet`, the subnet replaced). The instance keys of a network move
now get the treatment of a renamed host's or address's key (sweep/terraform_keys.py): a `moved`
block, or the key and its references kept whole as a residual where a part cannot follow. terraform
itself is asked: applied before the sweep, its plan after the sweep destroys nothing.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.testing.findings import networks_config as _config
from tests.testing.repos import Repo, Run

ALLOW = 'version: 1\ncurrent: ["**"]\n'
IGNORE = ".terraform/\n*.tfstate*\n.terraform.lock.hcl\n"

LIST = '''resource "terraform_data" "subnet" {
  for_each = toset(["192.168.40.0/24", "10.99.0.0/24"])
  input    = each.key
}
output "lan" { value = terraform_data.subnet["192.168.40.0/24"].output }
'''
MAP = '''resource "terraform_data" "vlan" {
  for_each = {
    "192.168.40.0/24" = "lan"
    "10.99.0.0/24"    = "dmz"
  }
  input = each.value
}
output "lan" { value = terraform_data.vlan["192.168.40.0/24"].output }
'''
HOSTS = '''resource "terraform_data" "host" {
  for_each = toset(["192.168.40.10", "192.168.40.11"])
  input    = "static"
}
'''
V6 = '''resource "terraform_data" "prefix" {
  for_each = toset(["2001:db8:a::/48"])
  input    = "v6"
}
'''

CASES = [
    ("192.168.40.0/24: 10.20.0.0/22", LIST, ['terraform_data.subnet["10.20.0.0/22"]']),
    ("192.168.40.0/24: 10.20.0.0/22", MAP, ['terraform_data.vlan["10.20.0.0/22"]']),
    ("192.168.40.0/24: 10.20.0.0/22", HOSTS, ['terraform_data.host["10.20.0.10"]',
                                               'terraform_data.host["10.20.0.11"]']),
    ('"2001:db8:a::/48": "2a01:4f8:c0c::/48"', V6, ['terraform_data.prefix["2a01:4f8:c0c::/48"]']),
]


def _tf(root: Path, tmp: Path, *args: str) -> str:
    env = {**os.environ, "TF_CLI_CONFIG_FILE": os.devnull, "TF_IN_AUTOMATION": "1",
           "TF_DATA_DIR": str(tmp / "tf-data")}
    done = subprocess.run(["terraform", *args, "-input=false", "-no-color"], cwd=root, env=env,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return " ".join(done.stdout.split())


@pytest.mark.parametrize(("networks", "tf", "moved_to"), CASES, ids=["list", "map", "hosts", "ipv6"])
def test_a_cidr_for_each_key_moves_with_a_moved_block(tmp_path: Path, repo: Repo, run: Run, networks: str,
                                                      tf: str, moved_to: list[str]) -> None:
    root = repo({"main.tf": tf, ".gitignore": IGNORE}, config=_config(networks), allowlist=ALLOW)
    _tf(root, tmp_path, "init", "-backend=false")
    _tf(root, tmp_path, "apply", "-auto-approve")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    moved = (root / "moved.tf").read_text()
    for address in moved_to:
        assert f"to   = {address}" in moved, moved
    plan = _tf(root, tmp_path, "plan")
    assert "to destroy" not in plan or "0 to destroy" in plan, plan
    assert "0 to add" in plan or "No changes" in plan, plan
    assert "has moved to" in plan or "(moved from" in plan, plan
    checked = run(root, "verify", "--format", "json")
    assert checked.exit_code == 0, checked.stdout


def test_a_cidr_key_read_from_a_variable_is_kept_whole(repo: Repo, run: Run) -> None:
    tf = '''variable "subnets" {
  type    = list(string)
  default = ["192.168.40.0/24"]
}
resource "terraform_data" "subnet" {
  for_each = toset(var.subnets)
  input    = each.key
}
output "lan" { value = terraform_data.subnet["192.168.40.0/24"].output }
'''
    root = repo({"main.tf": tf, "prod.tfvars": 'subnets = ["192.168.40.0/24"]\n'},
                config=_config("192.168.40.0/24: 10.20.0.0/22"), allowlist=ALLOW)
    checked = run(root, "verify", "--format", "json")
    assert checked.exit_code == 1
    found = json.loads(checked.stdout)["findings"]
    assert any(f["path"] == "main.tf" and f["line"] == 9 and f["status"] == "residual" for f in found), found
    run(root, "sweep", "--commit")
    assert 'terraform_data.subnet["192.168.40.0/24"]' in (root / "main.tf").read_text()
    assert not (root / "moved.tf").exists()


def test_an_address_key_under_an_address_rename_alone_moves_too(tmp_path: Path, repo: Repo, run: Run) -> None:
    """The same class on main before this: with no host renamed the Terraform index read nothing,
    so an address rename alone rewrote `toset(["10.0.0.5"])` with no `moved` block."""
    tf = 'resource "terraform_data" "h" {\n  for_each = toset(["10.0.0.5"])\n  input    = "x"\n}\n'
    config = "version: 1\nrenames:\n  addresses:\n    10.0.0.5: 10.0.0.6\nallowlist: allow.yaml\n"
    root = repo({"main.tf": tf, ".gitignore": IGNORE}, config=config, allowlist=ALLOW)
    _tf(root, tmp_path, "init", "-backend=false")
    _tf(root, tmp_path, "apply", "-auto-approve")
    assert run(root, "sweep", "--commit").exit_code == 0
    assert 'to   = terraform_data.h["10.0.0.6"]' in (root / "moved.tf").read_text()
    plan = _tf(root, tmp_path, "plan")
    assert "0 to destroy" in plan or "No changes" in plan, plan
    assert "0 to add" in plan or "No changes" in plan, plan
