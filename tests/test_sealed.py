"""sealed.py's pure readings: a detached signature's first packet, a SealedSecret's bound keys in
every mapping spelling, a scalar's end."""

from __future__ import annotations

import pytest

from renamer.sealed import is_signature_packet, sealed_secret_spans, value_end


@pytest.mark.parametrize(("head", "signature"), [
    (b"\x89\x01\x33", True),  # old format, tag 2 (gpg --detach-sign)
    (b"\xc2\xc0\x73", True),  # new format, tag 2
    (b"\x85\x01\x0c", False),  # public-key encrypted session key (gpg --encrypt)
    (b"\x8c\x0d\x04", False),  # symmetric session key (gpg --symmetric)
    (b"\x90\x0d\x03", False),  # one-pass signature: a signed message holding its data
    (b"Origin: lab", False), (b"", False)])
def test_a_detached_signature_is_told_by_its_first_packet(head: bytes, signature: bool) -> None:
    assert is_signature_packet(head) is signature


@pytest.mark.parametrize(("text", "bound"), [
    (b'{"kind":"SealedSecret","metadata":{"name":"db","namespace":"pug"}}', [b'name":"db"', b'namespace":"pug"']),
    (b"kind: SealedSecret\nmetadata: {name: db, namespace: pug}\n", [b"name: db", b"namespace: pug"]),
    (b"items:\n- kind: SealedSecret\n  metadata:\n    name: db\n", [b"name: db"]),
    (b"{'kind': 'SealedSecret', 'metadata': {'namespace': 'pug'}}", [b"namespace': 'pug'"]),
    (b'{"kind":"Secret","metadata":{"name":"db"}}', []),
    (b'{"kind":"SealedSecret","metadata":{"name":"db","annotations":'
     b'{"sealedsecrets.bitnami.com/cluster-wide":"true"}}}', []),
])
def test_a_sealed_secrets_bound_keys_in_every_spelling(text: bytes, bound: list[bytes]) -> None:
    assert [text[start:end] for start, end in sealed_secret_spans(text)] == bound


def test_a_scalar_ends_at_its_quote_or_its_separator() -> None:
    data = b'a: "x\\"y", b: z}\n'
    assert data[3:value_end(data, 2, len(data))] == b'"x\\"y"'
    assert data[14:value_end(data, 13, len(data))] == b"z"


def test_an_openpgp_signature_is_told_to_sign_the_bytes_it_signs(tmp_path) -> None:
    """`Packet` (break-it round 19, #8): made by the real gpg, binary, armoured and text mode; the
    bytes it signs match, a byte more or another file does not (but for 1 in 65,536)."""
    import os
    import subprocess

    from renamer.sealed import Packet

    home = tmp_path / "gnupg"
    home.mkdir(mode=0o700)
    env = {**os.environ, "GNUPGHOME": str(home)}
    subprocess.run(["gpg", "--batch", "--quiet", "--passphrase", "", "--quick-gen-key", "t <t@t>", "default",
                    "default", "never"], env=env, check=True, capture_output=True)
    data = b"Origin: lab\nHost: pug.ana.lan\n"
    (tmp_path / "Release").write_bytes(data)
    hashed: dict[tuple[str, int], object] = {}
    try:
        for how in (["--detach-sign"], ["--armor", "--detach-sign"], ["--textmode", "--detach-sign"]):
            made = subprocess.run(["gpg", "--batch", "--quiet", *how, "--output", "-", str(tmp_path / "Release")],
                                  env=env, check=True, capture_output=True).stdout
            packet = Packet.parse(made)
            assert packet is not None, how
            assert packet.signs(data) and packet.signs(data, hashed), how
            others = [data.replace(b"pug", b"wolf"), data + b"\n", data[1:], b"Origin: mirror\n"]
            assert sum(packet.signs(other) for other in others) <= 1, how  # each a 1 in 65,536 chance
        assert Packet.parse(b"Origin: lab\n") is None
    finally:
        subprocess.run(["gpgconf", "--kill", "gpg-agent"], env=env, check=False, capture_output=True)
