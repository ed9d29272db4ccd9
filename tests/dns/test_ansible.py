"""The Ansible engine: the real ansible-playbook against real dnsmasq resolvers (and one over a real sshd)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from renamer.dns import ansible_engine
from renamer.errors import ConfigError
from tests.testing.resolvers import broken_test, dns, move_gateway, serving, start_lab

FLEET = ("ns-a1", "ns-a2", "ns-a3", "ns-a4", "ns-a5")
# Two local resolvers and one reached through a real sshd: with --batch-size 2, two batches, one
# of them mixing both connections. (Each host more costs seconds of each of its four playbook runs.)
MIXED = ("ns-a1", "ns-a2", "ns-ssh")


@pytest.fixture
def fleet(tmp_path: Path):  # type: ignore[no-untyped-def]
    """Five real dnsmasq resolvers on loopback, local connections."""
    started = start_lab(tmp_path / "fleet", FLEET)
    try:
        yield started
    finally:
        started.stop()




def _rows(stdout: str) -> dict[str, str]:
    lines = stdout.splitlines()
    end = next(i for i, line in enumerate(lines) if line.startswith("dns apply:"))
    return {line.split()[0]: " ".join(line.split()[2:4]) for line in lines[1:end] if line[:1] != " "
            and line.split()[0] in (*FLEET, *MIXED, "ns-ana", "ns-ana2", "ns-fv")}


def test_apply_rerun_and_an_ssh_resolver(run, sshd, tmp_path: Path) -> None:
    lab = start_lab(tmp_path / "mixed", MIXED)
    try:
        _mixed_resolvers(run, lab, sshd, tmp_path)
    finally:
        lab.stop()


def _mixed_resolvers(run, lab, sshd, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    lab.write_resolvers(ns_ssh={"target": sshd.target(), "ssh_config": str(sshd.client_config),
                                "python": "/usr/bin/python3"})  # Debian's, whatever else is on PATH
    first = dns(run, lab, "apply", "--resolvers", "all", "--engine", "ansible", "--batch-size", "2")
    assert first.exit_code == 0, first.stdout + first.stderr
    assert _rows(first.stdout) == {name: "applied backup" for name in MIXED}
    assert "ansible: batch 1 started" in first.stderr and "ansible: batch 2 started" in first.stderr
    assert sshd.connections() >= 1  # ns-ssh went through the real sshd
    assert dns(run, lab, "verify", "--resolvers", "all").exit_code == 0
    pids = lab.pids()
    again = dns(run, lab, "apply", "--resolvers", "all", "--engine", "ansible", "--batch-size", "2")
    assert again.exit_code == 0
    assert _rows(again.stdout) == {name: "unchanged snippets" for name in MIXED}
    assert lab.pids() == pids  # nothing restarted
    # The exported playbook on its own: syntax, a re-run with changed=0, and --check --diff.
    out = tmp_path / "export"
    exported = dns(run, lab, "export", "ansible", "--out", str(out))
    assert exported.exit_code == 0, exported.stderr
    env = {**os.environ, "ANSIBLE_CONFIG": str(out / "ansible.cfg"), "ANSIBLE_NOCOLOR": "1"}
    playbook = str(Path(sys.executable).parent / "ansible-playbook")
    syntax = subprocess.run([playbook, "--syntax-check", "playbook.yml"], cwd=out, env=env,
                            capture_output=True, text=True)
    assert syntax.returncode == 0, syntax.stdout + syntax.stderr
    rerun = subprocess.run([playbook, "playbook.yml"], cwd=out, env=env, capture_output=True, text=True)
    assert rerun.returncode == 0, rerun.stdout[-3000:]
    recap = rerun.stdout[rerun.stdout.index("PLAY RECAP"):]
    assert recap.count("changed=0") == len(MIXED) and "failed=0" in recap, recap
    move_gateway(lab)
    out2 = tmp_path / "export2"
    assert dns(run, lab, "export", "ansible", "--out", str(out2)).exit_code == 0
    env2 = {**env, "ANSIBLE_CONFIG": str(out2 / "ansible.cfg")}
    check = subprocess.run([playbook, "playbook.yml", "--check", "--diff"], cwd=out2, env=env2,
                           capture_output=True, text=True)
    assert check.returncode == 0, check.stdout[-3000:]
    removed = [line for line in check.stdout.splitlines() if line.startswith("-") and "10.251.0.1" in line]
    added = [line for line in check.stdout.splitlines() if line.startswith("+") and "10.251.0.2" in line]
    assert removed and added, check.stdout[-3000:]  # the snippet diff, per resolver
    assert lab.pids() == pids and serving(run, lab, "ns-a1") == "old"  # --check changed nothing


def test_a_failure_in_the_second_batch_rolls_back_that_batch_only(run, fleet) -> None:
    assert dns(run, fleet, "apply", "--resolvers", "all").exit_code == 0
    move_gateway(fleet)
    fleet.write_resolvers(**broken_test(fleet, "ns-a3"))
    result = dns(run, fleet, "apply", "--resolvers", "all", "--engine", "ansible", "--batch-size", "2")
    assert result.exit_code == 1, result.stdout + result.stderr
    rows = _rows(result.stdout)
    assert rows["ns-a1"].startswith("applied") and rows["ns-a2"].startswith("applied")
    assert rows["ns-a3"] == "rolled back" and rows["ns-a4"] == "rolled back"
    assert rows["ns-a5"] == "not reached"
    assert "ns-a3: Apply | test the resolver configuration: broken" in result.stdout
    assert result.stdout.rstrip().endswith("dns apply: FAILED: 2 applied and kept; 2 rolled back; "
                                           "1 not reached")
    fleet.write_resolvers()
    assert [serving(run, fleet, name) for name in FLEET] == ["new", "new", "old", "old", "old"]


def test_a_canary_failure_stops_before_any_other_resolver(run, fleet) -> None:
    assert dns(run, fleet, "apply", "--resolvers", "all").exit_code == 0
    before = fleet.snippets()
    pids = fleet.pids()
    move_gateway(fleet)
    fleet.write_resolvers(**broken_test(fleet, "ns-a1"))
    result = dns(run, fleet, "apply", "--resolvers", "all", "--engine", "ansible", "--canary", "1",
                 "--batch-size", "2")
    assert result.exit_code == 1
    rows = _rows(result.stdout)
    assert rows["ns-a1"] == "rolled back"
    assert all(rows[name] == "not reached" for name in FLEET[1:])
    assert fleet.snippets() == before
    assert {k: v for k, v in fleet.pids().items() if k != "ns-a1"} == {k: v for k, v in pids.items()
                                                                       if k != "ns-a1"}


def test_no_inventory_value_is_ever_templated(run, lab, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    # A command argument that Ansible would run as a lookup, were it templated.
    witness = tmp_path / "templated"
    trap = "{{ lookup('ansible.builtin.pipe', 'touch " + str(witness) + "') }}"
    lab.write_resolvers(ns_ana={"test": ["sh", "-c", 'test "$1" = "$2"', "sh", trap, trap]})
    # The user's own Ansible settings cannot change the verdict: renamer names its own.
    monkeypatch.setenv("ANSIBLE_CALLBACKS_ENABLED", "ansible.builtin.junit")
    monkeypatch.setenv("ANSIBLE_INVENTORY", str(tmp_path / "someone-elses-hosts.yml"))
    result = dns(run, lab, "apply", "--resolvers", "all", "--engine", "ansible")
    assert result.exit_code == 0, result.stdout + result.stderr  # the words arrived as they are
    assert set(_rows(result.stdout).values()) == {"applied backup"}
    assert not witness.exists()


def test_a_half_done_resolver_is_never_guessed_over(run, lab) -> None:
    backups = lab.root / "backups" / "ns-ana2"
    backups.mkdir(parents=True)
    (backups / "renamer-apply-pending").write_text(f"{backups}/ns-ana2-20261129T000000Z\n20261129T000000Z\n")
    result = dns(run, lab, "apply", "--resolvers", "all", "--engine", "ansible")
    assert result.exit_code == 3
    assert "an earlier dns apply was interrupted on ns-ana2" in result.stderr
    assert lab.snippets() == {}


def test_resolvers_from_an_ansible_inventory(run, fleet) -> None:
    hosts = fleet.root / "ansible" / "hosts.yml"
    hosts.parent.mkdir()
    (hosts.parent / "group_vars").mkdir()
    entries = []
    for name, instance in fleet.instances.items():
        entries.append(f"        {name}:\n          ansible_host: 127.0.0.1\n          ansible_connection: local\n"
                       f"          renamer_port: {instance.port}\n"
                       f"          renamer_snippet_dir: {instance.snippet_dir}\n"
                       f"          renamer_backup_dir: {fleet.root / 'backups' / name}\n"
                       f"          renamer_test: {instance.test_command()}\n"
                       f"          renamer_reload: {instance.reload_command()}\n"
                       f"          renamer_conf_file: {instance.conf}\n")
    hosts.write_text("all:\n  children:\n    dns:\n      hosts:\n" + "".join(entries)
                     + "    web:\n      hosts:\n        www1:\n")
    (hosts.parent / "group_vars" / "dns.yml").write_text("renamer_timeout: 1.0\n")
    (fleet.inventory / "resolvers.yaml").write_text(
        "from_ansible:\n  inventory: ../ansible/hosts.yml\n  group: dns\n  defaults:\n    dhcp: []\n")
    applied = dns(run, fleet, "apply", "--resolvers", "all", "--engine", "ansible")
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    assert _rows(applied.stdout) == {name: "applied backup" for name in FLEET}
    assert dns(run, fleet, "verify", "--resolvers", "ns-a4").exit_code == 0
    # Nothing of the inventory is code: a template is refused, a script is never run.
    (hosts.parent / "group_vars" / "dns.yml").write_text(
        "renamer_timeout: 1.0\nrenamer_sites: [\"{{ lookup('pipe', 'touch /tmp/pwned') }}\"]\n")
    refused = dns(run, fleet, "plan", "--resolvers", "all")
    assert refused.exit_code == 2
    assert "from_ansible[ns-a1]: renamer_sites is a Jinja template; renamer never templates" in refused.stderr
    hosts.chmod(0o755)
    script = dns(run, fleet, "plan", "--resolvers", "all")
    assert script.exit_code == 2 and "is executable: only static inventories" in script.stderr


def test_without_ansible_the_engine_says_what_to_install(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(sys, "executable", str(tmp_path / "python"))
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(ConfigError, match=r"needs ansible-playbook \(ansible-core\): install ansible-core in "
                                          r"renamer's environment \(its fleet extra: pip install '\.\[fleet\]'"):
        ansible_engine.playbook_command()


def test_the_builtin_engine_never_imports_ansible() -> None:
    code = ("import sys\nfrom renamer.cli import dns\nfrom renamer.dns import run, ansible_engine, inventory\n"
            "print(sorted(m for m in sys.modules if m == 'ansible' or m.startswith('ansible.')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
