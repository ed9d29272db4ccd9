"""An old value whose end is an interpolation (issue 27, found by the lead on NovaMachina/homelab):
`name = "k3s-server-0${count.index + 1}"` and `ip=10.0.40.10${count.index + 1}` under `count = 3`
build k3s-server-01 at 10.0.40.101, yet no byte spells either: the inventory was rewritten, the
Terraform stayed, and verify said OK. Each such place is a `composed-name` / `composed-address`
residual, never rewritten (the same line builds .102 and .103); where the values are certain
(Terraform's count and for_each, a shell loop) only a place that makes an old value is one.
What Terraform, bash and Jinja make of each line is asked of them, not assumed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import jinja2
import pytest

from tests.conftest import Result
from tests.testing.said import once
from tests.testing.terraform import needs_terraform

CONFIG = """\
version: 1
renames:
  hosts: {k3s-server-01: k3s-cp-01}
  addresses: {10.0.40.101: 10.0.41.101, "fd00::11": "fd00::911"}
allowlist: allow.yaml
"""
ALLOW = 'version: 1\ncurrent: ["**"]\n'
INVENTORY = 'all:\n  hosts:\n    "k3s-server-01":\n      ansible_host: "10.0.40.101"\n'
# The shape of NovaMachina/homelab's terraform/k3s_server.tf, on terraform_data (no provider to fetch).
SERVERS = """\
resource "terraform_data" "k3s-server-node" {
  count = 3
  input = {
    name      = "k3s-server-0${count.index + 1}"
    ipconfig0 = "ip=10.0.40.10${count.index + 1}/24,gw=10.0.40.1"
    host      = "10.0.40.10${count.index + 1}"
  }
}
output "built" { value = [for r in terraform_data.k3s-server-node : r.output] }
"""
TERRAFORM = shutil.which("terraform")


def _built(folder: Path) -> list[dict[str, str]]:
    """What Terraform builds from `folder` (local state, the builtin provider only)."""
    work = folder.parent / f"{folder.name}-tf"
    env = {"PATH": os.environ["PATH"], "TF_IN_AUTOMATION": "1", "TF_CLI_CONFIG_FILE": "/dev/null",
           "CHECKPOINT_DISABLE": "1", "HOME": str(work)}
    shutil.copytree(folder, work, ignore=shutil.ignore_patterns(".git"))
    for step in (["init", "-input=false"], ["apply", "-auto-approve", "-input=false"]):
        subprocess.run([str(TERRAFORM), *step, "-no-color"], cwd=work, env=env, check=True,
                       capture_output=True)
    done = subprocess.run([str(TERRAFORM), "output", "-json", "built"], cwd=work, env=env, check=True,
                          capture_output=True, text=True)
    shutil.rmtree(work)
    built: list[dict[str, str]] = json.loads(done.stdout)
    return built


def _bash(script: str, cwd: Path) -> str:
    done = subprocess.run(["bash", "-c", script], cwd=cwd, capture_output=True, text=True, check=True,
                          env={"PATH": os.environ["PATH"]})
    return done.stdout


def _findings(root: Path, run: Callable[..., Result]) -> list[tuple[str, int, int, str, str, str]]:
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    return [(f["path"], f["line"], f["column"], str(f["reason"]), f["old"], str(f.get("note", "")))
            for f in found if f["reason"] in ("composed-name", "composed-address")]


@needs_terraform
def test_terraform_count_that_builds_an_old_host_is_a_residual_never_rewritten(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"terraform/k3s_server.tf": SERVERS, "ansible/inventory/hosts.yaml": INVENTORY},
                config=CONFIG, allowlist=ALLOW)
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 1, result.stdout + result.stderr  # residuals that need a decision
    assert (root / "terraform/k3s_server.tf").read_text() == SERVERS
    assert (root / "ansible/inventory/hosts.yaml").read_text() == INVENTORY.replace(
        "k3s-server-01", "k3s-cp-01").replace("10.0.40.101", "10.0.41.101")
    # Terraform still builds the old machine: the residual is real.
    assert _built(root / "terraform")[0] == {"name": "k3s-server-01", "ipconfig0": "ip=10.0.40.101/24,gw=10.0.40.1",
                                             "host": "10.0.40.101"}
    done = run(root, "verify")
    assert done.exit_code == 1
    once(done.stdout, "terraform/k3s_server.tf:5:21: residual (composed-address): 10.0.40.101 -> 10.0.41.101",
         "`10.0.40.10${count.index + 1}` makes 10.0.40.101, 10.0.40.102, 10.0.40.103 (count = 3): "
         "10.0.40.101 is an old address, renamed 10.0.41.101")
    found = _findings(root, run)
    assert [(p, line, column, reason, old) for p, line, column, reason, old, _ in found] == [
        ("terraform/k3s_server.tf", 4, 18, "composed-name", "k3s-server-01"),
        ("terraform/k3s_server.tf", 5, 21, "composed-address", "10.0.40.101"),
        ("terraform/k3s_server.tf", 6, 18, "composed-address", "10.0.40.101")]
    audit = json.loads(run(root, "audit", "--format", "json").stdout)
    assert audit["summary"]["residual"] == 3
    explained = run(root, "explain", "terraform/k3s_server.tf")
    assert "k3s-server-01, k3s-server-02, k3s-server-03 (count = 3)" in explained.stdout, explained.stdout


@needs_terraform
def test_terraform_count_whose_values_are_no_old_value_stays_quiet(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """The agents' block (`count.index + 4`) builds .104 to .106: certain, and none is old."""
    agents = SERVERS.replace("k3s-server-0", "k3s-server-0").replace("count.index + 1", "count.index + 4")
    root = repo({"terraform/k3s_agent.tf": agents, "ansible/inventory/hosts.yaml": INVENTORY},
                config=CONFIG, allowlist=ALLOW)
    assert [b["host"] for b in _built(root / "terraform")] == ["10.0.40.104", "10.0.40.105", "10.0.40.106"]
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "terraform/k3s_agent.tf").read_text() == agents
    done = run(root, "verify")
    assert done.exit_code == 0, done.stdout


@needs_terraform
@pytest.mark.parametrize("made", ["4 + count.index", "(count.index) + 4"])
def test_terraform_count_with_the_number_first_or_the_index_in_parentheses_is_evaluated(
        made: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """Break-it round 17, #17 (insanitywholesale/home-infra's `10.0.50.${141 + count.index}`): the same
    certain values, however the sum is written; terraform agrees on what the block builds."""
    agents = SERVERS.replace("count.index + 1", made)
    root = repo({"terraform/k3s_agent.tf": agents, "ansible/inventory/hosts.yaml": INVENTORY},
                config=CONFIG, allowlist=ALLOW)
    assert [b["host"] for b in _built(root / "terraform")] == ["10.0.40.104", "10.0.40.105", "10.0.40.106"]
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "terraform/k3s_agent.tf").read_text() == agents
    assert run(root, "verify").exit_code == 0


@needs_terraform
def test_terraform_for_each_over_a_literal_set_is_evaluated(repo: Callable[..., Path],
                                                             run: Callable[..., Result]) -> None:
    tf = ('resource "terraform_data" "node" {\n  for_each = toset(["1", "2"])\n'
          '  input = { name = "k3s-server-0${each.key}" }\n}\n'
          'output "built" { value = [for r in terraform_data.node : r.output.name] }\n')
    root = repo({"main.tf": tf}, config=CONFIG, allowlist=ALLOW)
    assert _built(root) == ["k3s-server-01", "k3s-server-02"]  # type: ignore[comparison-overlap]
    found = _findings(root, run)
    assert [(line, reason, old) for _, line, _, reason, old, _ in found] == [(3, "composed-name", "k3s-server-01")]
    assert 'makes k3s-server-01, k3s-server-02 (for_each = ["1", "2"])' in found[0][5], found
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "main.tf").read_text() == tf


@pytest.mark.parametrize(("script", "reported"), [
    pytest.param("for i in 1 2 3; do\n  ssh root@10.0.40.10${i} uptime\ndone\n", True, id="braced"),
    pytest.param("for i in {1..3}\ndo\n  ping -c1 10.0.40.10$i\ndone\n", True, id="bare-brace-range"),
    pytest.param("for i in 4 5 6; do\n  ssh root@10.0.40.10${i} uptime\ndone\n", False, id="no-old-value"),
    pytest.param("for i in 1 2; do :; done\nssh root@10.0.40.10${i} uptime\n", True, id="after-the-loop"),
])
def test_a_shell_loop_is_evaluated(script: str, reported: bool, repo: Callable[..., Path],
                                   run: Callable[..., Result]) -> None:
    root = repo({"bin/check.sh": script}, config=CONFIG, allowlist=ALLOW)
    made = _bash(script.replace("ssh root@", "echo ").replace("ping -c1 ", "echo ").replace(" uptime", ""),
                 root)
    assert ("10.0.40.101" in made.split()) == (reported and "done\nssh" not in script), made
    found = _findings(root, run)
    assert bool(found) == reported, found
    if found and "done\nssh" not in script:
        assert "10.0.40.101 is an old address" in found[0][5] and "for i in" in found[0][5], found
    elif found:  # the loop is closed there: what `i` holds cannot be told
        assert "may spell 10.0.40.101: its literal is the old address's start" in found[0][5], found
    assert run(root, "sweep", "--commit").exit_code == (1 if reported else 0)
    assert (root / "bin/check.sh").read_text() == script


def test_a_jinja_item_completing_an_old_address_is_a_residual(repo: Callable[..., Path],
                                                               run: Callable[..., Result]) -> None:
    task = ('- name: servers\n  ansible.builtin.ping:\n  delegate_to: "10.0.40.10{{ item }}"\n'
            '  loop: "{{ range(1, 4) | list }}"\n')
    root = repo({"playbooks/ping.yml": task}, config=CONFIG, allowlist=ALLOW)
    assert jinja2.Template("10.0.40.10{{ item }}").render(item=1) == "10.0.40.101"
    found = _findings(root, run)
    assert [(line, column, reason) for _, line, column, reason, _, _ in found] == [(3, 17, "composed-address")]
    assert ("`10.0.40.10{{ item }}` may spell 10.0.40.101: its literal is the old address's start"
            in found[0][5]), found
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "playbooks/ping.yml").read_text() == task


@pytest.mark.parametrize(("files", "line"), [
    pytest.param({"net.tf": 'locals {\n  dns = "fd00::1${var.n}"\n}\n'}, 2, id="ipv6"),
    pytest.param({"Vagrantfile": '(1..3).each do |i|\n  cfg.vm.network "private_network", '
                                 'ip: "10.0.40.10#{i}"\nend\n'}, 2, id="ruby"),
    pytest.param({"stack/.env": "N=1\n", "stack/compose.yml": "services:\n  a:\n    extra_hosts:\n"
                  '      - "k3s:10.0.40.10${N}"\n'}, 4, id="env-and-compose"),
    pytest.param({"hosts.tf": 'locals {\n  fqdn = "k3s-server-0${var.n}.lab.example"\n}\n'}, 2, id="host-then-domain"),
])
def test_other_interpolations_completing_an_old_value(files: dict[str, str], line: int,
                                                       repo: Callable[..., Path],
                                                       run: Callable[..., Result]) -> None:
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    found = _findings(root, run)
    assert [f[1] for f in found] == [line], found
    assert "may spell" in found[0][5], found
    assert run(root, "sweep", "--commit").exit_code == 1
    for rel, text in files.items():
        assert (root / rel).read_text() == text
    if "stack/.env" in files:  # compose interpolates as a POSIX shell does
        assert _bash('set -a; . ./.env; printf %s "10.0.40.10${N}"', root / "stack") == "10.0.40.101"


NEAR = """\
resource "terraform_data" "agents" {
  count = 3
  input = {
    name = "k3s-agent-0${count.index + 1}"
    b    = "k3s-server-1${count.index + 1}"
    c    = "k3s-${var.role}"
    d    = "k3s-server${var.n}"
    e    = "10.${var.rest}"
    f    = "10.0.40.11${count.index}"
    g    = "10.0.40.${count.index + 11}"
    h    = "110.0.40.10${var.x}"
    i    = "k3s-server-0${count.index + 1}-disk"
    j    = "printf %s 10.0.40.10{} 10.0.40.10%s"
  }
}
"""


def test_a_near_duplicate_set_that_completes_no_old_value_stays_quiet(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"main.tf": NEAR, "ansible/inventory/hosts.yaml": INVENTORY}, config=CONFIG, allowlist=ALLOW)
    assert _findings(root, run) == []
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "main.tf").read_text() == NEAR
    done = run(root, "verify")
    assert done.exit_code == 0, done.stdout


@needs_terraform
def test_an_old_value_an_interpolation_continues_is_not_rewritten(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """Renaming the VIP 10.0.40.10 must not move the servers `10.0.40.10${count.index + 1}` builds:
    before, the sweep wrote 10.0.41.10${...} there (10.0.41.101...) and verify passed."""
    config = CONFIG.replace("10.0.40.101: 10.0.41.101", "10.0.40.10: 10.0.41.10")
    root = repo({"terraform/k3s_server.tf": SERVERS, "vip.yaml": "vip: 10.0.40.10\n"},
                config=config, allowlist=ALLOW)
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 1, result.stdout + result.stderr
    assert (root / "vip.yaml").read_text() == "vip: 10.0.41.10\n"
    assert (root / "terraform/k3s_server.tf").read_text() == SERVERS
    assert [b["host"] for b in _built(root / "terraform")] == ["10.0.40.101", "10.0.40.102", "10.0.40.103"]
    found = _findings(root, run)
    assert [(line, reason, old) for _, line, _, reason, old, _ in found] == [
        (4, "composed-name", "k3s-server-01"), (5, "composed-address", "10.0.40.10"),
        (6, "composed-address", "10.0.40.10")]
    assert "not 10.0.40.10: the interpolation continues the address" in found[1][5], found
