"""Scanning across cores: large scans are split into chunks over forked workers.

Each chunk goes through a lean first pass (one read, the needle tests) and only
candidate files through the full scanner (sweep/scan.py); only the few files
with something to report travel back.
"""

from __future__ import annotations

import collections
import functools
import itertools
import os
import stat
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from renamer import debug, folded_lines, hex_names, work
from renamer.classify import CURRENT
from renamer.decoded import might_decode, might_hold_break, might_split
from renamer.forked import available_cores, can_fork, fork_map
from renamer.formats.markdown import is_markdown
from renamer.near_miss import FOLD_AND_BARE, fold_and_bare
from renamer.project import LoadedProject
from renamer.sweep import compressed, decoded_names, dense_bytes, lowered_names, unread_content
from renamer.sweep.anchors import anchor_literals
from renamer.sweep.content import OPEN_FLAGS, WIDE_BOM_STARTS
from renamer.sweep.model import FileResult
from renamer.sweep.native_gate import NativeGate, choose_native
from renamer.sweep.scan import FileScanner, ScanOptions
from renamer.sweep.wide import holds_wide

# Below this many files a pool costs more than it saves.
PARALLEL_FROM = 3000
CHUNK = 512
_FIRST_READ = 65536


def _interesting(found: FileResult) -> bool:
    return bool(found.kind == "unreadable" or found.references or found.new_path or found.near_misses
                or found.edits)  # a `moved` block alone (sweep/terraform_keys.py)


@dataclass
class Chunk:
    """What scanning some files found: only what the parent needs travels back."""

    scanned: int = 0
    kept: list[FileResult] = field(default_factory=list)  # the results worth sending back
    holding: list[str] = field(default_factory=list)  # files holding one of `options.present`
    linking: list[str] = field(default_factory=list)  # Markdown files that may link to an old anchor
    excluded: list[str] = field(default_factory=list)  # never scanned: the allowlist's `exclude` and more
    encrypted: list[tuple[str, str]] = field(default_factory=list)  # current files read as ciphertext
    unread: list[tuple[str, str]] = field(default_factory=list)  # content elsewhere (sweep/unread_content.py)
    work: collections.Counter[str] = field(default_factory=collections.Counter)  # work.py: for -vv

    def add(self, other: Chunk) -> None:
        self.scanned += other.scanned
        self.kept += other.kept
        self.holding += other.holding
        self.linking += other.linking
        self.excluded += other.excluded
        self.encrypted += other.encrypted
        self.unread += other.unread
        self.work.update(other.work)


def scan_chunk(project: LoadedProject, options: ScanOptions, paths: Sequence[str],
               native: NativeGate | None = None, scanner: FileScanner | None = None) -> Chunk:
    """What one chunk of files holds.

    A lean first pass reads each file once and tests the needles; only
    candidates (a hit, a UTF-16/32 BOM, an old value in the path, anything
    unusual) go through the full scanner. Most files never leave this loop.
    `native`: the same tests answered by one hyperscan scan a file (sweep/native_gate.py).
    `scanner`: one for every chunk of a scan, so that what it reads of the whole tree (variable
    definitions, keys: a git grep each) is read once per process, not once per chunk.
    """
    counted = collections.Counter(work.COUNTS)
    scanner = scanner or FileScanner(project, options)
    root = f"{project.root}/"
    matcher = project.matcher
    needles = matcher.needles
    # One test for the whole chunk tells whether any path holds an old value at all.
    joined = "\0".join(paths)
    path_needles = [n for n in (os.fsdecode(x) for x in needles) if n in joined]  # U-labels: UTF-8
    loose = project.loose if options.loose else None
    # An old value in another spelling in a path (`host_vars/PUG.yml`, `bin/ssh-pug`): a near-miss
    # the scanner reports (its path). One test for the chunk; then only where it said yes.
    path_loose = loose is not None and loose.might_match(os.fsencode(joined))
    present = options.present
    slugs = anchor_literals(project)
    gates = _gates(project, loose is not None, present + slugs)
    folded = [fold_and_bare(needle) for needle in needles]  # an old form in any case holds one
    wide = scanner.wide  # old values in UTF-16/32 code units, as the scanner holds them
    limit = project.config.max_file_size
    open_, read_, close_, fstat_ = os.open, os.read, os.close, os.fstat  # hot loop: local names
    out = Chunk()
    scanned, kept, holding, linking = 0, out.kept, out.holding, out.linking
    excluded = project.classifier.is_excluded
    lowered = [old.lower() for old, _ in lowered_names.mixed(matcher.hosts)]  # (lowered_names.py)
    zone_files = {zone[0] for zone in options.zone_origins}  # always scanned: sweep/zone_origins.py
    zone_files |= {hosts[0] for hosts in options.expanded_hosts}  # read by dnsmasq (sweep/tool_names.py)
    zone_files |= {env[0] for env in options.searched_env}  # read by a service with a search list
    zone_files |= {service[0] for service in options.searched_services}  # extending a search list
    zone_files |= {helm[0] for helm in options.helm_compositions}  # a value a chart template composes
    zone_files |= {rel for pair in options.ssh_includes for rel in pair}  # an ssh config and its includes
    zone_files |= set(scanner.split_lengths)  # a length of a resized network kept apart (split_lengths.py)
    for rel in paths:
        if excluded(rel):
            out.excluded.append(rel)
            continue
        candidate, read, hints = True, None, None
        if rel in zone_files:
            found = scanner.scan(rel)
            if found is not None:
                scanned += 1
                if _interesting(found):
                    kept.append(found)
                if present and _holds(root + rel, present, limit):
                    holding.append(rel)  # a zone, an ssh config: read for new values as every file is
            continue
        try:
            fd = open_(root + rel, OPEN_FLAGS)
        except OSError:
            fd = -1  # a link, gone or unreadable: the full scanner says which
            holds = functools.partial(unread_content.first_old, matcher)
            annexed = unread_content.annex_link(root, rel, holds, limit)
            if annexed is not None and project.classifier.classify(rel).status == CURRENT:
                out.unread.append((rel, annexed))
        if fd >= 0:
            try:
                # One read answers for most files; only a full buffer needs fstat (size, type).
                data = read_(fd, _FIRST_READ)
                if len(data) == _FIRST_READ:
                    info = fstat_(fd)
                    if not stat.S_ISREG(info.st_mode):
                        continue
                    if info.st_size > limit:
                        raise OSError  # the full scanner streams it
                    data += read_(fd, info.st_size + 1 - len(data))
                if len(data) > limit:
                    raise OSError  # over options.max_file_size: the full scanner streams it
                if b"$ANSIBLE_VAULT;" in data or b"ENC[AES256_GCM,data:" in data:
                    sealed = encrypted_kind(data)
                    if sealed is not None and project.classifier.classify(rel).status == CURRENT:
                        out.encrypted.append((rel, sealed))
                elif (data[:1] in _UNREAD_STARTS or b"-----BEGIN " in data[:4096]
                      or dense_bytes.might_be(data)):  # brotli, raw LZMA2, a cipher text (g31)
                    # git-crypt, age, gpg, an LFS pointer, zstd: never read (sweep/unread_content.py)
                    _unread(project, rel, data, out)
                # A BOM, or NULs with an old value in UTF-16/32 code units (no BOM, or in a binary
                # file): the full scanner reads it and reports it skipped (sweep/wide.py).
                candidate = data[:2] in WIDE_BOM_STARTS or holds_wide(data, wide)
                # gzip: its text is read decompressed for the skipped list (sweep/binary_hits.py)
                candidate = candidate or compressed.kind(data) is not None
                # a certificate, a hashed known_hosts entry, a registry hex value (sweep/decoded_names.py)
                candidate = candidate or decoded_names.might_hold(data)
                # a line folded by a leading blank, an LDIF base64 value (folded_lines.py)
                candidate = candidate or folded_lines.might_hold(rel, data, needles)
                # `pxelinux.cfg/0A000046`: an address as a boot loader's hex file name (hex_names.py)
                candidate = candidate or hex_names.might_hold(data) or hex_names.in_path(rel)
                # `nixos-server1` of a mixed-case `NixOS-Server1` the repo lower-cases (lowered_names.py)
                candidate = candidate or (bool(lowered) and any(low.encode() in data or low in rel
                                                                 for low in lowered))
                if path_loose and loose is not None and loose.might_match(os.fsencode(rel)):
                    candidate = True
                if native is not None:  # the same answers, from one native scan (sweep/native_gate.py)
                    answer = native.answer(data, rel, candidate, path_needles)
                    if answer is None:
                        scanned += 1
                        continue  # finally: closes fd
                    hit, loose_hit, candidate = answer.hit, answer.loose_hit, answer.candidate
                    if answer.holds_present or (present and data[:2] in WIDE_BOM_STARTS):
                        holding.append(rel)  # a UTF-16/32 file is read for new values decoded
                    if answer.holds_slug and is_markdown(rel):
                        linking.append(rel)
                else:
                    gated = True  # it holds a gate (or was not asked)
                    bare = None
                    if not candidate and not path_needles:
                        # One copy folded and stripped of escapes, a few short `in` tests: a file
                        # holding none of the gates can pass none of the tests below.
                        bare = data.translate(*FOLD_AND_BARE)
                        for gate in gates:
                            if gate in bare:
                                break
                        else:
                            # A name split by a line break, or spelled with escapes: below.
                            if not (might_hold_break(data) or might_decode(matcher, data)):
                                scanned += 1
                                continue  # finally: closes fd
                            gated = False
                    # Each test once: the full scanner takes their answers instead of asking again.
                    hit = (any(needle in data for needle in needles) or matcher.might_hold_context(data)
                           or might_split(matcher, data) or might_decode(matcher, data))
                    loose_hit = loose is not None and loose.might_match(data)
                    candidate = candidate or hit or loose_hit or any(n in rel for n in path_needles)
                    if not candidate and gated and (bare is None or any(f in bare for f in folded)):
                        # It holds a gate, folded: an old value in another case, which a DNS file
                        # (a zone, a hosts file) matches; the scanner asks its format.
                        candidate = matcher.might_match_any_case(data)
                    if present and (data[:2] in WIDE_BOM_STARTS or any(value in data for value in present)):
                        holding.append(rel)  # a UTF-16/32 file is read for new values decoded
                    if is_markdown(rel) and any(slug in data for slug in slugs):
                        linking.append(rel)
                if candidate:
                    info = fstat_(fd)
                    if stat.S_ISREG(info.st_mode):
                        read = (data, info.st_mode)
                        hints = (hit, loose_hit)
            except OSError:
                pass  # a folder (a submodule), a file over the limit: the full scanner decides
            finally:
                close_(fd)
        if not candidate:
            scanned += 1
            continue
        found = scanner.scan(rel, read=read, hints=hints)
        if found is not None:
            scanned += 1
            if _interesting(found):
                kept.append(found)
    out.scanned = scanned
    out.work = work.since(counted)
    return out


# The first bytes of what unread_content.py tells: a NUL (git-crypt), `a` (age), an OpenPGP packet,
# `v` (an LFS pointer), a compressed file (sweep/compressed.py: read whole here, listed where it
# cannot be).
_UNREAD_STARTS = frozenset([b"\x00", b"a", b"v", b"P", b"(", b"7", b"R", b"\x04", b"L", b"B", b"\x1f",
                            b"]", b"x",  # LZMA-alone, zlib (sweep/compressed.py's headerless streams)
                            b"0",  # a PKCS#12 bundle (a DER SEQUENCE)
                            *(bytes([b]) for b in range(0x80, 0x100))])


def _unread(project: LoadedProject, rel: str, data: bytes, out: Chunk) -> None:
    """List `rel` as encrypted or not read where its content cannot be read (unread_content.py)."""
    found = unread_content.unreadable(data, project.config.max_file_size)
    if found is not None and project.classifier.classify(rel).status == CURRENT:
        (out.encrypted if found[0] == "encrypted" else out.unread).append((rel, found[1]))


def encrypted_kind(data: bytes) -> str | None:
    """What encrypted `data` so that renamer reads only ciphertext where a value may stand (break-it
    round 21, finding 22: a vaulted group_vars file holding `db_host: web01` passed verify --strict):
    a whole file by ansible-vault, values by ansible-vault (`!vault |`) or by sops; else None."""
    if data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"$ANSIBLE_VAULT;"):
        return "encrypted with ansible-vault: `ansible-vault view` shows what it holds"
    if b"!vault" in data and b"$ANSIBLE_VAULT;" in data:
        return "values encrypted with ansible-vault (`!vault`): `ansible-vault decrypt` or `view` shows them"
    if b"ENC[AES256_GCM,data:" in data and (b"sops" in data):
        return "values encrypted with sops: `sops decrypt` shows them"
    return None


def _holds(path: str, present: tuple[bytes, ...], limit: int) -> bool:
    """Does the file hold one of `present` (a UTF-16/32 one is read for them decoded)?"""
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError:
        return False
    return data[:2] in WIDE_BOM_STARTS or any(value in data for value in present)


def _gates(project: LoadedProject, loose: bool, present: tuple[bytes, ...] = ()) -> tuple[bytes, ...]:
    """Literals at least one of which every candidate holds, once folded and stripped of
    escapes (near_miss.fold_and_bare): the needles, the stems behind might_hold_context's
    tests, and the loose needles. `x in data` implies `fold_and_bare(x) in fold_and_bare(data)`,
    so a file holding none of them is no candidate (the BOM and path tests stay as they are)."""
    matcher = project.matcher
    found = {fold_and_bare(x) for x in (*matcher.needles, *matcher.context_literals(), *present)}
    if loose:
        found.update(fold_and_bare(n) for n in project.loose.needles)
    ordered = sorted(found, key=len)
    if not ordered or b"" in found:
        return (b"",)  # always a candidate: test as before
    return tuple(g for i, g in enumerate(ordered) if not any(h in g for h in ordered[:i]))


def scan_files(project: LoadedProject, options: ScanOptions, batches: Iterator[Sequence[str]],
               progress: Callable[[int, int], None] | None = None,
               scanner: FileScanner | None = None) -> Chunk:
    """Everything the files hold, each list in path order.

    `batches` may block (the second one waits for git's walk): the pool is already
    scanning the first while it does. `scanner`: the caller's, to scan more files with
    afterwards (its lazily read definitions and keys then serve both).
    """
    scanner = scanner or FileScanner(project, options)  # forked workers inherit it, caches and all
    first = list(next(batches, []))
    workers = available_cores()
    slugs = anchor_literals(project)
    native, which = choose_native(project.matcher, project.loose if options.loose else None,
                                  options.present, slugs, len(first))
    debug.say(f"scan: {which}")
    task = functools.partial(_worker_chunk, project, options, native, scanner)
    chunks = _chunks(first, batches)
    forked = len(first) >= PARALLEL_FROM and workers >= 2 and can_fork()
    if forked:
        done: Iterator[tuple[int, Chunk]] = fork_map(task, chunks, workers, ordered=False)
        debug.say(f"scan: {workers} workers forked for {len(first)} tracked files and more")
    else:
        done = map(task, chunks)
    total = Chunk()
    per_worker: collections.Counter[int] = collections.Counter()
    start = time.perf_counter()
    for worker, chunk in done:
        total.add(chunk)
        per_worker[worker] += chunk.scanned
        if progress:
            seen = total.scanned + len(total.excluded)
            progress(seen, max(seen, len(first)))
    if debug.on():
        split = ", ".join(str(count) for _, count in sorted(per_worker.items())) or "0"
        how = f"{len(per_worker)} forked workers" if forked else "in process"
        debug.say(f"scan: {total.scanned} files in {(time.perf_counter() - start) * 1000:.1f} ms, {how}; "
                  f"files per worker: {split}")
        debug.say(f"work: {work.line(total.work)}")
    total.kept.sort(key=lambda r: r.path)
    total.holding.sort()
    total.linking.sort()
    return total


def _worker_chunk(project: LoadedProject, options: ScanOptions, native: NativeGate | None,
                  scanner: FileScanner, paths: Sequence[str]) -> tuple[int, Chunk]:
    """scan_chunk, with the worker's process id (the -vv log counts files per worker)."""
    return os.getpid(), scan_chunk(project, options, paths, native, scanner)


def _chunks(first: list[str], rest: Iterator[Sequence[str]]) -> Iterator[Sequence[str]]:
    for batch in itertools.chain([first], rest):  # lazily: `rest` waits in the pool's feeder thread
        for start in range(0, len(batch), CHUNK):
            yield batch[start:start + CHUNK]
