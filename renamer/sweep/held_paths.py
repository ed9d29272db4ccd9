"""References to a path that keeps its old name (break-it round 12, finding 2).

A path in the repo can keep an old value while the text around it follows: a compose folder held
as `state-name` (`hosts/pug/`), a folder under `keep_paths`, a record (`notes/pug/2024.md`), a
systemd instance link held `composed-name`, an unclassified file. A current file that names that
path (`docker compose -f hosts/pug/compose.yaml`, an Ansible `src: hosts/pug/compose.yaml`,
`rsync -a backups/pug/ ...`) would, rewritten, name `hosts/wolf/compose.yaml`, which the sweep
never creates: a dangling path that verify, which sees no old value left, would call OK.

So, after every file was scanned, each rewritable occurrence that stands inside a path-like token
is read as a path, from the referencing file's folder, from the repo root, from an Ansible role's
`files/` and `templates/`, as an absolute path inside the repo, or (two components or more) as
the tail of a repo path; where that path is one the sweep leaves under its old name, the
occurrence keeps the old value: kept where the path is kept on purpose (`keep_paths`, a record),
a residual `held-path` otherwise (the path's own hold is undecided: verify fails on both until it
is). A token that names a path the sweep moves, or no repo path at all (`/opt/pug/data` on the
host), is rewritten as before.

Cost: one regex search over the listed paths joined by newlines; files are read again only where
a held path exists and a rewritable occurrence of one of its old values stands in them.
"""

from __future__ import annotations

import fnmatch
import os
import posixpath
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from renamer import lazy_re, unit_names
from renamer.classify import CURRENT, RECORD
from renamer.near_miss import Anchors
from renamer.project import LoadedProject
from renamer.sweep import held_vars, held_words, profile_files, vars_names
from renamer.sweep.content import read_content
from renamer.sweep.held_words import Entry
from renamer.sweep.lines import is_utf8
from renamer.sweep.model import KEPT, RESIDUAL, FileResult, Reference, RefStatus, ScanResult

HELD = "held-path"
HINT = ("rewritten, it would name a path that does not exist; decide the path first (rename it by hand "
        "with its references, or keep it with `keep_paths`: its references are then kept with it)")
POINT_HINT = ("rewritten, it would name a folder nothing mounts; rename the unit first (then its "
              "references follow), or keep its `Where=` (or fstab, NixOS) line with a keep rule: they are "
              "then kept with it")
# What a path spells between the separators around it: no blank, quote, bracket, `:` or `=`.
_PATH_BYTE = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-/~@+%")
# Read as part of a token too, then resolved: a Windows separator, brace sets, comma lists, variables.
_TOKEN_BYTE = _PATH_BYTE | frozenset(b"\\{},$*?")
_VARIABLE = "{}/"  # a token rooted at a variable: read from no folder, matched by its tail
_WINDOWS_VARIABLE = lazy_re.compile(r"%~[A-Za-z]*[0-9]|%[A-Za-z_][A-Za-z0-9_]*%")


@dataclass(frozen=True)
class Hold:
    status: RefStatus  # KEPT where the path is kept on purpose, RESIDUAL where its hold is undecided
    why: str  # what holds it: the path's own reason (state-name, keep-paths, a record class...)
    olds: frozenset[str]  # the old values its path spells
    # A folder whose files the repo does not list (a submodule's checkout): a path below it is
    # held with it, though no listed file spells that path.
    below: bool = False


def held_paths(project: LoadedProject, scan: ScanResult) -> dict[str, Hold]:
    """Each listed path (and each folder above it whose name holds the old value) that holds an
    old value the sweep does not rename away."""
    needles = [n for n in project.matcher.needles if n]
    if not needles:
        return {}
    joined = "\n".join(scan.paths).encode("utf-8", "surrogateescape")
    # One native scan for every needle where hyperscan is there (a find per needle was 0.3 s over
    # 160,000 paths with 50 renames; a Python regex alternation 10x that).
    candidates: list[str] = []
    end = -1
    for at in Anchors(needles).positions(joined):
        if at <= end:
            continue  # the same path
        start = joined.rfind(b"\n", 0, at) + 1
        end = joined.find(b"\n", at)
        end = len(joined) if end < 0 else end
        candidates.append(joined[start:end].decode("utf-8", "surrogateescape"))
    out: dict[str, Hold] = _mount_points(project, scan)
    # A sweep of some paths lists no .gitmodules: asked of the work tree (one stat where it has none).
    submodules = _submodules(project, scan) if os.path.isfile(project.root / ".gitmodules") else {}
    out.update(submodules)
    if not candidates:
        return out
    by_path = {f.path: f for f in scan.files}
    moving: set[str] = set()  # folders some file leaves
    olds = [old for old, _ in project.config.renames.pairs()]
    for rel in candidates:
        if rel in submodules:
            continue
        found = project.matcher.find(os.fsencode(rel))
        matches = [m for m in found if m.kept is None]
        if not found:
            # An old value inside a longer name (`host_vars/pug-qemu.yml`, a derived name): no
            # rename moves it, so a token that spells it from parts (`host_vars/{lab,pug}-qemu.yml`)
            # names it, and rewritten would name nothing (break-it round 14, finding 10).
            inside = frozenset(old for old in olds if old in rel)
            if inside and rel not in out:
                out[rel] = Hold(RESIDUAL, "the old value stands inside a longer name there, which the "
                                          "sweep does not rename", inside)
            continue
        if not matches:
            continue
        folders = {rel[:slash] for m in matches if (slash := rel.find("/", m.end)) >= 0}
        hold = _hold(project, by_path.get(rel), rel)
        if hold is None:
            moving |= folders
            continue
        hold = replace(hold, olds=frozenset(m.old for m in matches))
        out[rel] = hold
        # The folders above it whose own name holds the old value stay where they are, too.
        for folder in folders:
            if folder not in out or out[folder].status == KEPT:
                out[folder] = hold if folder not in out else _merged(out[folder], hold)
    # A folder some files leave while others stay (a record in a host's folder) is split: a
    # reference to the folder names part of what it named, whichever name it is given.
    for folder in moving & out.keys():
        out[folder] = Hold(RESIDUAL, "a folder the sweep splits: some of its files move, others stay",
                           out[folder].olds)
    return out


def _mount_points(project: LoadedProject, scan: ScanResult) -> dict[str, Hold]:
    """The mount points a unit keeps (`Where=/mnt/pug` held `unit-name`, or kept; an fstab or
    NixOS point held so): absolute paths on the machine that other files name (`rsync -a
    /mnt/pug/ ...`; break-it round 12, finding 2)."""
    out: dict[str, Hold] = {}
    for found in scan.files:
        # A unit file, or a unit inside another (an Ansible `copy: content:`, cloud-init): any
        # current file with an occurrence left as it is, whose bytes hold a unit's section.
        if found.status != CURRENT or found.kind != "text" \
                or all(r.rewritable or r.reason == HELD for r in found.references if r.role != "path"):
            continue
        content = read_content(project.root / found.path, project.config.max_file_size)
        if content is None or content.kind != "text":
            continue
        data = content.data
        if not (unit_names.might_define(data) or unit_names.might_generate(found.path, data)):
            continue
        starts = _line_starts(data)
        read = codec(data)
        offsets = [(_offset(data, starts[r.line - 1], r.column, read), r) for r in found.references
                   if r.role != "path" and 1 <= r.line <= len(starts)]
        # `Where=` of a unit, or a point fstab / NixOS makes a unit of (break-it round 14, finding 9)
        for start, end in unit_names.mount_points(found.path, data):
            inside = [r for at, r in offsets if start <= at < end]
            held = [r for r in inside if not r.rewritable]
            value = data[start:end].decode("utf-8", "surrogateescape").rstrip("/")
            if held and value.startswith("/"):
                ref = held[0]
                out[value] = Hold(KEPT if ref.status == KEPT else RESIDUAL,
                                  f"the mount point of {found.path}, held {ref.reason or ref.status}",
                                  frozenset(r.old for r in inside))
    return out


_SUBMODULE_PATH = lazy_re.compile(rb"^[ \t]*path[ \t]*=[ \t]*(.+?)[ \t]*\r?$", re.MULTILINE)


def _submodules(project: LoadedProject, scan: ScanResult) -> dict[str, Hold]:
    """The submodules whose path spells an old value (break-it round 16, finding 16): a sweep
    never moves one (its `.gitmodules` lines are `submodule` residuals: `git mv` moves it), so the
    paths into it keep the old name: kept where `.gitmodules`' `path =` line is kept (a keep rule),
    a residual `held-path` while that line is undecided. The repo lists no file inside it."""
    content = read_content(project.root / ".gitmodules", project.config.max_file_size)
    if content is None or content.kind != "text":
        return {}
    refs = next((f.references for f in scan.files if f.path == ".gitmodules"), ())
    data = content.data
    out: dict[str, Hold] = {}
    for m in _SUBMODULE_PATH.finditer(data):
        path = m.group(1).decode("utf-8", "surrogateescape").strip("\"'").strip("/")
        found = [f for f in project.matcher.find(os.fsencode(path)) if f.kept is None]
        if not found or not (path in scan.paths or os.path.lexists(project.root / path / ".git")):
            continue  # no submodule there (removed, or another checkout's entry)
        line = data.count(b"\n", 0, m.start()) + 1
        on_line = [r for r in refs if r.line == line]
        kept = [r for r in on_line if r.status == KEPT]
        if on_line and len(kept) == len(on_line):
            hold = Hold(KEPT, f"a submodule kept by {kept[0].reason or 'a keep rule'}", frozenset(),
                        below=True)
        else:
            hold = Hold(RESIDUAL, "a submodule: the sweep never moves one; `git mv` does, or a keep rule "
                                  "on its .gitmodules lines keeps it", frozenset(), below=True)
        out[path] = replace(hold, olds=frozenset(f.old for f in found))
    return out


def _line_starts(data: bytes) -> list[int]:
    return [0, *(m.end() for m in re.finditer(b"\n", data))]


def _hold(project: LoadedProject, found: FileResult | None, rel: str) -> Hold | None:
    path_refs = [r for r in found.references if r.role == "path"] if found is not None else []
    if path_refs:
        if any(r.rewritable for r in path_refs):
            return None  # the sweep renames it
        ref = next(r for r in path_refs if not r.rewritable)
        return Hold(KEPT if ref.status == KEPT else RESIDUAL, ref.reason or ref.status, frozenset())
    klass = project.classifier.classify(rel)
    if klass.status == RECORD:
        return Hold(KEPT, klass.reason or "record", frozenset())
    if klass.status == CURRENT:
        return None  # not scanned here (outside the paths asked for): renamed with its file
    return Hold(RESIDUAL, klass.status, frozenset())


def _merged(a: Hold, b: Hold) -> Hold:
    """A folder held by two files: undecided where either is."""
    return b if b.status == RESIDUAL and a.status == KEPT else a


def follow_held_paths(project: LoadedProject, scan: ScanResult,
                      held: dict[str, Hold] | None = None) -> ScanResult:
    """`scan` with every rewritable occurrence that names a held path held with it (edits dropped);
    `held`: held_paths of this scan, where the caller has it already."""
    held = held_paths(project, scan) if held is None else held
    if not held:
        return scan
    olds = frozenset(old for hold in held.values() for old in hold.olds)
    resolver = _Resolver(held, scan.paths, project)
    files = []
    for found in scan.files:
        if found.status != CURRENT or found.kind != "text" \
                or not any(_candidate(r, olds) for r in found.references):
            files.append(found)
            continue
        content = read_content(project.root / found.path, project.config.max_file_size)
        if content is None or content.kind != "text":
            files.append(found)
            continue
        files.append(_held_in(found, content.data, resolver, olds))
    return replace(scan, files=tuple(files))


def _candidate(ref: Reference, olds: frozenset[str]) -> bool:
    return ref.rewritable and ref.role != "path" and ref.old in olds


def _held_in(found: FileResult, data: bytes, resolver: _Resolver, olds: frozenset[str]) -> FileResult:
    starts = _line_starts(data)
    refs, spans = [], []
    readers: list[held_words.Reader] | None = None  # read once, where a bare word needs them
    read = codec(data)  # Latin-1 (CP1252) columns count bytes, as the sweep's own lines do
    for ref in found.references:
        if not _candidate(ref, olds) or ref.line < 1 or ref.line > len(starts):
            refs.append(ref)
            continue
        offset = _offset(data, starts[ref.line - 1], ref.column, read)
        old = ref.old.encode()
        if data[offset:offset + len(old)].lower() != old.lower():
            refs.append(ref)
            continue
        token = _token(data, offset, offset + len(old))
        joined = _joined(data, offset, offset + len(old))  # `os.path.join("hosts", "pug")`, `+`, `/`, `~`
        if joined is not None and (token is None or "/" not in token or token.startswith("/")):
            token = joined
        target = None if token is None else resolver.resolve(found.path, token)
        if target is None and token is not None and not resolver.names_listed(found.path, token):
            # a path inside a held folder that no listed file spells (`hosts/pug/secrets.ya?ml$`)
            folder = _folder(data, offset, offset + len(old))
            target = None if folder is None else resolver.resolve(found.path, folder)
        if target is None and (token is None or "/" not in token):
            # `tar -C hosts pug`, `cd hosts && tar c pug`, `find hosts -name pug` (round 15, #7)
            target = _split_target(found.path, data, offset, token or ref.old, resolver)
        if target is None and token is None:
            # a bare word a file joins into a path under a held entry's folder (round 15, #3)
            if readers is None:
                readers = held_words.readers(data)
            # a profile's name, by which a framework finds a file (round 22, #10)
            word = _word_hold(found.path, data, offset, offset + len(old), ref.old, resolver,
                              [*readers, *profile_files.readers(data, offset)])
            if word is not None:
                refs.append(replace(ref, status=RESIDUAL, reason=HELD, note=word[1]))
                spans.append((offset, offset + len(old)))
                continue
        if target is None and (token is None or "/" not in token):
            # a variable's value that a path built on another line puts into a held path (round 19, #9)
            by = (held_vars.held_by_variable(found.path, data, offset, offset + len(old), ref.old,
                                             resolver.resolve) if resolver.entries.get(ref.old) else None)
            if by is not None:
                target, variable, line = by
                hold = resolver.held[target]
                note = (f"`{ref.old}` is the value of `{variable}`, which line {line} joins into a path "
                        f"naming {target}, which keeps its name ({hold.why})")
                refs.append(replace(ref, status=KEPT, reason=HELD,
                                    note=f"{note}: rewritten, it would name a path that does not exist")
                            if hold.status == KEPT else replace(ref, status=RESIDUAL, reason=HELD,
                                                                note=f"{note}: {HINT}"))
                spans.append((offset, offset + len(old)))
                continue
        if target is None:
            refs.append(ref)
            continue
        hold = resolver.held[target]
        spelled = None if token is None else _token(data, offset, offset + len(old), ref.new.encode())
        both = spelled is not None and resolver.names_listed(found.path, spelled)
        if both and target not in resolver.files:
            # Both folders exist (a sweep moved its live files, a record stayed): either name
            # gives part of what the reference named.
            hold = Hold(RESIDUAL, "a folder the sweep splits: its new name exists too", hold.olds)
        note = f"names {target}, which keeps its name ({hold.why})"
        if hold.status == KEPT:
            refs.append(replace(ref, status=KEPT, reason=HELD,
                                note=f"{note}: rewritten, it would name a path that does not exist"))
        else:
            refs.append(replace(ref, status=RESIDUAL, reason=HELD,
                                note=f"{note}: {POINT_HINT if target.startswith('/') else HINT}"))
        spans.append((offset, offset + len(old)))
    if not spans:
        return found
    # A Terraform key held so (`for_each = toset(["pug"])` beside `hosts/${each.key}/`) moves no
    # instance: the `moved` block its rewrite would have added goes too.
    moved = [re.compile(rb"from = [^\n]*(?<![A-Za-z0-9_-])" + re.escape(old) + rb"(?![A-Za-z0-9_-])")
             for old in {r.old.encode() for r in refs if r.reason == HELD and r.role != "path"}]
    edits = tuple(e for e in found.edits if not any(e.start < end and start < e.end for start, end in spans)
                  and not (e.start == e.end and b"moved {" in e.new and any(m.search(e.new) for m in moved)))
    return replace(found, references=tuple(refs), edits=edits)


def _split_target(rel: str, data: bytes, start: int, word: str, resolver: _Resolver) -> str | None:
    """The held path a word names from the directory argument before it on its line (`tar -C
    hosts pug`, `cd hosts && tar c pug`; `find hosts -name pug`: any depth below)."""
    found = held_words.split_directory(data, start)
    if found is None:
        return None
    directory, below = found
    if not below:
        return resolver.resolve(rel, f"{directory.rstrip('/')}/{word}")
    for base in resolver.readings(rel, directory):
        prefix = "" if base in ("", ".") else base + "/"
        for path in resolver.held:
            if path.startswith(prefix) and not path.startswith("/") \
                    and fnmatch.fnmatchcase(path.rpartition("/")[2], word):
                return path
    return None


_NIX_PATH = lazy_re.compile(rb"(?<![A-Za-z0-9._/-])\.{0,2}/?[A-Za-z0-9._-]+(?:/[A-Za-z0-9._-]+)+")
WORD_HINT = ("keep the line with a keep rule or the inline marker (the word stays the path's name), or "
             "rename the path by hand with its references")


def _word_hold(rel: str, data: bytes, start: int, end: int, word: str, resolver: _Resolver,
               readers: list[held_words.Reader]) -> tuple[Entry, str] | None:
    """The held entry a bare word (the old value alone) is the name of, where the file reads
    that entry's folder by name, and why; or None (break-it round 15, finding 3)."""
    entries = [e for e in resolver.entries.get(word, ()) if held_words.fits(e, word)
               or any(held_words.fits(e, word, r.prefix, r.suffix) for r in readers if not r.lists)]
    if not entries:
        return None

    def note(entry: Entry, how: str) -> tuple[Entry, str]:
        hold = resolver.held.get(entry.path) or next(h for p, h in resolver.held.items()
                                                      if p.startswith(entry.path + "/"))
        return entry, (f"`{word}` is the name of {entry.path}, which keeps its name ({hold.why}), and {how}: "
                       f"rewritten, the word would name nothing there; {WORD_HINT}")

    for entry in entries:
        if held_words.reads_host_vars(rel, entry.parent, resolver.beside_playbook(entry.parent)) \
                and held_words.fits(entry, word):
            why = held_words.names_inventory_host(rel, data, start)
            if why is not None:
                return note(entry, f"{why} (Ansible reads host_vars/ by the inventory's host name)")
    own = resolver.own_readers() if held_words.names_inventory_host(rel, data, start) is not None else []
    for where, reader in own:  # `services/{{ inventory_hostname }}/` anywhere: the inventory's host names
        folders = held_words.folder_readings(where, reader.folder)
        for entry in entries:
            if entry.parent in folders and held_words.fits(entry, word, reader.prefix, reader.suffix):
                return note(entry, f"it is an inventory host's name, and {where} {reader.how}")
    for reader in sorted(readers, key=lambda r: abs(r.at - start)):
        folders = held_words.folder_readings(rel, reader.folder)
        for entry in entries:
            if entry.parent in folders and (held_words.fits(entry, word) if reader.lists
                                            else held_words.fits(entry, word, reader.prefix, reader.suffix)):
                return note(entry, f"{rel} reads {entry.parent or '.'}/ by name: it {reader.how}")
    if rel.endswith(".nix"):  # `nixosConfigurations.pug = mkHost ./hosts/pug;`
        value = held_words.nix_binding(data, start, end)
        for found in _NIX_PATH.finditer(value or b""):
            target = resolver.resolve(rel, found.group().decode("utf-8", "surrogateescape"))
            for entry in entries:
                if target is not None and (target == entry.path or target.startswith(entry.path + "/")):
                    return note(entry, f"its binding's value names {target}")
    return None


def codec(data: bytes) -> str:
    """How Lines counts a file's characters: UTF-8, or (a file that is not UTF-8: Latin-1, CP1252)
    one per byte. A Latin-1 file's `Â°` is two characters there, one read as UTF-8."""
    return "utf-8" if data.isascii() or is_utf8(data) else "latin-1"


def _offset(data: bytes, line_start: int, column: int, codec: str = "utf-8") -> int:
    """The byte offset of a 1-based character column (Lines.locate counts characters, in the
    file's `codec`)."""
    if codec == "latin-1":
        return line_start + column - 1
    end = data.find(b"\n", line_start)
    line = data[line_start: len(data) if end < 0 else end].decode("utf-8", "surrogateescape")
    return line_start + len(line[: column - 1].encode("utf-8", "surrogateescape"))


def _bounds(data: bytes, start: int, end: int) -> tuple[int, int]:
    left, right = start, end
    while left > 0 and data[left - 1] in _TOKEN_BYTE:
        left -= 1
    while right < len(data) and data[right] in _TOKEN_BYTE:
        right += 1
    return left, right


def _token(data: bytes, start: int, end: int, spelled: bytes | None = None) -> str | None:
    """The path the token around data[start:end] spells (that span spelled `spelled` where
    given), `/`-separated: a Windows `\\` is a separator; of a brace set (`hosts/{pug,rex}/`) or
    a comma list, the alternative holding the match; after a variable (`${REPO}/hosts/pug`), the
    rest, rooted nowhere (`{}/hosts/pug`). None for a bare name: the token is the match alone
    (`pug.lab.lan` is a host, even where a folder has that name)."""
    left, right = _bounds(data, start, end)
    middle = data[start:end] if spelled is None else spelled
    raw = (data[left:start] + middle + data[end:right]).decode("utf-8", "surrogateescape")
    at = len(data[left:start].decode("utf-8", "surrogateescape"))
    name = middle.decode("utf-8", "surrogateescape")
    raw, at = _alternative(raw, at, len(name))
    rooted = ""
    # After a command substitution or a make function (`$(CURDIR)/hosts/pug`, `$(dirname "$0")/`,
    # `$(pwd)/`), a batch file's own folder (`%~dp0hosts\pug`) or `%REPO%\`: rooted at a value
    # not known, as after `${REPO}` (break-it round 14, finding 7).
    prefix = _WINDOWS_VARIABLE.match(raw)
    if prefix is not None and prefix.end() <= at:
        rest = raw[prefix.end():]
        bare = rest.lstrip("\\/")
        raw, at, rooted = bare, at - prefix.end() - (len(rest) - len(bare)), _VARIABLE
    elif data[left - 1: left] in (b")", b"}") and raw.startswith("/"):
        raw, at, rooted = raw[1:], at - 1, _VARIABLE
    cut = max(raw.rfind("}", 0, at), raw.rfind("$", 0, at))
    if cut >= 0:  # `${REPO}/hosts/pug`, `$REPO/hosts/pug`: the variable's value is not known
        slash = raw.find("/", cut)
        if slash < 0 or slash >= at:
            raw, at, rooted = raw[at:], 0, _VARIABLE
        else:
            raw, at, rooted = raw[slash + 1:], at - slash - 1, _VARIABLE
    # A URL's escaped separator (`hosts%2Fpug%2Fapp.conf`, a forge's files API) is one too.
    path = re.sub("%2[Ff]", "/", raw.replace("\\", "/")).rstrip(".,")
    if "/" not in path and path.strip("/").lower() == name.lower():
        return None
    return rooted + path


def _alternative(raw: str, at: int, length: int) -> tuple[str, int]:
    """`raw` cut to the comma-separated piece holding raw[at:at+length], its brace set around the
    match replaced by the match's own alternative."""
    depth, pieces, begin = 0, [], 0
    for i, char in enumerate(raw):
        depth += char == "{"
        depth -= char == "}" and depth > 0
        if char == "," and depth == 0:
            pieces.append((begin, i))
            begin = i + 1
    pieces.append((begin, len(raw)))
    begin, end = next(((b, e) for b, e in pieces if b <= at < e), (0, len(raw)))
    raw, at = raw[begin:end], at - begin
    opening = raw.rfind("{", 0, at)
    closing = raw.find("}", at + length)
    if opening >= 0 and closing >= 0 and "}" not in raw[opening:at] and raw[opening - 1: opening] != "$":
        inner = raw[opening + 1: closing]
        offset = at - opening - 1
        starts = [0, *(i + 1 for i, c in enumerate(inner) if c == ",")]
        first = max(b for b in starts if b <= offset)
        last = inner.find(",", first)
        choice = inner[first: len(inner) if last < 0 else last]
        raw = raw[:opening] + choice + raw[closing + 1:]
        at = opening + (offset - first)
    return raw, at


_QUOTES = b"\"'"
# A call joining its arguments into a path: Python `os.path.join(`, pathlib `Path(`, `.joinpath(`;
# Go `filepath.Join(`, `path.Join(`; Node `path.join(`, `path.resolve(`; Java `Paths.get(`,
# `Path.of(`; C# `Path.Combine(`; Ruby `File.join(`; Rust `Path::new(` (break-it round 17, #15).
_JOIN_CALL = lazy_re.compile(
    rb"(?:[Jj]oin|joinpath|(?<![A-Za-z0-9_])(?:Pure|Posix|Windows)?Path|Combine|resolve"
                        rb"|Paths\.get|Path\.of|Path(?:Buf)?::(?:new|from))[ \t]*\($")
# A method joining its argument to the path before it: Rust `Path::new("hosts").join("pug")`,
# pathlib `Path("hosts").joinpath("pug")`, Java `Path.of("hosts").resolve("pug")`.
_JOIN_METHOD = lazy_re.compile(rb"\.(?:join|joinpath|resolve|Join)[ \t]*\($")
_CALL_SPAN = 400  # how far a join call split over lines is read around its argument


def _joined(data: bytes, start: int, end: int) -> str | None:
    """The path a string literal holding data[start:end] makes with the literals joined to it on
    its line (break-it round 15, finding 5): Python's `os.path.join("hosts", "pug")` and pathlib's
    `Path("hosts") / "pug"`, Nix's `../hosts + "/pug/app.conf"`, Jinja's `'hosts/' ~ 'pug'`; None
    where the literal is joined to nothing."""
    line_start = data.rfind(b"\n", 0, start) + 1
    line_end = data.find(b"\n", end)
    line = data[line_start: len(data) if line_end < 0 else line_end]
    call = _split_call(data, start, end)  # Go's `filepath.Join(\n\t"hosts",\n\t"pug",\n)`
    if call is not None:
        line_start, line = call
    at = start - line_start
    left = max(line.rfind(q, 0, at) for q in (b'"', b"'"))
    if left < 0:
        return None
    quote = line[left:left + 1]
    right = line.find(quote, at + (end - start))
    if right < 0:
        return None
    pieces = [line[left + 1:right]]
    joins = 0
    i = left
    while True:  # to the left
        j = i - 1
        while j >= 0 and line[j:j + 1] in b" \t":
            j -= 1
        op = line[j:j + 1]
        if op == b"(" and _JOIN_METHOD.search(line[:j + 1]):  # `Path::new("hosts").join("pug")`
            dot = line.rfind(b".", 0, j)
            piece, k = _piece_before(line, dot - 1)
            if piece is None:
                break
            pieces.insert(0, piece)
            joins += 1
            i = k
            continue
        if op not in (b",", b"/", b"+", b"~"):
            break
        if op == b"," and not _in_join_call(line, j):
            break
        k = j - 1
        while k >= 0 and line[k:k + 1] in b" \t":
            k -= 1
        piece, k = _piece_before(line, k)
        if piece is None:
            break
        pieces.insert(0, piece)
        joins += 1
        i = k
    i = right
    while True:  # to the right
        j = i + 1
        while j < len(line) and line[j:j + 1] in b" \t":
            j += 1
        op = line[j:j + 1]
        if op not in (b",", b"/", b"+", b"~") or (op == b"," and not _in_join_call(line, left)):
            break
        k = j + 1
        while k < len(line) and line[k:k + 1] in b" \t":
            k += 1
        if line[k:k + 1] not in _QUOTES:
            break
        close = line.find(line[k:k + 1], k + 1)
        if close < 0:
            break
        pieces.append(line[k + 1:close])
        joins += 1
        i = close
    if not joins:
        return None
    text = "/".join(p.decode("utf-8", "surrogateescape").strip("/") for p in pieces if p.strip(b"/"))
    return text if "/" in text else None


def _split_call(data: bytes, start: int, end: int) -> tuple[int, bytes] | None:
    """Where a join call holding data[start:end] spans lines: (the offset of its first line's start,
    the text from there to its closing paren with each line break a blank, so offsets hold)."""
    depth = 0
    i = start - 1
    low = max(0, start - _CALL_SPAN)
    while i >= low:
        c = data[i]
        if c == 0x29:  # )
            depth += 1
        elif c == 0x28:  # (
            if depth == 0:
                break
            depth -= 1
        elif c in b"{};":
            return None
        i -= 1
    else:
        return None
    if b"\n" not in data[i:start]:
        return None  # on one line: read as it is
    head_start = data.rfind(b"\n", 0, i) + 1
    if _JOIN_CALL.search(data[head_start:i + 1]) is None:
        return None
    depth = 0
    j = end
    high = min(len(data), end + _CALL_SPAN)
    while j < high:
        c = data[j]
        if c == 0x28:
            depth += 1
        elif c == 0x29:
            if depth == 0:
                break
            depth -= 1
        j += 1
    else:
        return None
    return head_start, data[head_start:j + 1].replace(b"\r", b" ").replace(b"\n", b" ")


def _in_join_call(line: bytes, at: int) -> bool:
    """Is position `at` inside the parentheses of a join call (`os.path.join(`, `Path(`), or a list
    joined into a path (Jinja `['hosts', 'pug'] | path_join`, Python `"/".join([...])`, Terraform
    `join("/", [...])`)?"""
    depth = 0
    for i in range(at, -1, -1):
        c = line[i:i + 1]
        if c in b")]":
            depth += 1
        elif c in b"([":
            if depth == 0:
                if c == b"[":
                    return _joined_list(line, i)
                return _JOIN_CALL.search(line[:i + 1]) is not None
            depth -= 1
    return False


_LIST_JOIN_AFTER = lazy_re.compile(rb"[ \t]*\|[ \t]*(?:path_join|join\([ \t]*[\"']/[\"'][ \t]*\))")
_LIST_JOIN_BEFORE = lazy_re.compile(rb"(?:[\"']/[\"']\.join|join[ \t]*\([ \t]*[\"']/[\"'][ \t]*,|path_join)"
                               rb"[ \t]*\(?[ \t]*$|(?:[Jj]oin|joinpath|Path)[ \t]*\([ \t]*\*[ \t]*$")


def _joined_list(line: bytes, open_: int) -> bool:
    """Is the list opening at `open_` joined into a path: `| path_join` or `| join('/')` after its
    close, `"/".join(`, `join("/", ` or a join call's `*` (`os.path.join(*[`) before it?"""
    if _LIST_JOIN_BEFORE.search(line[:open_]):
        return True
    depth = 0
    for i in range(open_, len(line)):
        c = line[i:i + 1]
        if c == b"[":
            depth += 1
        elif c == b"]":
            depth -= 1
            if depth == 0:
                return _LIST_JOIN_AFTER.match(line, i + 1) is not None
    return False


def _piece_before(line: bytes, k: int) -> tuple[bytes | None, int]:
    """The literal ending at `k` (a quoted string, `Path("hosts")`, or a bare path such as
    `../hosts`) and where it starts."""
    c = line[k:k + 1]
    if c in _QUOTES:
        open_ = line.rfind(c, 0, k)
        return (line[open_ + 1:k], open_) if open_ >= 0 else (None, k)
    if c == b")":
        open_ = line.rfind(b"(", 0, k)
        inner = line[open_ + 1:k].strip()
        if open_ >= 0 and len(inner) >= 2 and inner[:1] in _QUOTES and inner[-1:] == inner[:1]:
            return inner[1:-1], open_
        return None, k
    begin = k
    while begin >= 0 and line[begin] in _PATH_BYTE:
        begin -= 1
    bare = line[begin + 1:k + 1]
    return (bare, begin + 1) if (bare and b"/" in bare) or bare.startswith(b"..") else (None, k)


def _folder(data: bytes, start: int, end: int) -> str | None:
    """The token up to the end of the component holding data[start:end], where a `/` follows it:
    the folder it names (`hosts/pug` of `hosts/pug/secrets.ya?ml$`)."""
    token = _token(data, start, end)
    if token is None:
        return None
    name = data[start:end].decode("utf-8", "surrogateescape")
    at = token.find(name)
    slash = token.find("/", at + len(name)) if at >= 0 else -1
    return None if slash < 0 else token[:slash]


class _Resolver:
    """Which held path a token names, if any: exact readings first (a token that names a path the
    sweep moves, or any other listed path, is no held one), then the tail of a held path."""

    def __init__(self, held: dict[str, Hold], listed: Iterable[str],
                 project: LoadedProject | None = None) -> None:
        self.project = project
        self._own: list[tuple[str, held_words.Reader]] | None = None
        self._playbooks: dict[str, bool] = {}
        self.held = held
        self.files = files = frozenset(listed)
        # Folders too: a token naming a folder the sweep moves (`stacks/pug/`) is no held path's tail.
        self.listed = files | {path[:i] for path in files for i, c in enumerate(path) if c == "/"}
        self.points = [path for path in held if path.startswith("/")]
        # each held path's components holding an old value, by old value (sweep/held_words.py)
        self.entries = held_words.entries((path, hold.olds) for path, hold in held.items())
        self.opaque = frozenset(path for path, hold in held.items() if hold.below)
        self.by_last: dict[str, list[str]] = {}
        for path in held.keys() - set(self.points):
            self.by_last.setdefault(path.rpartition("/")[2], []).append(path)
        # The listed paths that are not held, by their last component, where a held path ends so:
        # a tail both name is read as the one that follows (break-it round 14, finding 6).
        self.live_by_last: dict[str, list[str]] = {}
        for path in self.listed - held.keys():
            last = path.rpartition("/")[2]
            if last in self.by_last:
                self.live_by_last.setdefault(last, []).append(path)

    def resolve(self, rel: str, token: str) -> str | None:
        if "/" not in token and "." not in token:
            return None  # a bare word: a name, not a path
        rooted = token.startswith(_VARIABLE)
        if rooted:
            token = token[len(_VARIABLE):]
        parts = [p for p in token.split("/") if p not in ("", ".", "~")]
        if not parts:
            return None
        host = token.startswith(("/", "~"))  # a path on some machine, not in the repo
        if not host and ("*" in token or "?" in token):
            return self._glob(rel, token, rooted)
        if token.startswith("/"):  # a mount point a unit keeps, or a path below it
            bare = token.rstrip("/")
            for point in self.points:
                if bare == point or bare.startswith(point + "/"):
                    return point
        for path in self._readings(rel, token, rooted=rooted):
            if path in self.held:
                return path
            inside = self._below(path)
            if inside is not None:
                return inside  # a path into a submodule named so (`hosts/pug/site.yml`)
            if path in self.listed:
                return None  # a file the sweep handles as usual
        if len(parts) < 2:
            return None
        tail = "/".join(parts)
        if self._live_tail(parts, host):
            return None  # a listed path the sweep handles as usual ends so too: it is that one
        for path in self.by_last.get(parts[-1], ()):
            # A relative token that is the tail of a held path (`pug/compose.yaml`, read from some
            # base folder); never a machine's path (`/etc/nginx/sites-enabled/pug.conf` is no
            # repo path, whatever record holds a copy of that name).
            if not host and (path == tail or path.endswith("/" + tail)):
                return path
            # A held path at the end of a longer token (a checkout elsewhere:
            # `/srv/infra/hosts/pug/compose.yaml`), where the held path starts at a folder of the
            # repo's own (`hosts/`), not at the old value (`pug/app.conf` ends many host paths).
            first = path.partition("/")[0]
            own = not any(old in first for old in self.held[path].olds)
            if "/" in path and tail.endswith("/" + path) and own:
                return path
        return None

    def beside_playbook(self, folder: str) -> bool:
        """Is `folder` (`playbooks/host_vars`) a `host_vars/` beside a playbook, which Ansible reads
        for every inventory host whatever the inventory (break-it round 17, #10)?"""
        if posixpath.basename(folder) != "host_vars" or self.project is None:
            return False
        parent = posixpath.dirname(folder)
        if parent not in self._playbooks:
            self._playbooks[parent] = vars_names.holds_playbook(self.project.root, parent)
        return self._playbooks[parent]

    def own_readers(self) -> list[tuple[str, held_words.Reader]]:
        """Each current file's places joining the machine's own name into a path (one `git grep`)."""
        if self._own is None:
            self._own = [] if self.project is None else _own_readers(self.project)
        return self._own

    def _below(self, path: str) -> str | None:
        """The held folder, unlisted inside (a submodule), that `path` lies below, or None."""
        if not self.opaque:
            return None
        at = path.find("/")
        while at != -1:
            if path[:at] in self.opaque:
                return path[:at]
            at = path.find("/", at + 1)
        return None

    def _glob(self, rel: str, token: str, rooted: bool) -> str | None:
        """A glob (`certs/*/pug.pem`, `**hosts/pug/x**` in bold) names a held path it matches where
        it matches no listed path the sweep handles as usual (break-it round 15, finding 7)."""
        readings = [f"*/{token.lstrip('/')}"] if rooted else self._readings(rel, token)
        for reading in readings:
            held = [p for p in self.held if not p.startswith("/") and fnmatch.fnmatchcase(p, reading)]
            if held and not any(fnmatch.fnmatchcase(p, reading) for p in self.files - self.held.keys()):
                return held[0]
        return None

    def names_listed(self, rel: str, token: str, *, tails: bool = False) -> bool:
        """Does `token`, read exactly (or, with `tails`, as a relative tail too), name a listed file
        or folder that is not held?"""
        rooted = token.startswith(_VARIABLE)
        token = token[len(_VARIABLE):] if rooted else token
        if any(path in self.listed for path in self._readings(rel, token, rooted=rooted)):
            return True
        parts = [p for p in token.split("/") if p not in ("", ".", "~")]
        return tails and len(parts) >= 2 and self._live_tail(parts, token.startswith(("/", "~")))

    def _live_tail(self, parts: list[str], host: bool) -> bool:
        """Does a listed path that is not held end with this relative tail, or (any token) stand
        at the token's end (`/srv/infra/stacks/pug/compose.yaml` of a moving `stacks/pug/...`)?"""
        tail = "/".join(parts)
        return any((not host and (path == tail or path.endswith("/" + tail)))
                   or ("/" in path and tail.endswith("/" + path))
                   for path in self.live_by_last.get(parts[-1], ()))

    def readings(self, rel: str, token: str) -> list[str]:
        return self._readings(rel, token)

    def _readings(self, rel: str, token: str, *, rooted: bool = False) -> list[str]:
        """Where `token` points when read as a repo path: from `rel`'s folder, from the root, from
        an Ansible role's `files/` and `templates/`; none for an absolute or home path, nor for a
        token after a variable (only its tail is matched)."""
        if rooted or token.startswith(("/", "~")):
            return []
        here = posixpath.dirname(rel)
        readings = [posixpath.join(here, token), token]
        if posixpath.basename(here) in ("tasks", "handlers", "templates", "files", "defaults", "vars"):
            role = posixpath.dirname(here)
            readings += [posixpath.join(role, "files", token), posixpath.join(role, "templates", token)]
        out = []
        for reading in readings:
            path = posixpath.normpath(reading).rstrip("/")
            if not (path.startswith("../") or path in ("..", ".")):
                out.append(path)
        return out


def _own_readers(project: LoadedProject) -> list[tuple[str, held_words.Reader]]:
    classifier = project.classifier
    return held_words.own_readers_in(project.root, lambda rel: classifier.classify(rel).status == CURRENT,
                                     project.config.max_file_size)


DANGLING = "dangling-path"
DANGLING_HINT = ("a path written with the new value where the repo still holds it under the old one (a "
                 "sweep before this check, or a hand edit): write the old name back, or rename the path")
_NAME_BYTE = b"A-Za-z0-9-"


def dangling_references(project: LoadedProject, scan: ScanResult,
                        held: dict[str, Hold] | None = None) -> list[Reference]:
    """verify's guard for the same class seen from after the edit: a current file that names, with
    a new value, a path that does not exist, where the old value's spelling names a held path
    (`hosts/wolf/compose.yaml` beside a held `hosts/pug/`). Residuals `dangling-path`."""
    held = held_paths(project, scan) if held is None else held
    if not held or not scan.holding_new:
        return []
    olds = frozenset(old for hold in held.values() for old in hold.olds)
    news = {new: old for old, new in project.config.renames.pairs() if old in olds and new}
    if not news:
        return []
    finder = re.compile(b"(?<![" + _NAME_BYTE + b"])(?:" +
                        b"|".join(re.escape(n.encode()) for n in sorted(news, key=len, reverse=True)) +
                        b")(?![" + _NAME_BYTE + b"])")
    resolver = _Resolver(held, scan.paths, project)
    out = []
    for rel in scan.holding_new:
        if project.classifier.classify(rel).status != CURRENT:
            continue
        content = read_content(project.root / rel, project.config.max_file_size)
        # UTF-16/32 with a BOM is read as the scan reads it: its UTF-8 transcoding, lines and
        # columns counted there as the scan counts its references
        if content is None or content.kind not in ("text", "encoding"):
            continue
        data = content.data
        read = codec(data)
        readers: list[held_words.Reader] | None = None
        for hit in finder.finditer(data):
            new = hit.group().decode()
            start, end = hit.start(), hit.end()
            line = data.count(b"\n", 0, start)
            line_start = data.rfind(b"\n", 0, start) + 1
            column = len(data[line_start:start].decode(read, "surrogateescape")) + 1
            token = _token(data, start, end)
            if token is None or "/" not in token:
                # `tar -C hosts wolf`, or a word a file joins into a held entry's folder
                # (`knownHosts = [ "wolf" ]` beside `readDir ./.`): an earlier sweep's words
                word = _dangling_word(rel, data, start, end, news[new], new, resolver, readers)
                readers = word[0]
                if word[1] is not None:
                    out.append(Reference(rel, line + 1, column, new, news[new], RESIDUAL, DANGLING,
                                         f"{word[1]}; {DANGLING_HINT}"))
                continue
            if resolver.names_listed(rel, token, tails=True):
                continue
            spelled = _token(data, start, end, news[new].encode())
            target = None if spelled is None else resolver.resolve(rel, spelled)
            if target is None or target.startswith("/"):  # a mount point: the unit names it anew
                continue
            out.append(Reference(rel, line + 1, column, new, news[new], RESIDUAL, DANGLING,
                                 f"names a path that does not exist; {target} keeps the old name "
                                 f"({held[target].why}); {DANGLING_HINT}"))
    return out


_Readers = list[held_words.Reader] | None


def _dangling_word(rel: str, data: bytes, start: int, end: int, old: str, new: str, resolver: _Resolver,
                   readers: _Readers) -> tuple[_Readers, str | None]:
    """Why a word written new names nothing where its old spelling names a held entry (a
    directory argument's word, a word a file joins into the entry's folder); the file's readers,
    read once."""
    target = _split_target(rel, data, start, old, resolver)
    if target is not None and not target.startswith("/"):
        spelled = _split_target(rel, data, start, new, resolver)
        directory = held_words.split_directory(data, start)
        if spelled is None and directory is not None and not directory[1] \
                and not resolver.names_listed(rel, f"{directory[0].rstrip('/')}/{new}"):
            return readers, (f"names a path that does not exist; {target} keeps the old name "
                             f"({resolver.held[target].why})")
    if _token(data, start, end) is not None:
        return readers, None
    readers = held_words.readers(data) if readers is None else readers
    found = _word_hold(rel, data, start, end, old, resolver, readers)
    if found is None:
        return readers, None
    entry, why = found
    renamed = posixpath.join(entry.parent, entry.name.replace(old, new))
    if renamed in resolver.listed:
        return readers, None  # the new name is there too
    return readers, (f"{why.split(': rewritten')[0]}; written `{new}`, it names {renamed}, which does "
                     "not exist")
