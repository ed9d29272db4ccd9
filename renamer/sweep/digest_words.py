"""The digests a hash pin may be written as (break-it round 4, finding 6), read back to their bytes.

A pin is the same digest in any of its dresses: hex in either case (`sha256sum`, `sha512sum`,
`md5sum`, `b2sum`), base64 standard or URL-safe (Terraform's `source_code_hash`, `Content-MD5`,
`Digest: SHA-256=...`), Subresource Integrity's `sha384-<base64>` (npm locks, `<script
integrity>`), and Nix's base32. Each word is decoded to the digest's bytes and keyed by their
lower-case hex (`Word.key`), so one lookup finds a pin whatever its dress, and the new digest is
written back in the dress the old one wore (`Word.dress`).

An unpadded base64 digest that shows neither alphabet's own letters is either: its new digest is
written only where it needs neither (pins.py leaves the others for a decision).

Padded base64 is looked for anywhere (its `=` marks it); unpadded base64 (and a SHA-384's 64
letters, which need no padding) only where something marks it as a digest: a prefix naming an
algorithm (`sha256:`, `sha384=`), SRI, or a key that says digest (`source_code_hash = "..."`,
`bundle_sha384: ...`, `"integrity": "..."`). A bare 43-letter word is as often a path or a key as a
digest, and reading every one would read most files of a repo.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from dataclasses import dataclass
from typing import Literal

from renamer import lazy_re

# hashlib name -> how reports name it; every algorithm a pin is looked for in
NAMES = {"md5": "MD5", "sha1": "SHA-1", "sha224": "SHA-224", "sha256": "SHA-256", "sha384": "SHA-384",
         "sha512": "SHA-512", "blake2b": "BLAKE2b", "sha3_256": "SHA3-256", "sha3_512": "SHA3-512",
         "blake2b256": "BLAKE2b-256"}  # the last three: break-it round 24, finding 19 (`b2sum -l 256`)
SIZES = {16: ("md5",), 20: ("sha1",), 28: ("sha224",), 32: ("sha256", "sha3_256", "blake2b256"),
         48: ("sha384",), 64: ("sha512", "blake2b", "sha3_512")}  # digest bytes -> the algorithms that long
SRI = ("sha1", "sha256", "sha384", "sha512")  # the algorithms SRI's `<name>-<base64>` is written with
_NIX = "0123456789abcdfghijklmnpqrsvwxyz"  # Nix's base32 alphabet (no e, o, t, u)

_B64 = r"A-Za-z0-9+/_\-"
# One alternation, tried left to right at each place: SRI first (its prefix starts before the
# base64), then a prefixed unpadded base64, hex of a digest's length, Nix base32, padded base64.
WORD = (
    rf"(?<![0-9A-Za-z+/-])(?P<sri>sha(?:1|256|384|512)-)(?P<s>[{_B64}]{{27,86}}={{0,2}})(?![{_B64}=])"
    rf"|(?<![0-9A-Za-z])(?P<pre>(?:[Ss][Hh][Aa]-?(?:1|224|256|384|512)|[Mm][Dd]5|[Bb][Ll][Aa][Kk][Ee]2[Bb])[:=])"
    rf"(?P<p>[{_B64}]{{22,88}}={{0,2}})(?![{_B64}=])"
    # a value whose key says digest: `app_sha384: <base64>`, `source_code_hash = "<base64>"`
    rf"|(?P<key>(?i:sha-?(?:1|224|256|384|512)|md5|blake2b?|b2|checksum|digest|hash|integrity)(?i:sum)?"
    r"""["']?[ \t]*[:=][ \t]*["']?)"""
    rf"(?P<k>[{_B64}]{{22,88}}={{0,2}})(?![{_B64}=])"
    r"|(?<![0-9A-Za-z])(?P<hex>[0-9A-Fa-f]{128}|[0-9A-Fa-f]{96}|[0-9A-Fa-f]{64}|[0-9A-Fa-f]{56}|"
    r"[0-9A-Fa-f]{40}|[0-9A-Fa-f]{32})(?![0-9A-Za-z])"
    r"|(?<![0-9A-Za-z])(?P<nix>[0-9a-df-np-sv-z]{52})(?![0-9A-Za-z])"
    rf"|(?<![{_B64}])(?P<b64>[{_B64}]{{86}}==|[{_B64}]{{43}}=|[{_B64}]{{38}}==|[{_B64}]{{27}}=|"
    rf"[{_B64}]{{22}}==)(?![{_B64}=])")
WORDS = lazy_re.compile(WORD)
WORDS_IN_BYTES = lazy_re.compile(WORD.encode("ascii"))
# for git grep (PCRE or ERE): a file that may hold one of them
HOLDS = ("[0-9A-Fa-f]{32}|[0-9a-df-np-sv-z]{52}|[A-Za-z0-9+/_-]{22}={1,2}([^A-Za-z0-9+/=_-]|$)"
         "|[Ss][Hh][Aa]-?(1|224|256|384|512)[-:=]|[Mm][Dd]5[:=]|[Bb][Ll][Aa][Kk][Ee]2[Bb][:=]"
         "|([Hh][Aa][Ss][Hh]|[Dd][Ii][Gg][Ee][Ss][Tt]|[Cc][Hh][Ee][Cc][Kk][Ss][Uu][Mm]|[Ii][Nn][Tt][Ee][Gg][Rr]"
         "[Ii][Tt][Yy]|[Ss][Hh][Aa]-?(1|224|256|384|512)|[Mm][Dd]5|[Bb][Ll][Aa][Kk][Ee]2[Bb]?|[Bb]2)"
         "([Ss][Uu][Mm])?[\"']?[ \t]*[:=][ \t]*[\"']?[A-Za-z0-9+/_-]{22}")
# (The key's own algorithm name counts: `"sha256": "<base64url>"` of a JWS/TUF-style manifest holds an
# unpadded digest no other alternative marks; issue 27, round 22 finding 27.)

Kind = Literal["hex", "base64", "base64url", "sri", "nix32"]


@dataclass(frozen=True)
class Dress:
    """How a digest is written: its encoding, case (hex), padding (base64) and SRI prefix."""

    kind: Kind
    upper: bool = False
    padded: bool = True
    algorithm: str = ""  # the algorithm an SRI prefix names
    # base64 showing neither alphabet's letters (`+/`, `-_`) and no padding: either alphabet
    alphabet_known: bool = True

    def write(self, digest: bytes) -> str:
        if self.kind == "hex":
            text = digest.hex()
            return text.upper() if self.upper else text
        if self.kind == "nix32":
            return nix32(digest)
        encoded = (base64.urlsafe_b64encode(digest) if self.kind == "base64url"
                   else base64.b64encode(digest)).decode("ascii")
        encoded = encoded if self.padded else encoded.rstrip("=")
        return f"{self.algorithm}-{encoded}" if self.kind == "sri" else encoded


@dataclass(frozen=True)
class Word:
    """A digest-shaped word of a text: where it is, the digest's bytes as hex (its key), its dress."""

    start: int
    end: int
    key: str
    dress: Dress


def words(text: str) -> list[Word]:
    """The digest-shaped words of `text` that decode to a digest's length."""
    out = []
    for m in WORDS.finditer(text):
        group = m.lastgroup or ""
        word = _word(group, m.start(group), m.end(group), m.group(group), m.group("sri"))
        if word is not None:
            out.append(word)
    return out


def words_in(data: bytes) -> list[Word]:
    """`words` of bytes (offsets into the bytes)."""
    out = []
    for m in WORDS_IN_BYTES.finditer(data):
        group = m.lastgroup or ""
        prefix = m.group("sri")
        word = _word(group, m.start(group), m.end(group), m.group(group).decode("ascii"),
                     prefix.decode("ascii") if prefix else None)
        if word is not None:
            out.append(word)
    return out


def _word(group: str | None, start: int, end: int, text: str, sri: str | None) -> Word | None:
    if group == "s" and sri:  # the word is the whole `sha256-<base64>`, prefix and all
        algorithm = sri[:-1]
        if _is_hex(text):  # `sha256-<hex>`: the prefix names it, the digest is hex
            return Word(start, end, text.lower(), Dress("hex", upper=text.upper() == text))
        raw = _base64(text)
        if raw is None or len(raw) != hashlib.new(algorithm).digest_size:
            return None
        return Word(start - len(sri), end, raw.hex(), Dress("sri", padded=text.endswith("="),
                                                            algorithm=algorithm))
    if group == "hex":
        return Word(start, end, text.lower(), Dress("hex", upper=text.upper() == text and not text.isdigit()))
    if group == "nix":
        raw = from_nix32(text)
        return Word(start, end, raw.hex(), Dress("nix32")) if raw is not None and len(raw) == 32 else None
    sri_inside = re.match("sha(?:1|256|384|512)-", text) if group == "k" else None
    if sri_inside is not None:  # `"integrity": "sha384-..."`: the value is SRI
        prefix = sri_inside.group()
        return _word("s", start + len(prefix), end, text[len(prefix):], prefix)
    if group in ("p", "k", "b64"):
        if group != "b64" and _is_hex(text):
            return Word(start, end, text.lower(), Dress("hex", upper=text.upper() == text))
        if group != "b64" and len(text) == 52 and (nix := from_nix32(text)) is not None:
            return Word(start, end, nix.hex(), Dress("nix32"))
        raw = _base64(text)
        if raw is None or len(raw) not in SIZES:
            return None
        url = "-" in text or "_" in text
        padded = text.endswith("=")
        # padded base64 is the standard alphabet's (the URL-safe one is written unpadded, RFC 7515)
        known = url or padded or "+" in text or "/" in text
        return Word(start, end, raw.hex(), Dress("base64url" if url else "base64", padded=padded,
                                                 alphabet_known=known))
    return None


def _is_hex(text: str) -> bool:
    return len(text) % 2 == 0 and len(text) // 2 in SIZES and re.fullmatch("[0-9A-Fa-f]+", text) is not None


def _base64(text: str) -> bytes | None:
    if ("-" in text or "_" in text) and ("+" in text or "/" in text):
        return None  # two alphabets in one word: no base64 at all
    padded = text + "=" * (-len(text) % 4)
    try:
        if "-" in text or "_" in text:
            return base64.urlsafe_b64decode(padded)
        return base64.b64decode(padded, validate=True)
    except (binascii.Error, ValueError):
        return None


def nix32(digest: bytes) -> str:
    """Nix's base32 (`nix-hash --to-base32`): five bits a letter, read from the digest's last bit."""
    length = (len(digest) * 8 - 1) // 5 + 1
    out = []
    for n in range(length - 1, -1, -1):
        bit = n * 5
        i, j = divmod(bit, 8)
        value = digest[i] >> j
        if i + 1 < len(digest):
            value |= digest[i + 1] << (8 - j)
        out.append(_NIX[value & 0x1F])
    return "".join(out)


def from_nix32(text: str) -> bytes | None:
    size = len(text) * 5 // 8
    out = bytearray(size)
    for position, letter in enumerate(text):
        value = _NIX.find(letter)
        if value < 0:
            return None
        bit = (len(text) - 1 - position) * 5
        i, j = divmod(bit, 8)
        out[i] |= (value << j) & 0xFF
        carry = value >> (8 - j)
        if i + 1 < size:
            out[i + 1] |= carry
        elif carry:
            return None  # bits past the digest's end: not a Nix base32 digest
    return bytes(out)


def digests(data: bytes) -> dict[str, str]:
    """algorithm -> `data`'s digest in it, as lower-case hex (the key words are looked up by)."""
    return {algorithm: digest_of(algorithm, data).hex() for algorithm in NAMES}


def digest_of(algorithm: str, data: bytes) -> bytes:
    """`data`'s digest in `algorithm` (a key of NAMES: `blake2b256` is BLAKE2b of 32 bytes)."""
    if algorithm == "blake2b256":
        return hashlib.blake2b(data, digest_size=32).digest()
    return hashlib.new(algorithm, data).digest()


def form(algorithm: str, dress: Dress) -> str:
    """The pin's form as the JSON report names it: `sha256`, `sri-sha384`, `base64-sha256`..."""
    return algorithm if dress.kind == "hex" else f"{'sri' if dress.kind == 'sri' else dress.kind}-{algorithm}"


def shown(algorithm: str, dress: Dress) -> str:
    """How the text report names it: `SHA-256`, `SHA-384 (SRI)`, `SHA-256 (base64)`."""
    name = NAMES[algorithm]
    extra = {"hex": "", "sri": " (SRI)", "base64": " (base64)", "base64url": " (base64url)",
             "nix32": " (Nix base32)"}[dress.kind]
    return name + extra


def whole_word(text: str) -> Word | None:
    """The digest-shaped word `text` is, where it is one and nothing else."""
    found = words(text)
    return found[0] if len(found) == 1 and (found[0].start, found[0].end) == (0, len(text)) else None


def key_of(text: str) -> str | None:
    """The key of `text` where it is one digest-shaped word and nothing else (a value its format
    already marks as a digest: unpadded base64 counts here, as it does after a prefix)."""
    whole = whole_word(text)
    if whole is not None:
        return whole.key
    if words(text) or not re.fullmatch(f"[{_B64}]{{22,88}}={{0,2}}", text):
        return None
    word = _word("p", 0, len(text), text, None)
    return word.key if word is not None else None


def algorithms_for(key: str) -> tuple[str, ...]:
    """The algorithms whose digests are as long as the digest `key` (lower-case hex)."""
    return SIZES.get(len(key) // 2, ())
