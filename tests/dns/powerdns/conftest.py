from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.testing import powerdns


@pytest.fixture
def pdns(tmp_path: Path) -> Iterator[powerdns.Server]:
    """A real pdns_server on loopback holding fv's zones (fv.lan., 251.10.in-addr.arpa.), empty."""
    server = powerdns.start(tmp_path / "pdns")
    try:
        for zone in ("fv.lan.", "251.10.in-addr.arpa."):
            server.create_zone(zone)
        yield server
    finally:
        server.stop()
