"""A resized network's length kept apart from its address, in another file or block (t29-33 finding 14).

`lan_network: 10.0.48.0` in Ansible's group_vars/all.yml and `lan_prefix: 24` (or `lan_netmask:
255.255.255.0`) in host_vars/router.yml are one variable namespace at run time, as Terraform's
`variable "lan_network" { default = "10.0.48.0" }` and `variable "lan_prefix_length" { default = 24
}` are one module's: under `10.0.48.0/24: 10.0.60.0/22` the address moved, the length stayed, and the
playbook and the module configured 10.0.60.0/24, sweep 0, verify OK (the same pair in one stanza
follows: prefix_moves' "Length keys by their name").

Here each namespace is read whole: an inventory's `group_vars/` and `host_vars/` files (top-level
keys), a Terraform module folder's `variable` defaults, `locals` and `.tfvars` values. A length key
(`STEM_prefix`, `STEM_prefix_length`, `STEM_netmask`, `STEM_cidr`, `STEM_mask`, `STEM_prefixlen`,
`STEM_bits`) whose value is a resized move's old length (or mask), beside an address key of the same
stem (`STEM_network`, `STEM_net`, `STEM_address`, `STEM_subnet`, `STEM_ip`) in another file or
block holding an address of the move's old or new network, is a `mask` residual naming both
places: the length must follow the address, but two files are not proved one stanza (a host may
override either), so a person writes it. After the sweep the address is the new network's and the
length the old: the residual stands, and verify fails until it is written (or kept).
"""

from __future__ import annotations

import ipaddress
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from renamer import hcl_keys, lazy_re
from renamer.occurrences import Match
from renamer.prefix_moves import MASK, PrefixMove

_LENGTH_WORD = lazy_re.compile(r"(?i)^(?P<stem>[a-z][a-z0-9]*(?:[_-][a-z0-9]+)*?)[_-]"
                          r"(?:prefix(?:[_-]?len(?:gth)?)?|prefixlen|cidr|netmask|mask(?:[_-]?len(?:gth)?)?|"
                          r"subnet[_-]?mask|bits|len(?:gth)?)$")
_ADDRESS_WORD = lazy_re.compile(r"(?i)^(?P<stem>[a-z][a-z0-9]*(?:[_-][a-z0-9]+)*?)[_-]"
                           r"(?:network|net|address|addr|subnet|ip|ipv4|ipv6|base)$")
_YAML_KEY = lazy_re.compile(
    rb"^(?P<key>[A-Za-z][\w-]*)[ \t]*:[ \t]+(?P<q>['\"]?)(?P<value>[0-9A-Fa-f:.]+)(?P=q)"
                       rb"[ \t]*(?:#.*)?\r?$", re.M)
_JSON_KEY = lazy_re.compile(rb'"(?P<key>[A-Za-z][\w-]*)"[ \t]*:[ \t]*(?P<q>"?)(?P<value>[0-9A-Fa-f:.]+)(?P=q)'
                       rb"[ \t]*[,}\r\n]")
_TFVARS_KEY = lazy_re.compile(rb"^[ \t]*(?P<key>[A-Za-z_][\w-]*)[ \t]*=(?![=>])[ \t]*", re.M)
_VARS_DIRS = ("group_vars", "host_vars")
_MAX_FILES = 2000
_SKIP = frozenset({"node_modules", "__pycache__", "venv"})


@dataclass(frozen=True)
class _Entry:
    rel: str
    block: str  # the stanza it stands in: a file, or a Terraform block
    key: str
    value: str
    start: int
    end: int
    line: int


@dataclass(frozen=True)
class Held:
    """A length the namespace ties to a resized network's address elsewhere: its span, text, what it
    becomes, and why."""

    start: int
    end: int
    text: str
    new: str
    note: str


def index(root: Path, moves: list[PrefixMove],
          current: Callable[[str], bool] | None = None) -> dict[str, list[Held]]:
    """Every length key of the repository's namespaces tied to a resized move (see the module's text),
    by file. `current(rel)`: is the file a current one (records are not read)."""
    resized = [m for m in moves if m.resized and m.old.prefixlen != m.new.prefixlen]
    if not resized:
        return {}
    spaces: dict[str, list[_Entry]] = {}
    count = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIP)
        rel_folder = Path(folder).relative_to(root).as_posix()
        rel_folder = "" if rel_folder == "." else rel_folder
        parts = rel_folder.split("/") if rel_folder else []
        vars_at = next((i for i, p in enumerate(parts) if p in _VARS_DIRS), None)
        for name in sorted(files):
            rel = f"{rel_folder}/{name}" if rel_folder else name
            if current is not None and not current(rel):
                continue
            path = Path(folder) / name
            if path.is_symlink():
                continue
            if vars_at is not None and (name.endswith((".yml", ".yaml", ".json")) or "." not in name):
                space = "ansible:" + "/".join(parts[:vars_at])
                reader = _yaml
            elif name.endswith((".tf", ".tfvars")):
                space = "terraform:" + rel_folder
                reader = _terraform
            else:
                continue
            count += 1
            if count > _MAX_FILES:
                break
            try:
                data = path.read_bytes()
            except OSError:
                continue
            spaces.setdefault(space, []).extend(reader(rel, data))
    out: dict[str, list[Held]] = {}
    for entries in spaces.values():
        for held_rel, held in _tied(entries, resized):
            out.setdefault(held_rel, []).append(held)
    return out


def _yaml(rel: str, data: bytes) -> list[_Entry]:
    if rel.endswith(".json"):  # group_vars/all.json: one object, its keys at the top
        out, depth = [], _Depth(data)
        for m in _JSON_KEY.finditer(data):
            if depth.at(m.start()) == 1:
                out.append(_Entry(rel, rel, m.group("key").decode(), m.group("value").decode(),
                                  m.start("value"), m.end("value"), data.count(b"\n", 0, m.start()) + 1))
        return out
    return [_Entry(rel, rel, m.group("key").decode(), m.group("value").decode(), m.start("value"),
                   m.end("value"), data.count(b"\n", 0, m.start()) + 1) for m in _YAML_KEY.finditer(data)]


class _Depth:
    """How many JSON objects or arrays are open at a position (strings skipped), asked in order:
    one pass over the file, not one per key."""

    def __init__(self, data: bytes) -> None:
        self._data, self._i, self._depth, self._quoted = data, 0, 0, False

    def at(self, pos: int) -> int:
        data, i = self._data, self._i
        while i < pos:
            c = data[i:i + 1]
            if self._quoted:
                if c == b"\\":
                    i += 1
                elif c == b'"':
                    self._quoted = False
            elif c == b'"':
                self._quoted = True
            elif c in (b"{", b"["):
                self._depth += 1
            elif c in (b"}", b"]"):
                self._depth -= 1
            i += 1
        self._i = i
        return -1 if self._quoted else self._depth


def _terraform(rel: str, data: bytes) -> list[_Entry]:
    out = []
    if rel.endswith(".tfvars"):
        for m in _TFVARS_KEY.finditer(data):
            span = (m.end(), hcl_keys.expression_end(data, m.end(), len(data)))
            out += _hcl_entry(rel, rel, m.group("key").decode(), data, span)
        return out
    for name, args in hcl_keys.block_arguments(data, "variable").items():
        if "default" in args:
            out += _hcl_entry(rel, f"{rel}:variable.{name}", name, data, args["default"])
    for name, span in hcl_keys.block_arguments(data, "locals").get("", {}).items():
        out += _hcl_entry(rel, f"{rel}:locals", name, data, span)
    return out


def _hcl_entry(rel: str, block: str, key: str, data: bytes, span: tuple[int, int]) -> list[_Entry]:
    text = data[span[0]:span[1]]
    m = re.fullmatch(rb'\s*(?P<q>"?)(?P<value>[0-9A-Fa-f:.]+)(?P=q)\s*', text)
    if m is None:
        return []
    start = span[0] + m.start("value")
    return [_Entry(rel, block, key, m.group("value").decode(), start, span[0] + m.end("value"),
                   data.count(b"\n", 0, start) + 1)]


def _length_of(value: str, version: int) -> int | None:
    if value.isdigit():
        return int(value)
    if version == 4 and re.fullmatch(r"\d{1,3}(?:\.\d{1,3}){3}", value):
        try:
            return ipaddress.IPv4Network(f"0.0.0.0/{value}").prefixlen
        except ValueError:
            return None
    return None


def _tied(entries: list[_Entry], moves: list[PrefixMove]) -> list[tuple[str, Held]]:
    addresses: dict[str, list[tuple[_Entry, ipaddress.IPv4Address | ipaddress.IPv6Address]]] = {}
    for entry in entries:
        named = _ADDRESS_WORD.match(entry.key)
        if named is None:
            continue
        try:
            address = ipaddress.ip_address(entry.value)
        except ValueError:
            continue
        addresses.setdefault(named.group("stem").lower().replace("-", "_"), []).append((entry, address))
    out = []
    for entry in entries:
        named = _LENGTH_WORD.match(entry.key)
        if named is None:
            continue
        same = addresses.get(named.group("stem").lower().replace("-", "_"), [])
        if any(other.block == entry.block for other, _ in same):
            continue  # its own stanza names the address: the key rules of prefix_moves decide it
        for other, address in same:
            move = next((m for m in moves if address.version == m.old.version
                         and (address in m.old or address in m.new)), None)
            if move is None or _length_of(entry.value, move.old.version) != move.old.prefixlen:
                continue
            new = str(move.new.prefixlen) if entry.value.isdigit() else str(move.new.netmask)
            note = (f"`{entry.key}` ({entry.value}) is the length of `{other.key}` ({other.value} at "
                    f"{other.rel}:{other.line}), an address of {move.old}, which the move makes {move.new}: "
                    f"one namespace at run time, so it must become {new} with it; two places are not proved "
                    "one stanza (a host may set either), so write it by hand (or keep it with "
                    "`renamer: keep`)")
            out.append((entry.rel, Held(entry.start, entry.end, entry.value, new, note)))
            break
    return out


def held_matches(data: bytes, matches: list[Match], held: list[Held]) -> list[Match]:
    """`matches` with a `mask` residual for each held length of this file (its bytes as indexed)."""
    out = list(matches)
    added = []
    for h in held:
        if data[h.start:h.end].decode("utf-8", "replace") != h.text:
            continue  # the file changed since it was read
        if any(m.start < h.end and h.start < m.end for m in out):
            continue  # decided already: the key rules of its own stanza (rewritten or said), a kept line
        added.append(Match(h.start, h.end, h.text, h.new, "network", refused=MASK, note=h.note))
    if not added and out == matches:
        return matches
    return sorted([*out, *added], key=lambda m: m.start)
