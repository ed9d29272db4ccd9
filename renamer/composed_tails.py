"""Old values whose end is an interpolation: `10.0.40.10${count.index + 1}`, `k3s-server-0${i}`.

The mirror of composed_names.py (a variable, then a literal domain): here the literal comes
first and is the START of an old value, and an interpolation right after it completes it. No byte
spells the old value, so the exact rules never see it, yet Terraform's `count = 3` makes
10.0.40.101 there. No text edit is right (the same line also makes .102 and .103), so each is
a residual (`composed-name`, `composed-address`), never rewritten.

An interpolation is `${...}` (HCL, shell, compose), `{{ ... }}` (Jinja, Go templates), Ruby's
`#{...}`, `$(...)` or `$VAR`; printf's `%s` and Python's `{}` are too loose to count. To bound
the noise, the literal must hold the old value but its last octet (IPv4), group (IPv6) or, for a
host name, at least 60% of it and 4 characters, and what the interpolation must add is short: a
bare `10.` or `k3s-` never counts.

Where the interpolation's values can be read for certain (Terraform's `count.index + K` under a
literal `count = N` of the same block, `each.key`/`each.value` of a literal `for_each`, a
shell `for i in 1 2 3` loop around it), they are evaluated: only an old value they make is
reported, by name, and a literal none of whose values is old is no residual. Pure: bytes in.
"""

from __future__ import annotations

import ipaddress
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass

from renamer import lazy_re
from renamer.occurrences import Match

MIN_LITERAL = 4  # a host name's literal start, at the least
MAX_ADDED = 4  # what the interpolation may add to complete an old value, at the most

_IDENT = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
# Where an interpolation opens: `${`/`$x`/`$(`, `{{`, Ruby's `#{`, ERB's and Puppet EPP's `<%=`, and a
# closing quote joined to an expression (`"web0" + str(i)`, Jinja's `'web0' ~ item`, Lua's `..`;
# outside round 25, finding 05)
_OPENERS = (b"$", b"{{", b"#{", b"<%", b'"', b"'")
_JOIN = lazy_re.compile(rb"[ \t]*(?:\+|~|\.\.)[ \t]*")
# what a join adds: a number's text (`str(i)`, `String(i)`, `tostring(i)`, `i.to_s`, `$i`, a name, a
# literal number), never another quoted text (`"web0" + "1"` is a literal join: one value)
_JOINED = lazy_re.compile(rb"(?:(?:str|String|tostring|toString|string|to_string)[ \t]*\([ \t]*"
                     rb"(?P<a>[A-Za-z0-9_.$@]{1,40})[ \t]*\)|(?P<b>[$@]?[A-Za-z_][A-Za-z0-9_.]{0,40}?)"
                     rb"(?:\.to_s|\.toString\(\))?|(?P<c>[0-9]+))(?![A-Za-z0-9_(\[.])")
# `count.index`, `count.index + 11`, `11 + count.index`, `(count.index) + 20` (break-it round 17, #17)
_COUNT_INDEX = lazy_re.compile(r"\(?\s*(?:(\d+)\s*\+\s*)?\(?\s*count\.index\s*\)?\s*(?:\+\s*(\d+))?\s*\)?")
_EACH = lazy_re.compile(r"each\.(key|value)")
_SHELL_VAR = lazy_re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?")
_BLOCK = lazy_re.compile(rb"^(?:resource|module|data)\b[^\n]*\{[ \t]*\r?$", re.M)
_COUNT = lazy_re.compile(rb"^[ \t]+count[ \t]*=[ \t]*(\d+)[ \t]*(?:#[^\n]*)?\r?$", re.M)
_FOR_EACH = lazy_re.compile(rb"^[ \t]+for_each[ \t]*=[ \t]*(?:toset\()?[ \t]*([\[{][^\n]*[\]}])\)?[ \t]*\r?$",
                       re.M)
_SCALAR = lazy_re.compile(r'"([^"\\]*)"|(-?\d+)')
_MAP_ITEM = lazy_re.compile(r'"?([A-Za-z0-9_.-]+)"?\s*[=:]\s*(?:"([^"\\]*)"|(-?\d+))')
_FOR = lazy_re.compile(
    rb"\bfor[ \t]+([A-Za-z_][A-Za-z0-9_]*)[ \t]+in[ \t]+([^;\n]*?)[ \t]*(?:;[ \t]*do\b|\r?\n)")
_BRACES = lazy_re.compile(r"\{(-?\d+)\.\.(-?\d+)\}")
_WORDS = lazy_re.compile(r"[A-Za-z0-9_.:-]+")
_DO = lazy_re.compile(rb"\b(do|done)\b")


@dataclass(frozen=True)
class Completion:
    """[start, end): a literal and the interpolation after it, which may make `old`."""

    start: int
    end: int
    old: str
    new: str
    kind: str  # host | address
    text: str
    note: str


@dataclass(frozen=True)
class _Old:
    old: str
    new: str
    kind: str


class Completions:
    """The literal starts of the renamed values, compiled once; `find` is pure."""

    def __init__(self, hosts: Iterable[tuple[str, str]], addresses: Iterable[tuple[str, str]],
                 *, derived_names: bool = False) -> None:
        self.derived_names = derived_names
        self._starts: dict[bytes, list[_Old]] = {}
        self.olds: dict[str, str] = {}  # every old value, as written and canonical: its new value
        self._kinds: dict[str, str] = {}
        for kind, pairs in (("host", hosts), ("address", addresses)):
            for old, new in pairs:
                self.olds.update((spelling, new) for spelling in _spellings(old, kind))
                self._kinds.update((spelling, kind) for spelling in _spellings(old, kind))
                for spelling in _spellings(old, kind):
                    for start in _literal_starts(spelling, kind):
                        self._starts.setdefault(start.encode(), []).append(_Old(spelling, new, kind))
        self._lengths = sorted({len(s) for s in self._starts}, reverse=True)
        # A file holds one of these wherever it holds a completion (the first pass's gates).
        self.literals = tuple(sorted({s + o for s in self._starts for o in _OPENERS}))
        # The literals by the shortest start each begins with (`10.250.50.`, `ana-m`): a file
        # holding no such start holds none of its literals, so most files are asked a few `in`
        # tests, not one per literal (issue 30: this ran on every file of a dense repo).
        heads = [s for s in sorted(self._starts, key=len) if s]
        shortest = [h for i, h in enumerate(heads) if not any(h.startswith(g) for g in heads[:i])]
        self._by_head = tuple((h, tuple(lit for lit in self.literals if lit.startswith(h))) for h in shortest)
        if b"" in self._starts:  # (an empty start: every literal is an opener; asked as before)
            self._by_head = ((b"", self.literals),)

    def might_hold(self, data: bytes) -> bool:
        return any(head in data and any(literal in data for literal in literals)
                   for head, literals in self._by_head)

    def find(self, data: bytes) -> list[Completion]:
        """Every literal start followed by an interpolation that may complete an old value."""
        out: list[Completion] = []
        for opener in _OPENERS:
            at = data.find(opener)
            while at >= 0:
                if opener in (b'"', b"'") and _JOIN.match(data, at + 1) is None:
                    at = data.find(opener, at + 1)
                    continue  # a closing quote joined to nothing
                out += self._at(data, at)
                at = data.find(opener, at + 1)
        out.sort(key=lambda c: (c.start, c.end))
        return [c for i, c in enumerate(out) if i == 0 or c.start >= out[i - 1].end]

    def _at(self, data: bytes, pos: int) -> list[Completion]:
        end: int | None = -1  # the interpolation's end, read once a literal start stands before it
        for length in self._lengths:
            literal = data[max(0, pos - length):pos]
            olds = self._starts.get(literal) if len(literal) == length else None
            if not olds:
                continue
            end = interpolation_end(data, pos) if end == -1 else end
            if end is None:
                return []
            found = [c for old in olds if (c := self._complete(data, pos - length, pos, end, old))]
            if found:
                return found[:1]  # the longest literal, its first old value: one residual a place
        return []

    def _complete(self, data: bytes, start: int, pos: int, end: int, old: _Old) -> Completion | None:
        if not _left_ok(data, start, old):
            return None
        literal = data[start:pos].decode()
        expression = data[pos:end].decode("utf-8", "replace")
        after = _after(data, end, old.kind)
        rest = old.old[len(literal):]
        text = f"{literal}{expression}{after}"
        values = loop_values(data, pos, expression)
        what = "address" if old.kind == "address" else "name"
        if values is not None:
            made = [f"{literal}{v}{after}" for v in values.items]
            if not any(self._spells(m, old) for m in made):
                return None
            # Every old value the loop makes, not only the one whose start the literal is.
            hits = [o for o in self.olds if any(self._spells(m, _Old(o, self.olds[o], self._kinds[o]))
                                                for m in made)]
            shown = ", ".join(made[:6]) + (", ..." if len(made) > 6 else "")
            olds = "; ".join(f"{o} is an old {what}, renamed {self.olds[o]}" for o in sorted(hits))
            note = f"`{text}` makes {shown} ({values.why}): {olds}; no one text is right for every value"
            return Completion(start, end, old.old, old.new, old.kind, text, note)
        # What follows the interpolation must end the old value where it ends, or be its last bytes.
        if not any(rest.endswith(after[:k]) and len(rest) - k >= 1 and self.ends(after[k:], old)
                   for k in range(len(after) + 1)):
            return None
        note = (f"`{text}` may spell {old.old}: its literal is the old {what}'s start, and "
                f"`{expression}` may complete it (renamed {old.new}); what it holds cannot be told here")
        return Completion(start, end, old.old, old.new, old.kind, text, note)

    def _spells(self, made: str, old: _Old) -> bool:
        return made.startswith(old.old) and self.ends(made[len(old.old):], old)

    def ends(self, rest: str, old: _Old) -> bool:
        """Whether `rest`, right after the old value, ends it (DESIGN's right boundaries)."""
        if not rest:
            return True
        if old.kind == "host":
            return not (rest[0].isalnum() or rest[0] == "_" or (rest[0] == "-" and not self.derived_names))
        if ":" in old.old:
            return rest[0] not in "0123456789abcdefABCDEF:"
        return not (rest[0].isdigit() or (rest[0] == "." and rest[1:2].isdigit()))


def _spellings(old: str, kind: str) -> list[str]:
    if kind == "address" and ":" in old:
        compressed = ipaddress.ip_address(old).compressed
        return sorted({old, compressed})
    return [old]


def _literal_starts(old: str, kind: str) -> list[str]:
    """The literal starts of `old` that count: at least all but its last octet or group (an
    address), or 60% and MIN_LITERAL characters (a host name), leaving at most MAX_ADDED."""
    if kind == "address":
        cut = old.rfind(":" if ":" in old else ".") + 1
        least = max(cut, 1)
    else:
        least = max(math.ceil(len(old) * 0.6), MIN_LITERAL)
    least = max(least, len(old) - MAX_ADDED)
    # A host name's literal ends inside a word: `k3s-server${X}` may be any k3s-server-*, but
    # `k3s-server-0${X}` names the start of k3s-server-01.
    return [old[:n] for n in range(least, len(old)) if kind == "address" or old[n] not in "-."]


def _left_ok(data: bytes, start: int, old: _Old) -> bool:
    """DESIGN's left boundaries: a host after no name character or dot, an address after no
    digit, letter or dot (nor `:`, for an IPv6 one)."""
    if start == 0:
        return True
    before = data[start - 1:start]
    return not (before.isalnum() or before in (b".", b"_") or (old.kind == "host" and before == b"-")
                or (":" in old.old and before == b":"))


def _after(data: bytes, end: int, kind: str) -> str:
    """The name characters right after the interpolation (`.ana.lan` of `web0${i}.ana.lan`)."""
    at = end
    allowed = b"A-Za-z0-9_.-" if kind == "host" else b"0-9A-Fa-f.:"
    found = re.compile(b"[" + allowed + b"]*").match(data, at)
    return found.group().decode() if found else ""


def interpolation_end(data: bytes, pos: int) -> int | None:
    """Where the interpolation starting at `pos` ends (one line), if one does."""
    head = data[pos:pos + 2]
    if head == b"<%":  # ERB / EPP: `<%= @index %>`, `<%= $index %>`
        close_at = data.find(b"%>", pos + 2, pos + 400)
        if close_at < 0 or b"\n" in data[pos:close_at]:
            return None
        return close_at + 2
    if head[:1] in (b'"', b"'"):  # a closing quote, a join, an expression
        join = _JOIN.match(data, pos + 1)
        joined = _JOINED.match(data, join.end()) if join is not None else None
        return joined.end() if joined is not None else None
    if head in (b"${", b"#{", b"$("):
        close = b")" if head == b"$(" else b"}"
        depth = 0
        for i in range(pos + 1, min(len(data), pos + 400)):
            c = data[i:i + 1]
            if c == b"\n":
                return None
            if c in (b"{", b"("):
                depth += 1
            elif c in (b"}", b")"):
                depth -= 1
                if depth == 0:
                    return i + 1 if c == close else None
        return None
    if head == b"{{":
        close_at = data.find(b"}}", pos + 2, pos + 400)
        if close_at < 0 or b"\n" in data[pos:close_at]:
            return None
        return close_at + 2
    if head[:1] == b"$":
        ident = _IDENT.match(data, pos + 1)
        return ident.end() if ident else None
    return None


@dataclass(frozen=True)
class Values:
    """The values an interpolation takes, and where they were read."""

    items: tuple[str, ...]
    why: str


def loop_values(data: bytes, pos: int, expression: str) -> Values | None:
    """The values `expression` (at `pos`) takes where they are certain, else None."""
    if expression[:1] in "\"'":  # `"web0" + str(1)`: a literal number joined is the value
        joined = _JOINED.match(_JOIN.sub(b"", expression[1:].encode(), count=1))
        number = joined.group("c") or joined.group("a") if joined is not None else None
        if number is not None and number.isdigit():
            return Values((number.decode(),), f"{number.decode()} joined")
        return None
    inner = expression.lstrip("${#(").rstrip("})").strip()
    if expression.startswith("{{"):
        return None  # a Jinja loop's items are another task key's: not read here
    count = _COUNT_INDEX.fullmatch(inner)
    if count is not None and expression.startswith("${"):
        block = _block(data, pos)
        found = _COUNT.search(data, *block) if block else None
        if found is None:
            return None
        n, k = int(found.group(1)), int(count.group(1) or 0) + int(count.group(2) or 0)
        return Values(tuple(str(i + k) for i in range(n)), f"count = {n}")
    each = _EACH.fullmatch(inner)
    if each is not None and expression.startswith("${"):
        block = _block(data, pos)
        found = _FOR_EACH.search(data, *block) if block else None
        return _each(found.group(1).decode(), each.group(1)) if found else None
    shell = _SHELL_VAR.fullmatch(expression)
    if shell is not None and (expression.startswith("$") and not expression.startswith("$(")):
        return _shell_loop(data, pos, shell.group(1))
    return None


def _block(data: bytes, pos: int) -> tuple[int, int] | None:
    """The Terraform top-level block around `pos`: from its header to its closing `}` line."""
    header = None
    for found in _BLOCK.finditer(data, 0, pos):
        header = found
    if header is None:
        return None
    closing = re.compile(rb"^\}", re.M).search(data, header.end())
    if closing is None or closing.start() < pos:
        return None
    return header.start(), closing.start()


def _each(literal: str, part: str) -> Values | None:
    if literal.startswith("["):
        items = [a or b for a, b in _SCALAR.findall(literal)]
        return Values(tuple(items), f"for_each = {literal}") if items else None
    pairs = _MAP_ITEM.findall(literal)
    if not pairs:
        return None
    values = [key if part == "key" else (text or number) for key, text, number in pairs]
    return Values(tuple(values), f"for_each = {literal}")


def _shell_loop(data: bytes, pos: int, variable: str) -> Values | None:
    """The words of the innermost `for VARIABLE in ...` loop still open at `pos`."""
    best = None
    for found in _FOR.finditer(data, 0, pos):
        if found.group(1).decode() == variable:
            best = found
    if best is None:
        return None
    depth = 0  # `do`/`done` between the loop's head and `pos`: the loop must still be open there
    for keyword in _DO.finditer(data, best.start(), pos):
        depth += 1 if keyword.group() == b"do" else -1
        if depth <= 0 and keyword.group() == b"done":
            return None
    words = best.group(2).decode()
    if any(c in words for c in "$`*?\"'["):
        return None  # computed or globbed when it runs
    values: list[str] = []
    for word in words.split():
        braces = _BRACES.fullmatch(word)
        if braces:
            low, high = int(braces.group(1)), int(braces.group(2))
            step = 1 if high >= low else -1
            values += [str(i) for i in range(low, high + step, step)]
        elif _WORDS.fullmatch(word):
            values.append(word)
        else:
            return None
    return Values(tuple(values), f"for {variable} in {words}") if values else None


REASONS = {"host": "composed-name", "address": "composed-address"}


def completed_matches(data: bytes, matches: list[Match], completions: Completions) -> list[Match]:
    """`matches` with each completion no match covers already added as a residual (a range, a
    composed name with a domain, an exact spelling decide their own bytes), and each exact
    match an interpolation continues refused (`10.0.40.10${count.index + 1}` is no 10.0.40.10)."""
    if b"$" in data or b"{{" in data or b"#{" in data:
        matches = [_continued(data, m, completions) for m in matches]
    if not completions.might_hold(data):
        return matches
    found = completions.find(data)
    added = [Match(c.start, c.end, c.old, c.new, c.kind, refused=REASONS[c.kind], note=c.note)
             for c in found if not any(m.start < c.end and c.start < m.end for m in matches)]
    return sorted([*matches, *added], key=lambda m: m.start) if added else matches


def _continued(data: bytes, m: Match, completions: Completions) -> Match:
    """`m` refused where an interpolation right after it may make it a longer value: always for
    an address (an interpolation after its last octet adds digits), for a host name only where
    the interpolation's values are known and one continues the name (`${SUFFIX}` may be `.lan`)."""
    if m.refused is not None or m.kept is not None or m.kind not in REASONS or m.derived:
        return m
    end = interpolation_end(data, m.end) if data[m.end:m.end + 1] in (b"$", b"{", b"#") else None
    if end is None or (data[m.end:m.end + 1] == b"{" and data[m.end:m.end + 2] != b"{{") or (
            data[m.end:m.end + 1] == b"#" and data[m.end:m.end + 2] != b"#{"):
        return m
    expression = data[m.end:end].decode("utf-8", "replace")
    old = _Old(m.old, m.new, m.kind)
    values = loop_values(data, m.end, expression)
    text = f"{data[m.start:m.end].decode('utf-8', 'replace')}{expression}"
    what = "address" if m.kind == "address" else "name"
    if values is not None:
        longer = [v for v in values.items if not completions.ends(v, old)]
        if not longer:
            return m
        made = [f"{m.old}{v}" for v in values.items]
        also = [f"{v} (an old {what} too, renamed {completions.olds[v]})"
                for v in made if v in completions.olds]
        note = (f"`{text}` makes {', '.join(made[:6])} ({values.why}), not {m.old}: the interpolation "
                f"continues the {what}, so rewriting {m.old} would move other machines"
                + (f"; {', '.join(also)}" if also else ""))
    elif m.kind == "host":
        return m
    else:
        note = (f"`{text}`: the interpolation right after {m.old} may continue the address (digits make "
                f"another one), so rewriting it could move other machines; what it holds cannot be told here")
    return Match(m.start, end, m.old, m.new, m.kind, refused=REASONS[m.kind], note=note)
