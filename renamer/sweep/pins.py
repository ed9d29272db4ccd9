"""Hash pins: the SHA-256, SHA-1 or MD5 of a file the sweep rewrites, recorded in another file
(a `SHA256SUMS` manifest, a deploy runner's `transaction_sha256=` pin), which the rewrite makes stale.

Before writing, the sweep hashes each file it will rewrite and looks for those digests, as hex in
either case, in every file it lists: one pass over the files' hex words, looked up in one set.
A pin in a record stays (it names what the file was); one in a current-state file is a residual
`pin`, unless `--update-pins` rewrites it to the new bytes' digest, which it does only where the
format is certain (`<hash>  <path>` manifests naming the file, `key=<hash>` and `key: <hash>`
lines). Git's blob ids are not raw-bytes SHA-1s and never match.

After the sweep, `verify` re-hashes the file a manifest line names (`stale_manifest_pins`): a
manifest is the one format that says which file a digest belongs to.
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, replace
from typing import Literal

from renamer import vcs_status
from renamer.classify import CURRENT, RECORD
from renamer.project import LoadedProject
from renamer.sweep.content import read_content
from renamer.sweep.model import RESIDUAL, Edit, FileResult, Reference, ScanResult, apply_edits

PinStatus = Literal["updated", "residual", "kept"]
ALGORITHMS = {32: "md5", 40: "sha1", 64: "sha256"}  # hex length -> hashlib name
SHOWN = {"md5": "MD5", "sha1": "SHA-1", "sha256": "SHA-256"}
PIN = "pin"

# A hex word of a digest's length, standing alone: not part of a longer word or hex run.
_HEX = re.compile(rb"(?<![0-9A-Za-z])(?:[0-9A-Fa-f]{64}|[0-9A-Fa-f]{40}|[0-9A-Fa-f]{32})(?![0-9A-Za-z])")
# sha256sum/md5sum output: `<hash>  <path>` (or ` *<path>`, binary mode); and the BSD form.
_MANIFEST = re.compile(r"^\s*(?P<hash>[0-9A-Fa-f]+)[ \t]+\*?(?P<path>\S(?:.*\S)?)\s*$")
_BSD = re.compile(r"^\s*(?:SHA256|SHA1|MD5|SHA-256|SHA-1) ?\((?P<path>[^)]+)\)\s*=\s*"
                  r"(?P<hash>[0-9A-Fa-f]+)\s*$")
# `key=<hash>` (shell, .env, INI), `key: <hash>` (YAML), `key = "<hash>"` (TOML): the digest is the
# whole value. A shell `readonly`/`export`/`declare -r` and a YAML list dash may come first.
_ASSIGNED = re.compile(
    r"""^\s*(?:-\s+)?(?:(?:export|readonly|local|declare(?:\s+-\w+)*)\s+)?[A-Za-z_][\w.-]*\s*[=:]\s*"""
    r"""(?P<q>["']?)(?P<hash>[0-9A-Fa-f]+)(?P=q)\s*(?:[#;].*)?$""")


@dataclass(frozen=True)
class Pin:
    """One digest of a rewritten file's old bytes, where it is recorded, and what happens to it."""

    path: str  # the file that records the digest
    line: int
    column: int
    of: str  # the rewritten file whose bytes it names
    algorithm: str  # md5 | sha1 | sha256
    old: str  # the digest as written
    new: str  # the digest of the file's bytes after the sweep, in the same case
    status: PinStatus
    why: str  # for a residual: why it is not updated; for kept: the record's reason

    @property
    def what(self) -> str:
        return f"{SHOWN[self.algorithm]} of {self.of}"


@dataclass(frozen=True)
class _Hit:
    holder: str
    start: int
    end: int
    token: str  # lower-case hex
    target: str
    algorithm: str


def digests(data: bytes) -> dict[str, str]:
    return {name: hashlib.new(name, data).hexdigest() for name in ALGORITHMS.values()}


def _cased(digest: str, like: str) -> str:
    return digest.upper() if like.upper() == like else digest


class _Files:
    """The listed text files that hold a hex word of a digest's length: their bytes and words."""

    def __init__(self, project: LoadedProject, paths: Iterable[str]) -> None:
        self.data: dict[str, bytes] = {}
        self.modes: dict[str, int] = {}
        self.words: dict[str, list[tuple[int, int, str]]] = {}
        limit = project.config.max_file_size
        for rel in paths:
            content = read_content(project.root / rel, limit)
            if content is None or content.kind != "text":
                continue
            words = [(m.start(), m.end(), m.group().decode("ascii").lower())
                     for m in _HEX.finditer(content.data)]
            if words:
                self.data[rel], self.modes[rel], self.words[rel] = content.data, content.mode, words


_HEX_RUN = "[0-9A-Fa-f]{32}"  # the shortest digest: every hex word of _HEX holds one


def search_holders(project: LoadedProject) -> AbstractContextManager[vcs_status.PendingGrep | None]:
    """The git grep behind `_holders`, started now (before the scan, which it overlaps) and
    stopped on leaving the `with` block if nobody asked for its answer; nothing outside git."""
    return vcs_status.PendingGrep(project.root, _HEX_RUN) if project.git else nullcontext(None)


def _holders(project: LoadedProject, paths: Sequence[str],
             search: vcs_status.PendingGrep | None = None) -> list[str]:
    """The files of `paths` that hold a hex run as long as a digest: asked of git grep, which
    reads a repo's files in parallel (few files hold one: lock files, manifests); every one of
    `paths` where git cannot answer. `search`: that grep, started earlier (search_holders)."""
    if search is not None:
        found = search.result()
    else:
        found = vcs_status.worktree_files_holding(project.root, _HEX_RUN) if project.git else None
    return list(paths) if found is None else [p for p in paths if p in found]


def _line_of(data: bytes, start: int) -> tuple[int, int, str]:
    """1-based line and column of `start`, and the line's text."""
    begin = data.rfind(b"\n", 0, start) + 1
    end = data.find(b"\n", start)
    text = data[begin:end if end >= 0 else len(data)].decode("utf-8", "replace").rstrip("\r")
    return data.count(b"\n", 0, start) + 1, len(data[begin:start].decode("utf-8", "replace")) + 1, text


def _names(holder: str, written: str) -> set[str]:
    """The repo paths a manifest line's path may mean: from the manifest's folder, or the root."""
    written = written.removeprefix("./")
    out = {posixpath.normpath(posixpath.join(posixpath.dirname(holder), written)),
           posixpath.normpath(written)}
    return {p for p in out if not p.startswith("../") and p != ".."}


def _certain(line: str, token: str, holder: str, target_paths: set[str]) -> str | None:
    """None when the line's format says for certain that `token` is the digest of the target;
    otherwise why not."""
    manifest = _MANIFEST.match(line) or _BSD.match(line)
    if manifest and manifest.group("hash").lower() == token:
        if _names(holder, manifest.group("path")) & target_paths:
            return None
        return f"the manifest line names {manifest.group('path')}, not this file"
    assigned = _ASSIGNED.match(line)
    if assigned and assigned.group("hash").lower() == token:
        return None
    return "not a `<hash>  <path>` manifest line or a `key=<hash>` line: update it by hand"


def find_pins(project: LoadedProject, scan: ScanResult, *, update: bool = False,
              search: vcs_status.PendingGrep | None = None) -> tuple[ScanResult, tuple[Pin, ...]]:
    """The pins of the files `scan` rewrites, and the scan with them: residual pins become
    `pin` references of the file holding them; with `update`, certain pins in current-state
    files become edits (the digest of the file's bytes as the sweep leaves them, pin edits
    included), and a file that only holds pins is rewritten too. `search`: search_holders'
    grep, started before the scan."""
    by_path = {f.path: f for f in scan.files}
    changed = [f.path for f in scan.files if f.edits]
    if not changed:
        return scan, ()
    files = _Files(project, _holders(project, scan.paths, search))
    if not files.words:  # no file holds a digest-long hex word: no pin, and nothing to hash
        return _with_pins(project, scan, files, [], {}, {}, {}, {}), ()
    # Each rewritten file is read and hashed in turn; only the bytes of the files a pin names, and
    # of the hashed files that hold one, are kept (all _settle needs): a sweep that rewrites 80,000
    # files does not hold them all at once.
    old: dict[str, bytes] = {}
    seen = set(changed)  # hashed, or to be: the rewritten files and the pin holders rewritten too
    base = {rel: list(by_path[rel].edits) for rel in changed}
    classes = {}
    hits: list[_Hit] = []
    decided: dict[_Hit, tuple[PinStatus, str]] = {}
    pending = list(changed)
    while pending:  # a file that only holds pins changes too, with --update-pins: its own pins next
        needles: dict[str, list[tuple[str, str]]] = {}
        for rel in pending:
            data = old[rel] if rel in old else _read(project, rel)
            for algorithm, digest in digests(data).items():
                needles.setdefault(digest, []).append((rel, algorithm))
            if rel in files.words:
                old[rel] = data
        pending = []
        for holder, words in files.words.items():
            for start, end, token in words:
                for target, algorithm in needles.get(token, ()):
                    hit = _Hit(holder, start, end, token, target, algorithm)
                    hits.append(hit)
                    if target not in old:
                        old[target] = _read(project, target)
                    if holder not in classes:
                        classes[holder] = project.classifier.classify(holder)
                    klass = classes[holder]
                    decided[hit] = _decide(project, files, hit, klass.status, klass.reason, by_path, base,
                                           update)
                    if decided[hit][0] == "updated" and holder not in seen:
                        seen.add(holder)
                        old[holder] = files.data[holder]
                        base[holder] = []
                        pending.append(holder)
    new = _settle(hits, decided, old, base)
    pins = tuple(_pin(files, hit, decided[hit], new) for hit in hits)
    return _with_pins(project, scan, files, hits, decided, new, old, base), pins


def _read(project: LoadedProject, rel: str) -> bytes:
    content = read_content(project.root / rel, project.config.max_file_size)
    return content.data if content is not None else b""


def _decide(project: LoadedProject, files: _Files, hit: _Hit, status: str, reason: str | None,
            by_path: dict[str, FileResult], base: dict[str, list[Edit]],
            update: bool) -> tuple[PinStatus, str]:
    data = files.data[hit.holder]
    line_no, _, line = _line_of(data, hit.start)
    if status == RECORD:
        return "kept", reason or "record"
    if status != CURRENT:
        return "residual", f"in a file the allowlist does not classify ({status}): decide, then update it"
    lines = data.decode("utf-8", "surrogateescape").split("\n")
    exempt = project.classifier.line_exemptions(hit.holder, lines, [line_no - 1]).get(line_no - 1)
    if exempt is not None:
        return "kept", exempt.reason
    target = by_path.get(hit.target)
    target_paths = {hit.target} | ({target.new_path} if target is not None and target.new_path else set())
    why = _certain(line, hit.token, hit.holder, target_paths)
    if why is not None:
        return "residual", why
    if any(e.start < hit.end and hit.start < e.end for e in base.get(hit.holder, ())):
        return "residual", "the sweep rewrites this very text"
    if not update:
        return "residual", "update it by hand, or sweep with --update-pins, which rewrites it with the file"
    return "updated", ""


def _settle(hits: Sequence[_Hit], decided: dict[_Hit, tuple[PinStatus, str]], old: dict[str, bytes],
            base: dict[str, list[Edit]]) -> dict[_Hit, str]:
    """Each pin's new digest, over the files' final bytes (pin edits included), to a fixed point.
    Pins form no cycle (a file cannot hold the digest of bytes that hold that digest), so a chain
    (b pins a, c pins b) settles in at most one round per file."""
    new = {hit: "" for hit in hits}
    for _ in range(len(old) + 1):
        final = {rel: apply_edits(data, base[rel] + [Edit(h.start, h.end, new[h].encode()) for h in hits
                                                     if h.holder == rel and decided[h][0] == "updated"])
                 for rel, data in old.items()}
        settled = {hit: _cased(hashlib.new(hit.algorithm, final[hit.target]).hexdigest(),
                               _token_as_written(hit, old)) for hit in hits}
        if settled == new:
            break
        new = settled
    return new


def _token_as_written(hit: _Hit, old: dict[str, bytes]) -> str:
    data = old.get(hit.holder)
    return data[hit.start:hit.end].decode("ascii") if data is not None else hit.token


def _pin(files: _Files, hit: _Hit, decision: tuple[PinStatus, str], new: dict[_Hit, str]) -> Pin:
    data = files.data[hit.holder]
    line, column, _ = _line_of(data, hit.start)
    return Pin(hit.holder, line, column, hit.target, hit.algorithm, data[hit.start:hit.end].decode("ascii"),
               _cased(new[hit], data[hit.start:hit.end].decode("ascii")), decision[0], decision[1])


def _with_pins(project: LoadedProject, scan: ScanResult, files: _Files, hits: Sequence[_Hit],
               decided: dict[_Hit, tuple[PinStatus, str]], new: dict[_Hit, str], old: dict[str, bytes],
               base: dict[str, list[Edit]]) -> ScanResult:
    by_path = {f.path: f for f in scan.files}
    for holder in sorted({h.holder for h in hits}):
        mine = [h for h in hits if h.holder == holder]
        edits = [Edit(h.start, h.end, new[h].encode()) for h in mine if decided[h][0] == "updated"]
        refs = [_reference(files, h, decided[h][1], new[h]) for h in mine if decided[h][0] == "residual"]
        if not edits and not refs:
            continue
        found = by_path.get(holder) or FileResult(holder, "text", project.classifier.classify(holder).status,
                                                  mode=files.modes[holder])
        all_edits = sorted([*found.edits, *edits], key=lambda e: e.start)
        read = old.get(holder, files.data[holder])
        digest = found.digest or (hashlib.sha1(read).hexdigest() if edits else "")
        by_path[holder] = replace(found, references=(*found.references, *refs), edits=tuple(all_edits),
                                  digest=digest, mode=found.mode or files.modes[holder])
    return replace(scan, files=tuple(by_path[p] for p in sorted(by_path)))


def _reference(files: _Files, hit: _Hit, why: str, new: str) -> Reference:
    data = files.data[hit.holder]
    line, column, text = _line_of(data, hit.start)
    written = data[hit.start:hit.end].decode("ascii")
    return Reference(hit.holder, line, column, written, new, RESIDUAL, PIN,
                     f"the {SHOWN[hit.algorithm]} of {hit.target} before this sweep; "
                     f"its new digest is {new}: {why}", text)


def stale_manifest_pins(project: LoadedProject, paths: Sequence[str], holding_new: Sequence[str],
                        search: vcs_status.PendingGrep | None = None) -> list[Reference]:
    """verify's pins: manifest lines (`<hash>  <path>`, `SHA256 (path) = <hash>`) in current-state
    files whose digest no longer matches the file they name, where that file holds a new value of
    this move (a stale manifest the move did not touch is not this move's to report)."""
    moved = set(holding_new)
    if not moved:
        return []  # no file holds a new value: no manifest can name one
    listed = set(paths)
    hexed = _holders(project, paths, search)
    files = _Files(project, [p for p in hexed if project.classifier.classify(p).status == CURRENT])
    out: list[Reference] = []
    hashed: dict[str, dict[str, str]] = {}
    for holder, words in files.words.items():
        data = files.data[holder]
        lines = data.decode("utf-8", "surrogateescape").split("\n")
        for start, _end, token in words:
            line_no, column, text = _line_of(data, start)
            manifest = _MANIFEST.match(text) or _BSD.match(text)
            if manifest is None or manifest.group("hash").lower() != token:
                continue
            named = sorted(_names(holder, manifest.group("path")) & listed & moved)
            if not named:
                continue
            if project.classifier.line_exemptions(holder, lines, [line_no - 1]):
                continue
            if named[0] not in hashed:
                content = read_content(project.root / named[0], project.config.max_file_size)
                hashed[named[0]] = digests(content.data) if content is not None else {}
            algorithm = ALGORITHMS[len(token)]
            now = hashed[named[0]].get(algorithm)
            if now is None or now == token:
                continue
            written = data[start:start + len(token)].decode("ascii")
            note = (f"a stale {SHOWN[algorithm]} of {named[0]}, which holds a new value of this move: "
                    f"the file's digest is now {_cased(now, written)}; update the line")
            out.append(Reference(holder, line_no, column, written, _cased(now, written), RESIDUAL, PIN, note,
                                 text))
    return out


def with_references(scan: ScanResult, refs: Sequence[Reference]) -> ScanResult:
    """`scan` with `refs` added to the files that hold them."""
    if not refs:
        return scan
    by_path = {f.path: f for f in scan.files}
    for ref in refs:
        found = by_path.get(ref.path) or FileResult(ref.path, "text", CURRENT)
        by_path[ref.path] = replace(found, references=(*found.references, ref))
    return replace(scan, files=tuple(by_path[p] for p in sorted(by_path)))
