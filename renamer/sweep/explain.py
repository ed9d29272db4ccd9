"""renamer explain: for one file (or one line), each decision and the rule that made it.

The file is scanned exactly as sweep, verify and audit scan it; this module only
names, for each old value or near-miss found, which rule decided: the allowlist
pattern with its file:line, the record class, the dated section and its date,
the keep rule and its reason, the inline marker, the boundary that did not hold,
or the structure guarantee that refused the edit.
"""

from __future__ import annotations

import stat
from dataclasses import dataclass, field
from typing import Literal

from renamer import vcs_listing
from renamer.classify import CURRENT, EXCLUDED, RECORD, UNCLASSIFIED, FileStatus
from renamer.errors import ConfigError
from renamer.near_miss import padded_note
from renamer.project import LoadedProject
from renamer.sweep.content import read_scanned
from renamer.sweep.explain_rules import file_rule, kept_rule
from renamer.sweep.included import IncludedBy
from renamer.sweep.model import KEPT, RESIDUAL, SKIPPED, NearMiss, Reference
from renamer.sweep.scan import FileScanner, ScanOptions
from renamer.sweep.zone_origins import listed_zone_origins

DecisionKind = Literal["rewritten", "kept", "residual", "unclassified", "skipped", "near-miss",
                       "derived-name"]
ExplainedStatus = FileStatus | Literal["ignored", "not scanned"]  # a file, as explain sees it


@dataclass(frozen=True)
class Decision:
    line: int
    column: int
    found: str  # the spelling in the file
    new: str | None  # what the sweep writes, where it writes
    decision: DecisionKind
    rule: str  # the rule that decided, in words, with where it is written
    key_path: str | None = None
    text: str = ""


@dataclass(frozen=True)
class Explanation:
    path: str
    status: ExplainedStatus
    rule: str  # why the file has that status
    line: int | None  # the one line asked about, if any
    decisions: list[Decision] = field(default_factory=list)


def explain(project: LoadedProject, rel: str, line: int | None = None) -> Explanation:
    """What renamer decides in `rel` (repo-relative), on `line` only when given."""
    classifier = project.classifier
    klass = classifier.classify(rel)
    asked = klass.status != EXCLUDED and project.git
    ignored_by = vcs_listing.ignore_rule(project.root, rel) if asked else None
    if ignored_by is not None:
        return Explanation(rel, "ignored", f"git ignores this file ({ignored_by}): never scanned, unless "
                           "--include-ignored is given and a `current` pattern covers it", line)
    if klass.status in (RECORD, UNCLASSIFIED):  # a preset's folder guess: the content or an include decides
        try:
            mode = (project.root / rel).lstat().st_mode
            data = (project.root / rel).read_bytes() if stat.S_ISREG(mode) else b""
        except OSError:
            mode, data = 0, b""
        if data and project.matcher.might_match(data):  # as the sweep asks: where it holds an old value
            named = IncludedBy(project.root, lambda path: classifier.classify(path).status == CURRENT,
                               classifier.preset_folder).naming
            klass = classifier.by_content(rel, klass, data, bool(mode & 0o111), named)
    status, rule = klass.status, file_rule(project, rel, klass)
    if status == EXCLUDED:
        return Explanation(rel, status, rule, line)
    origins = listed_zone_origins(project.root, project.git, project.config.max_file_size,
                                  lambda path: classifier.classify(path).status == RECORD)
    options = ScanOptions(locate=True, locate_records=True, loose=True, zone_origins=origins)
    result = FileScanner(project, options).scan(rel)
    if result is None:
        return Explanation(rel, "not scanned", "not a file renamer reads (a folder, a socket, gone)", line)
    lines = _lines(project, rel)
    if line is not None and line > len(lines):  # past the end: no line to explain (round 8, severity 3)
        held = f"only {len(lines)} line{'' if len(lines) == 1 else 's'}" if lines else "no lines"
        raise ConfigError(f"{rel}:{line}: no such line: the file has {held}")
    decisions = [_reference(project, rel, ref, lines) for ref in result.references
                 if line is None or ref.line == line]
    decisions += [_near_miss(miss) for miss in result.near_misses if line is None or miss.line == line]
    decisions.sort(key=lambda d: (d.line, d.column))
    return Explanation(rel, status, rule, line, decisions)


def _lines(project: LoadedProject, rel: str) -> list[str]:
    try:
        return read_scanned(project.root / rel).decode("utf-8", "replace").splitlines()
    except OSError:
        return []


def _reference(project: LoadedProject, rel: str, ref: Reference, lines: list[str]) -> Decision:
    def made(decision: DecisionKind, rule: str, new: str | None = None) -> Decision:
        return Decision(ref.line, ref.column, ref.old, new, decision, rule, ref.key_path, ref.text)

    if ref.role == "path":
        rule = "the file's path holds an old value: " + (
            f"renamed to follow ({ref.note})" if ref.rewritable else (ref.note or ref.reason or "kept"))
        return made("rewritten" if ref.rewritable else ref.status, rule, ref.new if ref.rewritable else None)
    if ref.status == RESIDUAL:
        if ref.rewritable and ref.note and not ref.note.startswith("current-state file"):
            # a key reference, a zone name's spelling: the note says why
            return made("rewritten", f"current-state file, {ref.note}", ref.new)
        if ref.rewritable:
            return made("rewritten", "current-state file, whole-value match at a name boundary: "
                        "`renamer sweep` rewrites it", ref.new)
        return made("residual", f"refused ({ref.reason}): {ref.note}")
    if ref.status == KEPT:
        return made("kept", kept_rule(project, rel, ref, lines))
    if ref.status == SKIPPED:
        return made("skipped", f"{ref.reason}: {ref.note}")
    return made("unclassified", ref.note or "no allowlist rule covers this file")


def _near_miss(miss: NearMiss) -> Decision:
    why = f" ({miss.why})" if miss.why else ""
    if miss.kind == "derived-name":
        rule = (f"a longer name built on {miss.like!r}: not renamed unless renamer.yaml lists it or "
                "sets options.derived_names")
    elif miss.why == "zero-padded":
        rule = (f"looks like {miss.like!r}{why}, which the exact rules do not match: "
                f"{padded_note(miss.text)}; never rewritten; verify warns, --strict fails")
    elif miss.name:
        rule = (f"{miss.name!r} holds {miss.like!r} inside a longer name{why}, which the exact rules (whole "
                "value, name boundaries, exact spelling) do not match: never rewritten; verify warns, "
                "--strict fails")
    else:
        rule = (f"looks like {miss.like!r}{why}, but the exact rules (whole value, name boundaries, "
                "exact spelling) do not match it: never rewritten; verify warns, --strict fails")
    return Decision(miss.line, miss.column, miss.text, None, miss.kind, rule, None, miss.line_text)
