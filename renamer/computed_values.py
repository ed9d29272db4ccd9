"""The addresses and networks an expression computes from a network (t31-33 finding 09, g31-gaps33).

`cidrsubnet("10.0.0.0/16", 8, 61)` is 10.0.61.0/24 to Terraform: no byte spells it, so a network
move onto 10.0.60.0/22 saw no neighbour there. `values` evaluates each expression computed_lengths
reads (Terraform's cidrhost/cidrsubnet/cidrsubnets, Ansible's filters, Python's ipaddress, Go,
JavaScript, Ruby, Bicep, CloudFormation) whose every number is a literal, over its base network (a
literal, or what `resolve` makes of a name), as its tool computes it; the collision check
(sweep/collisions.py) asks which value stands inside a new network. Pure: bytes in, values out.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from renamer import computed_lengths
from renamer.computed_lengths import Address, Network

Resolve = Callable[[str], str | None]  # a name's literal network (`var.net`: "10.0.0.0/16"), or None


@dataclass(frozen=True)
class Computed:
    """An expression at [start, end) of the bytes: its text, its base network and what it makes."""

    start: int
    end: int
    text: str
    base: Network
    value: Address | Network


def _network(text: str) -> Network | None:
    try:
        return ipaddress.ip_network(text, strict=False)
    except ValueError:
        return None


def values(data: bytes, resolve: Resolve | None = None) -> Iterator[Computed]:
    """Each value of each expression of `data` with literal numbers over a known network."""
    if not computed_lengths.might_hold(data):
        return
    for chain in computed_lengths.chains(data):
        if any(a is None for step in chain.steps for a in step.args):
            continue  # a number that is no literal: any value (judged under a resize elsewhere)
        if chain.literal:
            base_text: str | None = chain.base
        elif resolve is not None and not chain.base.startswith(computed_lengths.OPAQUE):
            base_text = resolve(chain.base)
        else:
            base_text = None
        base = _network(base_text) if base_text is not None else None
        if base is None:
            continue
        try:
            value = computed_lengths.evaluate(chain.steps, base)
        except (computed_lengths.NoValue, ValueError, IndexError, TypeError):
            continue
        made = value if isinstance(value, tuple) else (value,)
        for one in made:
            if isinstance(one, (ipaddress.IPv4Address, ipaddress.IPv6Address, ipaddress.IPv4Network,
                                ipaddress.IPv6Network)):
                yield Computed(chain.start, chain.end, chain.text, base, one)
