"""Content renamer cannot read, whatever its format (issue 27, round 22 findings 13, 21, 28): the
sweep listed ansible-vault and sops files as "encrypted, not read", a gzip file as skipped, and said
nothing of a git-crypt file, an age or gpg message, a Git LFS pointer, a git-annex link or a zstd
archive: `verify --strict` passed over names it never saw.

Each is told by its own bytes (never by its name alone):

* encrypted (the "Encrypted, not read" list): git-crypt (`\\0GITCRYPT\\0`), age (binary
  `age-encryption.org/v1` and armoured `-----BEGIN AGE ENCRYPTED FILE-----`), OpenPGP (armoured
  `-----BEGIN PGP MESSAGE-----`, or a binary message opening with a public-key or symmetric-key
  encrypted session key, or an encrypted data packet, of a known version), an encrypted PEM private
  key, a zip with encrypted members, a PKCS#12 bundle (`.p12`, `.pfx`) whose certificates sit in an
  encrypted bag (round 23 finding 08: the certificate naming the old host was never mentioned);
* content elsewhere (the "Not read" list): a Git LFS pointer (`version https://git-lfs...`), a
  git-annex link into `.git/annex/objects` (its content absent, or present and spelling an old
  value: the sweep never writes through a link), a compressed file renamer does not open or that
  does not decompress whole (sweep/compressed.py), binary content of no known format as dense as
  compressed or encrypted bytes (sweep/dense_bytes.py: brotli, raw LZMA2, `openssl enc -nosalt`).

What cannot be read may hold an old value: each is listed and `verify --strict` fails on it, until
it is read by hand and classed (a keep rule, `exclude:`) or its content is fetched.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from renamer.match import Matcher
from renamer.sweep import compressed, dense_bytes

_GIT_CRYPT = b"\x00GITCRYPT\x00"
_AGE = b"age-encryption.org/v1\n"
_ARMOURS = ((b"-----BEGIN AGE ENCRYPTED FILE-----", "age"), (b"-----BEGIN PGP MESSAGE-----", "gpg"),
            (b"-----BEGIN ENCRYPTED PRIVATE KEY-----", "openssl"))
_LFS = b"version https://git-lfs.github.com/spec/"
# OpenPGP packets that open an encrypted message (RFC 4880/9580): tag -> the versions they come in
_OPENING = {1: (3, 6), 3: (4, 5, 6), 18: (1, 2), 20: (1,)}
_TELL = {
    "git-crypt": "encrypted with git-crypt: `git-crypt unlock` shows what it holds",
    "age": "encrypted with age: `age --decrypt` shows what it holds",
    "gpg": "an OpenPGP (gpg) encrypted message: `gpg --decrypt` shows what it holds",
    "openssl": "an encrypted private key (PEM): what it holds is not readable",
}


def encrypted(data: bytes) -> str | None:
    """Why `data` is read only as ciphertext (git-crypt, age, OpenPGP, an encrypted PEM key, a zip of
    encrypted members), or None. ansible-vault and sops are told by sweep/parallel.py."""
    if data.startswith(_GIT_CRYPT):
        return _TELL["git-crypt"]
    if data.startswith(_AGE):
        return _TELL["age"]
    head = data[:4096]
    for armour, name in _ARMOURS:
        if armour in head and head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(armour):
            return _TELL[name]
    if b"Proc-Type: 4,ENCRYPTED" in head and b"-----BEGIN " in head:
        return _TELL["openssl"]
    if _openpgp_message(data):
        return _TELL["gpg"]
    if _pkcs12_sealed(data):
        return ("a PKCS#12 bundle whose certificates are encrypted: `openssl pkcs12 -info -in FILE` with "
                "its password shows the names they hold")
    if data.startswith(b"PK\x03\x04") and len(data) > 8 and data[6] & 0x1:
        return "a zip whose members are encrypted: `unzip` with its password shows what it holds"
    return None


_PKCS7_DATA = bytes.fromhex("06092a864886f70d010701")  # OID 1.2.840.113549.1.7.1, pkcs7-data
_PKCS7_ENCRYPTED = bytes.fromhex("06092a864886f70d010706")  # 1.2.840.113549.1.7.6, encryptedData


def _pkcs12_sealed(data: bytes) -> bool:
    """A PKCS#12 PFX (a SEQUENCE, version 3, its content pkcs7-data) holding an encryptedData bag."""
    if len(data) < 32 or data[0] != 0x30 or not 0x80 <= data[1] <= 0x84:
        return False
    at = 2 + (data[1] & 0x7F)
    if data[at:at + 3] != b"\x02\x01\x03" or _PKCS7_DATA not in data[at + 3:at + 24]:
        return False
    return _PKCS7_ENCRYPTED in data


def _openpgp_message(data: bytes) -> bool:
    """Whether `data` opens with an OpenPGP packet that starts an encrypted message, with a length
    that fits the file and a version that packet comes in."""
    if len(data) < 4 or not data[0] & 0x80:
        return False
    first = data[0]
    if first & 0x40:  # new format: the tag in six bits, then a one, two or five octet length
        tag = first & 0x3F
        octet = data[1]
        if octet < 192:
            length, at = octet, 2
        elif octet < 224:
            length, at = ((octet - 192) << 8) + data[2] + 192, 3
        elif octet == 255 and len(data) >= 6:
            length, at = int.from_bytes(data[2:6], "big"), 6
        else:
            length, at = 1 << (octet & 0x1F), 2  # a partial length: the rest follows
    else:  # old format: the tag in four bits, the length's size in two
        tag = (first >> 2) & 0x0F
        size = (1, 2, 4, 0)[first & 0x03]
        if size == 0:
            return False
        length, at = int.from_bytes(data[1:1 + size], "big"), 1 + size
    versions = _OPENING.get(tag)
    if versions is None or at >= len(data) or length < 2:
        return False
    if tag in (18, 20) and first & 0x40 == 0:
        return False  # these come in the new format only
    return at + length <= len(data) and data[at] in versions


def pointer(data: bytes) -> str | None:
    """Why `data` is a pointer to content kept elsewhere (a Git LFS pointer), or None."""
    if data.startswith(_LFS) and b"\noid " in data[:200]:
        return ("a Git LFS pointer: its content is not in the work tree (`git lfs pull`, then sweep "
                "again), so what it holds was not read")
    return None


def annex_link(root: str, rel: str, holds: Callable[[bytes], str | None], limit: int) -> str | None:
    """Why a symlink `rel` into git-annex's object store is listed as not read, or None (no such
    link, or its content is here and `holds` finds no old value in it). The sweep never writes
    through a link: content present that spells an old value is listed too."""
    try:
        target = os.readlink(os.path.join(root, rel))
    except OSError:
        return None
    if "/annex/objects/" not in target and not target.startswith("annex/objects/"):
        return None
    path = os.path.join(root, os.path.dirname(rel), target)
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError:
        return ("a git-annex link whose content is not in this clone (`git annex get`, then sweep again): "
                "what it holds was not read")
    old = holds(data) if len(data) <= limit else "(too large to read)"
    if old is None:
        return None
    return (f"a git-annex link whose content spells {old}: the sweep never writes through a link; "
            "`git annex unlock` it, sweep again, then `git annex add` it")


def unreadable(data: bytes, limit: int) -> tuple[str, str] | None:
    """("encrypted" or "unread", why) where `data` cannot be read, or None: encrypted, a pointer to
    content elsewhere, a compressed file renamer does not open or that does not decompress whole."""
    sealed = encrypted(data)
    if sealed is not None:
        return "encrypted", sealed
    elsewhere = pointer(data)
    if elsewhere is not None:
        return "unread", elsewhere
    if compressed.kind(data) is not None:
        try:
            compressed.expanded(data, limit)
        except compressed.Encrypted as err:
            return "encrypted", str(err)
        except compressed.Unopened as err:
            return "unread", str(err)
        return None
    opaque = dense_bytes.dense(data)  # brotli, raw LZMA2, a headerless cipher text (g31)
    return ("unread", opaque) if opaque is not None else None


def first_old(matcher: Matcher, data: bytes) -> str | None:
    """The first old value `data` spells (not refused or kept), or None."""
    if not any(needle in data for needle in matcher.needles):
        return None
    return next((m.old for m in matcher.find(data) if m.refused is None and m.kept is None), None)
