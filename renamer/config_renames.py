"""renamer.yaml's `renames:`: the host, address and network pairs, each value checked for what it
claims to be."""

from __future__ import annotations

import ipaddress
from typing import Any

from renamer.config import Renames
from renamer.formats.yaml_source import Problems, check_mapping, kind, shown
from renamer.names import (
    IPNetwork,
    host_name_problem,
    parse_address,
    parse_network,
)
from renamer.prefix_moves import resize_problem

_RENAME_KEYS = {"hosts", "addresses", "networks", "merges"}


def read_renames(top: dict[str, Any], problems: Problems) -> Renames:
    raw = top.get("renames")
    if raw is None:
        problems.add(top, None, "renames", "missing: nothing to rename")
        return Renames((), (), ())
    section = check_mapping(raw, "renames", _RENAME_KEYS, problems, top, "renames")
    if section is None:
        return Renames((), (), ())
    hosts = _pairs(section, "hosts", problems, _host_problem)
    addresses = _pairs(section, "addresses", problems, _address_problem)
    for old, new in addresses:
        a, b = parse_address(old), parse_address(new)
        if a and b and a.version != b.version:
            problems.add(section["addresses"], old, f"renames.addresses.{old}",
                         f"maps IPv{a.version} to IPv{b.version}")
    networks: list[tuple[IPNetwork, IPNetwork]] = []
    for old, new in _pairs(section, "networks", problems, _network_problem):
        a_net, b_net = parse_network(old), parse_network(new)
        assert a_net is not None and b_net is not None
        why = resize_problem(a_net, b_net)  # any length: prefix_moves.py
        if why is not None:
            problems.add(section["networks"], old, f"renames.networks.{old}", why)
            continue
        networks.append((a_net, b_net))
    if not (hosts or addresses or networks) and not problems.items:
        problems.add(section, None, "renames", "no hosts, addresses or networks to rename")
    merges = _merges(section, hosts + addresses, problems)
    for key, pairs in (("hosts", hosts), ("addresses", addresses)):
        _check_many_to_one(section, key, pairs, merges, problems)
    if not problems.items:
        _check_derived_many_to_one(section, hosts, merges, problems, derived=_derives(top))
    if not problems.items:
        _check_one_address(section, addresses, networks, merges, problems)
    _check_one_dns_name(section, hosts, problems)
    return Renames(tuple(hosts), tuple(addresses), tuple(networks),
                   tuple((new, tuple(olds)) for new, olds in merges.items()))


def _merges(section: dict[str, Any], pairs: list[tuple[str, str]],
            problems: Problems) -> dict[str, list[str]]:
    """renames.merges: `new: [old, old, ...]`, each old a rename of this file that maps to `new`."""
    raw = section.get("merges")
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        problems.add(section, "merges", "renames.merges",
                     f"expected a mapping of new: [old, old], got {kind(raw)}")
        return {}
    news = dict(pairs)
    out: dict[str, list[str]] = {}
    for new, olds in raw.items():
        where = f"renames.merges.{new}"
        if not isinstance(olds, list) or not all(isinstance(o, str) for o in olds) or len(set(olds)) < 2:
            problems.add(raw, new, where, "expected a list of two or more old names that become this one")
            continue
        wrong = [o for o in olds if news.get(o) != new]
        if wrong:
            problems.add(raw, new, where, f"{shown(wrong[0])} is not renamed to {shown(new)} under "
                         "renames.hosts or renames.addresses")
            continue
        out[str(new)] = list(dict.fromkeys(olds))
    return out


def _check_many_to_one(section: dict[str, Any], key: str, pairs: list[tuple[str, str]],
                       merges: dict[str, list[str]], problems: Problems) -> None:
    """Two old values that become one new value are a merge of two machines: refused unless
    renames.merges lists them, since every file naming both would then name one twice."""
    first: dict[str, str] = {}
    for old, new in pairs:
        other = first.setdefault(new, old)
        if other == old or set(merges.get(new, ())) >= {other, old}:
            continue
        problems.add(section[key], old, f"renames.{key}.{old}",
                     f"{shown(other)} and {shown(old)} both become {shown(new)}: two old values cannot "
                     "become one unless listed as an intended merge "
                     f"(renames.merges: {{{new}: [{other}, {old}]}})")


def _derives(top: dict[str, Any]) -> bool:
    options = top.get("options")
    return isinstance(options, dict) and options.get("derived_names") is True


def _check_derived_many_to_one(section: dict[str, Any], pairs: list[tuple[str, str]],
                               merges: dict[str, list[str]], problems: Problems, *, derived: bool) -> None:
    """Two machines that become one name through a rename renamer derives (outside pass t28,
    finding 11): `web01: app01` carries web01's FQDN along (`web01.lab` becomes `app01.lab`), and
    with `derived_names: true` its derived names too (`web01-db` becomes `app01-db`). Beside
    `web02.lab: app01.lab` (or `db01: app01-db`) two old names become one: refused at load as a
    direct many-to-one is, unless the derived name is listed as a rename of its own and the two
    as an intended merge. An FQDN counts where the other old name stands in the same domain
    (`web02.lab` beside `web01.lab`), and where another machine moves into a domain
    (`web02.ana.lan: app01.fv.lan`: `web01.fv.lan` would become `app01.fv.lan` too, and the short
    name app01 would name two machines there); one machine's own move to another domain
    (`web01.ana.lan: app01.fv.lan`) derives none. Names compare in any case (DNS)."""
    olds = {old.lower() for old, _ in pairs}
    separators = (".", "-") if derived else (".",)
    for old, new in pairs:
        for other, other_new in pairs:
            for sep in separators:
                head = (new + sep).lower()
                if other == old or not other_new.lower().startswith(head) or len(other_new) == len(head):
                    continue
                tail = other_new[len(head):]
                follows = old + sep + tail
                if follows.lower() == other.lower() or follows.lower() in olds:
                    continue  # the derived name is the other rename itself, or a rename of its own
                moved = sep == "." and not other.lower().endswith("." + tail.lower())
                if moved and other.split(".", 1)[0].lower() == old.lower():
                    continue  # one machine moved to another domain (`ana-ml2: fv-ml1` beside
                    # `ana-ml2.ana.lan: fv-ml1.fv.lan`): the FQDN it carries there is its own
                how = "the FQDN" if sep == "." else "a derived name (derived_names: true)"
                if moved:  # another machine moved into the domain (t28 finding 11, the rest)
                    how = f"the FQDN in {other_new.split('.', 1)[1]}, where {shown(other)} moves,"
                problems.add(section["hosts"], other, f"renames.hosts.{other}",
                             f"{shown(other)} and {shown(follows)} ({how} of {shown(old)}: {shown(new)}) "
                             f"both become {shown(other_new)}: two old values cannot become one unless "
                             f"listed as an intended merge (add {follows}: {other_new} under renames.hosts "
                             f"and renames.merges: {{{other_new}: [{follows}, {other}]}})"
                             + (f"; for two machines of one short name in two domains, rename {old} by its "
                                "FQDN instead of its short name" if moved else ""))
                return


def _check_one_address(section: dict[str, Any], pairs: list[tuple[str, str]],
                       networks: list[tuple[IPNetwork, IPNetwork]], merges: dict[str, list[str]],
                       problems: Problems) -> None:
    """Two old addresses that become one address by another route than one spelling (break-it
    round 21, finding 18): two spellings of one IPv6 address (`fd00:0::9`, `FD00::9`), or an
    address renamed onto the place a moved network gives another address (`10.0.2.5: 10.0.1.5`
    beside `10.0.0.0/24: 10.0.1.0/24`, which moves 10.0.0.5 there too). Each is two machines on one
    address: refused at load unless listed as an intended merge, as for one spelling."""
    olds = {str(parse_address(old)): old for old, _ in pairs if parse_address(old) is not None}
    first: dict[str, str] = {}  # the new address, as ipaddress writes it -> the old that takes it
    for old, new in pairs:
        a, b = parse_address(old), parse_address(new)
        if a is None or b is None:
            continue
        other = first.setdefault(str(b), old)
        if other != old and str(parse_address(other)) != str(a) and not _merged(merges, new, other, old):
            problems.add(section["addresses"], old, f"renames.addresses.{old}",
                         f"{shown(other)} and {shown(old)} both become {shown(new)} (one address, spelled "
                         "two ways): two old values cannot become one unless listed as an intended merge "
                         f"(renames.merges: {{{new}: [{other}, {old}]}})")
            return
        for old_net, new_net in networks:
            if b.version != new_net.version or b not in new_net:
                continue
            offset = int(b) - int(new_net.network_address)
            if offset >= old_net.num_addresses:
                continue  # a grown network's part no old address moves to
            moved = ipaddress.ip_address(int(old_net.network_address) + offset)
            if moved == a or str(moved) in olds:
                continue  # the address itself, or one this file renames on its own
            problems.add(section["addresses"], old, f"renames.addresses.{old}",
                         f"{shown(old)} and {moved} (moved by renames.networks {old_net}: {new_net}) both "
                         f"become {shown(new)}: two machines cannot share one address; give {moved} an "
                         "address of its own under renames.addresses, or, for an intended merge, rename it "
                         f"to {shown(new)} there too and list both "
                         f"(renames.merges: {{{new}: [{old}, {moved}]}})")
            return


def _merged(merges: dict[str, list[str]], new: str, *olds: str) -> bool:
    return any(set(listed) >= set(olds) for key, listed in merges.items()
               if str(parse_address(key)) == str(parse_address(new)))


def _check_one_dns_name(section: dict[str, Any], pairs: list[tuple[str, str]], problems: Problems) -> None:
    """DNS names match in any case (RFC 4343), and so does renamer in DNS files: two host keys that
    differ only in case (`pug`, `PUG`) are one name there, so they must become one name; and two
    names that become one name in another case (`pug: wolf`, `rex: WOLF`) merge two machines in DNS.
    Refused at load, like the other renames that cannot be applied together."""
    olds: dict[str, tuple[str, str]] = {}  # folded old -> (old, new)
    news: dict[str, tuple[str, str]] = {}  # folded new -> (old, new)
    for old, new in pairs:
        seen = olds.setdefault(old.lower(), (old, new))
        if seen[0] != old and seen[1].lower() != new.lower():
            problems.add(section["hosts"], old, f"renames.hosts.{old}",
                         f"{shown(seen[0])} and {shown(old)} are one DNS name (DNS names match in any "
                         f"case, so does renamer in DNS files) but become {shown(seen[1])} and {shown(new)}: "
                         "give them one new name, or drop one")
            continue
        other = news.setdefault(new.lower(), (old, new))
        if other[1] != new and other[0].lower() != old.lower():
            problems.add(section["hosts"], old, f"renames.hosts.{old}",
                         f"{shown(other[0])} and {shown(old)} become {shown(other[1])} and {shown(new)}, "
                         "one DNS name (DNS names match in any case): two machines cannot become one "
                         "name unless spelled alike and listed as an intended merge (renames.merges)")


def _pairs(section: dict[str, Any], key: str, problems: Problems,
           invalid: Any) -> list[tuple[str, str]]:
    raw = section.get(key)
    if raw is None:
        return []
    keypath = f"renames.{key}"
    if not isinstance(raw, dict):
        problems.add(section, key, keypath, f"expected a mapping of old: new, got {kind(raw)}")
        return []
    pairs = []
    for old, new in raw.items():
        where = f"{keypath}.{old}"
        if isinstance(old, (int, float)) and not isinstance(old, bool):
            # YAML reads `12345:` as a number: as a string it would be refused as all digits
            problems.add(raw, old, where, f"YAML reads this key as the number {old}: a host "
                         "name or an address is a string, and a name is never all digits (RFC 1123 2.1)")
            continue
        if not isinstance(old, str):
            problems.add(raw, old, f"{keypath}[{kind(old)}]", f"a key must be a name or an address, "
                         f"got {kind(old)} (a YAML complex key?)")
            continue
        if not isinstance(new, str):
            problems.add(raw, old, where, f"expected old: new strings, got {kind(new)}")
            continue
        why = invalid(old) or invalid(new)
        if why:
            problems.add(raw, old, where, why)
            continue
        if old == new:
            problems.add(raw, old, where, "old and new are the same")
            continue
        pairs.append((old, new))
    return pairs


def pair_kind(old: str, new: str) -> str:
    """Which of `renames:` keys takes `old: new` (`init --from OLD=NEW`): a pair spelled with a
    prefix length on either side is a network move, one of addresses an address rename, the
    rest a host rename."""
    if "/" in old or "/" in new:
        return "networks"
    return "hosts" if parse_address(old) is None and parse_address(new) is None else "addresses"


def pair_problem(old: str, new: str) -> str | None:
    """Why `old: new` is no rename renames.hosts, renames.addresses or renames.networks would take
    (the same checks, for `init --from OLD=NEW`, before anything is written), or None."""
    if pair_kind(old, new) == "networks":
        why = _network_problem(old) or _network_problem(new)
        if why is None:
            a_net, b_net = parse_network(old), parse_network(new)
            assert a_net is not None and b_net is not None
            why = (f"maps IPv{a_net.version} to IPv{b_net.version}" if a_net.version != b_net.version
                   else resize_problem(a_net, b_net))
        return why or ("old and new are the same" if old == new else None)
    a, b = parse_address(old), parse_address(new)
    if a is None and b is None:
        why = _host_problem(old) or _host_problem(new)
    elif a is None or b is None:
        why = "maps a host name to an address (or back)"
    else:
        why = _address_problem(old) or _address_problem(new)
        if why is None and a.version != b.version:
            why = f"maps IPv{a.version} to IPv{b.version}"
    return why or ("old and new are the same" if old == new else None)


def _host_problem(value: str) -> str | None:
    if parse_address(value) is not None:
        return f"{shown(value)} is an address: list it under renames.addresses"
    # no final dot: `ana-ml2.ana.lan` already matches `ana-ml2.ana.lan.` (the dot stays), while a
    # dot on one side only would turn a zone file's absolute names relative, or the reverse
    return host_name_problem(value, absolute=False)


def _address_problem(value: str) -> str | None:
    if "%" in value:  # Python's ipaddress takes `fe80::1%eth0`; nothing that renders one does
        return (f"{shown(value)} is a scoped address (%zone): the zone names a link on one machine, not "
                "part of the address; rename the address without it")
    if parse_address(value) is None:
        return f"invalid address {shown(value)}"
    return None


def _network_problem(value: str) -> str | None:
    if "/" not in value and parse_address(value) is not None:
        # Python reads a bare address as a /32 (/128): under `networks:` it is far more likely an
        # abbreviated /24 or a typo than a one-address network, so nothing is assumed
        return (f"{shown(value)} has no length: a network needs its length (/N); use "
                "renames.addresses for one address")
    if parse_network(value) is None:
        return f"invalid network {shown(value)} (expected e.g. 10.250.0.0/16 with no host bits set)"
    return None
