"""Addresses composed of variables and literal octets (the composed names' twin for addresses).

`--listen-address=${LAB_PREFIX}.5` beside `LAB_PREFIX=10.0.0` in the stack's `.env` is 10.0.0.5:
the sweep rewrites 10.0.0.5 wherever it is spelled, but `10.0.0` is no address, so the definition
stays, the composition keeps meaning the old address, and verify said OK. Each address-shaped word
holding a template (address_parts.py) is expanded over every value its variables may hold (the
loop binding it, else the definitions nearest the file, as sweep/composed.py reads them, and a
default word); where one expansion is an old address (or an old address's reverse name,
`${PTR}.${REV_ZONE}` beside `PTR=53` and `REV_ZONE=0.168.192.in-addr.arpa`), it is a residual
`composed-address` naming the variables and where each is defined. Nothing is rewritten: the
sweep renumbers no prefix or octet, since one prefix serves many addresses, some renamed, some
not (prefix renumbering is its own question), so a person decides.
"""

from __future__ import annotations

import ipaddress
import itertools
import re
from dataclasses import replace
from pathlib import Path
from typing import Protocol

from renamer import address_parts, computed_addresses, key_paths, lazy_re, loop_values
from renamer.composed_names import Template
from renamer.loop_values import Loop
from renamer.occurrences import Match
from renamer.prefix_moves import OUTSIDE
from renamer.sweep.composed import Known
from renamer.sweep.network_names import Names
from renamer.variable_values import WIDTH, Resolved

REASON = "composed-address"


class Finds(Protocol):
    """The matcher's exact pass (match.Matcher.find)."""

    def find(self, data: bytes) -> list[Match]: ...


Choice = tuple[str, tuple[str, ...]]  # the text so far, why each variable holds its part


def composed_address_matches(data: bytes, matches: list[Match], matcher: Finds, definitions: Known,
                             rel: str = "", root: Path | None = None,
                             told: list[tuple[int, int]] | None = None) -> list[Match]:
    """`matches` with a `composed-address` residual for each composition that makes an old address,
    and an `outside-prefix` one (a refusal) for each that makes an address a shrinking move cannot
    place. `told` gets the span of each word whose every variable has values (what it makes is
    known, old or not: Matcher.templated_heads says nothing more of it)."""
    added: list[Match] = []
    found_loops: list[Loop] | None = None
    words = address_parts.find(data)
    prefetch = getattr(definitions, "prefetch", None)
    if callable(prefetch):  # every variable of the file's words in one grep (issue 30)
        prefetch([v for word in words for part in word.parts if not isinstance(part, str)
                  for v in part.variables])
    for word in words:
        if any(m.start < word.end and word.start < m.end for m in matches):
            continue  # a plain match inside it (`${X:-10.0.0.5}`) is decided as it stands
        if found_loops is None:
            found_loops = loop_values.loops(data)
        choices: list[Choice] = [("", ())]
        for part in word.parts:
            if isinstance(part, str):
                choices = [(text + part, why) for text, why in choices]
                continue
            values = _values(data, part, definitions, rel, found_loops, root)
            if not values:
                choices = []
                break  # a variable nothing in the repo tells: what it makes cannot be said
            choices = [(text + value, (*why, reason)) for (text, why), (value, reason)
                       in itertools.islice(itertools.product(choices, values), WIDTH)]
        if choices and told is not None:
            told.append((word.start, word.end))
        # An expansion a shrinking move cannot place refuses the sweep, as the literal would (break-it
        # round 20p, finding 4: it was dropped, since it maps to no new address); else the first
        # that is an old address is a residual.
        found_old: Match | None = None
        for text, why in choices:
            found = matcher.find(text.encode("utf-8", "replace"))  # once: both questions read it
            outside = _outside(matcher, text, found)
            if outside is not None:
                note = f"{word.text} is {text}: {outside}; " + "; ".join(dict.fromkeys(why))
                found_old = Match(word.start, word.end, text, text, "address", refused=OUTSIDE, note=note)
                break
            old = _old_address(matcher, text, found)
            if old is None or found_old is not None:
                continue
            note = (f"{word.text} is {old[0]} (renamed {old[1]}): " + "; ".join(dict.fromkeys(why)))
            found_old = Match(word.start, word.end, old[0], old[1], "address", refused=REASON, note=note)
        if found_old is not None:
            added.append(found_old)
    if not added:
        return matches
    return sorted([*matches, *added], key=lambda m: m.start)


def _on_path(found: tuple[Resolved, ...], path: tuple[str, ...], root: Path | None) -> tuple[Resolved, ...]:
    """The definitions a dotted Jinja reference names by its whole path: `{{ networks.app.base }}`
    reads networks.app's `base`, not the first key named `base` (break-it round 21, finding 02). A
    definition in a YAML file stays where its key's path ends with the reference's; one elsewhere
    (or in a file that cannot be read) stays; where none is on the path, all stay (which one it
    reads cannot be told, so none is dropped)."""
    if root is None:
        return found
    texts: dict[str, str | None] = {}
    kept: list[Resolved] = []
    for resolved in found:
        if not resolved.via:
            kept.append(resolved)
            continue
        _variable, where, line, _raw = resolved.via[0]
        if not where.endswith((".yml", ".yaml")):
            kept.append(resolved)
            continue
        if where not in texts:
            try:
                texts[where] = (root / where).read_text("utf-8", "replace")
            except OSError:
                texts[where] = None
        text = texts[where]
        if text is None:
            kept.append(resolved)
            continue
        keys = [d.path for d in key_paths.key_defs(text, "yaml", {path[-1]}) if d.line == line]
        if not keys or any(k[-len(path):] == path for k in keys):
            kept.append(resolved)
    return tuple(kept) if kept else found


def _chart_values(found: Resolved) -> bool:
    """Is `found` given by a Helm chart's values file (values.yaml, values-prod.yaml)?"""
    path = found.via[0][1] if found.via else ""
    name = path.rsplit("/", 1)[-1]
    return name.startswith("values") and name.endswith((".yaml", ".yml"))


def _outside(matcher: Finds, text: str, found: list[Match] | None = None) -> str | None:
    """Why a shrinking network move cannot place the address `text` (its note), or None."""
    found = matcher.find(text.encode("utf-8", "replace")) if found is None else found
    if len(found) == 1 and found[0].start == 0 and found[0].end == len(text) and found[0].refused == OUTSIDE:
        return found[0].note
    return None


def _old_address(matcher: Finds, text: str, found: list[Match] | None = None) -> tuple[str, str] | None:
    """(old, new) where `text` is, whole, an old address or an old address's reverse name."""
    found = matcher.find(text.encode("utf-8", "replace")) if found is None else found
    if len(found) == 1 and found[0].start == 0 and found[0].end == len(text) and found[0].kind != "host" \
            and found[0].refused is None:
        return found[0].old, found[0].new
    return None


def _values(data: bytes, template: Template, definitions: Known, rel: str,
            found_loops: list[Loop], root: Path | None = None) -> list[tuple[str, str]]:
    """What `template` may stand for, each with why: a loop's words, else each variable's values
    (nearest definitions first), and its default word."""
    read = loop_values.read_by(data, template.start, template.end)
    loop = loop_values.binding(found_loops, read, template.start)
    if loop is not None:
        if loop.items is not None:
            return [(item, f"`{loop.variable}` is {item} in the loop at {rel}:{loop.line}")
                    for item in loop.items]
        if loop.source is None:
            return []
        items, why_not = definitions.list_items(loop.source, rel or None, loop.split, keys=loop.keys)
        return [] if why_not else [(item, f"`{loop.variable}` is {item} from `{loop.source}` at "
                                          f"{path}:{line}") for path, line, item in items]
    out: list[tuple[str, str]] = []
    unknown: list[str] = []
    helm = b".Values." in data[template.start:template.end]
    for variable in template.variables:
        found = definitions.values(variable, rel or None)
        # The definitions the template's own dialect reads first, so a note names them: Helm's
        # `.Values.x` a chart's values file, any other template anything but one (break-it round 8:
        # a Jinja `{{ prefix }}` was said to read chart/values.yaml's `net.prefix`).
        ordered = sorted(_on_path(found.found, (*template.path, variable), root) if template.path
                         else found.found, key=lambda r: _chart_values(r) != helm)
        out += [(r.value.strip(), r.why()) for r in ordered]
        unknown += [] if found.found else list(found.unknown[:1])
    if template.default is not None:
        out.append((template.default, "; ".join([*unknown, f"the default is {template.default}"])))
    return list(dict.fromkeys(out))


def computed_matches(data: bytes, matches: list[Match], matcher: Finds, olds: list[str],  # and networks
                     rel: str = "", root: Path | None = None,
                     definitions: Known | None = None) -> list[Match]:
    """`matches` with a `composed-address` residual for each address computed from a literal
    network and number (computed_addresses.py: `cidrhost("10.0.40.0/24", 11)`, `nthhost`,
    `ip_network(..)[n]`, `printf '10.0.40.%d' 11`) that is an old address (break-it round 8,
    finding 8), or, its number unknown, whose network holds one ("may spell"). Where the sweep
    rewrites the network literal itself (a network renamed), the expression follows if it then
    makes the new address; else that rewrite is refused with it, so no half is written."""
    out = list(matches)
    added: list[Match] = []
    for found in computed_addresses.computed(data, _resolver(data, rel, root, definitions)):
        inside = [i for i, m in enumerate(out) if m.start < found.end and found.start < m.end]
        if any(out[i].refused is not None or out[i].kept is not None for i in inside):
            continue  # decided already (a range, a kept line)
        on_net = [i for i in inside if out[i].start < found.net_end and found.net_start < out[i].end]
        if found.address is None:
            network = computed_addresses.addresses_of(found.network)
            held = [o for o in olds if network is not None and _in(o, network)]
            if not held or on_net:
                continue  # no old address in it, or the network itself moves (all its hosts with it)
            via = f" (its network {found.via})" if found.via else ""
            note = (f"`{found.text}`{via} may spell {held[0]}: its network {found.network} holds it and its "
                    f"host number `{found.number}` is not a literal")
            pair = _old_address(matcher, held[0]) if "/" not in held[0] else None
            old, new = pair if pair is not None else (held[0], held[0])
        elif "/" in found.address:  # `cidrsubnet("10.0.0.0/16", 8, 40)` is 10.0.40.0/24
            subnet = found.address
            address, _, length = subnet.partition("/")
            pair = _old_address(matcher, address)
            outside = _outside(matcher, address) if pair is None else None
            if outside is not None:  # a shrink leaves the subnet it makes outside the new network
                for i in inside:
                    out[i] = replace(out[i], refused=OUTSIDE, note=f"`{found.text}` is {subnet}: {outside}")
                if not inside:
                    added.append(Match(found.start, found.end, subnet, subnet, "network", refused=OUTSIDE,
                                       note=f"`{found.text}` is {subnet}: {outside}"))
                continue
            if pair is None and not on_net:
                continue  # no subnet of a renamed network (or wider than one: not read)
            # A resize in place keeps the subnet's address (no match of its own): it must stay.
            old, new = subnet, subnet if pair is None else f"{pair[1]}/{length}"
            if on_net and _follows(data, out, on_net, found, new):
                continue  # the network literal moves, and the expression makes the moved subnet
            if on_net:  # a move of another length: cidrsubnet's new bits count from the network's
                note = (f"`{found.text}` is {old}, which the move makes {new}; with its network literal "
                        "rewritten to the new length it would make another subnet (the new bits count from "
                        "the network's length): rewrite the expression by hand")
            else:
                note = (f"`{found.text}` is {old}, inside a renamed network (it moves to {new}): a literal "
                        "network and subnet number, which the sweep does not renumber; write the new "
                        "subnet's")
        else:
            pair = _old_address(matcher, found.address)
            outside = _outside(matcher, found.address) if pair is None else None
            if outside is not None:  # a shrink leaves the address it makes outside the new network
                for i in inside if inside else ():
                    out[i] = replace(out[i], refused=OUTSIDE, note=f"`{found.text}`: {outside}")
                if not inside:
                    added.append(Match(found.start, found.end, found.address, found.address, "address",
                                       refused=OUTSIDE, note=f"`{found.text}`: {outside}"))
                continue
            if pair is None:
                continue
            old, new = pair
            if on_net and _follows(data, out, on_net, found, new):
                continue  # the network literal moves, and the expression makes the new address
            if found.via and _follows_name(matcher, found, new):
                continue  # the network a name stands for is renamed where it is written: it follows
            if found.via:
                note = (f"`{found.text}` is {old} (renamed {new}): its network is {found.network} "
                        f"({found.via}) and its host number a literal, which the sweep does not renumber; "
                        "write the new address's")
            else:
                note = (f"`{found.text}` is {old} (renamed {new}): a literal network and host number, which "
                        "the sweep does not renumber; write the new address's")
        if inside:
            for i in inside:
                out[i] = replace(out[i], refused=REASON, note=note)
        else:
            added.append(Match(found.start, found.end, old, new, "address", refused=REASON, note=note))
    if not added and out == matches:
        return matches
    return sorted([*out, *added], key=lambda m: m.start)


def _follows_name(matcher: Finds, found: computed_addresses.Computed, new: str) -> bool:
    """`cidrhost(var.net, 11)` where the sweep rewrites var.net's literal default (a network
    renamed): does the renamed network make `new` at the same offset?"""
    text = found.network
    for m in sorted(matcher.find(text.encode()), key=lambda m: -m.start):
        if m.refused is None and m.kept is None:
            text = text[:m.start] + m.new + text[m.end:]
    if text == found.network:
        return False
    try:
        old_net = ipaddress.ip_network(found.network, strict=False)
        new_net = ipaddress.ip_network(text, strict=False)
        offset = int(ipaddress.ip_address(found.address or "")) - int(old_net.network_address)
        return str(new_net.network_address + offset) == new
    except ValueError:
        return False


def _resolver(data: bytes, rel: str, root: Path | None,
              definitions: Known | None = None) -> computed_addresses.Resolve:
    """What a name computing an address stands for (break-it round 9, finding 9), by
    sweep/network_names.Names, the resolver computed_resizes.py reads too (review item D8): Python's
    `NET = ip_network("10.0.40.0/24")` in the same file; Terraform's `var.net` through terraform.tfvars,
    a module call's argument or its literal `default`, `local.net`, in the module's `.tf` and
    `.tf.json` files, followed three deep; an IPv4 network only (computed_addresses reads IPv4)."""
    names = Names(data, rel, root, lambda name: _jinja_value(name, rel, definitions))

    def resolve(ref: str) -> tuple[str, str] | None:
        if ref.startswith("jinja:"):  # `{{ subnet | nthhost(70) }}`: the variable's literal value
            return _jinja_value(ref[len("jinja:"):], rel, definitions)
        for network, why in names.all(ref):
            if re.fullmatch(r"\d{1,3}(?:\.\d{1,3}){3}/\d{1,2}", network):
                return network, why
            return None
        return None

    return resolve


_LITERAL_ADDRESS = lazy_re.compile(r"""["']?(\d{1,3}(?:\.\d{1,3}){3}(?:/\d{1,2})?)["']?""")


def _jinja_value(name: str, rel: str, definitions: Known | None) -> tuple[str, str] | None:
    """What a Jinja variable an Ansible address filter reads holds, where a definition nearest the
    file gives it a literal network or address (break-it round 21, finding 31)."""
    if definitions is None:
        return None
    for found in definitions.values(name, rel or None).found:
        literal = _LITERAL_ADDRESS.fullmatch(found.value.strip())
        if literal is not None:
            return literal.group(1), found.why()
    return None


def _in(old: str, network: ipaddress.IPv4Network | ipaddress.IPv6Network) -> bool:
    """Is the old address in `network` (an old network: do they overlap)?"""
    try:
        if "/" in old:
            other = ipaddress.ip_network(old, strict=False)
            return other.version == network.version and network.overlaps(other)
        return ipaddress.ip_address(old) in network
    except ValueError:
        return False


def _follows(data: bytes, out: list[Match], on_net: list[int], found: computed_addresses.Computed,
             new: str) -> bool:
    """Does the expression make `new` once the matches on its network literal are written?"""
    text = data[found.start:found.end]
    for i in sorted(on_net, key=lambda i: -out[i].start):
        m = out[i]
        text = text[:m.start - found.start] + m.new.encode() + text[m.end - found.start:]
    again = list(computed_addresses.computed(text))
    return len(again) == 1 and again[0].address == new
