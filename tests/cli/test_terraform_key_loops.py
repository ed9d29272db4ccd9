"""Terraform loops over a mapping's keys, where one key moves to another domain and another stays
(break-it round 17, #9): `keys(var.hosts)`, `toset(keys(...))` and a `dynamic` block's iterator
(`rule.key`, or the name `iterator =` gives) walk the tfvars map's keys exactly as `for k, v in`
and `each.key` do: each place that composes a name with the old domain is a `composed-name`
residual, and the map's key stays (renamed alone it would make wolf.ana.lan)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

CONFIG = """\
version: 1
renames:
  hosts: {pug: wolf, pug.ana.lan: wolf.fv.lan}
  addresses: {10.0.40.11: 10.0.50.21}
allowlist: allow.yaml
"""
ALLOW = 'version: 1\ncurrent: ["**"]\n'
TFVARS = 'hosts = {\n  pug = "10.0.40.11"\n  rex = "10.0.40.12"\n}\n'
HEAD = 'variable "hosts" { type = map(string) }\n'


@pytest.mark.parametrize("main, line", [
    pytest.param(HEAD + 'output "a" { value = [for k in keys(var.hosts) : "${k}.ana.lan"] }\n', 2, id="keys"),
    pytest.param(HEAD + 'output "b" { value = [for k in toset(keys(var.hosts)) : "${k}.ana.lan"] }\n', 2,
                 id="toset-keys"),
    pytest.param(HEAD + 'resource "x" "r" {\n  dynamic "rule" {\n    for_each = var.hosts\n'
                 '    content { name = "${rule.key}.ana.lan" }\n  }\n}\n', 5, id="dynamic"),
    pytest.param(HEAD + 'resource "x" "r" {\n  dynamic "rule" {\n    for_each = var.hosts\n    iterator = h\n'
                 '    content { name = "${h.key}.ana.lan" }\n  }\n}\n', 6, id="dynamic-iterator"),
    # break-it round 18, #13 and #14: wrappers that keep the keys; a nested block's own iterator
    pytest.param(HEAD + 'output "a" { value = [for k in sort(keys(var.hosts)) : "${k}.ana.lan"] }\n', 2, id="sort-keys"),
    pytest.param(HEAD + 'output "a" { value = [for k in nonsensitive(keys(var.hosts)) : "${k}.ana.lan"] }\n', 2,
                 id="nonsensitive-keys"),
    pytest.param(HEAD + 'resource "x" "r" {\n  dynamic "rule" {\n    for_each = var.hosts\n    content {\n'
                 '      name = "${rule.key}.ana.lan"\n      dynamic "port" {\n        for_each = [80, 443]\n'
                 '        iterator = p\n        content { number = p.value }\n      }\n    }\n  }\n}\n', 6,
                 id="nested-dynamic"),
])
def test_a_loop_over_a_mapping_s_keys_holds_its_keys_and_reports_each_place(
        main: str, line: int, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"tf/terraform.tfvars": TFVARS, "tf/main.tf": main}, config=CONFIG, allowlist=ALLOW)
    findings = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    held = {(f["path"], f["line"]) for f in findings if f.get("reason") == "composed-name"}
    assert held == {("tf/terraform.tfvars", 2), ("tf/main.tf", line)}, findings
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "tf/terraform.tfvars").read_text() == TFVARS.replace("10.0.40.11", "10.0.50.21")
    assert (root / "tf/main.tf").read_text() == main


def test_a_dynamic_block_over_a_literal_set_reads_its_words(repo: Callable[..., Path],
                                                            run: Callable[..., Result]) -> None:
    """Over a literal set that holds only the moving host, the place is certain: no residual for
    the loop (its word is the exact rules')."""
    main = ('resource "x" "r" {\n  dynamic "rule" {\n    for_each = toset(["rex"])\n'
            '    content { name = "${rule.value}.ana.lan" }\n  }\n}\n')
    root = repo({"tf/main.tf": main}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert run(root, "verify").exit_code == 0


# A real repo (a Proxmox homelab): the node's name is a key of a variable's default, which a chain
# of locals turns into every VM's instance key (`for_each = local.controlplanes`, built by a `for`
# over `local.zones`, itself `[for k, v in var.instances : k]`). Renamed as text, terraform plans a
# destroy and a create of each VM of the node; the sweep followed only the locals the `for_each`
# names itself, not the ones their values read.
CHAIN_VARS = ('variable "instances" {\n  type = map(any)\n  default = {\n    "pug" = {\n'
              '      "controlplane" : { count = 1 }\n    }\n  }\n}\n')
CHAIN_LOCALS = 'locals {\n  zones = [for k, v in var.instances : k]\n}\n'
CHAIN_MAIN = ('locals {\n  controlplanes = { for k in flatten([\n    for zone in local.zones : [\n'
              '      for i in range(var.instances[zone]["controlplane"]["count"]) : {\n'
              '        name : "${zone}-cp-${i}"\n        node_name : zone\n      }\n    ]\n'
              '  ]) : k.name => k }\n}\n\nresource "terraform_data" "cp" {\n'
              '  for_each = local.controlplanes\n  input    = each.value.node_name\n}\n')


@pytest.mark.parametrize("layout", [
    pytest.param({"tf/variables.tf": CHAIN_VARS, "tf/network.tf": CHAIN_LOCALS, "tf/main.tf": CHAIN_MAIN},
                 id="locals-in-two-files"),
    pytest.param({"tf/main.tf": CHAIN_VARS + CHAIN_LOCALS + CHAIN_MAIN}, id="one-file"),
    pytest.param({"tf/variables.tf": CHAIN_VARS.replace('"pug" = {', "pug = {"), "tf/network.tf": CHAIN_LOCALS,
                  "tf/main.tf": CHAIN_MAIN}, id="bare-key"),
])
def test_a_key_that_reaches_for_each_through_a_chain_of_locals_is_held(
        layout: dict[str, str], repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo(layout, config="version: 1\nrenames:\n  hosts: {pug: wolf}\nallowlist: allow.yaml\n",
                allowlist=ALLOW)
    findings = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    held = [f for f in findings if f.get("reason") == "terraform-label"]
    assert [(f["path"], f["line"]) for f in held] == [
        (path, text.splitlines().index(next(x for x in text.splitlines() if "pug" in x)) + 1)
        for path, text in layout.items() if "pug" in text], findings
    assert "local.controlplanes" in held[0]["note"]
    assert run(root, "sweep", "--commit").exit_code == 1
    for path, text in layout.items():
        assert (root / path).read_text() == text
