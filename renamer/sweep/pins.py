"""Hash pins: the SHA-256, SHA-1 or MD5 of a file the sweep rewrites, recorded in another file
(a `SHA256SUMS` manifest, a deploy runner's `transaction_sha256=` pin), which the rewrite makes stale.

Before writing, the sweep hashes each file it will rewrite and looks for those digests, as hex in
either case, in every file it lists: one pass over the files' hex words, looked up in one set.
A pin in a record stays (it names what the file was); one in a current-state file is a residual
`pin`, unless `--update-pins` rewrites it to the new bytes' digest, which it does only where the
format is certain (`<hash>  <path>` manifests naming the file, `key=<hash>`, `key: <hash>` and
`key: sha256:<hash>` lines, a JSON member `"key": "<hash>"`). Git's blob ids are not raw-bytes
SHA-1s and never match.

After the sweep, `verify` re-hashes the file a manifest line names (`stale_manifest_pins`): a
manifest is the one format that says which file a digest belongs to; pins in any other format are
found by the digests of the bytes the move replaced (pins_history.py).
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import stat
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from renamer import vcs_status
from renamer.classify import CURRENT, RECORD
from renamer.project import LoadedProject
from renamer.sweep.content import read_content
from renamer.sweep.model import RESIDUAL, Edit, FileResult, Reference, ScanResult, apply_edits
from renamer.sweep.pins_context import Contexts, repo_names

PinStatus = Literal["updated", "residual", "kept"]
ALGORITHMS = {32: "md5", 40: "sha1", 64: "sha256"}  # hex length -> hashlib name
# The forms a digest is looked for in: hex, and Subresource Integrity's `sha256-<base64>` (npm
# lock files, <script integrity=...>, Nix), whose prefix names the algorithm.
SRI_FORMS = ("sri-sha256", "sri-sha384", "sri-sha512")
FORMS = (*ALGORITHMS.values(), *SRI_FORMS)
SHOWN = {"md5": "MD5", "sha1": "SHA-1", "sha256": "SHA-256", "sri-sha256": "SHA-256 (SRI)",
         "sri-sha384": "SHA-384 (SRI)", "sri-sha512": "SHA-512 (SRI)"}
PIN = "pin"
THIS_SWEEP = "before this sweep"

# A hex word of a digest's length, standing alone: not part of a longer word or hex run.
_HEX = re.compile(rb"(?<![0-9A-Za-z])(?:[0-9A-Fa-f]{64}|[0-9A-Fa-f]{40}|[0-9A-Fa-f]{32})(?![0-9A-Za-z])")
_SRI = re.compile(rb"(?<![0-9A-Za-z+/-])(?:sha256-[A-Za-z0-9+/]{43}=|sha384-[A-Za-z0-9+/]{64}|"
                  rb"sha512-[A-Za-z0-9+/]{86}==)(?![0-9A-Za-z+/=])")
_HOLDS = "[0-9A-Fa-f]{32}|sha(256|384|512)-[A-Za-z0-9+/]{43}"  # for git grep: a file that may hold one
# sha256sum/md5sum output: `<hash>  <path>` (or ` *<path>`, binary mode); and the BSD form.
_MANIFEST = re.compile(r"^\s*(?P<hash>[0-9A-Fa-f]+)[ \t]+\*?(?P<path>\S(?:.*\S)?)\s*$")
_BSD = re.compile(r"^\s*(?:SHA256|SHA1|MD5|SHA-256|SHA-1) ?\((?P<path>[^)]+)\)\s*=\s*"
                  r"(?P<hash>[0-9A-Fa-f]+)\s*$")
# `key=<hash>` (shell, .env, INI), `key: <hash>` (YAML), `key = "<hash>"` (TOML): the digest is the
# whole value. A shell `readonly`/`export`/`declare -r` and a YAML list dash may come first.
_ASSIGNED = re.compile(
    r"""^\s*(?:-\s+)?(?:(?:export|readonly|local|declare(?:\s+-\w+)*)\s+)?[A-Za-z_][\w.-]*\s*[=:]\s*"""
    r"""(?P<q>["']?)(?:(?P<algo>[A-Za-z0-9-]+):)?(?P<hash>[0-9A-Fa-f]+)(?P=q)\s*(?:[#;].*)?$""")
# A JSON member whose string value is the digest, alone or after its algorithm: `"sha256": "<hex>"`,
# `"checksum": "sha256:<hex>"`; read up to the digest, which must close the string.
_MEMBER = re.compile(r'"(?:[^"\\]|\\.)*"\s*:\s*"(?:(?P<algo>[A-Za-z0-9-]+):)?$')


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
    token: str  # lower-case hex, or an SRI digest as written
    target: str
    algorithm: str
    before: str = THIS_SWEEP  # whose bytes it names: the ones this sweep replaces, or an earlier commit's


def digest_of(form: str, data: bytes) -> str:
    """`data`'s digest written in `form`: lower-case hex, or SRI's `<algorithm>-<base64>`."""
    if form in SRI_FORMS:
        algorithm = form.removeprefix("sri-")
        return f"{algorithm}-{base64.b64encode(hashlib.new(algorithm, data).digest()).decode('ascii')}"
    return hashlib.new(form, data).hexdigest()


def digests(data: bytes) -> dict[str, str]:
    """form -> `data`'s digest in it (every form of FORMS)."""
    return {form: digest_of(form, data) for form in FORMS}


def cased(digest: str, like: str) -> str:
    return digest.upper() if like.upper() == like else digest


class HexWords:
    """The listed text files that hold a hex word of a digest's length or an SRI digest: their
    bytes and words."""

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
            words += [(m.start(), m.end(), m.group().decode("ascii")) for m in _SRI.finditer(content.data)]
            if words:
                self.data[rel], self.modes[rel], self.words[rel] = content.data, content.mode, words


def hex_holders(project: LoadedProject, paths: Sequence[str]) -> list[str]:
    """The files of `paths` that hold a hex run as long as a digest (or an SRI one): asked of git grep, which
    reads a repo's files in parallel (few files hold one: lock files, manifests); every one of
    `paths` where git cannot answer."""
    found = vcs_status.worktree_files_holding(project.root, _HOLDS) if project.git else None
    return list(paths) if found is None else [p for p in paths if p in found]


def line_of(data: bytes, start: int) -> tuple[int, int, str]:
    """1-based line and column of `start`, and the line's text."""
    begin = data.rfind(b"\n", 0, start) + 1
    end = data.find(b"\n", start)
    text = data[begin:end if end >= 0 else len(data)].decode("utf-8", "replace").rstrip("\r")
    return data.count(b"\n", 0, start) + 1, len(data[begin:start].decode("utf-8", "replace")) + 1, text


def _names_algorithm(written: str | None, algorithm: str) -> bool:
    """Whether a prefix such as `sha256:` (or none) agrees with the digest's algorithm."""
    return written is None or written.lower().replace("-", "") == algorithm


def _certain(line: str, column: int, token: str, algorithm: str, holder: str,
             target_paths: set[str]) -> str | None:
    """None when the line's format says for certain that `token` (at 1-based `column`) is the
    target's digest: a manifest line naming the file, `key=<hash>` or `key: sha256:<hash>` as the
    whole value, a JSON member `"key": "<hash>"`; otherwise why not."""
    if algorithm in SRI_FORMS:
        return None  # `sha256-<base64>`: a form made for pins, which names its algorithm
    manifest = _MANIFEST.match(line) or _BSD.match(line)
    if manifest and manifest.group("hash").lower() == token:
        if repo_names(holder, manifest.group("path")) & target_paths:
            return None
        return f"the manifest line names {manifest.group('path')}, not this file"
    assigned = _ASSIGNED.match(line)
    if assigned and assigned.group("hash").lower() == token and _names_algorithm(assigned.group("algo"),
                                                                                 algorithm):
        return None
    member = _MEMBER.search(line, 0, column - 1)
    if (member and line[column - 1 + len(token):].startswith('"')
            and _names_algorithm(member.group("algo"), algorithm)):
        return None
    return ("not a `<hash>  <path>` manifest line, a `key=<hash>` line or a JSON `\"key\": \"<hash>\"` "
            "member: update it by hand")


Versions = Mapping[str, Sequence[tuple[bytes, str]]]  # path -> (bytes a commit replaced, which commit)


class Standing:
    """The digests of the repo's files as they stand (a sweep's files aside, which it rewrites):
    a pinned digest one of them still has may be that file's pin, and is no stale pin. Only the
    files of a pinned size are read: a digest names bytes of one length."""

    def __init__(self, project: LoadedProject, paths: Iterable[str], sizes: Iterable[int],
                 rewritten: Iterable[str] = ()) -> None:
        self.holders: dict[str, set[str]] = {}  # digest (any form) -> files that have it now
        wanted, skip = set(sizes), set(rewritten)
        limit = project.config.max_file_size
        for rel in paths:
            if rel in skip:
                continue
            try:
                info = os.lstat(project.root / rel)
            except OSError:
                continue
            if not stat.S_ISREG(info.st_mode) or info.st_size not in wanted or info.st_size > limit:
                continue
            try:
                data = (project.root / rel).read_bytes()
            except OSError:
                continue
            for digest in digests(data).values():
                self.holders.setdefault(digest, set()).add(rel)

    def held(self, token: str) -> list[str]:
        """The files that still have the digest `token`."""
        return sorted(self.holders.get(token, ()))


def belongs(files: HexWords, contexts: Contexts, holder: str, start: int, token: str, owner: set[str],
            standing: Standing) -> bool:
    """Whether the digest `token` at `start` of `holder` is a pin of the file `owner` names (its
    path, and its new path): not where its context names another file of the repo, nor, naming
    none, where a file of the repo still has that digest (an unchanged copy: its pin holds)."""
    data = files.data[holder]
    _line, _column, text = line_of(data, start)
    manifest = _MANIFEST.match(text) or _BSD.match(text)
    if manifest is not None and manifest.group("hash").lower() == token:
        named = sorted(repo_names(holder, manifest.group("path")) & (set(contexts.known) | owner))
        named_one = named[0] if named else None
    else:
        occurrence = sum(1 for s, _e, t in files.words[holder] if t == token and s < start)
        named_one = contexts.named(holder, data, token, occurrence, text)
    if named_one is not None:
        return named_one in owner
    # the owner itself aside: a pin file that --update-pins rewrites still has its old digest now
    return not set(standing.held(token)) - owner


def find_pins(project: LoadedProject, scan: ScanResult, *, update: bool = False,
              prior: Callable[[], Versions] | None = None) -> tuple[ScanResult, tuple[Pin, ...]]:
    """The pins of the files `scan` rewrites, and the scan with them: residual pins become
    `pin` references of the file holding them; with `update`, certain pins in current-state
    files become edits (the digest of the file's bytes as the sweep leaves them, pin edits
    included), and a file that only holds pins is rewritten too. `prior` (asked only where some
    file holds a digest: path -> bytes an earlier commit of the move replaced, and which commit)
    adds the pins of those bytes: left stale by a sweep already committed, they follow the
    file's bytes now the same way. A digest is a pin of a file only where `belongs` says so."""
    by_path = {f.path: f for f in scan.files}
    changed = [f.path for f in scan.files if f.edits]
    if not changed and prior is None:
        return scan, ()
    files = HexWords(project, hex_holders(project, scan.paths))
    if not files.words:  # no file holds a digest-long hex word: no pin, and nothing to hash
        return scan, ()
    earlier = prior() if prior is not None else {}
    limit = project.config.max_file_size
    old: dict[str, bytes] = {}
    for rel in [*changed, *sorted(set(earlier) - set(changed))]:
        content = read_content(project.root / rel, limit)
        if content is not None or rel in changed:
            old[rel] = content.data if content is not None else b""
    if not old:
        return scan, ()
    base = {rel: list(by_path[rel].edits) if rel in by_path else [] for rel in old}
    known = set(scan.paths) | {f.new_path for f in scan.files if f.new_path}
    contexts = Contexts(known)
    standing = Standing(project, scan.paths, [len(old[rel]) for rel in changed]
                        + [len(data) for versions in earlier.values() for data, _w in versions], changed)
    classes = {}
    hits: list[_Hit] = []
    decided: dict[_Hit, tuple[PinStatus, str]] = {}
    pending = list(changed)
    needles = _prior_needles(old, earlier)
    while pending or needles:  # a file that only holds pins changes too, with --update-pins: its own next
        for rel in pending:
            for algorithm, digest in digests(old[rel]).items():
                needles.setdefault(digest, []).append((rel, algorithm, THIS_SWEEP))
        pending = []
        for holder, words in files.words.items():
            for start, end, token in words:
                targets = [t for t in needles.get(token, ())
                           if belongs(files, contexts, holder, start, token, _owner(by_path, t[0]), standing)]
                if not targets:
                    continue
                target, algorithm, before = targets[0]
                hit = _Hit(holder, start, end, token, target, algorithm, before)
                hits.append(hit)
                if holder not in classes:
                    classes[holder] = project.classifier.classify(holder)
                klass = classes[holder]
                decided[hit] = _decide(project, files, hit, klass.status, klass.reason, by_path, base,
                                       update)
                apart = sorted({t for t, _a, _b in targets
                                if apply_edits(old[t], base[t]) != apply_edits(old[target], base[target])})
                if apart and decided[hit][0] != "kept":  # two files had these bytes, the sweep parts them
                    decided[hit] = ("residual", f"{target} and {', '.join(apart)} had these bytes, and "
                                    "the sweep rewrites them differently: update it by hand")
                if decided[hit][0] == "updated" and holder not in old:
                    old[holder] = files.data[holder]
                    base[holder] = []
                    pending.append(holder)
        needles = {}
    # a record keeps what an earlier commit replaced, as it keeps all history: not worth a line
    hits = [h for h in hits if h.before == THIS_SWEEP or decided[h][0] != "kept"]
    new = _settle(hits, decided, old, base)
    pins = tuple(_pin(files, hit, decided[hit], new) for hit in hits)
    return _with_pins(project, scan, files, hits, decided, new, old, base), pins


def _owner(by_path: Mapping[str, FileResult], rel: str) -> set[str]:
    """The paths that name the file `rel`: its own, and the new one where the sweep moves it."""
    found = by_path.get(rel)
    return {rel} | ({found.new_path} if found is not None and found.new_path else set())


def _prior_needles(old: Mapping[str, bytes], prior: Versions) -> dict[str, list[tuple[str, str, str]]]:
    """digest -> (path, algorithm, whose bytes) for the bytes earlier commits replaced, unless the
    file holds those very bytes again (then a pin of them still holds)."""
    out: dict[str, list[tuple[str, str, str]]] = {}
    for rel, versions in prior.items():
        if rel not in old:
            continue  # gone from the work tree: nothing to re-hash it to
        now = digests(old[rel])
        for data, before in versions:
            for algorithm, digest in digests(data).items():
                if now[algorithm] != digest and all(t != rel for t, _a, _b in out.get(digest, ())):
                    out.setdefault(digest, []).append((rel, algorithm, before))
    return out


def _decide(project: LoadedProject, files: HexWords, hit: _Hit, status: str, reason: str | None,
            by_path: dict[str, FileResult], base: dict[str, list[Edit]],
            update: bool) -> tuple[PinStatus, str]:
    data = files.data[hit.holder]
    line_no, column, line = line_of(data, hit.start)
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
    why = _certain(line, column, hit.token, hit.algorithm, hit.holder, target_paths)
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
        settled = {hit: cased(digest_of(hit.algorithm, final[hit.target]),
                               _token_as_written(hit, old)) for hit in hits}
        if settled == new:
            break
        new = settled
    return new


def _token_as_written(hit: _Hit, old: dict[str, bytes]) -> str:
    data = old.get(hit.holder)
    return data[hit.start:hit.end].decode("ascii") if data is not None else hit.token


def _pin(files: HexWords, hit: _Hit, decision: tuple[PinStatus, str], new: dict[_Hit, str]) -> Pin:
    data = files.data[hit.holder]
    line, column, _ = line_of(data, hit.start)
    return Pin(hit.holder, line, column, hit.target, hit.algorithm, data[hit.start:hit.end].decode("ascii"),
               cased(new[hit], data[hit.start:hit.end].decode("ascii")), decision[0], decision[1])


def _with_pins(project: LoadedProject, scan: ScanResult, files: HexWords, hits: Sequence[_Hit],
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


def _reference(files: HexWords, hit: _Hit, why: str, new: str) -> Reference:
    data = files.data[hit.holder]
    line, column, text = line_of(data, hit.start)
    written = data[hit.start:hit.end].decode("ascii")
    return Reference(hit.holder, line, column, written, new, RESIDUAL, PIN,
                     f"the {SHOWN[hit.algorithm]} of {hit.target} {hit.before}; "
                     f"its new digest is {new}: {why}", text)


def stale_manifest_pins(project: LoadedProject, paths: Sequence[str],
                        holding_new: Sequence[str]) -> list[Reference]:
    """verify's pins: manifest lines (`<hash>  <path>`, `SHA256 (path) = <hash>`) in current-state
    files whose digest no longer matches the file they name, where that file holds a new value of
    this move (a stale manifest the move did not touch is not this move's to report)."""
    moved = set(holding_new)
    if not moved:
        return []  # no file holds a new value: no manifest can name one
    listed = set(paths)
    hexed = hex_holders(project, paths)
    files = HexWords(project, [p for p in hexed if project.classifier.classify(p).status == CURRENT])
    out: list[Reference] = []
    hashed: dict[str, dict[str, str]] = {}
    for holder, words in files.words.items():
        data = files.data[holder]
        lines = data.decode("utf-8", "surrogateescape").split("\n")
        for start, _end, token in words:
            line_no, column, text = line_of(data, start)
            manifest = _MANIFEST.match(text) or _BSD.match(text)
            if manifest is None or manifest.group("hash").lower() != token:
                continue
            named = sorted(repo_names(holder, manifest.group("path")) & listed & moved)
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
                    f"the file's digest is now {cased(now, written)}; update the line")
            out.append(Reference(holder, line_no, column, written, cased(now, written), RESIDUAL, PIN, note,
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
