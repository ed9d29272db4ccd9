"""What `renamer verify --format json` reports, as the end-to-end tests compare it."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any


def places(root: Path, run: Callable[..., Any], reason: str) -> list[tuple[str, int]]:
    """(path, line) of every finding of `reason` verify reports in `root`, sorted."""
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    return sorted((f["path"], f["line"]) for f in found if f["reason"] == reason)
