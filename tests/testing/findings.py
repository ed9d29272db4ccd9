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


def reasons(root: Path, run: Callable[..., Any]) -> list[tuple[str, int, str]]:
    """(path, line, reason) of every finding with a reason verify reports in `root`, sorted."""
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    return sorted((str(f["path"]), int(f["line"]), str(f["reason"])) for f in found if f["reason"] is not None)


def networks_config(networks: str) -> str:
    """A renamer.yaml moving `networks` (a YAML flow mapping's inside), everything current by allow.yaml."""
    return f"version: 1\nrenames:\n  networks: {{{networks}}}\nallowlist: allow.yaml\n"
