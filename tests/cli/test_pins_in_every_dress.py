"""Hash pins in every digest and dress (break-it round 4, finding 6): SHA-224/384/512 and BLAKE2b
as well as MD5, SHA-1 and SHA-256; hex, base64 (standard and URL-safe, padded or after a prefix),
SRI (sha1- too) and Nix base32; `*SUMS` manifests, tagged BSD lines and a `deploy.sh.md5` file
beside the file it pins. Each is found, updated in its own dress where its format is certain, and
checked after the commit; the repo's own `sha512sum -c`, `b2sum -c`, `md5sum -c` pass on the result."""

from __future__ import annotations

import base64
import hashlib
import json
import subprocess
from collections.abc import Callable
from pathlib import Path

from renamer.sweep.digest_words import nix32
from tests.conftest import Result
from tests.testing.pins import ALLOW, DEPLOY
from tests.testing.repos import git, snapshot

NEW = DEPLOY.replace(b"ana-ml2", b"fv-ml1")


def _raw(algorithm: str, data: bytes) -> bytes:
    return hashlib.new(algorithm, data).digest()


def _b64(algorithm: str, data: bytes) -> str:
    return base64.b64encode(_raw(algorithm, data)).decode()


def _b64url(algorithm: str, data: bytes) -> str:
    return base64.urlsafe_b64encode(_raw(algorithm, data)).decode().rstrip("=")


def _dressed(data: bytes) -> dict[str, str]:
    """path -> a pin of scripts/deploy.sh as `data`, in a certain format (`--update-pins` rewrites it)."""
    h = {a: hashlib.new(a, data).hexdigest() for a in ("md5", "sha1", "sha224", "sha384", "sha512", "blake2b")}
    return {
        "scripts/SHA512SUMS": f"{h['sha512']}  deploy.sh\n",  # sha512sum -c
        "scripts/SHA1SUMS": f"{h['sha1']} *deploy.sh\n",  # binary mode
        "scripts/MD5SUMS": f"{h['md5']}  deploy.sh\n",
        "scripts/B2SUMS": f"{h['blake2b']}  deploy.sh\n",  # b2sum: 64 bytes, as long as SHA-512
        "scripts/SHA384.tag": f"SHA384 (deploy.sh) = {h['sha384']}\n",  # sha384sum --tag
        "scripts/deploy.sh.md5": f"{h['md5']}\n",  # beside the file, named for it, only the digest
        "scripts/deploy.sh.sha224": h["sha224"].upper(),  # no newline, upper case
        "infra/lambda.tf": f'source_code_hash = "{_b64("sha256", data)}"\n',  # Terraform's base64 SHA-256
        "ops/upload.yaml": f"content_md5: {_b64('md5', data)}\n",  # Content-MD5, base64 with ==
        "ops/digest.env": f"DEPLOY_DIGEST=SHA-256={_b64('sha256', data)}\n",  # RFC 3230 `Digest:` value
        "ops/urlsafe.env": f"deploy_sha512=sha512:{_b64url('sha512', data)}\n",  # URL-safe, unpadded
        "ops/env.sh": f"export DEPLOY_SHA384={h['sha384']}\n",
        "package-lock.json": json.dumps({"integrity": f"sha1-{_b64('sha1', data)}"}, indent=2) + "\n",
        "nix/deploy.nix": f'{{\n  sha256 = "{nix32(_raw("sha256", data))}";\n}}\n',  # Nix base32
        "release.json": json.dumps({"sha512": h["sha512"].upper()}) + "\n",
        # unpadded base64, marked by a key that says digest: SHA-384's 64 letters, URL-safe SHA-256
        "web/bundle.yaml": f"bundle_sha384: {_b64('sha384', data)}\n",
    }


FORMS = {"scripts/SHA512SUMS": "sha512", "scripts/SHA1SUMS": "sha1", "scripts/MD5SUMS": "md5",
         "scripts/B2SUMS": "blake2b", "scripts/SHA384.tag": "sha384", "scripts/deploy.sh.md5": "md5",
         "scripts/deploy.sh.sha224": "sha224", "infra/lambda.tf": "base64-sha256",
         "ops/upload.yaml": "base64-md5", "ops/digest.env": "base64-sha256",
         "ops/urlsafe.env": "base64url-sha512", "ops/env.sh": "sha384", "package-lock.json": "sri-sha1",
         "nix/deploy.nix": "nix32-sha256", "release.json": "sha512", "web/bundle.yaml": "base64-sha384"}


def _files(**extra: str | bytes) -> dict[str, str | bytes]:
    return {"scripts/deploy.sh": DEPLOY, **_dressed(DEPLOY), **extra}


def _checks_pass(root: Path) -> None:
    """The repo's own checks, as its CI would run them."""
    for tool, manifest in (("sha512sum", "SHA512SUMS"), ("sha1sum", "SHA1SUMS"), ("md5sum", "MD5SUMS"),
                           ("b2sum", "B2SUMS"), ("sha384sum", "SHA384.tag")):
        done = subprocess.run([tool, "-c", "--strict", manifest], cwd=root / "scripts", capture_output=True,
                              text=True, check=False)
        assert done.returncode == 0, (tool, done.stdout, done.stderr)


def test_every_dress_is_found_and_named(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo(_files(), allowlist=ALLOW)
    before = snapshot(root)
    dry = run(root, "sweep", "--dry-run", "--format", "json")
    assert dry.exit_code == 0 and snapshot(root) == before
    pins = {p["path"]: (p["algorithm"], p["status"], p["of"]) for p in json.loads(dry.stdout)["pins"]}
    assert pins == {path: (form, "residual", "scripts/deploy.sh") for path, form in FORMS.items()}
    text = run(root, "sweep", "--dry-run").stdout
    for shown in ("BLAKE2b of scripts/deploy.sh", "SHA-256 (base64) of", "SHA-512 (base64url) of",
                  "SHA-1 (SRI) of", "SHA-256 (Nix base32) of", "SHA-224 of", "SHA-384 of"):
        assert shown in text, shown


def test_update_pins_writes_each_in_its_own_dress(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo(_files(), allowlist=ALLOW)
    done = run(root, "sweep", "--commit", "--update-pins")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert f"Pins updated to the new bytes' digest ({len(FORMS)}):" in done.stdout
    assert (root / "scripts/deploy.sh").read_bytes() == NEW
    for path, expected in _dressed(NEW).items():
        assert (root / path).read_text() == expected, path  # case, padding, alphabet, prefix kept
    _checks_pass(root)
    assert git(root, "status", "--porcelain") == ""
    assert run(root, "verify").exit_code == 0


def test_left_alone_each_fails_verify_after_the_commit(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo(_files(), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1 and done.stdout.count(" (pin") == len(FORMS), done.stdout
    check = run(root, "verify", "--format", "json")
    assert check.exit_code == 1
    found = {r["path"] for r in json.loads(check.stdout)["findings"] if r.get("reason") == "pin"}
    assert found == set(FORMS)
    again = run(root, "sweep", "--commit", "--update-pins")  # a second sweep settles them all
    assert again.exit_code == 0, again.stdout + again.stderr
    _checks_pass(root)
    assert run(root, "verify").exit_code == 0


def test_a_dress_in_prose_is_a_residual_and_a_record_keeps_its_own(repo: Callable[..., Path],
                                                                  run: Callable[..., Result]) -> None:
    """Uncertain formats are never rewritten, in any dress; a record's stays as it was."""
    prose = (f"Before the move the script's SHA-512 was {_b64('sha512', DEPLOY)} (base64) and its "
             f"Nix hash {nix32(_raw('sha256', DEPLOY))}.\n")
    record = f"2026-09-01 deployed, b2sum {hashlib.blake2b(DEPLOY).hexdigest()}\n"
    root = repo({"scripts/deploy.sh": DEPLOY, "RUNBOOK.md": prose, "HISTORY.md": record}, allowlist=ALLOW)
    done = run(root, "sweep", "--commit", "--update-pins")
    assert done.exit_code == 1 and done.stdout.count(" (pin") == 2, done.stdout
    assert (root / "RUNBOOK.md").read_text() == prose and (root / "HISTORY.md").read_text() == record
    assert "HISTORY.md:1:" in done.stdout and "(history)" in done.stdout
    assert run(root, "verify").stdout.count("residual (pin)") == 2


def test_look_alikes_are_no_pins(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """Words of a digest's shape that are not this file's digest; a `.sha256` named for another
    file; the digest of a file the sweep leaves alone."""
    untouched = b"echo no old value\n"
    other = hashlib.sha256(b"something else").digest()
    root = repo({
        "scripts/deploy.sh": DEPLOY, "scripts/untouched.sh": untouched,
        "scripts/untouched.sh.sha512": hashlib.sha512(untouched).hexdigest() + "\n",
        "scripts/B2SUMS": f"{hashlib.blake2b(untouched).hexdigest()}  untouched.sh\n",
        "keys.env": f"API_TOKEN={base64.b64encode(other).decode()}\nSEED={nix32(other)}\n",
        "paths.txt": "usr/share/doc/some-package/examples/config/main.conf\n",
    }, allowlist=ALLOW)
    done = run(root, "sweep", "--commit", "--update-pins")
    assert done.exit_code == 0 and "pin" not in done.stdout.lower(), done.stdout
    assert run(root, "verify").exit_code == 0


def test_a_manifest_left_stale_by_hand_fails_verify_in_every_algorithm(repo: Callable[..., Path],
                                                                        run: Callable[..., Result]) -> None:
    """verify re-hashes what a manifest (or a file named for the one it pins) names: a digest put
    back by hand to the old bytes' after the sweep is found whatever its algorithm."""
    files = _files()
    root = repo(files, allowlist=ALLOW)
    assert run(root, "sweep", "--commit", "--update-pins").exit_code == 0
    for path in ("scripts/SHA512SUMS", "scripts/B2SUMS", "scripts/SHA384.tag", "scripts/deploy.sh.md5"):
        value = files[path]
        (root / path).write_text(value if isinstance(value, str) else value.decode())
    git(root, "commit", "-qam", "an old manifest restored")
    check = run(root, "verify", "--format", "json")
    assert check.exit_code == 1
    stale = {r["path"]: r["new"] for r in json.loads(check.stdout)["findings"] if r.get("reason") == "pin"}
    assert stale == {"scripts/SHA512SUMS": hashlib.sha512(NEW).hexdigest(),
                     "scripts/B2SUMS": hashlib.blake2b(NEW).hexdigest(),
                     "scripts/SHA384.tag": hashlib.sha384(NEW).hexdigest(),
                     "scripts/deploy.sh.md5": hashlib.md5(NEW).hexdigest()}


def test_unpadded_base64_of_either_alphabet_is_left_when_the_new_digest_needs_one(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """The old SHA-256 of DEPLOY in base64 holds none of `+/-_`: unpadded, it may be either
    alphabet's; the new one holds a `/`, which would be `_` in the URL-safe one: a guess, so a residual."""
    old = _b64url("sha256", DEPLOY)
    assert not set(old) & set("+/-_") and "/" in _b64("sha256", NEW)
    pin = f'etag_hash = "{old}"\n'
    root = repo({"scripts/deploy.sh": DEPLOY, "infra/site.tf": pin}, allowlist=ALLOW)
    done = run(root, "sweep", "--commit", "--update-pins")
    assert done.exit_code == 1 and "infra/site.tf:1:14: " in done.stdout, done.stdout
    assert "showing neither alphabet" in done.stdout
    assert (root / "infra/site.tf").read_text() == pin
    assert run(root, "verify").exit_code == 1
