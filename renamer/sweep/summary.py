"""Counts over a scan: the numbers behind sweep summaries, verdicts, commit messages and audits."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from renamer.classify import CURRENT
from renamer.sweep.folders import FolderMove
from renamer.sweep.model import (
    KEPT,
    NAMED_LIKE,
    RESIDUAL,
    SKIPPED,
    UNCLASSIFIED,
    NearMiss,
    Reference,
    ScanResult,
)
from renamer.sweep.past_lines import PastLine
from renamer.sweep.pins import Pin
from renamer.sweep.plan import Plan
from renamer.terraform_state import KEPT as STATE_KEPT


@dataclass(frozen=True)
class Verdict:
    """verify's answer, computed once: every renderer prints this, none recomputes it."""

    ok: bool
    strict: bool
    residual: int
    unclassified: int
    unreadable: int
    near_misses: int
    files_scanned: int
    expired: int = 0  # exemptions past their `expires:` day
    collisions: int = 0  # new values already in a structured file that the sweep writes them into
    skipped: int = 0  # with strict: current-state files skipped unread (binary, encoding, too large)
    encrypted: int = 0  # with strict: current-state files renamer reads only as ciphertext
    unread: int = 0  # with strict: a submodule, an excluded file spelling an old value (sweep/unread.py)

    @property
    def word(self) -> str:
        return "OK" if self.ok else "FAILED"


# Skipped without reading the text, or never written: a link whose target names an old value and
# that the sweep does not re-point (out of the repository: t35 finding 18) holds it as a file would.
_UNREAD = ("binary", "encoding", "too-large", "symlink")


@dataclass(frozen=True)
class Summary:
    replacements: Counter[tuple[str, str]] = field(default_factory=Counter)
    kept: Counter[str] = field(default_factory=Counter)
    kept_notes: dict[str, str] = field(default_factory=dict)
    residual: list[Reference] = field(default_factory=list)  # includes what a sweep rewrites
    unclassified: list[Reference] = field(default_factory=list)
    skipped: list[Reference] = field(default_factory=list)
    # Of those, in current-state files renamer could not read as text (a NUL, UTF-16, over
    # max_file_size): live references it cannot rewrite or prove gone (verify --strict fails).
    skipped_live: list[Reference] = field(default_factory=list)
    derived: list[NearMiss] = field(default_factory=list)
    near_misses: list[NearMiss] = field(default_factory=list)
    files_changed: int = 0
    renames: list[tuple[str, str]] = field(default_factory=list)
    relinks: list[tuple[str, str, str]] = field(default_factory=list)  # link, old target, new target
    serials: list[tuple[str, str, str]] = field(default_factory=list)  # zone path, old, new serial
    files_scanned: int = 0
    skipped_files: list[tuple[str, str]] = field(default_factory=list)
    # current-state files read only as ciphertext where a value may stand (ansible-vault, sops):
    # renamer cannot tell what they hold (verify --strict fails until they are excluded or kept)
    encrypted: list[tuple[str, str]] = field(default_factory=list)
    unread: list[tuple[str, str]] = field(default_factory=list)  # not read, may hold an old value
    ignored_with_references: list[str] = field(default_factory=list)
    ignored_with_old_paths: list[str] = field(default_factory=list)  # their path alone holds one
    pins: list[Pin] = field(default_factory=list)  # a sweep's (the residual ones are in `residual` too)
    folders: list[FolderMove] = field(default_factory=list)  # moved whole, untracked files with them
    state_names: list[Reference] = field(default_factory=list)  # kept: where Terraform keeps state
    past: list[PastLine] = field(default_factory=list)  # a dry run's lines that look like a record
    # kept by keep_paths and named exactly like a host the rename moves (break-it round 17, #21)
    named_like: list[Reference] = field(default_factory=list)

    @classmethod
    def of_scan(cls, scan: ScanResult) -> Summary:
        out = cls(files_scanned=scan.files_scanned, skipped_files=list(scan.skipped_files),
                  encrypted=list(scan.encrypted), unread=list(scan.unread),
                  ignored_with_references=list(scan.ignored_with_references),
                  ignored_with_old_paths=list(scan.ignored_with_old_paths),
                  files_changed=sum(1 for f in scan.files if f.changes),
                  renames=[(f.path, f.new_path) for f in scan.files if f.new_path],
                  serials=[(f.path, *f.serial) for f in scan.files if f.serial])
        for ref in scan.references():
            if ref.status == KEPT and ref.reason:
                out.kept[ref.reason] += 1
                if ref.reason == STATE_KEPT:
                    out.state_names.append(ref)
                if ref.role == "path" and (ref.note or "").startswith(NAMED_LIKE):
                    out.named_like.append(ref)
                out.kept_notes.setdefault(ref.reason, ref.note or "")
            elif ref.status == RESIDUAL:
                out.residual.append(ref)
                if ref.rewritable and ref.role != "path":
                    out.replacements[(ref.old, ref.new)] += 1
            elif ref.status == UNCLASSIFIED:
                out.unclassified.append(ref)
            elif ref.status == SKIPPED:
                out.skipped.append(ref)
        out.skipped_live.extend(r for f in scan.files if f.status == CURRENT for r in f.references
                                if r.status == SKIPPED and r.reason in _UNREAD)
        folders: set[str] = set()
        for miss in scan.near_misses():
            if miss.line == 0:  # in the path: a folder's spelling once, at the first file under it
                folder = miss.path[:miss.path.find("/", miss.column - 1 + len(miss.text)) + 1]
                if folder:
                    if folder in folders:
                        continue
                    folders.add(folder)
            (out.derived if miss.kind == "derived-name" else out.near_misses).append(miss)
        return out

    def verdict(self, *, strict: bool, expired: int = 0, collisions: int = 0) -> Verdict:
        """Fails on any residual, unclassified or unreadable file and on an expired exemption;
        with `strict`, on near-misses, on collisions inside one structured file, on a
        current-state file skipped unread (binary, another encoding, too large) holding an old value,
        and on a current-state file read only as ciphertext (what it holds cannot be told)."""
        misses = len(self.derived) + len(self.near_misses)
        failed = bool(self.residual or self.unclassified or self.skipped_files or expired)
        skipped = len({r.path for r in self.skipped_live}) if strict else 0
        encrypted = len(self.encrypted) if strict else 0
        unread = len(self.unread) if strict else 0
        unsure = misses or collisions or skipped or encrypted or unread
        return Verdict(not failed and not (strict and unsure),
                       strict, len(self.residual), len(self.unclassified), len(self.skipped_files), misses,
                       self.files_scanned, expired, collisions if strict else 0, skipped, encrypted, unread)

    @classmethod
    def of(cls, plan: Plan) -> Summary:
        out = replace(cls.of_scan(plan.scan), relinks=[(r.path, r.old, r.new) for r in plan.links],
                      folders=list(plan.folders))
        out.pins.extend(plan.pins)
        return out

    @property
    def stuck(self) -> list[Reference]:
        """Residuals a sweep cannot fix (identifiers, refused structured edits)."""
        return [r for r in self.residual if not r.rewritable]

    def kept_line(self) -> str:
        return ", ".join(f"{reason} {count}" for reason, count in self.kept_sorted())

    def kept_sorted(self) -> list[tuple[str, int]]:
        return sorted(self.kept.items(), key=lambda item: (-item[1], item[0]))

    def unclassified_files(self) -> list[str]:
        return sorted({r.path for r in self.unclassified})

    def replacement_total(self) -> int:
        return sum(self.replacements.values())


def serial_lines(summary: Summary) -> list[str]:
    return [f"  {path}: serial {old} -> {new}" if new else
            f"  {path}: serial {old} is a placeholder filled in when the zone is deployed: left as it is"
            if old else
            f"  {path}: zone records changed, serial NOT bumped (no valid SOA serial in this file: an "
            "$INCLUDE file or a broken serial): bump the serial of its zone by hand, or the name "
            "servers keep the old data" for path, old, new in summary.serials]
