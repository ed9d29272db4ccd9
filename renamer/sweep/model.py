"""The values that flow from scanning to reports and writes; all frozen."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from renamer.classify import FileStatus
from renamer.sweep.content import ContentKind

# What happens to one occurrence of an old value.
RefStatus = Literal["kept", "residual", "unclassified", "skipped"]
KEPT: RefStatus = "kept"
RESIDUAL: RefStatus = "residual"
UNCLASSIFIED: RefStatus = "unclassified"
SKIPPED: RefStatus = "skipped"

NearMissKind = Literal["derived-name", "near-miss"]

# The note of a path kept by keep_paths that is named exactly like a host the rename moves
# (break-it round 17, #21): the sweep's summary warns of each.
NAMED_LIKE = "kept by keep_paths, and named exactly like"


@dataclass(frozen=True)
class Reference:
    """One occurrence of an old value, and what happens to it."""

    path: str
    line: int
    column: int
    old: str
    new: str
    status: RefStatus
    reason: str | None = None
    note: str | None = None
    text: str = ""
    key_path: str | None = None
    role: str | None = None

    @property
    def rewritable(self) -> bool:
        """A residual the sweep rewrites (as opposed to one it must leave, e.g. an identifier)."""
        return self.status == RESIDUAL and self.reason is None


@dataclass(slots=True)  # not frozen, never changed: a dense file makes millions, 4x cheaper so
class Edit:
    start: int
    end: int
    new: bytes


def apply_edits(data: bytes, edits: list[Edit] | tuple[Edit, ...]) -> bytes:
    """Apply non-overlapping edits back to front on the original bytes."""
    out = bytearray(data)
    for edit in sorted(edits, key=lambda e: e.start, reverse=True):
        out[edit.start:edit.end] = edit.new
    return bytes(out)


@dataclass(frozen=True)
class NearMiss:
    path: str
    line: int
    column: int
    text: str  # the spelling found
    like: str  # the old value it resembles
    kind: NearMissKind
    line_text: str = ""
    why: str = ""  # what sets it apart: case, separator, regex-escaped, letter-left, derived...
    name: str = ""  # the longer name the spelling stands in (`keepalived-pihole0`), where there is one


@dataclass(frozen=True)
class FileResult:
    """Everything scanning learned about one file."""

    path: str
    kind: ContentKind
    status: FileStatus | Literal[""]  # "" when the file was never classified (no hit)
    references: tuple[Reference, ...] = ()
    edits: tuple[Edit, ...] = ()
    new_path: str | None = None
    near_misses: tuple[NearMiss, ...] = ()
    digest: str = ""
    mode: int = 0
    refused: str | None = None  # why the edits of a structured file were refused
    serial: tuple[str, str] | None = None  # a zone's SOA serial bumped with its records (old, new)
    created: bool = False  # a file the sweep creates (a module's `moved.tf`: sweep/moved_files.py)

    @property
    def changes(self) -> bool:
        return bool(self.edits or self.new_path)


@dataclass(frozen=True)
class ScanResult:
    """The files with anything to say, in path order, and what could not be scanned."""

    files: tuple[FileResult, ...] = ()
    files_scanned: int = 0
    ignored_with_references: tuple[str, ...] = ()  # git-ignored current files whose content holds one
    skipped_files: tuple[tuple[str, str], ...] = ()  # (path, why)
    paths: tuple[str, ...] = ()  # every path listed for the scan (audit matches rules against them)
    holding_new: tuple[str, ...] = ()  # the files holding a new value (ScanOptions.present)
    # The Markdown files that may link to an old heading's anchor (sweep/anchors.py); None: any.
    linking: tuple[str, ...] | None = None
    # git-ignored current files whose path alone holds an old value (`pug.env`, `hosts/pug/.env`)
    ignored_with_old_paths: tuple[str, ...] = ()
    # current-state files renamer reads only as ciphertext where a value may stand: (path, why)
    encrypted: tuple[tuple[str, str], ...] = ()
    # current-state files or folders not read though they may hold an old value (a submodule, an
    # excluded file spelling one): (path, why); sweep/unread.py
    unread: tuple[tuple[str, str], ...] = ()

    def references(self) -> list[Reference]:
        return [ref for f in self.files for ref in f.references]

    def near_misses(self) -> list[NearMiss]:
        return [n for f in self.files for n in f.near_misses]
