"""Compressed current-state files whatever their format (issue 27, round 22 finding 21): a `.zip`,
`.tar.xz`, `.bz2` (and a `.tar.bz2`, a zip holding a `.gz`) of a configuration naming an old host
are opened and listed as skipped holding it; zstd, 7z, lz4 (formats renamer does not open) and a
broken stream are "not read"; `verify --strict` fails on each. The archives are made by the real
tools (zip, tar, bzip2, zstd) where this machine has them."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import shutil
import subprocess
import tarfile
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from renamer.sweep import compressed
from tests.conftest import Result

CONFIG = "version: 1\nrenames:\n  hosts: {web01: app01}\nallowlist: allow.yaml\n"
ALLOW = "version: 1\ncurrent: ['**']\n"
TEXT = "".join(f"upstream b{i} {{ server web01.lab:80{i}; }}\n" for i in range(20)).encode()


def _zip(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return out.getvalue()


def _tar(data: bytes, mode: str) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode=mode) as archive:  # type: ignore[call-overload]
        info = tarfile.TarInfo("up.conf")
        info.size = len(data)
        archive.addfile(info, io.BytesIO(data))
    return out.getvalue()


SHAPES: dict[str, Callable[[bytes], bytes]] = {
    "conf.zip": lambda d: _zip({"up.conf": d}),
    "conf.tar.xz": lambda d: _tar(d, "w:xz"),
    "up.conf.bz2": bz2.compress,
    "conf.tar.bz2": lambda d: _tar(d, "w:bz2"),
    "up.conf.xz": lambda d: lzma.compress(d),
    "nested.zip": lambda d: _zip({"inner/up.conf.gz": gzip.compress(d)}),
}


def test_kind_is_told_by_magic_bytes_not_names() -> None:
    assert compressed.kind(bz2.compress(b"x")) == "bzip2"
    assert compressed.kind(b"BZh9 is how a bzip2 file starts") is None  # text saying BZh
    assert compressed.kind(lzma.compress(b"x")) == "xz"
    assert compressed.kind(b"\x28\xb5\x2f\xfd" + b"\0" * 8) == "zstd"
    assert compressed.kind(b"plain text") is None


def test_expanded_reads_every_member_and_one_level_of_nesting() -> None:
    assert compressed.expanded(_zip({"a": b"alpha", "b": gzip.compress(b"beta")}), 1000) == b"alpha\nbeta"
    with pytest.raises(compressed.Unopened, match="larger than max_file_size"):
        compressed.expanded(bz2.compress(b"x" * 5000), 1000)
    with pytest.raises(compressed.Unopened, match="cut off"):
        compressed.expanded(lzma.compress(TEXT)[:40], 10_000)
    with pytest.raises(compressed.Unopened, match="does not decompress"):
        compressed.expanded(b"BZh91AY&SY" + b"\xff" * 40, 10_000)
    # two gzip members one after the other (`cat a.gz b.gz`): both read
    assert compressed.expanded(gzip.compress(b"one ") + gzip.compress(b"web01"), 1000) == b"one web01"


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_a_compressed_file_naming_an_old_host_is_skipped_and_fails_strict(
        name: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({name: SHAPES[name](TEXT), "a.sh": "ssh web01\n"}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    strict = run(root, "verify", "--strict")
    assert strict.exit_code == 1, strict.stdout
    assert "Skipped, holding old values (1 file)" in strict.stdout
    assert f"  {name} (binary, 1)" in strict.stdout


def test_a_compressed_file_naming_none_passes(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"conf.tar.xz": _tar(b"server other.lab;\n", "w:xz"), "a.sh": "ssh web01\n"},
                config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    strict = run(root, "verify", "--strict")
    assert strict.exit_code == 0, strict.stdout


@pytest.mark.parametrize("tool", ["zstd", "7z", "lz4", "broken-xz"])
def test_a_compressed_file_renamer_cannot_open_is_not_read(tool: str, tmp_path: Path, repo: Callable[..., Path],
                                                           run: Callable[..., Result]) -> None:
    plain = tmp_path / "up.conf"
    plain.write_bytes(TEXT)
    if tool == "broken-xz":
        data = lzma.compress(TEXT)[:60]
    else:
        if shutil.which(tool) is None and tool != "7z":
            pytest.fail(f"{tool} is not installed: this machine's test tools include it")
        if tool == "7z":
            data = b"7z\xbc\xaf\x27\x1c\x00\x04" + b"\x01" * 40  # 7z's signature header (no 7z tool here)
        else:
            data = subprocess.run([tool, "-q", "-c", str(plain)], check=True, capture_output=True).stdout
    root = repo({"up.conf.x": data, "a.sh": "ssh web01\n"}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    plain_verify = run(root, "verify")
    assert "Not read (1 current-state place" in plain_verify.stdout
    assert "  up.conf.x: " in plain_verify.stdout
    strict = run(root, "verify", "--strict")
    assert strict.exit_code == 1
    assert "1 current-state place not read" in strict.stdout
