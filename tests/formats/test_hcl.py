"""The HCL format's structure check (formats/hcl.py): pairs of text before and after an edit,
each read by python-hcl2 itself."""

from __future__ import annotations

import pytest

from renamer.formats import format_of, hcl

SWAP = ("ana-ml2", "fv-ml1")


def _renamed(text: str) -> str:
    return text.replace(*SWAP)


@pytest.mark.parametrize(("before", "problem"), [
    pytest.param('locals {\n  ana-ml2 = "a"\n  fv-ml1  = "b"\n}\n', "two attributes 'fv-ml1' in one body",
                 id="attribute"),
    pytest.param('hosts = { "ana-ml2" = 1, "fv-ml1" = 2 }\n', "two object keys 'fv-ml1' in one object",
                 id="quoted-object-key"),
    pytest.param('hosts = {\n  ana-ml2 = 1\n  fv-ml1  = 2\n}\n', "two object keys 'fv-ml1' in one object",
                 id="bare-object-key"),
    pytest.param('resource "null_resource" "ana-ml2" {\n}\nresource "null_resource" "fv-ml1" {\n}\n',
                 """two blocks 'resource "null_resource" "fv-ml1"' in one body""", id="labelled-block"),
    pytest.param('inputs = {\n  nested = { ana-ml2 = 1, fv-ml1 = 2 }\n}\n', "two object keys 'fv-ml1' in one object",
                 id="nested-object"),
    pytest.param('x = <<ana-ml2\nhello\nana-ml2\n', "no longer parses", id="heredoc-marker-at-one-end"),
])
def test_an_edit_that_makes_two_names_one_or_breaks_the_file_is_refused(before: str, problem: str) -> None:
    after = _renamed(before) if "heredoc" not in problem and "parses" not in problem else before.replace(*SWAP, 1)
    found = hcl.edit_problem(before, after)
    assert found is not None and problem in found


@pytest.mark.parametrize("before", [
    pytest.param('provider "aws" {\n  alias = "ana-ml2"\n}\nprovider "aws" {\n  alias = "b"\n}\n', id="providers-repeat"),
    pytest.param('resource "x" "y" {\n  ingress { host = "ana-ml2" }\n  ingress { host = "fv-ml1" }\n}\n',
                 id="unlabelled-blocks-repeat"),
    pytest.param('a = { ana-ml2 = 1 }\nb = { fv-ml1 = 2 }\n', id="keys-of-two-objects"),
    pytest.param('resource "x" "y" {\n  dynamic "ana-ml2" {\n    for_each = []\n    content {}\n  }\n'
                 '  dynamic "fv-ml1" {\n    for_each = []\n    content {}\n  }\n}\n', id="dynamic-blocks-repeat"),
    pytest.param('resource "x" "y" {\n  provisioner "ana-ml2" {}\n  provisioner "fv-ml1" {}\n}\n',
                 id="provisioners-repeat"),
    pytest.param('resource "x" "ana-ml2" {}\nresource "y" "fv-ml1" {}\n', id="blocks-of-two-types"),
    pytest.param('x = <<ana-ml2\nhello\nana-ml2\n', id="heredoc-marker-both-ends"),
    pytest.param('x = "${var.site}-ml2"\n', id="interpolation"),
])
def test_an_edit_that_keeps_every_name_apart_passes(before: str) -> None:
    assert hcl.edit_problem(before, _renamed(before)) is None


def test_a_file_the_parser_cannot_read_is_checked_by_its_key_lines() -> None:
    before = 'locals {\n  ana-ml2 = "a"\n  fv-ml1 = "b"\n  broken = \n}\n'
    with pytest.raises(hcl.Broken):
        hcl.names(before)
    assert hcl.edit_problem(before, 'locals {\n  ana-ml2 = "a"\n  fv-ml1 = "b"\n  broken = \n}\n'.replace(
        'ana-ml2 = "a"', 'fv-ml1 = "a"')) is not None  # keylines sees the two `fv-ml1 =` lines


def test_an_inline_marker_inside_a_heredoc_means_otherwise() -> None:
    fmt = hcl.FORMAT
    assert fmt.means_otherwise("x = <<EOT\nana-ml2\nEOT\n", "x = <<EOT\nana-ml2  # renamer: keep\nEOT\n")
    assert not fmt.means_otherwise('x = "ana-ml2"\n', 'x = "ana-ml2"  # renamer: keep\n')


@pytest.mark.parametrize("path", ["main.tf", "prod.tfvars", "terragrunt.hcl", "build.pkr.hcl"])
def test_terraform_terragrunt_and_packer_files_are_hcl(path: str) -> None:
    assert format_of(path, b'x = "y"\n').name == "hcl"
    assert format_of("main.tf.json", b"{}").name == "json"


# -- key paths (issue 32: keep rules naming an HCL key path) -------------------------------------

KEYED_TF = ('locals {\n  nodes = {\n    pve-r740xd = {\n      ip = "10.0.0.1"\n    }\n  }\n}\n'
            'variable "instances" {\n  default = "pve-r740xd"\n}\n'
            'resource "terraform_data" "web" {\n  input = local.nodes.pve-r740xd.ip\n'
            '  triggers_replace = { Name = "pve-r740xd" }  # pve-r740xd\n}\n')


def test_locate_names_blocks_attributes_and_object_keys_by_path() -> None:
    import re
    offsets = [m.start() for m in re.finditer("pve-r740xd|10.0.0.1|web", KEYED_TF)]
    assert hcl.locate(KEYED_TF, offsets) == [
        ("locals.nodes.pve-r740xd", "key"), ("locals.nodes.pve-r740xd.ip", "value"),
        ("variable.instances.default", "value"), ("resource.terraform_data.web", "key"),
        ("resource.terraform_data.web.input", "value"), ("resource.terraform_data.web.triggers_replace.Name", "value"),
        (None, "comment")]
    assert hcl.locate("\ufeff" + KEYED_TF, [o + 1 for o in offsets[:1]]) == [("locals.nodes.pve-r740xd", "key")]
    assert hcl.locate('x = {\n', [0]) is None  # the parser cannot read it


@pytest.mark.parametrize(("key", "kept_lines"), [
    pytest.param("locals.nodes.pve-r740xd", [3, 12], id="a-locals-map-key-and-its-reader"),
    pytest.param("variable.instances.default", [9], id="a-variable-default"),
    pytest.param("resource.terraform_data.web.triggers_replace.Name", [13], id="a-resource-attribute-key"),
])
def test_a_keep_rule_naming_an_hcl_key_path_keeps_exactly_that_value(key, kept_lines, repo, run) -> None:
    import json
    allow = ("version: 1\ncurrent: ['**']\nkeep:\n  - name: by-key\n    path: main.tf\n"
             f"    key: {key}\n    reason: state is keyed by it\n")
    root = repo({"main.tf": KEYED_TF}, config="version: 1\nrenames:\n  hosts: {pve-r740xd: pve-r750xd}\n"
                "allowlist: allow.yaml\n", allowlist=allow)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    after = (root / "main.tf").read_text().split("\n")
    for number, line in enumerate(KEYED_TF.split("\n"), 1):  # the kept lines as they were, the rest renamed
        assert after[number - 1] == (line if number in kept_lines else line.replace("pve-r740xd", "pve-r750xd")), number
    audit = json.loads(run(root, "audit", "--format", "json").stdout)
    kept = {r["line"]: r["reason"] for r in audit["references"] if r["status"] == "kept"}
    assert kept.get(kept_lines[0]) == "by-key", kept
    assert audit["stale_exemptions"] == [], audit["stale_exemptions"]  # the rule kept a reference: not stale


def test_a_line_contains_rule_would_keep_every_line_a_key_rule_keeps_one(repo, run) -> None:
    # the difference the key path makes: `line_contains: pve-r740xd` keeps all four lines
    allow = ("version: 1\ncurrent: ['**']\nkeep:\n  - name: by-line\n    path: main.tf\n"
             "    line_contains: pve-r740xd\n    reason: state is keyed by it\n")
    root = repo({"main.tf": KEYED_TF}, config="version: 1\nrenames:\n  hosts: {pve-r740xd: pve-r750xd}\n"
                "allowlist: allow.yaml\n", allowlist=allow)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "main.tf").read_text() == KEYED_TF


@pytest.mark.parametrize("bad", ["''", "[a, b]", '"a\\nb"'])
def test_a_bad_key_in_a_keep_rule_is_one_line_naming_it(bad, repo, run) -> None:
    allow = f"version: 1\ncurrent: ['**']\nkeep:\n  - name: k\n    path: main.tf\n    key: {bad}\n    reason: r\n"
    root = repo({"main.tf": KEYED_TF}, config="version: 1\nrenames:\n  hosts: {pve-r740xd: pve-r750xd}\n"
                "allowlist: allow.yaml\n", allowlist=allow)
    done = run(root, "verify")
    assert done.exit_code == 2 and done.stderr.startswith("renamer: error: ") and "keep[0].key" in done.stderr, (
        done.stderr)
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
