"""renamer/atomic.py: a replace leaves the old file or the new one, and never a temporary file, even
when a stop (a KeyboardInterrupt from Ctrl-C or SIGTERM) lands while the temporary file is made
(t38-break finding 17: a stopped `renamer init` left `.renamer-XXXX.renamer-tmp` behind)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from renamer import atomic
from renamer.atomic import TMP_SUFFIX, write_atomic


def test_a_replace_writes_the_new_bytes_and_leaves_nothing_beside(tmp_path: Path) -> None:
    target = tmp_path / "allow.yaml"
    target.write_text("old\n")
    write_atomic(target, b"new\n", 0o640)
    assert target.read_bytes() == b"new\n"
    assert oct(target.stat().st_mode & 0o777) == oct(0o640)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["allow.yaml"]


@pytest.mark.parametrize("where", ["made", "filled", "replaced"])
def test_a_stop_at_any_step_leaves_no_temporary_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     where: str) -> None:
    target = tmp_path / "allow.yaml"
    target.write_text("old\n")
    real_open, real_replace = os.open, os.replace

    def opened(path: str, flags: int, mode: int = 0o777) -> int:
        fd = real_open(path, flags, mode)
        if where == "made":  # the file exists, its descriptor never reaches the caller
            os.close(fd)
            raise KeyboardInterrupt
        return fd

    def filled(fd: int, data: bytes, mode: int | None) -> None:
        raise KeyboardInterrupt

    def replaced(src: str, dst: str) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(atomic.os, "open", opened)
    if where == "filled":
        monkeypatch.setattr(atomic, "_fill", filled)
    if where == "replaced":
        monkeypatch.setattr(atomic.os, "replace", replaced)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(target, b"new\n")
    monkeypatch.setattr(atomic.os, "replace", real_replace)
    assert target.read_text() == "old\n"
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(TMP_SUFFIX)]
