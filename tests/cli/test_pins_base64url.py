"""Hash pins in unpadded base64url under a key that names the algorithm (issue 27, round 22 finding
27): a JWS/TUF-style manifest `"sha256": "<base64url>"` (the key quoted, then its colon) was not
looked at, while hex, base64, SRI and Nix base32 of the same digest were. JSON, YAML and TOML keys,
SHA-256/384/512 and MD5: each is a residual `pin` after the sweep, and `--update-pins` writes the
new digest in the same dress (base64url, unpadded), which verify then accepts."""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

CONFIG = "version: 1\nrenames:\n  hosts: {web01: app01}\nallowlist: allow.yaml\n"
ALLOW = "version: 1\ncurrent: ['**']\n"
UPSTREAM = b"server web01.lab:80;\n"


def _pin(algorithm: str, data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.new(algorithm, data).digest()).decode().rstrip("=")


SHAPES = {
    "json-sha256": ("manifest.json", '{{"files": {{"upstream.conf": {{"sha256": "{}"}}}}}}\n', "sha256"),
    "yaml-sha512": ("manifest.yaml", "files:\n  upstream.conf:\n    sha512: '{}'\n", "sha512"),
    "toml-sha384": ("manifest.toml", '[files."upstream.conf"]\nsha384 = "{}"\n', "sha384"),
    "json-md5": ("targets.json", '{{"upstream.conf": {{"hashes": {{"md5": "{}"}}}}}}\n', "md5"),
}


def _with_dashes(algorithm: str) -> bytes:
    """UPSTREAM, varied until its digest shows a URL-safe letter (`-` or `_`): the alphabet is known."""
    for i in range(1000):
        data = UPSTREAM + b"#" * i + b"\n" if i else UPSTREAM
        if set(_pin(algorithm, data)) & set("-_"):
            return data
    raise AssertionError("no variant")


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_base64url_pin_is_found_and_updated(shape: str, repo: Callable[..., Path],
                                              run: Callable[..., Result]) -> None:
    holder, template, algorithm = SHAPES[shape]
    data = _with_dashes(algorithm)
    root = repo({"upstream.conf": data, holder: template.format(_pin(algorithm, data))},
                config=CONFIG, allowlist=ALLOW)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 1  # committed, with the pin left: a residual
    assert "update it by hand, or sweep with --update-pins" in swept.stdout
    verify = run(root, "verify")
    assert verify.exit_code == 1, verify.stdout
    assert f"{holder}:" in verify.stdout and "residual (pin)" in verify.stdout
    assert "(base64url) of upstream.conf" in verify.stdout
    updated = run(root, "sweep", "--commit", "--update-pins")
    assert updated.exit_code == 0, updated.stdout
    after = (root / "upstream.conf").read_bytes()
    assert b"app01" in after
    assert _pin(algorithm, after) in (root / holder).read_text()
    assert run(root, "verify").exit_code == 0
