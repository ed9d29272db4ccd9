"""renamer init's proposal from a repo: the files that spell an old value, each placed, and the ranges
and patterns never rewritten."""

from __future__ import annotations

import os
from collections.abc import Collection, Sequence
from pathlib import Path

from renamer import ignore, vcs_command, vcs_listing
from renamer.allowlist import RecordClass
from renamer.allowlist_load import load_allowlists
from renamer.classify import FILE_DATE, PathPatterns, literal_pattern
from renamer.config import DEFAULT_MAX_FILE_SIZE
from renamer.config_renames import pair_kind
from renamer.match import Matcher
from renamer.names import parse_network
from renamer.preset_folders import PresetClaims, live_by_content
from renamer.scaffold_backups import BACKUP_FOLDER, backup_file_pattern
from renamer.scaffold_live import Copies, copies_in_live, live_folders, named_folders
from renamer.scaffold_place import FIXTURES, HISTORY, TESTS, Proposal, current_patterns, in_folder, place
from renamer.scaffold_tests import live_file
from renamer.scaffold_tooling import BACKUP_WORD
from renamer.shipped import shipped
from renamer.sweep.content import read_content


def _inventory(rel: str) -> bool:
    """A file the DNS inventory loads under the default `dns:` folder (project.py's implicit rule):
    never swept as text. Anything else in `dns/` (a repo's own zone files, Terraform records) is
    placed like any file (t36-sweep finding 23: init skipped all of `dns/` and said nothing)."""
    if rel == "dns/resolvers.yaml":
        return True
    folder, _, name = rel.rpartition("/")
    return folder == "dns/sites" and name.endswith((".yaml", ".yml"))


def propose(root: Path, pairs: list[tuple[str, str]], config_name: str, allowlist_rel: str) -> Proposal:
    """Every file holding an old value lands in exactly one place: current, a record class
    (a history folder, test fixtures, the preset, a dated name), or the unclassified list."""
    hosts = [(o, n) for o, n in pairs if pair_kind(o, n) == "hosts"]
    addresses = [(o, n) for o, n in pairs if pair_kind(o, n) == "addresses"]
    networks = [(parse_network(o), parse_network(n)) for o, n in pairs if pair_kind(o, n) == "networks"]
    matcher = Matcher(hosts, addresses, [(o, n) for o, n in networks if o is not None and n is not None])
    git = vcs_command.is_git(root)
    files = vcs_listing.listed_files(root, ignored=False)[0] if git else ignore.walk(root)[0]
    records_common = load_allowlists((shipped("allowlists") / "records-common.yaml",), str).records
    preset = PresetClaims([(record.name, record.patterns) for record in records_common], PathPatterns)
    proposal = Proposal(pairs)
    # which folders named for copies hold live configuration, decided before any file is placed
    copies = Copies(files, lambda rel: _read(root, rel), lambda rel: _executable(root, rel))
    found = live_folders(copies)
    live_named = {pattern: rel for pattern, (rel, _why) in found.items()}
    proposal.live_named = live_named
    proposal.live_why = {pattern: why for pattern, (_rel, why) in found.items()}
    tests: dict[str, bytes] = {}  # the test files holding an old value, read once
    skip = {config_name, allowlist_rel}
    for rel in files:
        if rel in skip or _inventory(rel) or rel.rsplit("/", 1)[-1] == config_name:
            continue
        content = read_content(root / rel, DEFAULT_MAX_FILE_SIZE)
        data = content.data if content is not None else b""
        matches = matcher.find(data) if data and matcher.might_match(data) else []
        # A reference only in the path (host_vars/<old>.example/vars.yml, an empty marker file):
        # the sweep renames it, so it is placed like any file that spells the old value.
        named = bool(matcher.find(os.fsencode(rel)))
        if not matches and not named:
            continue
        proposal.files_with_values.append(rel)
        if named:
            proposal.named_by_path.append(rel)
        if in_folder(rel, TESTS):
            tests[rel] = data
        proposal.ranges += [_where(rel, data, m.start, m.end) for m in matches
                            if m.refused in ("range", "pattern")]
    proposal.live_copies = copies_in_live(proposal.files_with_values, live_named, copies)
    listed = set(files)
    # a live backup folder's dated files are what its tool wrote (records): its undated ones are no question
    in_live = PathPatterns(list(live_named))
    dated_folders = {rel.rsplit("/", 1)[0] if "/" in rel else "" for rel in proposal.files_with_values
                     if FILE_DATE.search(rel.rsplit("/", 1)[-1]) and preset.claim(rel) is None
                     and not _dated_copy(rel, listed) and not in_live.match_file(rel)}
    # where each file goes by its path: the live ones are current
    # a file the preset's folder name leaves undecided (preset_folders.py) and init finds a copy of
    # another (the same bytes, a mirrored path): a record of its own
    # A file the preset keeps by its folder's name whose content runs (a script, a manifest) is
    # undecided as the sweep leaves it (classify.by_content), and a record of its own where it copies
    # another (`backups/deploy.sh`, the bytes of `scripts/deploy.sh`)
    for rel in proposal.files_with_values:
        claimed = preset.claim(rel)
        if claimed is None or in_live.match_file(rel):
            continue
        claim = claimed[1]
        if claim.verdict == "record" and claim.folder and not claim.why:
            why = live_by_content(rel.rsplit("/", 1)[-1], copies.data(rel), copies.executable(rel))
            if why is None:
                continue
            proposal.content_live[rel] = why
        elif claim.verdict != "undecided":
            continue
        original = copies.original(rel, claim.folder)
        if original is not None:
            proposal.preset_copies[rel] = original
    probe = Proposal(pairs, live_named=live_named, live_why=proposal.live_why,
                     live_copies=proposal.live_copies, preset_copies=proposal.preset_copies,
                     content_live=proposal.content_live)
    for rel in proposal.files_with_values:
        place(probe, rel, preset, dated_folders)
    live = set(files) - set(tests) - {rel for rel in files if not _outside_records(probe, rel, live_named)}
    for rel in proposal.files_with_values:
        reads = live_file(rel, tests[rel], live, files) if rel in tests else None
        place(proposal, rel, preset, dated_folders, reads)
    proposal.current = current_patterns(proposal.current_files, proposal.unclassified)
    kept = [rel for rel in proposal.files_with_values if rel not in proposal.current_files]
    proposal.backup_records = sorted({
        pattern for rel in kept for folder in named_folders(rel)
        if BACKUP_WORD.match(folder.rsplit("/", 1)[-1])
        and (pattern := literal_pattern(folder) + "/**") not in live_named})
    proposal.preset_overrides = _preset_overrides(proposal, records_common)
    proposal.preset_names = [record.name for record in records_common]
    return proposal


def _preset_overrides(proposal: Proposal,
                      records_common: Sequence[RecordClass]) -> list[tuple[str, list[str], str]]:
    """The preset's classes whose folder patterns (`**/backup/**`) cover a live folder, written again
    with that folder taken out right after the pattern (`!stacks/backup/**`): a class of the user's
    own replaces the preset's of the same name, and the later patterns (`**/*.bak`) still hold."""
    if not proposal.live_in_preset and not proposal.preset_freed:
        return []
    out = []
    for record in records_common:
        patterns: list[str] = []
        for pattern in record.patterns:
            patterns.append(pattern)
            one = PathPatterns([pattern])
            covered = [rel for rel in proposal.live_in_preset if one.match_file(rel)]
            freed = {"!" + folder for folder in proposal.live_named for rel in covered
                     if PathPatterns([folder]).match_file(rel)}
            # a role named after what it does, a file left undecided: the class of your own holds
            # whatever it covers, so what the preset's folder name did not decide is taken out too
            freed |= {"!" + out_ for rel, out_ in proposal.preset_freed.items() if one.match_file(rel)}
            patterns += sorted(freed - set(patterns))
        if patterns != list(record.patterns):
            out.append((record.name, patterns, record.reason))
    return out


def _outside_records(probe: Proposal, rel: str, live_named: Collection[str]) -> bool:
    """Whether `rel` may be live: not a record by its path (history, fixtures, preset, dated name).
    Files without an old value were never placed: live unless a history or fixture folder holds them
    (a folder named for copies that holds live configuration is no such folder)."""
    if rel in probe.files_with_values:
        return rel in probe.current_files
    return not (in_folder(rel, HISTORY, live_named) or in_folder(rel, FIXTURES) or in_folder(rel, TESTS)
                or in_folder(rel, BACKUP_FOLDER, live_named)
                or backup_file_pattern(rel.rsplit("/", 1)[-1]) is not None)


def _executable(root: Path, rel: str) -> bool:
    try:
        return os.lstat(root / rel).st_mode & 0o111 != 0
    except OSError:
        return False


def _read(root: Path, rel: str) -> bytes:
    content = read_content(root / rel, DEFAULT_MAX_FILE_SIZE)
    return content.data if content is not None and content.kind in ("text", "encoding") else b""


def _dated_copy(rel: str, listed: set[str]) -> bool:
    """Whether `rel` is a dated copy of a file beside it (`db.zone-20240102` next to `db.zone`):
    the copy is a record by its date, and it says nothing about the undated original, which is
    the live file (a folder of dated notes, by contrast, leaves its undated files undecided)."""
    folder, _, name = rel.rpartition("/")
    match = FILE_DATE.search(name)
    if match is None:
        return False
    before, after = name[: match.start()].rstrip("._-"), name[match.end():]
    original = before + after if before else after.lstrip("._-")
    return bool(original) and (f"{folder}/{original}" if folder else original) in listed


def _where(rel: str, data: bytes, start: int, end: int) -> str:
    """path:line: the line (trimmed) holding a range or pattern."""
    del end
    line = data.count(b"\n", 0, start) + 1
    first = data.rfind(b"\n", 0, start) + 1
    last = data.find(b"\n", start)
    text = data[first:last if last != -1 else len(data)].decode("utf-8", "replace").strip()
    return f"{rel}:{line}: {text[:120]}"

