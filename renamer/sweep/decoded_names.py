"""Old values renamer reads only decoded (issue 27, round 22 findings 17, 20 and 29): no byte of
the file spells them, so nothing was read, rewritten or reported, and verify said OK.

* `certificate`: an X.509 PEM certificate, CRL or request (CN, SAN `DNS:`/`IP:`) and an OpenSSH
  certificate (`*-cert-v01@openssh.com`, its principals): the base64 is decoded and its DER or
  SSH strings read for each old name (any case) and address (as text, and as SAN's packed
  `iPAddress`). Signed bytes: never rewritten, a residual asking for a new certificate.
  The same certificate one decoding further (issue 27, round 23 finding 08): base64 of a PEM (a
  Kubernetes TLS Secret's `tls.crt`, a kubeconfig's `client-certificate-data`, a Helm value),
  told by its own first bytes (`LS0tLS1CRUdJT`, base64 of `-----BEGIN`), and base64 of a DER
  certificate (`MII...`, a Java or .NET config's inline certificate), on one line or wrapped over
  lines of base64 alone: decoded, and read as the PEM or the DER is.
* `hashed-name`: a hashed known_hosts entry (`|1|salt|HMAC-SHA1`, `HashKnownHosts yes`,
  `ssh-keygen -H`): each old name (lower case, as ssh hashes it) and address is hashed with the
  entry's salt; one that matches is a residual (it can only be written anew, with ssh-keygen).
* `reg-hex`: a Windows registry export's hex value (`hex(2)` REG_EXPAND_SZ, `hex(7)` REG_MULTI_SZ,
  `hex(1)`: UTF-16LE bytes; `hex:` and other types: raw bytes, read as UTF-16LE and as bytes),
  continuation lines joined: an old value there is a residual naming the value.
* `signed-token`: a JSON Web Token (RFC 7519; a compact JWS, three base64url parts, the first a
  JSON header naming its `alg`) kept in a repo (an `.env`'s deploy token, a kubeconfig `token:`, a
  bearer header, a JWS in JSON serialization's `"payload"`): its payload (issuer, audience, subject)
  is read decoded. The signature covers those bytes: rewriting them breaks the token (t36 finding
  15), so an old value there is a residual naming the claim, asking for a token issued anew.

What is decoded with certainty is reported; nothing here is rewritten. Each reader is gated on a
literal its format cannot do without.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import ipaddress
import json
import re
from collections.abc import Sequence

from renamer import lazy_re, length_prefixed, web_archives
from renamer.base64_values import ENCODED
from renamer.occurrences import Match

CERTIFICATE = "certificate"
HASHED = "hashed-name"
REG_HEX = "reg-hex"
SIGNED_TOKEN = "signed-token"
HINTS = {
    SIGNED_TOKEN: ("named in a signed token's payload (a JWT's `iss`, `aud`, `sub` or another claim): "
                   "the signature covers those bytes, so no text edit may change them, and a service "
                   "under the new name rejects the token's issuer or audience; issue a new token for the new "
                   "name, or keep it with a keep rule"),
    CERTIFICATE: ("named inside a certificate (X.509 CN or SAN, a certificate request, an OpenSSH "
                  "certificate's principals): signed bytes no text edit may change, and a client checking "
                  "the new name rejects it; issue a new certificate for the new name and address, or keep "
                  "it with a keep rule"),
    HASHED: ("a hashed known_hosts entry (`|1|salt|hmac`, HashKnownHosts): the HMAC-SHA1 of the old name "
             "with this entry's salt; strict ssh to the new name finds no key; remove it (`ssh-keygen -R "
             "OLD -f FILE`) and add the new name's key (`ssh-keyscan -H NEW`), or keep it with a keep rule"),
    REG_HEX: ("spelled in a registry export's hex value (`hex(2)`, `hex(7)`: UTF-16LE bytes; `hex:`), "
              "which regedit imports decoded; write the value anew (regedit, `reg add`) and export it "
              "again, or keep it with a keep rule"),
}
_LITERALS = (b"-----BEGIN ", b"-cert-v01@openssh.com", b"|1|", b"=hex", b"LS0tLS1CRUdJT", b"MII",
             b'"encoding"', b"hunked", b"HUNKED", b"eyJ", b"ewo", b"eyA", b"ew0")
# base64 of a PEM (`-----BEGIN` encodes to `LS0tLS1CRUdJT`) or of a DER certificate (a SEQUENCE with
# a two-byte length: `MII`), on one line or continued on lines of base64 alone
_WRAPPED_PEM = lazy_re.compile(rb"(?<![A-Za-z0-9+/])(?P<body>(?:LS0tLS1CRUdJT|MII)[A-Za-z0-9+/]{40,}={0,2}"
                          rb"(?:[ \t]*\r?\n[ \t]*[A-Za-z0-9+/]{4,}={0,2}(?=[ \t]*\r?(?:\n|$)))*)")
_PEM = lazy_re.compile(rb"-----BEGIN (?P<label>CERTIFICATE|TRUSTED CERTIFICATE|X509 CRL|CERTIFICATE REQUEST|"
                  rb"NEW CERTIFICATE REQUEST)-----(?:[^\n]*\n|[ \t]+)(?P<body>[A-Za-z0-9+/=\s]+?)"
                  rb"-----END (?P=label)-----")
# A double-quoted string (JSON, YAML, TOML, HCL, a program's literal) holding a backslash escape: a
# PEM or base64 written with `\n` for its line breaks, or a YAML scalar continued with `\` at a line's end
_QUOTED = lazy_re.compile(rb'"(?P<body>(?:[^"\\]++|\\.)*+)"', re.S)  # possessive: linear on an unclosed quote
_AN_ESCAPE = lazy_re.compile(rb"\\(?:[nrt/]|\r?\n)")
_ESCAPES = lazy_re.compile(rb"\\(?:u(?P<u>[0-9A-Fa-f]{4})|(?P<c>[nrt/\\\"])|\r?\n[ \t]*)")
_ESCAPED = {b"n": b"\n", b"r": b"\r", b"t": b"\t", b"/": b"/", b"\\": b"\\", b'"': b'"'}
_SSH_CERT = lazy_re.compile(
    rb"(?P<type>[a-z0-9-]+-cert-v01@openssh\.com)[ \t]+(?P<body>[A-Za-z0-9+/]+={0,2})")
_HASHED = lazy_re.compile(rb"(?m)^[ \t]*(?:@[A-Za-z-]+[ \t]+)?(?P<entry>\|1\|(?P<salt>[A-Za-z0-9+/]+={0,2})\|"
                     rb"(?P<mac>[A-Za-z0-9+/]+={0,2}))(?=[ \t,])")
_REG_HEX = lazy_re.compile(rb'(?P<head>(?:"(?:[^"\\\r\n]|\\.)*"|@)[ \t]*=[ \t]*'
                      rb"hex(?:\((?P<type>[0-9a-fA-F]{1,8})\))?:)"
                      rb"(?P<body>[0-9a-fA-F]{2}(?:[ \t]*,[ \t]*(?:\\[ \t]*\r?\n[ \t]*)?[0-9a-fA-F]{2})*)")
# A compact JWS/JWT: a header that is base64url of JSON (`{"` is `eyJ`; `{ `, `{\n`, `{\r\n`), a
# payload, a signature (empty for `alg: none`); its JSON serialization's `"payload"` beside a signature.
_JWT = lazy_re.compile(rb"(?<![A-Za-z0-9_/+.-])(?P<header>(?:eyJ|eyA|ewo|ew0)[A-Za-z0-9_-]{4,})\."
                       rb"(?P<payload>[A-Za-z0-9_-]{4,})=*\.(?P<signature>[A-Za-z0-9_-]*)=*(?![A-Za-z0-9_/+=.-])")
_JWS_JSON = lazy_re.compile(rb'"payload"[ \t]*:[ \t]*"(?P<payload>[A-Za-z0-9_-]{4,})=*"')
_NAME = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
_DIGITS = frozenset(b"0123456789")

Old = tuple[str, str, str]  # (old, new, kind)


def might_hold(data: bytes) -> bool:
    """Whether `data` may hold one of the encodings read here (a literal each needs)."""
    return any(literal in data for literal in _LITERALS)


def decoded_matches(data: bytes, matches: list[Match], hosts: Sequence[tuple[str, str]],
                    addresses: Sequence[tuple[str, str]]) -> list[Match]:
    """`matches` with a refused match for each old value a certificate, a hashed known_hosts entry
    or a registry hex value of `data` holds decoded."""
    olds: list[Old] = [(o, n, "host") for o, n in hosts] + [(o, n, "address") for o, n in addresses]
    if not olds:
        return matches
    found: list[Match] = []
    if b"-----BEGIN " in data:
        found += _certificates(data, olds)
    if b"LS0tLS1CRUdJT" in data or b"MII" in data:
        found += _encoded_certificates(data, olds)
    if b"\\" in data and (b"-----BEGIN " in data or b"LS0tLS1CRUdJT" in data or b"MII" in data):
        found += _escaped_certificates(data, olds, found)
    if b"-cert-v01@openssh.com" in data:
        found += _ssh_certificates(data, olds)
    if b"|1|" in data:
        found += _hashed(data, olds)
    if b"=hex" in data:
        found += _registry(data, olds)
    if b'"encoding"' in data:
        found += _har_encoded(data, olds)
    if b"hunked" in data or b"HUNKED" in data:
        found += _split_chunks(data, olds)
    if b"eyJ" in data or b"ewo" in data or b"eyA" in data or b"ew0" in data:
        found += _signed_tokens(data, olds)
    if not found:
        return matches
    taken = [(m.start, m.end) for m in matches]
    added = [m for m in found if not any(s < m.end and m.start < e for s, e in taken)]
    return sorted([*matches, *added], key=lambda m: (m.start, m.end))


def _spelled(blob: bytes, olds: Sequence[Old]) -> list[Old]:
    """The old values text `blob` spells at a name's boundary (a name in any case)."""
    out: list[Old] = []
    folded = blob.lower()
    for old, new, kind in olds:
        needle = old.lower().encode("utf-8", "replace")
        lead, tail = (_DIGITS | {ord(".")}, _DIGITS) if kind == "address" else (_NAME, _NAME)
        at = folded.find(needle)
        while at != -1:
            end = at + len(needle)
            if (at == 0 or folded[at - 1] not in lead) and (end == len(folded) or folded[end] not in tail):
                out.append((old, new, kind))
                break
            at = folded.find(needle, at + 1)
    return out


# DER string types a certificate spells a name or an address in: UTF8String, PrintableString,
# IA5String, and a GeneralName's rfc822Name, dNSName, URI (context tags 1, 2, 6).
_DER_STRINGS = frozenset([0x0C, 0x13, 0x16, 0x81, 0x82, 0x86])


def _in_blob(blob: bytes, olds: Sequence[Old], *, ssh: bool) -> list[Old]:
    """The old values a DER certificate (or an OpenSSH one, `ssh`) holds: each string the blob
    holds, with its exact bounds (a DER tag and short length; an SSH uint32 length), read as text;
    and an address as SAN's packed `iPAddress` (tag 0x87)."""
    strings: list[bytes] = []
    if ssh:
        for i in range(len(blob) - 4):
            size = int.from_bytes(blob[i:i + 4], "big")
            if 0 < size < 256 and i + 4 + size <= len(blob):
                text = blob[i + 4:i + 4 + size]
                if all(0x20 < c < 0x7F for c in text):
                    strings.append(text)
    else:
        for i in range(len(blob) - 2):
            size = blob[i + 1]
            if blob[i] in _DER_STRINGS and 0 < size < 0x80 and i + 2 + size <= len(blob):
                text = blob[i + 2:i + 2 + size]
                if all(0x20 <= c < 0x7F for c in text):
                    strings.append(text)
    found: dict[str, Old] = {}
    for text in strings:
        for one in _spelled(text, olds):
            found.setdefault(one[0], one)
    for old, new, kind in olds:
        if kind == "address" and old not in found and not ssh:
            try:
                packed = ipaddress.ip_address(old.split("/")[0]).packed
            except ValueError:
                continue
            if bytes([0x87, len(packed)]) + packed in blob:
                found[old] = (old, new, kind)
    return list(found.values())


def _line_end(data: bytes, at: int) -> int:
    end = data.find(b"\n", at)
    return len(data) if end == -1 else end


def _certificates(data: bytes, olds: Sequence[Old]) -> list[Match]:
    out = []
    for m in _PEM.finditer(data):
        try:
            der = base64.b64decode(re.sub(rb"\s+", b"", m.group("body")), validate=True)
        except (binascii.Error, ValueError):
            continue
        what = m.group("label").decode().lower()
        for old, new, kind in _in_blob(der, olds, ssh=False):
            out.append(Match(m.start(), _line_end(data, m.start()), old, new, kind, refused=CERTIFICATE,
                             note=f"an X.509 {what} (PEM) names {old} in its subject or alternative names"))
    return out


def _encoded_certificates(data: bytes, olds: Sequence[Old]) -> list[Match]:
    """Base64 of a PEM certificate, or of a DER one, outside any PEM block: each old value it names."""
    pems = [m.span() for m in _PEM.finditer(data)] if b"-----BEGIN " in data else []
    out = []
    for m in _WRAPPED_PEM.finditer(data):
        if any(s <= m.start() < e for s, e in pems):
            continue  # a PEM block's own body: read above
        body = re.sub(rb"\s+", b"", m.group("body"))
        try:
            raw = base64.b64decode(body, validate=True)
        except (binascii.Error, ValueError):
            try:  # the lines after the first were no part of it
                raw = base64.b64decode(body[:len(m.group("body").split(b"\n")[0].strip())], validate=True)
            except (binascii.Error, ValueError):
                continue
        if raw.startswith(b"-----BEGIN "):
            named = [(n.old, n.new, n.kind, n.note or "") for n in _certificates(raw, olds)]
        elif raw[:2] == b"\x30\x82":
            named = [(o, n, k, f"an X.509 certificate (DER) names {o} in its subject or alternative names")
                     for o, n, k in _in_blob(raw, olds, ssh=False)]
        else:
            continue
        seen: set[str] = set()
        for old, new, kind, note in named:
            if old not in seen:
                seen.add(old)
                out.append(Match(m.start(), _line_end(data, m.start()), old, new, kind, refused=CERTIFICATE,
                                 note=f"base64 of a certificate, decoded: {note}"))
    return out


def _unescaped(body: bytes) -> bytes:
    """A double-quoted string's text: its escapes decoded, a line continued with `\\` joined."""
    def one(m: re.Match[bytes]) -> bytes:
        if m.group("u") is not None:
            return chr(int(m.group("u"), 16)).encode("utf-8", "replace")
        return _ESCAPED[m.group("c")] if m.group("c") is not None else b""
    return _ESCAPES.sub(one, body)


def _escaped_certificates(data: bytes, olds: Sequence[Old], found: list[Match]) -> list[Match]:
    """A certificate (PEM, base64 of a PEM or a DER one) inside a double-quoted string written with
    escapes (`"-----BEGIN CERTIFICATE-----\\nMIIB...\\n"` of a JSON value, a YAML scalar continued
    with `\\`), beside other text of the string or not (g31): read as the string's reader does,
    decoded; one the readers above found already is not said twice."""
    out = []
    for m in _QUOTED.finditer(data):
        body = m.group("body")
        if b"-----BEGIN " not in body and b"LS0tLS1CRUdJT" not in body and b"MII" not in body:
            continue
        if _AN_ESCAPE.search(body) is None:
            continue  # no escape: the readers above read it as it stands
        text = _unescaped(body)
        named = _certificates(text, olds) if b"-----BEGIN " in text else []
        named += _encoded_certificates(text, olds)
        line_end = _line_end(data, m.start())
        seen = {n.old for n in found if m.start() <= n.start <= m.end()}
        for one in named:
            if one.old not in seen:
                seen.add(one.old)
                out.append(Match(m.start("body"), line_end, one.old, one.new, one.kind, refused=CERTIFICATE,
                                 note=f"a quoted string, its escapes decoded: {one.note}"))
    return out


def _split_chunks(data: bytes, olds: Sequence[Old]) -> list[Match]:
    """An old value a chunked body spells only across a chunk's edge (`web0` | `1.lab.example`, its
    size line between): the reader joins the chunks and reads it; no text edit knows which chunk
    grows. A residual `split` at the chunk it starts in (g31)."""
    out = []
    for chunks in length_prefixed.chunked_bodies(data):
        if len(chunks) < 2:
            continue
        joined = b"".join(data[begin:end] for _, _, begin, end, _ in chunks)
        starts, at = [], 0
        for _, _, begin, end, _ in chunks:
            starts.append((at, at + end - begin, begin))
            at += end - begin
        for old, new, kind in _spelled(joined, olds):
            needle = old.lower().encode("utf-8", "replace")
            hit = joined.lower().find(needle)
            while hit != -1:
                first = next(c for c in starts if c[0] <= hit < c[1])
                if hit + len(needle) > first[1]:  # runs over the chunk's end
                    begin = first[2] + hit - first[0]
                    stop = min(_line_end(data, begin), begin + first[1] - hit)
                    out.append(Match(begin, stop, old, new, kind, refused="split", note="spelled across two "
                                     f"chunks of a chunked body: its reader joins them into {old}"))
                hit = joined.lower().find(needle, hit + 1)
    return out


def _har_encoded(data: bytes, olds: Sequence[Old]) -> list[Match]:
    """A HAR body kept in base64 (`"encoding": "base64"`, g31): an old value its decoded bytes spell
    is an `encoded` residual (the capture is of what was served; its `content.size` counts the
    decoded bytes: a new capture, not a text edit, brings it up to date)."""
    out = []
    for start, end, raw, where in web_archives.har_base64(data):
        for old, new, kind in _spelled(raw, olds):
            out.append(Match(start, min(end, _line_end(data, start)), old, new, kind, refused=ENCODED,
                             note=f"{where} is base64 (`\"encoding\": \"base64\"`) and spells {old} decoded"))
    return out


def _ssh_certificates(data: bytes, olds: Sequence[Old]) -> list[Match]:
    out = []
    for m in _SSH_CERT.finditer(data):
        try:
            blob = base64.b64decode(m.group("body"), validate=True)
        except (binascii.Error, ValueError):
            continue
        for old, new, kind in _in_blob(blob, olds, ssh=True):
            out.append(Match(m.start("type"), m.end("type"), old, new, kind, refused=CERTIFICATE,
                             note=f"an OpenSSH certificate names {old} among its principals"))
    return out


def _hashed(data: bytes, olds: Sequence[Old]) -> list[Match]:
    out = []
    for m in _HASHED.finditer(data):
        try:
            salt = base64.b64decode(m.group("salt"), validate=True)
            mac = base64.b64decode(m.group("mac"), validate=True)
        except (binascii.Error, ValueError):
            continue
        if len(mac) != 20:
            continue
        for old, new, kind in olds:
            name = old.lower().split("/")[0] if kind == "address" else old.lower()
            if hmac.compare_digest(hmac.new(salt, name.encode("utf-8"), hashlib.sha1).digest(), mac):
                out.append(Match(m.start("entry"), m.end("entry"), old, new, kind, refused=HASHED,
                                 note=f"this hashed entry is {name}, hashed with its salt"))
                break
    return out


def _registry(data: bytes, olds: Sequence[Old]) -> list[Match]:
    out = []
    for m in _REG_HEX.finditer(data):
        raw = bytes.fromhex(re.sub(rb"[^0-9a-fA-F]", b"", m.group("body")).decode("ascii"))
        kind_of = int(m.group("type"), 16) if m.group("type") else 3
        readings = [raw.decode("utf-16-le", "replace").encode("utf-8", "replace")]
        if kind_of not in (1, 2, 7):  # binary, a DWORD, another type: its bytes may be text of either width
            readings.append(raw)
        seen: set[str] = set()
        for reading in readings:
            for old, new, kind in _spelled(reading.replace(b"\0", b"\n"), olds):
                if old in seen:
                    continue
                seen.add(old)
                name = m.group("head").split(b"=")[0].strip().decode("utf-8", "replace")
                out.append(Match(m.start("head"), m.end("head"), old, new, kind, refused=REG_HEX,
                                 note=f"{name}'s hex({kind_of:x}) value spells {old} once decoded"))
    return out


def _base64url(text: bytes) -> bytes | None:
    try:
        return base64.urlsafe_b64decode(text + b"=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return None


def _json_object(raw: bytes | None) -> dict[str, object] | None:
    if raw is None:
        return None
    try:
        value = json.loads(raw)
    except (UnicodeDecodeError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def _claims(payload: dict[str, object], old: str, kind: str) -> list[str]:
    """The claims of `payload` whose value (a string, or strings in a list: `aud`) spells `old`."""
    out = []
    for claim, value in payload.items():
        values = value if isinstance(value, list) else [value]
        text = "\n".join(v for v in values if isinstance(v, str)).encode("utf-8", "replace")
        if text and _spelled(text, [(old, "", kind)]):
            out.append(claim)
    return out


def _signed_tokens(data: bytes, olds: Sequence[Old]) -> list[Match]:
    """A JWT (compact JWS) or a JWS in JSON serialization whose payload names an old value: a
    residual per old value, naming the claims (never the token: it is a credential)."""
    out = []
    spans: list[tuple[int, int, bytes]] = []
    for m in _JWT.finditer(data):
        header = _json_object(_base64url(m.group("header")))
        if header is not None and "alg" in header:
            spans.append((m.start(), m.end(), m.group("payload")))
    if b'"payload"' in data and b'"signature' in data:
        spans += [(m.start("payload"), m.end("payload"), m.group("payload"))
                  for m in _JWS_JSON.finditer(data)]
    for start, end, text in spans:
        payload = _json_object(_base64url(text))
        if payload is None:
            continue
        for old, new, kind in olds:
            claims = _claims(payload, old, kind)
            if claims:
                named = ", ".join(f"`{c}`" for c in claims)
                out.append(Match(start, end, old, new, kind, refused=SIGNED_TOKEN,
                                 note=f"a signed token (JWT) whose payload names {old} in {named}"))
    return out
