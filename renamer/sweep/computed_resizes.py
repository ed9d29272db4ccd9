"""Computed addresses and subnets under a resized network move (t26-33 findings 01, 03, 04, 09, 16).

`cidrhost("192.168.40.0/24", -2)` under `192.168.40.0/24: 192.168.40.0/22` had its literal
rewritten to `/22`: 192.168.40.254 became 192.168.43.254, sweep 0, verify OK (as `cidrsubnets`,
`cidrhost(cidrsubnet(...))`, Ansible's `ipaddr('last_usable')`, `ipsubnet(26, -1)`, `nthhost(-2)`,
Python's `ip_network(...)[-2]`, and every expression over `var.lan_cidr` whose default moved).
Each expression computing from a resized move's old or new network (a literal in it, or a name
resolved to one: Terraform's `var.`, `local.` and `TYPE.NAME.ATTR` in the module's `.tf` files,
Python's `NET = ip_network(...)` in the file, a Jinja variable's nearest literal definition) is
judged by computed_lengths.judge:

* its value at the old length has no place in the new network (a shrink): refused
  (`outside-prefix`, exit 3), as the literal address would be;
* its value at the new length is not the old value's place: a `composed-address` residual naming
  both values and why; a network literal inside it is left as it was (so verify still reads it);
* else it follows (the literal is rewritten as any).

The network's new length is read too: after a sweep that rewrote `var.lan_cidr`'s default, the
expression over it is judged again (its new network's old length known from the move), so verify
fails where the sweep left a residual (finding 09: it said OK). An expression deliberately written
for the new length and still of another value at the old one stays a residual: `renamer: keep`
decides it.
"""

from __future__ import annotations

import ipaddress
import os
import re
from dataclasses import replace
from pathlib import Path

from renamer import computed_lengths, hcl_keys
from renamer.computed_lengths import Network
from renamer.occurrences import Match
from renamer.prefix_moves import OUTSIDE, PrefixMove
from renamer.sweep.composed import Known

REASON = "composed-address"

_LITERAL = re.compile(r"""["']?([0-9A-Fa-f:.]+/\d{1,3})["']?""")
_PY_NETWORK = re.compile(rb"^[ \t]*(?P<name>[A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?=[ \t]*"
                         rb"(?:(?:ipaddress|netaddr)[ \t]*\.[ \t]*)?"
                         rb"(?:ip_network|IPv4Network|IPv6Network|ip_interface|IPv4Interface|IPv6Interface|"
                         rb"IPNetwork)"
                         rb"""[ \t]*\([ \t]*[uUrR]?(?P<q>['"])(?P<net>[0-9A-Fa-f:.]+/\d{1,3})(?P=q)""", re.M)


# `NET = ip_network(LAN)` where the file says `LAN = "192.168.40.0/24"` (t29-33, finding 02's class)
_PY_NETWORK_OF = re.compile(rb"^[ \t]*(?P<name>[A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?=[ \t]*"
                            rb"(?:(?:ipaddress|netaddr)[ \t]*\.[ \t]*)?"
                            rb"(?:ip_network|IPv4Network|IPv6Network|ip_interface|IPv4Interface|IPv6Interface|"
                            rb"IPNetwork)[ \t]*\([ \t]*(?P<ref>[A-Za-z_]\w*)[ \t]*[,)]", re.M)
_PY_STRING = re.compile(rb"""^[ \t]*(?P<name>[A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?=[ \t]*[uUrR]?(?P<q>['"])"""
                        rb"""(?P<net>[0-9A-Fa-f:.]+/\d{1,3})(?P=q)[ \t]*(?:#[^\n]*)?$""", re.M)


def _network(text: str) -> Network | None:
    try:
        return ipaddress.ip_network(text, strict=False)
    except ValueError:
        return None


class Resolver:
    """What a name in an expression stands for: (its literal network, where it is written)."""

    def __init__(self, data: bytes, rel: str, root: Path | None, definitions: Known | None) -> None:
        self._data = data
        self._rel = rel
        self._root = root
        self._definitions = definitions
        self._python: dict[str, tuple[str, int]] | None = None
        self._module: dict[str, bytes] | None = None

    def __call__(self, ref: str, depth: int = 3) -> tuple[str, str] | None:
        if ref.startswith("jinja:"):
            return self._jinja(ref[len("jinja:"):])
        if "." not in ref:
            if self._python is None:
                self._python = {m.group("name").decode(): (m.group("net").decode(),
                                                           self._data.count(b"\n", 0, m.start()) + 1)
                                for m in _PY_NETWORK.finditer(self._data)}
                strings = {m.group("name"): m.group("net").decode() for m in _PY_STRING.finditer(self._data)}
                for m in _PY_NETWORK_OF.finditer(self._data):
                    if m.group("ref") in strings and m.group("name").decode() not in self._python:
                        self._python[m.group("name").decode()] = (
                            strings[m.group("ref")], self._data.count(b"\n", 0, m.start()) + 1)
            found = self._python.get(ref)
            return (found[0], f"`{ref}` at {self._rel}:{found[1]}") if found else None
        if not self._rel.endswith(".tf") or depth <= 0:
            return None
        parts = ref.split(".")
        for at, text in self._files().items():
            if parts[0] == "var" and len(parts) == 2:
                span = hcl_keys.block_arguments(text, "variable").get(parts[1], {}).get("default")
            elif parts[0] == "local" and len(parts) == 2:
                span = hcl_keys.block_arguments(text, "locals").get("", {}).get(parts[1])
            elif len(parts) == 3 and parts[0] not in ("var", "local", "module", "data"):
                blocks = hcl_keys.labelled_arguments(text, "resource")
                span = blocks.get((parts[0], parts[1]), {}).get(parts[2])
            else:
                span = None
            if span is None:
                continue
            value = text[span[0]:span[1]].strip().decode("utf-8", "replace")
            line = text.count(b"\n", 0, span[0]) + 1
            if re.fullmatch(r"[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*){1,2}", value):
                inner = self(value, depth - 1)
                return (inner[0], f"`{ref}` is {value} at {at}:{line}, {inner[1]}") if inner else None
            literal = re.fullmatch(r'"([0-9A-Fa-f:.]+/\d{1,3})"', value)
            if literal is None or _network(literal.group(1)) is None:
                return None
            return literal.group(1), f"`{ref}` at {at}:{line}"
        return None

    def _files(self) -> dict[str, bytes]:
        if self._module is None:
            self._module = {}
            folder = self._rel.rpartition("/")[0]
            base = self._root / folder if self._root is not None else None
            try:
                names = sorted(os.listdir(base)) if base is not None else []
            except OSError:
                names = []
            for name in names:
                path = base / name if base is not None else None
                if path is None or not name.endswith(".tf") or not path.is_file():
                    continue
                try:
                    self._module[f"{folder}/{name}" if folder else name] = path.read_bytes()
                except OSError:
                    continue
        return self._module

    def _jinja(self, name: str) -> tuple[str, str] | None:
        if self._definitions is None:
            return None
        for found in self._definitions.values(name, self._rel or None).found:
            literal = _LITERAL.fullmatch(found.value.strip())
            if literal is not None and _network(literal.group(1)) is not None:
                return literal.group(1), found.why()
        return None


def resized_matches(data: bytes, matches: list[Match], moves: list[PrefixMove], rel: str = "",
                    root: Path | None = None, definitions: Known | None = None) -> list[Match]:
    """`matches` with each expression over a resized network judged (see the module's text)."""
    resized = [m for m in moves if m.resized]
    if not resized or not computed_lengths.might_hold(data):
        return matches
    resolve = Resolver(data, rel, root, definitions)
    out = list(matches)
    added: list[Match] = []
    for chain in computed_lengths.chains(data):
        if chain.literal:
            base, where = chain.base, chain.where
        else:
            resolved = resolve(chain.base)
            if resolved is None:
                continue
            base, where = resolved
        network = _network(base)
        move = next((m for m in resized if network is not None and network in (m.old, m.new)), None)
        if move is None and network is not None:  # a wider network making a resized one (its subnet)
            made = _made_moved(chain, network, resized, where)
            if made is not None and not any(m.start < chain.end and chain.start < m.end
                                            and (m.refused is not None or m.kept is not None) for m in out):
                added.append(made)
            continue
        if move is None or network is None:
            continue
        inside = [i for i, m in enumerate(out) if m.start < chain.end and chain.start < m.end]
        if any(out[i].kept is not None or out[i].refused not in (None, REASON) for i in inside):
            continue  # decided already (a range, a kept line, a refusal)
        verdict = computed_lengths.judge(chain.steps, move.old, move.new)
        if verdict is None:
            continue
        at_old = network == move.old
        said = [i for i in inside if out[i].refused == REASON]
        if said and not (verdict.kind == computed_lengths.OUTSIDE and at_old):
            continue  # a residual already (computed_matches: "may spell"); a refusal is stronger
        via = f" (its network {where})" if where else ""
        if verdict.kind == computed_lengths.OUTSIDE and at_old:
            note = f"`{chain.text}`{via}: {verdict.why}"
            reason = OUTSIDE
        else:
            reading = ("" if at_old else f"; its network is {network}, the new network of the move from "
                       f"{move.old}")
            note = (f"`{chain.text}`{via} computes from the length or the end of a resized network: "
                    f"{verdict.why}{reading}; rewrite it for the new length by hand (or keep it with "
                    "`renamer: keep`)")
            reason = REASON
        if inside:
            for i in inside:
                out[i] = replace(out[i], refused=reason, note=note)
        else:
            old = verdict.old_value or str(network)
            new = verdict.placed or verdict.new_value or old
            added.append(Match(chain.start, chain.end, old, new, "address", refused=reason, note=note))
    if not added and out == matches:
        return matches
    return sorted([*out, *added], key=lambda m: m.start)


def _made_moved(chain: computed_lengths.Chain, network: Network, resized: list[PrefixMove],
                where: str) -> Match | None:
    """`cidrsubnet("10.0.0.0/16", 8, 48)` makes 10.0.48.0/24, which a resize makes 10.0.48.0/22: no
    byte of it moves, so it keeps making the old network (a residual); a subnet or address of a
    shrunk network that has no place in the new one refuses the sweep, as its literal would."""
    try:
        value = computed_lengths.evaluate(chain.steps, network)
    except computed_lengths.NoValue:
        return None
    values = value if isinstance(value, tuple) else (value,)
    via = f" (its network {where})" if where else ""
    for made in values:
        if isinstance(made, int):
            continue
        for move in resized:
            if made == move.old:
                note = (f"`{chain.text}`{via} makes {made}, the network the move resizes to {move.new}: no "
                        "byte of it moves, so it keeps making the old network; write the new network's "
                        "expression by hand (or keep it with `renamer: keep`)")
                return Match(chain.start, chain.end, str(made), str(move.new), "network", refused=REASON,
                             note=note)
            if made.version != move.old.version or move.new.num_addresses >= move.old.num_addresses:
                continue
            inside = (made in move.old if not isinstance(made, (ipaddress.IPv4Network, ipaddress.IPv6Network))
                      else made.subnet_of(move.old))  # type: ignore[arg-type]
            if inside and computed_lengths.place(made, move.old, move.new) is None:
                note = (f"`{chain.text}`{via} makes {made}, which has no place in the new network {move.new}")
                return Match(chain.start, chain.end, str(made), str(made), "network", refused=OUTSIDE,
                             note=note)
    return None
