"""renamer: history-preserving host renames and network migrations for infrastructure repos."""

from __future__ import annotations

__version__ = "0.1.0"
