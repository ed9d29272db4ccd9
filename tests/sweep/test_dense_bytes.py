"""Binary content of no known format as dense as compressed or encrypted bytes (issue 27 item 15,
g31: the wider guard round 23 finding 12 asked for, left by h31-decode for fear of noise).

A raw LZMA2 stream (`xz --format=raw`, what brotli and proprietary archives look like: no header)
and a headerless cipher text (`openssl enc -nosalt`) holding `upstream web01.lab.example` were
neither skipped nor "not read": verify --strict OK. Now each is "not read" (`sweep/dense_bytes.py`),
verify --strict fails. The noise the guard was feared for is measured here: PNG images, TrueType
fonts, a gzip file, the system's OpenPGP keyrings and every binary file under /usr/share/fonts and
/usr/share/icons stay quiet (each has its magic, or is not dense).
"""

from __future__ import annotations

import glob
import gzip
import json
import os
import random
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from renamer.sweep import dense_bytes, unread_content
from tests.conftest import Result

CONFIG = "version: 1\nrenames:\n  hosts: {web01.lab.example: app01.lab.example}\nallowlist: allow.yaml\n"
ALLOW = "version: 1\ncurrent: ['**']\n"
_random = random.Random(31)
TEXT = "".join(f"upstream web01.lab.example:{8000 + i}; # backend {_random.randrange(10**9)}\n"
               for i in range(200)).encode()


def _tool(*argv: str, data: bytes = TEXT) -> bytes:
    return subprocess.run(list(argv), input=data, capture_output=True, check=True).stdout


def _system(pattern: str, count: int) -> list[str]:
    return [p for p in sorted(glob.glob(pattern, recursive=True)) if os.path.isfile(p)][:count]


def test_dense_tells_headerless_dense_bytes_and_not_known_formats() -> None:
    raw = _tool("xz", "--format=raw", "-c")
    cipher = _tool("openssl", "enc", "-aes-256-cbc", "-nosalt", "-K", "07" * 32, "-iv", "03" * 16)
    assert dense_bytes.dense(raw) is not None and dense_bytes.dense(cipher) is not None
    assert unread_content.unreadable(raw, 1 << 20) == ("unread", dense_bytes.dense(raw))
    assert dense_bytes.dense(gzip.compress(TEXT)) is None  # renamer opens it (compressed.py)
    assert dense_bytes.dense(_tool("zstd", "-c")) is None  # renamer names it (not read, as zstd)
    assert unread_content.unreadable(gzip.compress(TEXT), 1 << 20) is None
    assert dense_bytes.dense(TEXT) is None  # text
    assert dense_bytes.dense(raw[:200]) is None  # too short to tell
    assert dense_bytes.dense(b"\x00" * 4096) is None  # binary, not dense
    keyrings = _system("/usr/share/keyrings/*.gpg", 20)
    assert keyrings and all(dense_bytes.dense(Path(p).read_bytes()) is None for p in keyrings)


def test_no_font_or_icon_of_this_system_is_listed() -> None:
    """Images and fonts carry their magic; the guard by entropy alone would list each one."""
    paths = _system("/usr/share/fonts/**/*.*", 400) + _system("/usr/share/icons/**/*.png", 1500)
    listed, dense_ones = [], 0
    for path in paths:
        data = Path(path).read_bytes()[:1 << 16]
        if dense_bytes.entropy(data) > 7.5:
            dense_ones += 1
        if dense_bytes.dense(data) is not None:
            listed.append(path)
    assert len(paths) > 200 and dense_ones > 50 and not listed, listed


@pytest.mark.parametrize("native", ["0", "1"])
def test_g31_dense_binaries_are_not_read_through_the_cli(native: str, repo: Callable[..., Path],
                                                         run: Callable[..., Result],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RENAMER_NATIVE", native)
    png = next(p for p in _system("/usr/share/icons/**/*.png", 5000) if os.path.getsize(p) > 2048)
    font = _system("/usr/share/fonts/**/*.ttf", 1)[0]
    files: dict[str, str | bytes] = {
        "conf.lzma2": _tool("xz", "--format=raw", "-c"),
        "conf.enc": _tool("openssl", "enc", "-aes-256-cbc", "-nosalt", "-K", "07" * 32, "-iv", "03" * 16),
        "logo.png": Path(png).read_bytes(), "font.ttf": Path(font).read_bytes(),
        "conf.gz": gzip.compress(b"listen 80;\n"),
        "apt.gpg": Path(_system("/usr/share/keyrings/*.gpg", 1)[0]).read_bytes(),
        "nginx.conf": "upstream web01.lab.example:80;\n",
    }
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    verify = run(root, "verify", "--strict", "--format", "json")
    assert verify.exit_code == 1
    not_read = {item["path"]: item["why"] for item in json.loads(verify.stdout)["not_read"]}
    assert sorted(not_read) == ["conf.enc", "conf.lzma2"], not_read
    assert all("binary of no format renamer knows" in why for why in not_read.values())
    done = run(root, "sweep", "--commit")
    assert (root / "nginx.conf").read_text() == "upstream app01.lab.example:80;\n"
    assert "conf.lzma2" in done.stdout + done.stderr
    assert (root / "conf.lzma2").read_bytes() == files["conf.lzma2"]
    after = run(root, "verify", "--strict")
    assert after.exit_code == 1 and "conf.enc" in after.stdout
    assert run(root, "verify").exit_code == 0  # plain verify: what it read is clean
