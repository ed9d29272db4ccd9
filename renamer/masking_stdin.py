"""Secrets sent on a command's standard input: `echo 'pug:hunter2' | chpasswd`.

A value piped (or given as a here-string) into a command that reads a password on stdin is that
password, though no flag or key names it (break-it round 7, finding 14): `chpasswd` (`user:password`
records, so only what follows each colon is masked), `sudo -S`, `passwd` (`--stdin`), `htpasswd -i`,
any `--password-stdin` (`docker login`, `helm registry login`), `kinit`, `smbpasswd -s`, a bare
`mysql -p` prompt, openssl's `-passin stdin`, `gpg --passphrase-fd 0`, `cryptsetup`, wherever the
command stands on the far side of the pipe (`| ssh pug chpasswd`, `| sudo -S ssh pug`). The value is
what `echo` or `printf` writes: echo's words, printf's arguments where its format has a `%`, else the
format itself. A variable (`echo "$PW" | ...`) is no secret of the file's, so it is shown.
"""

from __future__ import annotations

import re

from renamer import lazy_re

MASK = "****"
# Lower-cased words one of which is on every line this module masks (masking.py's first gate).
HINTS = ("chpasswd", "sudo", "passwd", "stdin", "kinit", "mysql", "mariadb", "cryptsetup", "passphrase-fd")

# Who reads a password on stdin, searched in the command the value is piped into.
_READS_PASSWORD = lazy_re.compile(
    r"(?<![\w.\-])(?:[\w.\-]*/)?(?:"
    r"(?P<pairs>chpasswd)(?![\w\-])"
    r"|sudo(?:\s+-[A-Za-z]+)*\s+-[A-Za-z]*S|sudo\b[^|;&]*?\s--stdin\b"
    r"|passwd(?![\w\-])|htpasswd\b[^|;&]*?\s-[A-Za-z]*i\b|smbpasswd\b[^|;&]*?\s-[A-Za-z]*s\b"
    r"|kinit(?![\w\-])|cryptsetup(?![\w\-])|(?:mysql|mariadb)\b[^|;&]*?\s-p(?=\s|$)"
    r")|\s--password-stdin\b|\s-passin\s+stdin\b|\s--passphrase-fd[\s=]+0\b")
_SOURCE = lazy_re.compile(r"(?<![\w.\-/])(?P<tool>echo|printf)(?=\s)")
_WORD = lazy_re.compile(r"""(?:"(?:[^"\\]|\\.)*"|'[^']*'|[^\s'"|;&<>]+)+""")
_HERE_STRING = lazy_re.compile(r"<<<\s*")
_VARIABLE = lazy_re.compile(r"""^["']?\$(?:\{[^}]*\}|[A-Za-z_][A-Za-z0-9_]*)["']?$""")
_END = lazy_re.compile(r"[|;&]")


def mask_stdin(line: str) -> str:
    """`line` with each value a password-reading command takes on stdin replaced by ****."""
    spans: list[tuple[int, int, bool]] = []
    for source in _SOURCE.finditer(line):
        words, end = _words(line, source.end())
        if not line.startswith("|", end) or line.startswith("||", end):
            continue
        consumer = _command(line, end + 1)
        reads = _READS_PASSWORD.search(consumer)
        if reads is None:
            continue
        if source.group("tool") == "printf":
            words = words[1:] if words and "%" in line[words[0][0]:words[0][1]] else words[:1]
        else:
            words = [w for w in words if not re.fullmatch(r"-[neE]+", line[w[0]:w[1]])]
        spans += [(start, stop, reads.group("pairs") is not None) for start, stop in words]
    for here in _HERE_STRING.finditer(line):
        reads = _READS_PASSWORD.search(line[_command_start(line, here.start()):here.start()])
        given = _WORD.match(line, here.end())
        if reads is not None and given is not None:
            spans.append((given.start(), given.end(), reads.group("pairs") is not None))
    for start, stop, pairs in sorted(spans, reverse=True):
        word = line[start:stop]
        if _VARIABLE.match(word):
            continue
        line = line[:start] + _masked(word, pairs) + line[stop:]
    return line


def _words(line: str, at: int) -> tuple[list[tuple[int, int]], int]:
    """The spans of the words from `at` to the command's end, and where it ends."""
    out: list[tuple[int, int]] = []
    pos = at
    while True:
        while pos < len(line) and line[pos] in " \t":
            pos += 1
        word = _WORD.match(line, pos)
        if word is None or word.end() == pos:
            return out, pos
        out.append(word.span())
        pos = word.end()


def _command(line: str, at: int) -> str:
    """The command from `at` to the next pipe, list operator or the line's end."""
    end = _END.search(line, at)
    return line[at:end.start() if end else len(line)]


def _command_start(line: str, at: int) -> int:
    before = [m.end() for m in _END.finditer(line, 0, at)]
    return before[-1] if before else 0


def _masked(word: str, pairs: bool) -> str:
    """The word masked, its quotes kept; `user:password` records keep the user."""
    quote = word[0] if word[:1] in ("'", '"') and word[-1:] == word[:1] and len(word) > 1 else ""
    inner = word[len(quote):len(word) - len(quote)]
    if pairs and ":" in inner:
        inner = re.sub(r"(^|\\n)([^:\\\s]*:)(?:[^\\\s]|\\(?!n))+", rf"\g<1>\g<2>{MASK}", inner)
    else:
        inner = MASK
    return f"{quote}{inner}{quote}"
