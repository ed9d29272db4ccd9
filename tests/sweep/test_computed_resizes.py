"""sweep/computed_resizes.py: the matches decided for expressions over a resized network, with the
names they read resolved from real files (a module's `.tf` files, the Python file itself)."""

from __future__ import annotations

import ipaddress
from pathlib import Path

from renamer.match import Matcher
from renamer.prefix_moves import OUTSIDE, PrefixMove
from renamer.sweep.computed_resizes import REASON, Resolver, resized_matches


def _moves(old: str, new: str) -> list[PrefixMove]:
    return [PrefixMove(ipaddress.ip_network(old), ipaddress.ip_network(new))]


def _decided(data: bytes, old: str, new: str, rel: str = "main.tf",
             root: Path | None = None) -> list[tuple[str, str | None]]:
    matcher = Matcher([], [], [(ipaddress.ip_network(old), ipaddress.ip_network(new))])
    found = resized_matches(data, matcher.find(data), _moves(old, new), rel, root)
    return [(data[m.start:m.end].decode(), m.refused) for m in found]


def test_a_literal_inside_an_expression_that_changes_is_held() -> None:
    data = b'a = cidrhost("192.168.40.0/24", -2)\nb = cidrhost("192.168.40.0/24", 2)\n'
    assert _decided(data, "192.168.40.0/24", "192.168.40.0/22") == [("192.168.40.0/24", REASON),
                                                                     ("192.168.40.0/24", None)]


def test_a_value_a_shrink_leaves_outside_is_refused() -> None:
    data = b'a = cidrsubnet("2001:db8:a::/48", 8, 16)\n'
    assert _decided(data, "2001:db8:a::/48", "2001:db8:a::/56") == [("2001:db8:a::/48", OUTSIDE)]


def test_an_expression_over_a_name_is_a_residual_of_its_own(tmp_path: Path) -> None:
    (tmp_path / "variables.tf").write_text('variable "net" {\n  default = "192.168.40.0/22"\n}\n')
    data = b'locals {\n  a = cidrhost(var.net, -2)\n  b = cidrhost(var.net, 3)\n}\n'
    (tmp_path / "main.tf").write_bytes(data)
    # the new network (after a sweep): the old length is the move's, so the residual stays
    found = _decided(data, "192.168.40.0/24", "192.168.40.0/22", root=tmp_path)
    assert found == [("cidrhost(var.net, -2)", REASON)]


def test_the_resolver_reads_variables_locals_resources_and_python_names(tmp_path: Path) -> None:
    (tmp_path / "net").mkdir()
    (tmp_path / "net/a.tf").write_text('variable "v6" { default = "2001:db8:a::/48" }\n'
                                       'locals {\n  wide = var.v6\n}\n'
                                       'resource "aws_vpc" "main" {\n  cidr_block = "10.0.48.0/24"\n}\n'
                                       'resource "aws_vpc" "other" {\n  cidr_block = "10.9.0.0/24"\n}\n')
    resolve = Resolver(b"", "net/b.tf", tmp_path, None)
    assert resolve("var.v6") == ("2001:db8:a::/48", "`var.v6` at net/a.tf:1")
    assert resolve("local.wide") == ("2001:db8:a::/48", "`local.wide` is var.v6 at net/a.tf:3, `var.v6` at net/a.tf:1")
    assert resolve("aws_vpc.main.cidr_block") == ("10.0.48.0/24", "`aws_vpc.main.cidr_block` at net/a.tf:6")
    assert resolve("aws_vpc.other.cidr_block") == ("10.9.0.0/24", "`aws_vpc.other.cidr_block` at net/a.tf:9")
    assert resolve("var.missing") is None
    python = Resolver(b'import ipaddress\nNET = ipaddress.IPv6Network("2001:db8:a:10::/64")\n', "n.py", None, None)
    assert python("NET") == ("2001:db8:a:10::/64", "`NET` at n.py:2")
    assert python("OTHER") is None


def test_no_resized_move_reads_nothing() -> None:
    data = b'a = cidrhost("10.9.0.0/24", -2)\n'
    matcher = Matcher([], [], [(ipaddress.ip_network("10.9.0.0/24"), ipaddress.ip_network("10.10.0.0/24"))])
    matches = matcher.find(data)
    assert resized_matches(data, matches, _moves("10.9.0.0/24", "10.10.0.0/24")) is matches


def test_a_wider_network_making_the_resized_one_is_a_residual_and_one_outside_refused() -> None:
    data = (b'a = cidrsubnet("10.0.0.0/16", 8, 48)\nb = cidrhost("10.0.0.0/16", 12488)\n'
            b'c = cidrsubnet("10.0.0.0/16", 8, 9)\n')
    found = _decided(data, "10.0.48.0/24", "10.0.48.0/25")
    # a: makes the old /24 itself; b: 10.0.48.200, past the new /25's end, refused (in a sweep
    # computed_matches refuses an IPv4 one first, as it did); c: another network, left
    assert found == [('cidrsubnet("10.0.0.0/16", 8, 48)', REASON), ('cidrhost("10.0.0.0/16", 12488)', OUTSIDE)]


def test_a_name_holding_the_moved_network_by_one_path_of_several_is_judged(tmp_path: Path) -> None:
    # t29-33 finding 01: terraform.tfvars sets another network, a module call the moved one
    (tmp_path / "mod").mkdir()
    (tmp_path / "mod/terraform.tfvars").write_text('cidr = "10.9.0.0/24"\n')
    (tmp_path / "main.tf").write_text('module "m" {\n  source = "./mod"\n  cidr = "192.168.40.0/24"\n}\n')
    data = b'variable "cidr" {}\noutput "o" { value = cidrhost(var.cidr, -2) }\n'
    (tmp_path / "mod/main.tf").write_bytes(data)
    found = _decided(data, "192.168.40.0/24", "192.168.40.0/22", rel="mod/main.tf", root=tmp_path)
    assert found == [("cidrhost(var.cidr, -2)", REASON)]
