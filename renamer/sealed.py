"""Sealed files: bytes a MAC or a signature covers, which no text edit may change (break-it round 16,
finding 1). Rewritten, the file still reads as text, but its tool refuses it:

* `sops`: a sops-encrypted file (YAML, JSON, dotenv, INI). Each encrypted value's key path is the
  additional data of its AES-GCM encryption, and the MAC in its `sops` metadata covers every value,
  the plaintext ones too (`--encrypted-regex`, `--unencrypted-suffix`): a renamed key makes its
  value undecryptable, a rewritten plaintext value a "MAC mismatch". Told by the ciphertext's own
  spelling, `ENC[AES256_GCM,data:`, beside the metadata's key (`sops:`, `"sops":`, `[sops]`,
  `sops_mac=`); the whole file is sealed, its metadata too (a key service's address is `sops
  updatekeys`' business).
* `sealed-secret`: a Bitnami SealedSecret's `metadata.name` and `metadata.namespace` (and its
  template's): its `encryptedData` is sealed with them as the label of each value (the default,
  strict scope), so a renamed name or namespace no longer unseals. `namespace-wide: "true"` frees
  the name, `cluster-wide: "true"` both.
* `signed`: the text of a PGP clear-signed block (`-----BEGIN PGP SIGNED MESSAGE-----` to the end
  of its signature), or a whole file a detached signature beside it signs (`FILE.asc` holding a
  PGP signature, `FILE.sig`, `FILE.sign`, `FILE.minisig`, `FILE.p7s`, and `FILE.gpg` / `FILE.pgp`
  holding one, armoured or a binary signature packet: Debian's `Release.gpg`).

Every old value there is refused (a residual naming the tool), never rewritten; a record's or an
exempt line's stays kept as it was. Each test is gated on a literal, so a file holding none pays
one `in` per gate.
"""

from __future__ import annotations

import itertools
import os
import re
from dataclasses import replace

from renamer.occurrences import Match

SOPS = "sops"
SIGNED = "signed"
SEALED_SECRET = "sealed-secret"
HINTS = {
    SEALED_SECRET: ("a SealedSecret's name or namespace: its encryptedData is sealed with them (strict "
                    "scope), so renamed it no longer unseals; seal the secret again under the new name "
                    "(`kubeseal`), or keep it with a keep rule"),
    SOPS: ("in a sops-encrypted file: each value's key path is its encryption's additional data and the "
           "`sops` MAC covers every value, so a text edit makes the file undecryptable; edit it with "
           "`sops edit FILE` (`sops set`, `sops updatekeys` for its key services), or keep it with a keep "
           "rule"),
    SIGNED: ("inside signed text (a PGP clear-signed block, or a file a detached signature beside it "
             "signs: FILE.asc, .sig, .gpg, .minisig): an edit breaks the signature; edit the text and sign "
             "it again (`gpg --clearsign`, `gpg --detach-sign`, `minisign -S`), or keep it with a keep rule"),
}
_CIPHERTEXT = b"ENC[AES256_GCM,data:"
_SOPS_METADATA = re.compile(rb'(?m)^(?:sops[ \t]*:|\[sops\][ \t]*\r?$|sops_mac=)|"sops"[ \t\r\n]*:')
_CLEARSIGN = b"-----BEGIN PGP SIGNED MESSAGE-----"
_SIGNATURE_END = b"-----END PGP SIGNATURE-----"
_DETACHED = (".asc", ".sig", ".sign", ".minisig", ".gpg", ".pgp", ".p7s")
_ARMOURED = b"-----BEGIN PGP SIGNATURE-----"
# A key where a block mapping (`kind:`, `- kind:` in a list), a flow mapping or JSON (`{"kind":`,
# `, kind:`) may hold it: a one-line JSON SealedSecret is as sealed as a block one (round 17, #3b).
_KEY = rb'(?:^[ \t]*(?:-[ \t]+)*|[{,][ \t\r\n]*)["\']?'
_SEALED_KIND = re.compile(rb"(?m)" + _KEY + rb'kind["\']?[ \t]*:[ \t]*["\']?SealedSecret\b')
_DOCUMENT = re.compile(rb"(?m)^---")
_SCOPED = re.compile(rb"(?m)" + _KEY + rb'(?P<key>name|namespace)["\']?[ \t]*:')
_WIDE = re.compile(rb'sealedsecrets\.bitnami\.com/(cluster|namespace)-wide"?[ \t]*:[ \t]*"?true')


def sealed_secret_spans(data: bytes) -> list[tuple[int, int]]:
    """The `name:` and `namespace:` lines of a SealedSecret that its seal binds (none where it is
    sealed cluster-wide, the namespace alone where namespace-wide)."""
    if b"SealedSecret" not in data or _SEALED_KIND.search(data) is None:
        return []
    out = []
    bounds = [0, *(m.start() for m in _DOCUMENT.finditer(data)), len(data)]
    for start, stop in itertools.pairwise(bounds):  # each YAML document of the file on its own
        if _SEALED_KIND.search(data, start, stop) is None:
            continue
        wide = {m.group(1) for m in _WIDE.finditer(data, start, stop)}
        if b"cluster" in wide:
            continue
        for m in _SCOPED.finditer(data, start, stop):
            if m.group("key") == b"name" and b"namespace" in wide:
                continue
            out.append((m.start("key"), value_end(data, m.end(), stop)))
    return out


def value_end(data: bytes, at: int, stop: int) -> int:
    """Where the scalar after a key's colon at `at` ends: its closing quote, else the first `,`, `}`,
    `]` or line end (a block mapping's value is the rest of its line)."""
    while at < stop and data[at] in b" \t":
        at += 1
    if at < stop and data[at] in b"\"'":
        quote = data[at]
        at += 1
        while at < stop and data[at] != quote:
            at += 2 if data[at] == 0x5C and quote == 0x22 else 1  # a JSON `\"` inside
        return min(at + 1, stop)
    ends = [i for i in (data.find(c, at, stop) for c in (b",", b"}", b"]", b"\n")) if i != -1]
    return min(ends, default=stop)


def is_sops(data: bytes) -> bool:
    """Whether `data` is a sops-encrypted document: its ciphertext and its metadata's key."""
    return _CIPHERTEXT in data and _SOPS_METADATA.search(data) is not None


def signed_spans(data: bytes) -> list[tuple[int, int]]:
    """The clear-signed blocks of `data`, each from its armour header to its signature's end (or
    the end of the file, where the signature is cut off)."""
    out: list[tuple[int, int]] = []
    at = data.find(_CLEARSIGN)
    while at != -1:
        end = data.find(_SIGNATURE_END, at)
        end = len(data) if end == -1 else end + len(_SIGNATURE_END)
        out.append((at, end))
        at = data.find(_CLEARSIGN, end)
    return out


class Signatures:
    """The detached signatures of a tree, read one folder at a time (one listing per folder that
    holds a file with an old value, never a stat per suffix per file)."""

    def __init__(self, root: str) -> None:
        self.root = root
        self._folders: dict[str, frozenset[str]] = {}

    def _names(self, folder: str) -> frozenset[str]:
        names = self._folders.get(folder)
        if names is None:
            try:
                listed = os.listdir(os.path.join(self.root, folder) if folder else self.root)
                names = frozenset(n for n in listed if n.endswith(_DETACHED))
            except OSError:
                names = frozenset()
            self._folders[folder] = names
        return names

    def of(self, rel: str) -> str | None:
        """The detached signature beside `rel` that signs its bytes, or None."""
        folder, _, name = rel.rpartition("/")
        names = self._names(folder)
        for suffix in _DETACHED:
            if name + suffix not in names:
                continue
            if suffix in (".sig", ".sign", ".minisig", ".p7s"):
                return rel + suffix
            try:
                with open(os.path.join(self.root, rel + suffix), "rb") as f:
                    head = f.read(4096)
            except OSError:
                continue
            if _ARMOURED in head or (suffix != ".asc" and is_signature_packet(head)):
                return rel + suffix
        return None


def is_signature_packet(head: bytes) -> bool:
    """Whether binary OpenPGP data starts with a signature packet (tag 2): `gpg --detach-sign -o
    FILE.gpg`, Debian's `Release.gpg`. An encrypted `FILE.gpg` (a session key packet, tag 1 or 3)
    or a signed message holding its data (one-pass signature, tag 4) is no detached signature."""
    if not head or not head[0] & 0x80:
        return False
    tag = head[0] & 0x3F if head[0] & 0x40 else (head[0] >> 2) & 0x0F
    return tag == 2


Sealed = tuple[str, list[tuple[int, int]], str | None]


def sealed(signatures: Signatures, rel: str, data: bytes) -> Sealed | None:
    """Why parts of `data` may not be edited: the kind, its spans, what seals them (a detached
    signature's path), or None."""
    if is_sops(data):
        return SOPS, [(0, len(data))], None
    signature = signatures.of(rel)
    if signature is not None:
        return SIGNED, [(0, len(data))], signature
    spans = signed_spans(data) if _CLEARSIGN in data else []
    if spans:
        return SIGNED, spans, None
    spans = sealed_secret_spans(data)
    return (SEALED_SECRET, spans, None) if spans else None


def held(signatures: Signatures, rel: str, data: bytes, matches: list[Match]) -> list[Match]:
    """`matches` with each one inside sealed bytes refused (`sops`, `signed`), unless kept already
    (an opaque token of the ciphertext, a kept account): no text edit may change those bytes."""
    found = sealed(signatures, rel, data)
    if found is None:
        return matches
    kind, spans, by = found
    note = f"signed by {by}" if by is not None else None
    return [replace(m, refused=kind, note=note) if m.kept is None and m.refused != "kept-reference"
            and any(start <= m.start and m.end <= end for start, end in spans) else m for m in matches]
