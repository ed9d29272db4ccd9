"""Exclusions read through another view of a file (t33-33 findings 17, 20), pure: `except_lines`'
and `except_spelled`'s rules found where a network is spelled otherwise or named by a variable.

* The networks as `except_lines` reads them: a bracketed IPv6 `[2001:db8:a::]/56` (Postfix's
  `mynetworks = ![2001:db8:a::]/56, [2001:db8:a::]/48`) and a dotted mask (`iptables -s
  10.0.48.0/255.255.255.128`) read as `A/N`, in a view of the same length (each span is the file's).
* Variables defined in the file: nftables `define PRINTERS = 10.0.48.0/25` with `ip saddr $LAN ip
  saddr != $PRINTERS`, pf macros `printers = "10.0.48.0/25"` with `{ $lan !$printers }`, shell
  variables `PRN=10.0.48.0/25` with `iptables -A INPUT -s "$PRN" -j DROP` (`$X`, `${X}`, `"$X"`):
  each reference replaced by its value, the rules read there, and an excluded network that came from a
  variable stands at its definition (where the refusal is written). A name defined twice is not
  expanded (which value a line sees depends on the order the tool reads them in). A variable defined
  in another file (nftables `include`) is not read: docs/reliability.md's known gaps.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator

from renamer import except_lines, except_spelled, lazy_re
from renamer.except_spelled import NET, Rule, network

_DEFINE = lazy_re.compile(rb"(?m)^[ \t]*(?:(?:re)?define[ \t]+|export[ \t]+|readonly[ \t]+|local[ \t]+|"
                     rb"declare[ \t]+(?:-[A-Za-z]+[ \t]+)?)?([A-Za-z_][A-Za-z0-9_]*)[ \t]*=[ \t]*"
                     rb"(\"[^\"\n]*\"|'[^'\n]*'|\{[^{}\n]*\}|[^\s#;\"']+)[ \t]*;?[ \t]*(?:#[^\n]*)?\r?$")


_RESPELLED = lazy_re.compile(rb"\]/[0-9]|/255\.")


def _same_length(data: bytes) -> tuple[bytes, list[tuple[int, int]]] | None:
    """The file with each bracketed or masked network as `A/N` padded with blanks, and their spans."""
    out = bytearray(data)
    spans = []
    lines = sorted({(data.rfind(b"\n", 0, c.start()) + 1, data.find(b"\n", c.end()))
                    for c in _RESPELLED.finditer(data)})
    for x in (x for start, end in lines for x in NET.finditer(data, start, len(data) if end < 0 else end)):
        text = x.group()
        if not (text.startswith(b"[") or text.count(b".") > 3):
            continue
        net = network(text)
        if net is None:
            continue
        plain = f"{net.network_address if text.count(b'.') > 3 else text[1:text.index(b']')].decode()}" \
                f"/{net.prefixlen}".encode()
        if len(plain) > len(text) - 1:
            continue
        out[x.start():x.end()] = b" " + plain + b" " * (len(text) - len(plain) - 1)
        spans.append((x.start(), x.end()))
    return (bytes(out), spans) if spans else None


def _respelled(data: bytes) -> Iterator[Rule]:
    view = _same_length(data)
    if view is None:
        return
    text, spans = view
    starts = [s for s, _ in spans]
    for included, excluded, what in except_lines.rules(text):
        mapped = []
        for start, end, net in excluded:
            k = bisect.bisect_right(starts, start) - 1
            inside = k >= 0 and spans[k][0] <= start < spans[k][1]
            mapped.append((*spans[k], net) if inside else (start, end, net))
        yield included, mapped, what


def _definitions(data: bytes) -> dict[bytes, tuple[int, int, bytes]]:
    """Each variable defined once whose value holds a network: the value's span and its text."""
    seen: dict[bytes, int] = {}
    found = {}
    for x in _DEFINE.finditer(data):
        name = x.group(1)
        seen[name] = seen.get(name, 0) + 1
        value = x.group(2)
        start, end = x.start(2), x.end(2)
        if value[:1] in (b"\"", b"'"):
            value, start, end = value[1:-1], start + 1, end - 1
        if NET.search(value) is not None:
            found[name] = (start, end, value)
    return {name: found[name] for name in found if seen[name] == 1}


def _expanded(data: bytes) -> Iterator[Rule]:
    defined = _definitions(data)
    if not defined:
        return
    names = b"|".join(re.escape(n) for n in sorted(defined, key=len, reverse=True))
    ref = re.compile(rb"(\"?)\$(?:\{(" + names + rb")\}|(" + names + rb")(?![A-Za-z0-9_]))(\"?)")
    out = bytearray()
    # segments: (start in the view, start in the file, length, the definition's span or None)
    segments: list[tuple[int, int, int, tuple[int, int] | None]] = []
    at = 0
    for x in ref.finditer(data):
        name = x.group(2) or x.group(3)
        start, end, value = defined[name]
        quoted = x.group(1) == b"\"" and x.group(4) == b"\""
        ref_start, ref_end = (x.start(), x.end()) if quoted else (x.start(1) + len(x.group(1)), x.start(4))
        segments.append((len(out), at, ref_start - at, None))
        out += data[at:ref_start]
        segments.append((len(out), start, len(value), (start, end)))
        out += value
        at = ref_end
    if not segments:
        return
    segments.append((len(out), at, len(data) - at, None))
    out += data[at:]
    view = bytes(out)
    starts = [s for s, _, _, _ in segments]
    for included, excluded, what in [*except_lines.rules(view), *except_spelled.rules(view)]:
        mapped = []
        through = False
        for start, end, net in excluded:
            k = bisect.bisect_right(starts, start) - 1
            view_start, file_start, _, definition = segments[k]
            if definition is not None:
                # the network's own span inside the value: where the refusal stands
                offset = start - view_start
                mapped.append((file_start + offset, file_start + offset + (end - start), net))
                through = True
            else:
                mapped.append((file_start + start - view_start, file_start + end - view_start, net))
        yield included, mapped, f"{what}, through a variable" if through else what


def rules(data: bytes) -> Iterator[Rule]:
    """Every rule found through this module's views, and `except_spelled`'s, in no order (a rule
    `except_lines` finds in the file itself may come again: the caller keeps one of each hit)."""
    yield from except_spelled.rules(data)
    if b"]/" in data or b"/255." in data:
        yield from _respelled(data)
    if b"$" in data and b"=" in data:
        yield from _expanded(data)
