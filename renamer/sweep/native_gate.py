"""The first pass's tests through hyperscan: one scan of a file answers which tests can hold.

The pure-Python first pass (sweep/parallel.py) asks each file a dozen questions, each a pass
over its bytes: a folded copy and the gates, the needles, the context probes (ranges, `$ORIGIN`,
mapped IPv6, the pattern probe), a name split by a line-ending backslash, the loose needles,
another case, the new values, the Markdown slugs. Here every test after the gates is compiled
into one hyperscan database (block mode, one scan per file, each question reported at most
once), and Python is asked only what the scan could not rule out. The gates need no pattern of
their own: they only spare the tests behind them (tests/sweep/test_parallel.py proves they reject
nothing those tests keep), and a file where no native question holds passes none of those tests.

The Python tests stay the reference, and still decide: each question's native pattern is a
*necessary* condition (the same literal where the Python test is an `in` test, whose answer is
then taken as it is; a looser one where Python runs a regex or a decoder, which then runs as
before, on the files that passed). So this pass can only let through more files than Python's,
never fewer (tests/sweep/test_native_gate.py holds each primitive to that, and the corpus
differential the whole output).

Where it runs (choose_native): `hyperscan` imported (wheels exist for Linux x86_64 only; any
other platform, or a failed import or compile, is the pure-Python pass, never an error), and
`RENAMER_NATIVE` not `0`; unset, only for a repo of NATIVE_FROM files or more, since compiling
the database costs more than it saves below that (`RENAMER_NATIVE=1`: whatever the size).
`renamer -vv` names the pass that ran, and why.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable
from typing import Any, NamedTuple

from renamer import work
from renamer.decoded import might_decode, might_split
from renamer.match import Matcher
from renamer.native import ENV, hyperscan, wanted
from renamer.near_miss import LoosePass, fold_and_bare

# Measured (2 loaded cores, first pass alone, compile included; 2,000 files): the native pass
# took 0.69-0.96 of the Python pass's CPU on dense, clean and homelab repos, saving 0.04-0.16 ms
# a file, and compiling took 24-89 ms: below about 1,000 files the compile is not paid back.
NATIVE_FROM = 1000

# Questions, each a report id of the database: hyperscan's single-match flag reports an id once
# per scan however many of its patterns match, so a file costs a callback per question at most.
BREAK, NEEDLE, CONTEXT, START, META, LOOSE, ANY_CASE, PRESENT, SLUG, ESCAPE, FOLD = range(11)
# Matcher.context_groups: each group of context literals is a question of its own too, from GROUPS
# on (one scan answers which readers of might_hold_context can hold, and only those are asked).
GROUPS = 11
# A match of patterns._META always holds one of these (its `\s` spelled out: hyperscan's set
# differs from Python's), its counted repeats left open: the exact bounds cost hyperscan ten
# times the compile time, and the probe in Python decides. tests/sweep/test_native_gate.py
# checks this against patterns._META.
# And patterns._GROUP (a group of alternatives, read without any _META match): a `(`, then no
# parenthesis nor blank, then a `|`.
META_SOURCE = (rb"\\[dDwWsS]|\[[^\]\x09\x0a\x0b\x0c\x0d\x20]+\]|\{[0-9]|\.\+|[*?]"
               rb"|\([^()\x09\x0a\x0b\x0c\x0d\x20]*\|")


# decoded.might_decode's tests are asked only where no needle stands (a needle makes the file a
# hit first), and then only where one of two necessary conditions holds (tests/sweep/
# test_native_gate.py holds them to it):
# * JOINED: removing quotes or backslashes (decoded.might_join_quotes, escapes.might_escape), a
#   shell default's `}` (decoded.might_join_default), or a backslash that an escape drops
#   (`an\\a-ml2`, `10\\.250`) adds a needle only where the bytes without all of those hold one
#   (a needle's regex spelling, `ana\\-ml2`, becomes its plain form, itself a needle or holding
#   one): the needles' own database, scanned over a copy without them.
# * ESCAPE (in the database): any other escape (escapes._ESCAPE: `\\x2d`, `\\u002d`, `%2D`,
#   `&#45;`, octal...) must spell a character of some needle for the decoded reading to hold one.
# FOLD: unicode_names.might_fold folds only a run holding a UTF-8 character outside ASCII, whatever
# the names (an ASCII name in compatibility dress, `ａｎａ-ｍｌ２`, is one too): a lead byte, and
# the byte-order mark's only after some byte (U+FEFF inside a name is deleted, as the soft hyphen
# and the zero-width characters are, whose lead bytes are here: round 4, finding 8; a file's own
# BOM, at its start, is no name's and would let every such file through). A lone continuation
# byte starts no character: `_folded` reads no such run.
FOLD_SOURCE = (rb"[\xc2-\xee\xf0-\xf4]|\xef[\x80-\xba\xbc-\xbf]|\xef\xbb[\x80-\xbe]"
               rb"|[\x00-\xff]\xef\xbb\xbf")
JOINERS = b"\"'\\}"


def _hex(digits: str) -> bytes:
    """Hex digits in either case, as escapes._ESCAPE reads them."""
    return b"".join(f"[{d}{d.upper()}]".encode() if d.isalpha() else d.encode() for d in digits)


def _escaped(char: str) -> list[bytes]:
    """`char` spelled by each escape escapes._read reads as it, but a backslash before the
    character itself (JOINED asks that); leading zeros and repeats left open where escapes._ESCAPE
    bounds them (a looser pattern is still necessary, and compiles faster)."""
    value = ord(char)
    ways = [rb"\x5cu\x7b0*" + _hex(f"{value:x}") + rb"\x7d",  # \\u{2d}
            rb"\x5cU" + _hex(f"{value:08x}"),
            b"".join(b"%" + _hex(f"{byte:02x}") for byte in char.encode("utf-8")),  # %2D, %C3%BC
            rb"&#[xX]0*" + _hex(f"{value:x}") + b";",
            rb"&#0*" + str(value).encode() + b";"]
    if value <= 0xFF:
        ways.append(rb"\x5cx" + _hex(f"{value:02x}"))
    if value <= 0xFFFF:
        ways.append(rb"\x5cu" + _hex(f"{value:04x}"))
    if value <= 0o777:
        ways.append(rb"\x5c0*" + f"{value:o}".encode())
    if value <= 255:  # RFC 1035's decimal `\\DDD`, where names are in presentation format (zones)
        ways.append(rb"\x5c" + f"{value:03d}".encode())
    return ways


def escape_pattern(needles: Iterable[bytes]) -> bytes | None:
    """ESCAPE for all needles: an escape spelling one of their characters, or `\\N{...}` (any
    name: Python looks it up)."""
    chars = sorted({char for needle in needles for char in needle.decode("utf-8", "replace")} - {"\ufffd"})
    if not chars:
        return None
    named = rb"\x5cN\x7b[A-Za-z0-9\x20\x2d]+\x7d"
    return b"|".join([named, NON_ASCII_ESCAPE, *(way for char in chars for way in _escaped(char))])


# An escape of any character outside ASCII (loosely: a looser pattern is still necessary): NFC and
# NFKC fold such a character into a needle's (`u%CC%88` is `ü`, `%EF%BD%81` fullwidth `a`), which
# no escape of a needle's own characters spells (unicode_names.py reads the decoded text).
NON_ASCII_ESCAPE = (rb"%[C-Fc-f][0-9A-Fa-f]|\x5cx[89A-Fa-f][0-9A-Fa-f]|\x5cu0*[89A-Fa-f][0-9A-Fa-f]"
                    rb"|\x5cu0*[1-9A-Fa-f][0-9A-Fa-f]{2,3}"
                    rb"|\x5cu\x7b|\x5cU|&#[xX]0*[1-9A-Fa-f][0-9A-Fa-f]{1}|&#0*[1-9][0-9]{2}"
                    rb"|\x5c0*[2-7][0-7]{2}|\x5c1[2-9][0-9]|\x5c2[0-5][0-9]")


class Answer(NamedTuple):
    """What the Python first pass computes for one file, answered from one native scan."""

    hit: bool  # a needle, a context, a split name: the matcher's prefilter
    loose_hit: bool
    candidate: bool  # the file goes to the full scanner
    holds_present: bool  # holds one of options.present (collisions)
    holds_slug: bool  # holds an anchor's slug (the caller asks whether it is Markdown)


def _literal(text: bytes) -> bytes:
    return b"".join(b"\\x%02x" % byte for byte in text)


def _presentation(label: bytes) -> bytes:
    """A pattern over the raw bytes for `label` spelled with RFC 1035's escapes anywhere in it: each
    character plain, after a backslash, or as `\\DDD` (decimal) of either case (caseless)."""
    parts = []
    for byte in label:
        codes = {byte, bytes([byte]).upper()[0], bytes([byte]).lower()[0]}
        ways = [_literal(bytes([byte])), rb"\x5c" + _literal(bytes([byte]))]
        ways += [rb"\x5c" + f"{code:03d}".encode() for code in sorted(codes)]
        parts.append(b"(?:" + b"|".join(ways) + b")")
    return b"".join(parts)


class NativeGate:
    """The compiled questions for one scan (its project and options); used by the first pass."""

    def __init__(self, matcher: Matcher, loose: LoosePass | None, present: tuple[bytes, ...],
                 slugs: tuple[bytes, ...]) -> None:
        self.matcher = matcher
        self.loose = loose
        # A question whose Python test always holds (an empty needle) needs no pattern: it is set.
        self._always: set[int] = set()
        patterns: list[tuple[bytes, int, bool]] = []  # (pattern, question, caseless)

        def add(question: int, texts: Iterable[bytes], *, caseless: bool = False) -> None:
            for text in texts:
                if not text:
                    self._always.add(question)
                else:
                    patterns.append((_literal(text), question, caseless))

        patterns.append((rb"[\x5c\x60\x5e\x3d]\x0d?\x0a", BREAK, False))  # decoded.might_hold_break
        add(NEEDLE, matcher.needles)
        # might_hold_context: a range stem, `$ORIGIN`, `ffff:` (caseless: its tests ask for either
        # case), or the pattern probe, which needs a start and a meta match both. context_literals
        # ends with the starts; any other order leaves every literal a context (more follow-ups).
        starts = matcher._pattern_starts
        context = matcher.context_literals()
        split = bool(starts) and context[len(context) - len(starts):] == starts
        add(CONTEXT, context[:len(context) - len(starts)] if split else context, caseless=True)
        # ... and an old FQDN's first label spelled with a zone's escapes (Matcher.might_hold_zone_label
        # reads the data decoded): each character as itself, `\\X` or `\\DDD`, in either case.
        patterns += [(_presentation(label), CONTEXT, True) for label in matcher.zone_labels if label]
        # Each context reader's literals again, as a question of their own (caseless, as CONTEXT:
        # a looser test, still necessary).
        self._groups = matcher.context_groups()
        for number, (_, literals) in enumerate(self._groups):
            add(GROUPS + number, literals, caseless=True)
        add(START, starts)
        if starts:
            patterns.append((META_SOURCE, META, False))
        # LOOSE is no pattern here: the loose needles, each byte a class and the deleted escapes
        # between them, compiled in 0.3 s alone and 1.9 s beside the rest under 50 renames
        # (hyperscan's compile grows faster than the patterns in such a mix). The same question
        # is one translate (fold_and_bare: the very copy those patterns spelled) and one scan of a
        # literal database (questions_holding).
        # might_match_any_case: the lower-cased needles in the lower-cased bytes (ASCII case, as
        # bytes.lower and hyperscan's caseless flag both fold).
        add(ANY_CASE, matcher._any_case().needles, caseless=True)
        add(PRESENT, present)
        add(SLUG, slugs)
        escape = escape_pattern(matcher.needles)
        if escape is not None:
            patterns.append((escape, ESCAPE, False))
        patterns.append((FOLD_SOURCE, FOLD, False))
        self.questions = len(patterns)
        self._database: Any = _compiled(patterns)
        # JOINED: the needles alone, for the copy without quotes, `}` and backslashes.
        self._joined: Any = _compiled([(_literal(n), NEEDLE, False) for n in matcher.needles if n])

    def holds_joined(self, data: bytes) -> bool:
        """JOINED: does `data` hold a needle once its quotes, `}` and backslashes are deleted?"""
        stripped = data.translate(None, JOINERS)
        if len(stripped) == len(data) or self._joined is None:
            return False  # nothing deleted: no needle more than the bytes hold
        work.add("native join scans")
        found: list[int] = []

        def report(question: int, _start: int, _end: int, _flags: int, _context: object) -> bool:
            found.append(question)
            return True  # one is enough: stop the scan
        with contextlib.suppress(hyperscan.ScanTerminated):
            self._joined.scan(stripped, match_event_handler=report)
        return bool(found)

    def questions_holding(self, data: bytes) -> set[int]:
        """The questions whose native pattern matches somewhere in `data`."""
        found = set(self._always)
        if self._database is not None and data:
            def report(question: int, _start: int, _end: int, _flags: int, _context: object) -> None:
                found.add(question)
            self._database.scan(data, match_event_handler=report)
        if self.loose is not None and self.loose.holds_bare(fold_and_bare(data)):
            found.add(LOOSE)
        return found

    def answer(self, data: bytes, rel: str, candidate: bool, path_needles: list[str]) -> Answer | None:
        """The first pass for one file, as parallel.scan_chunk's Python tests answer it; None
        when no question holds (the file is no candidate and holds nothing to note)."""
        work.add("native scans")
        found = self.questions_holding(data)
        # JOINED (a copy, another scan) is asked only where no question of the database decided.
        joined = None
        if not (found or candidate or path_needles):
            joined = self.holds_joined(data)
            if not joined:
                return None
        matcher = self.matcher
        held = [name for number, (name, _) in enumerate(self._groups) if GROUPS + number in found]
        matcher.note_held(data, held)  # the full scan of these bytes asks no other group's reader
        # As the Python pass: needles, then the context probes, then a split name; each Python
        # test asked only where its native condition holds (the needles' is the test itself).
        hit = NEEDLE in found
        if not hit and (CONTEXT in found or (START in found and META in found)):
            work.add("native follow-ups")
            work.add("native context readers", len(held))
            hit = matcher.might_hold_context(data, held)
        if not hit and BREAK in found:
            work.add("native follow-ups")
            hit = might_split(matcher, data)
        if not hit and (ESCAPE in found or FOLD in found
                        or (joined if joined is not None else self.holds_joined(data))):
            work.add("native follow-ups")
            hit = might_decode(matcher, data)
        loose_hit = False
        if self.loose is not None and LOOSE in found:
            work.add("native follow-ups")
            loose_hit = self.loose.might_match(data)
        candidate = candidate or hit or loose_hit or any(n in rel for n in path_needles)
        # (The Python pass asks this only of a file that passed its gates: an old form in another
        # case passes them, so asking where they would not changes no answer.)
        if not candidate and ANY_CASE in found:
            work.add("native follow-ups")
            candidate = matcher.might_match_any_case(data)
        return Answer(hit, loose_hit, candidate, PRESENT in found, SLUG in found)


def _compiled(patterns: list[tuple[bytes, int, bool]]) -> Any:
    """One block-mode database of (pattern, question, caseless), each question reported once a scan."""
    if not patterns or hyperscan is None:
        return None
    flags = [hyperscan.HS_FLAG_SINGLEMATCH | (hyperscan.HS_FLAG_CASELESS if caseless else 0)
             for _, _, caseless in patterns]
    database = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
    database.compile(expressions=[p for p, _, _ in patterns], ids=[q for _, q, _ in patterns],
                     elements=len(patterns), flags=flags)
    return database


def version() -> str | None:
    """hyperscan's version where it imported, else None."""
    return str(getattr(hyperscan, "__version__", "?")) if hyperscan is not None else None


def choose_native(matcher: Matcher, loose: LoosePass | None, present: tuple[bytes, ...],
                  slugs: tuple[bytes, ...], files: int) -> tuple[NativeGate | None, str]:
    """The native first pass where it can run and pays for `files` files, and a line for -vv
    saying which pass runs and why."""
    asked = wanted()
    if asked == "0":
        return None, f"first pass: pure Python ({ENV}=0)"
    if asked != "1" and files < NATIVE_FROM:
        return None, f"first pass: pure Python ({files} files, under {NATIVE_FROM}: compiling would not pay)"
    if hyperscan is None:
        return None, "first pass: pure Python (hyperscan not installed)"
    try:
        gate = NativeGate(matcher, loose, present, slugs)
    except (hyperscan.error, re.error) as exc:  # a pattern it cannot compile: Python answers instead
        return None, f"first pass: pure Python (hyperscan refused the patterns: {exc})"
    return gate, f"first pass: hyperscan {version()}, {gate.questions} patterns in one database"
