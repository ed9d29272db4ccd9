"""Secret values masked in every report (text, JSON, SARIF, markdown), which land in CI logs.

Masking errs on the side of hiding: a value is masked when its key looks like a
secret's (any style: SNAKE_CASE, camelCase, kebab-case, in .env, YAML block or
flow, JSON, TOML, a DSN or a query string), when it is the password of a URL's
userinfo (any characters, an empty user too), an Authorization header, a
command's password flag, a .netrc or a .pgpass line.
"""

from __future__ import annotations

import itertools
import re

MASK = "****"
_NAME = r"[A-Za-z0-9_.\-]+"
# Whole-line forms first: a value running to the end of the line may hold spaces.
_ENV = re.compile(rf"^(\s*(?:-\s+)?(?:export\s+)?)({_NAME})(\s*=\s*)(.*?)(\s*)$")
_YAML = re.compile(rf"^(\s*(?:-\s+)?)([\"']?)({_NAME})\2(\s*:[ \t]+)(.*?)(\s*)$")
# Then key/value pairs anywhere: flow mappings, JSON, DSNs, query strings, TOML.
_PAIR = re.compile(r"""(?P<key>(?P<q>["']?)(?P<name>[A-Za-z0-9_.\-]+)(?P=q))(?P<sep>\s*[:=]\s*)(?!//)"""
                   r"""(?P<value>"(?:[^"\\]|\\.)*"|'[^']*'|[^\s,;}&'"\]]+)""")
_QUERY = re.compile(r"([?&;](?P<name>[A-Za-z0-9_.\-]+)=)([^&#\s'\"]+)")
# scheme://user:password@host, the password up to the last @ of the URL (it may hold / and @)
_URL = re.compile(r"""([A-Za-z][A-Za-z0-9+.\-]*://[^\s:/@'"<>]*:)([^\s'"<>]*)(@[^\s@'"<>]*)""")
_AUTH_HEADER = re.compile(r"(?i)\b((?:proxy-)?authorization\s*:\s*(?:bearer|basic|token|digest)\s+)"
                          r"([^\s'\",;}\]]+)|\b(bearer\s+)([A-Za-z0-9._~+/=\-]{8,})")
_PASSWORD_FLAG = re.compile(r"(?<!\S)(--password[= ]|--pass[= ])(\S+)")
_MYSQL_P = re.compile(r"(?<!\S)(-p)(?=[^\s-])(\S+)")  # mysql -pSECRET: only for the MySQL tools
_CLI_USER = re.compile(r"(?<!\S)((?:-u|--user)(?:\s+|=)[^\s:]+:)(\S+)")
_MYSQL = re.compile(r"\b(mysql|mariadb|mysqldump|mysqladmin)\b")
_NETRC = re.compile(r"(?i)\b(password|passwd)(\s+)(\S+)")
_PGPASS = re.compile(r"^(\s*[^:\s]+:(?:\d+|\*):[^:\s]*:[^:\s]*:)(\S+)\s*$")

# Every secret word and pair below, and every shape above, holds one of these.
# Searched in the lower-cased line: a (?i) alternation is five times slower, and a dense file
# has a million lines to show.
_MAYBE = re.compile(r"pass|secret|token|key|auth|pwd|bearer|cookie|credential|psk|otp|://|machine|"
                    r"login|-u|--user|:[0-9*]+:|mysql|mariadb")
_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")
_SECRET_WORDS = {"password", "passwd", "pwd", "passphrase", "secret", "secrets", "token", "tokens",
                 "apikey", "credential", "credentials", "auth", "authorization", "bearer", "cookie",
                 "privatekey", "pass", "psk", "otp"}
_SECRET_PAIRS = {("api", "key"), ("access", "key"), ("private", "key"), ("secret", "key"),
                 ("client", "secret"), ("signing", "key"), ("encryption", "key"), ("ssh", "key"),
                 ("master", "key"), ("session", "key"), ("account", "key"), ("deploy", "key")}


def is_secret_name(name: str) -> bool:
    """Does a key named so hold a secret? Word by word, whatever the case style."""
    words = [w.lower() for w in _WORDS.findall(name)]
    lowered = name.lower()
    if any(w in _SECRET_WORDS for w in words) or any(s in lowered for s in ("password", "passwd", "secret")):
        return True
    return any(pair in _SECRET_PAIRS for pair in itertools.pairwise(words))


def mask_line(line: str) -> str:
    """`line` with every secret-looking value replaced by ****."""
    if not _MAYBE.search(line.lower()):  # most lines: nothing that could name or carry a secret
        return line
    line = _URL.sub(rf"\g<1>{MASK}\g<3>", line)
    env = _ENV.match(line)
    if env and is_secret_name(env.group(2)) and env.group(4):
        return f"{env.group(1)}{env.group(2)}{env.group(3)}{MASK}{env.group(5)}"
    yaml = _YAML.match(line)
    if yaml and is_secret_name(yaml.group(3)) and yaml.group(5):
        return f"{yaml.group(1)}{yaml.group(2)}{yaml.group(3)}{yaml.group(2)}{yaml.group(4)}{MASK}"
    line = _QUERY.sub(lambda m: m.group(1) + MASK if is_secret_name(m.group("name")) else m.group(0), line)
    line = _AUTH_HEADER.sub(_mask_header, line)  # first: `Authorization: Bearer X` is no key: value pair
    line = _PAIR.sub(_mask_pair, line)
    line = _CLI_USER.sub(rf"\g<1>{MASK}", line)
    line = _PASSWORD_FLAG.sub(rf"\g<1>{MASK}", line)
    if _MYSQL.search(line):
        line = _MYSQL_P.sub(rf"\g<1>{MASK}", line)
    if re.search(r"(?i)^\s*(machine|default)\b|\blogin\s+\S+", line):
        line = _NETRC.sub(rf"\g<1>\g<2>{MASK}", line)
    return _PGPASS.sub(rf"\g<1>{MASK}", line)


def _mask_pair(m: re.Match[str]) -> str:
    if not is_secret_name(m.group("name")) or m.group("value") == MASK:
        return m.group(0)
    value = m.group("value")
    quote = value[0] if value[:1] in ("'", '"') else m.group("q")  # JSON: a number becomes a string
    return f"{m.group('key')}{m.group('sep')}{quote}{MASK}{quote}"


def _mask_header(m: re.Match[str]) -> str:
    if m.group(1) is not None:
        return f"{m.group(1)}{MASK}"
    return f"{m.group(3)}{MASK}"


_DIFF_BODY = (b" ", b"-", b"+")
_DIFF_HEADERS = (b"--- ", b"+++ ")


def mask_diff(diff: bytes) -> tuple[bytes, int]:
    """A unified diff with secrets masked in its hunk lines, and how many lines were masked.

    A masked line no longer applies, so a caller must say so: a masked diff fails
    `git apply` loudly, never silently. Lines are read as UTF-8, else Latin-1, and
    written back in the same encoding.
    """
    out, masked = [], 0
    for line in diff.splitlines(keepends=True):
        if line[:1] in _DIFF_BODY and not line.startswith(_DIFF_HEADERS):
            body = line.rstrip(b"\r\n")
            ending = line[len(body):]
            try:
                codec, text = "utf-8", body[1:].decode("utf-8")
            except UnicodeDecodeError:
                codec, text = "latin-1", body[1:].decode("latin-1")
            shown = mask_line(text)
            if shown != text:
                masked += 1
                line = body[:1] + shown.encode(codec, "replace") + ending
        out.append(line)
    return b"".join(out), masked

