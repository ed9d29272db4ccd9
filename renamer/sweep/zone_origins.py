"""The zone each zone file in the repo holds, where a name server's configuration in the repo says
so (formats/server_zones.py): `zone "50.250.10.in-addr.arpa" { file "db.10.250.50"; };`, and the
files such a zone `$INCLUDE`s, with the origin in force at the directive.

Nothing from the repo is trusted as a path: a configured path (`/etc/bind/db.10.250.50`,
`../zones/db.lab`) is only compared with the repo's own file list, by its trailing components,
and a name two repo files could answer to names neither. Configuration files are read like any
scanned file (no link followed, no file over `max_file_size`).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from renamer import ignore, lazy_re, vcs_listing, vcs_status
from renamer.formats.server_zones import bind_includes, server_zone_files
from renamer.formats.zone import is_zone
from renamer.formats.zone_names import includes, zone_names
from renamer.sweep.content import read_content

# Where server configuration lives by name: named.conf, named.conf.local, zones.conf, nsd.conf,
# knot.conf, unbound.conf, their templates (`.j2`), and any `*.conf`.
_CONFIG_NAME = lazy_re.compile(r"(?:named|bind|nsd|knot|unbound|zones?)\b.*|.*\.conf(?:\.[a-z0-9]+)?",
                          re.IGNORECASE)


def _none(rel: str) -> bool:
    return False


@dataclass(frozen=True)
class ZoneMap:
    # (repo path, origin, zone) for each zone file the configuration names (origin and zone are the
    # zone's name) and each file a known zone `$INCLUDE`s, in path order.
    origins: tuple[tuple[str, str, str], ...] = ()
    parents: tuple[tuple[str, str], ...] = ()  # (fragment, a zone file whose $INCLUDE names it)
    # Files some zone may `$INCLUDE` but whose zone is not known for certain: zones of two origins
    # include it, or an `$INCLUDE` path names it and other repo files alike. Neither its origin
    # nor the serial to bump is known (sweep/zone_serials.py says so).
    unsure: tuple[str, ...] = ()


def zone_origins(root: Path, files: Sequence[str], limit: int,
                 record: Callable[[str], bool] = _none) -> tuple[tuple[str, str, str], ...]:
    """(repo path, origin, zone) for each zone file the configuration names (origin and zone are
    the zone's name) and each file such a zone `$INCLUDE`s, in path order."""
    return zone_map(root, files, limit, record).origins


def zone_map(root: Path, files: Sequence[str], limit: int, record: Callable[[str], bool] = _none) -> ZoneMap:
    """zone_origins, and which zone file includes each fragment. `record`: whether a path is a
    record (a backup, an archive): no server loads it, so it is never read as configuration nor
    as a zone including others (a backed-up named.conf naming a zone file anew would make the
    live one's origin ambiguous)."""
    listed = set(files)
    by_name: dict[str, list[str]] = {}
    for rel in files:
        by_name.setdefault(posixpath.basename(rel), []).append(rel)
    queue = [rel for rel in files if _CONFIG_NAME.fullmatch(posixpath.basename(rel)) and not record(rel)]
    seen: set[str] = set()
    found: dict[str, set[str]] = {}
    while queue:
        rel = queue.pop()
        if rel in seen:
            continue
        seen.add(rel)
        content = read_content(f"{root}/{rel}", limit)
        if content is None or content.kind != "text":
            continue
        for origin, path in server_zone_files(content.data):
            target = _in_repo(rel, path, listed, by_name)
            if target is not None and target != rel:
                found.setdefault(target, set()).add(origin)
        for path in bind_includes(content.data):
            target = _in_repo(rel, path, listed, by_name)
            if target is not None:
                queue.append(target)
    # A zone's `$INCLUDE`d files are read against the origin where the directive stands, and
    # belong to that zone. A file that two statements give different zones (two views) is left out.
    out: dict[str, tuple[str, str]] = {rel: (next(iter(o)),) * 2 for rel, o in found.items() if len(o) == 1}
    ambiguous = {rel for rel, o in found.items() if len(o) > 1}
    zones: list[tuple[str, tuple[str | None, str]]] = [(rel, o) for rel, o in sorted(out.items())]
    zones += _self_named(root, files, limit, set(out) | ambiguous, record)
    parents: dict[str, set[str]] = {}
    read: set[str] = set()
    while zones:
        rel, (start, apex) = zones.pop()
        if rel in read:
            continue
        read.add(rel)
        content = read_content(f"{root}/{rel}", limit)
        if content is None or content.kind != "text" or b"$include" not in content.data.lower():
            continue
        for path, given in includes(content.data, start):
            named = _candidates(rel, path, listed, by_name)
            if len(named) > 1:  # `/etc/bind/hosts.inc` and two repo files called hosts.inc
                for target in named:
                    ambiguous.add(target)
                    out.pop(target, None)
                    parents.pop(target, None)
                continue
            target = named[0] if named else None
            if target is None or target == rel or target in ambiguous:
                continue
            if out.get(target, (given, apex)) != (given, apex):
                ambiguous.add(target)
                out.pop(target, None)
                parents.pop(target, None)
                continue
            out[target] = (given, apex)
            # Two files of one zone (two views) may include it: each one's serial is bumped.
            parents.setdefault(target, set()).add(rel)
            zones.append((target, (given, apex)))
    return ZoneMap(tuple(sorted((rel, origin, apex) for rel, (origin, apex) in out.items())),
                   tuple(sorted((rel, by) for rel, including in parents.items() for by in including)),
                   tuple(sorted(ambiguous)))


_INCLUDE_LINE = "^[$][Ii][Nn][Cc][Ll][Uu][Dd][Ee]"  # ERE and PCRE alike: $INCLUDE in any case


def _self_named(root: Path, files: Sequence[str], limit: int, known: set[str],
                record: Callable[[str], bool]) -> list[tuple[str, tuple[str | None, str]]]:
    """(path, (origin, apex)) of each zone file no configuration names that `$INCLUDE`s a file and
    says its own zone (`$ORIGIN`, or an absolute SOA owner): its includes are read against the
    origin in force where each directive stands. The origin it starts with is its SOA owner's
    (the zone's name) where that can be read, else unknown (None) until its first `$ORIGIN`."""
    out: list[tuple[str, tuple[str | None, str]]] = []
    # A directive starts its line: git grep finds the few files holding one, in parallel in C, where
    # reading every file here first would cost a 40k-file repo seconds (None outside git: read them).
    holding = vcs_status.worktree_files_holding(root, _INCLUDE_LINE)
    for rel in files:
        if rel in known or (holding is not None and rel not in holding) or record(rel):
            continue
        content = read_content(f"{root}/{rel}", limit)
        if content is None or content.kind != "text" or b"$include" not in content.data.lower():
            continue
        if not is_zone(content.data):
            continue
        names = zone_names(content.data)
        if names.apex is not None:
            out.append((rel, (names.soa, names.apex)))
    return out


def listed_zone_origins(root: Path, git: bool, limit: int,
                        record: Callable[[str], bool] = _none) -> tuple[tuple[str, str, str], ...]:
    """zone_origins over the repo's files as a scan lists them (git's tracked files, else the
    walk): for a command that scans one file (`explain`) as the sweep would."""
    files = vcs_listing.ls_files(root, "--cached") if git else ignore.walk(root)[0]
    return zone_origins(root, files, limit, record)


def _in_repo(config: str, path: str, listed: set[str], by_name: dict[str, list[str]]) -> str | None:
    """The repo file a configured path names: beside the configuration or at the repo root when
    relative, else the one repo file sharing the most trailing components with it."""
    named = _candidates(config, path, listed, by_name)
    return named[0] if len(named) == 1 else None


def _candidates(config: str, path: str, listed: set[str], by_name: dict[str, list[str]]) -> list[str]:
    """The repo files a configured path may name: the one beside the configuration or at the repo
    root when relative, else those sharing the most trailing components with it (two or more:
    it names none for certain)."""
    if not path or "\0" in path:
        return []
    if not path.startswith("/"):
        for base in (posixpath.dirname(config), ""):
            joined = posixpath.normpath(posixpath.join(base, path))
            if joined in listed:
                return [joined]
    parts = [p for p in path.split("/") if p not in ("", ".")]
    if not parts or parts[-1] == "..":
        return []
    best: list[str] = []
    best_depth = 0
    for rel in by_name.get(parts[-1], []):
        depth = _shared_tail(rel.split("/"), parts)
        if depth > best_depth:
            best, best_depth = [rel], depth
        elif depth == best_depth:
            best.append(rel)
    return best


def _shared_tail(a: list[str], b: list[str]) -> int:
    n = 0
    while n < len(a) and n < len(b) and a[-1 - n] == b[-1 - n]:
        n += 1
    return n
