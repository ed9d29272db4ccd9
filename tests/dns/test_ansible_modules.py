"""The Ansible engine's preflight finds a host where no module can run (F7): its Python cannot be
found or started (`python`, as ansible_python_interpreter). One line names the host, exit 3, and
nothing is written on any host: before, its first task failed there after the other hosts of its
batch were written and restarted. Real ansible-playbook, a real sshd, real dnsmasq; answers
asked over DNS."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.testing.resolvers import addresses, dns, move_gateway, start_lab

MIXED = ("ns-m1", "ns-m2", "ns-ssh")
GW = "fv-gw.fv.lan."


@pytest.mark.parametrize("python, says", [
    pytest.param("/nonexistent/python3", "/nonexistent/python3: not found", id="missing"),
    pytest.param("/bin/false", "failed", id="not-a-python"),
])
def test_a_host_where_no_module_runs_is_refused_before_any_write(run, sshd, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                 python: str, says: str) -> None:
    lab = start_lab(tmp_path / "mixed", MIXED)
    try:
        reach = {"target": sshd.target(), "ssh_config": str(sshd.client_config)}
        lab.write_resolvers(ns_ssh={**reach, "python": "/usr/bin/python3"})
        assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
        move_gateway(lab)
        lab.write_resolvers(ns_ssh={**reach, "python": python})
        before, pids = lab.snippets(), lab.pids()
        result = dns(run, lab, "apply", "--resolvers", "all", "--engine", "ansible", "--batch-size", "3")
        assert result.exit_code == 3, result.stdout + result.stderr
        line = result.stderr.strip()
        assert len(line.splitlines()) == 1, line
        assert line.startswith("renamer: error: ns-ssh: Ansible cannot run a module there (failed: "), line
        assert says in line and line.endswith("set the resolver's `python` (ansible_python_interpreter) to a "
                                              "Python it has, or apply it with --engine builtin; nothing "
                                              "written on any resolver"), line
        assert lab.snippets() == before and lab.pids() == pids
        assert set(addresses(lab, GW).values()) == {("10.251.0.1",)}
        assert not list((lab.root / "backups").glob("*/renamer-apply.lock"))
        assert not list((lab.root / "backups").glob("*/renamer-apply-pending"))
        lab.write_resolvers(ns_ssh={**reach, "python": "/usr/bin/python3"})  # mended: it goes through
        done = dns(run, lab, "apply", "--resolvers", "all", "--engine", "ansible", "--batch-size", "3")
        assert done.exit_code == 0, done.stdout + done.stderr
        assert set(addresses(lab, GW).values()) == {("10.251.0.2",)}
    finally:
        lab.stop()
