"""Names whose host part is a variable and whose domain is literal (break-it round 4, findings 4, 5).

`https://${NODE}.ana.lan/` beside `NODE=ana-ml2` in the stack's `.env`: the sweep rewrites the
definition (`NODE=fv-ml1`), and where the rename moves the host to another domain
(`ana-ml2.ana.lan -> fv-ml1.fv.lan`, or `ana-ml2 -> fv-ml1` with the domain's own `ana.lan ->
fv.lan`) the literal `.ana.lan` left behind makes `fv-ml1.ana.lan`, a name that does not exist.
Each such name (composed_names.py) is decided over every value its variable may hold
(sweep/templated.py's `Definitions`, followed through other variables, the nearest first: the
file's own definitions, else its folder's or the nearest folder above with any, as a compose
file reads its own `.env`, else the whole repo's; a default word, `${X:-ana-ml2}`,
`{{ x | default('ana-ml2') }}`, is one more value):

* every value known, and one new domain right for all of them (each value is a renamed host
  moving there, or the domain itself is renamed): the literal domain follows (`${NODE}.fv.lan`),
  and a default word with it (`${X:-"fv-ml1"}.fv.lan`, quotes and nesting kept);
* a value the move takes elsewhere beside one it does not (`NODE=db01` in another stack), a
  value that cannot be told (defined nowhere, computed when it runs) beside a renamed one, or a
  variable that is the machine's own name (`{{ inventory_hostname }}`, `$(hostname)`,
  `%{hostname}`: every host, the renamed one too): a residual `composed-name` naming the
  definitions, which verify fails on;
* nothing known and nothing certain: a near-miss note where a renamed host would break it.

A value follows its definition's fate (break-it round 5, finding A): a definition the sweep keeps
(the inline marker, a keep rule, a dated section) holds the old host after the sweep too, so the
literal domain stays right for it (`NODE=ana-ml2  # renamer: keep` leaves `${NODE}.ana.lan` as it
is); one whose fate cannot be told (an unclassified file) is one more reason for `composed-name`
where the value would need another domain once rewritten.

A default whose variable the repo defines nowhere stays decoded.py's (`split` where the domain
changes: the variable may hold any name from the environment).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Protocol

from renamer import composed_names, function_params, lazy_re, loop_values, variable_values
from renamer.composed_names import ComposedName
from renamer.loop_values import Loop
from renamer.occurrences import Match
from renamer.sweep.templated import Fate, Note
from renamer.variable_values import Definition, Resolved, Values

REASON = "composed-name"


class Known(Protocol):
    """What the repo gives a variable (sweep/templated.py's `Definitions`)."""

    def values(self, variable: str, near: str | None = None) -> Values: ...

    def fate(self, path: str, line: int) -> Fate: ...

    def list_items(self, variable: str, near: str | None = None, split: bool = False,
                   keys: bool = False) -> tuple[list[Definition], list[str]]: ...


@dataclass(frozen=True)
class _Value:
    value: str
    why: str  # where the repo gives it
    fate: Fate = "rewritten"  # what the sweep does to the definition spelling it


def composed_matches(data: bytes, matches: list[Match], hosts: tuple[tuple[str, str], ...],
                     definitions: Known, rel: str = "",
                     kept: Callable[[int], str | None] | None = None) -> tuple[list[Match], list[Note]]:
    """`matches` with each composed name decided: its literal domain (and default word) rewritten
    where one new domain is right for every value, else refused `composed-name`; and a note
    for each one whose values cannot be told but a renamed host would break. `kept`: what keeps
    the line at an offset (None: nothing), where a kept name whose definition is rewritten is
    refused `kept-reference`."""
    found, notes, _ = _composed(data, matches, hosts, definitions, rel, kept)
    return found, notes


Held = tuple[str, int, str, str]  # the path and line of a list's word a loop walks, the word, why held


def held_list_words(data: bytes, matches: list[Match], hosts: tuple[tuple[str, str], ...],
                    definitions: Known, rel: str = "") -> list[Held]:
    """The words of the list variables the loops of `data` walk where a body's composed name is a
    `composed-name` residual (`nodes: [pug, rex]` beside `loop: "{{ nodes }}"` and
    `"{{ item }}.ana.lan"`): rewriting pug where the list is defined would make wolf.ana.lan as
    surely as rewriting the loop's own words (break-it round 7, finding 10e). Wherever the list is
    defined (this file, a group_vars file), the scanner of that file holds them."""
    _, _, split = _composed(data, matches, hosts, definitions, rel, None)
    out: list[Held] = []
    for loop, text in split:
        if loop.source is None:
            continue
        items, unknown = definitions.list_items(loop.source, rel or None, loop.split, keys=loop.keys)
        if unknown:
            continue
        for path, line, item in items:
            note = (f"a word of `{loop.source}`, which the loop at {rel}:{loop.line} ({loop.header}) walks "
                    f"and whose body makes {text}: its hosts move to different domains, so the list is "
                    f"left as it is; split it (the hosts that move in a list and a loop of their own with "
                    f"their new domain) and rerun the sweep")
            out.append((path, line, item, note))
    return out


def hold_list_words(data: bytes, matches: list[Match], held: list[tuple[int, str, str]]) -> list[Match]:
    """`matches` with each rewrite of a held list word (its line, the word, why) refused `composed-name`."""
    if not held:
        return matches
    out = []
    for m in matches:
        line = data.count(b"\n", 0, m.start) + 1
        why = next((note for at, item, note in held
                    if at == line and (m.old == item or m.old.split(".")[0] == item)), None)
        if why is None or m.refused is not None or m.kept is not None:
            out.append(m)
        else:
            out.append(replace(m, refused=REASON, note=why))
    return out


def _composed(data: bytes, matches: list[Match], hosts: tuple[tuple[str, str], ...], definitions: Known,
              rel: str, kept: Callable[[int], str | None] | None,
              ) -> tuple[list[Match], list[Note], list[tuple[Loop, str]]]:
    tails = composed_names.tails_of(hosts)
    if not tails or not composed_names.might_hold(data, composed_names.literals(tails), tails):
        return matches, [], []
    renamed = dict(hosts)
    added: list[Match] = []
    replaced: list[tuple[int, int]] = []
    notes: list[Note] = []
    found_loops: list[Loop] | None = None
    split: list[tuple[Loop, str]] = []  # loops of moving and staying hosts, and the name they make
    listed: dict[int, str] = {}  # the list words held beside a composed use that cannot be read, why
    for name in composed_names.find(data, tails):
        if any(m.refused not in (None, "split") and m.start < name.end and name.start < m.end
               for m in matches):
            continue  # a range, a pattern, a templated name: one residual is enough
        if found_loops is None:  # a function's parameter binds like a loop's variable (round 16 #9)
            found_loops = sorted([*loop_values.loops(data), *function_params.functions(data)],
                                 key=lambda loop: (loop.start, -loop.end))
        read = name.template.reads or loop_values.read_by(data, name.template.start, name.template.end)
        loop = loop_values.binding(found_loops, read, name.start)
        reason = kept(name.start) if kept is not None else None
        moved = _rewritten(name, renamed, definitions, rel) if reason is not None else []
        if moved:
            # Kept on purpose, its variable rewritten: the kept line would read the new host (break-it
            # round 6, finding 3); refused before anything is written.
            why = (f"{name.text} is kept on purpose ({reason}), but the sweep rewrites what it reads ("
                   + "; ".join(w for w, _ in moved) + "): kept, it would read another name; keep the "
                   "definition too (the marker or a keep rule on its line), or drop the keep here")
            host = f"{name.prefix}{moved[0][1]}{name.suffix}"
            added.append(Match(name.start, name.end, f"{host}.{name.tail}",
                               _new_name(renamed, host, name.tail), "host", refused="kept-reference",
                               note=why))
            replaced.append((name.start, name.end))
            continue
        decided = _decide(name, renamed, definitions, rel, loop)
        if decided is None:
            continue
        if isinstance(decided, tuple):
            words = _listed_nearby(data, matches, name, _value_of(name, decided[0]), loop)
            if not words:
                notes.append((name.start, name.text, *decided))
                continue
            # An old name in a list beside a use whose values cannot be read (a loop syntax not
            # read, a lookup): never an OK, and nothing of the list written (break-it round 8, #5).
            spelled = ", ".join(f"{rel}:{_line_of(data, m.start)}" for m in words)
            why = (f"{name.text}: {decided[1].removeprefix('composed: ')}; {_value_of(name, decided[0])} "
                   f"stands in a list beside it ({spelled}) whose words it may read: the list is left as it "
                   f"is; write the moved host's name out, or split the list (the hosts that move apart, with "
                   f"their new domain), and rerun the sweep")
            new = _new_name(renamed, decided[0][:-len(name.tail) - 1], name.tail)
            added.append(Match(name.start, name.end, decided[0], new, "host", refused=REASON, note=why))
            replaced.append((name.start, name.end))
            for m in words:
                listed.setdefault(m.start, f"a word of a list beside {name.text} at {rel}:"
                                           f"{_line_of(data, name.start)}, which may read it: {why}")
            continue
        added += decided
        replaced.append((name.start, name.end))
        if loop is not None and any(m.refused == REASON for m in decided):
            split.append((loop, name.text))
    if not added:
        return matches, notes, split
    own = [(loop, text) for loop, text in split if loop.items is not None or loop.arguments]  # its own words
    matches = _loop_words_left(matches, own, rel)
    matches = [replace(m, refused=REASON, note=listed[m.start]) if m.start in listed and m.refused is None
               else m for m in matches]
    left = [m for m in matches if not any(start < m.end and m.start < end for start, end in replaced)]
    return sorted([*left, *added], key=lambda m: m.start), notes, split


def _line_of(data: bytes, pos: int) -> int:
    return data.count(b"\n", 0, pos) + 1


_NEARBY_LINES = 30  # how far above a composed use (or its loop's header) a list is read as its source


def _listed_nearby(data: bytes, matches: list[Match], name: ComposedName, value: str,
                   loop: Loop | None) -> list[Match]:
    """The rewrites of `value` (an old host the use would read wrong) standing in a list literal
    near `name`: from 30 lines above the use (or its loop's header) to its own line."""
    line = data.count(b"\n", 0, name.start) + 1
    first = max(1, min(line, loop.line if loop is not None else line) - _NEARBY_LINES)
    out = []
    for m in matches:
        if m.refused is not None or m.kept is not None or m.kind != "host" or m.old.split(".")[0] != value:
            continue
        if name.start <= m.start < name.end:
            continue
        at = data.count(b"\n", 0, m.start) + 1
        if first <= at <= line and _in_list(data, m.start, m.end):
            out.append(m)
    return out


_PIPED = lazy_re.compile(
    rb"\|[ \t]*(?:[\w./-]*/)?(?:xargs|parallel|while[ \t]+read)\b")  # `echo pug rex | xargs`
_BLOCK_ITEM = lazy_re.compile(rb"^[ \t]*-[ \t]+['\"]?$")  # a YAML block list's `- pug`


def _in_list(data: bytes, start: int, end: int) -> bool:
    """Does the word at [start, end) stand in a list: inside brackets on its line (`[pug, rex]`,
    `{pug,rex}`, `{pug: 1, rex: 2}`, `(foreach h,pug rex,`), in a quoted run of words (`"pug
    rex".split()`), after parallel's `:::`, piped into xargs, parallel or `while read`, as a YAML
    block item or key?"""
    line_start = data.rfind(b"\n", 0, start) + 1
    line_end = data.find(b"\n", end)
    line_end = len(data) if line_end == -1 else line_end
    before, after = data[line_start:start], data[end:line_end]
    opens = (sum(before.count(c) for c in (b"[", b"(", b"{"))
             - sum(before.count(c) for c in (b"]", b")", b"}")))
    if opens > 0 and any(c in after for c in (b"]", b")", b"}")):
        return True
    for quote in (b'"', b"'"):
        if before.count(quote) % 2 == 1 and quote in after:
            run = before[before.rfind(quote) + 1:] + data[start:end] + after[:after.find(quote)]
            if re.search(rb"[\s,]", run.strip()):
                return True
    if b":::" in before or _BLOCK_ITEM.match(before) or _PIPED.search(after):
        return True
    return bool(re.match(rb"^[ \t]*['\"]?[ \t]*:", after) and not before.strip(b" \t'\""))


def _loop_words_left(matches: list[Match], split: list[tuple[Loop, str]], rel: str) -> list[Match]:
    """A loop whose words cannot all follow keeps them as they are (`for n in pug rex`: rewriting
    pug alone would make the body's name wrong another way); each is the same residual."""
    out = []
    for m in matches:
        held = next(((loop, text) for loop, text in split
                     if (loop.words[0] <= m.start and m.end <= loop.words[1])
                     or any(start <= m.start and m.end <= end for start, end in loop.arguments)), None)
        if held is None or m.refused is not None or m.kept is not None:
            out.append(m)
            continue
        loop, text = held
        note = (f"a word of the loop at {rel}:{loop.line} ({loop.header}), whose body makes {text}: its "
                f"hosts move to different domains, so the loop is left as it is; split it (the hosts that "
                f"move in a loop of their own with their new domain) and rerun the sweep")
        if loop.function:
            note = (f"a word a call passes to {loop.header} ({rel}:{loop.line}), whose body makes {text} "
                    "with a domain of its own: rewritten alone it would make a name that does not exist; "
                    "give the moved host its own domain (a parameter, or the name written out), then rerun")
        out.append(replace(m, refused=REASON, note=note))
    return out


def _decide(name: ComposedName, renamed: dict[str, str], definitions: Known,
            rel: str, loop: Loop | None = None) -> list[Match] | tuple[str, str] | None:
    """The edits or the refusal for `name`, a note (the old name it may be, why), or None;
    `loop`: the loop binding its variable, whose values it reads instead of any definition."""
    template = name.template
    if template.builtin is not None and template.default is None and loop is None:
        # `$HOST` / `process.env.HOST` the repo defines (`.env`'s `HOST=pug`): its definitions say
        # what it holds (break-it round 19, finding 17); where they make no residual, the own name may
        if not template.variables or not definitions.values(template.variables[0], rel or None).found:
            return _builtin(name, renamed)
        decided = _decide(replace(name, template=replace(template, builtin=None)), renamed, definitions, rel)
        return decided if decided is not None else _builtin(name, renamed)
    if loop is not None and loop.hosts:
        return _inventory(name, renamed, loop, rel)
    values: list[_Value] = []
    unknown: list[str] = []
    if loop is not None:
        values, unknown = _loop_values(loop, definitions, rel)
    for variable in template.variables if loop is None else ():
        found = definitions.values(variable, rel or None)
        for r in found.found:
            fate = fate_of(r, definitions)
            values.append(_Value(r.value.strip(), r.why(), fate))
            if fate == "unknown":
                unknown.append(f"{r.why()}, in a file no allowlist rule covers: whether the sweep rewrites "
                               "it cannot be told")
        if not found.found:
            unknown += found.unknown
    if template.default is not None:
        if unknown and not values:
            return None  # `${X:-ana-ml2}.ana.lan`, X from the environment: decoded.py's split
        values.append(_Value(template.default, f"the default is {template.default}"))
    if not template.exact:
        unknown.append(f"`{template.variables[0]}` goes through a filter that changes it")
    # A kept definition holds the old host after the sweep too: the literal domain stays right.
    needs = {v: "" if v.fate == "kept" else _need(renamed, name, v.value) for v in values}
    broken = [v for v in values if needs[v] != ""]
    if not broken:
        if values:
            return None
        movers = _movers(name, renamed)
        if not movers:
            return None
        old, new = movers[0]
        return old, (f"composed: {unknown[0] if unknown else 'what it holds cannot be told'}; where it holds "
                     f"{_value_of(name, old)}, {name.text} is {old}, renamed {new}, and would read "
                     f"{_after(name, renamed, _value_of(name, old))}.{name.tail}")
    first = _source(renamed, broken[0].value)
    old = f"{name.prefix}{first}{name.suffix}.{name.tail}"
    new = _new_name(renamed, f"{name.prefix}{first}{name.suffix}", name.tail)
    targets = set(needs.values())
    if unknown or len(targets) != 1 or None in targets or (loop is not None and loop.function):
        why = _refusal(name, renamed, values, needs, unknown)
        if loop is not None and loop.function:
            why += (f"; `{loop.variable}` is a parameter of {loop.header} at {rel}:{loop.line}, whose "
                    "callers (here or elsewhere) may pass hosts that stay: the calls' words are left as they "
                    "are; give the moved host's name its own domain (a parameter, or the name written out) "
                    "and rerun the sweep")
        elif loop is not None:
            why += (f"; split the loop at {rel}:{loop.line} ({loop.header}): the hosts that move in a loop "
                    f"of their own with their new domain, the others as they are")
        return [Match(name.start, name.end, old, new, "host", refused=REASON, note=why)]
    [target] = targets
    assert target is not None
    if name.joined:  # `[h, 'ana.lan'] | join('.')`: the element itself
        edits = [Match(name.tail_start, name.tail_start + len(name.tail), name.tail, target, "host")]
    else:
        edits = [Match(name.tail_start - 1, name.end, f".{name.tail}", f".{target}", "host")]
    if template.default is not None and template.default_span is not None:
        word = renamed.get(template.default, template.default)
        if word != template.default:
            start, end = template.default_span
            edits.append(Match(start, end, template.default, word, "host"))
    return sorted(edits, key=lambda m: m.start)


def _loop_values(loop: Loop, definitions: Known, rel: str) -> tuple[list[_Value], list[str]]:
    """The values a loop gives its variable (its own words, or the words of the list variable it
    walks, each with the fate of the line spelling it), and why they cannot be told."""
    if loop.items is not None:
        fate = definitions.fate(rel, loop.line)
        where = "a call of" if loop.function else "the loop at"
        return [_Value(item, f"`{loop.variable}` is {item} in {where} {rel}:{loop.line}", fate)
                for item in loop.items], []
    if loop.source is None:
        return [], [f"{loop.why} (the loop at {rel}:{loop.line})"]
    items, unknown = definitions.list_items(loop.source, rel or None, loop.split, keys=loop.keys)
    if unknown:
        return [], [f"the loop at {rel}:{loop.line} walks `{loop.source}`: {unknown[0]}"]
    out = []
    for path, line, item in items:
        why = (f"`{loop.variable}` is {item} in the loop at {rel}:{loop.line}, "
               f"from `{loop.source}` at {path}:{line}")
        out.append(_Value(item, why, definitions.fate(path, line)))
    return out, []


def _rewritten(name: ComposedName, renamed: dict[str, str], definitions: Known,
               rel: str) -> list[tuple[str, str]]:
    """The definitions of `name`'s variables the sweep rewrites to another host's name: why, value."""
    out = []
    for variable in name.template.variables:
        for r in definitions.values(variable, rel or None).found:
            if r.value.strip() in renamed and fate_of(r, definitions) == "rewritten":
                out.append((f"{r.why()}, renamed {renamed[r.value.strip()]}", r.value.strip()))
    return out


def fate_of(found: Resolved, definitions: Known) -> Fate:
    """The fate of the definitions that spell `found`'s value (those naming no other variable):
    unknown where any is, else kept where any is, else rewritten."""
    leaves = [(path, line) for _, path, line, raw in found.via if not variable_values.names_variables(raw)]
    fates = {definitions.fate(path, line) for path, line in leaves}
    return "unknown" if "unknown" in fates else "kept" if "kept" in fates else "rewritten"


def _need(renamed: dict[str, str], name: ComposedName, value: str) -> str | None:
    """The domain `name` must end in for `value` to make its new name: "" where the literal one
    stays right, None where no domain can (the host part itself would read wrong)."""
    # A value that is already a new name (the definition rewritten, verify after the sweep) is
    # read as the old host it was: `NODE=fv-ml1` beside `${NODE}.ana.lan` still names nothing.
    source = _source(renamed, value)
    host = f"{name.prefix}{source}{name.suffix}"
    expected = _new_name(renamed, host, name.tail)
    after = _after(name, renamed, source)
    if expected == f"{after}.{name.tail}":
        return ""
    if expected.startswith(f"{after}."):
        return expected[len(after) + 1:]
    return None


def _source(renamed: dict[str, str], value: str) -> str:
    """The old host a value spelled new was (a definition already swept), else the value."""
    return value if value in renamed else {new: old for old, new in renamed.items()}.get(value, value)


def _after(name: ComposedName, renamed: dict[str, str], value: str) -> str:
    """The host part once the sweep has rewritten the value where it is defined."""
    return f"{name.prefix}{renamed.get(value, value)}{name.suffix}"


def _new_name(renamed: dict[str, str], host: str, tail: str) -> str:
    """What `host.tail` becomes: its own rename, else its host's rename in the domain's new name
    (or the same domain); a host the move does not rename keeps its name."""
    full = f"{host}.{tail}"
    if full in renamed:
        return renamed[full]
    if host in renamed:
        return f"{renamed[host]}.{renamed.get(tail, tail)}"
    return full


def _movers(name: ComposedName, renamed: dict[str, str]) -> list[tuple[str, str]]:
    """Renamed hosts that, held by the variable, would make `name` a name that does not exist."""
    out = []
    for old in renamed:
        host = old[:-len(name.tail) - 1] if old.endswith(f".{name.tail}") else None
        if host is None and name.tail in renamed and "." not in old:
            host = old  # a short name under a domain renamed itself
        if host is None or not (host.startswith(name.prefix) and host.endswith(name.suffix)):
            continue
        value = host[len(name.prefix):len(host) - len(name.suffix)]
        if value and _need(renamed, name, value) != "":
            out.append((f"{host}.{name.tail}", _new_name(renamed, host, name.tail)))
    return out


def _value_of(name: ComposedName, full: str) -> str:
    host = full[:-len(name.tail) - 1]
    return host[len(name.prefix):len(host) - len(name.suffix)]


def _builtin(name: ComposedName, renamed: dict[str, str]) -> list[Match] | None:
    """`{{ inventory_hostname }}.ana.lan`, `$(hostname).ana.lan`: the variable is each host's own
    name, so a host the move takes to another domain makes a name that does not exist there."""
    movers = _movers(name, renamed)
    if not movers:
        return None
    old, new = movers[0]
    value = _value_of(name, old)
    why = (f"{name.text}: `{name.template.builtin}` is each host's own name; on {value} (renamed "
           f"{new}) it reads {_after(name, renamed, value)}.{name.tail}, a name that does not exist; "
           f"use the host's own domain variable, or keep it with a keep rule where no moved host reads it")
    return [Match(name.start, name.end, old, new, "host", refused=REASON, note=why)]


def _inventory(name: ComposedName, renamed: dict[str, str], loop: Loop, rel: str) -> list[Match] | None:
    """`"{{ item }}.ana.lan"` under `loop: "{{ groups['web'] }}"`: the loop walks the inventory's
    hosts, so a host the move takes to another domain may be one of them (break-it round 7,
    finding 11): a residual, never an OK, since which hosts the group holds is the inventory's."""
    movers = _movers(name, renamed)
    if not movers:
        return None
    old, new = movers[0]
    value = _value_of(name, old)
    why = (f"{name.text}: the loop at {rel}:{loop.line} ({loop.header}) walks the inventory's hosts; where "
           f"it holds {value} (renamed {new}) it reads {_after(name, renamed, value)}.{name.tail}, a name "
           f"that does not exist; use each host's own domain variable, or loop over the moved hosts apart")
    return [Match(name.start, name.end, old, new, "host", refused=REASON, note=why)]


def _refusal(name: ComposedName, renamed: dict[str, str], values: list[_Value],
             needs: dict[_Value, str | None], unknown: list[str]) -> str:
    """Why no one literal domain is right: each value, what it needs, where it is defined."""
    parts = []
    for v in values:
        need = needs[v]
        full = f"{name.prefix}{v.value}{name.suffix}.{name.tail}"
        if v.fate == "kept":
            parts.append(f"{v.why}, kept: {full} keeps .{name.tail}")
        elif need == "":
            parts.append(f"{v.why}: {full} keeps .{name.tail}")
        elif need is None:
            parts.append(f"{v.why}: {full} cannot follow by its domain")
        else:
            source = _source(renamed, v.value)
            new = _new_name(renamed, f"{name.prefix}{source}{name.suffix}", name.tail)
            if source == v.value:
                parts.append(f"{v.why}: {full} becomes {new}")
            else:
                parts.append(f"{v.why}: {full} names nothing, {name.prefix}{source}{name.suffix}.{name.tail} "
                             f"is now {new}")
    parts += unknown
    return (f"{name.text}: no one domain is right for every value: " + "; ".join(parts)
            + f"; after the sweep the literal .{name.tail} would make a name that does not exist")
