"""A backup repository named from the machine's own name moves when the host is renamed (break-it
round 16, finding 3; the grammar is renamer/own_storage.py): each such template is a `state-name`
residual while the renames move a host, nothing rewritten."""

from __future__ import annotations

from renamer import own_storage, state_names
from renamer.occurrences import Match


def own_storage_matches(data: bytes, rel: str, matches: list[Match],
                        hosts: tuple[tuple[str, str], ...]) -> list[Match]:
    """`matches` with a residual on each machine's-own-name template in a backup location."""
    moved = [(old, new) for old, new in hosts if "." not in old.rstrip(".")] or list(hosts)
    if not moved or not own_storage.might_hold(data):
        return matches
    found = list(own_storage.locations(rel, data))
    if not found:
        return matches
    old, new = moved[0]
    names = ", ".join(f"{o} -> {n}" for o, n in moved[:3]) + (", ..." if len(moved) > 3 else "")
    added = []
    for start, end, text in found:
        if any(m.start < end and start < m.end for m in matches):
            continue
        note = (f"a backup repository or copy destination named from the machine's own name (`{text}`): on a "
                f"renamed host ({names}) it names a new, empty location (restic, borg and resticprofile's "
                "`initialize` create it without a word, rsync and rclone a fresh full copy) and the old "
                "snapshots are no longer listed or pruned; move or "
                "copy the repository to the new name first (or pin the old name on that host), then keep "
                "this line with the inline marker or a keep rule")
        added.append(Match(start, end, old, new, "host", refused=state_names.HELD, note=note))
    return sorted([*matches, *added], key=lambda m: m.start) if added else matches
