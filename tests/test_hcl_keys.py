"""hcl_keys: where a `for_each` block's keys are written and where its instances are read by key."""

from __future__ import annotations

import pytest

from renamer import hcl_keys


def _keys(expr: str) -> hcl_keys.Keys:
    data = f'resource "t" "x" {{\n  for_each = {expr}\n}}\n'.encode()
    [block] = hcl_keys.looped(data)
    return hcl_keys.keys(data, *block.expr)


def _items(expr: str) -> list[str] | None:
    found = _keys(expr).items
    return None if found is None else [k for k, _s, _e in found]


@pytest.mark.parametrize(("expr", "items"), [
    ('toset(["pug", "rex"])', ["pug", "rex"]),
    ('["pug"]', ["pug"]),
    ('tolist([\n    "pug", # the dog\n    "rex",\n  ])', ["pug", "rex"]),
    ('{ pug = { ip = "1", tags = ["a", "b"] }, "rex" = 2 }', ["pug", "rex"]),
    ('{\n    "pug.ana.lan": 1\n    rex = "}"\n  }', ["pug.ana.lan", "rex"]),
    ("[]", []),
    # what cannot be read: a `for`, an interpolated item, a function, a computed key
    ('{ for h in ["pug"] : h => h }', None),
    ('["${local.p}g"]', None),
    ('toset(concat(["pug"], ["rex"]))', None),
    ("{ (local.k) = 1 }", None),
])
def test_keys_of_a_literal(expr: str, items: list[str] | None) -> None:
    assert _items(expr) == items


@pytest.mark.parametrize(("expr", "source"), [
    ("local.hosts", ("local", "hosts")),
    ("toset(var.hosts)", ("var", "hosts")),
    ("toset( local.hosts )", ("local", "hosts")),
    ("var.hosts[0]", None),
])
def test_keys_read_from_a_local_or_a_variable(expr: str, source: tuple[str, str] | None) -> None:
    assert _keys(expr).source == source


def test_the_spans_are_the_keys_without_their_quotes() -> None:
    data = b'module "m" {\n  source   = "./m"\n  for_each = { "pug" = 1, rex = 2 }\n}\n'
    [block] = hcl_keys.looped(data)
    assert block.address == "module.m" and block.line == 3
    found = hcl_keys.keys(data, *block.expr).items
    assert found is not None and [data[s:e] for _k, s, e in found] == [b"pug", b"rex"]


def test_only_blocks_with_a_for_each_of_their_own() -> None:
    data = (b'resource "t" "c" {\n  count = 2\n}\n'
            b'resource "t" "d" {\n  dynamic "x" {\n    for_each = ["pug"]\n  }\n}\n'
            b'data "t" "e" {\n  for_each = ["pug"]\n}\n')
    assert [b.address for b in hcl_keys.looped(data)] == ["data.t.e"]


def test_references_by_key_skip_locals_and_variables() -> None:
    data = (b'a = terraform_data.x["pug"].id\nb = local.m["pug"]\nc = var.m["pug"]\n'
            b'd = data.t.e[ "pug" ]\ne = module.m["pug"].o\nf = "${t.x[\\"pug\\"]}"\ng = t.x[0]\n')
    assert [(r.address, r.key, r.line) for r in hcl_keys.references(data)] == [
        ("terraform_data.x", "pug", 1), ("data.t.e", "pug", 4), ("module.m", "pug", 5), ("t.x", "pug", 6)]


def test_moved_blocks_are_history() -> None:
    data = (b'moved {\n  from = t.x["old"]\n  to   = t.x["pug"]\n}\nimport {\n  to = t.x["pug"]\n  id = "i"\n}\n')
    spans = hcl_keys.history(data)
    assert [data[s:e] for s, e in spans] == [b't.x["old"]', b't.x["pug"]']
    assert hcl_keys.moved_from(data) == {'t.x["old"]'}


def test_an_expression_ends_at_its_line_outside_brackets_and_strings() -> None:
    data = b'x = { a = "}\\n", b = <<EOT\n]\nEOT\n }\ny = 1\n'
    end = hcl_keys.expression_end(data, 4, len(data))
    assert data[4:end] == b'{ a = "}\\n", b = <<EOT\n]\nEOT\n }'


def test_a_module_of_many_blocks_is_parsed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Review findings 3 and 10: every block re-parsed the whole file (1,000 blocks: 55 s). The
    readers of one file share one parse: `structure` runs once for 1,000 blocks, whatever reads."""
    calls: list[int] = []
    real = hcl_keys.structure

    def counted(data: bytes) -> tuple[list[int], dict[int, int]]:
        calls.append(len(data))
        return real(data)

    monkeypatch.setattr(hcl_keys, "structure", counted)
    data = b"".join(
        b'resource "terraform_data" "x%d" {\n  for_each = toset(["pug"])\n  input    = <<EOT\nx\nEOT\n}\n' % i
        for i in range(1000)
    ) + b'output "o" {\n  value = terraform_data.x999["pug"].id\n}\n'
    found = hcl_keys.looped(data)
    assert len(found) == 1000 and found[-1].line == 6 * 999 + 2
    assert list(hcl_keys.block_arguments(data, "output")) == ["o"]
    assert hcl_keys.history(data) == [] and hcl_keys.moved_from(data) == set()
    assert hcl_keys.declared(data) >= {"terraform_data.x0", "terraform_data.x999"}
    assert [r.line for r in hcl_keys.references(data)] == [6002]
    assert len(calls) == 1


def test_labelled_arguments_key_each_block_by_all_its_labels() -> None:
    data = (b'resource "aws_vpc" "main" {\n  cidr_block = "10.0.48.0/24"\n}\n'
            b'resource "aws_vpc" "other" {\n  cidr_block = "10.9.0.0/24"\n  tags = { a = 1 }\n}\n'
            b'data "aws_vpc" "main" {\n  cidr_block = "10.1.0.0/16"\n}\n')
    found = hcl_keys.labelled_arguments(data, "resource")
    assert sorted(found) == [("aws_vpc", "main"), ("aws_vpc", "other")]
    start, end = found[("aws_vpc", "other")]["cidr_block"]
    assert data[start:end].strip() == b'"10.9.0.0/24"'
    assert sorted(found[("aws_vpc", "other")]) == ["cidr_block", "tags"]
    assert list(hcl_keys.labelled_arguments(data, "data")) == [("aws_vpc", "main")]
