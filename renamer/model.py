"""The values that flow from scanning to reports and writes; all immutable."""

from __future__ import annotations

from dataclasses import dataclass, field

KEPT = "kept"
RESIDUAL = "residual"
UNCLASSIFIED = "unclassified"
SKIPPED = "skipped"


@dataclass(frozen=True)
class Reference:
    """One occurrence of an old value, and what happens to it."""

    path: str
    line: int
    column: int
    old: str
    new: str
    status: str  # kept | residual | unclassified | skipped
    reason: str | None = None
    note: str | None = None
    text: str = ""
    key_path: str | None = None
    role: str | None = None

    @property
    def rewritable(self) -> bool:
        """A residual the sweep rewrites (as opposed to one it must leave, e.g. an identifier)."""
        return self.status == RESIDUAL and self.reason is None


@dataclass(frozen=True)
class Edit:
    start: int
    end: int
    new: bytes


@dataclass(frozen=True)
class NearMiss:
    path: str
    line: int
    column: int
    text: str  # the spelling found
    like: str  # the old value it resembles
    kind: str  # derived-name | near-miss
    line_text: str = ""


@dataclass(frozen=True)
class FileResult:
    """Everything scanning learned about one file."""

    path: str
    kind: str
    status: str  # current | record | unclassified
    references: tuple[Reference, ...] = ()
    edits: tuple[Edit, ...] = ()
    new_path: str | None = None
    near_misses: tuple[NearMiss, ...] = ()
    digest: str = ""
    mode: int = 0
    refused: str | None = None  # why the edits of a structured file were refused


@dataclass
class ScanResult:
    files: list[FileResult] = field(default_factory=list)
    files_scanned: int = 0
    ignored_with_references: list[str] = field(default_factory=list)
    skipped_files: list[tuple[str, str]] = field(default_factory=list)  # (path, why)

    def references(self) -> list[Reference]:
        return [ref for f in self.files for ref in f.references]

    def near_misses(self) -> list[NearMiss]:
        return [n for f in self.files for n in f.near_misses]
