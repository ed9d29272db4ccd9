"""Secret arguments on command lines, read by each tool's grammar rather than by a list of spellings.

Two shapes: a long flag whose name says secret (`--password X`, `--password=X`, `--token=X`,
`--http-passwd X`, `--client-secret X`), for any tool; and the short flags that take a password in
the tools known to have them (`redis-cli -a X`, `sshpass -p X`, `mysql -pX` and `mysql -p X`,
`ipmitool -P X`, `ldapsearch -w X`, `docker login -p X`, `snmpwalk -c X`), masked from where that
tool is named on; a single-dash long flag whose name says secret (influx `-password X`, keytool
`-storepass X`). Also `smbclient -U user%X`, `lftp -u user,X` and openssl's `-passin pass:X`.
Secrets that are plain arguments (`htpasswd -b FILE USER X`) are masking_args.py's.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from renamer import lazy_re

# tool -> its short flags whose argument is a password or a key (attached, `-pX`, or the next word).
# Only flags that mean a secret in that tool: `docker run -p` is a port, so only `docker login`.
SHORT_FLAGS: dict[str, str] = {
    "redis-cli": "a", "valkey-cli": "a", "keydb-cli": "a", "sshpass": "p",
    "mysql": "p", "mariadb": "p", "mysqldump": "p", "mysqladmin": "p", "mysqlimport": "p",
    "mysqlshow": "p", "mysqlcheck": "p", "mariadb-dump": "p", "mariadb-admin": "p",
    "ipmitool": "P", "ldapsearch": "w", "ldapmodify": "w", "ldapadd": "w", "ldapdelete": "w",
    "ldapwhoami": "w", "ldappasswd": "ws", "mongo": "p", "mongosh": "p", "mongodump": "p",
    "mongorestore": "p", "mongoexport": "p", "mongoimport": "p", "rabbitmqadmin": "p",
    "docker login": "p", "podman login": "p", "nerdctl login": "p", "buildah login": "p",
    "skopeo login": "p", "smbmap": "p", "crackmapexec": "pH", "netexec": "pH", "zip": "P",
    "unzip": "P", "7z": "p", "sqlcmd": "P", "bcp": "P", "snmpwalk": "cAX", "snmpget": "cAX",
    "snmpset": "cAX", "snmpbulkwalk": "cAX", "snmptrap": "cAX",
    "mosquitto_pub": "P", "mosquitto_sub": "P", "mosquitto_rr": "P", "racadm": "p", "ssh-keygen": "NP",
    "useradd": "p", "usermod": "p", "az login": "p", "influx": "pt",
    "psexec": "p", "PsExec": "p", "psexec64": "p", "PsExec64": "p", "paexec": "p",
    "rdesktop": "p", "ncftp": "p", "ncftpget": "p", "ncftpput": "p", "ncftpls": "p",
}
# Tools whose short flags never hold their value attached (Go's flag package, Python's argparse
# here): influx `-password X` is a long flag, not `-p` with `assword`.
SPACED = frozenset({"influx", "az login"})
MASK = "****"
_VALUE = r"(?P<value>\"(?:[^\"\\]|\\.)*\"|'[^']*'|[^\s'\"]+)"
# After a space, a word starting with `-` is the next flag, never this one's value (`--verbose --password X`).
_LONG = lazy_re.compile(r"(?<![^\s'\"=(])(?P<dash>--)(?P<name>[A-Za-z][A-Za-z0-9_\-]*)(?P<sep>=|\s+(?!-))"
                   + _VALUE)
# A single-dash long flag (influx `-password X`, keytool `-storepass X`): the name says secret;
# openssl's `-pass pass:X` is _PASS_ARG's, and its `env:VAR`/`file:PATH` forms hold no secret.
_SINGLE = lazy_re.compile(
    r"(?<![^\s'\"(])-(?P<name>[A-Za-z][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*)(?P<sep>=|\s+(?!-))"
                     + _VALUE)
_NOT_A_VALUE = lazy_re.compile(r"['\"]?(?:pass|env|file|fd|stdin)(?::|['\"]?$)|-")
_USER_COMMA = lazy_re.compile(
    r"(?<![^\s(`])((?:lftp|[\w.\-]*/lftp)\b[^|;&]*?\s-u\s+['\"]?[^\s,'\"]+,)([^\s'\"]+)")
_SAMBA_USER = lazy_re.compile(r"(?<!\S)((?:-U|--user)(?:\s+|=)['\"]?[^\s%'\"]+%)([^\s'\"]+)")  # user%password
# Windows tools whose password flag takes its value after a colon: FreeRDP's `/p:X` (and its
# pass-the-hash `/pth:X`), winrs's `-p:X` (`/p:` alone is no secret: `net use /p:yes` persists).
_COLON_PASSWORD = lazy_re.compile(
    r"(?i)(?<![\w.\-])((?:[\w.\-]*[/\\])?(?:x|wl|sdl-)?freerdp3?(?:\.exe)?\s[^|;&]*?"
                             r"(?<!\S)[/+]?(?:p|pth|password):)([^\s'\"]+)"
                             r"|(?<![\w.\-])((?:[\w.\-]*[/\\])?winrs(?:\.exe)?\s[^|;&]*?(?<!\S)[-/](?:p|password):)"
                             r"([^\s'\"]+)")
_PASS_ARG = lazy_re.compile(r"(?<![\w-])(-pass(?:in|out)?\s+['\"]?pass:)([^\s'\"]+)")  # openssl
_TOOL_PATTERN = (r"(?<![\w.\-])(?:[\w.\-]*/)?(" + "|".join(
    re.escape(tool.lower()).replace(r"\ ", r"\s+") for tool in sorted(set(map(str.lower, SHORT_FLAGS)),
                                                                      key=len, reverse=True))
    + r")(?![\w\-])")
# Windows names are any case (PSEXEC.EXE): an ASCII line is searched lower-cased, where every
# offset stays put (a (?i) alternation is several times slower); any other line with (?i).
_TOOL = re.compile(_TOOL_PATTERN)
_FLAGS_BY_NAME = {tool.lower(): flags for tool, flags in SHORT_FLAGS.items()}
_TOOL_ANY_CASE = lazy_re.compile("(?i)" + _TOOL_PATTERN)
_SHORT = {(flags, spaced): re.compile(rf"(?<![^\s'\"(])(?P<flag>-[{flags}])"
                                      + (r"(?P<sep>\s+)" if spaced else r"(?P<sep>\s+|(?=[^\s\-]))") + _VALUE)
          for flags in set(SHORT_FLAGS.values()) for spaced in (False, True)}
# the words a line must hold for any shape above (the caller's cheap prefilter adds these)
HINTS = ("--", "-pass", "-u", "redis", "valkey", "keydb", "sshpass", "mysql", "mariadb", "ipmitool",
         "ldap", "mongo", "rabbitmq", "login", "smb", "crackmapexec", "netexec", "zip", "7z", "sqlcmd",
         "bcp", "snmp", "mosquitto", "racadm", "ssh-keygen", "useradd", "usermod", "influx", "lftp",
         "psexec", "paexec", "freerdp", "winrs", "rdesktop", "ncftp")


def mask_flags(line: str, is_secret_name: Callable[[str], bool],
               hides: Callable[[str, str], bool] | None = None) -> str:
    """`line` with the password arguments of command-line tools masked. `hides(name, value)`:
    whether a secret-named flag's value is masked (a key's path, `--private-key ~/.ssh/id`, is
    not: masking_paths.py); by default every value of one."""
    line = _LONG.sub(lambda m: _long(m, is_secret_name, hides), line)
    line = _SINGLE.sub(lambda m: _single(m, is_secret_name, hides), line)
    line = _USER_COMMA.sub(rf"\g<1>{MASK}", line)  # lftp -u user,password
    line = _SAMBA_USER.sub(rf"\g<1>{MASK}", line)
    line = _PASS_ARG.sub(rf"\g<1>{MASK}", line)
    line = _COLON_PASSWORD.sub(lambda m: f"{m.group(1) or m.group(3)}{MASK}", line)
    start = 0
    tools, lowered = (_TOOL, line.lower()) if line.isascii() else (_TOOL_ANY_CASE, line)
    while tool := tools.search(lowered, start):
        name = " ".join(tool.group(1).split()).lower()
        flags = _FLAGS_BY_NAME[name]
        # the tool's own flags, from where it is named to the next command of the line
        end = _command_end(line, tool.end())
        own = _SHORT[flags, name in SPACED].sub(_short, line[tool.end():end])
        line = line[:tool.end()] + own + line[end:]
        lowered = line.lower() if tools is _TOOL else line
        start = tool.end()
    return line


def _command_end(line: str, start: int) -> int:
    found = re.compile(r"[|;&]").search(line, start)
    return found.start() if found else len(line)


def _long(m: re.Match[str], is_secret_name: Callable[[str], bool],
          hides: Callable[[str, str], bool] | None) -> str:
    name, value, sep = m.group("name"), m.group("value"), m.group("sep")
    if not is_secret_name(name) or name.endswith(("-stdin", "-file", "_file", "-prompt")):
        return m.group(0)  # --password-stdin, --password-file PATH: no secret follows
    if hides is not None and not hides(name, value):
        return m.group(0)  # --private-key ~/.ssh/id_ed25519: where the key lies
    if (sep != "=" and value.startswith("-")) or value.strip("'\"") == MASK:
        return m.group(0)  # --password -h host: a flag that prompts, then the next flag
    return f"--{name}{sep}{_masked(value)}"


def _single(m: re.Match[str], is_secret_name: Callable[[str], bool],
            hides: Callable[[str, str], bool] | None) -> str:
    name, value = m.group("name"), m.group("value")
    if len(name) < 4 or not (is_secret_name(name) or name.endswith("pass")):
        return m.group(0)  # -p, -pw: a short flag, the tool's own (SHORT_FLAGS)
    if hides is not None and is_secret_name(name) and not hides(name, value):
        return m.group(0)  # -privatekey ./pug.pem: where the key lies
    if name.endswith(("-stdin", "-file", "_file", "-prompt")) or _NOT_A_VALUE.match(value):
        return m.group(0)
    if value.strip("'\"") == MASK:
        return m.group(0)
    return f"-{name}{m.group('sep')}{_masked(value)}"


def _short(m: re.Match[str]) -> str:
    value = m.group("value")
    if value.strip("'\"") == MASK:
        return m.group(0)
    return f"{m.group('flag')}{m.group('sep')}{_masked(value)}"


def _masked(value: str) -> str:
    """MASK, inside the value's own quotes where it had them."""
    quote = value[0] if value[:1] in ("'", '"') and len(value) > 1 and value[-1] == value[0] else ""
    return f"{quote}{MASK}{quote}"
