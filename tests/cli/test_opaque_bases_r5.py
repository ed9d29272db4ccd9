"""A resized network reaching cidrhost/cidrsubnet through a `for` expression's collection, a
template's `%{ for }`, `tolist(..)[i]`, `values(..)`, `format("%s/%d", ..)` or a `csvdecode(file(..))`
IPAM export (issue 33, t32-33 findings 13 and 16), end to end through the CLI on real git repos;
terraform itself says what each expression makes. Before: sweep 0, verify OK, then terraform apply
failed after a shrink ("prefix of 25 does not accommodate a host") or the values moved after a grow.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.conftest import Result
from tests.testing.findings import networks_config as _config
from tests.testing.findings import reasons as _findings
from tests.testing.repos import snapshot
from tests.testing.terraform import applied_outputs as _outputs
from tests.testing.terraform import needs_terraform

ALLOW = 'version: 1\ncurrent: ["**"]\n'


LOOPS = {
    ".gitignore": ".terraform*\nterraform.tfstate*\n",
    "main.tf": ('locals {\n  nets = ["10.0.48.0/24"]\n  m    = { lan = "10.0.48.0/24" }\n'
                '  hosts  = [for n in local.nets : cidrhost(n, 200)]\n'
                '  mapped = { for k, r in local.m : k => cidrhost(r, 201) }\n'
                '  vals   = [for n in values(local.m) : cidrhost(n, 203)]\n'
                '  viaidx = cidrhost(tolist(local.nets)[0], 204)\n'
                '  fmt    = cidrhost(format("%s/%d", "10.0.48.0", 24), 202)\n}\n'
                'output "hosts" { value = local.hosts }\noutput "mapped" { value = local.mapped }\n'
                'output "vals" { value = local.vals }\noutput "viaidx" { value = local.viaidx }\n'
                'output "fmt" { value = local.fmt }\n'
                'output "gws" { value = templatefile("${path.module}/gw.tftpl", { nets = local.nets }) }\n'),
    "gw.tftpl": "%{ for n in nets ~}\ngw ${cidrhost(n, 254)}\n%{ endfor ~}\n",
}


@needs_terraform
def test_a_shrink_through_a_for_expression_a_template_loop_an_index_or_format_refuses(
        tmp_path: Path, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """/24 -> /25 in place: every host (200..254) lies outside the /25: refused at each line,
    nothing written, terraform still applies the module as it was."""
    root = repo(LOOPS, config=_config("10.0.48.0/24: 10.0.48.0/25"), allowlist=ALLOW)
    before = _outputs(root, tmp_path / "a")
    assert before["hosts"] == ["10.0.48.200"] and before["fmt"] == "10.0.48.202"
    files = snapshot(root)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert snapshot(root) == files
    for where, expr in (("main.tf:4", "cidrhost(n, 200)"), ("main.tf:5", "cidrhost(r, 201)"),
                        ("main.tf:6", "cidrhost(n, 203)"), ("main.tf:7", "cidrhost(tolist(local.nets)[0], 204)"),
                        ("main.tf:8", 'cidrhost(format("%s/%d", "10.0.48.0", 24), 202)'),
                        ("gw.tftpl:2", "cidrhost(n, 254)")):
        assert f"{where}: outside the new, smaller network: `{expr}`" in done.stderr, done.stderr
    assert _outputs(root, tmp_path / "b") == before


@needs_terraform
def test_a_grow_through_the_same_expressions_is_a_residual(
        tmp_path: Path, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """/24 -> 10.0.60.0/22: hosts counted from the start keep their offset (follow), the last-but-one
    does not: `cidrhost(n, -2)` is a residual, verify fails after; terraform reads every file."""
    files = {**LOOPS, "gw.tftpl": LOOPS["gw.tftpl"].replace("254", "-2")}
    files["main.tf"] = files["main.tf"].replace("cidrhost(n, 200)", "cidrhost(n, -2)")
    root = repo(files, config=_config("10.0.48.0/24: 10.0.60.0/22"), allowlist=ALLOW)
    assert ("main.tf", 4, "composed-address") in _findings(root, run)  # (silent before the fix)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert ("gw.tftpl", 2, "composed-address") in _findings(root, run)
    assert ("main.tf", 4, "composed-address") in _findings(root, run)
    after = _outputs(root, tmp_path / "a")
    assert after["hosts"] == ["10.0.63.254"]  # what the residual warns of: not 10.0.60.254's offset


IPAM = {
    ".gitignore": ".terraform*\nterraform.tfstate*\n",
    "main.tf": ('locals {\n  rows = csvdecode(file("${path.module}/ipam.csv"))\n'
                '  gw   = { for r in local.rows : r.name => cidrhost(r.cidr, -2) }\n'
                '  dmz  = { for r in local.rows : r.name => cidrsubnet(r.cidr, 8, 200) }\n}\n'
                'output "gw" { value = local.gw }\noutput "dmz" { value = local.dmz }\n'),
    "ipam.csv": "name,cidr\nlan,10.0.0.0/16\n",
}


@needs_terraform
def test_a_csv_ipam_export_through_a_for_expression(
        tmp_path: Path, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """t32-33 16: grow /16 -> 10.16.0.0/12: both expressions are residuals naming ipam.csv (before:
    the gateway moved to 10.31.255.254, the dmz to 10.28.128.0/20 with no word); shrink /16 -> /17
    in place: `cidrsubnet(r.cidr, 8, 200)` (10.0.200.0/24) lies outside 10.0.0.0/17: refused."""
    root = repo(IPAM, config=_config("10.0.0.0/16: 10.16.0.0/12"), allowlist=ALLOW)
    assert _outputs(root, tmp_path / "a") == {"gw": {"lan": "10.0.255.254"}, "dmz": {"lan": "10.0.200.0/24"}}
    assert _findings(root, run) == [("main.tf", 3, "composed-address"), ("main.tf", 4, "composed-address")]
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert "in ipam.csv:2, a file the expression reads" in done.stdout + done.stderr
    assert run(root, "verify", "--strict").exit_code == 1
    root = repo(IPAM, config=_config("10.0.0.0/16: 10.0.0.0/17"), allowlist=ALLOW)
    files = snapshot(root)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert snapshot(root) == files
    assert "main.tf:4: outside the new, smaller network: `cidrsubnet(r.cidr, 8, 200)`" in done.stderr, done.stderr
