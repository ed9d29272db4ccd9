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
  holding one, armoured or a binary signature packet: Debian's `Release.gpg`); or one kept in another
  folder (`sigs/Release.gpg` for `apt/Release`, break-it round 19 #8): an OpenPGP signature anywhere
  in the tree whose hash's first 16 bits match the file's bytes, or another kind (`.sig`,
  `.minisig`) named for the file in a folder where no file of that name lies, or named on one
  line of the repo with the file (`minisign -Vm conf/motd -x keys/banner.minisig`).

Every old value there is refused (a residual naming the tool), never rewritten; a record's or an
exempt line's stays kept as it was. Each test is gated on a literal, so a file holding none pays
one `in` per gate.
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import os
import posixpath
import re
import subprocess
from dataclasses import replace
from typing import Any

from renamer import lazy_re
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
             "or elsewhere signs: FILE.asc, .sig, .gpg, .minisig): an edit breaks the signature; edit the "
             "text and sign it again (`gpg --clearsign`, `gpg --detach-sign`, `minisign -S`), or keep it "
             "with a keep rule"),
}
_CIPHERTEXT = b"ENC[AES256_GCM,data:"
_SOPS_METADATA = lazy_re.compile(rb'(?m)^(?:sops[ \t]*:|\[sops\][ \t]*\r?$|sops_mac=)|"sops"[ \t\r\n]*:')
_CLEARSIGN = b"-----BEGIN PGP SIGNED MESSAGE-----"
_SIGNATURE_END = b"-----END PGP SIGNATURE-----"
_DETACHED = (".asc", ".sig", ".sign", ".minisig", ".gpg", ".pgp", ".p7s")
_ARMOURED = b"-----BEGIN PGP SIGNATURE-----"
# A key where a block mapping (`kind:`, `- kind:` in a list), a flow mapping or JSON (`{"kind":`,
# `, kind:`) may hold it: a one-line JSON SealedSecret is as sealed as a block one (round 17, #3b).
_KEY = rb'(?:^[ \t]*(?:-[ \t]+)*|[{,][ \t\r\n]*)["\']?'
_SEALED_KIND = lazy_re.compile(rb"(?m)" + _KEY + rb'kind["\']?[ \t]*:[ \t]*["\']?SealedSecret\b')
_DOCUMENT = lazy_re.compile(rb"(?m)^---")
_SCOPED = lazy_re.compile(rb"(?m)" + _KEY + rb'(?P<key>name|namespace)["\']?[ \t]*:')
_WIDE = lazy_re.compile(rb'sealedsecrets\.bitnami\.com/(cluster|namespace)-wide"?[ \t]*:[ \t]*"?true')


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
    """The detached signatures of a tree: beside a file, read one folder at a time (one listing per
    folder that holds a file with an old value, never a stat per suffix per file); elsewhere, one
    listing of the tree, asked only for a file that holds an old value (break-it round 19, #8:
    `sigs/Release.gpg` signs `apt/Release`)."""

    def __init__(self, root: str) -> None:
        self.root = root
        self._folders: dict[str, frozenset[str]] = {}
        self._tree: list[str] | None = None
        self._packets: dict[str, Packet | None] = {}
        self._named: list[tuple[str, str, bytes]] | None = None

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

    def of(self, rel: str, data: bytes | None = None) -> str | None:
        """The detached signature that signs `rel`'s bytes `data`: beside it, else anywhere in the
        tree (an OpenPGP one whose hash matches, another kind named for the file in a folder
        without a file of that name), or None."""
        folder, _, name = rel.rpartition("/")
        names = self._names(folder)
        for suffix in _DETACHED:
            if name + suffix not in names:
                continue
            if suffix in (".sig", ".sign", ".minisig", ".p7s"):
                return rel + suffix
            head = _head(os.path.join(self.root, rel + suffix))
            if head is not None and (_ARMOURED in head or (suffix != ".asc" and is_signature_packet(head))):
                return rel + suffix
        return None if data is None else self._elsewhere(rel, data)

    def _elsewhere(self, rel: str, data: bytes) -> str | None:
        name = rel.rpartition("/")[2]
        hashed: dict[tuple[str, int], Any] = {}  # the file's bytes hashed once per algorithm and mode
        for sig in self._signatures():
            if os.path.lexists(os.path.join(self.root, sig.rpartition(".")[0])):
                continue  # it signs the file beside it (a copy of the same bytes elsewhere is not signed)
            packet = self._packet(sig)
            if packet is not None:
                if packet.signs(data, hashed):
                    return sig
                continue
            sig_name = sig.rpartition("/")[2]
            if sig_name.rpartition(".")[0] == name and not sig_name.endswith((".asc", ".gpg", ".pgp")):
                return sig  # not OpenPGP (minisign, ssh, PKCS#7): named for the file, and nothing beside it
        return self._named_with(rel)

    def _named_with(self, rel: str) -> str | None:
        """A signature of another kind, named otherwise, that a line of the repo names beside the
        file (`minisign -Vm conf/motd -x keys/banner.minisig`, `cosign verify-blob --signature`)."""
        for referrer, sig, text in self._lines():
            for word in _PATH_WORD.finditer(text):
                spelled = os.fsdecode(word.group()).removeprefix("./")
                if spelled == rel or spelled.endswith("/" + rel) or posixpath.normpath(
                        posixpath.join(posixpath.dirname(referrer), spelled)) == rel:
                    return sig
        return None

    def _lines(self) -> list[tuple[str, str, bytes]]:
        """(the file, the signature, the line) for each line naming a signature that is no
        OpenPGP one (one `git grep -F` over the tree, asked once)."""
        if self._named is None:
            self._named = []
            others = {sig.rpartition("/")[2]: sig for sig in self._signatures() if self._packet(sig) is None}
            names = sorted(others)[:_MAX_NAMED]
            if names:
                command = ["git", "-C", self.root, "grep", "--untracked", "-I", "-n", "-z", "-F",
                           "--full-name"]
                for one in names:
                    command += ["-e", one]
                try:
                    done = subprocess.run(command, capture_output=True, check=False)
                    rows = done.stdout.split(b"\n")
                except OSError:
                    rows = []
                for row in rows:
                    cells = row.split(b"\0", 2)
                    if len(cells) != 3:
                        continue
                    for word in _PATH_WORD.finditer(cells[2]):
                        sig = others.get(os.fsdecode(word.group()).rpartition("/")[2])
                        if sig is not None:
                            self._named.append((os.fsdecode(cells[0]), sig, cells[2]))
                            break
        return self._named

    def _signatures(self) -> list[str]:
        if self._tree is None:
            command = ["git", "-C", self.root, "ls-files", "-z", "-co", "--exclude-standard"]
            try:
                done = subprocess.run(command, capture_output=True, check=False)
                listed = [os.fsdecode(p) for p in done.stdout.split(b"\0") if p.endswith(_DETACHED_BYTES)]
            except OSError:
                listed = []
            self._tree = listed[:_MAX_SIGNATURES]
        return self._tree

    def _packet(self, rel: str) -> Packet | None:
        if rel not in self._packets:
            head = _head(os.path.join(self.root, rel))
            self._packets[rel] = None if head is None else Packet.parse(head)
        return self._packets[rel]


def _head(path: str) -> bytes | None:
    try:
        with open(path, "rb") as f:
            return f.read(_SIGNATURE_READ)
    except OSError:
        return None


_DETACHED_BYTES = tuple(s.encode() for s in _DETACHED)
_MAX_SIGNATURES = 2000  # a tree listing this many signatures: the rest are not read
_MAX_NAMED = 200  # signatures of other kinds looked for on the repo's lines, at most
_PATH_WORD = lazy_re.compile(rb"[A-Za-z0-9._/@+~-]+")
_SIGNATURE_READ = 16384
_HASHES = {1: "md5", 2: "sha1", 3: "ripemd160", 8: "sha256", 9: "sha384", 10: "sha512", 11: "sha224"}
_ARMOUR_BODY = lazy_re.compile(rb"-----BEGIN PGP SIGNATURE-----\r?\n(?:[^\r\n]+\r?\n)*?\r?\n"
                          rb"(?P<body>[A-Za-z0-9+/=\r\n]+?)(?:\r?\n=[A-Za-z0-9+/]{4})?\r?\n"
                          rb"-----END PGP SIGNATURE-----")


class Packet:
    """A version 4 OpenPGP signature packet (RFC 4880 5.2.3), enough of it to tell whether it signs
    given bytes: its hash's first 16 bits, over the bytes (binary, or text with CRLF line ends) and
    its hashed part with the trailer. A 1 in 65,536 chance of a false match: a file held."""

    def __init__(self, kind: int, hash_name: str, hashed: bytes, left: bytes) -> None:
        self.kind = kind
        self.hash_name = hash_name
        self.hashed = hashed
        self.left = left

    @classmethod
    def parse(cls, head: bytes) -> Packet | None:
        if _ARMOURED in head:
            found = _ARMOUR_BODY.search(head)
            if found is None:
                return None
            try:
                head = base64.b64decode(re.sub(rb"\s+", b"", found.group("body")), validate=True)
            except ValueError:
                return None
        if not is_signature_packet(head):
            return None
        body = _packet_body(head)
        if body is None or len(body) < 6 or body[0] != 4 or body[1] not in (0, 1):
            return None
        hash_name = _HASHES.get(body[3])
        end = 6 + int.from_bytes(body[4:6], "big")
        if hash_name is None or len(body) < end + 2:
            return None
        unhashed = int.from_bytes(body[end:end + 2], "big")
        left = body[end + 2 + unhashed:end + 4 + unhashed]
        return cls(body[1], hash_name, body[:end], left) if len(left) == 2 else None

    def signs(self, data: bytes, hashed: dict[tuple[str, int], Any] | None = None) -> bool:
        """Does it sign `data`? `hashed`: the bytes' hashes so far, by algorithm and mode, so that
        many signatures read one file's bytes once."""
        key = (self.hash_name, self.kind)
        base = hashed.get(key) if hashed is not None else None
        if base is None:
            text = re.sub(rb"\r?\n", b"\r\n", data) if self.kind == 1 else data  # text: CRLF line ends
            try:
                base = hashlib.new(self.hash_name, text)
            except ValueError:
                return True  # a hash this Python lacks: held, never an OK by omission
            if hashed is not None:
                hashed[key] = base
        digest = base.copy()
        digest.update(self.hashed)
        digest.update(b"\x04\xff" + len(self.hashed).to_bytes(4, "big"))
        return digest.digest()[:2] == self.left


def _packet_body(data: bytes) -> bytes | None:
    """The body of the first packet of binary OpenPGP data (old and new length formats)."""
    tag = data[0]
    if tag & 0x40:  # new format
        if len(data) < 2:
            return None
        first = data[1]
        if first < 192:
            return data[2:2 + first]
        if first < 224:
            return data[3:3 + ((first - 192) << 8) + data[2] + 192] if len(data) >= 3 else None
        if first == 255:
            return data[6:6 + int.from_bytes(data[2:6], "big")]
        return None  # a partial length: no detached signature
    size = (1, 2, 4, 0)[tag & 0x03]
    if not size:
        return data[1:]
    return data[1 + size:1 + size + int.from_bytes(data[1:1 + size], "big")]


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
    signature = signatures.of(rel, data)
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
