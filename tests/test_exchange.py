"""exchange.py on real files: two paths swapped in one step, and what it says where it cannot."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from renamer import exchange as exchange_module
from renamer.exchange import Unsupported, exchange


def test_two_files_swap_names_contents_inodes_and_modes(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    first.write_bytes(b"one\r\n")
    second.write_bytes(b"two\n")
    os.chmod(second, 0o755)
    inodes = os.lstat(first).st_ino, os.lstat(second).st_ino
    exchange(first, second)
    assert (first.read_bytes(), second.read_bytes()) == (b"two\n", b"one\r\n")
    assert (os.lstat(first).st_ino, os.lstat(second).st_ino) == inodes[::-1]
    assert os.stat(first).st_mode & 0o777 == 0o755


def test_a_link_is_swapped_as_a_link_never_followed(tmp_path: Path) -> None:
    target, link, new = tmp_path / "target", tmp_path / "link", tmp_path / "new"
    target.write_text("outside\n")
    link.symlink_to(target)
    new.write_text("new\n")
    exchange(new, link)
    assert new.is_symlink() and link.read_text() == "new\n" and target.read_text() == "outside\n"


def test_a_missing_path_is_an_ordinary_error(tmp_path: Path) -> None:
    (tmp_path / "a").write_text("a\n")
    with pytest.raises(FileNotFoundError) as caught:
        exchange(tmp_path / "a", tmp_path / "missing")
    assert not isinstance(caught.value, Unsupported)
    assert (tmp_path / "a").read_text() == "a\n"


def test_no_renameat2_in_libc_is_unsupported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(exchange_module, "_renameat2", None)  # an old libc, another platform
    (tmp_path / "a").write_text("a\n")
    (tmp_path / "b").write_text("b\n")
    with pytest.raises(Unsupported) as caught:
        exchange(tmp_path / "a", tmp_path / "b")
    assert caught.value.errno == errno.ENOSYS
    assert (tmp_path / "a").read_text() == "a\n"
