"""dnsmasq's short options on a command line (`dnsmasq -k -s ana.lan -E -H /etc/lan.hosts`).

Break-it round 14 read dnsmasq's long flags (`--expand-hosts`, `--domain=`) wherever they stand; the
short forms mean the same (`-s` is `--domain`, `-E` `--expand-hosts`, `-H` `--addn-hosts`, `-h`
`--no-hosts`, `-G` `--dhcp-host`) but a lone `-s` or `-E` means something else in every other
command, so they are read only on a dnsmasq command line: from a `dnsmasq` word to the end of its
line (backslash-continued lines too: an ExecStart, a script, a `docker run` of a dnsmasq image), or
the `command:`/`args:`/`entrypoint:` of a compose service or a container whose block names
dnsmasq (its image). getopt's grammar: letters bundle (`-kE`), a letter taking a value takes the
rest of its token or the next one (`-sana.lan`, `-s ana.lan`). Pure: bytes in, flags out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from renamer import lazy_re

# dnsmasq 2.90's short options (`dnsmasq --help`): those taking a value, and the five read here.
_TAKES_VALUE = frozenset(b"aABcCFgGHiIjJlmMOpPQrSstTuUVWxXY12346780")
_READ = {ord("s"): b"domain", ord("E"): b"expand-hosts", ord("H"): b"addn-hosts", ord("h"): b"no-hosts",
         ord("G"): b"dhcp-host"}

_DNSMASQ = lazy_re.compile(rb"(?<![A-Za-z0-9_.-])dnsmasq(?![A-Za-z0-9_-]|\.[A-Za-z0-9])")
_COMMAND_KEY = lazy_re.compile(rb"^(?P<indent>[ \t]*)(?:-[ \t]+)?(?:command|args|entrypoint)[ \t]*:"
                          rb"(?P<rest>[^\r\n]*)", re.MULTILINE)
_TOKEN = lazy_re.compile(rb"\"(?P<dq>[^\"\r\n]*)\"|'(?P<sq>[^'\r\n]*)'|(?P<bare>[^\s\"'\[\]]+)")


@dataclass(frozen=True)
class Flag:
    """A short option read as its long name; `value`'s span in the data ((-1, -1): none)."""

    key: bytes
    value: bytes
    start: int
    end: int


def short_flags(data: bytes) -> list[Flag]:
    """The short options of each dnsmasq command line in `data`, in order."""
    if b"dnsmasq" not in data or b"-" not in data:
        return []
    spans = _lines(data) + _commands(data)
    seen: set[int] = set()
    out: list[Flag] = []
    for start, end in sorted(spans):
        for flag in _read(data, start, end):
            if flag.start not in seen or flag.start < 0:
                seen.add(flag.start)
                out.append(flag)
    return out


def _lines(data: bytes) -> list[tuple[int, int]]:
    """From each `dnsmasq` word to the end of its logical line."""
    out = []
    for word in _DNSMASQ.finditer(data):
        end = word.end()
        while True:
            newline = data.find(b"\n", end)
            if newline < 0:
                end = len(data)
                break
            if data[:newline].rstrip(b"\r").endswith(b"\\"):
                end = newline + 1
                continue
            end = newline
            break
        out.append((word.end(), end))
    return out


def _commands(data: bytes) -> list[tuple[int, int]]:
    """The value of each `command:`/`args:`/`entrypoint:` key whose block (the mapping it is in)
    names dnsmasq: its line, and the lines below it indented deeper (a block list)."""
    lines = data.split(b"\n")
    offsets = [0]
    for line in lines[:-1]:
        offsets.append(offsets[-1] + len(line) + 1)
    out = []
    for key in _COMMAND_KEY.finditer(data):
        row = data.count(b"\n", 0, key.start())
        indent = len(key.group("indent"))
        last = row
        for later in range(row + 1, len(lines)):
            text = lines[later]
            if text.strip() and _indent(text) <= indent and not text.lstrip().startswith(b"- "):
                break
            if text.strip() and _indent(text) < indent:
                break
            last = later
        first, stop = row, row
        while first > 0 and (not lines[first - 1].strip() or _indent(lines[first - 1]) >= indent):
            first -= 1
        while stop + 1 < len(lines) and (not lines[stop + 1].strip() or _indent(lines[stop + 1]) >= indent):
            stop += 1
        block = b"\n".join(lines[first:stop + 1])
        if _DNSMASQ.search(block) is None:
            continue
        out.append((key.start("rest"), offsets[last] + len(lines[last])))
    return out


def _indent(line: bytes) -> int:
    return len(line) - len(line.lstrip(b" \t"))


def _read(data: bytes, start: int, end: int) -> list[Flag]:
    tokens = []
    for token in _TOKEN.finditer(data, start, end):
        group = next(g for g in ("dq", "sq", "bare") if token.group(g) is not None)
        text = token.group(group)
        if group == "bare":
            if text.startswith(b"#"):
                break  # a comment
            text = text.rstrip(b",")  # a flow list's separator (`[-s, ana.lan]`)
            if text in (b"-", b""):
                continue  # a block list's item marker (`- -G`), a flow list's lone comma
        tokens.append((text, token.start(group)))
    out = []
    i = 0
    while i < len(tokens):
        text, at = tokens[i]
        i += 1
        if len(text) < 2 or text[:1] != b"-" or text[1:2] == b"-" or not text[1:2].isalpha():
            continue
        for n in range(1, len(text)):
            letter = text[n]
            if letter in _TAKES_VALUE:
                value, value_at = text[n + 1:], at + n + 1
                if not value and i < len(tokens):
                    value, value_at = tokens[i]
                    i += 1
                if letter in _READ and value:
                    out.append(Flag(_READ[letter], value, value_at, value_at + len(value)))
                break
            if not chr(letter).isalnum():
                break
            if letter in _READ:
                out.append(Flag(_READ[letter], b"", -1, -1))
    return out
