"""Fixtures of the BIND tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.testing.resolvers import Lab, start_bind_lab


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[Lab]:
    """Two real nameds: ns-fv is applied first, ns-fv2 after it."""
    started = start_bind_lab(tmp_path / "lab", ("ns-fv", "ns-fv2"))
    try:
        yield started
    finally:
        started.stop()
