"""The length limits of DNS data a longer new name can overflow (t36 finding 05, issue 27).

A TXT record's RDATA is a list of character-strings of at most 255 bytes each (RFC 1035 3.3):
`web01.lab.example -> webapp-frontend-01.lab.example` inside a 255-byte SPF string makes
named-checkzone say "syntax error" and BIND refuse the whole zone. A name holds 253 bytes and
each label 63 (RFC 1035 2.3.4). This module finds those values; name_limits.py reads each one
renamed and refuses (`name-limit`) what would be over its limit. Pure functions of bytes:

* `txt_strings`: each character-string of a TXT/SPF record in zone-file syntax (BIND, NSD, Knot,
  PowerDNS bind backend, nsupdate `update add ... TXT`), quoted or not, across `( )` lines;
* `mail_values`: an SPF/DKIM/DMARC/MTA-STS/TLS-RPT/BIMI value written as one string in any file
  (Terraform `records`, octoDNS/dnscontrol, Ansible): quoted up to its closing quote, else to the
  end of the line;
* `zone_names`: each name token of a zone file (one holding `SOA`, `$ORIGIN` or `$TTL`);
* `string_length`, `longest_label`, `name_length`: the lengths the consumer counts (a `\\DDD` or
  `\\X` escape is one byte; a name's trailing dot is not counted).
"""

from __future__ import annotations

from collections.abc import Iterator

from renamer import lazy_re

# `TXT` (or the obsolete `SPF` type) as a record's type: after a blank, before a blank.
_TXT = lazy_re.compile(rb"(?i)(?<![^ \t])(?:TXT|SPF)[ \t]+(?=[\"(]|[^\s;\"()]+[ \t]*(?:[\r\n;]|\Z))")
_STRING = lazy_re.compile(rb"\"((?:[^\"\\\r\n]|\\.)*)\"|([^\s\"();]+)|(\()|(\))|(;[^\r\n]*)|(\r?\n)|[ \t]+")
_MAIL = lazy_re.compile(rb"(?i)(?<![\w=])v=(?:spf1|DKIM1|DMARC1|STSv1|TLSRPTv1|BIMI1)(?![\w])")
_ESCAPE = lazy_re.compile(rb"\\(?:[0-9]{3}|.)", )
_NAME = lazy_re.compile(rb"(?<![\w.*@/:=-])[A-Za-z0-9_*-]+(?:\.[A-Za-z0-9_*-]+)+\.?(?![\w.-])"
                        rb"|(?<![\w.*@/:=-])[A-Za-z0-9_*-]+\.?(?![\w.-])")
_ZONE = lazy_re.compile(rb"(?m)^\$(?:ORIGIN|TTL)\b|[ \t]SOA[ \t]")


def is_zone(data: bytes) -> bool:
    """Is `data` a zone file (`$ORIGIN`, `$TTL` or an SOA record)?"""
    if b"$ORIGIN" not in data and b"$TTL" not in data and b"SOA" not in data:
        return False
    return _ZONE.search(data) is not None


def txt_strings(data: bytes) -> Iterator[tuple[int, int]]:
    """(start, end) of each character-string of each TXT/SPF record (inside its quotes)."""
    for head in _TXT.finditer(data):
        line = data.rfind(b"\n", 0, head.start()) + 1
        if _code(data[line:head.start()] + b"X").endswith(b" "):
            continue  # `; TXT "..."` in a comment, or inside a string
        at, depth = head.end(), 0
        while at < len(data):
            x = _STRING.match(data, at)
            if x is None:
                break
            at = x.end()
            if x.group(1) is not None:
                yield x.start(1), x.end(1)
            elif x.group(2) is not None:
                yield x.start(2), x.end(2)
            elif x.group(3) is not None:
                depth += 1
            elif x.group(4) is not None:
                depth -= 1
                if depth <= 0:
                    break
            elif x.group(6) is not None and depth <= 0:
                break


def mail_values(data: bytes) -> Iterator[tuple[int, int]]:
    """(start, end) of each SPF/DKIM/DMARC-like value: to its closing quote where one opened it
    (a `\\"` closes it too: Route 53's split), else to the end of the line."""
    for x in _MAIL.finditer(data):
        start = x.start()
        quote = data[start - 1:start] if start > 0 else b""
        eol = len(data)
        for stop in (b"\n", b"\r"):
            found = data.find(stop, start)
            if found >= 0:
                eol = min(eol, found)
        end = data.find(quote, start, eol) if quote in (b'"', b"'") else -1
        if end < 0:
            end = eol
        elif data[end - 1:end] == b"\\":
            end -= 1
        yield start, end


def zone_names(data: bytes) -> Iterator[tuple[int, int]]:
    """(start, end) of each name token of a zone file, outside comments and quoted strings."""
    if not is_zone(data):
        return
    at = 0
    for line in data.splitlines(keepends=True):
        body = _code(line)
        for x in _NAME.finditer(body):
            yield at + x.start(), at + x.end()
        at += len(line)


def _code(line: bytes) -> bytes:
    """`line` with its quoted strings and its comment blanked (same length)."""
    out, quoted, escaped = bytearray(line), False, False
    for i, c in enumerate(line):
        if escaped:
            escaped = False
            if quoted:
                out[i] = 0x20
            continue
        if c == 0x5C:  # backslash
            escaped = True
        elif c == 0x22:  # "
            quoted = not quoted
        elif c == 0x3B and not quoted:  # ; a comment to the end of the line
            out[i:] = b" " * (len(line) - i)
            break
        if quoted:
            out[i] = 0x20
    return bytes(out)


def string_length(value: bytes) -> int:
    """The bytes a character-string holds on the wire: `\\DDD` and `\\X` are one byte each."""
    return len(_ESCAPE.sub(b"x", value))


def longest_label(name: bytes) -> int:
    """The longest label of `name`, escapes counted as one byte."""
    return max((string_length(label) for label in name.rstrip(b".").split(b".")), default=0)


def name_length(name: bytes) -> int:
    """`name`'s length as the limit of 253 counts it (no trailing dot)."""
    return string_length(name.rstrip(b"."))
