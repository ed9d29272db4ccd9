"""The data shipped with renamer (inside the wheel, or in a source checkout), and the example repo."""

from __future__ import annotations

import shutil
from pathlib import Path

from renamer import vcs
from renamer.errors import RenamerError

_PACKAGE = Path(__file__).resolve().parent
EXAMPLE = "fv-ml1"


def shipped(name: str) -> Path:
    """The shipped folder `name` (allowlists, dns or examples)."""
    inside = _PACKAGE / "_shipped" / name
    if inside.exists():
        return inside
    return _PACKAGE.parent / name


UNTRACKED = shutil.ignore_patterns("__pycache__", "*.pyc", "*.pyo", ".DS_Store", "*~", ".*.swp")


def build_example(target: Path) -> Path:
    """The fv-ml1 example infra repo (with its allowlist and DNS inventory), committed in a new
    git repo at `target` (a new or empty folder): what `renamer demo` runs on."""
    source = shipped("examples") / EXAMPLE
    if not source.is_dir():
        raise RenamerError(f"{source}: the bundled example is missing; reinstall renamer")
    target.mkdir(parents=True, exist_ok=True)
    if any(target.iterdir()):
        raise RenamerError(f"{target}: folder is not empty")
    # Only what the repository tracks: a wheel built where the example's script once ran would
    # otherwise ship (and the demo commit) its __pycache__, and the demo would differ from the README.
    shutil.copytree(source, target, dirs_exist_ok=True, symlinks=True, ignore=UNTRACKED)
    (target / "allowlists").mkdir(exist_ok=True)
    shutil.copy2(shipped("allowlists") / f"{EXAMPLE}.yaml", target / "allowlists")
    shutil.copytree(shipped("dns"), target / "dns", dirs_exist_ok=True, ignore=UNTRACKED)
    vcs.init_with_commit(target, "Infra repo before the move: ana-ml2 at Anaheim",
                         "renamer demo", "demo@renamer.invalid")
    return target
