"""A pin of a 256- or 512-bit digest in an algorithm other than SHA-2 (break-it round 24, finding
19): `b2sum -l 256`'s BLAKE2b-256 and SHA3-256 manifest lines beside a rewritten file were called
"a stale SHA-256 ... the file's digest is now <the new SHA-256>" by verify (the wrong algorithm's
digest: the checker then fails), and `sweep --commit` listed neither and exited 0 while verify right
after exited 1. Now the sweep finds them by the real digest (exit 1, listed), `--update-pins` writes
the right algorithm's digest (the checker then passes: b2sum -c, python's sha3), verify names the
algorithm by the BSD tag or the file's name, and says it cannot tell where neither does."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

CONFIG = "version: 1\nrenames:\n  hosts: {pug.ana.lan: wolf.fv.lan}\nallowlist: allow.yaml\n"
ALLOW = 'version: 1\ncurrent: ["**"]\n'
SETUP = b"#!/bin/sh\r\ncurl https://pug.ana.lan/health\r\n"  # CRLF


def _b2(data: bytes, size: int = 32) -> str:
    return hashlib.blake2b(data, digest_size=size).hexdigest()


def _sha3(data: bytes) -> str:
    return hashlib.sha3_256(data).hexdigest()


def _files() -> dict[str, str | bytes]:
    return {"setup.sh": SETUP,
            "B2SUMS": f"{_b2(SETUP)}  setup.sh\n",
            "SHA3SUMS": f"{_sha3(SETUP)}  setup.sh\n",
            "tagged.txt": f"BLAKE2b-256 (setup.sh) = {_b2(SETUP)}\nSHA3-256 (setup.sh) = {_sha3(SETUP)}\n",
            "sha3-512.sums": f"{hashlib.sha3_512(SETUP).hexdigest()}  setup.sh\n"}


def _pins(done: Result) -> dict[tuple[str, int], str]:
    return {(f["path"], f["line"]): f for f in json.loads(done.stdout)["findings"] if f.get("reason") == "pin"}


def test_round24_the_sweep_lists_other_algorithms_pins_and_exits_1(repo: Callable[..., Path],
                                                                  run: Callable[..., Result]) -> None:
    root = repo(_files(), config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    for holder in ("B2SUMS:1:", "SHA3SUMS:1:", "tagged.txt:1:", "tagged.txt:2:", "sha3-512.sums:1:"):
        assert holder in done.stdout, done.stdout
    after = (root / "setup.sh").read_bytes()
    assert after == SETUP.replace(b"pug.ana.lan", b"wolf.fv.lan")
    verified = run(root, "verify", "--format", "json")
    assert verified.exit_code == 1
    pins = _pins(verified)
    assert pins[("B2SUMS", 1)]["new"] == _b2(after) and "BLAKE2b-256" in pins[("B2SUMS", 1)]["note"]
    assert pins[("SHA3SUMS", 1)]["new"] == _sha3(after) and "SHA3-256" in pins[("SHA3SUMS", 1)]["note"]
    assert pins[("tagged.txt", 1)]["new"] == _b2(after)
    assert pins[("tagged.txt", 2)]["new"] == _sha3(after)
    assert pins[("sha3-512.sums", 1)]["new"] == hashlib.sha3_512(after).hexdigest()
    assert all(p["new"] != hashlib.sha256(after).hexdigest() for p in pins.values()), pins


def test_round24_update_pins_writes_the_algorithm_the_checker_computes(repo: Callable[..., Path],
                                                                       run: Callable[..., Result]) -> None:
    root = repo({k: v for k, v in _files().items() if k in ("setup.sh", "B2SUMS", "SHA3SUMS")},
                config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit", "--update-pins")
    assert done.exit_code == 0, done.stdout + done.stderr
    after = (root / "setup.sh").read_bytes()
    assert (root / "SHA3SUMS").read_text() == f"{_sha3(after)}  setup.sh\n"
    assert (root / "B2SUMS").read_text() == f"{_b2(after)}  setup.sh\n"
    if shutil.which("b2sum"):  # the real checker agrees
        subprocess.run(["b2sum", "-l", "256", "-c", "B2SUMS"], cwd=root, check=True, capture_output=True)
    assert run(root, "verify", "--strict").exit_code == 0


@pytest.mark.parametrize("holder", ["checksums.txt", "MANIFEST"])
def test_round24_a_digest_whose_algorithm_nothing_says_is_said_so(holder: str, repo: Callable[..., Path],
                                                                  run: Callable[..., Result]) -> None:
    """A 32-byte digest in a file whose name and line name no algorithm: verify (after a commit the
    sweep could not see it in: the pin of an earlier edit) says it cannot tell, giving each
    candidate's new digest, never one SHA-256 as if certain."""
    root = repo({"setup.sh": SETUP}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    (root / holder).write_text(f"{_b2(SETUP)}  setup.sh\n")  # the pin of the old bytes, written later
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    subprocess.run(["git", "commit", "-qm", "pin"], cwd=root, check=True)
    done = run(root, "verify", "--format", "json")
    assert done.exit_code == 1
    note = _pins(done)[(holder, 1)]["note"]
    after = (root / "setup.sh").read_bytes()
    assert "cannot tell its algorithm" in note, note
    assert _b2(after) in note and _sha3(after) in note and hashlib.sha256(after).hexdigest() in note, note
