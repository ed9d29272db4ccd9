"""Real dnsmasq resolvers (tests/testing/resolvers.py) and a real sshd for the DNS cases."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path

import dns.exception
import dns.message
import dns.query

from tests.adversarial.harness import Run, Scratch
from tests.testing.resolvers import Lab, fails_once_written, start_lab
from tests.testing.sshd import SshServer, start_sshd

GATEWAY_BEFORE, GATEWAY_AFTER = "address: 10.251.0.1", "address: 10.251.0.2"  # fv-gw in sites/fv.yaml


def lab(s: Scratch) -> Lab:
    """Three dnsmasq instances on loopback with the shipped inventory; stopped when the case ends."""
    started = start_lab(s.root / "lab")
    s.on_close(started.stop)
    return started


def sshd(s: Scratch) -> SshServer:
    server = start_sshd(s.root / "sshd")
    s.on_close(server.stop)
    return server


def over_ssh(server: SshServer) -> dict[str, object]:
    return {"target": server.target(), "ssh_config": str(server.client_config)}


def dns_cli(s: Scratch, where: Lab, *args: str) -> Run:
    """`renamer dns ARGS --inventory ...` in-process."""
    return s.cli(where.root, "dns", *args, "--inventory", str(where.inventory))


def dns_command(where: Lab, *args: str) -> list[str]:
    return [sys.executable, "-m", "renamer", "dns", *args, "--inventory", str(where.inventory)]


def move_gateway(where: Lab) -> None:
    """An inventory change every resolver must apply: fv-gw moves from .0.1 to .0.2."""
    path = where.inventory / "sites" / "fv.yaml"
    path.write_text(path.read_text().replace(GATEWAY_BEFORE, GATEWAY_AFTER))


def addresses(where: Lab, resolver: str, name: str) -> list[str]:
    """The A records `resolver` answers for `name` (asked directly, no system resolver)."""
    instance = where.instances[resolver]
    query = dns.message.make_query(name, "A")
    try:
        reply = dns.query.udp(query, instance.address, port=instance.port, timeout=2)
    except dns.exception.Timeout:
        return ["(no answer)"]
    return [item.to_text() for rrset in reply.answer for item in rrset if rrset.rdtype == 1]


def serving(where: Lab, name: str) -> dict[str, list[str]]:
    return {resolver: addresses(where, resolver, name) for resolver in where.instances}


def interrupt_in_test(s: Scratch, where: Lab, sig: signal.Signals) -> tuple[int, str]:
    """Apply the gateway move with ns-fv's `test` hanging; send `sig` once ns-fv's snippet is
    written (between its write and its reload). Returns the exit status and the output."""
    move_gateway(where)
    where.write_resolvers(ns_fv={"test": fails_once_written(where, "ns-fv", "sleep 30")})
    snippet = where.instances["ns-fv"].snippet_dir / "renamer-fv.conf"
    before = snippet.read_bytes()
    log = s.root / f"apply-{sig.name}.log"
    with open(log, "wb") as out:
        apply = subprocess.Popen(dns_command(where, "apply", "--resolvers", "all"), cwd=where.root,
                                 env=s.process_env(), stdout=out, stderr=subprocess.STDOUT,
                                 start_new_session=True)
    deadline = time.monotonic() + 30
    while snippet.read_bytes() == before and apply.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(0.2)  # inside ns-fv's test now
    apply.send_signal(sig)
    code = apply.wait(timeout=60)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(apply.pid, signal.SIGKILL)  # the hanging test, if it outlived renamer
    where.write_resolvers()
    return code, log.read_text(errors="replace")


def site_inventory(folder: Path, site: Mapping[str, object], file_name: str) -> Path:
    """A one-site inventory with one resolver that serves it (and its DHCP)."""
    (folder / "sites").mkdir(parents=True)
    (folder / "sites" / file_name).write_text(json.dumps(dict(site)))
    name = site["site"]
    (folder / "resolvers.yaml").write_text(
        "resolvers:\n"
        f"  - {{name: ns, address: 127.0.0.1, snippet_dir: {folder}/run, backup_dir: {folder}/bak,\n"
        f"     test: [dnsmasq, --test], reload: [/bin/true], sites: [{name}], dhcp: [{name}]}}\n")
    return folder
