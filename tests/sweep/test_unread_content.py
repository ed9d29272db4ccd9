"""Content renamer cannot read, whatever its format (issue 27, round 22 findings 13 and 28):
git-crypt, age (binary and armoured), gpg (binary and armoured, made by the real gpg), an encrypted
PEM key and an encrypted zip are "Encrypted, not read"; a Git LFS pointer and a git-annex link
(content absent, or present and naming an old host) are "Not read"; `verify --strict` fails on
each, plain `verify` lists it. A file that merely mentions such a header is read as text."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from renamer.sweep import unread_content
from tests.conftest import Result
from tests.testing.repos import git

CONFIG = "version: 1\nrenames:\n  hosts: {web01: app01}\nallowlist: allow.yaml\n"
ALLOW = "version: 1\ncurrent: ['**']\n"
LFS = ("version https://git-lfs.github.com/spec/v1\n"
       "oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 1289\n")


def _gpg(tmp_path: Path, armor: bool) -> bytes:
    if shutil.which("gpg") is None:
        pytest.fail("gpg is not installed")
    home = tmp_path / "gnupg"
    home.mkdir(mode=0o700, exist_ok=True)
    out = tmp_path / ("m.asc" if armor else "m.gpg")
    subprocess.run(["gpg", "--homedir", str(home), "--batch", "--yes", "--pinentry-mode", "loopback",
                    "--passphrase", "x", "--symmetric", *(["--armor"] if armor else []), "-o", str(out)],
                   input=b"web01 10.0.0.70\n", check=True, capture_output=True)
    return out.read_bytes()


def _openssl_key(tmp_path: Path) -> bytes:
    out = tmp_path / "k.pem"
    subprocess.run(["openssl", "genpkey", "-algorithm", "ed25519", "-aes256", "-pass", "pass:x", "-out",
                    str(out)], check=True, capture_output=True)
    return out.read_bytes()


def _zip_encrypted(tmp_path: Path) -> bytes:
    if shutil.which("zip") is None:
        pytest.fail("zip is not installed")
    (tmp_path / "up.conf").write_text("server web01;\n")
    subprocess.run(["zip", "-q", "-P", "x", "e.zip", "up.conf"], cwd=tmp_path, check=True)
    return (tmp_path / "e.zip").read_bytes()


ENCRYPTED: dict[str, Callable[[Path], bytes]] = {
    "git-crypt": lambda _: b"\x00GITCRYPT\x00" + os.urandom(64),
    "age": lambda _: b"age-encryption.org/v1\n-> X25519 abc\nxyz\n--- def\n" + os.urandom(64),
    "age-armoured": lambda _: b"-----BEGIN AGE ENCRYPTED FILE-----\nYWdlLWVuY3J5cHRpb24ub3JnL3YxCi0+\n"
                              b"-----END AGE ENCRYPTED FILE-----\n",
    "gpg": lambda tmp: _gpg(tmp, armor=False),
    "gpg-armoured": lambda tmp: _gpg(tmp, armor=True),
    "pem-key": _openssl_key,
    "zip": _zip_encrypted,
}


@pytest.mark.parametrize("shape", sorted(ENCRYPTED))
def test_an_encrypted_file_of_any_tool_is_listed_and_fails_strict(
        shape: str, tmp_path: Path, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    data = ENCRYPTED[shape](tmp_path)
    assert unread_content.encrypted(data) is not None
    root = repo({"secrets/hosts.bin": data, "a.sh": "ssh web01\n"}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    plain = run(root, "verify")
    assert "Encrypted, not read (1 current-state file" in plain.stdout, plain.stdout
    assert "  secrets/hosts.bin: " in plain.stdout
    strict = run(root, "verify", "--strict")
    assert strict.exit_code == 1
    assert "1 current-state file encrypted, not read" in strict.stdout


def test_text_that_mentions_the_headers_is_read_as_text(repo: Callable[..., Path],
                                                        run: Callable[..., Result]) -> None:
    doc = ("Encrypt with age: the file starts `age-encryption.org/v1`, or\n-----BEGIN PGP MESSAGE----- "
           "for gpg; version https://git-lfs.github.com/spec/v1 is LFS.\nssh web01\n")
    root = repo({"README.md": doc}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    strict = run(root, "verify", "--strict")
    assert strict.exit_code == 0, strict.stdout
    assert "app01" in (root / "README.md").read_text()


def test_an_lfs_pointer_is_not_read(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({".gitattributes": "inventory/*.csv filter=lfs diff=lfs merge=lfs -text\n",
                 "inventory/hosts.csv": LFS, "a.sh": "ssh web01\n"}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    strict = run(root, "verify", "--strict")
    assert strict.exit_code == 1
    assert "  inventory/hosts.csv: a Git LFS pointer" in strict.stdout
    assert "1 current-state place not read" in strict.stdout


@pytest.mark.parametrize("present", ["absent", "naming-web01", "naming-none"])
def test_a_git_annex_link(present: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"a.sh": "ssh web01\n"}, config=CONFIG, allowlist=ALLOW)
    key = "SHA256E-s812--0f3c0d5e.yml"
    target = f"../.git/annex/objects/Xk/9v/{key}/{key}"
    (root / "data").mkdir()
    os.symlink(target, root / "data" / "hosts.yml")
    if present != "absent":
        content = root / "data" / target
        content.parent.mkdir(parents=True)
        content.write_text("db: web01\n" if present == "naming-web01" else "db: other\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "annex")
    assert run(root, "sweep", "--commit").exit_code == 0
    strict = run(root, "verify", "--strict")
    if present == "naming-none":
        assert strict.exit_code == 0, strict.stdout
        return
    assert strict.exit_code == 1
    why = "content is not in this clone" if present == "absent" else "content spells web01"
    assert f"  data/hosts.yml: a git-annex link whose {why}" in strict.stdout
