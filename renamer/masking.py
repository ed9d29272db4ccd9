"""Secret values masked in every report (text, JSON, SARIF, markdown), which land in CI logs.

Masking errs on the side of hiding: a value is masked when its key looks like a
secret's (any style: SNAKE_CASE, camelCase, kebab-case, in .env, YAML block or
flow, JSON, TOML, a DSN or a query string), when it is the password of a URL's
userinfo (any characters, an empty user too), an Authorization header, a
command's password flag, a value piped into a command that reads a password on stdin
(masking_stdin.py), a .netrc or a .pgpass line.
"""

from __future__ import annotations

import ipaddress
import itertools
import re
from collections.abc import Callable

from renamer import lazy_re
from renamer.forked import available_cores, can_fork, fork_map
from renamer.masking_args import HINTS as ARG_HINTS
from renamer.masking_args import mask_args
from renamer.masking_directives import HINT as DIRECTIVE_HINT
from renamer.masking_directives import mask_directives
from renamer.masking_flags import HINTS, mask_flags
from renamer.masking_paths import (
    is_material,
    is_path,
    is_relative_path,
    names_a_key,
    names_a_location,
    names_a_place,
)
from renamer.masking_stdin import HINTS as STDIN_HINTS
from renamer.masking_stdin import mask_stdin
from renamer.masking_values import no_secret

MASK = "****"
_NAME = r"[A-Za-z0-9_.\-]+"
# Whole-line forms first: a value running to the end of the line may hold spaces.
_ENV = lazy_re.compile(rf"^(\s*(?:-\s+)?(?:export\s+)?)({_NAME})(\s*=\s*)(.*?)(\s*)$")
_YAML = lazy_re.compile(rf"^(\s*(?:-\s+)?)([\"']?)({_NAME})\2(\s*:[ \t]+)(.*?)(\s*)$")
# Then key/value pairs anywhere: flow mappings, JSON, DSNs, query strings, TOML.
_PAIR = lazy_re.compile(r"""(?P<key>(?P<q>["']?)(?P<name>[A-Za-z0-9_.\-]+)(?P=q))(?P<sep>\s*[:=]\s*)(?!//)"""
                   r"""(?P<value>"(?:[^"\\]|\\.)*"|'[^']*'|[^\s,;}&'"\]]+)""")
_INNER = lazy_re.compile(r"([A-Za-z0-9_.\-]+)([:=])(.*)\Z")
# An innermost flow mapping, `{user: a, password: s3 cret}` or `{"token": "x"}`, and one item of it.
_FLOW = lazy_re.compile(r"\{([^{}]*:[^{}]*)\}")
_FLOW_ITEM = lazy_re.compile(r"""(?P<key>\s*(?P<q>["']?)(?P<name>[A-Za-z0-9_.\-]+)(?P=q)\s*:\s*)"""
                        r"(?P<value>.*?)(?P<tail>\s*)$", re.DOTALL)
_QUERY = lazy_re.compile(r"([?&;](?P<name>[A-Za-z0-9_.\-]+)=)([^&#\s'\"]+)")
# scheme://user:password@host, the password up to the last @ of the URL (it may hold / and @)
_URL = lazy_re.compile(r"""([A-Za-z][A-Za-z0-9+.\-]*://[^\s:/@'"<>]*:)([^\s'"<>]*)(@[^\s@'"<>]*)""")
_AUTH_HEADER = lazy_re.compile(r"(?i)\b((?:proxy-)?authorization\s*:\s*(?:bearer|basic|token|digest)\s+)"
                          r"([^\s'\",;}\]]+)|\b(bearer\s+)([A-Za-z0-9._~+/=\-]{8,})")
_CLI_USER = lazy_re.compile(r"(?<!\S)((?:-u|--user)(?:\s+|=|(?=[^\s\-]))['\"]?[^\s:'\"]+:)([^\s'\"]+)")
_NETRC = lazy_re.compile(r"(?i)\b(password|passwd)(\s+)(\S+)")
_PGPASS = lazy_re.compile(r"^(\s*[^:\s]+:(?:\d+|\*):[^:\s]*:[^:\s]*:)(\S+)\s*$")

# Every secret word and pair below, and every shape above, holds one of these.
# Searched in the lower-cased line: a (?i) alternation is five times slower, and a dense file
# has a million lines to show.
_MAYBE = lazy_re.compile(r"pass|secret|token|key|auth|pw|bearer|cookie|credential|psk|otp|://|machine|"
                    r":[0-9*]+:|" + DIRECTIVE_HINT + "|"
                    + "|".join(re.escape(hint) for hint in (*HINTS, *ARG_HINTS, *STDIN_HINTS)))
_WORDS = lazy_re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")
_SECRET_WORDS = {"password", "passwd", "pwd", "passphrase", "secret", "secrets", "token", "tokens",
                 "apikey", "credential", "credentials", "auth", "authorization", "bearer", "cookie",
                 "privatekey", "pass", "psk", "otp", "pw"}
_SECRET_PAIRS = {("api", "key"), ("access", "key"), ("private", "key"), ("secret", "key"),
                 ("client", "secret"), ("signing", "key"), ("encryption", "key"), ("ssh", "key"),
                 ("master", "key"), ("session", "key"), ("account", "key"), ("deploy", "key")}


# nginx's upstream directives end in `pass` and take an address, never a secret (break-it round
# 22, #08: `proxy_pass http://10.0.0.70:8001;` masked on both sides hid the change).
_PASS_DIRECTIVES = frozenset({"proxy_pass", "fastcgi_pass", "uwsgi_pass", "grpc_pass", "scgi_pass",
                              "memcached_pass", "proxy_pass_header", "proxy_pass_request_body",
                              "proxy_pass_request_headers", "fastcgi_pass_header", "uwsgi_pass_header",
                              "scgi_pass_header", "grpc_pass_header"})
# dnsmasq's authoritative DNS options and Unbound's `auth-zone:` clause name a zone, a server, a
# network: no secret (t31-33, finding 16: `auth-zone=lab,10.0.48.0/24` showed as `auth-zone=****`
# on both sides of the dry run, the network's change hidden).
_AUTH_DNS_DIRECTIVES = frozenset({"auth-zone", "auth-server", "auth-sec-servers", "auth-peer", "auth-soa",
                                  "auth-ttl", "auth_zone", "auth_server"})
# A command a `NAME=value cmd ...` line runs with the variable set: the value is its first word.
_COMMANDS = frozenset({"psql", "pg_dump", "pg_dumpall", "pg_restore", "pg_basebackup", "pgbench",
                       "pg_isready",
                       "mysql", "mysqldump", "mysqladmin", "mariadb", "redis-cli", "mongo", "mongosh",
                       "mongodump", "curl", "wget", "ssh", "scp", "sftp", "rsync", "sshpass", "ansible",
                       "ansible-playbook", "terraform", "docker", "kubectl", "helm", "vault", "python",
                       "python3", "bash", "sh", "exec", "env", "sudo", "make", "git", "ldapsearch", "sqlcmd"})
_COMMAND_AFTER = lazy_re.compile(r"^(\S+)([ \t]+)((?:[A-Za-z_][A-Za-z0-9_]*=\S*[ \t]+)*(\S+)(?:[ \t].*)?)$")


def is_secret_name(name: str) -> bool:
    """Does a key named so hold a secret? Word by word, whatever the case style."""
    if name.lower() in _PASS_DIRECTIVES or name.lower() in _AUTH_DNS_DIRECTIVES:
        return False
    words = [w.lower() for w in _WORDS.findall(name)]
    lowered = name.lower()
    if any(w in _SECRET_WORDS for w in words) or any(s in lowered for s in ("password", "passwd", "secret")):
        return True
    return any(pair in _SECRET_PAIRS for pair in itertools.pairwise(words))


def hides(name: str, value: str) -> bool:
    """Is the value of a key named `name` masked? When the name says secret, unless the value is
    only where a key lies: a file path (no key material) under a name for a location or for key
    material, never under one for the secret itself (masking_paths.py); and under a name that
    says key without saying secret (`key`, `tls_key`), when the value is key material. A value
    no secret is (`max_tokens: 4096`, `use_refresh_tokens = true`: masking_values.py) is shown."""
    words = [w.lower() for w in _WORDS.findall(name)]
    if not is_secret_name(name):
        # `key: AKIA...`, `tls_key: MIIEv...`: a bare or plain key name holding key material.
        return names_a_key(words) and is_material(value)
    if no_secret(words, value):
        return False
    if is_relative_path(value) and names_a_place(words):  # `secretsPath: secrets/pug.enc.yaml`
        return False
    return not (is_path(value) and names_a_location(words))


def mask_line(line: str) -> str:
    """`line` with every secret-looking value replaced by ****."""
    lowered = line.lower()
    if not _MAYBE.search(lowered):  # most lines: nothing that could name or carry a secret
        return line
    # Each step below runs only where the line (as it is by then) holds what the step's shapes
    # need: most lines that pass _MAYBE hold `key` or `--` and nothing for the other steps, which
    # cost a dense diff seconds (issue 30). tests/test_masking_gates.py checks the steps' outputs
    # are those of running every step.
    for gate, step in _STEPS:
        if gate.search(lowered):
            shown = step(line)
            if shown is not line and shown != line:
                line, lowered = shown, shown.lower()
    env = _ENV.match(line)
    if env and env.group(4) and hides(env.group(2), env.group(4)):
        command = _COMMAND_AFTER.match(env.group(4))
        if command and command.group(4).rsplit("/", 1)[-1] in _COMMANDS:
            # `PGPASSWORD=x psql -h web01`: the secret is the first word, the command is shown
            # (its own secrets masked) (break-it round 22, #08)
            return (f"{env.group(1)}{env.group(2)}{env.group(3)}{MASK}{command.group(2)}"
                    f"{mask_line(command.group(3))}{env.group(5)}")
        return f"{env.group(1)}{env.group(2)}{env.group(3)}{MASK}{env.group(5)}"
    yaml = _YAML.match(line)
    if yaml and yaml.group(5) and hides(yaml.group(3), yaml.group(5)):
        return f"{yaml.group(1)}{yaml.group(2)}{yaml.group(3)}{yaml.group(2)}{yaml.group(4)}{MASK}"
    for gate, step in _PAIR_STEPS:
        if gate.search(lowered):
            shown = step(line)
            if shown is not line and shown != line:
                line, lowered = shown, shown.lower()
    return line


def _mask_url(line: str) -> str:
    return _URL.sub(rf"\g<1>{MASK}\g<3>", line)


def _mask_query(line: str) -> str:
    return _QUERY.sub(lambda m: m.group(1) + MASK if hides(m.group("name"), m.group(3)) else m.group(0), line)


def _mask_headers(line: str) -> str:
    return _AUTH_HEADER.sub(_mask_header, line)


def _mask_flows(line: str) -> str:
    return _FLOW.sub(_mask_flow, line)


def _mask_args(line: str) -> str:
    return mask_args(line, is_secret_name)


def _mask_pairs(line: str) -> str:
    return _PAIR.sub(_mask_pair, line)


def _mask_cli_user(line: str) -> str:
    return _CLI_USER.sub(rf"\g<1>{MASK}", line)


def _mask_flags(line: str) -> str:
    return mask_flags(line, is_secret_name, hides)


def _mask_netrc(line: str) -> str:
    if re.search(r"(?i)^\s*(machine|default)\b|\blogin\s+\S+", line):
        return _NETRC.sub(rf"\g<1>\g<2>{MASK}", line)
    return line


def _mask_pgpass(line: str) -> str:
    found = _PGPASS.match(line)
    if found is not None and _v6_address(found.group(1).strip() + found.group(2)):
        return line  # `P2=fd00:250:0:1::` is an IPv6 address, not host:port:db:user:password (round 21, 25)
    return _PGPASS.sub(rf"\g<1>{MASK}", line)


def _v6_address(text: str) -> bool:
    """Is `text`, or its value after a `=`, an IPv6 address or network (a pgpass line never is one)?"""
    for candidate in (text, text.rpartition("=")[2]):
        try:
            ipaddress.ip_network(candidate, strict=False)
            return True
        except ValueError:
            continue
    return False


def _gate(*words: str) -> re.Pattern[str]:
    """A search of the lower-cased line for any of `words` (regex pieces)."""
    return re.compile("|".join(words))


_SECRET_HINT = "pass|secret|token|key|auth|pw|bearer|cookie|credential|psk|otp"
_ANY = lazy_re.compile("")
# (what the lower-cased line must hold, the step), in the order the steps run
_STEPS: tuple[tuple[re.Pattern[str], Callable[[str], str]], ...] = (
    (_gate("://"), _mask_url),
    (_gate(*map(re.escape, STDIN_HINTS)), mask_stdin),
    (_gate(_SECRET_HINT, DIRECTIVE_HINT), mask_directives),
)
_PAIR_STEPS: tuple[tuple[re.Pattern[str], Callable[[str], str]], ...] = (
    (_gate(r"[?&;][a-z0-9_.\-]+="), _mask_query),
    (_gate("authorization", "bearer"), _mask_headers),  # first: `Authorization: Bearer X` is no pair
    (_gate(r"\{[^{}]*:[^{}]*\}"), _mask_flows),  # before pairs: a flow value runs to its comma
    # before pairs: `$pw = ConvertTo-SecureString 'X'` would lose the command's name to the mask
    (_gate(*map(re.escape, ARG_HINTS)), _mask_args),
    (_gate("[:=]"), _mask_pairs),
    (_gate("-u"), _mask_cli_user),
    (_gate(_SECRET_HINT, *map(re.escape, HINTS)), _mask_flags),  # a secret-named flag, or a tool's
    (_gate("machine", "default", "login"), _mask_netrc),
    (_ANY, _mask_pgpass),
)


def _mask_pair(m: re.Match[str]) -> str:
    if m.group("value") == MASK or m.group("value")[:1] in ("{", "["):
        # `basic_auth: {username: u, password: X}`: the mapping's own items are _FLOW's, masked by name
        return m.group(0)
    if not hides(m.group("name"), m.group("value")):
        # A pair inside a value: `--from-literal=password=X` (kubectl), `-e TOKEN=X`.
        inner = _INNER.match(m.group("value"))
        if inner and inner.group(3) and hides(inner.group(1), inner.group(3)):
            return f"{m.group('key')}{m.group('sep')}{inner.group(1)}{inner.group(2)}{MASK}"
        return m.group(0)
    value = m.group("value")
    quote = value[0] if value[:1] in ("'", '"') else m.group("q")  # JSON: a number becomes a string
    return f"{m.group('key')}{m.group('sep')}{quote}{MASK}{quote}"


def _mask_flow(m: re.Match[str]) -> str:
    """One innermost `{...}` of YAML or JSON flow style, each secret-named item's value masked."""
    items = _flow_items(m.group(1))
    return "{" + ",".join(_mask_flow_item(item) for item in items) + "}"


def _flow_items(body: str) -> list[str]:
    """The items of a flow mapping's body, split at the commas outside quotes."""
    items, start, quote = [], 0, ""
    for i, ch in enumerate(body):
        if quote:
            quote = "" if ch == quote and body[i - 1] != "\\" else quote
        elif ch in "'\"":
            quote = ch
        elif ch == ",":
            items.append(body[start:i])
            start = i + 1
    return [*items, body[start:]]


def _mask_flow_item(item: str) -> str:
    pair = _FLOW_ITEM.match(item)
    if not pair or not pair.group("value") or MASK in item or not hides(pair.group("name"),
                                                                         pair.group("value")):
        return item  # MASK in it: masked already, by a shape that knows more (`Basic ****`)
    value = pair.group("value")
    quoted = value[:1] in ("'", '"') and value[-1:] == value[:1] and len(value) > 1
    quote = value[0] if quoted else pair.group("q")  # JSON: a number becomes a string
    return f"{pair.group('key')}{quote}{MASK}{quote}{pair.group('tail')}"


def _mask_header(m: re.Match[str]) -> str:
    if m.group(1) is not None:
        return f"{m.group(1)}{MASK}"
    return f"{m.group(3)}{MASK}"


_HUNK = lazy_re.compile(rb"@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@")


def mask_diff(diff: bytes) -> tuple[bytes, int]:
    """A unified diff with secrets masked in its hunk lines, and how many lines were masked.

    Hunk lines are told from headers by the counts of each `@@` line, never by their look: a
    removed line reading `-- password=x` shows as `--- password=x` and is a line, not a header.
    A masked line no longer applies, so a caller must say so: a masked diff fails `git apply`
    loudly, never silently. Lines are read as UTF-8, else Latin-1, and written back so.
    A large diff's hunk lines are masked over forked workers (each line on its own: the order
    and the bytes are those of one process; tests/test_masking.py compares the two).
    """
    lines = _lines(diff)
    at = _hunk_lines(lines)
    masked = 0
    for index, (line, changed) in zip(at, _mask_lines([lines[i] for i in at]), strict=True):
        lines[index] = line
        masked += changed
    return b"".join(lines), masked


def _hunk_lines(lines: list[bytes]) -> list[int]:
    """The indices of the hunk lines (` `, `-`, `+` within an `@@` header's counts)."""
    out: list[int] = []
    old_left = new_left = 0
    for index, line in enumerate(lines):
        kind = line[:1]
        if (old_left or new_left) and kind in (b" ", b"-", b"+"):
            old_left -= kind != b"+"
            new_left -= kind != b"-"
            out.append(index)
        elif kind != b"\\":  # `\ No newline at end of file` belongs to the line before it
            old_left = new_left = 0
            hunk = _HUNK.match(line)
            if hunk:
                old_left, new_left = int(hunk.group(1) or 1), int(hunk.group(2) or 1)
    return out


# Below this many hunk lines, forking costs more than it saves (a dense diff masks about 30,000
# lines a second on one core).
PARALLEL_FROM = 20000
_CHUNK = 4000


def _mask_lines(lines: list[bytes]) -> list[tuple[bytes, int]]:
    workers = min(available_cores(), len(lines) // _CHUNK + 1)
    if len(lines) < PARALLEL_FROM or workers < 2 or not can_fork():
        return [_mask_diff_line(line) for line in lines]
    out = [(line, 0) for line in lines]
    chunks = [(start, lines[start:start + _CHUNK]) for start in range(0, len(lines), _CHUNK)]
    for changed in fork_map(_mask_chunk, chunks, workers, ordered=False):
        for index, shown in changed:  # only the masked lines travel back
            out[index] = (shown, 1)
    return out


def _mask_chunk(chunk: tuple[int, list[bytes]]) -> list[tuple[int, bytes]]:
    start, lines = chunk
    return [(start + i, shown) for i, (shown, changed) in enumerate(map(_mask_diff_line, lines)) if changed]


def _lines(data: bytes) -> list[bytes]:
    """Lines split at LF only: a CR inside a line is part of it (bytes.splitlines would split)."""
    parts = data.split(b"\n")
    return [part + b"\n" for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def _mask_diff_line(line: bytes) -> tuple[bytes, int]:
    body = line.rstrip(b"\r\n")
    ending = line[len(body):]
    try:
        codec, text = "utf-8", body[1:].decode("utf-8")
    except UnicodeDecodeError:
        codec, text = "latin-1", body[1:].decode("latin-1")
    shown = mask_line(text)
    if shown == text:
        return line, 0
    return body[:1] + shown.encode(codec, "replace") + ending, 1


def hidden_changes(diff: bytes) -> list[str]:
    """`path:line` (the new side's) of each changed line of a unified diff whose change lies, all or
    in part, inside a value masking hides: a `-` line and the `+` line it became (paired in order
    within a run of removals and additions) whose masked values differ. The masked diff shows
    `****` on both sides there, so a caller must say that a masked value changed (break-it round 9,
    finding 1: a key rewritten inside `requirepass ****` looked unchanged)."""
    out: list[str] = []
    path, new_line, old_left, new_left = "", 0, 0, 0
    removed: list[str] = []
    added: list[tuple[int, str]] = []

    def flush() -> None:
        if len(removed) == len(added):
            out.extend(f"{path}:{at}" for old, (at, new) in zip(removed, added, strict=True)
                       if _hidden(old) != _hidden(new))
        else:
            out.extend(f"{path}:{at}" for at, new in added if mask_line(new) != new)
        removed.clear()
        added.clear()

    for line in _lines(diff):
        kind = line[:1]
        text = _text(line[1:].rstrip(b"\r\n"))
        if (old_left or new_left) and kind in (b" ", b"-", b"+"):
            old_left -= kind != b"+"
            new_left -= kind != b"-"
            if kind == b"-":
                if added:
                    flush()
                removed.append(text)
            elif kind == b"+":
                added.append((new_line, text))
                new_line += 1
            else:
                flush()
                new_line += 1
            continue
        if kind == b"\\":
            continue
        flush()
        old_left = new_left = 0
        hunk = _HUNK.match(line)
        if hunk:
            old_left, new_left = int(hunk.group(1) or 1), int(hunk.group(2) or 1)
            new_line = int(line.split(b"+", 1)[1].split(b",", 1)[0].split(b" ", 1)[0])
        elif line.startswith(b"+++ "):
            name = _text(line[4:].rstrip(b"\r\n"))
            path = name[2:] if name.startswith("b/") else name
    flush()
    return out


def _text(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _hidden(line: str) -> list[str] | None:
    """What the masks of `line` hide, in order (None where the line cannot be read back)."""
    shown = mask_line(line)
    if shown == line:
        return []
    pattern = "(.*?)".join(re.escape(piece) for piece in shown.split(MASK))
    found = re.fullmatch(pattern, line, re.DOTALL)
    return list(found.groups()) if found else None
