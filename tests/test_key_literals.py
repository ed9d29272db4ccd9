"""Terraform locals that hold a key, and membership tests of a local holding keys (break-it round 9,
finding 3): pairs of text and what is read."""

from __future__ import annotations

from renamer.key_literals import literal_refs
from renamer.key_refs import ANY


def _read(data: bytes, module: bytes | None = None) -> list[tuple[int, tuple[str, ...]]]:
    return [(data.count(b"\n", 0, r.start) + 1, r.path) for r in literal_refs(data, module or data, {"pug"})]


def test_a_local_read_as_a_key_by_subscript_lookup_or_contains() -> None:
    for use in (b"var.hosts[local.pick]", b"lookup(var.hosts, local.pick, null)",
                b"contains(keys(var.hosts), local.pick)", b'try(var.hosts [ local.pick ], "x")',
                b"contains(local.names, local.pick)"):
        data = b'locals {\n  names = keys(var.hosts)\n  pick = "pug" # the db\n}\noutput "a" { value = ' + use + b" }\n"
        assert _read(data) == [(3, ("var", "hosts", "pug"))], use


def test_a_local_read_otherwise_too_or_of_two_maps_cannot_be_told() -> None:
    both = b'locals {\n  pick = "pug"\n}\noutput "a" { value = var.hosts[local.pick] }\noutput "b" { value = "${local.pick}.lan" }\n'
    two = b'locals {\n  pick = "pug"\n}\noutput "a" { value = [var.a[local.pick], var.b[local.pick]] }\n'
    assert _read(both) == [(2, (ANY, "pug"))]
    assert _read(two) == [(2, (ANY, "pug"))]


def test_what_is_no_key_of_a_local() -> None:
    name_only = b'locals {\n  pick = "pug"\n}\noutput "a" { value = "ssh ${local.pick}" }\n'
    nested = b'locals {\n  x = {\n    pick = "pug"\n  }\n}\noutput "a" { value = var.hosts[local.pick] }\n'
    other_block = b'variable "pick" {\n  default = "pug"\n}\noutput "a" { value = var.hosts[local.default] }\n'
    assert _read(name_only) == [] and _read(nested) == [] and _read(other_block) == []


def test_uses_in_another_file_of_the_module() -> None:
    locals_tf = b'locals {\n  pick = "pug"\n  names = keys(local.net["hosts"])\n}\n'
    main_tf = b'output "a" { value = local.net.hosts[local.pick] }\noutput "b" { value = index(local.names, "pug") }\n'
    module = locals_tf + b"\n" + main_tf
    assert _read(locals_tf, module) == [(2, ("local", "net", "hosts", "pug"))]
    assert _read(main_tf, module) == [(2, ("local", "net", "hosts", "pug"))]


def test_a_variable_s_default_and_a_tfvars_value_read_as_a_key() -> None:
    module = (b'variable "pick" {\n  type    = string\n  default = "pug"\n}\nvariable "other" { default = "x" }\n'
              b'output "a" { value = var.hosts[var.pick] }\n')
    assert _read(module) == [(3, ("var", "hosts", "pug"))]
    tfvars = b'hosts = {\n  pug = "10.0.0.9"\n}\npick = "pug"\nname = "pug"\n'
    found = [(tfvars.count(b"\n", 0, r.start) + 1, r.path) for r in literal_refs(tfvars, module, {"pug"}, tfvars=True)]
    assert found == [(4, ("var", "hosts", "pug"))]  # `name` is no variable read as a key
