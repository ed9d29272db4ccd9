"""A resized network a Terraform module holds in two keys of one block (t38, seen on
randomcoww/homelab), end to end through the CLI on real git repos; terraform itself says what each
expression makes before and after.

`service = { network = "192.168.208.0", cidr = 24, vips = { minio = 34 } }` in a shared
config_env.tf (symlinked into each module folder), turned into `prefix = "${network.network}/${network.cidr}"`
and `vips = { for s, n in lookup(network, "vips", {}) : s => cidrhost("${..}/${..}", n) }` by a `for`,
read in another file as `cidrhost(local.networks.service.prefix, 40)`: under `192.168.208.0/24:
192.168.208.0/27` the sweep rewrote `cidr = 24` to 27 and said nothing, and terraform then failed on
cidrhost. Now the sweep refuses (the hosts have no place in the /27); a grow in place keeps each
host counted from the start (terraform agrees), one counted from the end is a residual; an expression
over a name nothing resolves, in a module holding the moved network, is a residual saying so.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

from tests.conftest import Result
from tests.testing.findings import networks_config as _config
from tests.testing.findings import reasons as _findings
from tests.testing.repos import git, make_repo
from tests.testing.terraform import applied_outputs as _outputs
from tests.testing.terraform import needs_terraform, require_terraform

ALLOW = 'version: 1\ncurrent: ["**"]\n'

ENV = """locals {
  networks = {
    for key, network in {
      service = {
        network = "192.168.208.0"
        cidr    = 24
        vips = {
          apiserver   = 2
          k8s-gateway = 33
          minio       = 34
        }
      }
      lan = {
        network = "192.168.192.0"
        cidr    = 24
      }
    } :
    key => merge(network, {
      prefix = "${network.network}/${network.cidr}"
      vips = {
        for service, netnum in lookup(network, "vips", {}) :
        service => cidrhost("${network.network}/${network.cidr}", netnum)
      }
    })
  }
}
"""
GATEWAY = """locals {
  gateway_ip = cidrhost(local.networks.service.prefix, 40)
  lan_ip     = cidrhost(local.networks.lan.prefix, 40)
}
output "gateway_ip" { value = local.gateway_ip }
output "lan_ip" { value = local.lan_ip }
output "vips" { value = local.networks.service.vips }
"""


def _homelab(tmp_path: Path, networks: str, extra: dict[str, str] | None = None) -> Path:
    root = make_repo(tmp_path / "repo", {".gitignore": ".terraform*\nterraform.tfstate*\n",
                                         "config_env.tf": ENV, "mod/gateway.tf": GATEWAY, **(extra or {})},
                     config=_config(networks), allowlist=ALLOW, commit=False)
    (root / "mod" / "config_env.tf").symlink_to("../config_env.tf")  # shared into the module
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "initial")
    return root


def _plan_fails(folder: Path, tmp: Path) -> str:
    """terraform's own error on the module (after init): what a bare rewrite of the length does."""
    env = {**os.environ, "TF_CLI_CONFIG_FILE": os.devnull, "TF_IN_AUTOMATION": "1", "TF_DATA_DIR": str(tmp)}
    terraform = require_terraform()
    subprocess.run([terraform, "init", "-input=false", "-backend=false", "-no-color"], cwd=folder, env=env,
                   capture_output=True, text=True, check=True)
    done = subprocess.run([terraform, "plan", "-input=false", "-no-color", "-refresh=false"], cwd=folder, env=env,
                          capture_output=True, text=True, check=False)
    assert done.returncode != 0
    return done.stdout + done.stderr


@needs_terraform
def test_a_shrink_leaving_hosts_of_a_split_network_outside_refuses_the_sweep(
        tmp_path: Path, run: Callable[..., Result]) -> None:
    root = _homelab(tmp_path, "192.168.208.0/24: 192.168.208.0/27")
    before = _outputs(root / "mod", tmp_path / "a")
    assert before["gateway_ip"] == "192.168.208.40" and before["lan_ip"] == "192.168.192.40"
    assert before["vips"] == {"apiserver": "192.168.208.2", "k8s-gateway": "192.168.208.33",
                              "minio": "192.168.208.34"}
    # main rewrote `cidr = 24` alone (sweep 0, verify OK): terraform then fails on cidrhost
    bare = tmp_path / "bare"
    bare.mkdir()
    (bare / "config_env.tf").write_text(ENV.replace("cidr    = 24", "cidr    = 27", 1))
    (bare / "gateway.tf").write_text(GATEWAY)
    assert "cidrhost" in _plan_fails(bare, tmp_path / "bare-data")
    # each expression over the service network is judged; the lan block's is not the service network's
    assert _findings(root, run) == [("config_env.tf", 22, "outside-prefix"),
                                    ("mod/gateway.tf", 2, "outside-prefix")]
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    said = done.stdout + done.stderr
    assert "config_env.tf:22:" in said and "`netnum` = 33, from `vips` of `service`" in said
    checked = run(root, "verify")  # each value with no place, 34 beside 33
    assert checked.exit_code == 1 and "so has 192.168.208.34 (`netnum` = 34" in checked.stdout + checked.stderr
    assert "mod/gateway.tf:2:" in said and "192.168.208.40" in said and "mod/gateway.tf:3:" not in said
    assert (root / "config_env.tf").read_text() == ENV  # nothing written


@needs_terraform
def test_a_grow_keeps_each_host_counted_from_the_start_and_says_one_from_the_end(
        tmp_path: Path, run: Callable[..., Result]) -> None:
    extra = {"mod/ends.tf": 'output "last" { value = cidrhost(local.networks["service"].prefix, -2) }\n'
                            'output "half" { value = cidrsubnet(local.networks.service.prefix, 1, 1) }\n'
                            'output "lan_last" { value = cidrhost(local.networks.lan.prefix, -2) }\n'
                            # a negative count of new bits: the network around it (homelab's tailscale route)
                            'output "wide" { value = cidrsubnet(local.networks.service.prefix, -1, 0) }\n'}
    root = _homelab(tmp_path, "192.168.208.0/24: 192.168.208.0/22", extra)
    before = _outputs(root / "mod", tmp_path / "a")
    # the grow moves what counts from the end or the length: residuals; nothing else is said
    found = [f for f in _findings(root, run) if f[0] == "mod/ends.tf"]
    assert found == [("mod/ends.tf", n, "composed-address") for n in (1, 2, 4)]
    assert not [f for f in _findings(root, run) if f[0] in ("config_env.tf", "mod/gateway.tf")]
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr  # the residuals stand, the rest is written
    assert 'cidr    = 22' in (root / "config_env.tf").read_text()
    after = _outputs(root / "mod", tmp_path / "b")
    # terraform: every host counted from the start kept its address; the end and the half moved
    assert after["vips"] == before["vips"] and after["gateway_ip"] == before["gateway_ip"] == "192.168.208.40"
    assert before["last"] == "192.168.208.254" and after["last"] == "192.168.211.254"
    assert before["half"] == "192.168.208.128/25" and after["half"] == "192.168.210.0/23"
    assert after["lan_last"] == before["lan_last"]
    assert before["wide"] == "192.168.208.0/23" and after["wide"] == "192.168.208.0/21"
    # verify after the sweep reads the new length through the same keys: it still fails on those two
    assert [f for f in _findings(root, run) if f[0] == "mod/ends.tf"] == found
    assert run(root, "verify").exit_code == 1


def test_a_name_nothing_resolves_in_a_module_holding_the_network_is_said_never_refused(
        tmp_path: Path, run: Callable[..., Result]) -> None:
    extra = {"mod/vars.tf": 'variable "svc_prefix" {\n  type = string\n}\n'
                            'output "far" { value = cidrhost(var.svc_prefix, 200) }\n'
                            'output "near" { value = cidrhost(var.svc_prefix, 5) }\n',
             "other/main.tf": 'variable "p" {\n  type = string\n}\n'
                              'output "x" { value = cidrhost(var.p, 200) }\n'}
    root = _homelab(tmp_path, "192.168.208.0/24: 192.168.208.0/25", extra)
    found = _findings(root, run)
    # `far` may fall past the /25 (residual, not a refusal: its network is not proved); `near` fits
    # either way; a module holding no moved network (other/) says nothing
    assert ("mod/vars.tf", 4, "composed-address") in found
    assert not [f for f in found if f[0] == "other/main.tf" or f[:2] == ("mod/vars.tf", 5)]
    done = run(root, "sweep", "--dry-run")
    said = done.stdout + done.stderr
    assert "`var.svc_prefix`, which renamer does not resolve, in a module holding `service` at " \
           "mod/config_env.tf:5" in said


def test_a_variable_a_module_call_passes_from_a_block_is_judged_in_the_caller(
        tmp_path: Path, run: Callable[..., Result]) -> None:
    extra = {"mod/calls.tf": 'module "gw" {\n  source         = "./modules/gw"\n'
                             '  service_prefix = local.networks.service.prefix\n'
                             '  lan_prefix     = local.networks.lan.prefix\n}\n',
             "mod/modules/gw/main.tf": 'variable "service_prefix" {\n  type = string\n}\n'
                                       'variable "lan_prefix" {\n  type = string\n}\n'
                                       'locals {\n  source_ip = cidrhost(var.service_prefix, 40)\n'
                                       '  lan_ip    = cidrhost(var.lan_prefix, 40)\n'
                                       '  first_ip  = cidrhost(var.service_prefix, 3)\n}\n'}
    root = _homelab(tmp_path, "192.168.208.0/24: 192.168.208.0/27", extra)
    assert [f for f in _findings(root, run) if f[0].startswith("mod/modules/")] == [
        ("mod/modules/gw/main.tf", 8, "outside-prefix")]
    done = run(root, "sweep", "--dry-run")
    assert "passed as `service_prefix` by the module call at mod/calls.tf:3" in done.stdout + done.stderr


def test_a_for_over_a_module_variable_is_read_along_its_argument_or_said(
        tmp_path: Path, run: Callable[..., Result]) -> None:
    # homelab's kea (`for n in var.dhcp_networks : cidrhost(n.config.prefix, -2)`, the argument a list
    # of objects whose `config = local.networks.lan`, another key naming `service` further in) and its
    # systemd-networkd (`for iface in concat(var.a, var.b)`: nothing read)
    extra = {"mod/calls.tf": 'module "dhcp" {\n  source = "./modules/dhcp"\n  nets = [\n    {\n'
                             '      config = local.networks.lan\n'
                             '      dns    = local.networks.service.vips.minio\n    },\n  ]\n}\n'
                             'module "both" {\n  source = "./modules/both"\n'
                             '  pick   = [local.networks.lan.prefix, local.networks.service.prefix]\n}\n'
                             'module "ifaces" {\n  source = "./modules/ifaces"\n  wired = []\n  wifi = []\n}\n',
             "mod/modules/dhcp/main.tf": 'variable "nets" {}\n'
                                         'locals {\n  last = [for n in var.nets : cidrhost(n.config.prefix, -2)]\n'
                                         '  option = { user-class = 1 }\n  u = local.option[user-class]\n}\n',
             "mod/modules/both/main.tf": 'variable "pick" {}\n'
                                         'locals {\n  last = [for p in var.pick : cidrhost(p, 200)]\n}\n',
             "mod/modules/ifaces/main.tf": 'variable "wired" {}\nvariable "wifi" {}\n'
                                           'locals {\n  addrs = [for i in concat(var.wired, var.wifi) :\n'
                                           '    cidrhost(i.prefix, 200)]\n}\n'}
    root = _homelab(tmp_path, "192.168.208.0/24: 192.168.208.0/25", extra)
    found = [f for f in _findings(root, run) if f[0].startswith("mod/modules/")]
    # dhcp: its network is lan (left); both: lan or service, so not proved: a residual, never a refusal;
    # ifaces: nothing read, its caller's module holds the moved network: said
    assert found == [("mod/modules/both/main.tf", 3, "composed-address"),
                     ("mod/modules/ifaces/main.tf", 5, "composed-address")]
    said = run(root, "sweep", "--dry-run")
    assert "through the module call at mod/calls.tf:" in said.stdout + said.stderr
