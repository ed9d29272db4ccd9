"""sweep/network_names.py: what a name in a computing expression stands for, read from real files (a
module's `.tf` and `.tf.json` files, its tfvars, the module calls of the repository, a Bicep file, a
CloudFormation template)."""

from __future__ import annotations

from pathlib import Path

import pytest

from renamer.sweep.network_names import ANY, Names, hcl_literal, split_ref


def test_tfvars_and_auto_tfvars_come_before_the_default(tmp_path: Path) -> None:
    (tmp_path / "variables.tf").write_text('variable "lan" {\n  default = "10.9.0.0/24"\n}\n')
    (tmp_path / "terraform.tfvars").write_text('# site\nlan = "192.168.40.0/24"\n')
    (tmp_path / "b.auto.tfvars").write_text('lan = "192.168.50.0/24"\n')
    names = Names(b"", "main.tf", tmp_path)
    # terraform reads terraform.tfvars, then *.auto.tfvars (the later wins), then the default applies
    assert names.all("var.lan") == [("192.168.50.0/24", "`var.lan` at b.auto.tfvars:1"),
                                    ("192.168.40.0/24", "`var.lan` at terraform.tfvars:2"),
                                    ("10.9.0.0/24", "`var.lan` at variables.tf:2")]
    assert names("var.lan") == ("192.168.50.0/24", "`var.lan` at b.auto.tfvars:1")


def test_a_module_argument_is_read_from_each_call_in_its_callers_folder(tmp_path: Path) -> None:
    (tmp_path / "modules/net").mkdir(parents=True)
    (tmp_path / "modules/net/main.tf").write_text('variable "cidr" { type = string }\n')
    (tmp_path / "env/prod").mkdir(parents=True)
    (tmp_path / "env/prod/main.tf").write_text('module "n" {\n  source = "../../modules/net"\n  cidr = var.site\n}\n'
                                               'variable "site" { default = "10.0.48.0/23" }\n')
    (tmp_path / "main.tf").write_text('module "m" {\n  source = "./modules/net"\n  cidr   = "192.168.40.0/24"\n}\n'
                                      'module "other" {\n  source = "./modules/other"\n  cidr = "10.1.0.0/16"\n}\n'
                                      'module "remote" {\n  source = "git::https://x/y"\n  cidr = "10.2.0.0/16"\n}\n')
    found = Names(b"", "modules/net/outputs.tf", tmp_path).all("var.cidr")
    assert found == [  # (modules/other and a remote source are other modules)
        ("192.168.40.0/24", "`var.cidr` is the argument `cidr` of a module call at main.tf:3"),
        ("10.0.48.0/23", "`var.cidr` is the argument `cidr` of a module call, var.site, at env/prod/main.tf:3, "
                         "`var.site` at env/prod/main.tf:5")]


def test_map_and_list_values_are_read_by_key_and_index(tmp_path: Path) -> None:
    (tmp_path / "v.tf").write_text('variable "nets" {\n  default = {\n    lan = "192.168.40.0/24"\n'
                                   '    "dmz" = "10.0.9.0/24" # comment\n  }\n}\n'
                                   'variable "lst" { default = ["a", "2001:db8:a::/48"] }\n'
                                   'locals {\n  deep = { site = { nets = ["10.7.0.0/16"] } }\n  alias = var.nets.lan\n}\n')
    names = Names(b"", "main.tf", tmp_path)
    assert names('var.nets["lan"]') == ("192.168.40.0/24", '`var.nets["lan"]` at v.tf:3')
    assert names("var.nets.dmz") == ("10.0.9.0/24", "`var.nets.dmz` at v.tf:4")
    assert names("var.lst[1]") == ("2001:db8:a::/48", "`var.lst[1]` at v.tf:7")
    assert names('local.deep["site"].nets[0]') == ("10.7.0.0/16", '`local.deep["site"].nets[0]` at v.tf:9')
    assert names("local.alias") == ("192.168.40.0/24", "`local.alias` is var.nets.lan at v.tf:10, "
                                                       "`var.nets.lan` at v.tf:3")
    assert names("var.lst[0]") is None and names("var.lst[5]") is None and names("var.nets.wan") is None


def test_terraform_json_syntax_and_a_heredoc(tmp_path: Path) -> None:
    (tmp_path / "main.tf.json").write_text('{\n  "variable": {"lan": {"default": "192.168.40.0/24"}},\n'
                                           '  "locals": {"gw": "${var.lan}"}\n}\n')
    (tmp_path / "h.tf").write_text('locals {\n  here = <<-EOT\n    10.0.48.0/24\n  EOT\n}\n')
    names = Names(b"", "x.tf.json", tmp_path)
    assert names("var.lan") == ("192.168.40.0/24", "`var.lan` at main.tf.json:2")
    assert names("local.gw") == ("192.168.40.0/24", "`local.gw` is var.lan at main.tf.json:3, "
                                                    "`var.lan` at main.tf.json:2")
    assert names("local.here") == ("10.0.48.0/24", "`local.here` at h.tf:3")


def test_bicep_cloudformation_and_python_names_in_the_file_itself() -> None:
    bicep = b"param site string = '10.0.48.0/24'\nvar lab = '2001:db8:a::/48' // lab\n"
    assert Names(bicep, "main.bicep", None)("lab") == ("2001:db8:a::/48", "`lab` at main.bicep:2")
    assert Names(bicep, "main.bicep", None)("site") == ("10.0.48.0/24", "`site` at main.bicep:1")
    stack = b"Parameters:\n  Other:\n    Default: x\n  LabCidr:\n    Type: String\n    Default: '10.0.48.0/24'\n"
    assert Names(stack, "s.yaml", None)("cfn:LabCidr") == ("10.0.48.0/24", "the parameter `LabCidr` at s.yaml:6")
    assert Names(stack, "s.yaml", None)("cfn:Other") is None
    js = b'{"Parameters": {"Lab": {"Type": "String", "Default": "10.0.48.0/24"}}}'
    assert Names(js, "s.json", None)("cfn:Lab") == ("10.0.48.0/24", "the parameter `Lab` at s.json:1")
    python = b'import ipaddress\nNET = ipaddress.ip_network("10.0.48.0/24")\n'
    assert Names(python, "n.py", None)("NET") == ("10.0.48.0/24", "`NET` at n.py:2")


def test_nothing_outside_the_root_and_no_code_is_followed(tmp_path: Path) -> None:
    (tmp_path / "repo").mkdir()
    (tmp_path / "outside.tf").write_text('module "m" {\n  source = "./repo"\n  cidr = "10.0.0.0/8"\n}\n')
    (tmp_path / "repo/main.tf").write_text('variable "cidr" {\n  default = cidrsubnet("10.0.0.0/8", 8, 1)\n}\n')
    assert Names(b"", "main.tf", tmp_path / "repo").all("var.cidr") == []


@pytest.mark.parametrize(("ref", "split"), [
    ('var.nets["lan"]', ("var.nets", ["lan"])), ("var.nets.lan", ("var.nets", ["lan"])),
    ("var.lst[0]", ("var.lst", [0])), ("aws_vpc.main.cidr_block", ("aws_vpc.main.cidr_block", [])),
    ("local.x", ("local.x", [])), ("var.nets[each.key]", ("var.nets", [ANY])), ("var", None), ("var.[0]", None), ("aws_vpc.main", None),
])
def test_a_reference_is_split_into_its_name_and_path(ref: str, split: object) -> None:
    assert split_ref(ref) == split


def test_hcl_literals() -> None:
    assert hcl_literal('{ a = "x", "b": [1, "y"] }') == {"a": "x", "b": [1, "y"]}
    assert hcl_literal("var.x") == ("ref", "var.x")
    with pytest.raises(Exception):  # noqa: B017 - the private _NoLiteral
        hcl_literal('"${var.x}"')


def test_hostile_values_resolve_to_nothing_and_raise_nothing(tmp_path: Path) -> None:
    (tmp_path / "terraform.tfvars").write_text("lan = " + "[" * 5000 + "\n")
    (tmp_path / "deep.tf.json").write_text('{"variable": {"lan": {"default": ' + "[" * 5000 + "]" * 5000 + "}}}\n")
    (tmp_path / "odd.tf.json").write_text('{"variable": ["x"], "locals": 3, "resource": {"aws_vpc": ["m"]}}\n')
    names = Names(b"", "main.tf", tmp_path)
    assert names.all("var.lan") == [] and names("local.x") is None and names("aws_vpc.main.cidr_block") is None
    stack = b'{"Parameters": ' + b"[" * 5000 + b"]" * 5000 + b"}"
    assert Names(stack, "s.json", None)("cfn:Lab") is None


def test_an_index_not_a_literal_reads_every_value_and_an_expression_is_unread(tmp_path: Path) -> None:
    (tmp_path / "v.tf").write_text('variable "nets" {\n  default = { a = "10.0.1.0/24", b = "10.0.2.0/24" }\n}\n'
                                   'locals {\n  odd = cidrsubnet("10.0.0.0/16", 8, 1)\n}\n')
    names = Names(b"", "main.tf", tmp_path)
    assert names.all("var.nets[each.key]") == [("10.0.1.0/24", "`var.nets[each.key]` at v.tf:2"),
                                               ("10.0.2.0/24", "`var.nets[each.key]` at v.tf:2")]
    assert names.all("local.odd") == [] and names.unread == {
        "local.odd": [('cidrsubnet("10.0.0.0/16", 8, 1)', "v.tf:5")]}


def test_python_names_through_netaddr_a_u_prefix_and_a_string_name() -> None:
    data = (b'import netaddr, ipaddress\nA = netaddr.IPNetwork(u"10.0.48.0/24")\nLAN = "192.168.40.0/24"\n'
            b"NET = ipaddress.ip_network(LAN)\n")
    names = Names(data, "n.py", None)
    assert names("A") == ("10.0.48.0/24", "`A` at n.py:2")
    assert names("NET") == ("192.168.40.0/24", "`NET` at n.py:4")
