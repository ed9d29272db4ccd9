"""Terraform's labels and references, read from one file (hcl_blocks.py): tables of the grammar,
negatives included. The sweep's decisions over them are tests/sweep/test_terraform_labels.py."""

from __future__ import annotations

import json

import pytest

from renamer import hcl_blocks

# (a file, the labels read as (kind, type, name, line), the uses as (kind, type, via, history, line))
CASES = [
    pytest.param(b'resource "aws_instance" "pug" {\n  ami = data.aws_ami.pug.id\n}\n',
                 [("resource", "aws_instance", "pug", 1)], [("data", "aws_ami", "", False, 2)], id="resource-and-data"),
    pytest.param(b'module "m" {\n  source = "./mod"\n  pug    = var.pug\n}\noutput "o" { value = module.m.pug }\n',
                 [], [("variable", "", "m", False, 3), ("variable", "", "", False, 3), ("output", "", "m", False, 5)],
                 id="argument-variable-and-output"),
    pytest.param(b'moved {\n  from = aws_instance.pug\n  to   = aws_instance.wolf\n}\n'
                 b'removed {\n  from = module.pug\n}\n',
                 [], [("resource", "aws_instance", "", True, 2), ("module", "", "", True, 6)], id="moved-and-removed-from"),
    pytest.param(b'locals {\n  x = <<EOT\nresource "a_b" "pug" {\nEOT\n  y = "${ {a = 1} } aws_instance.pug"\n}\n'
                 b'/* module "pug" {} */\n# variable "pug" {}\n',
                 [], [("resource", "aws_instance", "", False, 5)], id="heredoc-interpolation-comments-no-labels"),
    pytest.param(b'output "host" { value = "pug.ana.lan" }\nvariable "x" { default = each.pug }\n', [], [],
                 id="host-name-strings-and-each-are-no-references"),
    pytest.param(b'resource "a_b" "c" {\n  dynamic "pug" {\n    for_each = []\n  }\n}\n', [], [],
                 id="a-nested-block-declares-nothing"),
    pytest.param(b'moved {\n  from = aws_instance.old\n  to   = aws_instance.pug\n}\nimport {\n  to = aws_instance.pug\n}\n',
                 [], [("resource", "aws_instance", "", True, 3), ("resource", "aws_instance", "", False, 6)],
                 id="a-moved-to-is-history-an-import-to-is-not"),
    pytest.param(b'\xef\xbb\xbfresource "a_b" "pug" {}\n', [("resource", "a_b", "pug", 1)], [], id="bom"),
    pytest.param(b'resource a_b pug {}\nmodule pug {\n  source = "./m"\n}\n',
                 [("resource", "a_b", "pug", 1), ("module", "", "pug", 2)], [], id="bare-labels"),
    pytest.param(b'check "h" {\n  data "a_b" "pug" {}\n  assert {\n    condition = data.a_b.pug.ok\n  }\n}\n'
                 b'resource "a_b" "c" {\n  data "a_b" "pug" {}\n}\n',
                 [("data", "a_b", "pug", 2)], [("data", "a_b", "", False, 4)], id="check-scoped-data-only"),
    pytest.param(b'output "a" { value = module.m["k"].pug }\noutput "b" { value = module.m[*].pug }\n'
                 b'output "c" { value = [for k, v in module.m : v.pug] }\noutput "d" { value = module.m.*.pug }\n',
                 [], [("output", "", "m", False, n) for n in (1, 2, 3, 4)], id="module-output-readers"),
    # terraform's long form `resource.T.N` (break-it t26-32, finding 09)
    pytest.param(b'resource "a_b" "x" {\n  depends_on = [resource.a_b.pug]\n  v = resource.a_b.pug.id\n}\n',
                 [], [("resource", "a_b", "", False, 2), ("resource", "a_b", "", False, 3)],
                 id="long-form-resource-reference"),
]


@pytest.mark.parametrize(("data", "opaque"), [
    pytest.param(b'locals { all = module.m }\n', {"m": 1}, id="held-by-a-local"),
    pytest.param(b'output "x" { value = [for v in module.m : v] }\n', {"m": 1}, id="a-for-yielding-it-whole"),
    pytest.param(b'resource "a_b" "c" { depends_on = [module.m] }\noutput "o" { value = module.m.x }\n', {},
                 id="depends-on-and-an-attribute-read-no-output-whole"),
    pytest.param(b'moved {\n  from = module.m\n  to   = module.n\n}\n', {}, id="a-move-reads-nothing"),
])
def test_a_module_call_read_whole(data: bytes, opaque: dict[str, int]) -> None:
    assert hcl_blocks.read(data, {"pug"}).opaque == opaque


@pytest.mark.parametrize(("data", "labels", "uses"), CASES)
def test_labels_and_uses(data: bytes, labels: list[tuple[str, str, str, int]],
                         uses: list[tuple[str, str, str, bool, int]]) -> None:
    parsed = hcl_blocks.read(data, {"pug"})
    assert [(lab.kind, lab.type, lab.name, lab.line) for lab in parsed.labels] == labels
    assert [(u.kind, u.type, u.via, u.history, u.line) for u in parsed.uses] == uses
    for use in parsed.uses:
        assert data[use.start:use.end] == b"pug"


def test_a_tf_json_file() -> None:
    data = (json.dumps({"resource": {"terraform_data": {"pug": {"input": "${var.pug}"}}},
                        "module": {"m": {"source": "./mod", "pug": 1}}}, indent=2) + "\n").encode()
    parsed = hcl_blocks.read(data, {"pug"}, is_json=True)
    assert [(lab.kind, lab.type, data[lab.start:lab.end]) for lab in parsed.labels] == [
        ("resource", "terraform_data", b"pug")]
    assert sorted((u.kind, u.via) for u in parsed.uses) == [("variable", ""), ("variable", "m")]
    assert [(c.name, c.source) for c in parsed.calls] == [("m", "./mod")]


def test_where_a_block_after_a_label_goes() -> None:
    data = b'resource "a_b" "pug" {\r\n  x = "}"\r\n} # the web server\r\nx = 1\r\n'
    label = hcl_blocks.read(data, {"pug"}).labels[0]
    assert data[label.close:] == b"\r\nx = 1\r\n" and label.newline == b"\r\n"
