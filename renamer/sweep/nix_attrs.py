"""A Nix attribute named by a host takes one fate in every spelling (break-it round 15, #2 and #6).

`custom.yggdrasil.peers.pug.allowedTCPPorts = [ 8080 ];` in one file and `pug.ip = "...";` inside
`custom.yggdrasil.peers = { ... };` in another define one attribute, `custom.yggdrasil.peers.pug`
(the module system merges them); `peers."pug".ip` and `config.custom.yggdrasil.peers.pug.ip` read
it. The plain rules rewrite a word that starts a path or stands quoted, never one after a `.`:
alone, they split the set (peer `wolf` with the ip, peer `pug` with only ports). Here every
spelling of one attribute path through an old word in the repo's live `.nix` files
(renamer/nix_attrs.py reads them) is one group:

* some spelling moves (the plain rules rewrite it, in a current file, on no exempt line) and none
  stays: the group follows, each segment after a `.` rewritten too;
* some spelling moves and another stays (a kept line, an excluded file; a record is history):
  every live spelling is a `key-reference` residual naming the kept one, nothing rewritten;
* no spelling moves, while the word's key is renamed elsewhere in the Nix files and the path is
  defined nowhere (read through an alias, `cfg.peers.pug`): a `key-reference` residual, which
  attribute it reads cannot be told; the new word standing at that same path (an earlier sweep
  split the set) is the same residual;
* a key renamed in a file that composes names with a dash (`"${name}-${toString x}"`) while a
  literal derived name (`interfaces.pug-0`) stands in an attribute path: every spelling of the key
  is a `composed-name` residual naming the literal (a hash of the name may make an address:
  never renamed silently).
"""

from __future__ import annotations

import bisect
import re
from collections import defaultdict
from dataclasses import dataclass, replace

from renamer import lazy_re, nix_attrs, vcs_status
from renamer.classify import CURRENT, RECORD
from renamer.occurrences import Match
from renamer.project import LoadedProject

# Paths that name packages and library functions, never a host's attribute.
_PACKAGES = lazy_re.compile(r"^(?:pkgs|lib|builtins|\w*[Pp]ackages\w*)$")


@dataclass(frozen=True)
class _Spelling:
    rel: str
    line: int  # 1-based
    start: int
    end: int
    word: str
    path: tuple[str, ...]
    binding: bool
    fate: str  # moves | stays | middle (live, not rewritten by the plain rules) | new


@dataclass(frozen=True)
class _Decision:
    follow: bool
    reason: str = ""
    note: str = ""


class NixIndex:
    """The repo's Nix attribute paths through an old (or new) host word, read once per scanner."""

    def __init__(self, project: LoadedProject) -> None:
        self.project = project
        self.renames = dict(project.matcher.hosts)
        self.news = {new: old for old, new in self.renames.items() if new not in self.renames}
        self._decided: dict[str, dict[tuple[int, int], tuple[str, _Decision]]] | None = None

    def _files(self) -> list[str]:
        names = sorted(set(self.renames) | set(self.news))
        if not names:
            return []
        pattern = "|".join(re.escape(n) for n in names)
        listed = vcs_status.worktree_files_holding(self.project.root, pattern)
        if listed is None:
            listed = frozenset(p.relative_to(self.project.root).as_posix()
                               for p in self.project.root.rglob("*.nix") if ".git" not in p.parts)
        return sorted(rel for rel in listed if rel.endswith(".nix"))

    def _read(self) -> tuple[list[_Spelling], list[_Spelling], set[str]]:
        words = [w for w in self.renames if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_'\-]*", w)]
        words += [w for w in self.news if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_'\-]*", w)]
        spellings: list[_Spelling] = []
        derived: list[_Spelling] = []
        composing: set[str] = set()  # files composing names with a dash
        for rel in self._files():
            path = self.project.root / rel
            if path.is_symlink():
                continue
            try:
                data = path.read_bytes()
            except OSError:
                continue
            if len(data) > self.project.config.max_file_size or b"\0" in data:
                continue
            found = nix_attrs.occurrences(data, words)
            if not found:
                continue
            klass = self.project.classifier.classify(rel)
            if klass.status == RECORD:  # history: its spelling holds nothing back
                continue
            live = klass.status == CURRENT
            if nix_attrs.COMPOSES.search(data):
                composing.add(rel)
            lines = data.split(b"\n")
            starts = [0]
            for text in lines[:-1]:
                starts.append(starts[-1] + len(text) + 1)
            numbers = [_line_of(starts, o.start) for o in found]
            texts = [t.decode("utf-8", "replace") for t in lines]
            exempt = (self.project.classifier.line_exemptions(rel, texts, [k - 1 for k in numbers])
                      if live else {})
            plain = {(m.start, m.end) for m in self.project.matcher.find(data)
                     if m.kind == "host" and m.refused is None and m.kept is None}
            for o, number in zip(found, numbers, strict=True):
                word = data[o.start:o.end].decode()
                if o.derived:
                    if live:
                        derived.append(_Spelling(rel, number, o.start, o.end, word, o.path, o.binding,
                                                 "stays"))
                    continue
                if word in self.news:
                    fate = "new"
                elif not live or number - 1 in exempt:
                    fate = "stays"
                elif any(s <= o.start and o.end <= e for s, e in plain):
                    fate = "moves"
                else:
                    fate = "middle"
                spellings.append(_Spelling(rel, number, o.start, o.end, word, o.path, o.binding, fate))
        return spellings, derived, composing

    def _outside(self, word: str) -> tuple[str, int, str] | None:
        """The first live file outside the Nix files holding a name derived from `word` (`pug-0`,
        `pug_0` as a whole token): its path, line and the name (break-it round 16, finding 11)."""
        token = re.compile(r"(?<![A-Za-z0-9_.-])" + re.escape(word)
                           + r"[-_][A-Za-z0-9][A-Za-z0-9_-]*(?![A-Za-z0-9_.-])")
        pattern = r"(^|[^A-Za-z0-9_.-])" + re.escape(word) + r"[-_][A-Za-z0-9]"
        listed = vcs_status.worktree_files_holding(self.project.root, pattern)
        for rel in sorted(listed or ()):
            if rel.endswith(".nix") or self.project.classifier.classify(rel).status != CURRENT:
                continue
            try:
                text = (self.project.root / rel).read_text("utf-8", "replace")
            except OSError:
                continue
            for number, line in enumerate(text.splitlines(), 1):
                found = token.search(line)
                if found is not None:
                    return rel, number, found.group()
        return None

    def decided(self) -> dict[str, dict[tuple[int, int], tuple[str, _Decision]]]:
        if self._decided is None:
            self._decided = self._decide()
        return self._decided

    def _decide(self) -> dict[str, dict[tuple[int, int], tuple[str, _Decision]]]:
        spellings, derived, composing = self._read()
        out: dict[str, dict[tuple[int, int], tuple[str, _Decision]]] = defaultdict(dict)
        if not spellings:
            return out
        groups: dict[tuple[str, ...], list[_Spelling]] = defaultdict(list)
        news: dict[tuple[str, ...], list[_Spelling]] = defaultdict(list)
        for s in spellings:
            if s.fate == "new":
                news[s.path].append(s)
            else:
                groups[s.path].append(s)
        # the word's keys renamed in this sweep, or by an earlier one (the new word as a key)
        moving_keys = {s.word: s for s in spellings if s.fate == "moves" and s.binding}
        for s in spellings:
            if s.fate == "new" and s.binding:
                moving_keys.setdefault(self.news[s.word], s)
        held_words: dict[str, str] = {}  # a word whose reader cannot follow -> why its keys stay
        decisions: dict[tuple[str, ...], _Decision] = {}
        for path, group in groups.items():
            word = path[-1]
            moves = [s for s in group if s.fate == "moves"]
            stays = [s for s in group if s.fate == "stays"]
            middle = [s for s in group if s.fate == "middle"]
            shown = nix_attrs.dotted(path)
            literals = [d for d in derived if d.word == word] if any(
                s.binding and s.rel in composing for s in moves) else []
            split = news.get((*path[:-1], self.renames.get(word, word)), [])
            decision: _Decision | None = None
            if literals and moves:
                d = literals[0]
                decision = _Decision(False, "composed-name", (
                    f"the key {shown} makes names with a dash or an underscore, and the literal "
                    f"{nix_attrs.dotted(d.path)} at {d.rel}:{d.line} names one of them: renaming the key "
                    f"leaves the literal reading nothing (and a name's hash may make an address); rename "
                    f"both by hand, or keep the key"))
            elif moves and any(s.binding and s.rel in composing for s in moves) and \
                    (outside := self._outside(word)) is not None:
                decision = _Decision(False, "composed-name", (
                    f"the key {shown} makes names with a dash or an underscore, and the literal "
                    f"`{outside[2]}` at {outside[0]}:{outside[1]} names one of them outside the Nix files: "
                    f"renaming the key leaves it naming nothing (an interface, a unit); rename both by hand, "
                    f"or keep the key"))
            elif moves and stays:
                k = stays[0]
                decision = _Decision(False, "key-reference", (
                    f"the Nix attribute {shown} is renamed here and kept at {k.rel}:{k.line}: one "
                    f"attribute set would split; rename or keep it in every spelling"))
            elif moves:
                decision = _Decision(True)
            elif middle and split:
                k = split[0]
                decision = _Decision(False, "key-reference", (
                    f"the Nix attribute {shown} stands here while {nix_attrs.dotted(k.path)} stands at "
                    f"{k.rel}:{k.line}: the attribute set is split; rename it in every spelling"))
            elif middle and word in moving_keys and not _PACKAGES.match(path[0]) \
                    and not any(s.binding for s in group if s.fate != "middle"):
                k = moving_keys[word]
                decision = _Decision(False, "key-reference", (
                    f"reads the Nix attribute {shown}, which no spelling of the repo defines by that path, "
                    f"while the key {nix_attrs.dotted(k.path)} at {k.rel}:{k.line} is renamed: which "
                    f"attribute it reads cannot be told; rename it with its key by hand, or keep the key"))
            if decision is None:
                continue
            decisions[path] = decision
            if not decision.follow and decision.note.startswith("reads the Nix attribute"):
                first = next(s for s in group if s.fate == "middle")
                held_words.setdefault(word, f"{first.rel}:{first.line}")
        for path, where in ((p, held_words[p[-1]]) for p, d in list(decisions.items())
                            if d.follow and p[-1] in held_words):
            decisions[path] = _Decision(False, "key-reference", (
                f"held back with {where}, which reads an attribute named {path[-1]} that cannot be told: "
                f"renamed, {nix_attrs.dotted(path)} would leave that reader behind; fix the reader first"))
        for path, decision in decisions.items():
            for s in groups[path]:
                if s.fate == "stays":
                    continue
                before = out[s.rel].get((s.start, s.end))
                if before is None or (before[1].follow and not decision.follow):
                    out[s.rel][(s.start, s.end)] = (s.word, decision)
        return out

    def matches(self, data: bytes, rel: str, matches: list[Match]) -> list[Match]:
        """The file's matches with its attribute spellings decided by their group's fate."""
        if not rel.endswith(".nix"):
            return matches
        mine = self.decided().get(rel)
        if not mine:
            return matches
        out = list(matches)
        added = []
        for (start, end), (word, decision) in sorted(mine.items()):
            if data[start:end].decode("utf-8", "replace") != word:
                continue  # the file changed since it was read
            at = next((i for i, m in enumerate(matches) if m.start <= start and end <= m.end), None)
            if at is not None:
                m = out[at]
                if not decision.follow and m.refused is None and m.kept is None:
                    out[at] = replace(m, refused=decision.reason, note=decision.note)
                continue
            new = self.renames.get(word)
            if new is None:  # the new word at a split: shown, never rewritten
                added.append(Match(start, end, word, word, "host", refused=decision.reason or "key-reference",
                                   note=decision.note))
            elif decision.follow:
                added.append(Match(start, end, word, new, "host"))
            else:
                added.append(Match(start, end, word, new, "host", refused=decision.reason,
                                   note=decision.note))
        return sorted(out + added, key=lambda m: m.start) if added else out


def _line_of(starts: list[int], offset: int) -> int:
    return bisect.bisect_right(starts, offset)
