"""The sandbox's free ports: two calls in one process never share one (nothing is bound between
them: a resolver's DNS and control ports once came out equal, and unbound refused to start)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from renamer.dns.dnsmasq import sandbox


class _Always:
    """A random source that always draws the same port, as two unlucky draws do."""

    def randrange(self, low: int, high: int) -> int:
        return low + 4242


def test_a_port_is_handed_out_once_even_when_the_draw_repeats(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(random, "SystemRandom", _Always)
    monkeypatch.setattr(sandbox, "_HANDED_OUT", set())
    first, second = sandbox.free_port(), sandbox.free_port()
    assert first != second
    assert {first, second} <= sandbox._HANDED_OUT


def test_many_ports_from_one_process_are_all_different() -> None:
    ports = [sandbox.free_port() for _ in range(300)]
    assert len(set(ports)) == len(ports)


def test_processes_picking_ports_at_once_never_share_one() -> None:
    """The suite's parallel workers each start daemons: two once drew the same free port, and the
    second dnsmasq failed with "Address already in use". A port is claimed across processes
    (while its process runs: each here holds its ports until all four have drawn theirs)."""
    import subprocess
    import sys

    take = ("import sys; from renamer.dns.dnsmasq import sandbox; "
            "print(*[sandbox.free_port() for _ in range(150)], flush=True); sys.stdin.read()")
    procs = [subprocess.Popen([sys.executable, "-c", take], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
             for _ in range(4)]
    ports = [int(p) for proc in procs for p in proc.stdout.readline().split()]  # type: ignore[union-attr]
    for proc in procs:
        proc.communicate(timeout=60)
    assert len(ports) == 600 and len(set(ports)) == 600


def _claims() -> Path:
    import os
    import tempfile

    return Path(tempfile.gettempdir()) / f"renamer-ports-{os.getuid()}"


@pytest.mark.parametrize("holder, taken", [("ended", True), ("running", False), ("unwritten", False)])
def test_a_claim_is_taken_over_only_from_a_process_that_ended(monkeypatch: pytest.MonkeyPatch, holder: str,
                                                              taken: bool) -> None:
    """A claim names its process: one that ended (a killed test run) gives its ports back; one
    still running, or a claim whose pid is not written yet, keeps them."""
    import subprocess

    port = sandbox._LOWEST + 4343 + ["ended", "running", "unwritten"].index(holder)  # one each: run in parallel

    class Drawn:
        def randrange(self, low: int, high: int) -> int:
            return port

    monkeypatch.setattr(random, "SystemRandom", Drawn)
    monkeypatch.setattr(sandbox, "_HANDED_OUT", set())
    claim = _claims() / str(port)
    claim.parent.mkdir(mode=0o700, exist_ok=True)
    gone = subprocess.Popen(["true"])
    gone.wait()  # reaped: its pid names no process
    claim.write_text({"ended": str(gone.pid), "running": "1", "unwritten": ""}[holder])
    try:
        assert (sandbox.free_port() == port) is taken
    finally:
        claim.unlink(missing_ok=True)
