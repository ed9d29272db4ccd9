"""Where renamer keeps its own state for a repository: the sweep journal and the lock.

Never in the work tree, so nothing the repository ships (a `renamer-journal.json`
committed by someone, a file in a tarball) is ever taken for renamer's state.
In a git repository: git's private folder for this work tree (`git rev-parse
--absolute-git-dir`: `.git`, or `.git/worktrees/<name>` in a linked worktree, or
`.git/modules/<name>` in a submodule checkout). In a plain folder: a per-user
folder keyed by the folder's real path.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from renamer import vcs_command

JOURNAL_NAME = "renamer-journal.json"
LOCK_NAME = "renamer.lock"


def state_folder(root: Path) -> Path:
    git_dir = vcs_command.git_dir(root)
    if git_dir is not None:
        return git_dir
    base = Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state")
    key = hashlib.sha256(os.fsencode(root.resolve())).hexdigest()[:16]
    folder = base / "renamer" / key
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    return folder


def journal_path(root: Path) -> Path:
    return state_folder(root) / JOURNAL_NAME


def lock_path(root: Path) -> Path:
    return state_folder(root) / LOCK_NAME
