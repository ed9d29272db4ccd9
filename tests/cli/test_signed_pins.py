"""`sweep --update-pins` and signed manifests (issue 27 item 11, round 23 finding 06's sibling 11): the
pin writer rewrote a digest inside a clear-signed `SHA256SUMS.txt` and inside a `SHA256SUMS` a
detached `.asc` signs, both signatures BAD afterwards, sweep 0, verify --strict OK, while the sweep's
own edits inside signed text were refused. Now a pin in signed bytes (clear-signed, a detached
signature beside the file of any kind, a sops file) goes through the same guard: left as it is,
listed as a residual `pin` saying what signs it, sweep 1; the signatures still verify with the real
gpg; a pin in an unsigned manifest beside them is updated as before."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.testing.repos import CURRENT_ALL, Repo, Run, git

CONFIG = "version: 1\nrenames:\n  hosts: {web01: app01}\nallowlist: allow.yaml\n"
WEB = b"server web01\n"


@pytest.fixture
def gpg(tmp_path: Path) -> Iterator[dict[str, str]]:
    """A throwaway GNUPGHOME with one key without passphrase (the real gpg)."""
    home = tmp_path / "gnupg"
    home.mkdir(mode=0o700)
    env = {**os.environ, "GNUPGHOME": str(home)}
    subprocess.run(["gpg", "--batch", "--quiet", "--passphrase", "", "--quick-gen-key", "t <t@t>", "default",
                    "default", "never"], env=env, check=True, capture_output=True)
    yield env
    subprocess.run(["gpgconf", "--kill", "gpg-agent"], env=env, check=False, capture_output=True)


def _gpg(env: dict[str, str], *args: str, data: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["gpg", "--batch", "--quiet", *args], env=env, input=data, capture_output=True,
                          check=False)


def test_round23_11_a_pin_in_signed_text_is_left_and_listed(repo: Repo, run: Run, gpg: dict[str, str],
                                                             tmp_path: Path) -> None:
    sha256, sha512 = hashlib.sha256(WEB).hexdigest(), hashlib.sha512(WEB).hexdigest()
    files: dict[str, str | bytes] = {
        "web.conf": WEB,
        "SHA256SUMS": f"{sha256}  web.conf\n",  # a detached armoured .asc beside it
        "release/SHA512SUMS": f"{sha512}  ../web.conf\n",  # a binary .sig of another kind beside it
        "pins.json": f'{{"web.conf": {{"sha256": "{sha256}"}}}}\n',  # a detached binary .gpg
        "UNSIGNED.sha256": f"{sha256}  web.conf\n",  # nothing signs it: updated as before
    }
    root = repo(files, config=CONFIG, allowlist=CURRENT_ALL)
    clear = _gpg(gpg, "--clearsign", data=f"{sha256}  web.conf\n".encode()).stdout
    (root / "SHA256SUMS.txt").write_bytes(clear)
    (root / "SHA256SUMS.asc").write_bytes(
        _gpg(gpg, "--armor", "--detach-sign", "--output", "-", str(root / "SHA256SUMS")).stdout)
    key = tmp_path / "k.pem"
    subprocess.run(["openssl", "genpkey", "-algorithm", "ed25519", "-out", str(key)], check=True, capture_output=True)
    (root / "release/SHA512SUMS.sig").write_bytes(subprocess.run(
        ["openssl", "pkeyutl", "-sign", "-rawin", "-inkey", str(key), "-in", str(root / "release/SHA512SUMS")],
        check=True, capture_output=True).stdout)
    (root / "pins.json.gpg").write_bytes(
        _gpg(gpg, "--detach-sign", "--output", "-", str(root / "pins.json")).stdout)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "signed")
    before = git(root, "rev-parse", "HEAD").strip()
    signed = {p: (root / p).read_bytes() for p in ("SHA256SUMS", "SHA256SUMS.txt", "release/SHA512SUMS",
                                                   "pins.json")}

    done = run(root, "sweep", "--commit", "--update-pins", "--format", "json")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "web.conf").read_bytes() == b"server app01\n"
    assert {p: (root / p).read_bytes() for p in signed} == signed  # not one byte of signed text moved
    new = hashlib.sha256(b"server app01\n").hexdigest()
    assert (root / "UNSIGNED.sha256").read_text() == f"{new}  web.conf\n"
    for args in (["--verify", str(root / "SHA256SUMS.asc"), str(root / "SHA256SUMS")],
                 ["--verify", str(root / "SHA256SUMS.txt")],
                 ["--verify", str(root / "pins.json.gpg"), str(root / "pins.json")]):
        assert _gpg(gpg, *args).returncode == 0, args  # every signature still good

    after = run(root, "verify", "--strict", "--format", "json")
    assert after.exit_code == 1
    findings = json.loads(after.stdout)["findings"]
    stale = {f["path"] for f in findings if f["reason"] == "pin"}
    assert {"SHA256SUMS", "SHA256SUMS.txt", "release/SHA512SUMS"} <= stale
    assert "UNSIGNED.sha256" not in stale

    # the sweep's own word, in a fresh copy at the same state: each named with what signs it
    git(root, "reset", "-q", "--hard", before)
    preview = run(root, "sweep", "--dry-run", "--update-pins")
    out = preview.stdout
    assert "SHA256SUMS:1:1: " in out and "inside text SHA256SUMS.asc signs" in out
    assert "SHA256SUMS.txt:4:1: " in out and "inside a PGP clear-signed block" in out
    assert "release/SHA512SUMS:1:1: " in out and "inside text release/SHA512SUMS.sig signs" in out
    assert "pins.json:1:" in out and "inside text pins.json.gpg signs" in out
    assert "UNSIGNED.sha256:1:1" in out
