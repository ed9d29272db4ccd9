"""A resized network reaching a computing expression by another path (t29-33 findings 01, 12, 14, 24),
end to end through the CLI on real git repos; terraform itself says what each expression makes.

01: `cidrhost(var.lan_cidr, -2)` with the network in terraform.tfvars, a module argument, a map or
list default, a heredoc, Terraform's JSON syntax: each a residual (a grow) or a refusal (a shrink),
verify failing after. 12: a number that is not a literal is never taken as 0 (`k + 20` is 20 or
more). 24: CloudFormation's Fn::Cidr and Bicep's cidrSubnet/cidrHost judged as Terraform's
functions are. 14: a length kept in another file or block of its namespace is a `mask` residual.
"""

from __future__ import annotations

import ipaddress
import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from tests.conftest import Result
from tests.testing.findings import networks_config as _config
from tests.testing.findings import reasons as _findings
from tests.testing.terraform import applied_outputs as _outputs
from tests.testing.terraform import needs_terraform

ALLOW = 'version: 1\ncurrent: ["**"]\n'


# --- 01: the paths a network reaches an expression by ---------------------------------------------

PATHS = {
    ".gitignore": ".terraform*\n",
    "variables.tf": ('variable "lan_cidr" { type = string }\n'
                     'variable "nets" {\n  type    = map(string)\n  default = { lan = "192.168.40.0/24" }\n}\n'
                     'variable "lst" {\n  type    = list(string)\n  default = ["192.168.40.0/24"]\n}\n'),
    "terraform.tfvars": 'lan_cidr = "192.168.40.0/24"\n',
    "main.tf": ('module "net" {\n  source = "./modules/net"\n  cidr   = "192.168.40.0/24"\n}\n'
                'output "a_tfvars" { value = cidrhost(var.lan_cidr, -2) }\n'
                'output "b_for" { value = [for i in range(2) : cidrsubnet(var.lan_cidr, 2, i)] }\n'
                'output "c_map" { value = cidrhost(var.nets["lan"], -2) }\n'
                'output "d_map_dot" { value = cidrsubnet(var.nets.lan, 2, 1) }\n'
                'output "e_list" { value = cidrhost(var.lst[0], -2) }\n'
                'output "f_module" { value = module.net.router }\n'
                'output "g_heredoc" {\n  value = cidrhost(trimspace(<<-H\n    192.168.40.0/24\n    H\n  ), -2)\n}\n'
                'output "h_follows" { value = cidrhost(var.lan_cidr, 7) }\n'),
    "modules/net/main.tf": 'variable "cidr" { type = string }\noutput "router" { value = cidrhost(var.cidr, -2) }\n',
}
PATH_LINES = [("main.tf", n, "composed-address") for n in (5, 6, 7, 8, 9)] + [
    ("main.tf", 13, "composed-address"), ("modules/net/main.tf", 2, "composed-address")]


@needs_terraform
def test_a_network_in_tfvars_a_module_argument_a_map_a_list_or_a_heredoc_is_followed_to_each_expression(
        tmp_path: Path, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo(PATHS, config=_config("192.168.40.0/24: 192.168.40.0/22"), allowlist=ALLOW)
    before = _outputs(root, tmp_path / "a")
    assert _findings(root, run) == PATH_LINES  # each was silent: sweep 0, verify OK
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    said = done.stdout + done.stderr
    assert "`var.lan_cidr` at terraform.tfvars:1" in said
    assert "`var.cidr` is the argument `cidr` of a module call at main.tf:3" in said
    assert '`var.nets["lan"]` at variables.tf:4' in said and "`var.lst[0]` at variables.tf:8" in said
    after = _outputs(root, tmp_path / "b")
    # what terraform makes after the sweep: every value the residuals name moved, and the one left
    # out of them (a host counted from the start) kept its place
    assert before["a_tfvars"] == "192.168.40.254" and after["a_tfvars"] == "192.168.43.254"
    assert after["b_for"] == ["192.168.40.0/24", "192.168.41.0/24"]
    assert {after[k] for k in ("c_map", "e_list", "f_module")} == {"192.168.43.254"}
    assert after["g_heredoc"] == "192.168.40.254"  # a literal inside the expression is held, as any
    assert before["h_follows"] == after["h_follows"] == "192.168.40.7"
    # verify after the sweep reads the new network through the same paths: it still fails
    assert _findings(root, run) == PATH_LINES
    assert run(root, "verify").exit_code == 1


@pytest.mark.parametrize(("networks", "files", "where"), [
    pytest.param("192.168.40.0/24: 192.168.40.0/25",
                 {"main.tf": 'variable "lan_cidr" { type = string }\noutput "dns" { value = cidrhost(var.lan_cidr, 200) }\n',
                  "terraform.tfvars": 'lan_cidr = "192.168.40.0/24"\n'}, "main.tf:2", id="tfvars-24-25"),
    pytest.param("10.0.48.0/23: 10.0.48.0/24",
                 {"env/prod/main.tf": 'module "lan" {\n  source = "../../modules/lan"\n  net    = "10.0.48.0/23"\n}\n',
                  "modules/lan/main.tf": ('variable "net" { type = string }\n'
                                          'output "last" { value = cidrsubnet(var.net, 1, 1) }\n')},
                 "modules/lan/main.tf:2", id="module-argument-23-24"),
    pytest.param("10.0.48.0/23: 10.0.48.0/24",
                 {"main.tf": 'variable "n" { type = string }\noutput "o" { value = cidrhost(var.n, 300) }\n',
                  "lan.auto.tfvars": 'n = "10.0.48.0/23"\n'}, "main.tf:2", id="auto-tfvars-23-24"),
    pytest.param('"2001:db8:a::/48": "2001:db8:a::/56"',
                 {"main.tf": ('variable "v6" {\n  default = { lab = "2001:db8:a::/48" }\n}\n'
                              'output "o" { value = cidrsubnet(var.v6["lab"], 8, 200) }\n')},
                 "main.tf:4", id="v6-map-48-56"),
    pytest.param("10.0.48.0/24: 10.0.48.0/25",
                 {"main.tf.json": json.dumps({"variable": {"lan": {"default": "10.0.48.0/24"}},
                                              "output": {"o": {"value": "${cidrhost(var.lan, 200)}"}}}) + "\n"},
                 "main.tf.json:1", id="tf-json-24-25"),
])
def test_a_shrink_refuses_what_a_path_to_the_network_leaves_outside(
        networks: str, files: dict[str, str], where: str, repo: Callable[..., Path],
        run: Callable[..., Result]) -> None:
    root = repo(files, config=_config(networks), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert f"{where}: outside the new, smaller network" in done.stdout + done.stderr
    for rel, text in files.items():
        assert (root / rel).read_text() == text  # nothing written


JSON_MAIN = ('{"output": {"gw": {"value": "${cidrhost(\\"192.168.40.0/24\\", -2)}"}, '
             '"dmz": {"value": "${cidrsubnet(var.lan, 2, 1)}"}, "first": {"value": "${cidrhost(var.lan, 1)}"}}, '
             '"variable": {"lan": {"default": "192.168.40.0/24"}}}\n')


@needs_terraform
def test_terraform_json_syntax_is_read_as_hcl_is(tmp_path: Path, repo: Callable[..., Path],
                                                 run: Callable[..., Result]) -> None:
    root = repo({"main.tf.json": JSON_MAIN, ".gitignore": ".terraform*\n"},
                config=_config("192.168.40.0/24: 192.168.40.0/22"), allowlist=ALLOW)
    assert _outputs(root, tmp_path / "a") == {"gw": "192.168.40.254", "dmz": "192.168.40.64/26",
                                              "first": "192.168.40.1"}
    assert [f[2] for f in _findings(root, run)] == ["composed-address", "composed-address"]
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    text = (root / "main.tf.json").read_text()
    assert '"default": "192.168.40.0/22"' in text and 'cidrhost(\\"192.168.40.0/24\\", -2)' in text  # held
    after = _outputs(root, tmp_path / "b")
    assert after == {"gw": "192.168.40.254", "dmz": "192.168.41.0/24", "first": "192.168.40.1"}
    assert run(root, "verify").exit_code == 1  # the dmz residual stands


# --- 12: a number that is not a literal --------------------------------------------------------------

VPC = """\
locals {
  vpc_cidr = "10.0.0.0/16"
  azs      = ["a", "b", "c"]
}
output "private" { value = [for k, v in local.azs : cidrsubnet(local.vpc_cidr, 8, k)] }
output "intra" { value = [for k, v in local.azs : cidrsubnet(local.vpc_cidr, 8, k + 20)] }
"""


@needs_terraform
def test_a_loop_index_plus_a_literal_is_judged_from_its_least_value_never_as_0(
        tmp_path: Path, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"main.tf": VPC, ".gitignore": ".terraform*\n"}, config=_config("10.0.0.0/16: 10.0.0.0/20"),
                allowlist=ALLOW)
    assert _outputs(root, tmp_path / "a")["intra"] == ["10.0.20.0/24", "10.0.21.0/24", "10.0.22.0/24"]
    done = run(root, "sweep", "--dry-run", "--strict")
    said = done.stdout + done.stderr
    assert done.exit_code == 3, said  # 10.0.20.0/24 and on lie outside the /20: refused
    assert "main.tf:6: outside the new, smaller network" in said
    assert "it is 10.0.20.0/24 (with `k + 20` = 20" in said  # its least value (the unit tests: the rest)
    assert "`k + 20` = 0" not in said and "k + 20 = 0" not in said  # never tried as 0 (the finding)
    assert "10.0.0.0/24 (with `k` = 0; `k` is 0 or more)" in said  # `k` alone: 0 is its least value


@pytest.mark.parametrize(("networks", "text", "code", "expected", "absent"), [
    # count.index counts from 0: cidrhost(net, count.index + 200) is .200 and on: past a /25's end
    pytest.param("192.168.40.0/24: 192.168.40.0/25",
                 'resource "null_resource" "x" {\n  count = 2\n  triggers = { ip = cidrhost("192.168.40.0/24", '
                 'count.index + 200) }\n}\n', 3, "(with `count.index + 200` = 200", "= 0", id="count-index-shrink"),
    # a variable's value is unknown: said as not a literal, with no value made up, never refused
    pytest.param("10.0.0.0/16: 10.0.0.0/20",
                 'variable "offset" { type = number }\noutput "s" { value = cidrsubnet("10.0.0.0/16", 8, var.offset) }\n',
                 1, "its number `var.offset` is not a literal (no value of it is assumed)", "var.offset = ",
                 id="variable-shrink"),
    pytest.param("10.0.0.0/16: 10.0.0.0/20",
                 'locals {\n  bits = [8, 8]\n  s = cidrsubnets("10.0.0.0/16", local.bits...)\n}\n', 1,
                 "is not a literal", "[10.0.0.0/17]", id="expanded-list-shrink"),
    pytest.param('"2001:db8:a::/64": "2001:db8:a::/60"',
                 'output "s" { value = [for i in range(0, 2) : cidrsubnet("2001:db8:a::/64", 4, i + 1)] }\n', 1,
                 "(with `i + 1` = 1", "= 0", id="v6-range-grow"),
])
def test_a_number_not_a_literal_is_said_as_such(networks: str, text: str, code: int, expected: str, absent: str,
                                               repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"main.tf": text}, config=_config(networks), allowlist=ALLOW)
    done = run(root, "sweep", "--dry-run", "--strict")
    said = done.stdout + done.stderr
    assert done.exit_code == code, said
    assert expected in said and absent not in said
    if code == 1:
        assert run(root, "verify").exit_code == 1


# --- 24: CloudFormation and Bicep ------------------------------------------------------------------

STACK = """\
Parameters:
  LabCidr:
    Type: String
    Default: 10.0.48.0/24
Resources:
  SubnetD:
    Type: AWS::EC2::Subnet
    Properties:
      CidrBlock: !Select [3, !Cidr ["10.0.48.0/24", 4, 6]]
  SubnetC:
    Type: AWS::EC2::Subnet
    Properties:
      CidrBlock: !Select [2, !Cidr [!Ref LabCidr, 4, 6]]
  SubnetB:
    Type: AWS::EC2::Subnet
    Properties:
      CidrBlock:
        Fn::Select: [1, Fn::Cidr: [10.0.48.0/24, 4, 6]]
  SubnetBlock:
    Type: AWS::EC2::Subnet
    Properties:
      CidrBlock: !Select
        - 3
        - !Cidr
          - 10.0.48.0/24
          - 4
          - 6
"""
STACK_JSON = json.dumps({"Resources": {"S": {"Type": "AWS::EC2::Subnet", "Properties": {
    "CidrBlock": {"Fn::Select": [3, {"Fn::Cidr": ["10.0.48.0/24", 4, 6]}]}}}}}) + "\n"
BICEP = ("var lab = '10.0.48.0/24'\nvar dns = cidrHost('10.0.48.0/24', 200)\n"
         "var subD = cidrSubnet('10.0.48.0/24', 26, 3)\nvar subC = cidrSubnet(lab, 26, 2)\n"
         "var first = cidrSubnet(lab, 26, 0)\n")


def _fn_cidr(block: str, count: int, bits: int) -> list[str]:
    """CloudFormation's documented Fn::Cidr: `count` subnets of `bits` host bits, from the block's start."""
    net = ipaddress.ip_network(block)
    subnets = list(net.subnets(new_prefix=net.max_prefixlen - bits))
    return [str(s) for s in subnets[:count]] if len(subnets) >= count else []


def test_cloudformation_and_bicep_subnets_a_shrink_leaves_outside_are_refused(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files = {"stack.yaml": STACK, "stack.json": STACK_JSON, "main.bicep": BICEP}
    root = repo(files, config=_config("10.0.48.0/24: 10.0.48.0/25"), allowlist=ALLOW)
    # what the rewrite would make: a /25 holds two /26s, Fn::Select 2 and 3 fail the stack
    assert _fn_cidr("10.0.48.0/24", 4, 6)[3] == "10.0.48.192/26" and _fn_cidr("10.0.48.0/25", 4, 6) == []
    done = run(root, "sweep", "--commit")
    said = done.stdout + done.stderr
    assert done.exit_code == 3, said
    for where in ("stack.yaml:9", "stack.yaml:13", "stack.yaml:25", "stack.json:1", "main.bicep:2", "main.bicep:3",
                  "main.bicep:4"):
        assert f"{where}: outside the new, smaller network" in said, where
    assert "stack.yaml:18" not in said  # Fn::Select 1: 10.0.48.64/26, inside the /25: it follows
    assert "`cidrHost('10.0.48.0/24', 200)`: it is 10.0.48.201" in said  # index 0 is .1
    for rel, text in files.items():
        assert (root / rel).read_text() == text
    yaml.safe_load(STACK_JSON)  # (the JSON template is one; the YAML holds CloudFormation's own tags)


def test_cloudformation_and_bicep_subnets_counted_from_the_start_follow_a_grow(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files = {"stack.yaml": STACK, "stack.json": STACK_JSON, "main.bicep": BICEP}
    root = repo(files, config=_config("10.0.48.0/24: 10.0.48.0/22"), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr  # absolute sizes from the start: same values
    assert _fn_cidr("10.0.48.0/22", 4, 6)[3] == _fn_cidr("10.0.48.0/24", 4, 6)[3]
    assert "10.0.48.0/24" not in (root / "stack.yaml").read_text()
    assert run(root, "verify", "--strict").exit_code == 0


@pytest.mark.parametrize(("networks", "text", "code"), [
    # a /48 cut into /56s (72 host bits): the fourth has no place in the new /56
    pytest.param('"2001:db8:a::/48": "2001:db8:a::/56"',
                 'Resources:\n  S:\n    Properties:\n      Ipv6CidrBlock: !Select [3, !Cidr ["2001:db8:a::/48", 4, 72]]\n',
                 3, id="cfn-v6-48-56"),
    pytest.param('"2001:db8:a::/48": "2001:db8:a::/56"',
                 'Resources:\n  S:\n    Properties:\n      Ipv6CidrBlock: !Select [3, !Cidr ["2001:db8:a::/48", 4, 64]]\n',
                 0, id="cfn-v6-48-56-inside"),
    pytest.param("10.0.48.0/29: 10.0.48.0/28", "var h = cidrHost('10.0.48.0/29', 5)\n", 0, id="bicep-29-28"),
    pytest.param("10.0.48.0/23: 10.0.48.0/24", "var s = cidrSubnet('10.0.48.0/23', 25, 2)\n", 3, id="bicep-23-24"),
    pytest.param('"2001:db8:a:10::/64": "2001:db8:a:10::/60"',
                 "param p string = '2001:db8:a:10::/64'\nvar s = cidrSubnet(p, 66, 3)\n", 0, id="bicep-v6-64-60"),
])
def test_cloudformation_and_bicep_variants(networks: str, text: str, code: int, repo: Callable[..., Path],
                                           run: Callable[..., Result]) -> None:
    rel = "main.bicep" if text.startswith(("var", "param")) else "stack.yaml"
    root = repo({rel: text}, config=_config(networks), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == code, done.stdout + done.stderr
    if code == 3:
        assert (root / rel).read_text() == text
    else:
        assert run(root, "verify", "--strict").exit_code == 0


# --- 14: the length kept apart ---------------------------------------------------------------------

SPLIT = {
    "group_vars/all.yml": "lan_network: 10.0.48.0\nlan_gateway: 10.0.48.1\n",
    "host_vars/router.yml": "lan_netmask: 255.255.255.0\nlan_prefix: 24\n",
    "vars.tf": ('variable "lan_network" {\n  default = "10.0.48.0"\n}\n\nvariable "lan_prefix_length" {\n'
                '  default = 24\n}\n\noutput "lan" { value = "${var.lan_network}/${var.lan_prefix_length}" }\n'),
    ".gitignore": ".terraform*\n",
}
SPLIT_LINES = [("host_vars/router.yml", 1, "mask"), ("host_vars/router.yml", 2, "mask"), ("vars.tf", 6, "mask")]


@needs_terraform
def test_a_length_kept_in_another_file_or_block_is_said_naming_both_places(
        tmp_path: Path, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo(SPLIT, config=_config("10.0.48.0/24: 10.0.60.0/22"), allowlist=ALLOW)
    assert _findings(root, run) == SPLIT_LINES  # verify said OK
    done = run(root, "sweep", "--commit")
    said = done.stdout + done.stderr
    assert done.exit_code == 1, said
    assert "`lan_prefix` (24) is the length of `lan_network` (10.0.48.0 at group_vars/all.yml:1)" in said
    assert "`lan_prefix_length` (24) is the length of `lan_network` (10.0.48.0 at vars.tf:2)" in said
    # what each tool makes of the merged values after the sweep: the residual is right
    merged = {**yaml.safe_load((root / "group_vars/all.yml").read_text()),
              **yaml.safe_load((root / "host_vars/router.yml").read_text())}
    assert str(ipaddress.ip_network(f"{merged['lan_network']}/{merged['lan_prefix']}")) == "10.0.60.0/24"
    assert _outputs(root, tmp_path / "a")["lan"] == "10.0.60.0/24"
    assert _findings(root, run) == SPLIT_LINES  # verify after fails
    # written by hand, the lengths say the new network: nothing left
    (root / "host_vars/router.yml").write_text("lan_netmask: 255.255.252.0\nlan_prefix: 22\n")
    (root / "vars.tf").write_text((root / "vars.tf").read_text().replace("default = 24", "default = 22"))
    subprocess.run(["git", "commit", "-qam", "lengths"], cwd=root, check=True, capture_output=True)
    assert _findings(root, run) == []
    assert _outputs(root, tmp_path / "b")["lan"] == "10.0.60.0/22"


@pytest.mark.parametrize(("networks", "files", "lines"), [
    pytest.param('"2001:db8:a:10::/64": "2001:db8:a:10::/60"',
                 {"inventory/group_vars/all.yml": "lan6_network: 2001:db8:a:10::\n",
                  "inventory/host_vars/r1.yml": "lan6_prefix: 64\n"},
                 [("inventory/host_vars/r1.yml", 1, "mask")], id="v6-64-60"),
    pytest.param("10.0.48.0/23: 10.0.48.0/24",
                 {"group_vars/routers.yml": "mgmt_address: 10.0.48.1\n", "host_vars/r1.yml": "mgmt_mask: 255.255.254.0\n"},
                 [("host_vars/r1.yml", 1, "mask")], id="shrink-23-24-mask"),
    pytest.param("10.0.48.0/29: 10.0.48.0/28",
                 {"net.tf": 'locals {\n  dmz_net = "10.0.48.0"\n}\n', "terraform.tfvars": "dmz_cidr = 29\n"},
                 [("terraform.tfvars", 1, "mask")], id="tf-locals-tfvars-29-28"),
    pytest.param("10.0.48.0/24: 10.0.60.0/22",
                 {"group_vars/all.json": '{\n  "lan_network": "10.0.48.0"\n}\n',
                  "host_vars/r.json": '{"lan_prefix": 24, "nested": {"lan_netmask": "255.255.255.0"}}\n'},
                 [("host_vars/r.json", 1, "mask")], id="json-vars"),
    # another network's stem, or the new length already: nothing
    pytest.param("10.0.48.0/24: 10.0.60.0/22",
                 {"group_vars/all.yml": "wan_network: 192.168.1.0\n", "host_vars/r.yml": "wan_prefix: 24\n"},
                 [], id="another-network"),
    pytest.param("10.0.48.0/24: 10.0.60.0/22",
                 {"group_vars/all.yml": "lan_network: 10.0.60.0\n", "host_vars/r.yml": "lan_prefix: 22\n"},
                 [], id="written-already"),
])
def test_a_length_kept_apart_variants(networks: str, files: dict[str, str], lines: list[tuple[str, int, str]],
                                      repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo(files, config=_config(networks), allowlist=ALLOW)
    assert _findings(root, run) == lines
    done = run(root, "sweep", "--commit")
    assert done.exit_code == (1 if lines else 0), done.stdout + done.stderr
    assert _findings(root, run) == lines


NEWBITS = ('variable "lan" { default = "192.168.40.0/24" }\nvariable "newbits" { default = 2 }\n'
           'output "dmz" { value = cidrsubnet(var.lan, var.newbits, NETNUM) }\n')


@needs_terraform
@pytest.mark.parametrize(("networks", "netnum", "tfvars", "code", "expected"), [
    # the new bits kept in another variable block: read, so the value is named exactly
    pytest.param("192.168.40.0/24: 192.168.40.0/22", 1, "", 1,
                 "it is 192.168.40.64/26 at 192.168.40.0/24's length and would be 192.168.41.0/24", id="grow"),
    pytest.param("192.168.40.0/24: 192.168.40.0/25", 3, "", 3, "it is 192.168.40.192/26", id="shrink-refused"),
    pytest.param("192.168.40.0/24: 192.168.40.0/25", 1, "newbits = 1\n", 3, "it is 192.168.40.128/25",
                 id="tfvars-newbits-shrink"),
])
def test_new_bits_kept_in_another_variable_are_read(tmp_path: Path, networks: str, netnum: int, tfvars: str,
                                                    code: int, expected: str, repo: Callable[..., Path],
                                                    run: Callable[..., Result]) -> None:
    files = {"main.tf": NEWBITS.replace("NETNUM", str(netnum)), ".gitignore": ".terraform*\n"}
    if tfvars:
        files["terraform.tfvars"] = tfvars
    root = repo(files, config=_config(networks), allowlist=ALLOW)
    made = _outputs(root, tmp_path / "a")["dmz"]
    assert made in expected  # terraform makes the value the message names
    done = run(root, "sweep", "--dry-run", "--strict")
    said = done.stdout + done.stderr
    assert done.exit_code == code, said
    assert expected in said and "`var.newbits` = " in said and "not a literal" not in said


# --- D8: the same resolver for the computed addresses of an address rename --------------------------

ADDRESS = "version: 1\nrenames:\n  addresses: {10.0.40.11: 10.0.50.21}\nallowlist: allow.yaml\n"


@needs_terraform
@pytest.mark.parametrize("files", [
    pytest.param({"main.tf": 'variable "net" { type = string }\noutput "x" { value = cidrhost(var.net, 11) }\n',
                  "terraform.tfvars": 'net = "10.0.40.0/24"\n'}, id="tfvars"),
    pytest.param({"main.tf": 'module "m" {\n  source = "./m"\n  net    = "10.0.40.0/24"\n}\n'
                             'output "x" { value = module.m.x }\n',
                  "m/main.tf": 'variable "net" { type = string }\noutput "x" { value = cidrhost(var.net, 11) }\n'},
                 id="module-argument"),
])
def test_an_old_address_computed_through_tfvars_or_a_module_argument_is_a_residual(
        tmp_path: Path, files: dict[str, str], repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({**files, ".gitignore": ".terraform*\n"}, config=ADDRESS, allowlist=ALLOW)
    assert _outputs(root, tmp_path / "a")["x"] == "10.0.40.11"  # terraform makes the old address
    rel = "m/main.tf" if "m/main.tf" in files else "main.tf"
    assert _findings(root, run) == [(rel, 2, "composed-address")]  # it was silent (default only)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert run(root, "verify").exit_code == 1


@needs_terraform
@pytest.mark.parametrize(("networks", "files", "rel", "name"), [
    pytest.param("10.0.48.0/29: 10.0.48.0/28",
                 {"main.tf": 'module "m" {\n  source = "./m"\n  net    = "10.0.48.0/29"\n}\noutput "x" { value = module.m.x }\n',
                  "m/main.tf": 'variable "net" { type = string }\noutput "x" { value = cidrhost(var.net, -3) }\n'},
                 "m/main.tf", "x", id="module-29-28"),
    pytest.param('"2001:db8:a:10::/64": "2001:db8:a:10::/60"',
                 {"main.tf": 'variable "v6" { type = string }\noutput "x" { value = cidrsubnet(var.v6, 4, 1) }\n',
                  "terraform.tfvars": 'v6 = "2001:db8:a:10::/64"\n'}, "main.tf", "x", id="tfvars-v6-64-60"),
    pytest.param("192.168.40.0/24: 192.168.40.0/22",
                 {"main.tf": 'variable "lst" {\n  default = [\n    "10.9.0.0/24",\n    "192.168.40.0/24",\n  ]\n}\n'
                             'output "x" { value = cidrhost(var.lst[1], -2) }\n'}, "main.tf", "x", id="list-index-multiline"),
])
def test_a_grow_through_a_path_leaves_each_changed_value_said(
        tmp_path: Path, networks: str, files: dict[str, str], rel: str, name: str, repo: Callable[..., Path],
        run: Callable[..., Result]) -> None:
    root = repo({**files, ".gitignore": ".terraform*\n"}, config=_config(networks), allowlist=ALLOW)
    before = _outputs(root, tmp_path / "a")[name]
    line = next(i for i, text in enumerate(files[rel].splitlines(), 1) if "cidr" in text)
    assert _findings(root, run) == [(rel, line, "composed-address")]
    assert run(root, "sweep", "--commit").exit_code == 1
    assert _outputs(root, tmp_path / "b")[name] != before  # what the residual warned of
    assert _findings(root, run) == [(rel, line, "composed-address")]


# a map read through an index that is not a literal (every value of it), and a definition renamer does
# not evaluate that holds the moved network (said, never silent)
WILD = """\
variable "nets" {
  default = { lan = "192.168.40.0/24", dmz = "10.9.0.0/24" }
}
locals {
  odd = lookup({ lan = "192.168.40.0/24" }, "lan", "10.9.9.0/24")
}
resource "terraform_data" "gw" {
  for_each = var.nets
  input    = cidrhost(var.nets[each.key], -2)
}
output "odd" { value = cidrhost(local.odd, -2) }
output "gw" { value = { for k, v in terraform_data.gw : k => v.input } }
"""


@needs_terraform
def test_an_index_not_a_literal_and_a_definition_not_evaluated_are_said(
        tmp_path: Path, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"main.tf": WILD, ".gitignore": ".terraform*\n"}, config=_config("192.168.40.0/24: 192.168.40.0/22"),
                allowlist=ALLOW)
    assert _outputs(root, tmp_path / "a") == {"odd": "192.168.40.254",
                                              "gw": {"lan": "192.168.40.254", "dmz": "10.9.0.254"}}
    assert _findings(root, run) == [("main.tf", 9, "composed-address"), ("main.tf", 11, "composed-address")]
    shown = run(root, "verify").stdout
    assert "defined at main.tf:5 as `lookup(" in shown and "which holds 192.168.40.0/24" in shown
    assert run(root, "sweep", "--commit").exit_code == 1
    assert _findings(root, run) == [("main.tf", 9, "composed-address"), ("main.tf", 11, "composed-address")]
