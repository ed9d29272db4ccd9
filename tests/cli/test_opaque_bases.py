"""A resized network reaching cidrhost/cidrsubnet through an expression no reader evaluated (t31-33
findings 02, 07, 19, 23, 24), end to end through the CLI on real git repos; terraform itself says
what each expression makes.

02: a `.tftpl` template a `templatefile()` call passes the network to. 07: `coalesce()`, `lookup()`,
`element()`, `try()`, a conditional. 24: `yamldecode(file(..))`, `jsondecode(file(..))`, a `for_each`
object (its `host` too), `merge()`. Each was silent (sweep 0, verify OK) while terraform then failed
(a shrink) or moved the value (a grow): now a refusal under a shrink, a residual under a grow,
verify failing after. 19: a default terraform.tfvars overrides is no value: rewritten, not refused.
23: Python's `data["svc_cidr"].network_address + 10` beside `svc_cidr: Cidr = IPv4Network(..)`.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.findings import networks_config as _config
from tests.testing.findings import reasons as _findings
from tests.testing.terraform import applied_outputs as _outputs
from tests.testing.terraform import needs_terraform

ALLOW = 'version: 1\ncurrent: ["**"]\n'


GROWN = {
    ".gitignore": ".terraform*\nterraform.tfstate*\n",
    "main.tf": ('variable "d" {\n  type    = string\n  default = null\n}\n'
                'variable "e" {\n  type    = map(string)\n  default = { lan = "10.0.48.0/24" }\n}\n'
                'locals {\n  nets = yamldecode(file("${path.module}/nets.yaml"))\n  lan  = "10.0.48.0/24"\n}\n'
                'resource "terraform_data" "h" {\n  for_each = { lan = { cidr = "10.0.48.0/24", host = -2 } }\n'
                '  input    = cidrhost(each.value.cidr, each.value.host)\n}\n'
                'output "a_coalesce" { value = cidrhost(coalesce(var.d, "10.0.48.0/24"), 203) }\n'
                'output "b_lookup" { value = cidrhost(lookup(var.e, "lan"), -2) }\n'
                'output "c_element" { value = cidrsubnet(element(["10.0.48.0/24"], 0), 2, 3) }\n'
                'output "d_try" { value = cidrsubnet(try(var.e["wan"], "10.0.48.0/24"), 2, 3) }\n'
                'output "e_cond" { value = cidrhost(true ? "10.0.48.0/24" : "10.1.0.0/16", -2) }\n'
                'output "f_yaml" { value = cidrhost(local.nets.lan, -2) }\n'
                'output "g_json" { value = cidrsubnet(jsondecode(file("${path.module}/nets.json")).lan, 2, 3) }\n'
                'output "h_each" { value = terraform_data.h["lan"].input }\n'
                'output "i_merge" { value = cidrhost(merge({ lan = "10.0.48.0/24" }, {}).lan, -2) }\n'
                'output "j_tpl" { value = templatefile("${path.module}/hosts.tftpl", { lan = local.lan }) }\n'),
    "nets.yaml": "lan: 10.0.48.0/24\n",
    "nets.json": '{"lan": "10.0.48.0/24"}\n',
    "hosts.tftpl": "printer ${cidrhost(lan, 200)}\nrouter ${cidrhost(lan, -2)}\n",
}
# every expression whose value the grow changes; a_coalesce (a host counted from the start) follows
GROWN_LINES = sorted([("hosts.tftpl", 2, "composed-address")] + [
    ("main.tf", n, "composed-address") for n in (15, 18, 19, 20, 21, 22, 23, 25)])


@needs_terraform
def test_a_grow_through_an_expression_a_file_a_for_each_or_a_template_is_a_residual(
        tmp_path: Path, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo(GROWN, config=_config("10.0.48.0/24: 10.0.48.0/22"), allowlist=ALLOW)
    before = _outputs(root, tmp_path / "a")
    assert _findings(root, run) == GROWN_LINES  # each was silent: sweep 0, verify OK
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    said = done.stdout + done.stderr
    assert "in nets.json:1, a file the expression reads" in said
    assert "passed as `lan` by the templatefile() at main.tf:" in said
    assert "the for_each at main.tf:14" in said
    after = _outputs(root, tmp_path / "b")  # terraform still reads every rewritten file
    # the values the residuals name moved (what the residual warns of), the one left out kept its place
    assert before["b_lookup"] == "10.0.48.254" and after["b_lookup"] == "10.0.51.254"
    assert after["h_each"] == after["f_yaml"] == "10.0.51.254"
    assert before["a_coalesce"] == after["a_coalesce"] == "10.0.48.203"
    # verify after the sweep reads the new network through the same paths: it still fails
    assert _findings(root, run) == GROWN_LINES
    assert run(root, "verify").exit_code == 1


@pytest.mark.parametrize(("networks", "files", "where"), [
    pytest.param("10.0.48.0/24: 10.0.48.0/25",
                 {"main.tf": ('variable "d" {\n  type = string\n  default = null\n}\n'
                              'output "o" { value = cidrhost(coalesce(var.d, "10.0.48.0/24"), 203) }\n')},
                 "main.tf:5", id="coalesce-24-25"),
    pytest.param('"2001:db8:a::/48": "2001:db8:a::/56"',
                 {"main.tf": ('variable "m" {\n  default = { lab = "2001:db8:a::/48" }\n}\n'
                              'output "o" { value = cidrsubnet(lookup(var.m, "lab"), 8, 200) }\n')},
                 "main.tf:4", id="lookup-v6-48-56"),
    pytest.param("10.0.48.0/23: 10.0.48.0/24",
                 {"main.tf": 'output "o" { value = cidrhost(true ? "10.0.48.0/23" : "10.1.0.0/16", 300) }\n'},
                 "main.tf:1", id="conditional-23-24"),
    pytest.param("10.0.48.0/22: 10.0.48.0/24",
                 {"main.tf": 'output "o" { value = cidrhost(element(["10.0.48.0/22"], 0), 600) }\n'},
                 "main.tf:1", id="element-22-24"),
    pytest.param('"2001:db8:0:10::/60": "2001:db8:0:10::/64"',
                 {"main.tf": ('variable "x" {\n  default = {}\n}\n'
                              'output "o" { value = cidrsubnet(try(var.x["a"], "2001:db8:0:10::/60"), 4, 9) }\n')},
                 "main.tf:4", id="try-v6-60-64"),
    pytest.param("10.0.48.0/24: 10.0.48.0/25",
                 {"env/main.tf": ('locals { nets = yamldecode(file("${path.module}/../data/nets.yaml")) }\n'
                                  'output "o" { value = cidrhost(local.nets.lan, 200) }\n'),
                  "data/nets.yaml": "lan: 10.0.48.0/24\n"}, "env/main.tf:2", id="yamldecode-file-24-25"),
    pytest.param("10.0.48.0/24: 10.0.48.0/25",
                 {"main.tf": 'output "o" { value = cidrsubnet(jsondecode(file("nets.json")).lan, 2, 3) }\n',
                  "nets.json": '{"lan": "10.0.48.0/24"}\n'}, "main.tf:1", id="jsondecode-file-24-25"),
    pytest.param("10.0.48.0/24: 10.0.48.0/25",
                 {"main.tf": ('resource "terraform_data" "h" {\n'
                              '  for_each = { lan = { cidr = "10.0.48.0/24", host = -2 } }\n'
                              '  input    = cidrhost(each.value.cidr, each.value.host)\n}\n')},
                 "main.tf:3", id="for-each-24-25"),
    pytest.param("10.0.48.0/24: 10.0.48.0/25",
                 {"main.tf": 'output "o" { value = cidrhost(merge({ lan = "10.0.48.0/24" }, {}).lan, -2) }\n'},
                 "main.tf:1", id="merge-24-25"),
    pytest.param("10.0.48.0/24: 10.0.48.0/25",
                 {"main.tf": ('locals { lan = "10.0.48.0/24" }\n'
                              'output "t" { value = templatefile("${path.module}/tpl/hosts.tftpl", { lan = local.lan }) }\n'),
                  "tpl/hosts.tftpl": "printer ${cidrhost(lan, 200)}\n"}, "tpl/hosts.tftpl:1", id="templatefile-24-25"),
    pytest.param("10.43.0.0/16: 10.43.0.0/29",
                 {"validate.py": ('from ipaddress import IPv4Network\nfrom pydantic import Field\n\n\n'
                                  'class Kubernetes:\n    svc_cidr: Cidr = IPv4Network("10.43.0.0/16")\n'
                                  '    coredns_addr: IPv4Address = Field(\n'
                                  '        default_factory=lambda data: data["svc_cidr"].network_address + 10\n    )\n')},
                 "validate.py:8", id="python-field-16-29"),
    pytest.param("10.0.48.0/24: 10.0.48.0/25",
                 {"net.py": ('import ipaddress\n\n\nclass Lan:\n    net = ipaddress.ip_network("10.0.48.0/24")\n\n'
                             '    def printer(self):\n        return self.net.network_address + 200\n')},
                 "net.py:8", id="python-self-24-25"),
])
def test_a_shrink_refuses_what_an_expression_over_the_network_leaves_outside(
        networks: str, files: dict[str, str], where: str, repo: Callable[..., Path],
        run: Callable[..., Result]) -> None:
    root = repo(files, config=_config(networks), allowlist=ALLOW)
    assert run(root, "sweep", "--dry-run", "--strict").exit_code == 3
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert f"{where}: outside the new, smaller network" in done.stdout + done.stderr
    for rel, text in files.items():
        assert (root / rel).read_text() == text  # nothing written


@needs_terraform
@pytest.mark.parametrize(("tfvars", "name"), [("terraform.tfvars", "lan"), ("lan.auto.tfvars", "lan")])
def test_a_default_tfvars_overrides_is_rewritten_not_judged(
        tfvars: str, name: str, tmp_path: Path, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files = {".gitignore": ".terraform*\n",
             "main.tf": (f'variable "{name}" {{\n  type    = string\n  default = "10.0.48.0/24"\n}}\n'
                         f'output "printer" {{ value = cidrhost(var.{name}, 200) }}\n'),
             tfvars: f'{name} = "10.9.0.0/24"\n'}
    root = repo(files, config=_config("10.0.48.0/24: 10.0.48.0/25"), allowlist=ALLOW)
    assert _outputs(root, tmp_path / "a") == {"printer": "10.9.0.200"}
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr  # was refused over 10.0.48.200, never computed
    assert '  default = "10.0.48.0/25"\n' in (root / "main.tf").read_text()
    assert _outputs(root, tmp_path / "b") == {"printer": "10.9.0.200"}
    assert run(root, "verify").exit_code == 0


def test_tfvars_holding_the_moved_network_is_still_judged(repo: Callable[..., Path],
                                                         run: Callable[..., Result]) -> None:
    files = {"main.tf": 'variable "lan" {\n  default = "10.9.0.0/24"\n}\noutput "p" { value = cidrhost(var.lan, 200) }\n',
             "terraform.tfvars": 'lan = "10.0.48.0/24"\n'}
    root = repo(files, config=_config("10.0.48.0/24: 10.0.48.0/25"), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert "main.tf:4: outside the new, smaller network" in done.stdout + done.stderr


def test_the_python_default_address_follows_a_grow(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    text = ('from ipaddress import IPv4Network\n\n\nclass K:\n    svc_cidr = IPv4Network("10.42.0.0/16")\n'
            '    dns = staticmethod(lambda data: data["svc_cidr"].network_address + 10)\n')
    root = repo({"k.py": text}, config=_config("10.42.0.0/16: 10.42.0.0/15"), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    written = (root / "k.py").read_text()
    assert 'IPv4Network("10.42.0.0/15")' in written
    net = ipaddress.ip_network("10.42.0.0/15")
    assert net.network_address + 10 in net  # the offset keeps its place
