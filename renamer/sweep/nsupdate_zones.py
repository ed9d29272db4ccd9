"""An nsupdate script's `zone` and the names its `update` lines change (break-it round 19,
finding 17): `zone ana.lan` then `update add pug.ana.lan. 3600 A 10.0.40.11` (a heredoc, a file
given to `nsupdate -l`). With `pug.ana.lan -> wolf.fv.lan` the sweep wrote `update add wolf.fv.lan.`
under `zone ana.lan`: nsupdate then fails NOTZONE, the record is never moved. Each such name whose
new name lies outside the zone the script names is a `zone-owner` residual, as a zone file's owner
moving out of its zone is; one whose new name stays in the zone follows, and so does a `zone` line
the renames move with it (`ana.lan -> fv.lan`).
"""

from __future__ import annotations

from dataclasses import replace

from renamer import lazy_re
from renamer.occurrences import Match

_ZONE = lazy_re.compile(rb"(?m)^[ \t]*zone[ \t]+(?P<zone>[A-Za-z0-9._-]+?)\.?[ \t]*(?:;[^\n]*)?$")
_UPDATE = lazy_re.compile(rb"(?m)^[ \t]*(?:update[ \t]+)?(?:add|del|delete)[ \t]+(?P<name>[A-Za-z0-9._*-]+)")
_SEND = lazy_re.compile(rb"(?m)^[ \t]*(?:send|zone[ \t])")


def _inside(name: str, zone: str) -> bool:
    name, zone = name.rstrip(".").lower(), zone.rstrip(".").lower()
    return name == zone or name.endswith("." + zone)


def nsupdate_matches(data: bytes, matches: list[Match], hosts: tuple[tuple[str, str], ...]) -> list[Match]:
    """`matches` with each `update` name whose new name leaves the script's zone refused."""
    if not matches or b"zone" not in data or _ZONE.search(data) is None:
        return matches
    renamed = {old.rstrip(".").lower(): new.rstrip(".") for old, new in hosts}
    out = list(matches)
    for zone in _ZONE.finditer(data):
        zone_name = zone.group("zone").decode("ascii", "replace")
        new_zone = renamed.get(zone_name.lower(), zone_name)
        following = _SEND.search(data, zone.end())  # the block ends at the next `send` or `zone`
        stop = following.start() if following is not None else len(data)
        for update in _UPDATE.finditer(data, zone.end(), stop):
            name = update.group("name").decode("ascii", "replace")
            if not _inside(name, zone_name):
                continue
            for i, m in enumerate(out):
                if m.start < update.start("name") or m.start >= update.end("name") or m.refused or m.kept:
                    continue
                new_name = data[update.start("name"):update.end("name")].decode("ascii", "replace")
                new_name = new_name[:m.start - update.start("name")] + m.new + \
                    new_name[m.end - update.start("name"):]
                if _inside(new_name, new_zone):
                    continue
                line = data.count(b"\n", 0, zone.start()) + 1
                command = update.group().decode("ascii", "replace").strip()
                note = (f"nsupdate's `zone {zone_name}` (line {line}) with "
                        f"`{command}`: the new name {new_name.rstrip('.')} "
                        f"lies outside the zone, so nsupdate would fail NOTZONE; move the update to a `zone` "
                        f"block of the new name's zone (and delete the old name in this one), then rerun")
                out[i] = replace(m, refused="zone-owner", note=note)
    return out
