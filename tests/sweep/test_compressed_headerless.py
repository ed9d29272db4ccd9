"""Compressed streams with no magic bytes (issue 27 item 15, round 23 finding 12): a legacy `.lzma`
(LZMA-alone, what `lzma` / `xz --format=lzma` write), a zlib stream (`.zz`, a git loose object) and
raw deflate holding `upstream web01.lab.example` were never listed, neither skipped nor "not read",
verify --strict OK, while `.zst` beside them was "not read". Now each is told by its structure and a
trial decompression (sweep/compressed.py), opened, and listed as skipped holding the old value; one
that holds no old value, and the binary files of a system (none told as a stream), stay quiet."""

from __future__ import annotations

import glob
import lzma
import os
import shutil
import subprocess
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest

from renamer.sweep import compressed
from tests.conftest import Result

CONFIG = "version: 1\nrenames:\n  hosts: {web01.lab.example: app01.lab.example}\nallowlist: allow.yaml\n"
ALLOW = "version: 1\ncurrent: ['**']\n"
TEXT = b"upstream web01.lab.example:8080;\n"


def _deflate(data: bytes, level: int = 9) -> bytes:
    packer = zlib.compressobj(level, zlib.DEFLATED, -zlib.MAX_WBITS)
    return packer.compress(data) + packer.flush()


def _lzma_tool(data: bytes) -> bytes:
    if shutil.which("lzma"):  # the real tool, as the report made it
        return subprocess.run(["lzma", "-c"], input=data, capture_output=True, check=True).stdout
    return lzma.compress(data, format=lzma.FORMAT_ALONE)


def _git_object(data: bytes) -> bytes:
    return zlib.compress(b"blob %d\0" % len(data) + data)  # how git stores a loose object


SHAPES: dict[str, Callable[[bytes], bytes]] = {
    "nginx.conf.lzma": _lzma_tool,
    "nginx.conf.xzlzma": lambda d: subprocess.run(["xz", "--format=lzma", "-c", "-1"], input=d,
                                                  capture_output=True, check=True).stdout,
    "nginx.conf.zz": zlib.compress,
    "fast.zz": lambda d: zlib.compress(d, 1),  # another header (78 01)
    "objects/ab/cdef01": _git_object,
    "nginx.conf.deflate": _deflate,
    "stored.raw": lambda d: _deflate(d, 0),  # a stored (uncompressed) deflate block
}


def test_kind_tells_headerless_streams_by_structure() -> None:
    assert compressed.kind(lzma.compress(TEXT, format=lzma.FORMAT_ALONE)) == "lzma"
    assert compressed.kind(zlib.compress(TEXT)) == "zlib"
    assert compressed.kind(_deflate(TEXT * 3)) == "deflate"
    assert compressed.expanded(_deflate(TEXT), 1000) == TEXT
    assert compressed.expanded(zlib.compress(TEXT), 1000) == TEXT
    # text that happens to open like a zlib header (`x^`), and binary that is no stream: not told
    for other in (b"x^2 + y^2 = r^2\n", b"]\x00\x00\x80\x00" + b"\xff" * 20, os.urandom(64), b"\x00\x01\x02"):
        assert compressed.kind(other) is None, other


def test_no_binary_file_of_this_system_is_told_a_headerless_stream() -> None:
    """The trial is strict: of the files under /usr/bin and /usr/lib (executables, images, fonts,
    locale catalogues, gzip'd man pages: each with its own format), none reads as LZMA-alone, zlib
    or raw deflate."""
    told = []
    paths = sorted(glob.glob("/usr/bin/*"))[:1500] + sorted(glob.glob("/usr/share/**/*.*", recursive=True))[:3000]
    for path in paths:
        if os.path.isfile(path) and not os.path.islink(path):
            with open(path, "rb") as f:
                data = f.read(1 << 16)
            if compressed.kind(data) in ("lzma", "zlib", "deflate"):
                told.append(path)
    assert len(paths) > 500 and not told


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_round23_12_a_headerless_stream_naming_an_old_host_fails_strict(
        name: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({name: SHAPES[name](TEXT), "a.conf": "proxy_pass http://web01.lab.example;\n"},
                config=CONFIG, allowlist=ALLOW)
    before = (root / name).read_bytes()
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / name).read_bytes() == before  # never rewritten
    strict = run(root, "verify", "--strict")
    assert strict.exit_code == 1, strict.stdout
    assert "Skipped, holding old values (1 file)" in strict.stdout
    assert f"  {name} (binary, 1)" in strict.stdout


def test_a_headerless_stream_naming_none_passes(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    other = b"upstream other.lab.example:8080;\n"
    root = repo({"a.lzma": _lzma_tool(other), "b.zz": zlib.compress(other), "c.deflate": _deflate(other),
                 "a.conf": "proxy_pass http://web01.lab.example;\n"}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    strict = run(root, "verify", "--strict")
    assert strict.exit_code == 0, strict.stdout
