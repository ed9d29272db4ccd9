"""Binary content of no format renamer knows whose bytes look compressed or encrypted (issue 27, g31:
the wider guard t30 finding 12 asked for): a brotli stream (no header), raw LZMA2 (`xz
--format=raw`), a headerless cipher text (`openssl enc -nosalt`), a proprietary archive. An old value
inside cannot show as bytes, so the file was neither "skipped" nor "not read": verify --strict said
OK over what it never read.

A file is one where it is binary (a NUL in its first 8 KiB, or no UTF-8), opens with none of the
magic bytes of the formats a repository holds by the thousand (images, fonts, executables, media,
databases, archives: `KNOWN`), and its first 64 KiB are as dense as random bytes of that length
(Shannon entropy within 0.3 bit of what random bytes of that length give; 512 bytes or more: a
short key's few bytes tell nothing). Measured before this guard was added (g31 report): of 18,000
files under /usr/share and /usr/lib (fonts, icons, pixmaps, locale catalogues, Python packages) and
two public repositories with fonts and images, 12,209 binary, none is listed by it; images and
fonts carry their magic, catalogues and bytecode are not dense.

Pure: bytes in, a reason out.
"""

from __future__ import annotations

import math
from collections import Counter

from renamer.sweep import compressed

# (offset, magic) of formats a repository holds by the thousand: images, fonts, executables and
# libraries, media, databases, documents, packs. Dense, and never a place renamer reads a name in
# as text (an old value's plain bytes there are still found: sweep/binary_hits.py).
KNOWN: tuple[tuple[int, bytes], ...] = (
    (0, b"\x89PNG"), (0, b"\xff\xd8\xff"), (0, b"GIF8"), (0, b"RIFF"), (0, b"\x00\x00\x01\x00"), (0, b"BM"),
    (0, b"II*\x00"), (0, b"MM\x00*"), (0, b"%PDF"), (0, b"wOFF"), (0, b"wOF2"), (0, b"\x00\x01\x00\x00"),
    (0, b"true"), (0, b"OTTO"), (0, b"ttcf"), (34, b"LP"), (0, b"\x7fELF"), (0, b"\xcf\xfa\xed\xfe"),
    (0, b"\xce\xfa\xed\xfe"), (0, b"\xfe\xed\xfa"), (0, b"MZ"), (0, b"\xca\xfe\xba\xbe"), (0, b"\x00asm"),
    (0, b"SQLite format 3"), (0, b"ID3"), (0, b"\xff\xfb"), (0, b"\xff\xf3"), (0, b"\xff\xf1"), (4, b"ftyp"),
    (0, b"OggS"), (0, b"fLaC"), (0, b"\xd4\xc3\xb2\xa1"), (0, b"\xa1\xb2\xc3\xd4"), (0, b"\x0a\x0d\x0d\x0a"),
    (0, b"PACK"), (0, b"DIRC"), (0, b"\x1aE\xdf\xa3"), (0, b"8BPS"), (0, b"\x00\x00\x00\x0cjP"),
    (0, b"icns"), (0, b"gimp xcf"), (0, b"\xd0\xcf\x11\xe0"), (0, b"!<arch>"), (0, b"\x93NUMPY"),
    (0, b"hsqs"), (0, b"QFI\xfb"), (0, b"\x00\x00\x00\x1cftyp"), (0, b"FWS"), (0, b"CWS"), (0, b"ZWS"),
    (0, b"\x30\x82"), (0, b"\xed\xab\xee\xdb"), (0, b"KDMV"), (0, b"conectix"),
)
_SAMPLE = 65536
_LEAST = 512
_MARGIN = 0.3


def _binary(head: bytes) -> bool:
    if b"\x00" in head[:8192]:
        return True
    if head.isascii():
        return False
    try:
        head[:8192].decode("utf-8")
    except UnicodeDecodeError as err:
        return err.start < min(len(head), 8192) - 4  # not a character cut at the sample's end
    return False


def _openpgp_key(data: bytes) -> bool:
    """A binary OpenPGP key or keyring (an apt repository's `.gpg` key in a role's files): a
    public- or secret-key packet (tags 6, 5), old or new format, of a known version. Its user IDs
    are plain bytes (an old value there is found: sweep/binary_hits.py)."""
    first = data[0]
    if first & 0xC0 == 0x80:  # old format: tag in bits 5-2, length type in bits 1-0
        tag, lengths = (first >> 2) & 0x0F, {0: 1, 1: 2, 2: 4}.get(first & 0x03)
    elif first & 0xC0 == 0xC0:  # new format: one-byte length below 192, two bytes below 224
        tag, lengths = first & 0x3F, 1 if data[1] < 192 else 2 if data[1] < 224 else None
    else:
        return False
    return tag in (5, 6) and lengths is not None and data[1 + lengths:2 + lengths] in (b"\x03", b"\x04",
                                                                                     b"\x05", b"\x06")


def might_be(data: bytes) -> bool:
    """The first pass's cheap question: long enough, and a NUL or a byte over 127 near its start."""
    return len(data) >= _LEAST and (b"\x00" in data[:8192] or not data[:8192].isascii())


def entropy(data: bytes) -> float:
    """Shannon entropy of `data`, in bits per byte."""
    size = len(data)
    return -sum(n / size * math.log2(n / size) for n in Counter(data).values()) if size else 0.0


def _random_entropy(size: int) -> float:
    """About what random bytes of `size` give (the sample's shortfall from 8 bits, to first order)."""
    return 8.0 - 255 / (2 * size * math.log(2))


def dense(data: bytes) -> str | None:
    """Why `data` cannot be read (binary, no known format, as dense as random bytes), or None."""
    if len(data) < _LEAST or not _binary(data):
        return None
    if any(data[at:at + len(magic)] == magic for at, magic in KNOWN) or _openpgp_key(data):
        return None
    sample = data[:_SAMPLE]
    bits = entropy(sample)
    if bits < _random_entropy(len(sample)) - _MARGIN or compressed.kind(data) is not None:
        return None  # not dense, or a compressed format renamer tells (and opens or names)
    return (f"binary of no format renamer knows, as dense as compressed or encrypted bytes ({bits:.2f} bits "
            "a byte): an old value inside cannot show; decompress or decrypt it and read it, or class it "
            "(a keep rule, `exclude:`)")
