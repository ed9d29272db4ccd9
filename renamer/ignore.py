"""The ignore rules of a folder that is not a git work tree: its .gitignore files, as git reads them.

A tarball or `git archive` export still carries its .gitignore files; without
them a sweep would walk `node_modules/`, build output and live `.env` files that
git would never have shown (adversarial pass, D2).
"""

from __future__ import annotations

import os
from pathlib import Path

import pathspec


class _Rules:
    """The .gitignore files from the root down to one folder: the deepest that decides wins."""

    def __init__(self, chain: tuple[tuple[str, pathspec.GitIgnoreSpec], ...]) -> None:
        self.chain = chain

    def ignores(self, rel: str, *, folder: bool) -> bool:
        verdict = False
        for prefix, spec in self.chain:
            inner = rel[len(prefix):] if prefix else rel
            result = spec.check_file(inner + ("/" if folder else "")).include
            if result is not None:
                verdict = result
        return verdict

    def below(self, root: Path, rel_folder: str) -> _Rules:
        path = root / rel_folder / ".gitignore"
        try:
            if not path.is_file() or path.is_symlink():
                return self
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            return self
        prefix = f"{rel_folder}/" if rel_folder else ""
        return _Rules((*self.chain, (prefix, pathspec.GitIgnoreSpec.from_lines(lines))))


def walk(root: Path) -> tuple[list[str], list[str]]:
    """(files git would list, files its ignore rules hide) under `root`, never following links
    into folders; the .git folder of a broken or foreign repo is never walked."""
    kept: list[str] = []
    hidden: list[str] = []
    rules: dict[str, _Rules] = {"": _Rules(()).below(root, "")}
    for folder, dirs, files in os.walk(root):
        rel_folder = Path(folder).relative_to(root).as_posix()
        rel_folder = "" if rel_folder == "." else rel_folder
        here = rules.pop(rel_folder)
        prefix = f"{rel_folder}/" if rel_folder else ""
        entered = []
        for name in sorted(dirs):
            rel = prefix + name
            if name == ".git":
                continue
            if here.ignores(rel, folder=True):
                hidden += _everything_under(root, rel)
                continue
            entered.append(name)
            rules[rel] = here.below(root, rel)
        dirs[:] = entered
        for name in sorted(files):
            rel = prefix + name
            (hidden if here.ignores(rel, folder=False) else kept).append(rel)
    return kept, hidden


def _everything_under(root: Path, rel: str) -> list[str]:
    out = []
    for folder, dirs, files in os.walk(root / rel):
        dirs.sort()
        base = Path(folder).relative_to(root).as_posix()
        out += [f"{base}/{name}" for name in sorted(files)]
    return out
