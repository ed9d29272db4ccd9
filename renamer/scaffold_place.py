"""renamer init's Proposal and where each file goes in it by its path: the preset's history, dated
names, history, test fixtures or current folders, or unclassified; and the `current` patterns that
cover the current files."""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field

from renamer import lazy_re
from renamer.classify import FILE_DATE, literal_pattern
from renamer.preset_folders import PresetClaims
from renamer.scaffold_backups import BACKUP_FOLDER, backup_file_pattern, is_role_name, looks_like_tooling
from renamer.scaffold_live import is_tool_output

# Folder names that hold history whatever their files say.
HISTORY = lazy_re.compile(
    r"(?i)^(.*memory\.d|journals?|logbook|\.?history|incidents?|incident[-_]reports?|postmortems?|"
    r"post[-_]mortems?|outages?|rcas?|release[-_]?notes|\.ipynb_checkpoints|"
                      r"archives?|archived|backups?|changelog\.d|decisions?|adrs?|minutes)$")
# Names that say nothing for sure: notes/ may be dated history or today's runbooks. Their files
# go to the unclassified list for a person to decide, never into a record class by name alone.
_AMBIGUOUS = lazy_re.compile(r"(?i)^(notes?|memory|memories|logs?|reports?|wiki|journal-notes)$")
# Fixture folders freeze data on purpose: their own record class, with a reason to edit.
FIXTURES = lazy_re.compile(
    r"(?i)^(fixtures?|testdata|test-data|__fixtures__|__snapshots__|snapshots?|golden)$")
# Test folders hold both kinds: a test that reads the live configuration (current state: it must
# follow the files it tests) and one that freezes old data. What it reads decides (scaffold_tests.py).
TESTS = lazy_re.compile(r"(?i)^(tests?|specs?|__tests__|t)$")
FIXTURES_CLASS = "test-fixtures"
BACKUPS_CLASS = "backup-copies"


@dataclass
class Proposal:
    pairs: list[tuple[str, str]]
    files_with_values: list[str] = field(default_factory=list)  # in their text or their path
    named_by_path: list[str] = field(default_factory=list)  # a folder or file named after an old value
    current: list[str] = field(default_factory=list)  # patterns
    current_files: list[str] = field(default_factory=list)
    records: dict[str, list[str]] = field(default_factory=dict)  # folder pattern -> files
    record_reasons: dict[str, str] = field(default_factory=dict)  # folder pattern -> why, when not history
    backups: dict[str, list[str]] = field(default_factory=dict)  # backup suffix pattern -> files
    fixtures: dict[str, list[str]] = field(default_factory=dict)  # folder pattern -> files
    live_tests: dict[str, str] = field(default_factory=dict)  # a test made current -> the live file it reads
    covered_by_preset: list[str] = field(default_factory=list)
    dated_files: list[str] = field(default_factory=list)
    unclassified: list[str] = field(default_factory=list)
    why_unclassified: dict[str, str] = field(default_factory=dict)
    ranges: list[str] = field(default_factory=list)  # path:line: text, for each refused occurrence
    # folders named for copies that hold live configuration -> the live file that says so
    live_named: dict[str, str] = field(default_factory=dict)
    live_why: dict[str, str] = field(default_factory=dict)  # the same folders -> why they are live
    backup_records: list[str] = field(default_factory=list)  # folders named for backups, no tool in them
    live_in_preset: list[str] = field(default_factory=list)  # current files a preset folder pattern covers
    live_copies: dict[str, str] = field(default_factory=dict)  # a copy inside a live folder -> its original
    # a file the preset's folder pattern leaves undecided (preset_folders.py) that copies another
    preset_copies: dict[str, str] = field(default_factory=dict)
    # a file a preset's folder pattern keeps by its path whose content runs (a script, a manifest):
    # undecided as the sweep leaves it (classify.by_content) -> why
    content_live: dict[str, str] = field(default_factory=dict)
    # files a preset's folder pattern covers but does not keep (a role named after what it does, a file
    # left undecided) -> the pattern that takes them out of a preset class written again
    preset_freed: dict[str, str] = field(default_factory=dict)
    preset_names: list[str] = field(default_factory=list)  # the preset's record classes: names taken
    # preset classes written again with the live folders taken out: (name, patterns, reason)
    preset_overrides: list[tuple[str, list[str], str]] = field(default_factory=list)


def place(proposal: Proposal, rel: str, preset: PresetClaims, dated_folders: set[str],
          reads: str | None = None) -> None:
    """Put `rel` in one place; `reads`: the live file a test names (scaffold_tests.live_file).
    A folder in `proposal.live_named` (named for copies, holding live configuration) is no record
    by its name: its files are placed as if it were named otherwise; so is a role or chart named
    after what it does (`roles/backup/`, preset_folders.py)."""
    folders = rel.split("/")[:-1]
    live = proposal.live_named
    history = _first(folders, HISTORY, live)
    if history is not None and is_role_name(history):
        history = None
    claimed = preset.claim(rel)
    if claimed is not None and claimed[1].verdict == "live":  # taken out as narrowly as it was judged
        below = rel[len(claimed[1].folder) + 1:].split("/")
        scope = literal_pattern(f"{claimed[1].folder}/{below[0]}")
        proposal.preset_freed[rel] = scope + "/**" if len(below) > 1 else scope
    fixtures = _first(folders, FIXTURES)
    tests = _first(folders, TESTS)
    ambiguous = _first(folders, _AMBIGUOUS)
    backup = _first(folders, BACKUP_FOLDER, live)
    if backup is not None and is_role_name(backup):
        backup = None
    name = rel.rsplit("/", 1)[-1]
    backup_name = backup_file_pattern(name)
    above = {literal_pattern("/".join(folders[: d + 1])) + "/**" for d in range(len(folders))}
    in_live = bool(live.keys() & above)
    parent = "/".join(folders)
    live_copy = in_live and backup is None and history is None and (
        is_tool_output(name) or rel in proposal.live_copies)
    if live_copy:  # before the preset: its folder pattern is taken out for the live folder
        # a dump the live backup service wrote, or a copy of another file: what was, kept
        proposal.records.setdefault(literal_pattern(rel), []).append(rel)
        proposal.record_reasons[literal_pattern(rel)] = (
            f"a copy of {proposal.live_copies[rel]}" if rel in proposal.live_copies
            else "written by a backup tool: a copy of what was")
    # a preset pattern by folder name (`**/backup/**`) is a word in a name too: a live folder's files
    # pass it, unless their own name says copy (a `.bak`, a date)
    elif claimed is not None and claimed[1].verdict != "live" and not (
            in_live and backup_name is None and not FILE_DATE.search(name) and history is None
            and backup is None):
        if claimed[1].verdict == "record" and rel not in proposal.content_live:
            proposal.covered_by_preset.append(rel)
        elif rel in proposal.preset_copies:  # the preset cannot tell by the path; its content can
            proposal.records.setdefault(literal_pattern(rel), []).append(rel)
            proposal.record_reasons[literal_pattern(rel)] = f"a copy of {proposal.preset_copies[rel]}"
        else:
            why = proposal.content_live.get(rel) or claimed[1].why
            proposal.preset_freed[rel] = literal_pattern(rel)
            _unclassified(proposal, rel, f"in {claimed[1].folder}/, which records-common's {claimed[0]} "
                                         f"class names, but {why}: a copy (a record) or live "
                                         "(current)?")
    elif backup_name is not None:  # a copy whatever its date: the cutover does not decide it
        proposal.backups.setdefault(backup_name, []).append(rel)
    elif FILE_DATE.search(rel.rsplit("/", 1)[-1]):
        proposal.dated_files.append(rel)
    elif history is not None:
        proposal.records.setdefault(history, []).append(rel)
    elif fixtures is not None and tests is not None:  # tests/snapshots/: frozen test data
        proposal.fixtures.setdefault(fixtures, []).append(rel)
    elif backup is not None and looks_like_tooling(rel, backup):
        _unclassified(proposal, rel, f"in {backup.removesuffix('/**')}/, named for backups but holding code: "
                                     "the backup tool (current) or an old copy (a record)?")
    elif backup is not None:  # previous_records/, old/, snapshots/ outside tests: copies of what was
        proposal.records.setdefault(backup, []).append(rel)
        proposal.record_reasons[backup] = ("in a folder named as backups or old copies: kept as they were, "
                                           "to roll back to")
    elif fixtures is not None:
        proposal.fixtures.setdefault(fixtures, []).append(rel)
    elif tests is not None and reads is not None:
        proposal.current_files.append(rel)
        proposal.live_tests[rel] = reads
    elif tests is not None:
        _unclassified(proposal, rel, f"a test in {tests.removesuffix('/**')}/ that names no live file: does "
                                     "it check live values (current) or freeze old data (a record)?")
    elif ambiguous is not None:
        _unclassified(proposal, rel, f"in {ambiguous.removesuffix('/**')}/: history or current? the name "
                                     "does not say")
    elif parent in dated_folders:
        _unclassified(proposal, rel, "undated, beside dated files: history or current?")
    else:
        proposal.current_files.append(rel)
        if claimed is not None:
            proposal.live_in_preset.append(rel)


def in_folder(rel: str, names: re.Pattern[str], live: Collection[str] = ()) -> bool:
    return _first(rel.split("/")[:-1], names, live) is not None


def _first(folders: list[str], names: re.Pattern[str], live: Collection[str] = ()) -> str | None:
    """The shallowest folder whose name matches, as a pattern (`docs/adr/**`), the folder's own
    name taken literally (`cfg[1]/**` would cover `cfg1/`); folders in `live` pass over."""
    for depth, part in enumerate(folders):
        if depth and folders[depth - 1].lower() in ("host_vars", "group_vars"):
            return None  # a host's or group's name (`host_vars/backup/`, `group_vars/tests/`)
        if names.match(part):
            pattern = literal_pattern("/".join(folders[: depth + 1])) + "/**"
            if pattern not in live:
                return pattern
    return None


def _unclassified(proposal: Proposal, rel: str, why: str) -> None:
    proposal.unclassified.append(rel)
    proposal.why_unclassified[rel] = why


def current_patterns(current: list[str], unclassified: list[str]) -> list[str]:
    """Patterns that cover every current file and no unclassified one: a whole top folder
    where it can, else the file's own folder, else the file."""
    out: list[str] = []
    for rel in sorted(current):
        if "/" not in rel:
            out.append(literal_pattern(rel))  # root files: runbooks, tables, READMEs
            continue
        folders = rel.split("/")[:-1]
        for depth in range(1, len(folders) + 1):
            prefix = "/".join(folders[:depth]) + "/"
            if not any(u.startswith(prefix) for u in unclassified):
                pattern = literal_pattern(prefix) + "**"
                break
        else:
            pattern = literal_pattern(rel)
        if pattern not in out:
            out.append(pattern)
    return out
