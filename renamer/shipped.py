"""Where the data shipped with renamer lives: inside the wheel, or in a source checkout."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def shipped(name: str) -> Path:
    """The shipped folder `name` (allowlists, dns or examples)."""
    inside = _PACKAGE / "_shipped" / name
    if inside.exists():
        return inside
    return _PACKAGE.parent / name
