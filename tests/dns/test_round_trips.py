"""How many ssh round trips one remote resolver costs (dns/transport.py batches them), counted
with a wrapper around the real ssh on PATH, against a real loopback sshd and dnsmasq."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.testing.resolvers import Lab, addresses, dns, move_gateway


def _counting_ssh(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An `ssh` first on PATH that logs each invocation, then runs the real one."""
    folder.mkdir()
    log = folder / "calls"
    wrapper = folder / "ssh"
    # One line per round trip (the script ssh carries spans many lines); closing the master
    # connection (`ssh -O exit`) is no round trip of an operation.
    wrapper.write_text(f'#!/bin/sh\ncase " $* " in *" -O exit "*) ;; *) echo trip >> {log};; esac\n'
                       f'exec {shutil.which("ssh")} "$@"\n')
    wrapper.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}:{Path(shutil.which('ssh') or '/usr/bin/ssh').parent}:/usr/bin:/bin")
    log.write_text("")
    return log


def _trips(log: Path) -> int:
    trips = len(log.read_text().splitlines())
    log.write_text("")
    return trips


def test_one_ssh_resolver_takes_at_most_four_round_trips(run, lab: Lab, sshd, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    lab.write_resolvers(ns_fv={"target": sshd.target(), "ssh_config": str(sshd.client_config)})
    log = _counting_ssh(tmp_path / "bin", monkeypatch)
    first = dns(run, lab, "apply", "--resolvers", "ns-fv")  # two new snippets
    assert first.exit_code == 0, first.stdout + first.stderr
    assert _trips(log) <= 4
    move_gateway(lab)
    changed = dns(run, lab, "apply", "--resolvers", "ns-fv")  # one snippet changed, one kept
    assert changed.exit_code == 0, changed.stdout + changed.stderr
    assert _trips(log) <= 4
    assert addresses(lab, "fv-gw.fv.lan", "ns-fv") == {"ns-fv": ("10.251.0.2",)}
    again = dns(run, lab, "apply", "--resolvers", "ns-fv")  # nothing to do: lock, read, unlock
    assert again.exit_code == 0 and "unchanged" in again.stdout
    assert _trips(log) <= 2
    assert dns(run, lab, "plan", "--resolvers", "ns-fv").exit_code == 0
    assert _trips(log) <= 1
