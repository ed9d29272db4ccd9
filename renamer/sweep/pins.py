"""Hash pins: a digest of a file the sweep rewrites (MD5, SHA-1, SHA-2 of any size, BLAKE2b),
recorded in another file (a `SHA256SUMS` or `SHA512SUMS` manifest, a `deploy.sh.md5` beside it, a
deploy runner's `transaction_sha256=` pin, an SRI `integrity=`), which the rewrite makes stale.

Before writing, the sweep hashes each file it will rewrite and looks for those digests, in every
dress digest_words.py reads (hex in either case, base64, SRI, Nix base32), in every file it lists:
one pass over the files' digest-shaped words, each decoded to its bytes and looked up in one set.
A pin in a record stays (it names what the file was); one in a current-state file is a residual
`pin`, unless `--update-pins` rewrites it to the new bytes' digest, which it does only where the
format is certain (`<hash>  <path>` manifests naming the file, a file named for the one it pins
holding only the digest, `key=<hash>`, `key: <hash>` and `key: sha256:<hash>` lines, a JSON member
`"key": "<hash>"`, SRI), written in the dress the old digest wore. Git's blob ids are not raw-bytes
SHA-1s and never match.

After the sweep, `verify` re-hashes the file a manifest line names (`stale_manifest_pins`): a
manifest is the one format that says which file a digest belongs to; pins in any other format are
found by the digests of the bytes the move replaced (pins_history.py).
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from renamer import lazy_re, sealed, vcs_status
from renamer.classify import CURRENT, RECORD
from renamer.project import LoadedProject
from renamer.sweep.content import own_bytes, read_content
from renamer.sweep.digest_words import (
    HOLDS,
    Dress,
    algorithms_for,
    digest_of,
    digests,
    form,
    key_of,
    shown,
    words_in,
)
from renamer.sweep.model import RESIDUAL, Edit, FileResult, Reference, ScanResult, apply_edits
from renamer.sweep.pins_context import Contexts, repo_names, sidecar_of

PinStatus = Literal["updated", "residual", "kept"]
PIN = "pin"
THIS_SWEEP = "before this sweep"

# sha256sum/md5sum/b2sum output: `<hash>  <path>` (or ` *<path>`, binary mode); and the BSD form
# (`sha512sum --tag`, `cksum -a sha384 [--base64]`): the hash group is checked by key_of.
_MANIFEST = lazy_re.compile(r"^\s*(?P<hash>[0-9A-Za-z+/_=-]{22,})[ \t]+\*?(?P<path>\S(?:.*\S)?)\s*$")
_BSD = lazy_re.compile(
    r"^\s*(?P<tag>(?:SHA|SHA-|SHA3-|MD|BLAKE2[bs]?-?|blake2b-?)[0-9]*) ?\((?P<path>[^)]+)\)"
                  r"\s*=\s*(?P<hash>[0-9A-Za-z+/_=-]+)\s*$")
# `key=<hash>` (shell, .env, INI), `key: <hash>` (YAML), `key = "<hash>"` (TOML): the digest is the
# whole value. A shell `readonly`/`export`/`declare -r` and a YAML list dash may come first.
_ASSIGNED = lazy_re.compile(
    r"""^\s*(?:-\s+)?(?:(?:export|readonly|local|declare(?:\s+-\w+)*)\s+)?[A-Za-z_][\w.-]*\s*[=:]\s*"""
    r"""(?P<q>["']?)(?:(?P<algo>[A-Za-z][A-Za-z0-9]*(?:-[0-9]+)?)[:=])?(?P<hash>[0-9A-Za-z+/_-][0-9A-Za-z+/_=-]*)"""
    r"""(?P=q)\s*(?:[#;].*)?$""")
# A JSON member whose string value is the digest, alone or after its algorithm: `"sha256": "<hex>"`,
# `"checksum": "sha256:<hex>"`; read up to the digest, which must close the string.
_MEMBER = lazy_re.compile(r'"(?:[^"\\]|\\.)*"\s*:\s*"(?:(?P<algo>[A-Za-z0-9-]+):)?$')


@dataclass(frozen=True)
class Pin:
    """One digest of a rewritten file's old bytes, where it is recorded, and what happens to it."""

    path: str  # the file that records the digest
    line: int
    column: int
    of: str  # the rewritten file whose bytes it names
    algorithm: str  # its form: md5 | sha1 | sha256 | sha512 ... | sri-sha384 | base64-sha256 ...
    old: str  # the digest as written
    new: str  # the digest of the file's bytes after the sweep, in the same dress
    status: PinStatus
    why: str  # for a residual: why it is not updated; for kept: the record's reason
    shown: str = ""  # how the report names the form: `SHA-384 (SRI)`

    @property
    def what(self) -> str:
        return f"{self.shown or self.algorithm} of {self.of}"


@dataclass(frozen=True)
class _Hit:
    holder: str
    start: int
    end: int
    token: str  # the digest's bytes as lower-case hex, whatever its dress
    target: str
    algorithm: str
    dress: Dress
    before: str = THIS_SWEEP  # whose bytes it names: the ones this sweep replaces, or an earlier commit's


class HexWords:
    """The listed text files that hold a digest-shaped word (digest_words.py): their bytes, their
    words as (start, end, key) and each word's dress by its start."""

    def __init__(self, project: LoadedProject, paths: Iterable[str]) -> None:
        self.data: dict[str, bytes] = {}
        self.modes: dict[str, int] = {}
        self.words: dict[str, list[tuple[int, int, str]]] = {}
        self.dresses: dict[str, dict[int, Dress]] = {}
        limit = project.config.max_file_size
        for rel in paths:
            content = read_content(project.root / rel, limit)
            if content is None or content.kind != "text":
                continue
            found = words_in(content.data)
            if found:
                self.data[rel], self.modes[rel] = content.data, content.mode
                self.words[rel] = [(w.start, w.end, w.key) for w in found]
                self.dresses[rel] = {w.start: w.dress for w in found}


def hex_holders(project: LoadedProject, paths: Sequence[str]) -> list[str]:
    """The files of `paths` that hold a hex run as long as a digest (or an SRI one): asked of git grep, which
    reads a repo's files in parallel (few files hold one: lock files, manifests); every one of
    `paths` where git cannot answer."""
    found = vcs_status.worktree_files_holding(project.root, HOLDS) if project.git else None
    return list(paths) if found is None else [p for p in paths if p in found]


def line_of(data: bytes, start: int) -> tuple[int, int, str]:
    """1-based line and column of `start`, and the line's text."""
    begin = data.rfind(b"\n", 0, start) + 1
    end = data.find(b"\n", start)
    text = data[begin:end if end >= 0 else len(data)].decode("utf-8", "replace").rstrip("\r")
    return data.count(b"\n", 0, start) + 1, len(data[begin:start].decode("utf-8", "replace")) + 1, text


def _names_algorithm(written: str | None, algorithm: str) -> bool:
    """Whether a prefix such as `sha256:`, `SHA-512` or `BLAKE2b-512` (or none) agrees with the
    digest's algorithm."""
    if written is None:
        return True
    name = written.lower().replace("-", "").replace("_", "")
    return (name == algorithm.replace("_", "")
            or (algorithm == "blake2b" and name in ("blake2b512", "blake2", "b2"))
            or (algorithm == "blake2b256" and name == "b2256"))


def manifest_line(line: str) -> re.Match[str] | None:
    """A `<hash>  <path>` or BSD `ALGO (<path>) = <hash>` line (its hash a digest), or None."""
    found = _BSD.match(line) or _MANIFEST.match(line)
    return found if found is not None and key_of(found.group("hash")) is not None else None


def _certain(line: str, column: int, hit: _Hit, target_paths: set[str],
             sidecar: str | None) -> str | None:
    """None when the line's format says for certain that the word (`hit`, at 1-based `column`
    of `line`) is the target's digest: a manifest line naming the file, a file named for the one
    it pins that holds only the digest, `key=<hash>` or `key: sha256:<hash>` as the whole value, a
    JSON member `"key": "<hash>"`, SRI; otherwise why not."""
    token, algorithm, length = hit.token, hit.algorithm, hit.end - hit.start
    if hit.dress.kind == "sri":
        return None  # `sha256-<base64>`: a form made for pins, which names its algorithm
    if sidecar is not None:
        if sidecar in target_paths:
            return None
        return f"the file is named for {sidecar}, not this file"
    manifest = manifest_line(line)
    if manifest and key_of(manifest.group("hash")) == token:
        tag = manifest.groupdict().get("tag")
        if not _names_algorithm(tag, algorithm):
            return f"the manifest line says {tag}, not {algorithm}"
        if repo_names(hit.holder, manifest.group("path")) & target_paths:
            return None
        return f"the manifest line names {manifest.group('path')}, not this file"
    assigned = _ASSIGNED.match(line)
    if assigned and key_of(assigned.group("hash")) == token and _names_algorithm(assigned.group("algo"),
                                                                               algorithm):
        return None
    member = _MEMBER.search(line, 0, column - 1)
    if (member and line[column - 1 + length:].startswith('"')
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
    manifest = manifest_line(text)
    if manifest is not None and key_of(manifest.group("hash")) == token:
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
    # Nothing to rewrite: only an earlier commit's bytes can be pinned, so ask for those first
    # (no file holds a new value, as in a repo the move never touched: none, at the cost of one
    # git grep) before the tree grep for digest-long words (0.6 s of a clean 4,000-file repo).
    earlier = prior() if prior is not None and not changed else None
    if not changed and not earlier:
        return scan, ()
    files = HexWords(project, hex_holders(project, scan.paths))
    if not files.words:  # no file holds a digest-long hex word: no pin, and nothing to hash
        return scan, ()
    if earlier is None:
        earlier = prior() if prior is not None else {}
    limit = project.config.max_file_size
    old: dict[str, bytes] = {}
    codecs: dict[str, str] = {}  # wide text: scanned (and edited) as UTF-8, hashed as its own bytes
    for rel in [*changed, *sorted(set(earlier) - set(changed))]:
        content = read_content(project.root / rel, limit)
        if content is not None or rel in changed:
            old[rel] = content.data if content is not None else b""
            codecs[rel] = content.codec if content is not None else ""
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
    signatures = sealed.Signatures(str(project.root))  # a pin inside signed text stays (sealed.py)
    needles = _prior_needles({rel: _own(codecs, rel, data) for rel, data in old.items()}, earlier)
    while pending or needles:  # a file that only holds pins changes too, with --update-pins: its own next
        for rel in pending:
            for algorithm, digest in digests(_own(codecs, rel, old[rel])).items():
                needles.setdefault(digest, []).append((rel, algorithm, THIS_SWEEP))
        pending = []
        for holder, words in files.words.items():
            for start, end, token in words:
                targets = [t for t in needles.get(token, ())
                           if belongs(files, contexts, holder, start, token, _owner(by_path, t[0]), standing)]
                if not targets:
                    continue
                target, algorithm, before = targets[0]
                hit = _Hit(holder, start, end, token, target, algorithm, files.dresses[holder][start], before)
                hits.append(hit)
                if holder not in classes:
                    classes[holder] = project.classifier.classify(holder)
                klass = classes[holder]
                decided[hit] = _decide(project, files, hit, klass.status, klass.reason, by_path, base,
                                       update, signatures)
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
    new = _settle(hits, decided, old, base, codecs)
    while unsure := [h for h in hits if decided[h][0] == "updated" and not h.dress.alphabet_known
                     and set(new[h]) & set("+/-_")]:
        for hit in unsure:  # which alphabet the old one was in, nothing says: the new one needs to know
            decided[hit] = ("residual", "unpadded base64 showing neither alphabet (`+/` or `-_`), and the "
                            "new digest needs one: update it by hand")
        new = _settle(hits, decided, old, base, codecs)
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
            update: bool, signatures: sealed.Signatures) -> tuple[PinStatus, str]:
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
    sidecar = sidecar_of(hit.holder, data, target_paths)
    why = _certain(line, column, hit, target_paths, sidecar)
    if why is not None:
        return "residual", why
    if any(e.start < hit.end and hit.start < e.end for e in base.get(hit.holder, ())):
        return "residual", "the sweep rewrites this very text"
    signed = _sealed_by(signatures, hit, data)
    if signed is not None:  # the pin writer goes through the sweep's own guard (t30 finding 11)
        return "residual", signed
    if not update:
        return "residual", "update it by hand, or sweep with --update-pins, which rewrites it with the file"
    return "updated", ""


def _sealed_by(signatures: sealed.Signatures, hit: _Hit, data: bytes) -> str | None:
    """Why the pin at `hit` lies in bytes a signature or a MAC binds (a clear-signed block, a file a
    detached signature signs, a sops file), which a new digest there would break; or None."""
    found = sealed.sealed(signatures, hit.holder, data)
    if found is None:
        return None
    kind, spans, by = found
    if not any(start <= hit.start and hit.end <= end for start, end in spans):
        return None
    what = {sealed.SOPS: "inside a sops-encrypted file, whose MAC covers it",
            sealed.SIGNED: f"inside text {by} signs" if by is not None else "inside a PGP clear-signed block",
            }.get(kind, f"inside bytes a seal binds ({kind})")
    return (f"{what}: a new digest there breaks the signature; update it and sign the manifest again "
            "(`gpg --clearsign`, `gpg --detach-sign`), or keep it with a keep rule")


def _own(codecs: Mapping[str, str], rel: str, data: bytes) -> bytes:
    """A file's bytes as written: wide text (sweep/content.py) back in its codec."""
    return own_bytes(data, codecs.get(rel, ""))


def _settle(hits: Sequence[_Hit], decided: dict[_Hit, tuple[PinStatus, str]], old: dict[str, bytes],
            base: dict[str, list[Edit]], codecs: Mapping[str, str]) -> dict[_Hit, str]:
    """Each pin's new digest, over the files' final bytes (pin edits included), to a fixed point.
    Pins form no cycle (a file cannot hold the digest of bytes that hold that digest), so a chain
    (b pins a, c pins b) settles in at most one round per file."""
    new = {hit: "" for hit in hits}
    for _ in range(len(old) + 1):
        final = {rel: apply_edits(data, base[rel] + [Edit(h.start, h.end, new[h].encode()) for h in hits
                                                     if h.holder == rel and decided[h][0] == "updated"])
                 for rel, data in old.items()}
        settled = {hit: hit.dress.write(digest_of(hit.algorithm, _own(codecs, hit.target, final[hit.target])))
                   for hit in hits}
        if settled == new:
            break
        new = settled
    return new


def _pin(files: HexWords, hit: _Hit, decision: tuple[PinStatus, str], new: dict[_Hit, str]) -> Pin:
    data = files.data[hit.holder]
    line, column, _ = line_of(data, hit.start)
    return Pin(hit.holder, line, column, hit.target, form(hit.algorithm, hit.dress),
               data[hit.start:hit.end].decode("ascii"), new[hit], decision[0], decision[1],
               shown(hit.algorithm, hit.dress))


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
                     f"the {shown(hit.algorithm, hit.dress)} of {hit.target} {hit.before}; "
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
        for start, end, token in words:
            line_no, column, text = line_of(data, start)
            manifest = manifest_line(text)
            if manifest is not None and key_of(manifest.group("hash")) == token:
                named = sorted(repo_names(holder, manifest.group("path")) & listed & moved)
            else:  # `deploy.sh.sha256` holding only the digest names its file too
                sidecar = sidecar_of(holder, data, listed & moved)
                named = [sidecar] if sidecar is not None else []
            if not named:
                continue
            if project.classifier.line_exemptions(holder, lines, [line_no - 1]):
                continue
            if named[0] not in hashed:
                content = read_content(project.root / named[0], project.config.max_file_size)
                hashed[named[0]] = digests(content.raw(content.data)) if content is not None else {}
            tag = manifest.groupdict().get("tag") if manifest else None
            algorithm = manifest_algorithm(token, tag, holder)
            if algorithm is None or not hashed[named[0]] or token in hashed[named[0]].values():
                continue
            dress = files.dresses[holder][start]
            written = data[start:end].decode("ascii")
            now = dress.write(bytes.fromhex(hashed[named[0]][algorithm]))
            note = (f"a stale {shown(algorithm, dress)} of {named[0]}, which holds a new value of this move: "
                    f"the file's digest is now {now}; update the line")
            others = ambiguous(token, tag, holder)
            if others:  # its length fits several algorithms and nothing on the line or in the name says which
                alts = ", ".join(f"{shown(a, dress)} {dress.write(bytes.fromhex(hashed[named[0]][a]))}"
                                 for a in others)
                note = (f"a stale digest of {named[0]}, which holds a new value of this move; renamer cannot "
                        f"tell its algorithm (neither the line nor the file's name says; its length fits "
                        f"{shown(algorithm, dress)} and {', '.join(shown(a, dress) for a in others)}): "
                        f"the file's {shown(algorithm, dress)} is now {now}, {alts}; update the line with "
                        "the one its checker computes")
            out.append(Reference(holder, line_no, column, written, now, RESIDUAL, PIN, note,
                                 text))
    return out


def manifest_algorithm(token: str, tag: str | None, holder: str) -> str | None:
    """The algorithm a manifest's digest is of: the one its BSD tag names, else by its length and
    the file's name (a `B2SUMS` or `*.b2` file's is BLAKE2b, a `SHA3SUMS` file's SHA3, of the
    digest's length), else the one its length fits first (SHA-256, SHA-512): `ambiguous` says
    when others fit too (break-it round 24, finding 19)."""
    candidates = algorithms_for(token)
    named = [a for a in candidates if tag is not None and _names_algorithm(tag, a)]
    if named:
        return named[0]
    name = holder.rsplit("/", 1)[-1].lower()
    for word, family in (("b2", "blake2b"), ("blake2", "blake2b"), ("sha3", "sha3_")):
        if len(candidates) > 1 and word in name:
            return next((a for a in candidates if a.startswith(family)), candidates[0])
    return candidates[0] if candidates else None


def ambiguous(token: str, tag: str | None, holder: str) -> tuple[str, ...]:
    """The other algorithms a manifest's digest may be of, where neither its tag nor its file's
    name says (a 32-byte digest in `checksums.txt`: SHA-256, SHA3-256 or BLAKE2b-256)."""
    candidates = algorithms_for(token)
    chosen = manifest_algorithm(token, tag, holder)
    if len(candidates) < 2 or (tag is not None and chosen is not None and _names_algorithm(tag, chosen)):
        return ()
    name = holder.rsplit("/", 1)[-1].lower()
    if any(word in name for word in ("b2", "blake2", "sha3", chosen or "?")):
        return ()
    return tuple(a for a in candidates if a != chosen)


def with_references(scan: ScanResult, refs: Sequence[Reference]) -> ScanResult:
    """`scan` with `refs` added to the files that hold them."""
    if not refs:
        return scan
    by_path = {f.path: f for f in scan.files}
    for ref in refs:
        found = by_path.get(ref.path) or FileResult(ref.path, "text", CURRENT)
        by_path[ref.path] = replace(found, references=(*found.references, ref))
    return replace(scan, files=tuple(by_path[p] for p in sorted(by_path)))
