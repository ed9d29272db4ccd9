"""systemd units named after a path (break-it round 10, finding 3): the name encodes the path.

A mount or automount unit's name must be its `Where=` path, escaped (`systemd-escape -p
--suffix=mount /mnt/pug` is `mnt-pug.mount`), and a swap unit's its `What=`; otherwise systemd
refuses it ("Where= setting doesn't match unit name"). The name spells the host after a `-` (or as
`\\x2d`-escaped text), so the plain rules never rename it, while `Where=/mnt/pug` is rewritten.

A rewritten `Where=`/`What=` is therefore held (a residual `unit-name`), and so is the file's own
rename, unless the file is that unit and its new name is the escaped new path (`pug.mount` with
`Where=/pug` becomes `wolf.mount`). The unit's name may be written anywhere (the file's name,
an Ansible `dest:`, `Requires=`, `systemctl enable`, a `.wants/` link) and the old unit keeps
running on the machine: renaming it is a change on the machine, made by hand.

A mount point a generator turns into a unit (break-it round 14, finding 9) is held the same way,
but only where the repo names that unit: an `/etc/fstab` line's second field (systemd-fstab-
generator makes `mnt-pug.mount`, and `mnt-pug.automount` with `x-systemd.automount`; an fstab
line in another file, an Ansible `mount` module's `path:`), NixOS `fileSystems."/mnt/pug"` (or a
`fileSystems = { "/mnt/pug" = ...; }` key, a `mountPoint =`), NixOS `systemd.mounts`/
`systemd.automounts` `where =`. The unit follows its point, so a point nothing names may move;
where `Requires=mnt-pug.mount` (or NixOS `requires = [ "mnt-pug.mount" ]`) names it, the point
rewritten alone leaves that unit missing. Pure: bytes in (the caller says where a unit is named).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from renamer import lazy_re
from renamer.occurrences import Match

HELD = "unit-name"
_SECTIONS = {b"mount": (b"where", ".mount"), b"automount": (b"where", ".automount"),
             b"swap": (b"what", ".swap")}
_TEMPLATE = (".j2", ".jinja", ".jinja2", ".tmpl", ".tpl", ".template", ".in", ".erb")
_SECTION = lazy_re.compile(rb"(?m)^[ \t]*\[(?P<name>[A-Za-z]+)\][ \t]*\r?$")
_SETTING = lazy_re.compile(rb"(?m)^[ \t]*(?P<key>Where|What)[ \t]*=[ \t]*(?P<value>[^\r\n]*?)[ \t]*\r?$")
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


# A generated mount point (break-it round 14, finding 9).
_FSTAB_NAMES = ("fstab",)
# An fstab line: spec, point, type, options, dump, pass (in a file of its own, dump and pass may go).
_SPEC = rb"(?:\{\{[^}\n]*\}\}|\$\{[^}\n]*\}|[^\s\"'=#{$])(?:\{\{[^}\n]*\}\}|\$\{[^}\n]*\}|[^\s\"'])*"
_FSTAB_LINE = lazy_re.compile(rb"(?m)^[ \t]*(?P<spec>" + _SPEC + rb")[ \t]+(?P<point>/[^\s]*)[ \t]+[^\s]+"
                         rb"(?:[ \t]+[^\s]+(?:[ \t]+[0-9]+(?:[ \t]+[0-9]+)?)?)?[ \t]*\r?$")
# Inside another file (a `lineinfile` line, a heredoc, a script's echo): all six fields, the type
# a word and the last two numbers, quoted or not.
_FSTAB_EMBEDDED = lazy_re.compile(
    rb"(?:^|(?<=[\s\"'=]))(?P<spec>" + _SPEC + rb")[ \t]+(?P<point>/[^\s\"']*)[ \t]+"
                             rb"[a-z][a-z0-9._]*[ \t]+[^\s\"']+[ \t]+[0-9]+[ \t]+[0-9]+"
                             rb"(?=[ \t]*(?:[\"'\r\n]|\\n|$))")
_ANSIBLE_MOUNT = lazy_re.compile(rb"(?m)^(?P<indent>[ \t]*)(?:-[ \t]+)?(?:ansible\.posix\.)?mount[ \t]*:"
                            rb"(?P<rest>[^\n]*)\n?"
                            rb"(?P<body>(?:(?:(?P=indent)[ \t]+[^\n]*|[ \t]*\r?)(?:\n|$))*)")
_ANSIBLE_PATH = lazy_re.compile(rb"""(?m)(?:^[ \t]*|[ \t])(?:path|name)[ \t]*[:=][ \t]*["']?"""
                           rb"""(?P<point>/[^\s"',]*)""")
_NIX_ATTR = lazy_re.compile(rb"""\bfileSystems[ \t]*\.[ \t]*"(?P<point>/[^"$]*)\"""")
_NIX_SET = lazy_re.compile(rb"\bfileSystems[ \t]*=[ \t]*(?:lib\.mk[A-Za-z]+[ \t]+)?\{")
_NIX_MOUNT_POINT = lazy_re.compile(rb"""\bmountPoint[ \t]*=[ \t]*"(?P<point>/[^"$]*)\"""")
_NIX_WHERE = lazy_re.compile(rb"""\bwhere[ \t]*=[ \t]*"(?P<point>/[^"$]*)\"""")
_NIX_UNITS = lazy_re.compile(rb"\b(?P<kind>automounts|mounts)[ \t]*=")
# ZFS's `mountpoint` property (`zfs create -o mountpoint=/mnt/pug`, `zfs set`, `zpool create -O`,
# an Ansible `zfs` task's `extra_zfs_properties`, disko's `mountpoint = "/srv/pug";`):
# zfs-mount-generator (disko: NixOS `fileSystems`) makes `mnt-pug.mount` of it (break-it round 16, #13).
_ZFS_MOUNTPOINT = lazy_re.compile(
    rb"""(?<![A-Za-z0-9_.-])mountpoint[ \t]*[:=][ \t]*["']?(?P<point>/[^\s"',;]*)""")
_BOTH = (".mount", ".automount")
_GENERATORS = (b"fileSystems", b"mount", b"fstab")
_NIX_KEY_END = lazy_re.compile(rb"[ \t\r\n]*=(?!=)")


def might_generate(rel: str, data: bytes) -> bool:
    """Whether `data` may hold a mount point a generator makes a unit of."""
    return b"/" in data and (_is_fstab(rel) or any(word in data for word in _GENERATORS))


def _is_fstab(rel: str) -> bool:
    name = unit_file(rel) or ""
    return name in _FSTAB_NAMES or name.endswith(".fstab") or name.startswith("fstab.")


def generated_points(rel: str, data: bytes) -> list[tuple[int, int, tuple[str, ...], str]]:
    """(start, end, unit suffixes, what sets it) of each mount point a generator makes units of:
    fstab's second field, an Ansible `mount` module's `path:`, NixOS `fileSystems` keys and
    `mountPoint`, NixOS `systemd.mounts`/`automounts` `where`, a ZFS dataset's `mountpoint`."""
    out: list[tuple[int, int, tuple[str, ...], str]] = []
    fstab = _is_fstab(rel)
    for line in (_FSTAB_LINE if fstab else _FSTAB_EMBEDDED).finditer(data):
        if not line.group("spec").startswith(b"#"):
            out.append((*line.span("point"), _BOTH, "an fstab line's mount point"))
    if b"mount" in data and not fstab:
        for module in _ANSIBLE_MOUNT.finditer(data):
            for part in ("rest", "body"):
                scope, base = module.group(part), module.start(part)
                for path in _ANSIBLE_PATH.finditer(scope):
                    out.append((base + path.start("point"), base + path.end("point"), _BOTH,
                                "an Ansible `mount` module's path (written to /etc/fstab)"))
    if b"mountpoint" in data:
        for point in _ZFS_MOUNTPOINT.finditer(data):
            out.append((*point.span("point"), _BOTH, "a ZFS dataset's `mountpoint` (zfs-mount-generator, "
                                                     "disko: a mount unit of it)"))
    if rel.endswith((".nix", ".nix.j2")) or b"fileSystems" in data:
        for attr in _NIX_ATTR.finditer(data):
            out.append((*attr.span("point"), _BOTH, "NixOS `fileSystems`"))
        for block in _NIX_SET.finditer(data):
            for start, end in _nix_keys(data, block.end()):
                out.append((start, end, _BOTH, "NixOS `fileSystems`"))
        for point in _NIX_MOUNT_POINT.finditer(data):
            out.append((*point.span("point"), _BOTH, "NixOS `fileSystems` `mountPoint`"))
    if rel.endswith((".nix", ".nix.j2")):
        kinds = [(k.start(), k.group("kind")) for k in _NIX_UNITS.finditer(data)]
        for where in _NIX_WHERE.finditer(data):
            kind = next((name for at, name in reversed(kinds) if at < where.start()), None)
            if kind is not None:
                suffix = ".automount" if kind == b"automounts" else ".mount"
                out.append((*where.span("point"), (suffix,), f"NixOS `systemd.{kind.decode()}` `where`"))
    return sorted(set(out))


def mount_points(rel: str, data: bytes) -> list[tuple[int, int]]:
    """The spans of every value that sets a unit's mount point: `Where=` (and a swap's `What=`) in
    a unit's section, and each point a generator makes a unit of."""
    out = [(start, end) for start, end, _ in path_settings(data)] if might_define(data) else []
    if might_generate(rel, data):
        out += [(start, end) for start, end, _, _ in generated_points(rel, data)]
    return sorted(set(out))


def _nix_keys(data: bytes, at: int) -> list[tuple[int, int]]:
    """The spans of the `"/path" =` keys at the top of the Nix attribute set opened before `at`."""
    out, depth, i = [], 1, at
    while i < len(data) and depth > 0:
        byte = data[i:i + 1]
        if byte == b"#":
            i = data.find(b"\n", i)
            i = len(data) if i < 0 else i
            continue
        if byte == b'"':
            close = i + 1
            while close < len(data) and data[close:close + 1] != b'"':
                close += 2 if data[close:close + 1] == b"\\" else 1
            if depth == 1 and data[i + 1:i + 2] == b"/" and _NIX_KEY_END.match(data, close + 1):
                out.append((i + 1, close))
            i = close + 1
            continue
        depth += 1 if byte in (b"{", b"[", b"(") else -1 if byte in (b"}", b"]", b")") else 0
        i += 1
    return out


def held(rel: str, new_rel: str | None, data: bytes, matches: list[Match],
         named: Callable[[str], str | None] = lambda unit: None) -> tuple[list[Match], str | None]:
    """`matches` with those in a path-naming setting held where the unit's name would not follow,
    and the note for the file's own rename when that is held too (None: it may move). `named`
    says where the repo names a unit (`path:line`), None where nowhere: a generated unit's point
    is held only where its unit is named."""
    rewritten = [m for m in matches if m.refused is None and m.kept is None]
    if not rewritten:
        return matches, None
    holds: dict[int, str] = {}  # a match's start -> the note
    path_note = None
    if might_generate(rel, data):
        for start, end, suffixes, what in generated_points(rel, data):
            inside = [m for m in rewritten if start <= m.start and m.end <= end]
            if not inside:
                continue
            old_value = data[start:end].decode("utf-8", "surrogateescape")
            new_value = _rewritten(data, start, end, inside)
            for suffix in suffixes:
                old_unit, new_unit = escape_path(old_value) + suffix, escape_path(new_value) + suffix
                where = named(old_unit) if old_unit != new_unit else None
                if where is not None:
                    note = (f"{what} `{old_value}` makes systemd generate the unit `{old_unit}`, which "
                            f"{where} names; rewritten to `{new_value}`, the unit would be `{new_unit}` "
                            f"and `{old_unit}` would not exist")
                    for m in inside:
                        holds[m.start] = note
                    break
    for start, end, suffix in path_settings(data) if might_define(data) else ():
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
