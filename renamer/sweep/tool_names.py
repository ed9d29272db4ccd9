"""A host word a tool composes with a domain it keeps apart follows only where the name does
(break-it round 8, finding 7; the grammar is renamer/tool_names.py).

`Host pug` + `HostName %h.ana.lan`, compose's `hostname: pug` + `domainname: ana.lan`, dnsmasq's
`dhcp-host=...,pug` + `domain=ana.lan` and a systemd instance `check@pug.service` of a template
holding `%i.ana.lan` each make pug.ana.lan. Where the renames take that name elsewhere than the
rewritten word and the kept domain make (`pug.ana.lan -> wolf.fv.lan` while the tool would build
wolf.ana.lan), the word is a `composed-name` residual, not rewritten (nor the instance's path
renamed), its note naming the composed name; a word already new that builds such a name (a sweep
before this rule) is the same residual, so verify fails until a person decides. Where the
composition makes the new name, the plain rules rewrite the word as ever.
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import replace
from pathlib import Path

from renamer import tool_names
from renamer.occurrences import Match

REASON = "composed-name"


def _built(renamed: dict[str, str], news: dict[str, str], word: str, prefix: str,
           suffix: str) -> tuple[str, str, str] | None:
    """(the name the tool made before the sweep, the name it should make, the name it makes after
    it) where those differ, else None."""
    source = word if word in renamed else news.get(word, word)
    full = f"{prefix}{source}{suffix}"
    tail = suffix[1:] if suffix.startswith(".") else ""
    if full in renamed:
        expected = renamed[full]
    elif not prefix and source in renamed and tail:
        expected = f"{renamed[source]}.{renamed.get(tail, tail)}"
    else:
        return None
    built = f"{prefix}{renamed.get(source, source)}{'.' + renamed.get(tail, tail) if tail else suffix}"
    return None if built == expected else (full, expected, built)


def tool_name_matches(data: bytes, matches: list[Match], hosts: tuple[tuple[str, str], ...]) -> list[Match]:
    """`matches` with each host word a tool composes into a name the sweep would break refused."""
    if not tool_names.might_hold(data):
        return matches
    renamed = dict(hosts)
    news = {new: old for old, new in hosts}
    words = {w for w in [*renamed, *news] if "." not in w}
    out = list(matches)
    added: list[Match] = []
    for found in tool_names.composed(data, words):
        built = _built(renamed, news, found.word, found.prefix, found.suffix)
        if built is None:
            continue
        full, expected, after = built
        if found.word in renamed:
            note = (f"`{found.word}` makes {full} with {found.how} (renamed {expected}); rewritten alone it "
                    f"would make {after}, a name that does not exist: rename the pair by hand (or keep the "
                    "line with a keep rule or the inline marker)")
        else:  # a sweep before this rule rewrote the word alone
            note = (f"`{found.word}` makes {after} with {found.how}, a name that does not exist: the host "
                    f"was {full}, renamed {expected}: write the pair by hand")
        inside = [i for i, m in enumerate(out) if m.start < found.end and found.start < m.end]
        if any(out[i].refused is not None or out[i].kept is not None for i in inside):
            continue
        for i in inside:
            out[i] = replace(out[i], refused=REASON, note=note)
        if not inside:
            new = renamed.get(found.word, found.word)
            added.append(Match(found.start, found.end, found.word, new, "host", refused=REASON, note=note))
    if not added and out == matches:
        return matches
    return sorted([*out, *added], key=lambda m: m.start)


def instance_note(root: Path, rel: str, hosts: tuple[tuple[str, str], ...]) -> str | None:
    """Why the systemd instance link `rel` (`wants/check@pug.service -> ../check@.service`) keeps
    its name: its template makes a name from the instance (`%i.ana.lan`) that the rename would
    break; None where it may follow (no template, nothing composed, or the new name made)."""
    base = os.path.basename(rel)
    if "@" not in base:
        return None
    unit, _, rest = base.partition("@")
    instance, dot, kind = rest.rpartition(".")
    if not dot or not instance:
        return None
    path = root / rel
    try:
        target = os.readlink(path)
    except OSError:
        return None
    template = (path.parent / target).resolve() if not os.path.isabs(target) else Path(target)
    if tool_names.template_unit(template.name) != (unit, kind):
        return None
    try:
        resolved = template.relative_to(root.resolve())
        data = (root / resolved).read_bytes()
    except (OSError, ValueError):
        return None
    renamed = dict(hosts)
    news = {new: old for old, new in hosts}
    for _start, _end, suffix in tool_names.template_suffixes(data):
        built = _built(renamed, news, instance, "", suffix)
        if built is not None:
            full, expected, after = built
            return (f"the instance {unit}@{instance}.{kind} of {resolved.as_posix()} makes {full} from "
                    f"`%i{suffix}` (renamed {expected}); renamed alone it would make {after}, a name that "
                    "does not exist: rename the instance and the template's domain by hand")
    return None


class Templates:
    """The repo's systemd template units (`check@.service`) and what each composes from its
    instance (`%i.ana.lan`), listed once (lazily) per scanner, where an instance is named."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._units: dict[str, list[tuple[str, str]]] | None = None  # unit -> (template path, suffix)

    def units(self) -> dict[str, list[tuple[str, str]]]:
        if self._units is None:
            self._units = {}
            kinds = ("service", "socket", "timer", "path", "mount")
            try:
                command = ["git", "-C", str(self.root), "ls-files", "-z", "-co", "--exclude-standard", "--",
                           *(f"*@.{k}" for k in kinds)]
                done = subprocess.run(command, capture_output=True, check=True)
            except (OSError, subprocess.CalledProcessError):
                return self._units
            for rel in sorted(os.fsdecode(p) for p in done.stdout.split(b"\0") if p):
                named = tool_names.template_unit(rel)
                try:
                    data = (self.root / rel).read_bytes()
                except OSError:
                    continue
                if named is not None:
                    for _s, _e, suffix in tool_names.template_suffixes(data):
                        self._units.setdefault(named[0], []).append((rel, suffix))
        return self._units


def instance_matches(data: bytes, matches: list[Match], hosts: tuple[tuple[str, str], ...],
                     templates: Templates) -> list[Match]:
    """`systemctl start check@pug.service` in a script: the instance name of a template that makes
    `%i.ana.lan`, refused where the rename would break that name, as the instance link is."""
    after_at = [i for i, m in enumerate(matches) if data[m.start - 1:m.start] == b"@" and m.refused is None
                and m.kept is None and m.kind == "host"]
    if not after_at or not templates.units():
        return matches
    renamed = dict(hosts)
    news = {new: old for old, new in hosts}
    out = list(matches)
    for i in after_at:
        m = out[i]
        unit = _UNIT_BEFORE.search(data, max(0, m.start - 128), m.start - 1)
        if unit is None or unit.group().decode("utf-8", "replace") not in templates.units():
            continue
        name = unit.group().decode("utf-8", "replace")
        for rel, suffix in templates.units()[name]:
            built = _built(renamed, news, m.old, "", suffix)
            if built is not None:
                full, expected, after = built
                out[i] = replace(m, refused=REASON, note=(
                    f"`{name}@{m.old}` is an instance of {rel}, which makes {full} from `%i{suffix}` "
                    f"(renamed {expected}); renamed alone it would make {after}, a name that does not exist: "
                    "rename the instance and the template's domain by hand"))
                break
    return out


_UNIT_BEFORE = re.compile(rb"[A-Za-z0-9:_.\\-]+\Z")
