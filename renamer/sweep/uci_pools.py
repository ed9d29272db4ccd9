"""OpenWrt DHCP pools a shrinking network move leaves outside the new network (t26-33 finding 05).

OpenWrt keeps a LAN's address in one UCI file (`/etc/config/network`: `config interface 'lan'`,
`option ipaddr '192.168.1.1'`, `option netmask '255.255.255.0'`, or `option ipaddr
'192.168.1.1/24'`) and its DHCP pool in another (`/etc/config/dhcp`: `config dhcp 'lan'`, `option
interface 'lan'`, `option start '100'`, `option limit '150'`): an offset from the network address and
a count, 100 and 150 where unset. The dhcp file names no address, so no match finds it; here each
pool is read against its interface's network (the interface of that name in the dhcp file's own
folder, else the repo's only one), and a pool a shrink leaves past the new network's last host is
an `outside-prefix` residual at its `limit` line (else `start`, else `interface`): the sweep is
refused, as for any address in use outside (prefix_pools.pool_problem says why).
"""

from __future__ import annotations

import ipaddress
import posixpath
from collections.abc import Sequence
from dataclasses import dataclass, field

from renamer import lazy_re
from renamer.classify import CURRENT
from renamer.prefix_moves import OUTSIDE, PrefixMove
from renamer.prefix_pools import pool_problem
from renamer.project import LoadedProject
from renamer.sweep.model import RESIDUAL, Reference
from renamer.vcs_status import worktree_lines_matching

_CONFIG = lazy_re.compile(r"^[ \t]*config[ \t]+([A-Za-z0-9_]+)(?:[ \t]+['\"]?([A-Za-z0-9_.-]+)['\"]?)?"
                     r"[ \t]*(?:#.*)?$")
_OPTION = lazy_re.compile(
    r"^[ \t]*(option|list)[ \t]+([A-Za-z0-9_]+)[ \t]+['\"]?([^'\"#]*?)['\"]?[ \t]*(?:#.*)?$")
_DEFAULT_START, _DEFAULT_LIMIT = 100, 150  # OpenWrt's, where the dhcp section sets none
_LIMIT = 512 * 1024  # a UCI file is small: a larger one is no UCI file


@dataclass
class _Section:
    kind: str
    name: str
    line: int
    options: dict[str, list[tuple[str, int]]] = field(default_factory=dict)  # key: (value, line) each

    def first(self, key: str) -> tuple[str, int] | None:
        values = self.options.get(key)
        return values[0] if values else None


def _sections(text: str) -> list[_Section]:
    out: list[_Section] = []
    for number, line in enumerate(text.splitlines(), 1):
        head = _CONFIG.match(line)
        if head is not None:
            out.append(_Section(head.group(1), head.group(2) or "", number))
            continue
        option = _OPTION.match(line)
        if option is not None and out:
            out[-1].options.setdefault(option.group(2), []).append((option.group(3).strip(), number))
    return out


def _interface_network(section: _Section) -> tuple[ipaddress.IPv4Address, int] | None:
    """An interface's IPv4 address and length: `ipaddr` with `netmask`, or `ipaddr 'A/LEN'`."""
    address = section.first("ipaddr")
    if address is None:
        return None
    text = address[0].split()[0] if address[0].split() else ""
    try:
        if "/" in text:
            iface = ipaddress.IPv4Interface(text)
            return iface.ip, iface.network.prefixlen
        mask = section.first("netmask")
        if mask is None:
            return None
        iface = ipaddress.IPv4Interface(f"{text}/{mask[0]}")
        return iface.ip, iface.network.prefixlen
    except ValueError:
        return None


def _move_of(address: ipaddress.IPv4Address, length: int, moves: Sequence[PrefixMove]) -> PrefixMove | None:
    """The shrinking move the interface stands in: its old network at the old length (before the
    sweep) or its new one at the new length (after)."""
    for move in moves:
        if move.old.version != 4 or move.new.num_addresses >= move.old.num_addresses:
            continue
        if (address in move.old and length == move.old.prefixlen) or (address in move.new
                                                                        and length == move.new.prefixlen):
            return move
    return None


def _number(value: tuple[str, int] | None, default: int) -> int | None:
    if value is None:
        return default
    return int(value[0]) if value[0].isdigit() else None


def uci_pools(project: LoadedProject, prefixes: Sequence[str] = ()) -> list[Reference]:
    """An `outside-prefix` residual for each OpenWrt DHCP pool a shrinking move cannot hold."""
    moves = [PrefixMove(old, new) for old, new in project.config.renames.networks]
    if not any(m.old.version == 4 and m.new.num_addresses < m.old.num_addresses for m in moves):
        return []
    found = worktree_lines_matching(project.root,
                                    r"^[[:space:]]*config[[:space:]]+(dhcp|interface)([[:space:]]|$)")
    paths = sorted({path for path, _, _ in found or []
                    if project.classifier.classify(path).status == CURRENT})
    interfaces: dict[str, list[tuple[str, _Section]]] = {}
    pools: list[tuple[str, _Section]] = []
    lines: dict[str, list[str]] = {}
    for path in paths:
        try:
            data = (project.root / path).read_bytes()[:_LIMIT]
        except OSError:
            continue
        lines[path] = data.decode("utf-8", "replace").splitlines()
        for section in _sections(data.decode("utf-8", "replace")):
            if section.kind == "interface" and section.name:
                interfaces.setdefault(section.name, []).append((path, section))
            elif section.kind == "dhcp":
                pools.append((path, section))
    out = []
    for path, pool in pools:
        if prefixes and not any(p == "" or path == p or path.startswith(p + "/") for p in prefixes):
            continue
        named = pool.first("interface")
        ignored = pool.first("ignore")
        if named is None or (ignored is not None and ignored[0] in ("1", "true", "yes", "on")):
            continue
        candidates = interfaces.get(named[0], [])
        here = [c for c in candidates if posixpath.dirname(c[0]) == posixpath.dirname(path)]
        chosen = here if here else candidates
        if len(chosen) != 1:
            continue  # no interface of that name, or several the folder does not tell apart
        network = _interface_network(chosen[0][1])
        move = _move_of(*network, moves) if network is not None else None
        start = _number(pool.first("start"), _DEFAULT_START)
        limit = _number(pool.first("limit"), _DEFAULT_LIMIT)
        if move is None or start is None or limit is None:
            continue
        defaults = pool.first("start") is None and pool.first("limit") is None
        written = f"option start '{start}', option limit '{limit}'"
        written += " (OpenWrt's defaults)" if defaults else ""
        why = pool_problem(move, start, limit, written)
        if why is None:
            continue
        at = pool.first("limit") or pool.first("start") or named
        line = lines[path][at[1] - 1]
        out.append(Reference(path, at[1], max(line.rfind(at[0]), 0) + 1, at[0], at[0], RESIDUAL, OUTSIDE,
                             f"{why}, interface '{named[0]}' of {chosen[0][0]}", line.strip()))
    return out
