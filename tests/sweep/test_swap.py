"""swap.py: a file replaced only if it is as read, by exchange or by the check-then-rename fallback.

The exchange is the real renameat2; the fallback is reached as a file system without
RENAME_EXCHANGE reaches it: the swap answers `Unsupported` (EINVAL)."""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from renamer.exchange import Unsupported, exchange
from renamer.sweep.swap import CHECK_THEN_RENAME, EXCHANGE, Swapper, digest

Saves = Callable[[Path], None]


def _no_exchange(first: Path, second: Path) -> None:
    raise Unsupported(errno.EINVAL, os.strerror(errno.EINVAL))


def _as(data: bytes) -> Callable[[Path], bool]:
    return lambda path: not path.is_symlink() and path.exists() and path.read_bytes() == data


def _editor_save(path: Path) -> None:
    tmp = path.with_name(path.name + ".swp")
    tmp.write_bytes(b"host ana-ml2\nUSER EDIT\n")
    os.replace(tmp, path)


def _append(path: Path) -> None:
    with open(path, "ab") as handle:
        handle.write(b"USER EDIT\n")


def _delete(path: Path) -> None:
    path.unlink()


def _link(path: Path) -> None:
    path.unlink()
    path.symlink_to("elsewhere")


def _pair(tmp_path: Path) -> tuple[Path, Path]:
    target, new = tmp_path / "a.env", tmp_path / ".a.env.x.renamer-tmp"
    target.write_bytes(b"host ana-ml2\n")
    new.write_bytes(b"host fv-ml1\n")
    return target, new


@pytest.mark.parametrize("swap", [pytest.param(None, id="exchange"), pytest.param(_no_exchange, id="fallback")])
def test_a_file_as_read_is_replaced_and_nothing_is_left_beside_it(tmp_path: Path, swap) -> None:
    target, new = _pair(tmp_path)
    swapper = Swapper(swap)
    assert swapper.swap_in(target, new, _as(b"host ana-ml2\n"))
    assert target.read_bytes() == b"host fv-ml1\n" and not new.exists()
    assert swapper.method == (EXCHANGE if swap is None else CHECK_THEN_RENAME)


@pytest.mark.parametrize("save", [pytest.param(_editor_save, id="editor-save"), pytest.param(_append, id="append"),
                                  pytest.param(_delete, id="deleted"), pytest.param(_link, id="now-a-link")])
@pytest.mark.parametrize("swap", [pytest.param(None, id="exchange"), pytest.param(_no_exchange, id="fallback")])
def test_a_save_before_the_swap_is_kept_and_the_new_file_dropped(tmp_path: Path, swap, save: Saves) -> None:
    target, new = _pair(tmp_path)
    save(target)
    after = os.readlink(target) if target.is_symlink() else target.read_bytes() if target.exists() else None
    assert not Swapper(swap).swap_in(target, new, _as(b"host ana-ml2\n"))
    now = os.readlink(target) if target.is_symlink() else target.read_bytes() if target.exists() else None
    assert now == after and not new.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ([] if after is None else ["a.env"])


def test_a_save_landing_between_the_swap_and_the_comparison_is_swapped_back(tmp_path: Path) -> None:
    """The window the fallback leaves open (a save after the check, before the rename) is closed:
    a save at the last moment before the swap is seen in what the swap displaced."""
    target, new = _pair(tmp_path)

    def save_then_swap(first: Path, second: Path) -> None:
        _editor_save(second)
        exchange(first, second)

    assert not Swapper(save_then_swap).swap_in(target, new, _as(b"host ana-ml2\n"))
    assert target.read_bytes() == b"host ana-ml2\nUSER EDIT\n" and not new.exists()


def test_the_fallback_is_remembered_after_the_first_refusal(tmp_path: Path) -> None:
    calls = []

    def refuses(first: Path, second: Path) -> None:
        calls.append(first)
        _no_exchange(first, second)

    swapper = Swapper(refuses)
    for name in ("a", "b"):
        target, new = tmp_path / name, tmp_path / f".{name}.new"
        target.write_text("old\n")
        new.write_text("new\n")
        assert swapper.swap_in(target, new, _as(b"old\n"))
        assert target.read_text() == "new\n"
    assert len(calls) == 1 and swapper.method == CHECK_THEN_RENAME


def test_other_errors_are_not_taken_for_a_missing_feature(tmp_path: Path) -> None:
    target, new = _pair(tmp_path)

    def denied(first: Path, second: Path) -> None:
        raise PermissionError(errno.EPERM, os.strerror(errno.EPERM))

    with pytest.raises(PermissionError):
        Swapper(denied).swap_in(target, new, _as(b"host ana-ml2\n"))
    assert target.read_bytes() == b"host ana-ml2\n" and new.exists()  # the journal finishes it later


@pytest.mark.parametrize("swap", [pytest.param(None, id="exchange"), pytest.param(_no_exchange, id="fallback")])
def test_put_back_restores_a_displaced_save(tmp_path: Path, swap) -> None:
    target, displaced = tmp_path / "a.env", tmp_path / ".a.env.x.renamer-tmp"
    target.write_bytes(b"host fv-ml1\n")
    displaced.write_bytes(b"host ana-ml2\nUSER EDIT\n")
    Swapper(swap).put_back(target, displaced)
    assert target.read_bytes() == b"host ana-ml2\nUSER EDIT\n" and not displaced.exists()


def test_digest_is_of_regular_files_only(tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"x")
    (tmp_path / "l").symlink_to("f")
    assert digest(tmp_path / "f") == "11f6ad8ec52a2984abaafd7c3b516503785c2072"
    assert digest(tmp_path / "l") is None and digest(tmp_path / "missing") is None
