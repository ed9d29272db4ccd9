"""A backup repository named from the machine's own name moves when the host is renamed (break-it
round 16, finding 3; the grammar is renamer/own_storage.py): each such template is a `state-name`
residual while the renames move a host, nothing rewritten."""

from __future__ import annotations

from dataclasses import replace

from renamer import backup_ids, own_storage, state_keys, state_locations, state_names
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


def literal_storage_matches(data: bytes, rel: str, matches: list[Match], *,
                            backups: bool = True) -> list[Match]:
    """`matches` with each old host name that keys state outside the repo held as a `state-name`
    residual (break-it round 23, finding 13; state_locations.py): a path component of a backup
    repository's location, a certificate lineage's name under an ACME client's folder, a name a
    tool keys its state by (state_keys.py). `backups`: False where the caller knows `data` holds none
    of own_storage.LITERALS (the native pass's answer: Matcher.rules_out), so only the other words
    are looked for."""
    if not any(m.kind == "host" and not m.refused and not m.kept for m in matches):
        return matches  # (only a host name open to rewriting is read)
    keys = state_keys.might_hold(rel, data)
    backup = backup_ids.might_hold(rel, data)  # the other backup tools' names (t36-sweep finding 08)
    if not (keys or backup or any(word in data for word in state_locations.LITERALS)
            or (backups and any(word in data for word in own_storage.LITERALS))):
        return matches
    out = []
    for m in matches:
        what = (state_locations.keyed(rel, data, m.start, m.end)
                if m.kind == "host" and not m.refused and not m.kept else None)
        key = (state_keys.keyed(rel, data, m.start, m.end)
               if keys and what is None and m.kind == "host" and not m.refused and not m.kept else None)
        if key is None and backup and what is None and m.kind == "host" and not m.refused and not m.kept:
            key = backup_ids.keyed(rel, data, m.start, m.end)
        if key is not None:  # a backup group, a lineage, a node certificate, a member identity (round 24)
            m = replace(m, refused=state_names.HELD, note=(
                f"{key} names {m.old}: the tool keeps that state under the name, and renaming it in the "
                "text does not move it (the next run opens or creates a new, empty one, or the member "
                "rejoins as a stranger); move or rename the state with its own tool first (or pin the old "
                "name on that host), then edit this line and keep it with the inline marker or a keep rule"))
        if what == "lineage":
            m = replace(m, refused=state_names.HELD, note=(
                f"a certificate lineage kept by its ACME client under the certificate's name ({m.old}): "
                "certbot, acme.sh and Caddy keep it there after the host is renamed, so the new path "
                "would name no certificate and the server would not load it; issue a certificate for "
                f"{m.new} (or rename the lineage) first, then edit this line and keep it with the inline "
                "marker"))
        elif what == "backup":
            m = replace(m, refused=state_names.HELD, note=(
                f"a backup repository named after the host ({m.old}): renamed in the "
                "text, the next run opens (restic and borg `init` create) a new, empty location and the old "
                "snapshots are no longer listed or pruned; move or copy the repository to the new name "
                "first, then edit this line and keep it with the inline marker or a keep rule"))
        out.append(m)
    return out
