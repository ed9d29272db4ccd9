"""Sets that expand to an old value without spelling it (break-it round 3, finding 8): Ansible host
ranges in INI and YAML inventories (keys and values) and shell brace sets are residuals `range`,
never rewritten and never silent; the real ansible-inventory and bash say what each set holds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

CONFIG = """\
version: 1
renames:
  hosts: {ana-ml2: fv-ml1, ana-ml2.ana.lan: fv-ml1.fv.lan, ana-mlb: fv-mlb}
  addresses: {10.250.50.54: 10.251.50.54}
allowlist: allow.yaml
"""
ALLOW = "version: 1\ncurrent: ['**']\n"
ANSIBLE_INVENTORY = str(Path(sys.executable).parent / "ansible-inventory")


def _findings(root: Path, run: Callable[..., Result]) -> list[tuple[int, str, str]]:
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    return sorted((f["line"], f["old"], f["reason"]) for f in found)


def _inventory_hosts(path: Path) -> set[str]:
    """Every host the real ansible-inventory reads from `path`."""
    env = {**os.environ, "ANSIBLE_NOCOLOR": "1", "ANSIBLE_INVENTORY_UNPARSED_WARNING": "False",
           "ANSIBLE_LOCAL_TEMP": str(path.parent / ".ansible-tmp"), "ANSIBLE_HOME": str(path.parent / ".ansible")}
    done = subprocess.run([ANSIBLE_INVENTORY, "-i", str(path), "--list"], capture_output=True, text=True,
                          check=True, env=env, cwd=path.parent)
    return set(json.loads(done.stdout)["_meta"]["hostvars"]) | {
        host for group in json.loads(done.stdout).values() if isinstance(group, dict)
        for host in group.get("hosts", [])}


def _bash_words(line: str) -> set[str]:
    done = subprocess.run(["bash", "-c", f"printf '%s\\n' {line}"], capture_output=True, text=True, check=True)
    return set(done.stdout.split())


INVENTORIES = [
    pytest.param("inventory/hosts", "[ml]\nana-ml[1:3]\n", "ana-ml2", id="ini-range"),
    pytest.param("inventory/hosts", "[ml]\nana-ml[2:4] ansible_user=ops\n", "ana-ml2", id="ini-range-at-its-low-end"),
    pytest.param("inventory/hosts", "[ml]\nana-ml[0:2]\n", "ana-ml2", id="ini-range-at-its-high-end"),
    pytest.param("inventory/hosts", "[ml]\nana-ml[0:8:2]\n", "ana-ml2", id="ini-range-with-a-step"),
    pytest.param("inventory/hosts", "[ml]\nana-ml[a:c]\n", "ana-mlb", id="ini-letters"),
    pytest.param("inventory/hosts", "[ml]\nana-ml[1:3].ana.lan\n", "ana-ml2.ana.lan", id="ini-fqdn"),
    pytest.param("inventory/hosts", "[net]\n10.250.50.[50:60]\n", "10.250.50.54", id="ini-addresses"),
    pytest.param("inventory/hosts", "[net]\n10.250.[49:51].[53:55]\n", "10.250.50.54", id="ini-two-ranges"),
    pytest.param("inventory/lab.yml", "all:\n  hosts:\n    ana-ml[1:3]:\n      ansible_user: ops\n", "ana-ml2",
                 id="yaml-key"),
    pytest.param("inventory/lab.yml", "all:\n  children:\n    net:\n      hosts:\n        10.250.50.[50:60]: {}\n",
                 "10.250.50.54", id="yaml-address-key"),
]


@pytest.mark.parametrize(("path", "content", "old"), INVENTORIES)
def test_an_ansible_range_covering_an_old_value_is_a_residual(path: str, content: str, old: str,
                                                              repo: Callable[..., Path],
                                                              run: Callable[..., Result]) -> None:
    root = repo({path: content}, config=CONFIG, allowlist=ALLOW)
    assert old in _inventory_hosts(root / path)  # the set does hold the old value, as Ansible reads it
    found = _findings(root, run)
    assert found and {reason for _, _, reason in found} == {"range"}, found
    line = next(i for i, text in enumerate(content.splitlines(), 1) if "[" in text and ":" in text.split("[", 1)[1])
    assert {at for at, _, _ in found} == {line}
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 1, result.stdout + result.stderr
    assert (root / path).read_text() == content
    assert run(root, "verify", "--strict").exit_code == 1


@pytest.mark.parametrize(("path", "content"), [
    pytest.param("deploy.sh", "for h in {ana,fv}-ml2; do ssh \"$h\" true; done\n", id="alternatives-then-text"),
    pytest.param("deploy.sh", "for h in ana-ml{2..4}; do ping -c1 $h; done\n", id="sequence"),
    pytest.param("deploy.sh", "for ip in 10.250.50.{50..60}; do ping -c1 $ip; done\n", id="address-sequence"),
    pytest.param("deploy.sh", "for h in ana-ml{0..8..2}; do :; done\n", id="sequence-with-a-step"),
    pytest.param("deploy.sh", "for h in ana-ml{3..1}; do :; done\n", id="sequence-down"),
    pytest.param("deploy.sh", "for h in {ana,fv}-ml2.ana.lan; do :; done\n", id="alternatives-fqdn"),
    pytest.param("deploy.sh", "for h in {db,ana-ml{1,2}}; do :; done\n", id="nested"),
    pytest.param("deploy.sh", "for h in {ana-ml2,ana-ml3}.ana.lan; do :; done\n", id="whole-names-joined-to-a-domain"),
    pytest.param("deploy.sh", "for h in ana-ml{a..c}; do :; done\n", id="letters"),
    pytest.param("notes/hosts.md", "Hosts: `{ana,fv}-ml2`\n", id="in-prose"),
])
def test_a_brace_set_covering_an_old_value_is_a_residual(path: str, content: str, repo: Callable[..., Path],
                                                         run: Callable[..., Result]) -> None:
    root = repo({path: content}, config=CONFIG, allowlist=ALLOW)
    words = content.split(" in ", 1)[1].split(";", 1)[0] if " in " in content else "{ana,fv}-ml2"
    olds = {"ana-ml2", "ana-ml2.ana.lan", "10.250.50.54", "ana-mlb"}
    assert _bash_words(words) & olds  # bash expands the set to an old value
    found = _findings(root, run)
    assert found and {reason for _, _, reason in found} == {"range"}, found
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 1, result.stdout + result.stderr
    assert (root / path).read_text() == content
    assert run(root, "verify", "--strict").exit_code == 1


@pytest.mark.parametrize(("path", "content", "expected"), [
    pytest.param("inventory/hosts", "[ml]\nana-ml[3:5]\n", None, id="range-beside-the-name"),
    pytest.param("inventory/hosts", "[ml]\nana-ml[1:9:2]\n", None, id="step-skips-the-name"),
    pytest.param("inventory/hosts", "[ml:children]\nana\n[ana:vars]\nx=1\n", None, id="ini-group-headers"),
    pytest.param("deploy.sh", "for h in {xana,fv}-ml2 ana-ml{3..5}; do :; done\n", None, id="sets-of-other-names"),
    pytest.param("deploy.sh", "for h in {ana-ml2,db}; do :; done\n", "for h in {fv-ml1,db}; do :; done\n",
                 id="a-list-naming-it-whole-is-rewritten"),
    pytest.param("app.py", "hosts = names[1:3] + ['ana-ml2']\n", "hosts = names[1:3] + ['fv-ml1']\n",
                 id="a-slice-is-no-set"),
])
def test_sets_that_do_not_cover_an_old_value_are_no_residual(path: str, content: str, expected: str | None,
                                                            repo: Callable[..., Path],
                                                            run: Callable[..., Result]) -> None:
    root = repo({path: content}, config=CONFIG, allowlist=ALLOW)
    found = _findings(root, run)
    assert all(reason != "range" for _, _, reason in found), found
    assert bool(found) == (expected is not None)  # the plain occurrence, where there is one
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert (root / path).read_text() == (content if expected is None else expected)
    assert run(root, "verify", "--strict").exit_code == 0


def test_the_explanation_names_the_set(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """What the residual says, through `verify` and `explain`: the old value and the line."""
    root = repo({"inventory/hosts": "[ml]\nana-ml[1:3]\n"}, config=CONFIG, allowlist=ALLOW)
    assert _findings(root, run) == [(2, "ana-ml[1:3]", "range")]
    shown = run(root, "explain", "inventory/hosts")
    assert "range" in shown.stdout and "ana-ml[1:3]" in shown.stdout, shown.stdout


@pytest.mark.parametrize(("path", "content"), [
    pytest.param("inventory/hosts", "[ml]\nana-ml[01:03]\n", id="ansible"),
    pytest.param("inventory/lab.yml", "ml:\n  hosts:\n    ana-ml[01:03]:\n", id="ansible-yaml"),
    pytest.param("deploy.sh", "for h in ana-ml{01..03}; do :; done\n", id="shell"),
])
def test_a_padded_range_is_read_by_value(path: str, content: str, repo: Callable[..., Path],
                                         run: Callable[..., Result]) -> None:
    """`ana-ml[01:03]` expands to ana-ml02, not ana-ml2; written beside a fleet named ana-ml2 it most
    likely meant that machine (as `web{01..03}` is read by value): a person decides."""
    root = repo({path: content}, config=CONFIG, allowlist=ALLOW)
    found = _findings(root, run)
    assert [reason for _, _, reason in found] == ["range"]
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / path).read_text() == content
