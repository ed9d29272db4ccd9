"""hyperscan, the optional native matching engine, in one place: the sweep's first pass
(sweep/native_gate.py) and the loose pass's anchors (near_miss.Anchors) take it from here.

Wheels exist for Linux x86_64 only; anything short of a working module (not installed, a
failed import, a broken wheel) is None here, and each user then runs its pure-Python reading,
which stays the reference. `RENAMER_NATIVE=0` turns every native pass off.
"""

from __future__ import annotations

import os
from typing import Any

hyperscan: Any
try:
    import hyperscan
except Exception:  # a broken wheel raises what it likes (OSError, ImportError)
    hyperscan = None

ENV = "RENAMER_NATIVE"


def wanted() -> str:
    """RENAMER_NATIVE as set: `0` (never), `1` (whatever the size), or empty (where it pays)."""
    return os.environ.get(ENV, "").strip()
