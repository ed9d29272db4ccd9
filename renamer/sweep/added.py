"""What a change adds, read from git for `renamer verify --staged` and `--since REF`: the added lines
of each file (`git diff -U0`, C-quoted paths unquoted) and each file as the change leaves it."""

from __future__ import annotations

import re
from pathlib import Path

from renamer import vcs_status
from renamer.errors import ConfigError


def added_lines(root: Path, *, staged: bool, since: str | None) -> dict[str, list[tuple[int, bytes]]]:
    """{path: [(line number, bytes)]} of the lines the change adds."""
    if staged:
        spec = ["--cached"]
    else:
        assert since is not None
        if since.startswith("-"):
            raise ConfigError(f"--since {since!r}: expected a commit, a branch or a tag")
        spec = [f"{since}...HEAD"]
    out: dict[str, list[tuple[int, bytes]]] = {}
    path: str | None = None
    number = 0
    for raw in vcs_status.diff_zero_context(root, *spec).split(b"\n"):
        if raw.startswith(b"+++ "):
            name = raw[4:]
            if name.endswith(b"\t"):  # git ends a name holding a space with a tab
                name = name[:-1]
            path = None if name == b"/dev/null" else _unquote(name)[2:]  # drop "b/"
        elif raw.startswith(b"@@ "):
            found = re.match(rb"@@ -\d+(?:,\d+)? \+(\d+)", raw)
            number = int(found[1]) if found else 0
        elif raw.startswith(b"+") and path is not None:
            out.setdefault(path, []).append((number, raw[1:]))
            number += 1
    return out


def touched_paths(root: Path, *, staged: bool, since: str | None) -> list[str]:
    """Every file the change adds, modifies or renames onto, lines removed only included: a change
    that removes a line (a dated heading, the inline marker) can make other lines live."""
    spec = ["--cached"] if staged else [f"{since}...HEAD"]
    return sorted(vcs_status.diff_names(root, *spec))


def base_version(root: Path, path: str, *, staged: bool, since: str | None) -> bytes:
    """The file before the change: at HEAD (--staged), at the branch point (--since); empty
    where it is new."""
    base = "HEAD" if staged else vcs_status.merge_base(root, since or "HEAD", "HEAD")
    return (vcs_status.show(root, f"{base}:{path}") or b"") if base else b""


def _unquote(name: bytes) -> str:
    """A path as git prints it: C-style quoted when it holds a quote, a backslash or a control."""
    if not name.startswith(b'"'):
        return name.decode("utf-8", "surrogateescape")
    body = name[1:-1]
    out = bytearray()
    index = 0
    escapes = {ord("n"): 10, ord("t"): 9, ord('"'): 34, ord("\\"): 92, ord("a"): 7, ord("b"): 8,
               ord("f"): 12, ord("r"): 13, ord("v"): 11}
    while index < len(body):
        char = body[index]
        if char == 92 and index + 1 < len(body):
            following = body[index + 1]
            if 48 <= following <= 55:  # \ooo
                out.append(int(body[index + 1:index + 4], 8))
                index += 4
                continue
            out.append(escapes.get(following, following))
            index += 2
            continue
        out.append(char)
        index += 1
    return out.decode("utf-8", "surrogateescape")


def new_version(root: Path, path: str, *, staged: bool) -> bytes:
    """The file as the change leaves it: in the index (--staged), at HEAD (--since)."""
    return vcs_status.show(root, f"{':' if staged else 'HEAD:'}{path}") or b""
