"""INI files (`.ini`, `.cfg`): section and key paths, and a structure check by configparser,
which refuses a section or a key declared twice.

Edits stay byte splices like every other format's: configparser only reads the result. A
file configparser cannot read before the edit (keys above the first section, as Ansible's
INI inventories have) is checked by its key-like lines instead (keylines.py).
"""

from __future__ import annotations

import configparser
from collections.abc import Sequence

from renamer import lazy_re
from renamer.formats import keylines, siblings
from renamer.formats.base import BaseFormat, Location

_SECTION = lazy_re.compile(r"[ \t]*\[(?P<name>[^\[\]\n]+)\]")
_PAIR = lazy_re.compile(r"[ \t]*(?P<key>[^=:\s;#\[][^=:]*?)[ \t]*(?:[=:]|\Z)")


def _parser() -> configparser.RawConfigParser:
    # No interpolation: a `%` in a value is data here, not a reference to another key.
    return configparser.RawConfigParser(strict=True, interpolation=None, allow_no_value=True)


def _read(text: str) -> list[tuple[str, list[str]]]:
    parser = _parser()
    parser.read_string(text)
    return [(name, list(parser[name])) for name in parser.sections()]


def edit_problem(before: str, after: str) -> str | None:
    """Why the edited INI text no longer reads as the same sections and keys, or None."""
    try:
        old = _read(before)
    except (configparser.Error, ValueError):
        return keylines.collision(before, after)  # not INI configparser reads: keys by line
    try:
        new = _read(after)
    except configparser.DuplicateSectionError as exc:
        return (f"line {exc.lineno}: renaming a section would collide with the existing section "
                f"{exc.section!r}")
    except configparser.DuplicateOptionError as exc:
        return (f"line {exc.lineno}: renaming a key would collide with the existing key "
                f"{exc.section + '.' + exc.option!r}")
    except (configparser.Error, ValueError) as exc:
        return f"the edit would make the INI invalid: {str(exc).splitlines()[0]}"
    if [len(keys) for _, keys in old] != [len(keys) for _, keys in new]:
        return "the edit would change the INI file's sections"
    # `[ app01 ]` is section app01 to most readers (PHP's parse_ini_file, MySQL, Samba, crudini),
    # which trim it; configparser keeps the blanks (break-it round 21, finding 20)
    trimmed = [name.strip() for name, _ in new]
    if len(set(trimmed)) < len(trimmed) and len({n.strip() for n, _ in old}) == len(old):
        twice = next(name for name in trimmed if trimmed.count(name) > 1)
        return (f"renaming a section would collide with the existing section {twice!r} (read with its "
                "blanks trimmed)")
    # an Ansible inventory's host lines are keys here: two hosts made one (break-it round 16, #8)
    return siblings.inventory_collision(before, after)


def locate(text: str, offsets: Sequence[int]) -> list[Location]:
    """(key path, role) per character offset: `section.key`, and whether it is the key (a
    section's name counts as a key), the value or a comment."""
    lines = text.split("\n")
    starts, at = [], 0
    for line in lines:
        starts.append(at)
        at += len(line) + 1
    sections: list[str] = []
    section = ""
    for line in lines:
        found = _SECTION.match(line)
        if found is not None:
            section = found.group("name").strip()
        sections.append(section)
    out: list[Location] = []
    index = 0
    for offset in offsets:
        while index + 1 < len(starts) and starts[index + 1] <= offset:
            index += 1
        while index > 0 and starts[index] > offset:
            index -= 1
        line, column = lines[index], offset - starts[index]
        stripped = line.lstrip()
        if stripped[:1] in "#;":
            out.append((None, "comment"))
        elif _SECTION.match(line):
            out.append((sections[index] or None, "key"))
        elif (pair := _PAIR.match(line)) is not None:
            path = f"{sections[index]}.{pair.group('key')}" if sections[index] else pair.group("key")
            out.append((path, "key" if column < pair.end("key") else "value"))
        else:
            out.append((None, "other"))
    return out


class Ini(BaseFormat):
    name = "ini"
    structured = True
    keys = True
    checks_edits = True
    needs_edits = True
    # No inline marker: most INI readers keep a `;` after a value as part of the value.
    suffixes = (".ini", ".cfg")

    def locate(self, text: str, offsets: Sequence[int]) -> list[Location] | None:
        return locate(text, offsets)

    def edit_problem(self, before: str, after: str) -> str | None:
        return edit_problem(before, after)


FORMAT = Ini()
