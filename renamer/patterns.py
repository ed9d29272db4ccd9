"""Regular expressions in a repo that match an old value.

`192.168.1.6[0-9]`, `192\\.168\\.1\\.\\d+`, `ana-ml\\d` in a relabel rule, an alert
or a scrub script stand for the old value without spelling it, so neither
the exact matcher nor a text substitution can follow them: no rewrite knows
what they should become. Each is reported (reason `pattern`) for a person to
decide.

A candidate is a run of regex-ish characters around a fragment of an old
value that holds unmistakable regex syntax (`\\d`, `\\w`, `[...]`, `{n}`, `.*`,
`.+`, `.?`); it is
compiled and must match the whole old value (a trailing `:port` aside).
Candidates hold no parentheses, so no nested quantifier can make the match
exponential, and they are short. A group of alternatives (`10\\.0\\.40\\.(11|12)`)
is read apart (`_alternations`), compiled under regex_guard like any token.

An old value spelled in full beside such syntax (`(pug|rex)`, `pug-*`, `pug\\d+`,
`Host pug?.lan`) stands for more than itself: `quantified` refuses it.
"""

from __future__ import annotations

import fnmatch
import functools
import re
import warnings
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from renamer import declared_patterns, lazy_re, markdown_emphasis, pattern_dialects, work
from renamer.regex_guard import UnsafeRegex, compile_untrusted

if TYPE_CHECKING:
    from renamer.occurrences import Match

# Unmistakable regex syntax only: a bare `?`, `*` or `+` after a letter is prose ("ana-ml20?")
# or a glob whose reading as a regex differs ("ana-ml20*"), never evidence of a pattern.
# Every branch starts with a literal, so re skips to the next of their first bytes in C (a final
# `[*?]` branch would make it try each branch at every byte of a file: 3x slower).
_ADDRESS = re.compile(r"[0-9.]+|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*")
_META = lazy_re.compile(rb"\\[dDwWsS]|\[[^\]\s]{1,40}\]|\{[0-9]{1,3}(?:,[0-9]{0,3})?\}|\.[*+?]|\*|\?")
_TOKEN = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-\\[]{}+*?^$|,")
_MAX_TOKEN = 128
FEW = 256  # below this many starts (or stems), looking at each costs less than one whole-file regex


@dataclass(frozen=True)
class PatternHit:
    start: int
    end: int
    old: str  # the old value the pattern matches
    note: str | None = None  # what the pattern is, where more is known than "a pattern"


def fragments(olds: list[str]) -> tuple[bytes, ...]:
    """What a pattern for one of `olds` almost surely spells literally: its first three characters,
    or, where a dot comes sooner, what precedes it and the dot escaped (`10\\.`, `10\\\\.` in a JSON
    string, `10[.]`, Lua's `10%.`); and every other three characters of a host name's first label
    holding a letter: a pattern whose wildcard sits in the name's first characters (`?eb01`,
    `n?-cls?`, `*-cls1`, `\\w+-cls1`) spells no head (break-it round 22, finding 01)."""
    out = set()
    for old in olds:
        if len(old) < 3:
            continue
        out.add(old[:3].encode())
        label = old.split(".")[0]
        if not _ADDRESS.fullmatch(old):
            out.update(label[i:i + 3].encode() for i in range(1, len(label) - 2)
                       if any(c.isalpha() for c in label[i:i + 3]))
        dot = old.find(".", 0, 3)
        if dot > 0 and dot + 1 < len(old):
            # With the character after the dot: folded and stripped of escapes, as the first pass
            # reads them (`10.0`), these hold the plain fragment (`10.`), so they pass no file the
            # plain one would not (`10\\` alone folds to `10`, which nearly every file holds).
            after = old[dot + 1]
            # (a JSON string's regex: `\\\\.` escaped twice; Lua's `%.`)
            escapes = ("\\.", "\\\\.", "\\\\\\\\.", "[.]", "%.")
            out.update(f"{old[:dot]}{escape}{after}".encode() for escape in escapes)
    return tuple(sorted(out))


def find_patterns(data: bytes, olds: list[str], starts: tuple[bytes, ...],
                  news: Mapping[str, str] | None = None, *, declared: bool = True) -> list[PatternHit]:
    """Regex-ish runs in `data` that match an old value in full, in file order. `news` (old ->
    new): a run that matches the new value as well needs no decision and is left out: the
    pattern covers the machine before the move and after it (`host: '10.*.*.*'`, ssh's
    `StrictHostKeyChecking no` for the whole 10/8, when 10.80.0.14 moves to 10.81.0.14).

    Only the starts near regex syntax are looked at: a candidate token holds a meta character
    and reaches at most _MAX_TOKEN bytes either side of its start, so a start farther than that
    from every meta match can make no candidate. A file on a 10/8 network holds `10.` on most
    lines and a meta character on few: the work follows the metas, not the starts.

    `declared`: False where the caller knows `data` holds none of declared_patterns.WORDS in any
    case (the native first pass's answer), so declared_patterns.might_hold would say no."""
    if not any(s in data for s in starts):
        # A pattern a format declares caseless (`(?i)WEB01\\.lab`, nginx `~*^WEB01`, HAProxy `-i`) or
        # in a dialect spelling no start (Lua's `10%.0`): asked where a start stands in any case.
        if not (declared and pattern_dialects.might_be_caseless(data) and declared_patterns.might_hold(data)):
            return []
        lowered = data.lower()
        if not any(s.lower() in lowered for s in starts):
            return []
        return _declared(data, olds, news)
    out = _alternations(data, olds, starts, news) if b"|" in data and b"(" in data else []
    if declared and declared_patterns.might_hold(data):
        out = _with_declared(out, _declared(data, olds, news))
    if not any(sign in data for sign in _META_SIGNS):
        return out
    runs = token_runs(data)
    found: set[int] = set()
    probe, reach = _starts_probe(starts)
    for low, high in _near_metas(data, runs):
        # Where any start begins in data[low:high] (each whole in the file): one regex per window,
        # not a find per start (what _positions answers for each, the same offsets).
        found.update(at for hit in probe.finditer(data, low, high + reach) if (at := hit.start()) < high)
    work.add("pattern positions", len(found))
    spans = {_token_around(data, pos, runs) for pos in found}
    tokens = []
    for start, end in sorted(spans):
        token = data[start:end]
        if end - start > _MAX_TOKEN or not _META.search(token):
            continue
        old = _matched(token, olds)
        if old is not None and not _covers_new(token, old, news):
            tokens.append(PatternHit(start, end, old))
    return _with_declared(tokens, out)


@functools.lru_cache(maxsize=64)
def _starts_probe(starts: tuple[bytes, ...]) -> tuple[re.Pattern[bytes], int]:
    """One compiled regex matching (empty, a lookahead) wherever one of `starts` begins, and the
    longest start's length: a window's search reaches that far past its end, so that a start
    beginning inside the window is seen whole, as `bytes.find` sees it."""
    ordered = sorted(set(starts), key=len, reverse=True)
    probe = re.compile(b"(?=" + b"|".join(re.escape(s) for s in ordered) + b")")
    return probe, max(map(len, ordered), default=0)


def _with_declared(hits: list[PatternHit], more: list[PatternHit]) -> list[PatternHit]:
    """Both lists in file order, a hit of `more` that overlaps one of `hits` left out."""
    kept = [m for m in more if not any(h.start < m.end and m.start < h.end for h in hits)]
    return sorted([*hits, *kept], key=lambda hit: hit.start)


def _declared(data: bytes, olds: list[str], news: Mapping[str, str] | None) -> list[PatternHit]:
    """Patterns where the format declares one (declared_patterns.py) that match an old value, and
    not its new value as well."""
    out = []
    for declared in declared_patterns.positions(data):
        if declared.end - declared.start > _MAX_TOKEN:
            continue
        text = data[declared.start:declared.end].decode("ascii", "replace")
        work.add("pattern positions")
        old = _declared_match(text, declared.grammar, declared.anchored, tuple(olds))
        if old is not None and declared.grammar == pattern_dialects.CONTAINS and not _tests_a_name(text, old):
            continue
        if old is not None and declared.grammar == pattern_dialects.REGEX_CONTAINS \
                and re.fullmatch(r"[A-Za-z-]+", text) and not _tests_a_name(text, old):
            continue  # `path.match(/web/)`: a bare stem, searched
        new = news.get(old) if news is not None and old is not None else None
        if old is not None and not (new is not None and _declared_match(text, declared.grammar,
                                                                          declared.anchored, (new,)) == new):
            note = _test_note(text, declared.grammar, old, new)
            out.append(PatternHit(declared.start, declared.end, old, note))
    return out


def _tests_a_name(text: str, old: str) -> bool:
    """Whether a literal substring test (`includes("web")`, `'web0' in h`) may test the name `old`
    (t31 sweep finding 12): the substring as written (a language's substring test is case-sensitive:
    `indexOf("Web")` never finds web01), and more than the name's bare stem where the name has a number
    (`'web' in path` is every web app's vocabulary; `'web0' in h` is the web nodes)."""
    if text not in old:
        return False
    stem = re.match(r"[^0-9]*", old)
    return not (stem is not None and stem.end() < len(old) and not any(c.isdigit() for c in text)
                and text in stem.group())


# what a prefix or substring test is called in a residual's note (prefix_tests.py)
_TEST_WORDS = {pattern_dialects.PREFIX: "a prefix test",
               pattern_dialects.PREFIX_REGEX: "a regex anchored at the start (`re.match`, `match`)",
               pattern_dialects.CONTAINS: "a substring test",
               pattern_dialects.GLOB_PREFIX: "a shell prefix removal (a glob the name starts with)",
               pattern_dialects.REGEX_CONTAINS: "a regular expression search (`=~ /../`, `-match`, `search`)",
               pattern_dialects.MAKE_PATTERN: "a Make `%` pattern"}


def _test_note(text: str, grammar: str, old: str, new: str | None) -> str | None:
    """The note of a prefix or substring test's residual: what it is and why it no longer selects."""
    word = _TEST_WORDS.get(grammar)
    if word is None:
        return None
    after = f" and not {new}: after the rename it no longer selects the moved machine" if new else ""
    return f"`{text}` is {word} that selects {old}{after}"


@functools.lru_cache(maxsize=4096)
def _declared_match(text: str, grammar: str, anchored: bool, olds: tuple[str, ...]) -> str | None:
    """The old value the declared pattern `text` matches (its FQDN in the pattern's domain too):
    in full where the consumer is anchored, else a search whose match starts and ends at a label's
    edge (nginx's `~web0[12]` matches web01.lab)."""
    source = declared_patterns.as_regex(text, grammar)
    if source is None:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", FutureWarning)
            regex = compile_untrusted(source, re.IGNORECASE, lines=False)
    except (re.error, OverflowError, RecursionError, UnsafeRegex, FutureWarning):
        return None
    tail = domain_tail(re.sub(r"(?:\$|\\b|\\Z)+\Z", "", source), regex=True)
    for old in olds:
        if text == old:
            continue  # spelled: the exact matcher's
        subjects = [old]
        if "." not in old:  # a short name: its FQDN in the pattern's domain, or in any (`^web01\.`)
            subjects += [old + tail] if tail else []
            subjects += [] if anchored else [old + "."]
        for subject in subjects:
            if regex.fullmatch(subject):
                return old
            found = None if anchored else regex.search(subject)
            if found is not None and found.end() > found.start() and found.group() != "." \
                    and (found.start() == 0 or subject[found.start() - 1] == ".") \
                    and (found.end() == len(subject) or subject[found.end()] == ".") \
                    and found.end() - found.start() >= len(old.split(".")[0]):
                return old
    return None


def _covers_new(token: bytes, old: str, news: Mapping[str, str] | None) -> bool:
    """Does the pattern `token`, which matches `old` in full, match its new value in full too?"""
    new = news.get(old) if news is not None else None
    return new is not None and _matched(token, [new]) == new


# A regex group of alternatives (`(11|12)`, `(?:pug|rex)`, `(?<h>pug|rex)`): no token above holds
# one (they hold no parentheses). It starts with a literal `(`, which re finds in C; each found
# is read in the run of non-blank bytes around it, and only where that run holds an old value's
# fragment is it compiled (under regex_guard, as any token is).
_GROUP = lazy_re.compile(rb"\((?:\?(?:P?<[A-Za-z_][A-Za-z0-9_]*>|:))?[^()\s|]{1,60}(?:\|[^()\s|]{0,60})+\)")
_STOP_RUNS = bytes(ord(" ") if chr(i) in " \t\r\n\"'`,;=<>" else i for i in range(256))
# A trailing port: `:9100`, `:\d+`, `:[0-9]+`, or alternatives (`:(22|8006)`, Prometheus' probe targets).
_PORT = lazy_re.compile(rb"(?::[0-9]{1,5}|:\\d\+|:\[0-9\]\+|:\((?:\?:)?(?:[0-9]{1,5}\|)+[0-9]{1,5}\))?[$]?\Z")


def _alternations(data: bytes, olds: list[str], starts: tuple[bytes, ...],
                  news: Mapping[str, str] | None = None) -> list[PatternHit]:
    """Runs holding a group of alternatives that match an old value in full (`10\\.0\\.40\\.(11|12)`,
    `10.0.40.(11|12):9100`): an address's last octet spelled as an alternation spells no form."""
    out = []
    seen: set[tuple[int, int]] = set()
    for group in _GROUP.finditer(data):
        base = max(0, group.start() - _MAX_TOKEN)
        window = data[base:group.end() + _MAX_TOKEN]
        if not any(fragment in window for fragment in starts):
            continue  # most groups in code: no old value's fragment near
        runs = window.translate(_STOP_RUNS)  # the same offsets; each stop byte a space
        low = base + runs.rfind(b" ", 0, group.start() - base) + 1
        found = runs.find(b" ", group.end() - base)
        high = base + (len(runs) if found == -1 else found)
        if data[high - 1:high] == b"\\" and data[high:high + 1] in (b'"', b"'"):
            high -= 1  # the backslash of an escaped quote that ends a string is the string's
        if (low, high) in seen:
            continue
        seen.add((low, high))
        run = data[low:high]
        if not any(fragment in run for fragment in starts):
            continue
        port = _PORT.search(run)  # a trailing `:9100` (or `$`) is no part of the value
        token = run[:port.start()] if port else run
        work.add("pattern positions")
        old = _matched(token, olds)
        if old is not None and not _covers_new(token, old, news):
            out.append(PatternHit(low, high, old))
    return out


# Every _META match holds one of these bytes: a file without any holds no pattern.
_META_SIGNS = (b"\\", b"[", b"{", b"*", b"?", b"+")
# How far a candidate token can reach from a meta match: _MAX_TOKEN, and a margin.
_REACH = _MAX_TOKEN + 64
# Token characters to `t`, every other byte to a space: where a run of token characters ends is
# then one bytes.find or rfind of a space, in C, instead of a Python loop over the bytes.
_RUNS = bytes(ord("t") if i in _TOKEN else ord(" ") for i in range(256))


def token_runs(data: bytes) -> bytes:
    """`data` with each token character as `t` and each other byte as a space (same offsets)."""
    return data.translate(_RUNS)


def _near_metas(data: bytes, runs: bytes | None = None) -> Iterator[tuple[int, int]]:
    """Merged windows of `data`: each meta match widened over the token characters on both sides.

    A candidate token is a run of token characters around its start that holds a meta match;
    that match either is one finditer reports or starts inside one, so the token's start lies in
    the reported match's window (the run reaches it without a break, within _REACH). A `[gpu]`
    section header or a Markdown `*` widens to a word or two, not to the lines around it.
    `runs`: token_runs(data), where the caller has it."""
    runs = token_runs(data) if runs is None else runs
    low = high = -1
    for meta in _META.finditer(data):
        start, end = _left_edge(runs, meta.start(), _REACH), _right_edge(runs, meta.end(), _REACH)
        if start > high:
            if high >= 0:
                yield low, high
            low = start
        high = max(high, end)
    if high >= 0:
        yield low, high


def _left_edge(runs: bytes, pos: int, reach: int) -> int:
    """Where the run of token characters ending at `pos` starts, looking back at most `reach`."""
    limit = max(0, pos - reach)
    return max(limit, runs.rfind(b" ", limit, pos) + 1)


def _right_edge(runs: bytes, pos: int, reach: int) -> int:
    """Where the run of token characters from `pos` ends, looking on at most `reach`."""
    limit = min(len(runs), pos + reach)
    found = runs.find(b" ", pos, limit)
    return limit if found == -1 else found


def _positions(data: bytes, fragment: bytes, low: int = 0, high: int = -1) -> Iterator[int]:
    """Where `fragment` starts in data[low:high] (high -1: to the end)."""
    high = len(data) if high < 0 else high
    pos = data.find(fragment, low, high + len(fragment))
    while pos != -1 and pos < high:
        yield pos
        pos = data.find(fragment, pos + 1, high + len(fragment))


def _token_around(data: bytes, pos: int, runs: bytes | None = None) -> tuple[int, int]:
    """The run of token characters around `pos`, at most _MAX_TOKEN either side, trimmed.
    `runs`: token_runs(data); without it only the bytes within reach are translated."""
    if runs is None:
        low = max(0, pos - _MAX_TOKEN)
        near, at = data[low:pos + _MAX_TOKEN].translate(_RUNS), pos - low
        start, end = low + _left_edge(near, at, _MAX_TOKEN), low + _right_edge(near, at, _MAX_TOKEN)
    else:
        start, end = _left_edge(runs, pos, _MAX_TOKEN), _right_edge(runs, pos, _MAX_TOKEN)
    # The backslash of an escaped quote that ends a string (JSON's `"...[0-9]\""`) is the string's.
    if end > start and data[end - 1:end] == b"\\" and data[end:end + 1] in (b'"', b"'"):
        end -= 1
    # Separators and list punctuation around a value are no part of its pattern.
    while start < end and data[start] in b".,-|":
        start += 1
    while end > start and data[end - 1] in b".,-|":
        end -= 1
    return start, end


def _matched(token: bytes, olds: Sequence[str]) -> str | None:
    """The old value the token (a regex or a glob) matches in full, if any."""
    return _matched_in(token, tuple(olds))


# A repo repeats its patterns (the same relabel regex in every dashboard, a glob per playbook):
# compiling each one through regex_guard costs ~2 ms, so each distinct token is decided once per
# process. The answer is a pure function of the token and the old values.
@functools.lru_cache(maxsize=4096)
def _matched_in(token: bytes, olds: tuple[str, ...]) -> str | None:
    text = token.decode("ascii", "replace")
    emphasis = _EMPHASIS.fullmatch(text)  # Markdown's **10.0.0.1** is bold, not the glob 10.0.0.1*
    if emphasis:
        text = emphasis.group(2)
    # `**Ansible control node**`: a bold run closing (or opening) at a word is Markdown, not the glob
    # `node**`; a glob writes `**` only as a path's whole part (`roles/**`) (break-it round 21, #16)
    text = _BOLD_EDGE.sub("", text)
    # (`~`: Ansible's regex host pattern and nginx's regex mark, `~(web|db)\\d{2}\\.lab`)
    # (Ruby's and PCRE's `\A`, `\z`, `\Z` anchor as `^` and `$` do: round 23 finding 02)
    text = re.sub(r"^~?(?:\^|\\b|\\A)+|^~|(?:\$|\\b|\\[zZ])+$", "", text)
    candidates = [text]
    if "\\\\" in text:  # inside a JSON or C string: "192\\.168" is the regex 192\.168
        candidates.append(text.replace("\\\\", "\\"))
    if "\\\\\\\\" in text:  # a regex in a string in JSON (PromQL in a dashboard): escaped twice
        candidates.append(text.replace("\\\\\\\\", "\\"))
    extglob = extglob_regex(text)  # bash's `web0@(1|2)`: a glob, read as the regex it stands for
    if extglob is not None:
        candidates.insert(0, extglob)
    globbed = "*" in text or "?" in text
    for candidate in candidates:
        as_regex = not globbed or _REGEX_ONLY.search(candidate) is not None or candidate is extglob
        # What the token spells literally before its first wildcard must begin the old value: on a
        # 10/8 network most tokens (`^10\.24\.139\.[0-9]+$`) are then decided without compiling.
        regex_head, glob_head = _regex_head(candidate) if as_regex else "", _glob_head(candidate)
        possible = [old for old in olds if (as_regex and _begins(old, regex_head))
                    or (globbed and old.startswith(glob_head))]
        if not possible:
            continue
        regex = None
        if as_regex:
            try:  # a token from a file: never run where it could backtrack for ever (B-9)
                with warnings.catch_warnings():
                    # `[[hosts.web01]]` (a TOML header) is a "possible nested set" to `re`, which
                    # warns: a token whose reading Python means to change is no pattern here.
                    warnings.simplefilter("error", FutureWarning)
                    regex = compile_untrusted(candidate, lines=False)  # run on old values only
            except (re.error, OverflowError, RecursionError, UnsafeRegex, FutureWarning):
                regex = None
        # A short name's pattern that goes on with a literal domain (`web0[12]\.lab`): it matches the
        # name's FQDN in that domain (break-it round 21, finding 12).
        tail = domain_tail(candidate, regex=as_regex)
        for old in possible:
            if candidate == old:
                continue
            subjects = (old, old + tail) if tail and "." not in old else (old,)
            if regex is not None and any(regex.fullmatch(subject) for subject in subjects):
                return old
            if globbed and not as_regex and any(fnmatch.fnmatchcase(subject, candidate)
                                                for subject in subjects):
                return old
            if globbed and fnmatch.fnmatchcase(old, candidate):
                return old
    return None


_EXTGLOB = lazy_re.compile(r"[@!?*+]\(")
_NAME_TAIL = lazy_re.compile(r"(?:\\\.|\[\.\]|\.)[A-Za-z0-9][A-Za-z0-9-]*"  # a label starts with no `-`
                        r"(?:(?:\\\.|\[\.\]|\.)[A-Za-z0-9-]+)*\.?\Z")


def domain_tail(pattern: str, *, regex: bool) -> str:
    """The literal domain a pattern ends with (`.lab` of `^web0[12]\\.lab$`, `web0?.lab.example`):
    its last characters that are plain, from a dot that begins a label; empty where there is none.
    A regex's unescaped `.` counts (it matches a dot too)."""
    found = _NAME_TAIL.search(pattern)
    if found is None or found.start() == 0:
        return ""
    text = found.group()
    if not regex and ("\\" in text or "[" in text):
        return ""
    tail = text.replace("\\.", ".").replace("[.]", ".")
    return tail.rstrip(".") if tail.count(".") > 0 else ""


def extglob_regex(pattern: str) -> str | None:
    """bash's extended glob (`web0@(1|2)`, `+(a|b)`, `?(x)`, `*(x)`; `!(x)` matches anything but
    x) as a regular expression, or None where the pattern holds none of its groups."""
    if _EXTGLOB.search(pattern) is None:
        return None
    out: list[str] = []
    closers: list[str] = []
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char in "@!?*+" and pattern[i + 1:i + 2] == "(":
            out.append("(?:(?!(?:" if char == "!" else "(?:")  # `!(x)`: `(?:(?!(?:x)$).*)`, not x
            closers.append({"@": ")", "?": ")?", "*": ")*", "+": ")+", "!": ")$).*)"}[char])
            i += 2
            continue
        if char == ")" and closers:
            out.append(closers.pop())
        elif char == "|" and closers:
            out.append("|")
        elif char == "*":
            out.append(".*")
        elif char == "?":
            out.append(".")
        elif char == "[":
            end = pattern.find("]", i + 1)
            if end == -1:
                return None
            out.append("[" + pattern[i + 1:end].replace("!", "^", 1) + "]")
            i = end + 1
            continue
        else:
            out.append(re.escape(char))
        i += 1
    return "".join(out) if not closers else None


_ANY = "\0"  # in a regex head: the place of an unescaped `.`, any character (no old value holds NUL)


def _begins(old: str, head: str) -> bool:
    return len(old) >= len(head) and all(h in (_ANY, c) for h, c in zip(head, old, strict=False))


def _regex_head(pattern: str) -> str:
    """What every full match of the regex `pattern` starts with: its leading literals (an escaped
    punctuation mark is one; an unescaped `.` is _ANY), short of the first other special
    character, less the last one where a quantifier follows it. Empty where an alternation or a
    group could change that."""
    if "|" in pattern or "(" in pattern:
        return ""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            escaped = pattern[i + 1:i + 2]
            if not escaped or escaped.isalnum() or not escaped.isascii():
                break  # \d, \b, \1, \x41: a class, an anchor or a code, no literal
            out.append(escaped)
            i += 2
        elif char.isascii() and (char.isalnum() or char in "-_,:/=@%#~!&;'\"<> "):
            out.append(char)
            i += 1
        elif char == ".":
            out.append(_ANY)
            i += 1
        else:
            break
        if pattern[i:i + 1] in ("*", "+", "?", "{"):  # the literal just read may be absent or repeated
            out.pop()
            break
    return "".join(out)


def _glob_head(pattern: str) -> str:
    """The text every name the glob `pattern` matches starts with (fnmatch: a backslash is literal)."""
    cut = min((i for i in (pattern.find(c) for c in "*?[") if i >= 0), default=len(pattern))
    return pattern[:cut]


_EMPHASIS = lazy_re.compile(r"(\*{1,3}|_{1,3})(.+?)\1")
_BOLD_EDGE = lazy_re.compile(r"(?<=[^*/\s])\*{2,3}\Z|\A\*{2,3}(?=[^*/\s])")
_REGEX_ONLY = lazy_re.compile(r"\\[dDwWsS.]|\.[*+?]|\{[0-9]")  # marks that only a regex would hold


# A quantifier right after a value makes it a pattern: `pihole0{1,2}` means pihole0 or pihole00,
# and rewritten it would mean something else again (`dns-a{1,2}`: dns-a or dns-aa).
_BOUNDED = lazy_re.compile(rb"\{[0-9]{1,3}(?:,[0-9]{0,3})?\}")
# `?`, `*` or `+` after a value is prose or a glob ("is it on ana-ml2?") unless the run around it
# holds unmistakable regex syntax as well (`web01+[.]lab`, `^web01?\.`).
_BARE = frozenset(b"?*+")
_REGEX_NEARBY = lazy_re.compile(rb"\\[dDwWsS.]|\[[^\]\s]{1,40}\]|\.[*+?]|\^|\$")


# Regex or glob syntax right after a value that makes it stand for more names than itself, or
# for names it only begins (break-it round 8, #6): a derived-name glob or class (`pug-*`, `pug-?`,
# `pug-[0-9]*`, `pug.*`, `pug_?`), a class or escape class (`pug[0-9]`, `pug[a-c]+`, `pug\d+`,
# `"pug\\d"` in a JSON string; `\d` before a letter is a Windows path's folder: `pug\data`), an
# optional or alternated group (`pug(-bmc)?`, `pug(01|02)`). A one-item index (`pug[0]`,
# Terraform's `pug[*]`, `pug[count.index]`) is no class.
_EXTENDS = lazy_re.compile(rb"[-_.](?:[*?]|\+(?![A-Za-z0-9]))"
                      rb"|[-_.]?(?:\[\^?[^\]\s-]*-[^\]\s]*\]|\[[^\]\s]+\][*+?{]"
                      rb"|\\{1,2}[dDwWsS](?![A-Za-z])"
                      rb"|\([^()\s]{0,60}\)[*+?]|\([^()\s]{0,60}\|[^()\s]{0,60}\))")
# ... and before it: a regex wildcard with its quantifier (`.*pug`, `\w+pug`, `[a-z]*pug`).
_LEADS = lazy_re.compile(rb"(?:\.[*+?]|\\[dDwWsS][*+?]|\][*+?])\Z")
_NAME_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")
_SPACES = frozenset(b" \t\r\n\"'`")


def quantified(data: bytes, matches: list[Match]) -> list[Match]:
    """Matches beside regex or glob syntax (a quantifier, a wildcard, a class, an alternation:
    `_beside_syntax`), refused as `pattern` (a person decides). Each look is a few bytes on
    either side of a match: the work follows the matches."""
    if not any(sign in data for sign in _SYNTAX_SIGNS):
        return matches  # no wildcard, class, group or alternation anywhere: no look at each match
    out = []
    for m in matches:
        if m.refused is None and m.kept is None and m.kind in ("host", "address") \
                and _beside_syntax(data, m.start, m.end):
            m = replace(m, refused="pattern")
        out.append(m)
    return out


# Every syntax _beside_syntax reads holds one of these.
_SYNTAX_SIGNS = (b"{", b"?", b"*", b"+", b"[", b"\\", b"(", b"|")


def _beside_syntax(data: bytes, start: int, end: int) -> bool:
    following = data[end:end + 1]
    if following and following in b"{?*+" and _quantifies(data, start, end):
        return True
    if following == b"?" and data[end + 1:end + 2] and data[end + 1] in _NAME_BYTES \
            and data[max(0, start - 3):start] != b"://":
        return True  # ssh's `Host pug?.ana.lan`, `pug?x`: a glob's one character, no prose
    if _EXTENDS.match(data, end):
        return True
    if _LEADS.search(data, max(0, start - 3), start):
        return True
    return _alternated(data, start, end)


def _alternated(data: bytes, start: int, end: int) -> bool:
    """Is the value a branch of a regex alternation (`(pug|rex)`, `(?<h>pug|rex)`, `^pug|rex$`)?
    A `|` on one side with a name or group on its other side; a Markdown table's row (its
    run starts and ends with `|`) and a spaced shell pipe are not."""
    right = data[end:end + 1] == b"|" and data[end + 1:end + 2] not in (b"", b"|") \
        and data[end + 1] not in _SPACES
    left = data[start - 1:start] == b"|" and start >= 2 and data[start - 2] not in _SPACES \
        and data[start - 2:start - 1] != b"|"
    if not right and not left:
        return False
    low = start
    while low > 0 and start - low < _MAX_TOKEN and data[low - 1] not in _SPACES:
        low -= 1
    high = end
    while high < len(data) and high - end < _MAX_TOKEN and data[high] not in _SPACES:
        high += 1
    if data[low:low + 1] == b"|" and data[high - 1:high] == b"|":
        return False
    # An alternation of whole plain names (PromQL's `instance=~"n1-cls1.lab|n2-cls1.lab"`): each
    # branch is one name spelled in full, rewritten as itself whatever its position (break-it round
    # 22, finding 26); a group, an anchor or a class beside a branch still makes it a pattern.
    run = data[low:high]
    for opener, closer in ((b"=~", b""), (b"{", b"}")):  # `x=~a|b` unquoted, `{a|b}` unspaced
        run = run[run.find(opener) + len(opener):] if opener in run else run
        run = run[:run.rfind(closer)] if closer and closer in run else run
    return not pattern_dialects.plain_names(run.decode("ascii", "replace"))


def _quantifies(data: bytes, start: int, end: int) -> bool:
    if _BOUNDED.match(data, end):
        return True
    if data[end:end + 1] == b"*":  # a glob (`ls web01*`), unless it closes Markdown's *web01* or **web01**
        stars = len(data[end:end + 3]) - len(data[end:end + 3].lstrip(b"*"))
        if markdown_emphasis.closes(data, start, end, stars):
            return False  # `**primary on hermes**`: emphasis opened words before (outside round 25, #10)
        opened = data[max(0, start - stars):start]
        return not (opened == b"*" * stars and data[start - stars - 1:start - stars] != b"*")
    first, last = _token_around(data, start)
    return _REGEX_NEARBY.search(data[first:max(last, end + 1)]) is not None
