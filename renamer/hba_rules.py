"""PostgreSQL client authentication, the first match deciding (outside pass t33-33, finding 11),
pure: a `reject` entry for part of a network before an entry that admits the whole is an exclusion,
judged by `except_blocks.covering` as `except_lines` judges nginx's deny before allow.

* pg_hba.conf lines: `TYPE DATABASE USER ADDRESS [MASK] METHOD`, TYPE `host`, `hostssl`,
  `hostnossl`, `hostgssenc`, `hostnogssenc`;
* the same entries held as data, a list of mappings in YAML (block or flow style) or JSON: the
  geerlingguy.postgresql role's `postgresql_hba_entries` (`type`, `database`, `user`, `address` or
  `ip_address` + `ip_mask`, `auth_method`), and the same keys spelled `method`, `databases`, `users`.

PostgreSQL takes the first line whose type, database, user and address match: a reject counts only
where it matches every connection the later entry does but for the address: a `host` reject matches
every `host*` type (SSL or not), `all` every database or user, otherwise the same word.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass

from renamer import lazy_re
from renamer.names import IPNetwork

Rule = tuple[list[IPNetwork], list[tuple[int, int, IPNetwork]], str]

_TYPES = (b"host", b"hostssl", b"hostnossl", b"hostgssenc", b"hostnogssenc")
_A4 = rb"(?:[0-9]{1,3}\.){3}[0-9]{1,3}"
_ADDRESS = rb"(?:" + _A4 + rb"|[0-9A-Fa-f]*:[0-9A-Fa-f:.]*)"
_LINE = lazy_re.compile(rb"(?m)^[ \t]*(host|hostssl|hostnossl|hostgssenc|hostnogssenc)[ \t]+(\S+)[ \t]+(\S+)"
                   rb"[ \t]+(" + _ADDRESS + rb"/[0-9]{1,3}|" + _A4 + rb"[ \t]+" + _A4 + rb")(?![0-9./])[ \t]+"
                   rb"([A-Za-z0-9-]+)")
_ITEM = lazy_re.compile(rb"(?m)^([ \t]*)-[ \t]")
_PAIR = lazy_re.compile(rb"[\"']?([A-Za-z_]+)[\"']?[ \t]*:[ \t]*(\"[^\"\n]*\"|'[^'\n]*'|[^,}\s#][^,}\n#]*)")
_KEYS = {b"type": "type", b"contype": "type", b"database": "database", b"databases": "database",
         b"db": "database", b"user": "user", b"users": "user", b"address": "address",
         b"ip_address": "ip_address", b"ip_mask": "ip_mask", b"auth_method": "method", b"method": "method"}
_MOST = 40  # lines of one list item, at most


@dataclass(frozen=True)
class _Entry:
    group: bytes
    order: int
    kind: bytes
    database: bytes
    user: bytes
    method: bytes
    start: int
    end: int
    net: IPNetwork


def _network(address: bytes, mask: bytes | None = None) -> IPNetwork | None:
    try:
        text = address.decode("ascii") + ("/" + mask.decode("ascii") if mask else "")
        return ipaddress.ip_network(text, strict=False)
    except ValueError:
        return None


def _lines(data: bytes) -> Iterator[_Entry]:
    for index, x in enumerate(_LINE.finditer(data)):
        net = _network(*x.group(4).split())
        if net is not None:
            yield _Entry(b"conf", index, x.group(1), x.group(2), x.group(3), x.group(5).lower(),
                         x.start(4), x.end(4), net)


def _spans(data: bytes) -> Iterator[tuple[bytes, int, int]]:
    """Each entry's span with its list: a YAML block list's item (the lines past its dash), a flow
    or JSON mapping (`{...}`, innermost), in the order they stand."""
    found = [(x.start(), b"flow", x.start(), x.end()) for x in re.finditer(rb"\{[^{}]*\}", data)]
    for x in _ITEM.finditer(data):
        if data[x.end():x.end() + 1] == b"{":
            continue  # a flow mapping: read as one above
        column = len(x.group(1))
        end = data.find(b"\n", x.end())
        end = len(data) if end < 0 else end
        for _ in range(_MOST):  # the item's lines: indented past its dash
            if end >= len(data):
                break
            nxt = data.find(b"\n", end + 1)
            nxt = len(data) if nxt < 0 else nxt
            text = data[end + 1:nxt]
            if text.strip() and len(text) - len(text.lstrip(b" \t")) <= column:
                break
            end = nxt
        found.append((x.start(), b"list %d" % column, x.end(), end))
    for _, group, start, end in sorted(found):
        yield group, start, end


def _items(data: bytes) -> Iterator[_Entry]:
    for index, (group, begin, finish) in enumerate(_spans(data)):
        fields: dict[str, tuple[bytes, int, int]] = {}
        for pair in _PAIR.finditer(data, begin, finish):
            name = _KEYS.get(pair.group(1).lower())
            if name is not None and name not in fields:
                value = pair.group(2).rstrip()
                quoted = value[:1] in (b"'", b'"')
                start = pair.start(2) + (1 if quoted else 0)
                value = value.strip(b"'\"")
                fields[name] = (value, start, start + len(value))
        if "method" not in fields:
            continue
        if "address" in fields:
            value, start, stop = fields["address"]
            net = _network(value) if b"/" in value else None
        elif "ip_address" in fields and "ip_mask" in fields:
            value, start, stop = fields["ip_address"]
            net = _network(value, fields["ip_mask"][0])
        else:
            continue
        if net is None:
            continue
        words = {name: value.lower() for name, (value, _, _) in fields.items()}
        yield _Entry(group, index, words.get("type", b""), words.get("database", b""),
                     words.get("user", b""), words["method"], start, stop, net)


def _broader(reject: _Entry, entry: _Entry) -> bool:
    kind = reject.kind == entry.kind or (reject.kind == b"host" and entry.kind in _TYPES)
    return (kind and reject.database in (b"all", entry.database)
            and reject.user in (b"all", entry.user))


def rules(data: bytes, wanted: Collection[IPNetwork] | None = None) -> Iterator[Rule]:
    """Each reject entry with the later entries of its file it would except from (module doc)."""
    if b"reject" not in data:
        return
    entries = list(_lines(data)) if b"host" in data else []
    if b"method" in data:
        entries.extend(_items(data))
    admits = [e for e in entries if e.method != b"reject" and (wanted is None or e.net in wanted)]
    for reject in entries:
        if reject.method != b"reject":
            continue
        included = list(dict.fromkeys(e.net for e in admits if e.group == reject.group
                                      and e.order > reject.order and e.method != b"reject"
                                      and _broader(reject, e)))
        if included:
            what = "a pg_hba `reject` before the entry that admits it, the first match deciding"
            yield included, [(reject.start, reject.end, reject.net)], what
