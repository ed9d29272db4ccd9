"""verify --render: the kustomize guard's options turned into findings (kube_render.py)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from renamer.kube_render import RenderError, RenderFinding, guard
from renamer.project import LoadedProject
from renamer.sweep.collisions import before_move
from renamer.vcs_status import dirty_paths


def run_render(project: LoadedProject, folders: Sequence[Path], base: str | None,
               allow_identity: bool) -> list[RenderFinding]:
    """Each folder rendered at the move's base (`base`, else the commit before the move's first) and
    now; RenderError (exit 2) where no base is known."""
    if not folders:
        return []
    rev = base or before_move(project)
    if rev is None:
        # break-it round 20k, finding 16: a sweep written without --commit leaves HEAD the base; that
        # the changes are the sweep's is not provable here, so it is said, not assumed
        pending = ("; the work tree holds uncommitted changes: where they are this sweep's, HEAD is the base "
                   "(`--base HEAD`)") if project.git and dirty_paths(project.root) else ""
        raise RenderError("verify --render: no commit of this move is recorded, so there is no base to "
                          f"render (pass --base REV: the commit before the sweep{pending})")
    root = project.root.resolve()
    shown = []
    for folder in folders:
        full = Path(os.path.abspath(folder))
        if not full.is_relative_to(root):
            raise RenderError(f"verify --render: {folder}: outside the repository")
        shown.append(full.relative_to(root).as_posix() or ".")

    def find(data: bytes) -> list[tuple[int, int, str, str]]:
        return [(m.start, m.end, m.old, m.new) for m in project.matcher.find(data) if m.kept is None]

    return guard(root, shown, rev, find, allow_identity=allow_identity)


def render_lines(found: Sequence[RenderFinding]) -> list[str]:
    return [f"{f.folder}: {f.where()}: render: {f.message}" for f in found]


def render_data(found: Sequence[RenderFinding]) -> list[dict[str, str]]:
    return [{"folder": f.folder, "kind": f.identity[0], "namespace": f.identity[1], "name": f.identity[2],
             "message": f.message} for f in found]
