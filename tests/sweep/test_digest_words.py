"""digest_words: a digest in any dress decodes to its bytes and is written back in the same dress
(pure logic; the CLI tests are tests/cli/test_pins_in_every_dress.py)."""

from __future__ import annotations

import base64
import hashlib

import pytest

from renamer.sweep.digest_words import NAMES, Dress, digest_of, from_nix32, key_of, nix32, words

DATA = b"ssh root@ana-ml2\n"
DRESSES = [
    pytest.param(Dress("hex"), id="hex"),
    pytest.param(Dress("hex", upper=True), id="hex-upper"),
    pytest.param(Dress("base64"), id="base64"),
    pytest.param(Dress("base64url"), id="base64url"),
]


@pytest.mark.parametrize("dress", DRESSES)
@pytest.mark.parametrize("algorithm", sorted(NAMES))
@pytest.mark.parametrize("around", [
    pytest.param("{}", id="alone"), pytest.param("x = \"{}\"\n", id="quoted"),
    pytest.param("{}  path/to/file\n", id="manifest"), pytest.param("(`{}`)", id="code-span"),
])
def test_every_algorithm_in_every_padded_dress_is_read_back(algorithm: str, dress: Dress, around: str) -> None:
    digest = digest_of(algorithm, DATA)
    written = dress.write(digest)
    text = around.format(written)
    found = [w for w in words(text) if w.key == digest.hex()]
    if dress.kind != "hex" and len(written) == 64:  # SHA-384 in bare base64 has no padding to mark it
        assert found == []
        return
    assert len(found) == 1
    assert text[found[0].start:found[0].end] == written and found[0].dress.write(digest) == written


@pytest.mark.parametrize("algorithm", ["sha1", "sha256", "sha384", "sha512"])
def test_sri_and_prefixed_unpadded_forms(algorithm: str) -> None:
    digest = digest_of(algorithm, DATA)
    sri = f"{algorithm}-{base64.b64encode(digest).decode()}"
    (word,) = words(f'integrity="{sri}"')
    assert word.key == digest.hex() and word.dress.write(digest) == sri and word.dress.kind == "sri"
    unpadded = base64.urlsafe_b64encode(digest).decode().rstrip("=")
    (word,) = words(f"digest={algorithm}:{unpadded}\n")
    assert word.key == digest.hex() and word.dress.write(digest) == unpadded
    assert words(f"digest {unpadded}\n") == []  # bare and unpadded: nothing marks it as a digest
    assert key_of(unpadded) == digest.hex()  # a value its format marks as a digest


def test_nix_base32_round_trips_and_matches_nix() -> None:
    # `nix-hash --type sha256 --to-base32 $(sha256sum < /dev/null)`
    assert nix32(hashlib.sha256(b"").digest()) == "0mdqa9w1p6cmli6976v4wi0sw9r4p5prkj7lzfd1877wk11c9c73"
    digest = hashlib.sha256(DATA).digest()
    assert from_nix32(nix32(digest)) == digest
    (word,) = words(f'  sha256 = "{nix32(digest)}";\n')
    assert word.key == digest.hex() and word.dress == Dress("nix32")


@pytest.mark.parametrize("text", [
    pytest.param("a" * 63, id="hex-too-short"),
    pytest.param("a" * 65, id="hex-too-long"),
    pytest.param("g" * 64, id="not-hex"),
    pytest.param("usr/share/doc/some-package/examples/config/main.conf", id="a-path"),
    pytest.param("LONG_ENVIRONMENT_VARIABLE_NAME=1", id="a-long-key"),
    pytest.param("sha256-" + "A" * 10, id="sri-too-short"),
    pytest.param("sha384-" + base64.b64encode(hashlib.sha256(DATA).digest()).decode(), id="sri-wrong-length"),
    pytest.param("ab+cd-" * 8 + "==", id="two-alphabets"),
])
def test_look_alikes_are_no_digests(text: str) -> None:
    assert words(text) == []


@pytest.mark.parametrize("line", [
    pytest.param("bundle_sha384: {}\n", id="yaml-key-names-the-algorithm"),
    pytest.param('source_code_hash = "{}"\n', id="terraform-hash"),
    pytest.param('"integrity": "{}"', id="json-integrity"),
    pytest.param("CHECKSUM={}\n", id="env-checksum"),
])
@pytest.mark.parametrize("algorithm", ["sha256", "sha384", "sha512"])
def test_unpadded_base64_where_the_key_says_digest(line: str, algorithm: str) -> None:
    digest = digest_of(algorithm, DATA)
    for written in (base64.b64encode(digest).decode().rstrip("="),
                    base64.urlsafe_b64encode(digest).decode().rstrip("=")):
        (word,) = words(line.format(written))
        assert word.key == digest.hex() and word.dress.write(digest) == written
