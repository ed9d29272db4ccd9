"""Secrets a command takes as plain arguments, not after a flag: `htpasswd -b FILE USER PASSWORD`,
`mc alias set NAME URL ACCESS SECRET`, `vault login TOKEN`, `nmcli ... wifi-sec.psk PSK`,
`rabbitmqctl add_user USER PASSWORD`, `sqlplus user/PASSWORD@db`, and the password after a share:
`net use [X:] \\\\host\\share PASSWORD [/user:DOM\\bob]` (Windows, any case), `smbclient //host/share
PASSWORD -U bob`, `net user bob PASSWORD /add`.

One table, `GRAMMARS`, says for each command (its name, and the subcommand words that make it take
the secret) which of its flags take the next word as their value, and where the secret sits among
the remaining words (the positionals). A line is read word by word from where the command is named
to the end of that command (`|`, `;`, `&`), so a flag's value is never taken for a positional.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from renamer import lazy_re
from renamer.masking_flags import MASK

Positions = Callable[[frozenset[str]], tuple[int, ...]]  # the flags given -> secret positionals


def _none(_flags: frozenset[str]) -> tuple[int, ...]:
    return ()


@dataclass(frozen=True)
class Grammar:
    """Where one command takes a secret as a plain argument."""

    valued: str = ""  # its short flags that take the next word as their value
    valued_long: frozenset[str] = frozenset()  # its long flags (`--api`, vault's `-method`) that do
    positions: Positions = _none  # which positionals (0-based) are secrets, given the flags
    keyword: re.Pattern[str] | None = None  # a positional matching it: the next positional is a secret
    named_at: int | None = None  # the positional naming a key: when it names a secret, the next is one
    part: re.Pattern[str] | None = None  # a positional holding the secret inside: group 1 is masked
    bare_only: bool = False  # positions count only words that are no `field=value` and no `-`
    after: re.Pattern[str] | None = None  # a positional matching it (a share): the next one is a secret
    slash_flags: bool = False  # Windows: a word starting with one `/` (`/user:bob`, `/add`) is a flag
    secret_flags: frozenset[str] = frozenset()  # flags (lower case, `-` or `/`) whose next word is a secret
    at_start: bool = False  # only where a command starts: prose says "the net user count" too


def _htpasswd(flags: frozenset[str]) -> tuple[int, ...]:
    """`-b` takes the password from the line: `-b FILE USER PW`, or `-nb USER PW` (no file)."""
    if "b" not in flags:
        return ()
    return (1,) if "n" in flags else (2,)


def _at(*positions: int) -> Positions:
    return lambda _flags: positions


_NMCLI_SECRET = lazy_re.compile(r"(?:^|\.)(?:psk|password|password-raw|wep-key[0-3]|leap-password|pin|"
                           r"private-key-password|phase2-private-key-password|secrets?)$")
_VAULT_VALUED = frozenset({"method", "address", "path", "field", "format", "namespace", "ns", "ca-cert",
                           "ca-path", "client-cert", "client-key", "mfa", "header", "wrap-ttl",
                           "policy-override", "tls-server-name", "agent-address", "log-level"})
_USER_SLASH_PASSWORD = lazy_re.compile(r"^['\"]?[^/\s'\"@]+/([^@\s'\"]+)")  # Oracle's user/password@db
# A share, `\\\\host\\share` or `//host/share` (a shell script may double each backslash).
_SHARE = lazy_re.compile(r"^['\"]?(?:(?:\\\\)+|//)[^\\/\s'\"]+")
# Words where a password may stand that are none: a prompt (`*`), a redirection, a variable's flag.
_NO_SECRET = lazy_re.compile(r"^(?:\*|\d*[<>].*|['\"]?\*['\"]?)$")
_SMBCLIENT_LONG = frozenset({
    "user", "workgroup", "command", "directory", "port", "ip-address", "max-protocol", "netbiosname",
    "scope", "configfile", "debuglevel", "log-basename", "signing", "authentication-file", "tar",
    "name-resolve", "message", "list", "socket-options", "timeout", "send-buffer", "client-protection",
    "option", "realm", "debug-stdout"})

# command (its words, a path before the first allowed) -> where it takes a secret as an argument
GRAMMARS: dict[str, Grammar] = {
    "htpasswd": Grammar(valued="Cr", positions=_htpasswd),
    "vault login": Grammar(valued_long=_VAULT_VALUED, positions=_at(0), bare_only=True),
    "mc alias set": Grammar(valued_long=frozenset({"api", "path"}), positions=_at(2, 3)),
    "mc config host add": Grammar(valued_long=frozenset({"api", "lookup"}), positions=_at(2, 3)),
    "nmcli": Grammar(valued="fgtw", valued_long=frozenset({"fields", "get-values", "colors", "mode",
                                                           "wait", "escape"}), keyword=_NMCLI_SECRET),
    "rabbitmqctl add_user": Grammar(valued="n", valued_long=frozenset({"node"}), positions=_at(1)),
    "rabbitmqctl change_password": Grammar(valued="n", valued_long=frozenset({"node"}), positions=_at(1)),
    "rabbitmqctl authenticate_user": Grammar(valued="n", valued_long=frozenset({"node"}), positions=_at(1)),
    "wpa_passphrase": Grammar(positions=_at(1)),
    "aws configure set": Grammar(valued_long=frozenset({"profile", "region"}), named_at=0),
    "npm config set": Grammar(named_at=0),
    "yarn config set": Grammar(named_at=0),
    "git config": Grammar(valued="f", valued_long=frozenset({"file", "blob", "type", "default"}), named_at=0),
    "sqlplus": Grammar(valued="MR", part=_USER_SLASH_PASSWORD),
    "expdp": Grammar(part=_USER_SLASH_PASSWORD),
    "impdp": Grammar(part=_USER_SLASH_PASSWORD),
    "rman target": Grammar(part=_USER_SLASH_PASSWORD),
    "net use": Grammar(after=_SHARE, slash_flags=True, at_start=True),
    "net user": Grammar(positions=_at(1), slash_flags=True, at_start=True),
    "smbclient": Grammar(valued="UWIpnOsldmtTDcAiRbLMS", valued_long=_SMBCLIENT_LONG, after=_SHARE),
    "schtasks": Grammar(slash_flags=True, secret_flags=frozenset({"/p", "/rp"})),
    # PowerShell: `ConvertTo-SecureString 'PW' -AsPlainText -Force`, or `-String PW`
    "convertto-securestring": Grammar(positions=_at(0), secret_flags=frozenset({"-string"})),
}

# A command is found by its first word, in any case (Windows reads `NET USE` and `net.exe use`); its
# subcommand words are its first positionals, after any global flags (`rabbitmqctl -n rabbit@h add_user`).
_TOOL = re.compile(r"(?i)(?<![\w.\-/])(?:[\w.\-]*[/\\])?(" + "|".join(
    re.escape(tool) for tool in sorted({t.split()[0] for t in GRAMMARS}, key=len, reverse=True))
    + r")(?:\.exe)?(?![\w\-])")
# Where a command starts: the line's start, after `|;&(`, a quote, a backtick, a `key:` or `key=`,
# a YAML item, or a word that runs the next (`RUN`, `cmd /c`, `call`, `sudo`, `then`, `@`).
_COMMAND_START = lazy_re.compile(r"(?:^|[|;&(`'\":=]"
                            r"|(?<![\w-])(?:RUN|/[cCkK]|call|CALL|start|sudo|then|do|else|exec))"
                            r"\s*(?:-\s+)?@?\s*\Z")
_PATH_BEFORE = lazy_re.compile(r"(?:[A-Za-z]:)?[\w.\\/-]*[\\/]\Z")  # `C:\Windows\System32\` before `net.exe`
_WORD = lazy_re.compile(r"""(?:"(?:[^"\\]|\\.)*"|'[^']*'|[^\s'"|;&]+)+""")
_END = lazy_re.compile(r"[|;&]|(?<=\s)#")  # a shell comment ends the command: `vault login u=x # pug`
# vault's `username=u password=P` (its fields are lower case); a token may end in `=` (base64)
_FIELD = lazy_re.compile(r"['\"]?[a-z_][a-z0-9_-]*=[^=]")
# A word each line naming a command above holds (masking.py's cheap prefilter adds these): its
# longest, which is rarer in other lines than `mc` or `git`.
HINTS = tuple(sorted({max(tool.split(), key=len) for tool in GRAMMARS}))


@dataclass
class _Read:
    flags: set[str] = field(default_factory=set)
    positionals: list[tuple[int, int, str]] = field(default_factory=list)  # (start, end, word)
    secrets: list[tuple[int, int]] = field(default_factory=list)  # words after a secret flag


def _read(grammar: Grammar, line: str, start: int, end: int) -> _Read:
    """The command's flags and positional words between `start` and `end`."""
    out, skip, rest, secret = _Read(), False, False, False
    for m in _WORD.finditer(line, start, end):
        word = m.group()
        if secret:
            secret = False
            if not _NO_SECRET.match(word):
                out.secrets.append((m.start(), m.end()))
        elif not rest and word.lower() in grammar.secret_flags:
            secret = True  # schtasks `/rp PW`, PowerShell's `-String PW`
        elif skip:
            skip = False
        elif grammar.slash_flags and not rest and word.startswith("/") and not word.startswith("//"):
            continue  # `/user:DOM\bob`, `/persistent:no`, `/add`: Windows flags, their value in the word
        elif rest or word == "-" or not word.startswith("-"):
            out.positionals.append((m.start(), m.end(), word))
        elif word == "--":
            rest = True
        else:
            name = word.lstrip("-")
            if "=" in name:
                continue  # `--api=S3v4`, `-method=userpass`: its value in the word
            if name in grammar.valued_long:
                skip = True
            elif not word.startswith("--"):
                for i, letter in enumerate(name):  # getopt: `-bC 10`, `-C10`; a valued letter ends it
                    out.flags.add(letter)
                    if letter in grammar.valued:
                        skip = i == len(name) - 1
                        break
    return out


def _masked(word: str) -> str:
    quote = word[0] if word[:1] in ("'", '"') and len(word) > 1 and word[-1] == word[0] else ""
    return f"{quote}{MASK}{quote}"


def _secrets(grammar: Grammar, read: _Read, is_secret_name: Callable[[str], bool]) -> list[tuple[int, int]]:
    """The spans of `read`'s words that are secrets, by the grammar."""
    words = read.positionals
    counted = [w for w in words if not (_FIELD.match(w[2]) or w[2] == "-")] if grammar.bare_only else words
    spans = [(w[0], w[1]) for i, w in enumerate(counted) if i in grammar.positions(frozenset(read.flags))]
    spans += read.secrets
    for i, (_s, _e, word) in enumerate(words[:-1]):
        if grammar.keyword is not None and grammar.keyword.search(word.strip("'\"")):
            spans.append(words[i + 1][:2])
    at = grammar.named_at
    if at is not None and len(words) > at + 1 and is_secret_name(words[at][2].strip("'\"")):
        spans.append(words[at + 1][:2])
    if grammar.after is not None:
        share = next((i for i, w in enumerate(words) if grammar.after.match(w[2])), None)
        if share is not None and share + 1 < len(words) and not _NO_SECRET.match(words[share + 1][2]):
            spans.append(words[share + 1][:2])
    if grammar.part is not None and words:
        inner = grammar.part.match(words[0][2])
        if inner:
            spans.append((words[0][0] + inner.start(1), words[0][0] + inner.end(1)))
    return spans


def mask_args(line: str, is_secret_name: Callable[[str], bool]) -> str:
    """`line` with the secrets the commands of GRAMMARS take as arguments masked."""
    start = 0
    while tool := _TOOL.search(line, start):
        found = _END.search(line, tool.end())
        end = found.start() if found else len(line)
        spans: list[tuple[int, int]] = []
        for command, grammar in GRAMMARS.items():
            first, *sub = command.split()
            if first != tool.group(1).lower():
                continue
            if grammar.at_start and not _COMMAND_START.search(_PATH_BEFORE.sub("", line[:tool.start()])):
                continue
            read = _read(grammar, line, tool.end(), end)
            if [w[2].lower() for w in read.positionals[:len(sub)]] == sub:
                read.positionals = read.positionals[len(sub):]
                spans += _secrets(grammar, read, is_secret_name)
        for s, e in sorted(set(spans), reverse=True):
            word = line[s:e]
            if word.strip("'\"") not in (MASK, ""):
                line = line[:s] + _masked(word) + line[e:]
        start = tool.end()
    return line
