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
