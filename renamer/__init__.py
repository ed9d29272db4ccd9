"""renamer: history-preserving host renames and network migrations for infrastructure repos.

The library API (docs/api.md): `renamer.open_project(repo)` returns a Project with
`.plan()`, `.apply(plan)`, `.verify()` and `.audit()`; failures raise RenamerError
subclasses carrying the exit code.
"""

from __future__ import annotations

# Nothing is imported here at run time (t38-break finding 16): every `renamer.*` import runs this
# file first, the console script's entry (entry.py) too, and a stop that came while it imported
# `typing` ended the process before entry.py could answer it ("renamer: aborted", exit 130).
TYPE_CHECKING = False  # typing.TYPE_CHECKING's value, without importing typing (mypy reads it so)
if TYPE_CHECKING:
    from typing import Any

    from renamer.api import Project, SweepPlan, open_project
    from renamer.errors import ConfigError, RenamerError, UnsafeError

__all__ = ["ConfigError", "Project", "RenamerError", "SweepPlan", "UnsafeError", "__version__",
           "open_project"]


def __getattr__(name: str) -> Any:
    # Deferred (docs/architecture.md): the API imports the whole library (~150 ms), and every
    # `renamer.*` import, `renamer --help` included, runs this file first.
    if name == "__version__":  # from the package metadata: pyproject.toml is the one place
        from renamer.about import version

        return version()
    if name in ("ConfigError", "RenamerError", "UnsafeError"):
        from renamer import errors

        return getattr(errors, name)
    if name in ("Project", "SweepPlan", "open_project"):
        from renamer import api

        return getattr(api, name)
    raise AttributeError(f"module 'renamer' has no attribute {name!r}")
