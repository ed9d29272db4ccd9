"""A Terraform address outside the configuration follows its label (break-it round 8, finding 13).

After `module "pug"` moved to `wolf` (with its `moved {}` block), an OPA policy's
`"module.pug.terraform_data.x"` and infracost's `{"ignore": ["module.pug"]}` named addresses no
plan holds, near-misses only, verify OK. Each follows its label now, stays with a kept one, and
is a `terraform-label` residual where the label is refused. terraform's own plan (as JSON, what
conftest and infracost read) holds the swept addresses.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

from tests.conftest import Result
from tests.testing.repos import PUG_ALLOW as ALLOW
from tests.testing.repos import PUG_CONFIG as CONFIG

MAIN = """\
module "pug" {
  source = "./mod"
}

resource "terraform_data" "pug" {
  input = "x"
}
"""
MOD = 'resource "terraform_data" "x" {\n  input = "y"\n}\n'
POLICY = """\
package main
deny[msg] { input.resource_changes[_].address == "module.pug.terraform_data.x"; msg := "no" }
deny[msg] { input.resource_changes[_].address == "terraform_data.pug"; msg := "no" }
"""
INFRACOST = '{"ignore": ["module.pug", "terraform_data.pug", "aws_instance.pug"]}\n'


def _plan_addresses(root: Path, tmp: Path) -> set[str]:
    env = {**os.environ, "TF_CLI_CONFIG_FILE": os.devnull, "TF_IN_AUTOMATION": "1",
           "TF_DATA_DIR": str(tmp / "tf-data")}
    for args in (["init", "-input=false", "-backend=false"], ["plan", "-input=false", "-out", str(tmp / "p")]):
        done = subprocess.run(["terraform", *args, "-no-color"], cwd=root, env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
    shown = subprocess.run(["terraform", "show", "-json", str(tmp / "p")], cwd=root, env=env, capture_output=True,
                           text=True, check=True)
    return {c["address"] for c in json.loads(shown.stdout)["resource_changes"]}


def test_policy_and_infracost_addresses_follow_the_moved_labels(tmp_path: Path, repo: Callable[..., Path],
                                                                run: Callable[..., Result]) -> None:
    root = repo({"main.tf": MAIN, "mod/main.tf": MOD, "policy.rego": POLICY, ".infracost.json": INFRACOST},
                config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "policy.rego").read_text() == POLICY.replace(".pug", ".wolf")
    # aws_instance.pug is no label of the repo: left as it was
    assert (root / ".infracost.json").read_text() == INFRACOST.replace("module.pug", "module.wolf").replace(
        "terraform_data.pug", "terraform_data.wolf")
    assert run(root, "verify").exit_code == 0
    planned = _plan_addresses(root, tmp_path)
    assert {"module.wolf.terraform_data.x", "terraform_data.wolf"} <= planned, planned


def test_a_kept_label_keeps_its_addresses(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    main = MAIN.replace('module "pug" {', 'module "pug" {  # renamer: keep').replace(
        'resource "terraform_data" "pug" {', 'resource "terraform_data" "pug" {  # renamer: keep')
    root = repo({"main.tf": main, "mod/main.tf": MOD, "policy.rego": POLICY}, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "policy.rego").read_text() == POLICY


def test_an_address_of_a_refused_label_is_a_residual(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files = {"main.tf": MAIN, "mod/main.tf": MOD, "policy.rego": POLICY,
             "Makefile": "replace:\n\tterraform apply -replace=terraform_data.pug\n"}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert ("terraform-label", "policy.rego", 3) in [(f["reason"], f["path"], f["line"]) for f in found]
    assert run(root, "sweep", "--commit").exit_code == 1
    text = (root / "policy.rego").read_text()
    assert '"terraform_data.pug"' in text and '"module.wolf.terraform_data.x"' in text
