"""Where renamer keeps its own state for a repository: the sweep journal and the lock.

Inside git's private folder when there is one, so neither is ever swept,
committed or shipped with the repo; at the root of a plain folder otherwise.
"""

from __future__ import annotations

from pathlib import Path

JOURNAL_NAME = "renamer-journal.json"
LOCK_NAME = "renamer.lock"


def state_folder(root: Path) -> Path:
    return root / ".git" if (root / ".git").is_dir() else root


def journal_path(root: Path) -> Path:
    return state_folder(root) / JOURNAL_NAME


def lock_path(root: Path) -> Path:
    return state_folder(root) / LOCK_NAME
