"""renamer init: scaffold renamer.yaml and an allowlist from where the old values occur.

Proposals, not verdicts: record classes get a reason to edit, and whatever
looks neither like current state nor like history is left unclassified (and
listed) so `verify` keeps pointing at it until someone decides.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from renamer import ignore, vcs
from renamer.allowlist import load_allowlists
from renamer.atomic import save
from renamer.classify import FILE_DATE, PathPatterns
from renamer.config import DEFAULT_MAX_FILE_SIZE, load_config
from renamer.errors import ConfigError, UnsafeError
from renamer.match import Matcher
from renamer.names import host_name_problem, parse_address
from renamer.shipped import shipped
from renamer.sweep.content import read_content
from renamer.words import plural

_MOVE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,62}\Z")
# Folder names that hold history whatever their files say.
_HISTORY = re.compile(r"(?i)^(.*memory\.d|journals?|logbook|history|incidents?|postmortems?|post-mortems?|"
                      r"archives?|archived|backups?|changelog\.d|decisions?|adrs?|minutes)$")
# Names that say nothing for sure: notes/ may be dated history or today's runbooks. Their files
# go to the unclassified list for a person to decide, never into a record class by name alone.
_AMBIGUOUS = re.compile(r"(?i)^(notes?|memory|memories|logs?|reports?|wiki|journal-notes)$")
# Test folders spell old values in fixtures on purpose: their own class, with a reason to edit.
_FIXTURES = re.compile(r"(?i)^(tests?|specs?|fixtures?|testdata|test-data|__tests__|__fixtures__)$")
FIXTURES_CLASS = "test-fixtures"


@dataclass
class Proposal:
    pairs: list[tuple[str, str]]
    files_with_values: list[str] = field(default_factory=list)
    current: list[str] = field(default_factory=list)  # patterns
    current_files: list[str] = field(default_factory=list)
    records: dict[str, list[str]] = field(default_factory=dict)  # folder pattern -> files
    fixtures: dict[str, list[str]] = field(default_factory=dict)  # folder pattern -> files
    covered_by_preset: list[str] = field(default_factory=list)
    dated_files: list[str] = field(default_factory=list)
    unclassified: list[str] = field(default_factory=list)
    why_unclassified: dict[str, str] = field(default_factory=dict)
    ranges: list[str] = field(default_factory=list)  # path:line: text, for each refused occurrence


def parse_pairs(values: tuple[str, ...]) -> list[tuple[str, str]]:
    pairs = []
    for value in values:
        old, sep, new = value.partition("=")
        old, new = old.strip(), new.strip()
        if not sep or not old or not new:
            raise ConfigError(f"--from {value!r}: expected OLD=NEW, e.g. --from ana-ml2=fv-ml1")
        for side in (old, new):
            if parse_address(side) is None and host_name_problem(side):
                raise ConfigError(f"--from {value!r}: {host_name_problem(side)}")
        if (parse_address(old) is None) != (parse_address(new) is None):
            raise ConfigError(f"--from {value!r}: maps a host name to an address (or back)")
        pairs.append((old, new))
    if not pairs:
        raise ConfigError("init needs at least one --from OLD=NEW")
    return pairs


def propose(root: Path, pairs: list[tuple[str, str]], config_name: str, allowlist_rel: str) -> Proposal:
    """Every file holding an old value lands in exactly one place: current, a record class
    (a history folder, test fixtures, the preset, a dated name), or the unclassified list."""
    hosts = [(o, n) for o, n in pairs if parse_address(o) is None]
    addresses = [(o, n) for o, n in pairs if parse_address(o) is not None]
    matcher = Matcher(hosts, addresses)
    files = vcs.listed_files(root, ignored=False)[0] if vcs.is_git(root) else ignore.walk(root)[0]
    preset = _preset_patterns()
    proposal = Proposal(pairs)
    skip = {config_name, allowlist_rel}
    for rel in files:
        if rel in skip or rel.startswith("dns/") or rel.rsplit("/", 1)[-1] == config_name:
            continue
        content = read_content(root / rel, DEFAULT_MAX_FILE_SIZE)
        if content is None or not content.data or not matcher.might_match(content.data):
            continue
        matches = matcher.find(content.data)
        if not matches and not matcher.find(os.fsencode(rel)):
            continue
        proposal.files_with_values.append(rel)
        proposal.ranges += [_where(rel, content.data, m.start, m.end) for m in matches
                            if m.refused in ("range", "pattern")]
    dated_folders = {rel.rsplit("/", 1)[0] if "/" in rel else "" for rel in proposal.files_with_values
                     if FILE_DATE.search(rel.rsplit("/", 1)[-1]) and not preset.match_file(rel)}
    for rel in proposal.files_with_values:
        _place(proposal, rel, preset, dated_folders)
    proposal.current = _current_patterns(proposal.current_files, proposal.unclassified)
    return proposal


def _place(proposal: Proposal, rel: str, preset: PathPatterns, dated_folders: set[str]) -> None:
    folders = rel.split("/")[:-1]
    history = _first(folders, _HISTORY)
    fixtures = _first(folders, _FIXTURES)
    ambiguous = _first(folders, _AMBIGUOUS)
    parent = "/".join(folders)
    if preset.match_file(rel):
        proposal.covered_by_preset.append(rel)
    elif FILE_DATE.search(rel.rsplit("/", 1)[-1]):
        proposal.dated_files.append(rel)
    elif history is not None:
        proposal.records.setdefault(history, []).append(rel)
    elif fixtures is not None:
        proposal.fixtures.setdefault(fixtures, []).append(rel)
    elif ambiguous is not None:
        _unclassified(proposal, rel, f"in {ambiguous.removesuffix('/**')}/: history or current? the name "
                                     "does not say")
    elif parent in dated_folders:
        _unclassified(proposal, rel, "undated, beside dated files: history or current?")
    else:
        proposal.current_files.append(rel)


def _first(folders: list[str], names: re.Pattern[str]) -> str | None:
    """The shallowest folder whose name matches, as a pattern (`docs/adr/**`)."""
    for depth, part in enumerate(folders):
        if names.match(part):
            return "/".join(folders[: depth + 1]) + "/**"
    return None


def _unclassified(proposal: Proposal, rel: str, why: str) -> None:
    proposal.unclassified.append(rel)
    proposal.why_unclassified[rel] = why


def _current_patterns(current: list[str], unclassified: list[str]) -> list[str]:
    """Patterns that cover every current file and no unclassified one: a whole top folder
    where it can, else the file's own folder, else the file."""
    out: list[str] = []
    for rel in sorted(current):
        if "/" not in rel:
            out.append(rel)  # root files: runbooks, tables, READMEs
            continue
        folders = rel.split("/")[:-1]
        for depth in range(1, len(folders) + 1):
            prefix = "/".join(folders[:depth]) + "/"
            if not any(u.startswith(prefix) for u in unclassified):
                pattern = prefix + "**"
                break
        else:
            pattern = rel
        if pattern not in out:
            out.append(pattern)
    return out


def _where(rel: str, data: bytes, start: int, end: int) -> str:
    """path:line: the line (trimmed) holding a range or pattern."""
    del end
    line = data.count(b"\n", 0, start) + 1
    first = data.rfind(b"\n", 0, start) + 1
    last = data.find(b"\n", start)
    text = data[first:last if last != -1 else len(data)].decode("utf-8", "replace").strip()
    return f"{rel}:{line}: {text[:120]}"


def _preset_patterns() -> PathPatterns:
    preset = load_allowlists((shipped("allowlists") / "records-common.yaml",), str)
    return PathPatterns([p for record in preset.records for p in record.patterns])


def render_config(name: str, pairs: list[tuple[str, str]], allowlist_rel: str, today: dt.date) -> str:
    hosts = [(o, n) for o, n in pairs if parse_address(o) is None]
    addresses = [(o, n) for o, n in pairs if parse_address(o) is not None]
    lines = ["# Written by `renamer init`; see the README for every key.", "version: 1",
             f"name: {name}", f"cutover: {today.isoformat()}   # dated records up to this day keep old names",
             "renames:"]
    lines.append("  hosts:" if hosts else "  hosts: {}")
    lines += [f"    {o}: {n}" for o, n in hosts]
    lines.append("  addresses:" if addresses else "  addresses: {}")
    lines += [f"    {o}: {n}" for o, n in addresses]
    lines += ["options:", "  derived_names: false", "  variants: false", f"allowlist: {allowlist_rel}", ""]
    return "\n".join(lines)


def render_allowlist(proposal: Proposal) -> str:
    lines = ["# Written by `renamer init`: review it. Record classes keep old names on purpose;",
             "# edit each reason to say why. Files listed at the end are unclassified: until you",
             "# add them to `current` or a record class, `renamer verify` fails on them.",
             "version: 1", "extends: [records-common]   # incidents, journals, changelogs, archives, backups"]
    lines.append("current:" if proposal.current else "current: []")
    lines += [f"  - {_quote(p)}" for p in proposal.current]
    lines.append("records:" if proposal.records or proposal.fixtures else "records: []")
    for folder, members in sorted(proposal.records.items()):
        name = re.sub(r"[^A-Za-z0-9_.-]+", "-", folder.replace("/**", "").rsplit("/", 1)[-1]).strip("-")
        lines += [f"  - name: {name or 'records'}", f"    paths: [{_quote(folder)}]",
                  f"    reason: {len(members)} file(s) of history that must keep the old names (edit me)"]
    if proposal.fixtures:
        count = sum(len(m) for m in proposal.fixtures.values())
        lines += [f"  - name: {FIXTURES_CLASS}",
                  f"    paths: [{', '.join(_quote(p) for p in sorted(proposal.fixtures))}]",
                  f"    reason: {count} test file(s) spell the old values in fixtures on purpose (edit me; "
                  "or make them current to rewrite them)"]
    lines += ["dated:", "  filenames: true", "  sections:",
              "    - '^#{1,6}\\s+\\[?(?P<date>\\d{4}-\\d{2}-\\d{2})'",
              "    - '^\\[(?P<date>\\d{4}-\\d{2}-\\d{2})\\]'",
              "keep: []", 'inline_marker: "renamer: keep"', 'exclude: [".git/**"]']
    if proposal.unclassified:
        lines.append("# Unclassified (old values found, no rule proposed):")
        lines += [f"#   {rel}  ({proposal.why_unclassified.get(rel, '')})" for rel in proposal.unclassified]
    return "\n".join(lines) + "\n"


def _quote(pattern: str) -> str:
    return f'"{pattern}"' if pattern[:1] in "*[{!&#?|>'\"%@`" or ": " in pattern else pattern


def write_scaffold(root: Path, pairs: list[tuple[str, str]], name: str | None, force: bool,
                   today: dt.date) -> tuple[Proposal, list[Path]]:
    if name is not None and not _MOVE_NAME.match(name):  # it names a file and goes into YAML
        raise ConfigError(f"--name {name!r}: a move name is letters, digits, '.', '_' and '-' "
                          "(it names allowlists/<name>.yaml)")
    slug = name or re.sub(r"[^a-z0-9-]+", "-", f"{pairs[0][1]}-move".lower()).strip("-")
    allowlist_rel = f"allowlists/{slug}.yaml"
    targets = [root / "renamer.yaml", root / allowlist_rel]
    existing = [p for p in targets if p.exists()]
    if existing and not force:
        raise UnsafeError(f"{existing[0]}: already exists; pass --force to overwrite")
    proposal = propose(root, pairs, "renamer.yaml", allowlist_rel)
    config_text = render_config(slug, pairs, allowlist_rel, today)
    allowlist_text = render_allowlist(proposal)
    save(targets[1], allowlist_text.encode(), make_folder=True)
    save(targets[0], config_text.encode())
    load_config(targets[0], root)  # what init writes must load: fail here, not at the first sweep
    return proposal, targets


def summary(proposal: Proposal) -> str:
    lines = [f"Old values found in {plural(len(proposal.files_with_values), 'file')}."]
    if proposal.current:
        lines.append(f"Current state (rewritten by sweep, {plural(len(proposal.current_files), 'file')}): "
                     + ", ".join(proposal.current))
    for folder, members in sorted(proposal.records.items()):
        lines.append(f"Record class proposed: {folder} ({plural(len(members), 'file')}) - edit its reason")
    if proposal.fixtures:
        count = sum(len(m) for m in proposal.fixtures.values())
        lines.append(f"Test fixtures ({FIXTURES_CLASS}): {', '.join(sorted(proposal.fixtures))} "
                     f"({plural(count, 'file')}) - kept unless you make them current")
    if proposal.covered_by_preset:
        lines.append(f"History covered by the records-common preset: "
                     f"{plural(len(proposal.covered_by_preset), 'file')}")
    if proposal.dated_files:
        count = len(proposal.dated_files)
        lines.append(f"Dated file names (kept if dated on or before the cutover): {count}")
    if proposal.unclassified:
        lines.append(f"Could not classify ({len(proposal.unclassified)}; verify fails until you decide):")
        lines += [f"  {rel}  ({proposal.why_unclassified.get(rel, '')})" for rel in proposal.unclassified]
    if proposal.ranges:
        lines.append(f"Ranges and patterns, never rewritten ({len(proposal.ranges)}; "
                     "edit by hand or keep them):")
        lines += [f"  {where}" for where in proposal.ranges]
    return "\n".join(lines) + "\n"
