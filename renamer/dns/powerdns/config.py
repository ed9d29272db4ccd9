"""A PowerDNS resolver entry's API keys, checked at load, and the API key read at run time.

`api` (the URL: http or https, no user or password in it), `api_key_file` (an absolute path,
read on the machine running renamer) or `api_key_env` (an environment variable's name), and
`server_id` (default `localhost`). The key itself never stands in the inventory: an `api_key`
key, a key-looking value in `api_key_env`, a relative `api_key_file`, credentials, a query or a
fragment in the URL are refused at load (exit 2, FILE:LINE: KEY), and the refusal never repeats the value.
Keys of a file backend (`snippet_dir`, `test`, `reload`, `conf_file`, `dhcp`, `hosts_dir`) and of
its transport (`target`, `sudo`, `ssh_config`, `python`, `check_layout`) are refused as unused: no
file is written on a PowerDNS server, and renamer reaches it through its API from this machine.
"""

from __future__ import annotations

import os
import stat
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from renamer import lazy_re
from renamer.dns.inventory import API_KEYS, NOT_SHOWN, SECRET_KEYS, SECRET_REFUSED, UNSAFE, ApiSettings
from renamer.dns.powerdns.api import DEFAULT_SERVER_ID, Client
from renamer.errors import ConfigError, UnsafeError
from renamer.formats.yaml_source import shown

KEYS = API_KEYS
UNUSED = frozenset({"snippet_dir", "test", "reload", "conf_file", "dhcp", "hosts_dir",
                    "target", "sudo", "ssh_config", "python", "check_layout", "query_log"})
REFUSED_SECRET = SECRET_KEYS
ENV_NAME = lazy_re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}\Z")
SERVER_ID = lazy_re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,62}\Z")
__all__ = ["NOT_SHOWN", "ApiSettings", "check", "client", "read_key"]


def key_looking(value: str) -> bool:
    """A value that reads as a secret rather than a name: long, mixing letters and digits
    (PowerDNS keys are random base64 or hex), or with characters no variable name has."""
    if not ENV_NAME.match(value):
        return True
    return len(value) >= 16 and any(c.isdigit() for c in value) and any(c.islower() for c in value) \
        and "_" not in value


def check(entry: dict[str, Any], bad: Callable[[str, str], None]) -> ApiSettings | None:
    """The entry's API settings, or None with each problem given to `bad(key, message)`."""
    start = [0]

    def problem(key: str, message: str) -> None:
        start[0] += 1
        bad(key, message)

    for key in sorted(REFUSED_SECRET & set(entry)):
        problem(key, SECRET_REFUSED)
    for key in sorted(UNUSED & set(entry)):
        problem(key, "not used with backend: powerdns (records go through its HTTP API from this "
                     "machine, no file is written on the server): remove the key")
    url = entry.get("api")
    wrong = url_problem(url)
    if wrong is not None:
        problem("api", wrong)
    key_file, key_env = entry.get("api_key_file"), entry.get("api_key_env")
    if (key_file is None) == (key_env is None):
        problem("api_key_file" if key_file is not None else "api",
                "name exactly one of api_key_file (a file holding the key) or api_key_env "
                "(an environment variable holding it)")
    if key_file is not None and (not isinstance(key_file, str) or not key_file.startswith("/")
                                 or UNSAFE.search(key_file)):
        problem("api_key_file", f"expected an absolute path to a file holding the key {NOT_SHOWN}")
    if key_env is not None and (not isinstance(key_env, str) or key_looking(key_env)):
        problem("api_key_env", "expected the name of an environment variable (PDNS_API_KEY); this "
                               f"reads as the key itself {NOT_SHOWN}")
    server_id = entry.get("server_id", DEFAULT_SERVER_ID)
    if not isinstance(server_id, str) or not SERVER_ID.match(server_id):
        problem("server_id", f"expected a PowerDNS server id (localhost), got {shown(server_id)}")
    allow = entry.get("allow_unchanged_serial", False)
    if not isinstance(allow, bool):
        problem("allow_unchanged_serial", f"expected true or false, got {shown(allow)}")
    if start[0]:
        return None
    return ApiSettings(str(url).rstrip("/"), server_id, key_file, key_env, bool(allow))


def url_problem(url: object) -> str | None:
    """Why `url` is no API URL, or None. The URL is repeated only where it can hold no key
    (break-it round 11, finding 9): a user or password, a query (`?api-key=...`) or a fragment is
    refused without it, and so is a value with no `.` or `:` (a key pasted in place of the URL)."""
    expected = "expected the API's URL, http(s)://HOST:PORT"
    if not isinstance(url, str):
        return f"{expected}, got {shown(url)}"
    parsed: urllib.parse.SplitResult | None
    try:
        parsed = urllib.parse.urlsplit(url)
        _ = parsed.port  # a port out of range or not a number raises here
    except ValueError:  # `http://[::1`
        parsed = None
    netloc = parsed.netloc if parsed is not None else url.split("/")[2] if url.count("/") >= 2 else url
    if "@" in netloc.split("?")[0].split("#")[0]:
        return f"credentials in the URL: the key goes in api_key_file or api_key_env {NOT_SHOWN}"
    if "?" in url or "#" in url:
        return ("a query or fragment in the URL: PowerDNS's API reads none, and the key goes in "
                f"api_key_file or api_key_env {NOT_SHOWN}")
    if parsed is None or parsed.scheme not in ("http", "https") or not parsed.hostname or UNSAFE.search(url):
        safe = not UNSAFE.search(url) and "@" not in url and ("." in url or ":" in url)
        return f"{expected}, got {shown(url)}" if safe else f"{expected} {NOT_SHOWN}"
    return None


def read_key(settings: ApiSettings, environ: dict[str, str] | None = None) -> str:
    """The API key, from its file or its variable: refused (exit 3) when missing or empty, and
    a file others may read is refused too (exit 3): the key changes every zone on the server."""
    if settings.key_env is not None:
        value = (os.environ if environ is None else environ).get(settings.key_env, "").strip()
        if not value:
            raise ConfigError(f"api_key_env: environment variable {settings.key_env} is not set or empty")
        return value
    assert settings.key_file is not None
    path = Path(settings.key_file)
    try:
        mode = path.stat().st_mode
        text = path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"api_key_file: {path}: cannot read: {exc.__class__.__name__}") from None
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise UnsafeError(f"api_key_file: {path}: readable by others (mode {stat.S_IMODE(mode):o}): "
                          f"chmod 600 {path}")
    if not text or "\n" in text:
        raise ConfigError(f"api_key_file: {path}: expected one line, the key")
    return text


def client(settings: ApiSettings, timeout: float = 10.0, environ: dict[str, str] | None = None) -> Client:
    return Client(settings.url, read_key(settings, environ), settings.server_id, timeout)
