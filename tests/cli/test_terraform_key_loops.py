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
