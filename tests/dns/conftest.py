"""Small labs of real dnsmasq resolvers shared by the DNS tests: `pair` starts the two named by
the test module's TWO, `fleet` the three named by its THREE; both are stopped after the test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.testing.resolvers import Lab, start_lab


def _lab(root: Path, names: tuple[str, ...]) -> Iterator[Lab]:
    started = start_lab(root, names)
    try:
        yield started
    finally:
        started.stop()


@pytest.fixture
def pair(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Lab]:
    yield from _lab(tmp_path / "pair", request.module.TWO)


@pytest.fixture
def fleet(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Lab]:
    yield from _lab(tmp_path / "fleet", request.module.THREE)
