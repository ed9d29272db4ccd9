"""The sandbox's free ports: two calls in one process never share one (nothing is bound between
them: a resolver's DNS and control ports once came out equal, and unbound refused to start)."""

from __future__ import annotations

import random

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
