"""Collisions: a new value that is already there before the sweep writes it.

After a sweep that turns `ana-ml2` into `fv-ml1`, a current-state file that
already named `fv-ml1` (another machine, a half-done migration) holds two
things under one name. That is no reason to refuse (partly migrated repos are
normal), but it must never be silent: plan, dry run and verify list each place,
and `verify --strict` fails where both meet in one structured file (YAML, JSON,
TOML, a zone), where two keys or records with one name are a real conflict.

After the move, the new values the move itself wrote are no collision: where the history
records this move (its commits' trailers, sweep/history.py), a file that held none of a new
value before the move's first commit holds only the move's own (or later) uses of it, and one
old value coming back there is one residual, not a warning per new name (newcomer C2). Every
collision is one line per file and value, with a count.

The DNS inventory is checked too: a new address that the inventory already
gives a host unrelated to the renames' new names means two names on one address.
The inventory's hosts come in as plain values (`SiteHost`): the sweep never reads
the DNS wing itself.
"""

from __future__ import annotations

import ipaddress
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from renamer import computed_values, debug, lazy_re, swallowed_spellings, vcs_status, wide_access
from renamer.classify import CURRENT
from renamer.formats import entry_lists, format_of, keylines, python_cst
from renamer.formats.yaml_rt import identity_collision
from renamer.match import new_values_matcher
from renamer.names import IPNetwork, parse_address
from renamer.occurrences import Match
from renamer.project import LoadedProject
from renamer.sweep import config_dirs, vars_names
from renamer.sweep.content import read_texts
from renamer.sweep.history import move_parent
from renamer.sweep.lines import Lines
from renamer.sweep.model import ScanResult
from renamer.sweep.network_names import Names
from renamer.vcs_command import LITERAL, git_run

SiteHost = tuple[str, str, str]  # a host of the DNS inventory: (name, address, site file as shown)


@dataclass(frozen=True)
class Collision:
    path: str
    line: int
    column: int
    value: str  # the new value already there
    olds: tuple[str, ...]  # the old values the sweep turns into it
    same_file: bool  # this file also holds one of those old values, to be rewritten
    structured: bool  # YAML, JSON, TOML or a zone file
    text: str = ""
    key_path: str | None = None
    count: int = 1  # the places in this file holding the value; the first is named
    # The sweep refuses this file: its edits would make a key, section, anchor or alias collide
    # or stop parsing (sweep/refusals.py); the dry run says so where it warns.
    refused: bool = False
    # Written already (verify, after the move): two siblings this move made one name (written_collisions).
    note: str | None = None
    recorded: bool = True  # the note compares with the file before the move's first commit
    # A growing network move swallows it (break-it round 20p, finding 9): the value stands inside
    # the new network but outside where the old one moves to; this says which move.
    swallowed: str | None = None
    # A wider network in use that a moved network lands inside (t36-33, finding 05): what it is.
    covers: str | None = None

    @property
    def strict_failure(self) -> bool:
        """What `verify --strict` fails on: both spellings in one structured file, or a value a
        grown network swallows, in any file (t29-33, finding 16: a zone statement, an ACL in
        named.conf, Samba's `hosts allow` overlap the grown network as a YAML key does)."""
        return (self.same_file and self.structured) or self.swallowed is not None or self.covers is not None

    @property
    def failing_once_written(self) -> bool:
        """Whether `verify --strict` still fails on it after the sweep wrote: a grown network's
        overlap, and an address written beside the one that stood (kept_collisions.py). Two names
        in one file are decided where they are read (written_collisions reads identities): once
        the old name is gone, verify cannot tell that it stood there (t36-sweep, finding 24: the
        sweep promised a failure that verify --strict then did not give)."""
        if self.swallowed is not None or self.covers is not None:
            return True
        return self.same_file and self.structured and parse_address(self.value) is not None

    def message(self) -> str:
        olds = ", ".join(self.olds)
        if self.note and not self.recorded:  # no commit of the move is known: a move by hand, a new file
            return (f"{self.note}: two siblings share {self.value}, the name this move gives {olds}; "
                    "rename one by hand")
        if self.note:
            return (f"{self.note}: the move turned {olds} into {self.value} beside the {self.value} that "
                    "stood here before its first commit: two siblings share one name now; rename one by hand")
        where = " in the same file" if self.same_file else ""
        here = f"already here ({self.count} places)" if self.count > 1 else "already here"
        if self.covers:
            return (f"{self.value} is {here}: {self.covers}; choose another new network, or renumber "
                    "or narrow it first")
        if self.swallowed:
            return (f"{self.value} is {here}, inside {self.swallowed}: after the sweep the grown network "
                    "overlaps what stands there (two networks, or a host of another); choose another new "
                    "network, or renumber it first")
        if self.refused:
            return (f"{self.value} is {here}, and the sweep turns {olds}{where} into it: "
                    "refused, a sweep that writes stops before its first write (see Refused)")
        return (f"{self.value} is {here}, and the sweep turns {olds}{where} into it: "
                "after the sweep two things would share one name or address; check that they are one")


def new_values(project: LoadedProject) -> tuple[bytes, ...]:
    """What a scan looks for (ScanOptions.present) so that `collisions` reads only those files."""
    renames = project.config.renames
    grows = _grows(renames.networks)  # a neighbour a grow swallows, spelled as its reverse zone (t29-33, 16)
    return tuple(dict.fromkeys([*(new.encode() for _, new in renames.hosts + renames.addresses),
                                *(_network_needle(new) for _, new in renames.networks),
                                *swallowed_spellings.literals(grows),
                                *wide_access.covering_literals(renames.networks)]))


def _network_needle(network: IPNetwork) -> bytes:
    """What every address of a new network spells (its leading whole octets; an IPv6 network's
    first group): a file holding none holds no address a network move writes."""
    if network.version == 4:
        return ".".join(str(network.network_address).split(".")[: max(1, network.prefixlen // 8)]).encode()
    return network.network_address.exploded.split(":")[0].lstrip("0").encode() + b":"


def _network_news(project: LoadedProject, into: dict[str, set[str]]) -> dict[str, set[str]]:
    """The addresses a network move writes (each rewritten reference's new value inside a new
    network, its `/len` aside), each with the old values written into it; one that is an old
    network's address too (a resize in place keeps it where it is) is none: an address that maps
    to itself collides with nothing."""
    networks = project.config.renames.networks
    out: dict[str, set[str]] = {}
    for value, olds in into.items():
        address = parse_address(value.split("/")[0])
        if address is None or not any(address in new for _, new in networks):
            continue
        if any(address in old for old, _ in networks):
            continue
        out.setdefault(value.split("/")[0], set()).update(o.split("/")[0] for o in olds)
    return out


def collisions(project: LoadedProject, scan: ScanResult, hosts: Sequence[SiteHost] = (),
               refused: Iterable[str] = ()) -> list[Collision]:
    """Every place in a current-state file (and among the DNS inventory's `hosts`) where a new
    value the scan would write stands already; nothing to look for when the scan rewrites
    nothing. The scan must have looked for `new_values(project)` (its `holding_new`). A file the
    scan refused, or `refused` names (the plan's refusals across files), is marked refused."""
    into: dict[str, set[str]] = {}  # new value -> the old values rewritten into it
    by_file: dict[str, set[str]] = {}  # path -> the new values its rewrites write
    for ref in scan.references():
        if ref.rewritable and ref.role != "path":
            into.setdefault(ref.new, set()).add(ref.old)
            by_file.setdefault(ref.path, set()).add(ref.new)
    renames = project.config.renames
    grows = _grows(renames.networks)  # what a grow swallows stands after the sweep too
    if not into and not grows and not _landings(renames.networks):
        return []
    moved = _network_news(project, into) if renames.networks else {}
    matcher = new_values_matcher([p for p in renames.hosts if p[1] in into],
                                 [p for p in renames.addresses if p[1] in into],
                                 [new for _, new in renames.networks] if moved or grows else ())
    needles = [value.encode() for value in into] + [_network_needle(new) for _, new in renames.networks]
    needles += swallowed_spellings.literals(grows)
    needles += wide_access.covering_literals(renames.networks)  # `podSubnet: 10.60.0.0/16` (t36-33, 05)
    into = {**moved, **into}
    classifier = project.classifier
    current = [rel for rel in scan.holding_new if classifier.classify(rel).status == CURRENT]
    refused = {f.path for f in scan.files if f.refused is not None} | set(refused)
    # a move with nothing left to write and no commit in the history is done already (by hand):
    # what stands where it lands is its own
    recorded = bool(renames.networks) and before_move(project) is not None
    landings = [g for g in _landings(renames.networks)
                if recorded or any(_landed(value, [g]) is not None for value in moved)]
    held: dict[str, frozenset[str] | None] = {}  # a landed value -> the files holding it before the move
    found: list[Collision] = []
    with debug.timed("collisions"):
        before = _before_move(project, list(into))
        for rel, data in read_texts(project.root, current):
            if not any(needle in data for needle in needles):
                continue
            matches = matcher.find(data)
            here = [c for c in _in_file(rel, data, matches, into, by_file.get(rel, set()))
                    if before is None or rel in before.get(c.value, frozenset())]
            here += _swallowed_in_file(rel, data, matches, grows, into, renames.networks) if grows else []
            here += _swallowed_spelled(rel, data, matches, grows, renames.networks) if grows else []
            here += _landed_on(project, rel, data, matches, landings, into, held) if landings else []
            here += _covering(rel, data, matches, renames.networks)
            here += _computed_neighbours(project, rel, data, grows, landings) if grows or landings else []
            found += [replace(c, refused=True) for c in here] if rel in refused else here
        found += _in_inventory(project, hosts, into)
        found += _swallowed_in_inventory(hosts, grows, into, renames.networks) if grows else []
        found += _landed_in_inventory(project, hosts, landings, into) if landings else []
    return found


Grow = tuple[IPNetwork, IPNetwork, int, int]  # old, new, and where the old one lands: [first, end)


def _grows(networks: Sequence[tuple[IPNetwork, IPNetwork]]) -> list[Grow]:
    """The network moves to a longer network, with the span their old network lands on."""
    out = []
    for old, new in networks:
        if new.num_addresses > old.num_addresses:
            first = int(new.network_address)
            out.append((old, new, first, first + old.num_addresses))
    return out


def _swallowing(value: str, grows: Sequence[Grow]) -> Grow | None:
    """The grow whose new network holds `value` (an address, or a network's address) outside
    where its old network lands: not its new broadcast address, which the move writes itself."""
    address = parse_address(value.split("/")[0])
    if address is None:
        return None
    for grow in grows:
        _, new, first, end = grow
        if address.version != new.version or address not in new or first <= int(address) < end:
            continue
        if new.version == 4 and new.prefixlen <= 30 and address == new.broadcast_address:
            continue
        return grow
    return None


def vacated(value: str | IPNetwork, networks: Sequence[tuple[IPNetwork, IPNetwork]]) -> bool:
    """Does another move of the same config take `value` (an address or a network) away: all of it
    inside a moved network's old range (t36-33, finding 20: `10.1.0.0/24: 10.1.0.0/23` beside
    `10.1.1.0/24: 10.9.0.0/24`)? What the grow swallows there is rewritten by the same sweep: no
    collision."""
    try:
        network = value if not isinstance(value, str) else ipaddress.ip_network(value, strict=False)
    except ValueError:
        return False
    return any(old != new and old.version == network.version and network.subnet_of(old)  # type: ignore[arg-type]
               for old, new in networks)


def _swallowed_in_file(rel: str, data: bytes, matches: Iterable[Match], grows: Sequence[Grow],
                       into: dict[str, set[str]],
                       networks: Sequence[tuple[IPNetwork, IPNetwork]] = ()) -> list[Collision]:
    """Each address or network literal a grow swallows (break-it round 20p, finding 9: `10.0.48.0/28:
    10.0.48.0/27` beside `iot: 10.0.48.16/28`), once per value with a count, as `_in_file` lists."""
    fmt = format_of(rel, data)
    lines = Lines(data)
    found = [(m, grow) for m in matches if m.refused is None and m.old not in into
             and (grow := _swallowing(m.old, grows)) is not None and not vacated(m.old, networks)]
    keys = (fmt.locate(data.decode("utf-8", "replace"), [lines.char_offset(m.start) for m, _ in found])
            if found and fmt.keys else None)
    first: dict[str, Collision] = {}
    for index, (m, grow) in enumerate(found):
        if m.old in first:
            first[m.old] = replace(first[m.old], count=first[m.old].count + 1)
            continue
        line, column, text = lines.position(m.start)
        first[m.old] = Collision(rel, line, column, m.old, (str(grow[0]),), False, fmt.structured, text,
                                 keys[index][0] if keys else None, swallowed=_grown(grow))
    return sorted(first.values(), key=lambda c: (c.line, c.column))


def _swallowed_spelled(rel: str, data: bytes, matches: Sequence[Match], grows: Sequence[Grow],
                       networks: Sequence[tuple[IPNetwork, IPNetwork]] = ()) -> list[Collision]:
    """Each reverse zone, short network or partial address naming a network a grow swallows
    (swallowed_spellings.py; t29-33, finding 16), once per value with a count, as `_in_file` lists;
    one a match covers (an address's full reverse name, a literal) is `_swallowed_in_file`'s."""
    found = [s for s in swallowed_spellings.swallowed(data, grows, rel) if not vacated(s.network, networks)
             and not any(m.start < s.end and s.start < m.end
                         and parse_address(m.old.split("/")[0]) is not None for m in matches)]
    if not found:
        return []
    fmt = format_of(rel, data)
    lines = Lines(data)
    first: dict[str, Collision] = {}
    for spelled in found:
        if spelled.text in first:
            first[spelled.text] = replace(first[spelled.text], count=first[spelled.text].count + 1)
            continue
        line, column, text = lines.position(spelled.start)
        first[spelled.text] = Collision(rel, line, column, spelled.text, (str(spelled.grow[0]),), False,
                                        fmt.structured, text, swallowed=f"{_grown(spelled.grow)} (it names "
                                                                        f"{spelled.network})")
    return sorted(first.values(), key=lambda c: (c.line, c.column))


def _covering(rel: str, data: bytes, matches: Sequence[Match],
              networks: Sequence[tuple[IPNetwork, IPNetwork]]) -> list[Collision]:
    """Each wider network in use that a moved network lands inside, which did not overlap its old
    one (wide_access.covering: a VLAN /20, a pod CIDR, a route; t36-33, finding 05), once per value
    with a count, as `_in_file` lists. An access rule's wider set admits the new network: none."""
    found = [c for c in wide_access.covering(data, networks)
             if not any(m.start < c[1] and c[0] < m.end for m in matches) and not vacated(c[2], networks)]
    if not found:
        return []
    fmt = format_of(rel, data)
    lines = Lines(data)
    first: dict[str, Collision] = {}
    for start, _, block, old, new in found:
        value = str(block)
        if value in first:
            first[value] = replace(first[value], count=first[value].count + 1)
            continue
        line, column, text = lines.position(start)
        first[value] = Collision(rel, line, column, value, (str(old),), False, fmt.structured, text,
                                 covers=f"a network in use that {new} (moved from {old}) lands inside: "
                                        "after the sweep the two overlap")
    return sorted(first.values(), key=lambda c: (c.line, c.column))


def _landings(networks: Sequence[tuple[IPNetwork, IPNetwork]]) -> list[Grow]:
    """The network moves to another place (of any length), with the span their old network lands
    on: an address already standing there is no address of the move (t31-33, finding 09). A move in
    place (its new network starting where the old one does) lands on itself: none."""
    out = []
    for old, new in networks:
        first = int(new.network_address)
        if old.version != new.version or first == int(old.network_address):
            continue
        out.append((old, new, first, first + min(old.num_addresses, new.num_addresses)))
    return out


def _landed(value: str, landings: Sequence[Grow]) -> Grow | None:
    address = parse_address(value.split("/")[0])
    if address is None:
        return None
    return next((g for g in landings if address.version == g[1].version and g[2] <= int(address) < g[3]),
                None)


def _landed_on(project: LoadedProject, rel: str, data: bytes, matches: Iterable[Match],
               landings: Sequence[Grow], into: dict[str, set[str]],
               held: dict[str, frozenset[str] | None]) -> list[Collision]:
    """Each address or network already standing where a moved network lands, that no old value
    of the move turns into (`into` lists those: `_in_file` says them): `10.0.60.5 printer` under
    `10.0.48.0/24: 10.0.60.0/22` with no 10.0.48.5 to move. After the move (its commits in the
    history) only a value this file held before the move's first commit counts: the others are
    the move's own."""
    found = [(m, grow) for m in matches if m.refused is None and m.old not in into
             and m.old.split("/")[0] not in into and (grow := _landed(m.old, landings)) is not None
             and not _is_new_network(data, m, grow[1])]
    if not found:
        return []
    parent = before_move(project)
    fmt = format_of(rel, data)
    lines = Lines(data)
    first: dict[str, Collision] = {}
    for m, grow in found:
        if parent is not None:
            if m.old not in held:
                held[m.old] = vcs_status.files_holding(project.root, parent, m.old) or frozenset()
            if rel not in (held[m.old] or frozenset()):
                continue
        if m.old in first:
            first[m.old] = replace(first[m.old], count=first[m.old].count + 1)
            continue
        line, column, text = lines.position(m.start)
        old, new, start, end = grow
        lands = f"{ipaddress.ip_address(start)}-{ipaddress.ip_address(end - 1)}"
        first[m.old] = Collision(rel, line, column, m.old, (str(old),), False, fmt.structured, text,
                                 swallowed=f"{new}, where {old} lands ({lands}), and no address of {old} "
                                           "moves onto it")
    return sorted(first.values(), key=lambda c: (c.line, c.column))


def _computed_neighbours(project: LoadedProject, rel: str, data: bytes, grows: Sequence[Grow],
                         landings: Sequence[Grow]) -> list[Collision]:
    """Each address or network an expression computes (computed_values.py: `cidrsubnet("10.0.0.0/16",
    8, 61)`, 10.0.61.0/24) standing inside a new network but outside its old one, where the old
    network lands (`landings`) or in what a grow adds (`grows`), once per value with a count, as
    `_in_file` lists (g31-gaps33: t31-33 finding 09's computed neighbour). An expression over the
    old or the new network itself is the move's own (sweep/computed_resizes.py judges it), the new
    network computed whole is the new network declared, and a network holding the new one is none."""
    names = Names(data, rel, project.root)

    def resolve(ref: str) -> str | None:
        found = names(ref)
        return found[0] if found else None

    moves = [(g[0], g[1]) for g in [*grows, *landings]]
    fmt = format_of(rel, data)
    lines = Lines(data)
    first: dict[str, Collision] = {}
    for made in computed_values.values(data, resolve):
        if any(made.base.version == net.version and made.base.subnet_of(net)  # type: ignore[arg-type]
               for pair in moves for net in pair):
            continue
        value = ipaddress.ip_network(made.value)
        if any(value.version == old.version and value.overlaps(old) for old, _ in moves):
            continue
        where = _computed_where(value, grows, landings)
        if where is None:
            continue
        shown = str(made.value)
        if shown in first:
            first[shown] = replace(first[shown], count=first[shown].count + 1)
            continue
        line, column, text = lines.position(made.start)
        old, why = where
        first[shown] = Collision(rel, line, column, shown, (str(old),), False, fmt.structured, text,
                                 swallowed=f"{why}; `{made.text}` computes it from {made.base}")
    return sorted(first.values(), key=lambda c: (c.line, c.column))


def _computed_where(value: IPNetwork, grows: Sequence[Grow],
                    landings: Sequence[Grow]) -> tuple[IPNetwork, str] | None:
    """The old network a computed value stands beside, and why (`swallowed`'s words), or None: a
    value inside the new network (not the new network itself) where the old one lands or where a
    grow adds to it."""
    low, high = int(value.network_address), int(value.broadcast_address)
    for old, new, start, end in landings:
        if value.version == new.version and value != new and start <= low and high < end:
            lands = f"{ipaddress.ip_address(start)}-{ipaddress.ip_address(end - 1)}"
            return old, f"{new}, where {old} lands ({lands}), and no address of {old} moves onto it"
    for grow in grows:
        old, new, start, end = grow
        if value.version == new.version and value != new \
                and value.subnet_of(new) and (low >= end or high < start):  # type: ignore[arg-type]
            return old, _grown(grow)
    return None


def _is_new_network(data: bytes, m: Match, new: IPNetwork) -> bool:
    """`10.10.0.0/23` where the move's new network is 10.10.0.0/23: the new network itself (declared
    ahead, or the move's own), no neighbour."""
    if m.old.split("/")[0] != str(new.network_address):
        return False
    tail = re.match(rb"[ \t]*/[ \t]*(\d{1,3})(?!\d)", data[m.end:m.end + 8])
    return m.old.endswith(f"/{new.prefixlen}") or (tail is not None and int(tail.group(1)) == new.prefixlen)


def _grown(grow: Grow) -> str:
    old, new, first, end = grow
    lands = f"{ipaddress.ip_address(first)}-{ipaddress.ip_address(end - 1)}"
    return f"{new}, which {old} grows into, outside {lands} where {old} lands"


def _swallowed_in_inventory(hosts: Sequence[SiteHost], grows: Sequence[Grow], into: dict[str, set[str]],
                            networks: Sequence[tuple[IPNetwork, IPNetwork]] = ()) -> list[Collision]:
    """An inventory host's address a grow swallows."""
    out = []
    for name, address, source in hosts:
        grow = _swallowing(address, grows) if address not in into and not vacated(address, networks) else None
        if grow is not None:
            out.append(Collision(source, 0, 0, address, (str(grow[0]),), False, True, f"{name} {address}",
                                 f"hosts[{name}]", swallowed=_grown(grow)))
    return out


def _landed_in_inventory(project: LoadedProject, hosts: Sequence[SiteHost], landings: Sequence[Grow],
                         into: dict[str, set[str]]) -> list[Collision]:
    """An inventory host's address standing where a moved network lands, that no old value of the
    move turns into (g31-gaps33: t31-33 finding 09's inventory twin). After the move (its commits in
    the history) one the site file did not hold before the move's first commit is the move's own."""
    parent = before_move(project)
    out = []
    for name, address, source in hosts:
        grow = _landed(address, landings) if address not in into else None
        if grow is None:
            continue
        if parent is not None and (project.root / source).is_file():
            held = vcs_status.files_holding(project.root, parent, address)
            if held is not None and source not in held:
                continue
        old, new, start, end = grow
        lands = f"{ipaddress.ip_address(start)}-{ipaddress.ip_address(end - 1)}"
        out.append(Collision(source, 0, 0, address, (str(old),), False, True, f"{name} {address}",
                             f"hosts[{name}]", swallowed=f"{new}, where {old} lands ({lands}), and no "
                                                         f"address of {old} moves onto it"))
    return out


def written_collisions(project: LoadedProject, scan: ScanResult) -> list[Collision]:
    """After the move (its history records a first commit): two siblings the move made one name,
    written already (by hand, or by a renamer that did not refuse it, issue 27 item 7): a block's
    head, an HAProxy section, an inventory host line, a key by line (formats/keylines.py,
    siblings.py) or a YAML list item's identifying field standing more often in a current file
    now than before the move's first commit, naming a new value. What the sweep refuses before
    it writes, `verify --strict` fails on once written."""
    parent = before_move(project)
    renames = project.config.renames
    olds: dict[str, set[str]] = {}
    for old, new in renames.hosts + renames.addresses:
        olds.setdefault(new, set()).add(old)
    if not olds:
        return []
    classifier = project.classifier
    current = [rel for rel in scan.holding_new if classifier.classify(rel).status == CURRENT]
    then = vcs_status.blobs(project.root, [f"{parent}:{rel}" for rel in current]) if parent else {}
    found: list[Collision] = []
    with debug.timed("written collisions"):
        for rel, data in read_texts(project.root, current):
            # No version before the move (a move by hand, `sed` then a commit; a file added since):
            # the file itself, each place of a new value spelled apart, so that only identities
            # naming a new value can stand more often now (break-it round 9 #5).
            recorded = f"{parent}:{rel}" in then
            if len(data) > _CHECKED_MAX:  # a dump: parsing it twice costs more than verify
                continue
            if not recorded and not repeats(data, olds):  # no identity of a new name can stand twice
                continue
            before = then[f"{parent}:{rel}"] if recorded else distinct(data, olds)
            if before == data:
                continue
            problem = _sibling_problem(rel, before, data)
            value = next((new for new in sorted(olds, key=len, reverse=True)
                          if problem and (f"'{new}" in problem or f" {new}'" in problem)), None)
            if problem is None or value is None:
                continue
            line = int(found_line.group(1)) if (found_line := _PROBLEM_LINE.match(problem)) else 0
            note = problem[found_line.end():] if found_line else problem
            # the check's words are for a sweep about to write; here the rename is written
            note = _WOULD.sub("", note).replace("after the rename the ", "the ").replace(
                "would stand twice", "stands twice")
            text = Lines(data).texts()[line - 1] if 0 < line <= len(Lines(data).texts()) else ""
            found.append(Collision(rel, line, 1, value, tuple(sorted(olds[value])), True, True, text,
                                   note=note, recorded=recorded))
    return found


_TOKEN = lazy_re.compile(rb"[^\s\"'`{}\[\]();,=:<>|]+")


def repeats(data: bytes, values: Iterable[str]) -> bool:
    """Whether some token of `data` (a run between blanks, quotes, brackets and `;,=:<>|`) naming
    one of `values` stands twice, in any case: what two identities of one name both need (a key,
    a label, a scalar, a block's head), so a file where none does is not parsed. A value with a
    colon (IPv6) is never split out of its token: then always True."""
    wanted = [value.lower().encode() for value in values]
    if any(b":" in value for value in wanted):
        return True
    named = re.compile(rb"(?<![a-z0-9_-])(?:" + b"|".join(re.escape(v) for v in wanted) + rb")(?![a-z0-9_-])")
    seen: set[bytes] = set()
    for token in _TOKEN.findall(data.lower()):
        if named.search(token) is not None:
            if token in seen:
                return True
            seen.add(token)
    return False


def distinct(data: bytes, values: Iterable[str], salt: int = 0) -> bytes:
    """`data` with each place of each of `values` (as a whole name) spelled apart from every
    other (`wolf` -> `wolf-renamer1`, `wolf-renamer2`): a text to compare with where no version
    before the move is known, in which no two things share a new value's name (`salt` sets the
    spellings of one file apart from another's: `wolf-renamer1.1`)."""
    count = 0

    def apart(found: re.Match[bytes]) -> bytes:
        nonlocal count
        count += 1
        return found.group() + b"-renamer%d.%d" % (salt, count)

    for value in sorted(values, key=len, reverse=True):
        data = re.sub(rb"(?<![A-Za-z0-9_-])" + re.escape(value.encode()) + rb"(?![A-Za-z0-9_-])", apart, data)
    return data


def merged_folders(project: LoadedProject, scan: ScanResult) -> list[Collision]:
    """After the move: a folder named by an old host name whose files now stand in the folder of
    its new name, which held files of its own before the move's first commit (`host_vars/pug/`
    merged into another host's `host_vars/wolf/`): two folders became one (issue 27 item 7)."""
    parent = before_move(project)
    if parent is None:
        return []
    done = git_run(["git", "-C", str(project.root), "ls-tree", "-r", "-z", "--name-only", parent],
                   capture_output=True, check=False, env={**os.environ, **LITERAL})
    if done.returncode != 0:
        return []
    then: dict[str, list[str]] = {}  # folder -> the files under it, relative to it
    for path in os.fsdecode(done.stdout).split("\0"):
        parts = path.split("/")
        for depth in range(1, len(parts)):
            then.setdefault("/".join(parts[:depth]), []).append("/".join(parts[depth:]))
    now = set(scan.paths)
    found: list[Collision] = []
    for old, new in project.config.renames.hosts:
        if "/" in old or "/" in new:
            continue
        for folder, files in sorted(then.items()):
            base, _, name = folder.rpartition("/")
            target = f"{base}/{new}" if base else new
            if name != old or target not in then or any(f"{folder}/{f}" in now for f in files):
                continue
            moved = [f for f in files if f"{target}/{f}" in now and f not in then[target]]
            if moved:
                found.append(Collision(
                    f"{target}/", 0, 0, new, (old,), True, True, "",
                    note=(f"{target}/ now holds what {folder}/ held ({moved[0]}"
                          f"{f' and {len(moved) - 1} more' if len(moved) > 1 else ''}) beside its own "
                          f"{then[target][0]}: two folders became one")))
    return found


def set_collisions(project: LoadedProject, scan: ScanResult) -> list[Collision]:
    """A config directory (sweep/config_dirs.py) holding a current file with a new value, whose
    files now hold a top-level label naming a new value more often than before the move's first
    commit (each new value's places spelled apart, where no version then is known): two `upstream
    wolf` in `conf.d/a.conf` and `conf.d/b.conf`, whatever commit made them."""
    renames = project.config.renames
    olds: dict[str, set[str]] = {}
    for old, new in renames.hosts + renames.addresses:
        olds.setdefault(new, set()).add(old)
    holding = set(scan.holding_new)
    chosen = [(files, check) for files, check in config_dirs.checked_sets(scan.paths, project.root)
              if any(f in holding and project.classifier.classify(f).status == CURRENT for f in files)]
    if not chosen:
        return []
    parent = before_move(project)
    everything = list(dict.fromkeys(f for files, _ in chosen for f in files))
    then = vcs_status.blobs(project.root, [f"{parent}:{f}" for f in everything]) if parent else {}
    now = dict(read_texts(project.root, everything))
    found = []
    for files, check in chosen:
        if not repeats(b"\n".join(now.get(f, b"") for f in files), olds):
            continue
        texts = {}
        for index, f in enumerate(files):
            if f not in now or len(now[f]) > _CHECKED_MAX:
                continue
            before = then.get(f"{parent}:{f}") if parent else None
            if before is None:
                before = distinct(now[f], olds, index)
            texts[f] = (before.decode("utf-8", "replace"), now[f].decode("utf-8", "replace"))
        problem = check(texts)
        value = next((new for new in sorted(olds, key=len, reverse=True)
                      if problem and (f"'{new}" in problem[2] or f" {new}'" in problem[2])), None)
        if problem is None or value is None:
            continue
        path, line, why = problem
        texts_now = Lines(now[path]).texts()
        note = why.replace("would stand", "stands").replace("after the rename ", "")
        note = note.partition(": a renamed")[0]
        found.append(Collision(path, line, 1, value, tuple(sorted(olds[value])), True, True,
                               texts_now[line - 1] if 0 < line <= len(texts_now) else "", note=note,
                               recorded=parent is not None))
    return found


def vars_collisions(project: LoadedProject, scan: ScanResult) -> list[Collision]:
    """A new host or group name that two entries of one `host_vars/` or `group_vars/` folder
    answer to now (`wolf.yml` beside `wolf/`, `wolf.yaml`: sweep/vars_names.py), more than before
    the move's first commit (than one, where no commit of the move is known): Ansible reads one
    and drops the other, whatever commit made them."""
    news = {new for _, new in project.config.renames.hosts}
    olds: dict[str, set[str]] = {}
    for old, new in project.config.renames.hosts:
        olds.setdefault(new, set()).add(old)
    now = {key: spelled for key, spelled in vars_names.entries(scan.paths).items()
           if key[1] in news and len(spelled) > 1}
    if not now:
        return []
    parent = before_move(project)
    then: dict[tuple[str, str], set[str]] = {}
    if parent is not None:
        done = git_run(["git", "-C", str(project.root), "ls-tree", "-r", "-z", "--name-only", parent],
                       capture_output=True, check=False, env={**os.environ, **LITERAL})
        then = vars_names.entries(os.fsdecode(done.stdout).split("\0")) if done.returncode == 0 else {}
    found = []
    for (folder, name), spelled in sorted(now.items()):
        if len(then.get((folder, name), set())) >= len(spelled):
            continue
        listed = " and ".join(f"{folder}/{e}" for e in sorted(spelled))
        found.append(Collision(f"{folder}/{name}", 0, 0, name, tuple(sorted(olds[name])), True, True, "",
                               note=(f"{listed} both hold {name}'s variables: Ansible reads one of them and "
                                     "drops the other's"), recorded=parent is not None))
    return found


_CHECKED_MAX = 2 * 1024 * 1024
_PROBLEM_LINE = lazy_re.compile(r"line (\d+): ")
_WOULD = lazy_re.compile(r": a renamed [\w ]+ would collide with an existing one")


def _sibling_problem(rel: str, before: bytes, after: bytes) -> str | None:
    fmt = format_of(rel, after)
    old, new = before.decode("utf-8", "replace"), after.decode("utf-8", "replace")
    if fmt.name == "yaml":
        return identity_collision(old, new) or keylines.collision(old, new)
    if fmt.name in ("text", "dns", "env", "ini"):
        return keylines.collision(old, new)
    if fmt.name == "python":  # a dict literal's key, a map built by a call (round 23 finding 10)
        return python_cst.dict_collision(old, new) or entry_lists.map_collision(old, new)
    return None


def _in_file(rel: str, data: bytes, matches: Iterable[Match], into: dict[str, set[str]],
             written_here: set[str]) -> list[Collision]:
    fmt = format_of(rel, data)
    found = [(m, m.new if m.new in into else m.old) for m in matches if m.refused is None]
    found = [(m, value) for m, value in found if value in into]
    lines = Lines(data)  # the scanner's own line, column and text lookups, in file order
    keys = (fmt.locate(data.decode("utf-8", "replace"), [lines.char_offset(m.start) for m, _ in found])
            if found and fmt.keys else None)
    first: dict[str, Collision] = {}  # value -> its first place here, counting the others
    for index, (match, value) in enumerate(found):
        if value in first:
            first[value] = replace(first[value], count=first[value].count + 1)
            continue
        line, column, text = lines.position(match.start)
        first[value] = Collision(rel, line, column, value, tuple(sorted(into[value])), value in written_here,
                                 fmt.structured, text, keys[index][0] if keys else None)
    return sorted(first.values(), key=lambda c: (c.line, c.column))


def _before_move(project: LoadedProject, values: list[str]) -> dict[str, frozenset[str]] | None:
    """Per new value, the files that held it before this move's first commit; None when the
    history records no commit of this move (before the sweep: every place counts)."""
    parent = before_move(project)
    if parent is None:
        return None
    held = {value: vcs_status.files_holding(project.root, parent, value) for value in values}
    return {value: paths or frozenset() for value, paths in held.items()}


def before_move(project: LoadedProject) -> str | None:
    """The revision just before this move's first commit, where the history records one."""
    return move_parent(project.root, project.config.name) if project.git else None


def _in_inventory(project: LoadedProject, hosts: Sequence[SiteHost],
                  into: dict[str, set[str]]) -> list[Collision]:
    """A new address the inventory gives a host that is none of the new names (or their
    derived names, `fv-ml1-bmc`): after the move, two names would answer with one address."""
    new_names = {new for _, new in project.config.renames.hosts}
    out = []
    for name, address, source in hosts:
        related = any(name == n or name.startswith(n + "-") for n in new_names)
        if address in into and not related:
            out.append(Collision(source, 0, 0, address, tuple(sorted(into[address])), False, True,
                                 f"{name} {address}", f"hosts[{name}]"))
    return out
