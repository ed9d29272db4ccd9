"""The reverse zones a network move needs that the repo does not declare (issue 33 item 3).

A move that changes which reverse zones answer for a network (a /24 grown to a /22 needs four
in-addr.arpa zones, not one; a /46 needs four ip6.arpa /48 zones) leaves the repo declaring only
the old set: the sweep renames the zones an old one becomes (match.py), and no text edit can
write a zone file. Where a current-state file names a zone of the move (named.conf's `zone
"40.168.192.in-addr.arpa"`, an `$ORIGIN`, a SOA owner, unbound's `local-zone:`), each zone the
new network needs that no current-state file names (nor a zone above it) is a `reverse-zone`
residual at that place: `verify` fails until it is declared. A repo that names none of the
move's zones keeps its reverse DNS elsewhere: nothing to say.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from renamer.classify import CURRENT
from renamer.prefix_moves import ZONE, ZoneChange, zone_changes, zone_name, zone_networks
from renamer.project import LoadedProject
from renamer.sweep.model import RESIDUAL, Reference
from renamer.vcs_status import worktree_lines_matching

# A reverse zone's name, whole (not the tail of an address's reverse name: `5.41.168.192...`).
_Place = tuple[str, int, int, str]  # path, line, column, the line's text
# dnsmasq writes its domains between slashes (`local=/40.168.192.in-addr.arpa/`): a name with a `/`
# on each side is one too (t36-33 finding 18), where a path's `/db.40.168...` is not.
_NAME = re.compile(r"(?i)(?:(?<![A-Za-z0-9./_-])|(?<=/)(?=(?:[0-9a-f]{1,3}\.)+(?:in-addr|ip6)\.arpa\.?/))"
                   r"((?:[0-9a-f]{1,3}\.)+(?:in-addr|ip6)\.arpa)\.?(?![A-Za-z0-9_-])")


# What a sweep would write, for a dry run: each changed file's path before -> (its path after, its bytes).
Planned = Mapping[str, tuple[str, bytes]]


def missing_zones(project: LoadedProject, prefixes: Sequence[str] = (),
                  planned: Callable[[], Planned] | None = None) -> list[Reference]:
    """A residual per zone a network move needs that no current-state file names, placed where the
    repo names the move's other zones (`prefixes`: only those inside them). `planned`: a dry run's
    reading, the files as the sweep would write them (asked only where a move needs a zone), so
    that `sweep --dry-run --strict` counts what the writing sweep and verify count (f28, finding 17)."""
    changes = [c for c in zone_changes(project.config.renames.networks) if c.add]
    if not changes:
        return []
    found = worktree_lines_matching(project.root, r"[Aa][Rr][Pp][Aa]") or []
    if planned is not None:
        found = _as_written(found, planned())
    named: dict[str, _Place] = {}
    declared: dict[tuple[str, str], dict[str, _Place]] = {}  # (path, directive): zone -> place
    for path, line, text in found:
        if project.classifier.classify(path).status != CURRENT:
            continue
        directive = _DIRECTIVE.match(text)
        for m in _NAME.finditer(text):
            place = (path, line, m.start(1) + 1, text)
            named.setdefault(m.group(1).lower(), place)
            if directive is not None:
                declared.setdefault((path, directive.group(1)), {}).setdefault(m.group(1).lower(), place)
    out = []
    for change in changes:
        anchor = _anchor(change, named)
        if anchor is None:
            continue
        places = _declaring(change, declared)  # each resolver's own lines naming the move's zones
        for needed in change.add:
            if not _served(needed, named):
                # named nowhere: said at each resolver's declaration, else where a zone of the move is
                for (path, line, column, text), _ in places or [(anchor, "")]:
                    if _inside(path, prefixes):
                        out.append(_missing(change, needed, (path, line, column, text),
                                            "which no current-state file names"))
                continue
            for (path, line, column, text), word in places:
                if _inside(path, prefixes) and not _served(needed, declared[(path, word)]):
                    # named by one resolver, not by this one (t36-33 finding 18)
                    out.append(_missing(change, needed, (path, line, column, text),
                                        f"which this file's `{word}` lines do not name (each resolver "
                                        "that answered for the old zones must answer for the new ones too)"))
    return out


def _missing(change: ZoneChange, needed: str, place: _Place, why: str) -> Reference:
    path, line, column, text = place
    zone = text[column - 1:].split("/")[0].split()[0].strip("\";.") if text else ""
    return Reference(path, line, column, needed, needed, RESIDUAL, ZONE,
                     f"{change.move.old} -> {change.move.new} needs the reverse zone {needed}, {why} "
                     f"({zone} is named here): declare it (a zone file and its server's zone statement)",
                     text.strip())


def _declaring(change: ZoneChange, declared: Mapping[tuple[str, str], Mapping[str, _Place]]
               ) -> list[tuple[_Place, str]]:
    """Each (file, directive) that declares a zone of this move to a resolver: its first such line."""
    zones = {z for pair in change.renamed for z in pair}
    zones |= {zone_name(n) for n in (*zone_networks(change.move.new), *zone_networks(change.move.old))}
    out = []
    for (_, directive), names in sorted(declared.items()):
        places = [names[z] for z in zones if z in names]
        if places:
            out.append((min(places, key=lambda p: (p[1], p[2])), directive))
    return out


def _inside(path: str, prefixes: Sequence[str]) -> bool:
    return not prefixes or any(p == "" or path == p or path.startswith(p + "/") for p in prefixes)


# The directives that declare a zone to a resolver, by the line's first word (BIND and NSD `zone`,
# Unbound `local-zone:` and the `name:` of its stub-/forward-/auth-zone clauses, Knot `domain:`,
# dnsmasq `local=/`, `server=/`, `auth-zone=`). A zone file's `$ORIGIN`, SOA and record owners are
# no declaration: one zone a file, counted over the repo (missing_zones).
_DIRECTIVE = re.compile(r"^[ \t]*-?[ \t]*(zone|local-zone|name|domain|local|server|auth-zone)[ \t]*[:=]?")


def _as_written(found: list[tuple[str, int, str]], planned: Planned) -> list[tuple[str, int, str]]:
    """The work tree's lines naming `arpa`, with each file the sweep would change read as written."""
    out = [(path, line, text) for path, line, text in found if path not in planned]
    for path, written in sorted(planned.values()):
        lines = written.decode("utf-8", "replace").splitlines()
        out += [(path, number, text) for number, text in enumerate(lines, 1) if "arpa" in text.lower()]
    return out


def _served(zone: str, named: dict[str, _Place]) -> bool:
    """Does the repo name `zone` or a zone above it (`168.192.in-addr.arpa` answers for
    41.168.192.in-addr.arpa's names where no child zone is delegated)?"""
    labels = zone.split(".")
    return any(".".join(labels[i:]) in named for i in range(len(labels) - 2))


def _anchor(change: ZoneChange, named: dict[str, _Place]) -> _Place | None:
    """Where the repo names a zone of this move: a carried one (renamed or kept) first, else an old one."""
    ordered = [new for _, new in change.renamed] + [zone_name(n) for n in zone_networks(change.move.new)]
    ordered += [old for old, _ in change.renamed] + [zone_name(n) for n in zone_networks(change.move.old)]
    return next((named[z] for z in ordered if z in named), None)
