"""Old values a consumer reads only joined: a name split by a line-ending backslash, or by quotes.

YAML's escaped line break in a double-quoted scalar (`"http://ana-\\` newline `  ml2"`), TOML's
line-ending backslash in a multi-line basic string, and a shell (or Dockerfile, Makefile) line
continuation (`ssh root@ana-\\` newline `ml2`) all hand the consumer one joined token, while the
bytes spell no old value. No text edit can rename such a token safely (which half changes, where
the break goes, is the author's), so each is an occurrence refused with reason `split`: verify
fails on it until a person rejoins or keeps it.

YAML and TOML drop the next line's leading blanks with the break; a shell keeps them (`ana-\\`
newline `  ml2` is two words there), so the join depends on the format (`Format.joins_indent`).

A shell also joins the quoted and unquoted pieces of one word: `ana-"ml2"`, `'ana-'ml2`,
`"ana-"'ml2'` and `an""a-ml2` are each the one word `ana-ml2` (in a script, a `.env` file, a
Dockerfile's RUN, a Makefile's recipe, a compose file's command; Python and C join adjacent
string literals the same way). Which piece the new name goes in is the author's choice, so these
are refused `split` too. Quotes around a whole name (`"ana-ml2"`) join nothing and are matched as
ever; `ana\\-ml2` is a regular expression's spelling, rewritten `fv\\-ml1` (forms.py), which the
shell reads as `fv-ml1`.

A shell parameter's default joins the same way: `${X:-ana-ml2}.ana.lan` (also `-`, `=`, `+`,
with or without the colon) expands to the word `ana-ml2.ana.lan` when X is unset, an FQDN with a
rename of its own. Where the old name's cut falls at a label boundary and the new name has as
many labels, the word takes the new name's labels, but only where the text after `}` stays as
it is (`${X:-fv-ml1}.ana.lan` for `fv-ml1.ana.lan`): that text is joined to whatever X holds too
(`X=db01` makes it db01.ana.lan), so rewriting it would move another name. A rename that changes
it (`fv-ml1.fv.lan`), or a cut no edit can place, is refused `split`.
(`${X:?word}`'s word is an error message, never joined.) Jinja's default filter joins the same way,
`{{ host | default('ana-ml2') }}.ana.lan`, and follows the same rule. The word may be quoted
(`${X:-"ana-ml2"}`) or nested (`${X:-${Y:-ana-ml2}}`): one grammar, composed_names.py's, reads them
(break-it round 4, finding 5). Where the repo defines the variable, sweep/composed.py decides the
whole name over its values (and may make the domain follow).

Cost: a file is looked at only when it holds a backslash right before a line end (one `in`
test), and then only a window of the longest form around each break is matched again; for
quotes, when the file without its quote characters holds a needle more often than with them.
"""

from __future__ import annotations

import bisect
import re
from typing import Protocol

from renamer import composed_names, lazy_re, work
from renamer.escapes import might_escape
from renamer.occurrences import Match
from renamer.unicode_names import might_fold

# A backslash ending a line that is itself not escaped (`\\` then a newline is a literal
# backslash): an even run of backslashes before it. Other shells continue with another mark
# (continuations.py): PowerShell's backtick, cmd.exe's caret, a Dockerfile's `# escape=` character.
_BREAK = lazy_re.compile(rb"(?<!\\)(?:\\\\)*(\\\r?\n)")
_BREAK_INDENT = lazy_re.compile(rb"(?<!\\)(?:\\\\)*(\\\r?\n[ \t]*)")
# A make recipe's: make hands the shell the backslash and the line break but drops the next line's
# recipe prefix (one tab), and the shell joins the rest (`ssh ana-\` newline tab `ml2`: ana-ml2).
_BREAK_RECIPE = lazy_re.compile(rb"(?<!\\)(?:\\\\)*(\\\r?\n\t?)")
_MARKS = (b"`", b"^", b"=")  # the other continuation marks (`=`: quoted-printable), for the cheap tests


def _break(mark: bytes, indent: bool) -> re.Pattern[bytes]:
    """The line-ending break of another mark than the backslash (an even run of it is literal)."""
    m = re.escape(mark)
    tail = rb"\r?\n[ \t]*" if indent else rb"\r?\n"
    return re.compile(b"(?<!" + m + b")(?:" + m + m + b")*(" + m + tail + b")")


# The files make reads (GNU make's default names, `include`d `.mk` fragments).
_MAKEFILES = lazy_re.compile(r"(?:^|/)(?:GNUmakefile|[Mm]akefile(?:\.[^/]*)?|[^/]*\.(?:mk|mak|make))\Z")


def is_makefile(rel: str) -> bool:
    """Is `rel` a file make reads (`Makefile`, `GNUmakefile`, `rules.mk`)? Its recipe lines join
    as _BREAK_RECIPE does."""
    return _MAKEFILES.search(rel) is not None


class Finder(Protocol):
    """What this needs of the matcher: its needles and its exact rules over bytes."""

    needles: tuple[bytes, ...]

    def find(self, data: bytes) -> list[Match]: ...

    def might_hold_zone_label(self, data: bytes) -> bool: ...


def might_decode(finder: Finder, data: bytes) -> bool:
    """Could a decoded reading spell an old value the bytes do not: quotes inside one word or a
    shell default joined to what follows its brace (below), escapes (escapes.py), a Unicode
    form after NFC and folding (unicode_names.py)? (The first pass's decoder tests, counted:
    sweep/native_gate.py asks them only where a native question says they can hold.)"""
    work.add("decoder tests")
    return (might_join_quotes(finder, data) or might_join_default(finder, data)
            or might_escape(finder, data) or might_fold(finder, data))


def might_hold_break(data: bytes) -> bool:
    """The cheap prefilter: a backslash (or another shell's continuation mark, continuations.py)
    right before a line end."""
    return (b"\\\n" in data or b"\\\r\n" in data
            or any(mark + b"\n" in data or mark + b"\r\n" in data for mark in _MARKS))


def _joined(data: bytes, indent: bool, recipe: bool = False,
            mark: bytes = b"\\") -> tuple[bytes, list[tuple[int, int]]]:
    """`data` with each line-ending backslash (or `mark`) removed, and each cut as (position in the
    joined bytes, bytes removed up to and including it). `recipe`: a Makefile's (one tab dropped)."""
    if mark != b"\\":
        pattern = _break(mark, indent)
    else:
        pattern = _BREAK_RECIPE if recipe else _BREAK_INDENT if indent else _BREAK
    parts, cuts, last, removed = [], [], 0, 0
    for x in pattern.finditer(data):
        start, end = x.span(1)
        if recipe and end > start and data[end - 1] == 0x09 and data[data.rfind(b"\n", 0, start) + 1] != 0x09:
            end -= 1  # a variable's line, no recipe's: make joins it with a space, the tab stays
        parts.append(data[last:start])
        removed += end - start
        cuts.append((start - (removed - (end - start)), removed))
        last = end
    parts.append(data[last:])
    return b"".join(parts), cuts


def might_split(finder: Finder, data: bytes) -> bool:
    """Can `data` hold an old value split by a line break? (Both joins: the format is not known
    to the first pass.)"""
    if not might_hold_break(data):
        return False
    for mark in (b"\\", *_MARKS):
        if mark + b"\n" not in data and mark + b"\r\n" not in data:
            continue
        for indent in (False, True):
            joined, cuts = _joined(data, indent, mark=mark)
            if cuts and any(needle in joined for needle in finder.needles):
                return True
    return False


def split_matches(finder: Finder, data: bytes, matches: list[Match], *, indent: bool,
                  recipe: bool = False, mark: bytes = b"\\") -> list[Match]:
    """`matches` with every old value that only the joined text spells added, refused `split`.
    `recipe`: `data` is a Makefile, whose recipe lines join after make drops the next line's tab;
    `mark`: the file's continuation mark (continuations.py), a backslash unless it says otherwise."""
    if not might_hold_break(data):
        return matches
    joined, cuts = _joined(data, indent, recipe, mark)
    if not cuts:
        return matches
    reach = max((len(n) for n in finder.needles), default=0) + 8
    added: list[Match] = []
    for cut, _ in cuts:
        low, high = max(0, cut - reach), min(len(joined), cut + reach)
        for m in finder.find(joined[low:high]):
            start, end = low + m.start, low + m.end
            # At a window's edge the boundary rules cannot see the neighbour: left to the window
            # that holds it whole (every cut has one).
            at_edge = (m.start == 0 and low > 0) or (m.end == high - low and high < len(joined))
            if not start < cut < end or at_edge:
                continue
            first, last = _original(start, cuts, at_cut=False), _original(end, cuts, at_cut=True)
            if any(a.start < last and first < a.end for a in added):
                continue  # found from another cut's window
            added.append(Match(first, last, m.old, m.new, m.kind, m.derived, refused="split"))
    if not added:
        return matches
    # The joined reading wins over a shorter one in the bytes: `ana-ml2\` + `.ana.lan` is the FQDN,
    # never `ana-ml2` renamed alone.
    kept = [m for m in matches if not any(a.start < m.end and m.start < a.end for a in added)]
    return sorted([*kept, *added], key=lambda m: m.start)


def _original(position: int, cuts: list[tuple[int, int]], *, at_cut: bool) -> int:
    """Where a position of the joined bytes is in the original; a match's end exactly at a cut
    ends before the removed break."""
    removed = 0
    for cut, total in cuts:
        if cut < position or (cut == position and not at_cut):
            removed = total
        else:
            break
    return position + removed


_QUOTES = b"'\""
_QUOTE = lazy_re.compile(b"['\"]")


def might_join_quotes(finder: Finder, data: bytes) -> bool:
    """Does removing the quote characters make an old value's needle appear, or continue one?
    (`translate` and `count` passes in C: cheap enough for every file holding a quote.)"""
    if b"'" not in data and b'"' not in data:
        return False
    joined = data.translate(None, _QUOTES)
    if any(joined.count(needle) > data.count(needle) for needle in finder.needles):
        return True
    # A quote that a longer form continues past (`"ana-ml2".ana.lan`): same needles, another match.
    return any(re.search(re.escape(needle) + rb"['\"]+[A-Za-z0-9.:_-]", data) for needle in finder.needles
               if needle + b'"' in data or needle + b"'" in data)


_JOINED = lazy_re.compile(rb"[A-Za-z0-9._-]+")


def _joins(data: bytes) -> list[tuple[int, bytes, int, bytes]]:
    """(where the word starts, the word, where the text after the brace starts, that text) of each
    default joined to what follows it: a shell's `${X:-word}tail` (the word quoted, `${X:-"word"}`,
    or nested, `${X:-${Y:-word}}`), Jinja's `{{ x | default('word') }}tail` (`d("word")`,
    `default('word', true)`, other filters after it); the grammar is composed_names.py's."""
    if b"${" not in data and b"{{" not in data:
        return []
    out = []
    for template in composed_names.defaults(data):
        assert template.default is not None and template.default_span is not None
        at = template.end + (data[template.end:template.end + 1] in (b'"', b"'"))  # `"${X:-w}".lan`
        tail = _JOINED.match(data, at)
        if tail is not None:
            out.append((template.default_span[0], template.default.encode(), tail.start(), tail.group()))
    return out


def might_join_default(finder: Finder, data: bytes) -> bool:
    """Does a shell default's word joined with the text after its `}` hold an old value's needle?"""
    if b"${" not in data and b"{{" not in data:
        return False
    # Needles are prefixes of the longer names (`ana-ml2` stands for `ana-ml2.ana.lan` too), so any
    # needle in the joined word makes the file a candidate; the full match decides.
    return any(needle in word + tail for _, word, _, tail in _joins(data) for needle in finder.needles)


def default_joined_matches(finder: Finder, data: bytes, matches: list[Match]) -> list[Match]:
    """`matches` with each old value a shell default's word spells joined with what follows its
    `}`: rewritten piece by piece where the cut is certain, else refused `split`."""
    if not might_join_default(finder, data):
        return matches
    added: list[Match] = []
    for word_at, word, tail_at, tail in _joins(data):
        cut = len(word)  # the word's length: where `}` stood in the joined word
        for m in finder.find(word + tail):
            if not m.start < cut < m.end:
                continue
            if m.kind != "host":
                # `${X:-10.0.0}.5`: an address cut at the brace renumbers a prefix, which the sweep
                # never guesses; sweep/composed_addresses.py reports it with X's definitions.
                continue
            pieces = None if m.refused or m.kept else _cut(m.old, m.new, cut - m.start)
            # The text after `}` is the variable's too: `X=db01` makes `${X:-ana-ml2}.ana.lan` the name
            # db01.ana.lan, so a new tail would move db01 as well. Only the word is the old name's own.
            if pieces is None or pieces[1][0] != pieces[1][1]:
                note = None if pieces is None or m.refused else (
                    f"`{pieces[1][0]}` after the brace follows the variable too, whatever it holds: "
                    f"rewriting it to `{pieces[1][1]}` would move every name the variable makes")
                added.append(Match(word_at + m.start, tail_at + m.end - cut, m.old, m.new, m.kind, m.derived,
                                   refused=m.refused or "split", kept=m.kept, note=note))
                continue
            (old_head, new_head), (old_tail, new_tail) = pieces
            # A piece that stays as it is (`.lan` in `${X:-ana-ml2.ana}.lan`) is no replacement.
            spans = ((word_at + m.start, word_at + cut, old_head, new_head),
                     (tail_at, tail_at + m.end - cut, old_tail, new_tail))
            added += [Match(start, end, old_piece, new_piece, m.kind, m.derived)
                      for start, end, old_piece, new_piece in spans if old_piece != new_piece]
    if not added:
        return matches
    kept = [m for m in matches if not any(a.start < m.end and m.start < a.end for a in added)]
    return sorted([*kept, *added], key=lambda m: m.start)


def _cut(old: str, new: str, at: int) -> tuple[tuple[str, str], tuple[str, str]] | None:
    """((old head, new head), (old tail, new tail)) when `old` cut at `at` falls right before a
    label's dot and `new` has as many labels; None when no cut of `new` is certain."""
    if old[at:at + 1] != "." or old.count(".") != new.count("."):
        return None
    labels = old[:at].count(".") + 1
    parts = new.split(".")
    return (old[:at], ".".join(parts[:labels])), (old[at:], "." + ".".join(parts[labels:]))


def quote_joined_matches(finder: Finder, data: bytes, matches: list[Match]) -> list[Match]:
    """`matches` with every old value spelled across quotes (`ana-"ml2"`) added, refused `split`."""
    if not might_join_quotes(finder, data):
        return matches
    removed = [x.start() for x in _QUOTE.finditer(data)]  # original offsets, in order
    in_joined = [at - index for index, at in enumerate(removed)]  # where each one was cut
    added: list[Match] = []
    for m in finder.find(data.translate(None, _QUOTES)):
        # Quotes cut inside the match (not at its edges): the pieces of one word.
        first, last = bisect.bisect_right(in_joined, m.start), bisect.bisect_left(in_joined, m.end)
        if first >= last:
            continue
        added.append(Match(m.start + first, m.end + last, m.old, m.new, m.kind, m.derived, refused="split"))
    if not added:
        return matches
    # The joined reading wins over a shorter one in the bytes: `"ana-ml2".ana.lan` is the FQDN.
    kept = [m for m in matches if not any(a.start < m.end and m.start < a.end for a in added)]
    return sorted([*kept, *added], key=lambda m: m.start)
