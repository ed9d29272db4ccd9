"""Which files and lines are current state, which are records: pure, no I/O."""

from __future__ import annotations

import bisect
import datetime as dt
import itertools
import re
import warnings
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

import pathspec

from renamer import lazy_re, record_spans
from renamer.allowlist import Allowlist, KeepRule
from renamer.formats import format_of
from renamer.formats.prose import is_prose, reads_as_configuration, says_past
from renamer.formats.prose_outline import legacy, outline
from renamer.glob_grammar import with_classes
from renamer.preset_folders import Claim, FolderClaims, live_by_content, named_folder

# 2026-10-05 or 20261005, not part of a longer number, unless a time of day follows the compact form
# (VS Code's Local History `hosts_20250301101500.ini`: t35-sweep finding 16).
FILE_DATE = lazy_re.compile(r"(?<!\d)(\d{4})-?(\d{2})-?(\d{2})(?:(?!\d)|(?<=\d{8})(?=(?:[01]\d|2[0-3])[0-5]\d"
                            r"(?:[0-5]\d)?(?!\d)))")

FileStatus = Literal["current", "record", "excluded", "unclassified"]
CURRENT: FileStatus = "current"
RECORD: FileStatus = "record"
EXCLUDED: FileStatus = "excluded"
UNCLASSIFIED: FileStatus = "unclassified"


@dataclass(frozen=True)
class FileClass:
    status: FileStatus
    reason: str | None = None  # record class name or dated-file
    note: str | None = None


@dataclass(frozen=True)
class LineExemption:
    reason: str  # dated-section | inline | keep rule name
    note: str
    start: int = -1  # a dated section's first line (0-based), where it is one


def literal_pattern(path: str) -> str:
    """A gitignore-style pattern that matches `path` literally: its wildcards (`*`, `?`, `[`, `]`)
    and backslashes escaped, a leading `#` or `!` (a comment, a negation) and trailing spaces (which
    git drops) too. Every writer of patterns (init, sweep --interactive) builds them so: a folder
    named `cfg[1]` must not become the class `[1]` that covers `cfg1/` (adversarial B-23)."""
    escaped = re.sub(r"([\\*?\[\]])", r"\\\1", path)
    if escaped[:1] in ("#", "!"):
        escaped = "\\" + escaped
    stripped = escaped.rstrip(" ")
    return stripped + "\\ " * (len(escaped) - len(stripped))


class PathPatterns:
    """gitignore-style patterns, matched with pathspec's semantics.

    Without negations, a path matches when any pattern does, so the patterns'
    regexes are joined into one: a single search per path instead of one per
    pattern, which matters on tens of thousands of files.
    """

    def __init__(self, patterns: Sequence[str]) -> None:
        # POSIX classes spelt out: pathspec hands `[[:alpha:]]` to `re` as it is, which reads it
        # as a set of `[:alph` (and warns); git reads a letter
        # backend "simple" (Python's re): where hyperscan is installed pathspec would pick it and
        # compile a database for every spec (5 ms each, three per project load: 11 % of a small
        # project's verify); the common case is matched by the one joined regex below anyway.
        self._spec = pathspec.GitIgnoreSpec.from_lines([with_classes(p) for p in patterns], backend="simple")
        active = [p for p in self._spec.patterns if p.include is not None and p.regex is not None]
        self._empty = not active
        self._regex: re.Pattern[str] | None = None
        if active and all(p.include for p in active):
            joined = "|".join("(?:" + p.regex.pattern.replace("(?P<ps_d>", "(?:") + ")"  # type: ignore[union-attr]
                              for p in active)
            self._regex = re.compile(joined)

    def match_file(self, path: str) -> bool:
        if self._empty:
            return False
        if self._regex is not None:
            return self._regex.search(path) is not None
        return bool(self._spec.match_file(path))


def compile_problem(pattern: str) -> str | None:
    """Why pathspec (or the `re` it hands the pattern to) refuses `pattern`, warnings included
    (`re`'s FutureWarning on a nested set), or None."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            PathPatterns([pattern])
    except (ValueError, re.error, Warning) as exc:  # pathspec's GitIgnorePatternError is a ValueError
        return f"is not a gitignore pattern: {exc}"
    return None


def _spec(patterns: Sequence[str]) -> PathPatterns:
    return PathPatterns(patterns)


class Classifier:
    """Compiled from an Allowlist; answers per path and per line."""

    def __init__(self, allowlist: Allowlist, cutover: dt.date | None,
                 implicit_excludes: Sequence[str] = ()) -> None:
        self.allowlist = allowlist
        self.cutover = cutover
        self._exclude = _spec([".git/**", *implicit_excludes, *allowlist.exclude])
        self._implicit = _spec([".git/**", *implicit_excludes])  # renamer's own files
        self._records = [(r, _spec(r.patterns)) for r in allowlist.records]
        self._claims = {r.name: FolderClaims(r.patterns, _spec) for r in allowlist.records if r.inherited}
        self._named_current = [(folder, _spec([p])) for p in allowlist.current
                               if (folder := named_folder(p)) is not None]
        self._quiet = _spec(allowlist.near_miss_paths)
        self._kept_paths = _spec(allowlist.keep_paths)
        self._current = _spec(allowlist.current)
        self._keep = [(k, _spec(k.patterns)) for k in allowlist.keep]
        self._multiline_sections = [re.compile(p.pattern, p.flags | re.MULTILINE)
                                    for p in allowlist.sections]
        paths = allowlist.section_paths
        self._section_paths = _spec(paths) if paths is not None else None

    def is_excluded(self, path: str) -> bool:
        return bool(self._exclude.match_file(path))

    def excluded_by_user(self, path: str) -> bool:
        """Excluded by the allowlist's `exclude:`, not as one of renamer's own files."""
        return self.is_excluded(path) and not self._implicit.match_file(path)

    def is_current_pattern(self, path: str) -> bool:
        return bool(self._current.match_file(path))

    def classify(self, path: str) -> FileClass:
        """DESIGN's rules, first that applies wins."""
        if self.is_excluded(path):
            return FileClass(EXCLUDED)
        undecided: tuple[str, Claim] | None = None
        for record, spec in self._records:
            if spec.match_file(path):
                claim = self.preset_claim(record.name, path)
                if claim.verdict == "record":
                    return FileClass(RECORD, record.name, record.reason)
                if claim.verdict == "undecided" and undecided is None:
                    undecided = (record.name, claim)
        dated = self.file_date(path)
        if dated is not None:
            return FileClass(RECORD, "dated-file",
                             f"file name dated {dated}, on or before the cutover {self.cutover}")
        if undecided is not None:
            name, claim = undecided
            return FileClass(UNCLASSIFIED, None, undecided_note(name, claim))
        if self._current.match_file(path):
            return FileClass(CURRENT)
        return FileClass(UNCLASSIFIED, None,
                         "no allowlist rule covers this file: add it to current or to a record class")

    def preset_claim(self, name: str, path: str) -> Claim:
        """A record class of your own always keeps what it covers; a preset's folder pattern is
        evidence, not proof (preset_folders.py), and a `current` pattern naming that folder
        (`stacks/backup/**`, not `**`) is your decision about it: it beats the preset's guess."""
        claims = self._claims.get(name)
        if claims is None:
            return Claim("record")
        claim = claims.claim(path)
        if claim.verdict != "live" and claim.folder and any(
                (named == claim.folder or named.startswith(claim.folder + "/")) and spec.match_file(path)
                for named, spec in self._named_current):
            return Claim("live", "a current pattern names the folder", claim.folder)
        return claim

    def preset_folder(self, path: str) -> str | None:
        """The folder a preset's record class keeps `path` by, where only its name does (no file-name
        pattern, no dated folder or machine tree, no structure below it), else None."""
        klass = self.classify(path)
        if klass.status != RECORD or klass.reason not in self._claims:
            return None
        claim = self.preset_claim(klass.reason, path)
        return claim.folder if claim.verdict == "record" and claim.folder and not claim.why else None

    def _undecided_folder(self, path: str) -> str | None:
        """The preset's folder that leaves `path` undecided by its name alone, else None."""
        for record, spec in self._records:
            if record.name in self._claims and spec.match_file(path):
                claim = self.preset_claim(record.name, path)
                if claim.verdict == "record":
                    return None
                if claim.verdict == "undecided":
                    return claim.folder or None
        return None

    def by_content(self, path: str, klass: FileClass, data: bytes, executable: bool,
                   named: Callable[[str, str], tuple[str, bool] | None] | None = None) -> FileClass:
        """`klass` corrected by what the file holds, for a file the sweep has read because it holds an
        old value: a preset keeps it by its folder's name alone (`scripts/backup/run.sh`,
        `k8s/archive/cm.yaml`), and its content says it runs (preset_folders.live_by_content): left
        undecided, with why, as a compose file there is by its name. A record class of your own, a
        file-name pattern (`*.bak`), a dated folder or a machine's file tree below the folder decide.
        `named(path, folder)`: where a live file names it by a path through the folder, and whether
        by an include directive (sweep/included.py, break-it round 17 #5): live, or undecided."""
        if klass.status == UNCLASSIFIED and named is not None:
            # undecided by its name in a preset's folder (`archive/dns/main.tf`): an include decides
            folder = self._undecided_folder(path)
            found = named(path, folder) if folder is not None else None
            if found is not None and found[1]:
                return FileClass(CURRENT, None, f"live: {found[0]} includes it by its path")
            return klass
        if klass.status == RECORD and klass.reason == "dated-file" and named is not None:
            # a dated name is evidence, a live include is evidence against it (break-it round 21,
            # #33: `resources: [app-2025-01-15.yaml]`, `haproxy -f .../haproxy-20250301.cfg`)
            found = named(path, path)
            if found is not None and found[1]:
                return FileClass(CURRENT, None, f"live: {found[0]} includes it by its path")
            if found is not None:
                note = (f"its dated name keeps it as history, but {found[0]} names it by its path (a "
                        "live file may read it): decide it, with a record class if it is history, or by "
                        "`current:` if it is live")
                return FileClass(UNCLASSIFIED, None, note)
            return klass
        if klass.status != RECORD or klass.reason not in self._claims:
            return klass
        claim = self.preset_claim(klass.reason, path)
        if claim.verdict != "record" or not claim.folder or claim.why:
            return klass
        # an include first: a compose file a live compose file `extends` is live, not undecided
        # (break-it round 19, #16)
        found = named(path, claim.folder) if named is not None else None
        if found is not None and found[1]:
            return FileClass(CURRENT, None, f"live: {found[0]} includes it by its path")
        why = live_by_content(path.rsplit("/", 1)[-1], data, executable)
        if why is None and found is not None:
            why = f"{found[0]} names it by its path"
        if why is None:
            return klass
        note = undecided_note(klass.reason, Claim("undecided", why, claim.folder))
        return FileClass(UNCLASSIFIED, None, note)

    def file_date(self, path: str) -> dt.date | None:
        if not self.allowlist.dated_filenames or self.cutover is None:
            return None
        name = path.rsplit("/", 1)[-1]
        for match in FILE_DATE.finditer(name):
            day = _date(*match.groups())
            if day is not None and day <= self.cutover:
                return day
        return None

    def path_kept(self, path: str) -> bool:
        """Does `keep_paths` keep this file's path (and its folders' names) as it is?"""
        return self._kept_paths.match_file(path)

    def near_miss_path_ignored(self, path: str) -> bool:
        """Does the allowlist's `near_miss.paths` silence near-misses in `path`?"""
        return self._quiet.match_file(path)

    def keep_rules_for(self, path: str) -> list[KeepRule]:
        return [rule for rule, spec in self._keep if spec.match_file(path)]

    def line_exemptions(self, path: str, lines: Sequence[str],
                        wanted: Collection[int] | None = None) -> dict[int, LineExemption]:
        """Exempt lines of a current-state file, by 0-based index (only `wanted` ones, if given)."""
        indices = range(len(lines)) if wanted is None else sorted(set(wanted))
        sections = self._dated_sections(path, lines) if self.has_dated_sections(path, lines) else []
        # records inside the file by its own structure (notebook outputs, a spec's %changelog, dated
        # rows, saved tool output: record_spans.py), after the dated sections they never overlap
        taken = {index for start, end, _ in sections for index in range(start, end)}
        for span in record_spans.spans(path, lines, self.cutover):
            if taken.isdisjoint(range(span.start, span.end)):
                sections.append((span.start, span.end, LineExemption(span.reason, span.note, span.start)))
        sections.sort(key=lambda section: section[0])
        starts = [start for start, _, _ in sections]
        marker = self.allowlist.inline_marker
        rules = self.keep_rules_for(path)
        keyed = [rule for rule in rules if rule.key is not None]
        at_keys = _key_lines(path, lines, indices, keyed) if keyed else {}
        out: dict[int, LineExemption] = {}
        for index in indices:
            at = bisect.bisect_right(starts, index) - 1
            if at >= 0 and index < sections[at][1]:
                out[index] = sections[at][2]
                continue
            line = lines[index]
            if marker in line:
                out[index] = LineExemption("inline", _marker_note(line, marker))
                continue
            for rule in rules:
                if rule.key is not None:  # a key path's rule: the lines its path stands on
                    if rule.name in at_keys.get(index, ()) and (rule.line_contains is None
                                                                or rule.line_contains in line):
                        out[index] = LineExemption(rule.name, rule.reason)
                        break
                    continue
                if rule.line_contains is None or rule.line_contains in line:
                    out[index] = LineExemption(rule.name, rule.reason)
                    break
        return out

    def has_dated_sections(self, path: str, lines: Sequence[str]) -> bool:
        """Dated sections are a prose convention: a `# 2025-03-01 ...` line in YAML, shell,
        .env, a Makefile or Python is a comment, not a heading (dated.section_paths adds files),
        and so it is in a `.txt` that is configuration by its name (requirements.txt,
        CMakeLists.txt) or by its lines (every one a key=value, a host list, a requirement...),
        unless a comment dated on or before the cutover heads those lines."""
        if self._section_paths is not None and self._section_paths.match_file(path):
            return True  # dated.section_paths extends the list of prose files
        if not is_prose(path):
            return False
        return not reads_as_configuration(path, lines) or self._dated_before_lines(path, lines)

    def _dated_before_lines(self, path: str, lines: Sequence[str]) -> bool:
        """Whether a comment dated on or before the cutover heads a `.txt`'s lines (before the first
        that is no comment): `# 2025-03-03 decommissioned` over `pug.lab.lan`. Such a file is
        configuration by its lines only, never by its name (requirements.txt is no prose at all), and
        an operator reads it as a dated record: a retired-host list, a log (break-it round 9, #12:
        round 8's content rule rewrote them, saying wolf was decommissioned in 2025). Its dated
        section keeps the lines, as in any note; a comment dated after them, or after the cutover,
        is a comment. The date alone is no record: the name or a heading comment must say the lines
        are past (formats/prose.says_past; break-it round 22, #09: a live pdsh group under `# 2025-06-01
        web tier, rebuilt on bookworm` was kept while the same lines in `dsh/group/web` moved)."""
        if self.cutover is None or not self.allowlist.sections:
            return False
        heading = list(itertools.takewhile(
            lambda raw: not raw.strip() or raw.strip().startswith(("#", ";", "//")), lines))
        if not says_past(path, heading):
            return False
        for raw in lines:
            line = raw.strip()
            if not line:
                continue
            if not line.startswith(("#", ";", "//")):
                return False
            day = self._section_date(raw)
            if day is not None and day != dt.date.max:
                return day <= self.cutover
        return False

    def _dated_sections(self, path: str, lines: Sequence[str]) -> list[tuple[int, int, LineExemption]]:
        """(first line, end line, exemption) of each dated section, in order.

        Section starts are found by searching the whole text in C; only where one is found is
        the file's outline read (formats/prose_outline.py): its headings, of every kind the
        format has (setext `===`/`---` too), and its code, where no line is a heading nor starts
        a section (a dated `#` comment in a Markdown fence: break-it round 10, finding 1).
        """
        if not self.allowlist.sections or self.cutover is None:
            return []
        text = "\n".join(lines)
        found = [hit for pattern in self._multiline_sections for hit in pattern.finditer(text)]
        if not found:
            return []
        offsets = list(itertools.accumulate((len(line) + 1 for line in lines), initial=0))
        events: dict[int, tuple[dt.date | None, int | None]] = {}  # line -> (section date, heading)
        for hit in found:
            index = bisect.bisect_right(offsets, hit.start()) - 1
            if index not in events:
                day = self._section_date(lines[index])
                if day is not None:
                    events[index] = (day, None)
        shape = outline(path, lines, frozenset(events)) if is_prose(path) else legacy(lines)
        # a `#` line starts a section only as a heading: in Org it is a comment, in MediaWiki and
        # Textile a numbered-list item, in rst a paragraph (break-it round 11, finding 3)
        events = {index: event for index, event in events.items() if not shape.in_code(index)
                  and (index in shape.headings or not lines[index].lstrip().startswith("#"))}
        for index, level in shape.headings.items():
            day, _ = events.get(index, (None, None))
            events[index] = (day, level)
        out: list[tuple[int, int, LineExemption]] = []
        active: tuple[int, int | None, LineExemption] | None = None  # (start, level, exemption)
        for index in sorted(events):
            day, heading = events[index]
            if active is not None and (day is not None or (
                    heading is not None and (active[1] is None or heading <= active[1]))):
                out.append((active[0], index, active[2]))
                active = None
            if day is not None and day <= self.cutover:
                note = f"section dated {day}, on or before the cutover {self.cutover}"
                active = (index, heading, LineExemption("dated-section", note, index))
        if active is not None:
            out.append((active[0], len(lines), active[2]))
        return out

    def _section_date(self, line: str) -> dt.date | None:
        """The date of a section start (date.max when it holds no valid date), else None."""
        for pattern in self.allowlist.sections:
            match = pattern.search(line)
            if match:
                text = match.group("date") or ""
                digits = re.fullmatch(r"(\d{4})-?(\d{2})-?(\d{2})", text)
                day = _date(*digits.groups()) if digits else None
                return day if day is not None else dt.date.max
        return None


def undecided_note(name: str, claim: Claim) -> str:
    """Why a file a preset's folder pattern covers is left for a person to decide, and how."""
    folder = literal_pattern(claim.folder) + "/**"
    return (f"the preset's record class {name} covers it only by the folder name {claim.folder}/, and "
            f"{claim.why}: a copy or the live configuration? keep it with a record class of your own "
            f"({folder}), or name it or its folder in current ({folder})")


def _date(year: str, month: str, day: str) -> dt.date | None:
    try:
        value = dt.date(int(year), int(month), int(day))
    except ValueError:
        return None
    return value if 1970 <= value.year <= 2200 else None


def _marker_note(line: str, marker: str) -> str:
    after = line.split(marker, 1)[1]
    for closer in ("-->", "*/", "#}", "%}"):
        after = after.replace(closer, "")
    note = after.strip().lstrip(":-—").strip()
    return note or "marked on the line"


_TOKEN = lazy_re.compile(r"[^\s=:{}\[\],\"'()]+")


def _key_lines(path: str, lines: Sequence[str], indices: Iterable[int],
               rules: list[KeepRule]) -> dict[int, set[str]]:
    """Per wanted line (0-based), the key-path keep rules whose path stands there: a word of the
    line located (by the file's format: YAML, JSON, TOML, INI, HCL) at the rule's `key` or below
    it. A format that reads no key paths, or a file it cannot parse, gives none."""
    text = "\n".join(lines)
    fmt = format_of(path, text.encode("utf-8", "surrogateescape"))
    starts = list(itertools.accumulate((len(line) + 1 for line in lines[:-1]), initial=0))
    wanted = [i for i in indices if 0 <= i < len(lines)]
    offsets, owners = [], []
    for index in wanted:
        for word in _TOKEN.finditer(lines[index]):
            offsets.append(starts[index] + word.start())
            owners.append(index)
    located = fmt.locate(text, offsets) if offsets else None
    out: dict[int, set[str]] = {}
    for index, (key, role) in zip(owners, located or (), strict=False):
        if key is None:
            continue
        for rule in rules:
            assert rule.key is not None
            if _below(key, rule.key) or (role == "key" and _below(rule.key, key)):
                out.setdefault(index, set()).add(rule.name)
    return out


def _below(key: str, top: str) -> bool:
    """Is the located path `key` the path `top` or below it: a key under it (`top.x`), a list
    entry or a quoted key (`top[0].name`, `top["a.b"]`; break-it t26-32, finding 04)? Read the
    other way round for a key the line declares (`role` key): a key the rule's path runs through
    (`[pug]` of `pug.host`) is kept with it, so the kept path still stands after the sweep
    (finding 03)."""
    return key == top or key.startswith((top + ".", top + "["))
