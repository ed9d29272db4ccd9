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
import re
from dataclasses import replace
from pathlib import Path

from renamer import computed_lengths, lazy_re
from renamer.computed_lengths import Network
from renamer.occurrences import Match
from renamer.prefix_moves import OUTSIDE, PrefixMove
from renamer.sweep.composed import Known
from renamer.sweep.network_names import Names
from renamer.sweep.opaque_bases import Bases
from renamer.sweep.split_networks import judged as split_judged

REASON = "composed-address"

_LITERAL = re.compile(r"""["']?([0-9A-Fa-f:.]+/\d{1,3})["']?""")


def _network(text: str) -> Network | None:
    try:
        return ipaddress.ip_network(text, strict=False)
    except ValueError:
        return None


class Resolver(Names):
    """What a name in an expression stands for: (its literal network, where it is written), by
    sweep/network_names.Names (a Jinja variable: its nearest literal definition)."""

    def __init__(self, data: bytes, rel: str, root: Path | None, definitions: Known | None) -> None:
        super().__init__(data, rel, root, lambda name: _jinja(definitions, name, rel))


def _jinja(definitions: Known | None, name: str, rel: str) -> tuple[str, str] | None:
    if definitions is None:
        return None
    for found in definitions.values(name, rel or None).found:
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
    bases = Bases(rel, root)
    out = list(matches)
    added: list[Match] = []
    for chain in computed_lengths.chains(data):
        if chain.literal:
            base, where = chain.base, chain.where
        else:
            # each value the name may hold (tfvars, a module call, the default): a moved one first
            resolve.unread.clear()
            found = resolve.all(chain.base)
            if _overridden(found, resized):
                continue  # terraform.tfvars sets it: the default it overrides computes nothing (t31-33, 19)
            resolved = next((r for r in found for m in resized if _network(r[0]) in (m.old, m.new)),
                            found[0] if found else None)
            unread = _unread_moved(resolve, resized)
            if unread is not None and (resolved is None or _network(resolved[0]) not in
                                       {n for m in resized for n in (m.old, m.new)}):
                raw, at, net = unread
                note = (f"`{chain.text}` computes from `{chain.base}`, defined at {at} as `{raw}`, which "
                        f"holds {net}, a network the move resizes, but is not a literal renamer evaluates: "
                        "what the expression makes at the new length is not proved; check it by hand (or "
                        "keep it with `renamer: keep`)")
                if not any(m.start < chain.end and chain.start < m.end for m in out):
                    added.append(Match(chain.start, chain.end, net, net, "network", refused=REASON,
                                       note=note))
                continue
            guessed = resolved is None or chain.base.startswith(computed_lengths.OPAQUE)
            if guessed:
                # an expression, a name defined by one, a `for_each` value, a template's variable:
                # every network it may stand for (t31-33 findings 02, 07, 24)
                found = bases.candidates(chain.base, chain.start, data, resolve)
                resolved = next((r for r in found for m in resized if _network(r[0]) in (m.old, m.new)), None)
                if not found:
                    # nothing read: the module's own keys (`service = { network = .., cidr = 24 }`), or
                    # said where the module holds a resized network (t38)
                    _split(chain, data, rel, root, resized, resolve, out, added)
                    continue
            if resolved is None:
                continue
            base, where = resolved
            if guessed:
                where = f"may be {base}, {where}"
        steps, told = _named_numbers(chain.steps, resolve)
        if told:
            chain = replace(chain, steps=steps)
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
        verdict = None
        for steps in bases.each_variants(chain.steps, chain.start, data):
            # (`each.value.host` read from the `for_each` object: each value it takes; the worst wins)
            judged = computed_lengths.judge(steps, move.old, move.new)
            if judged is not None and (verdict is None or judged.kind == computed_lengths.OUTSIDE):
                verdict = judged
        if verdict is None:
            continue
        at_old = network == move.old
        said = [i for i in inside if out[i].refused == REASON]
        if said and not (verdict.kind == computed_lengths.OUTSIDE and at_old):
            continue  # a residual already (computed_matches: "may spell"); a refusal is stronger
        via = (f" (its network {where})" if where else "") + (f" ({told})" if told else "")
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


_TFVARS = lazy_re.compile(r"\.tfvars(?:\.json)?:\d+")


def _overridden(found: list[tuple[str, str]], resized: list[PrefixMove]) -> bool:
    """The name's effective value (the first: terraform.tfvars or a later `*.auto.tfvars`, always
    loaded in its root module) is written in a tfvars file and is no network a move resizes, and no
    module call passes it: the expression computes from that value, never from the default."""
    if not found or any("of a module call" in why for _, why in found):
        return False
    net, why = found[0]
    if _TFVARS.search(why.split(", ")[0]) is None:
        return False
    return _network(net) not in {n for m in resized for n in (m.old, m.new)}


def _unread_moved(resolve: Resolver, resized: list[PrefixMove]) -> tuple[str, str, str] | None:
    """A definition the last resolution met but could not evaluate that spells a resized move's old
    or new network: (its text, where, the network)."""
    for entries in resolve.unread.values():
        for raw, at in entries:
            for move in resized:
                for net in (move.old, move.new):
                    if re.search(r"(?<![\w.:])" + re.escape(str(net)) + r"(?![\w/])", raw):
                        return raw, at, str(net)
    return None


_NAMED_NUMBER = lazy_re.compile(
    r"(?:var|local)\.[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*|\[(?:\"[^\"]*\"|\d+)\])*")


def _named_numbers(steps: tuple[computed_lengths.Step, ...],
                   resolve: Resolver) -> tuple[tuple[computed_lengths.Step, ...], str]:
    """`steps` with each number that is a Terraform name holding a literal integer given it
    (`cidrsubnet(var.lan, var.newbits, 1)` with `newbits` 2 in its default or tfvars: t29-33 finding
    14, a length kept in another block), and where each is written ("" where none)."""
    told: list[str] = []
    out = []
    for step in steps:
        args = list(step.args)
        for i, (arg, said) in enumerate(zip(step.args, step.said, strict=False)):
            if arg is not None or not _NAMED_NUMBER.fullmatch(said.replace(" ", "")):
                continue
            found = resolve.number(said.replace(" ", ""))
            if found is not None:
                args[i] = found[0]
                told.append(found[1])
        out.append(replace(step, args=tuple(args)))
    return tuple(out), "; ".join(told)


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


def _split(chain: computed_lengths.Chain, data: bytes, rel: str, root: Path | None, resized: list[PrefixMove],
           names: Names, out: list[Match], added: list[Match]) -> None:
    """An expression over a name no resolver read, judged by the module's own keys or said where the
    module holds a resized network (sweep/split_networks.py; t38)."""
    found = split_judged(chain, data, rel, root, resized, names)
    if found is None:
        return
    inside = [i for i, m in enumerate(out) if m.start < chain.end and chain.start < m.end]
    if any(out[i].kept is not None or out[i].refused is not None for i in inside):
        return  # decided already
    verdict, at_old = found.verdict, found.network == found.move.old
    if found.proved and verdict.kind == computed_lengths.OUTSIDE and at_old:
        note = f"`{chain.text}` (its network {found.where}): {verdict.why}"
        reason = OUTSIDE
    elif found.proved:
        reading = ("" if at_old else f"; its network is {found.network}, the new network of the move from "
                   f"{found.move.old}")
        note = (f"`{chain.text}` (its network {found.where}) computes from the length or the end of a "
                f"resized network: {verdict.why}{reading}; rewrite it for the new length by hand (or keep "
                "it with `renamer: keep`)")
        reason = REASON
    else:
        note = (f"`{chain.text}` computes from `{chain.base.removeprefix(computed_lengths.OPAQUE)}`, which "
                f"renamer does not resolve, in a module holding {found.where}, a network the move resizes "
                f"from {found.move.old} to {found.move.new}; if it computes from that network, "
                f"{verdict.why}: what it makes at the new length is not proved; check it by hand (or keep "
                "it with `renamer: keep`)")
        reason = REASON
    old = verdict.old_value or str(found.network)
    new = verdict.placed or verdict.new_value or old
    added.append(Match(chain.start, chain.end, old, new, "address", refused=reason, note=note))
