"""sweep/opaque_bases.py: the networks an expression that is no literal or plain name may stand for
(t31-33 findings 02, 07, 24), read from real files under a real folder."""

from __future__ import annotations

from pathlib import Path

from renamer.computed_lengths import Step
from renamer.sweep.network_names import Names
from renamer.sweep.opaque_bases import Bases


def _nets(found: list[tuple[str, str]]) -> list[str]:
    return [net for net, _ in found]


def test_literals_names_lookup_and_files_inside_an_expression(tmp_path: Path) -> None:
    main = (b'variable "e" {\n  default = { lan = "10.0.48.0/24" }\n}\n'
            b'locals { nets = yamldecode(file("${path.module}/data/nets.yaml")) }\n')
    (tmp_path / "main.tf").write_bytes(main)
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "nets.yaml").write_text("lan: 2001:db8:a::/48\n")
    bases = Bases("main.tf", tmp_path)
    names = Names(main, "main.tf", tmp_path)
    assert _nets(bases.candidates('expr:coalesce(var.d, "10.1.0.0/16")', 0, main, names)) == ["10.1.0.0/16"]
    assert _nets(bases.candidates('expr:lookup(var.e, "lan")', 0, main, names)) == ["10.0.48.0/24"]
    assert _nets(bases.candidates("local.nets.lan", 0, main, names)) == ["2001:db8:a::/48"]
    assert bases.candidates('expr:format("%s", var.x)', 0, main, names) == []


def test_a_file_outside_the_root_or_a_symlink_is_never_read(tmp_path: Path) -> None:
    outside = tmp_path / "secret.json"
    outside.write_text('{"lan": "10.0.48.0/24"}')
    root = tmp_path / "repo"
    root.mkdir()
    (root / "link.json").symlink_to(outside)
    main = b""
    bases = Bases("main.tf", root)
    names = Names(main, "main.tf", root)
    assert bases.candidates('expr:jsondecode(file("../secret.json")).lan', 0, main, names) == []
    assert bases.candidates('expr:jsondecode(file("link.json")).lan', 0, main, names) == []


def test_for_each_values_and_numbers(tmp_path: Path) -> None:
    main = (b'resource "x" "y" {\n  for_each = { a = { cidr = "10.0.48.0/24", host = -2 },'
            b' b = { cidr = "10.0.50.0/24", host = 7 } }\n  input = cidrhost(each.value.cidr, each.value.host)\n}\n')
    at = main.index(b"cidrhost")
    bases = Bases("main.tf", tmp_path)
    found = bases.candidates("expr:each.value.cidr", at, main, Names(main, "main.tf", tmp_path))
    assert _nets(found) == ["10.0.48.0/24", "10.0.50.0/24"]
    steps = (Step("host", (None,), ("each.value.host",), (None,)),)
    assert sorted(v[0].args for v in bases.each_variants(steps, at, main)) == [(-2,), (7,)]
    literal = (Step("host", (5,), ("5",), (None,)),)
    assert bases.each_variants(literal, at, main) == [literal]


def test_a_template_variable_is_the_templatefile_argument(tmp_path: Path) -> None:
    (tmp_path / "main.tf").write_text('locals { lan = "10.0.48.0/24" }\n'
                                      'output "t" { value = templatefile("${path.module}/t/h.tftpl", '
                                      '{ wan = "10.9.0.0/24", lan = local.lan }) }\n')
    (tmp_path / "t").mkdir()
    tpl = b"${cidrhost(lan, 200)}\n"
    (tmp_path / "t" / "h.tftpl").write_bytes(tpl)
    bases = Bases("t/h.tftpl", tmp_path)
    found = bases.candidates("expr:lan", 2, tpl, Names(tpl, "t/h.tftpl", tmp_path))
    assert _nets(found) == ["10.0.48.0/24"]
    assert "passed as `lan` by the templatefile() at main.tf:2" in found[0][1]


def test_a_for_expressions_name_stands_for_its_collection(tmp_path: Path) -> None:
    """t32-33 13, 16: `n` of `[for n in local.nets : ..]`, `r` of `{for k, r in local.m : ..}` (the
    value, not the key), `tolist(..)[0]`, `format("%s/%d", ..)`, `csvdecode(file(..))` rows; a name
    no `for` encloses (the bracket closed before) is nothing."""
    main = (b'locals {\n  nets = ["10.0.48.0/24", "2001:db8:a::/48"]\n  m = { lan = "10.0.60.0/22" }\n'
            b'  rows = csvdecode(file("${path.module}/ipam.csv"))\n'
            b"  a = [for n in local.nets : cidrhost(n, 2)]\n"
            b"  b = { for k, r in local.m : k => cidrhost(r, 2) }\n"
            b"  c = [for n in values(local.m) : n]\n  d = cidrhost(n, 2)\n"
            b"  e = [for r in local.rows : cidrhost(r.cidr, -2)]\n}\n")
    (tmp_path / "main.tf").write_bytes(main)
    (tmp_path / "ipam.csv").write_text("name,cidr\nlan,10.0.0.0/16\n")
    bases = Bases("main.tf", tmp_path)
    names = Names(main, "main.tf", tmp_path)
    assert _nets(bases.candidates("expr:n", main.find(b"cidrhost(n, 2)]"), main, names)) == [
        "10.0.48.0/24", "2001:db8:a::/48"]
    assert _nets(bases.candidates("expr:r", main.find(b"cidrhost(r, 2)"), main, names)) == ["10.0.60.0/22"]
    assert _nets(bases.candidates("expr:k", main.find(b"cidrhost(r, 2)"), main, names)) == []
    assert _nets(bases.candidates("expr:n", main.find(b"n]\n"), main, names)) == ["10.0.60.0/22"]
    assert _nets(bases.candidates("expr:n", main.find(b"cidrhost(n, 2)\n"), main, names)) == []
    assert _nets(bases.candidates("expr:r.cidr", main.find(b"cidrhost(r.cidr"), main, names)) == ["10.0.0.0/16"]
    assert _nets(bases.candidates("expr:tolist(local.nets)[1]", 0, main, names)) == ["2001:db8:a::/48"]
    assert _nets(bases.candidates('expr:format("%s/%d", "10.0.48.0", 24)', 0, main, names)) == ["10.0.48.0/24"]
    assert _nets(bases.candidates('expr:join("/", ["10.0.48.0", "24"])', 0, main, names)) == ["10.0.48.0/24"]
