"""Values that say where a secret lies, not what it is: a file path under a key named for a key.

`ssh_private_key_file: ~/.ssh/pug.key`, `private_key_path: /etc/ssl/pug.key`, `tls_key: ./pug.pem`,
`--private-key ~/.ssh/pug_rsa`: the value is a file's path, which an operator must read to review a
rename of it (masked on both sides of a diff, the change cannot be seen). Inline key material
under the same keys (`-----BEGIN ...`, a base64 run, an AWS key id) is still the secret, and so is
any value of a key named for the secret itself (`password`, `token`, `api_key`), path-shaped or not:
masking errs on the side of hiding.
"""

from __future__ import annotations

import itertools

from renamer import lazy_re

# A path's start: absolute, home (`~/`, `~user/`, `$HOME/`), relative (`./`, `../`), a Windows drive.
_PATH_START = lazy_re.compile(r"(?:/|~[A-Za-z0-9_.\-]*/|\.\.?/|\$\{?HOME\}?/|[A-Za-z]:[\\/])")
# Or a key or certificate file's name wherever it lies (`certs/pug.pem`, `id_pug_ed25519`).
_KEY_FILE_END = lazy_re.compile(r"(?i)(?:\.(?:pem|key|crt|cer|pub|der|p12|pfx|ppk|jks|keystore|asc|gpg)"
                           r"|_(?:rsa|dsa|ecdsa|ed25519)(?:\.pub)?)\Z")
# Key material, never a path: PEM armour, an access key id, OpenSSH's key type words.
_MATERIAL = lazy_re.compile(r"-----BEGIN|PRIVATE KEY|\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA)[0-9A-Z]{16}\b"
                       r"|\bssh-(?:rsa|ed25519|dss)\b|\becdsa-sha2-")
_BASE64_PIECE = lazy_re.compile(r"[A-Za-z0-9+]{20,}={0,2}")
_TRAILING_COMMENT = lazy_re.compile(r"\s+#.*\Z")
# Words of a key's name that say its value is a location (`*_file`, `*_path`, `IdentityFile`).
_LOCATION_WORDS = {"file", "files", "filename", "filepath", "path", "paths", "dir", "directory", "location"}
# Words that say the value is the secret itself, never where it lies.
_ITSELF_WORDS = {"password", "passwd", "pwd", "passphrase", "secret", "secrets", "token", "tokens",
                 "apikey", "credential", "credentials", "auth", "authorization", "bearer", "cookie",
                 "pass", "psk", "otp", "pw"}
_ITSELF_PAIRS = {("api", "key"), ("access", "key"), ("secret", "key"), ("client", "secret"),
                 ("master", "key"), ("session", "key"), ("account", "key")}


def is_path(value: str) -> bool:
    """Whether `value` (quotes and a trailing `# comment` aside) is one file path and no key
    material: no blank inside, a path's start or a key file's ending, no PEM armour, key id or
    base64 run (20+ characters of mixed case and digits, or holding `+`)."""
    text = _TRAILING_COMMENT.sub("", value.strip())
    if len(text) > 1 and text[0] in "'\"" and text[-1] == text[0]:
        text = text[1:-1]
    if not text or any(char.isspace() for char in text) or _MATERIAL.search(text):
        return False
    if not (_PATH_START.match(text) or _KEY_FILE_END.search(text)):
        return False
    return not any(_material_piece(piece) for piece in _BASE64_PIECE.findall(text))


_RELATIVE = lazy_re.compile(r"[A-Za-z0-9_@.\-]+(?:/[A-Za-z0-9_@.\-]+)+/?")


def is_relative_path(value: str) -> bool:
    """Whether `value` is a relative path of two components or more (`secrets/web01.enc.yaml`), no
    key material: shown only under a name that names a location (`secretsPath`, break-it round 22,
    #08), as `is_path`'s paths are."""
    text = _TRAILING_COMMENT.sub("", value.strip())
    if len(text) > 1 and text[0] in "'\"" and text[-1] == text[0]:
        text = text[1:-1]
    if not _RELATIVE.fullmatch(text) or _MATERIAL.search(text) or not any(c.isalpha() for c in text):
        return False
    return not any(_material_piece(piece) for piece in _BASE64_PIECE.findall(text))


def is_material(value: str) -> bool:
    """Whether `value` holds key material: PEM armour, an access key id, an OpenSSH key, or a
    base64 run (20+ characters of mixed case and digits, or holding `+` or padding)."""
    return bool(_MATERIAL.search(value)) or any(map(_material_piece, _BASE64_PIECE.findall(value)))


def names_a_key(words: list[str]) -> bool:
    """Whether a key's name (its lower-case words) says key or certificate (`key`, `tls_key`,
    `aws_key`, `cert`): such a value holding key material is a secret whatever else it names."""
    return any(word in ("key", "keys", "cert", "certificate") for word in words)


def _material_piece(piece: str) -> bool:
    letters = piece.rstrip("=")
    mixed = (any(c.isupper() for c in letters) and any(c.islower() for c in letters)
             and any(c.isdigit() for c in letters))
    return "+" in letters or piece.endswith("=") or mixed


def names_a_place(words: list[str]) -> bool:
    """Whether a key's name (its lower-case words) says its value is a place: a path, a file, a
    folder (`secretsPath`, `secrets_dir`), not key material (`private_key`)."""
    return any(word in _LOCATION_WORDS for word in words)


def names_a_location(words: list[str]) -> bool:
    """Whether a secret-looking key's name (its lower-case words) lets a path value be shown: it
    names a location (`ssh_private_key_file`), or key material (`private_key`, `tls_key`,
    `ssh_key`) rather than the secret itself (`password`, `token`, `api_key`)."""
    if any(word in _LOCATION_WORDS for word in words):
        return True
    joined = "".join(words)
    if any(word in _ITSELF_WORDS for word in words) or any(s in joined for s in ("passw", "secret")):
        return False
    return not any(pair in _ITSELF_PAIRS for pair in itertools.pairwise(words))
