"""systemd units named after a path (break-it round 10, finding 3): the name encodes the path.

A mount or automount unit's name must be its `Where=` path, escaped (`systemd-escape -p
--suffix=mount /mnt/pug` is `mnt-pug.mount`), and a swap unit's its `What=`; otherwise systemd
refuses it ("Where= setting doesn't match unit name"). The name spells the host after a `-` (or as
`\\x2d`-escaped text), so the plain rules never rename it, while `Where=/mnt/pug` is rewritten.

A rewritten `Where=`/`What=` is therefore held (a residual `unit-name`), and so is the file's own
rename, unless the file is that unit and its new name is the escaped new path (`pug.mount` with
`Where=/pug` becomes `wolf.mount`). The unit's name may be written anywhere (the file's name,
an Ansible `dest:`, `Requires=`, `systemctl enable`, a `.wants/` link) and the old unit keeps
running on the machine: renaming it is a change on the machine, made by hand. Pure: bytes in.
"""

from __future__ import annotations

import re
from dataclasses import replace

from renamer.occurrences import Match

HELD = "unit-name"
_SECTIONS = {b"mount": (b"where", ".mount"), b"automount": (b"where", ".automount"),
             b"swap": (b"what", ".swap")}
_TEMPLATE = (".j2", ".jinja", ".jinja2", ".tmpl", ".tpl", ".template", ".in", ".erb")
_SECTION = re.compile(rb"(?m)^[ \t]*\[(?P<name>[A-Za-z]+)\][ \t]*\r?$")
_SETTING = re.compile(rb"(?m)^[ \t]*(?P<key>Where|What)[ \t]*=[ \t]*(?P<value>[^\r\n]*?)[ \t]*\r?$")
_VALID = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789:_.")


def might_define(data: bytes) -> bool:
    return (b"Where" in data or b"What" in data) and (
        b"[Mount]" in data or b"[Automount]" in data or b"[Swap]" in data)


def escape_path(path: str) -> str:
    """`systemd-escape -p PATH` (systemd's unit_name_path_escape)."""
    parts = [p for p in path.split("/") if p not in ("", ".")]
    if not parts:
        return "-"
    raw = "/".join(parts).encode("utf-8", "surrogateescape")
    out = []
    for i, byte in enumerate(raw):
        if byte == ord("/"):
            out.append("-")
        elif byte in _VALID and not (i == 0 and byte == ord(".")):
            out.append(chr(byte))
        else:
            out.append(f"\\x{byte:02x}")
    return "".join(out)


def unit_file(rel: str | None) -> str | None:
    """The unit name a file's name gives (`systemd/mnt-pug.mount.j2` -> `mnt-pug.mount`)."""
    if rel is None:
        return None
    name = rel.rpartition("/")[2]
    for ext in _TEMPLATE:
        if name.endswith(ext):
            return name[: -len(ext)]
    return name


def path_settings(data: bytes) -> list[tuple[int, int, str]]:
    """(start, end, suffix) of each value that names the unit's path: a mount's or automount's
    `Where=`, a swap's `What=`, in its own section."""
    sections = [(s.start(), s.group("name").lower()) for s in _SECTION.finditer(data)]
    out = []
    for setting in _SETTING.finditer(data):
        section = next((name for at, name in reversed(sections) if at < setting.start()), None)
        wanted = _SECTIONS.get(section or b"")
        if wanted is not None and wanted[0] == setting.group("key").lower():
            out.append((*setting.span("value"), wanted[1]))
    return out


def held(rel: str, new_rel: str | None, data: bytes, matches: list[Match]) -> tuple[list[Match], str | None]:
    """`matches` with those in a path-naming setting held where the unit's name would not follow,
    and the note for the file's own rename when that is held too (None: it may move)."""
    rewritten = [m for m in matches if m.refused is None and m.kept is None]
    if not rewritten:
        return matches, None
    holds: dict[int, str] = {}  # a match's start -> the note
    path_note = None
    for start, end, suffix in path_settings(data):
        inside = [m for m in rewritten if start <= m.start and m.end <= end]
        if not inside:
            continue
        key = data[data.rfind(b"\n", 0, start) + 1:start].split(b"=")[0].strip().decode()
        old_value = data[start:end].decode("utf-8", "surrogateescape")
        new_value = _rewritten(data, start, end, inside)
        old_unit, new_unit = escape_path(old_value) + suffix, escape_path(new_value) + suffix
        own, own_new = unit_file(rel), unit_file(new_rel or rel)
        if own == old_unit and own_new == new_unit:
            continue  # `pug.mount` with `Where=/pug`: the file's rename is the unit's
        note = (f"`{key}={old_value}` names the unit `{old_unit}`; rewritten to "
                f"`{new_value}`, the unit must be named `{new_unit}`"
                + (f", but the file would be `{own_new}`" if own == old_unit and own_new != own else ""))
        for m in inside:
            holds[m.start] = note
        if own == old_unit and new_rel is not None:
            path_note = note
    if not holds:
        return matches, None
    return [replace(m, refused=HELD, note=holds[m.start])
            if m.start in holds and m.refused is None and m.kept is None else m for m in matches], path_note


def _rewritten(data: bytes, start: int, end: int, inside: list[Match]) -> str:
    out, last = [], start
    for m in sorted(inside, key=lambda m: m.start):
        out += [data[last:m.start], m.new.encode("utf-8")]
        last = m.end
    out.append(data[last:end])
    return b"".join(out).decode("utf-8", "surrogateescape")
