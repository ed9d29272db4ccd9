"""What a variable holds, followed through the variables its definitions name.

`domain: "{{ base_domain }}"` beside `base_domain: ana.lan`, `DOMAIN=${BASE}` beside `BASE=ana.lan`,
Terraform's `locals { domain = var.base }` beside `variable "base" { default = "ana.lan" }`: the
value is ana.lan, though the line defining the variable spells none (break-it round 4, finding 4).
Each definition's value is expanded: every variable it names (`${X}`, `${X:-word}`, `$X`,
`{{ x }}`, `{{ x | default('word') }}`, a Terraform `var.x` or `local.x`) replaced by each value of
that variable, looked up the same way, at most `DEPTH` definitions deep; a variable that names
itself again on the way (`A=${B}`, `B=${A}`) is a cycle, refused: what it holds is unknown, and
said so. A value computed when it runs (`$(cat /etc/domain)`, backticks, a Jinja filter that
changes the text) is unknown too. Pure: definitions come from the `lookup` the caller passes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from renamer import lazy_re

Definition = tuple[str, int, str]  # path, line, the value as written
Lookup = Callable[[str], Sequence[Definition]]
Step = tuple[str, str, int, str]  # variable, path, line, value as written

DEPTH = 8  # definitions followed through variables, at most
WIDTH = 32  # values of one variable, at most (a product of several variables' values)

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_REFERENCE = re.compile(
    r"\$\{(?P<svar>" + _NAME + r"(?:\." + _NAME + r")*)(?:(?P<op>:?[-=])(?P<sdef>[^}\n]*))?\}"
    r"|\{\{-?[ \t]*(?P<jvar>" + _NAME + r"(?:\." + _NAME + r")*)[ \t]*"
    r"(?P<filters>(?:[^}\n]|\}(?!\}))*?)-?\}\}"
    r"|\$(?P<bvar>" + _NAME + r")"
    r"|(?<![A-Za-z0-9_.])(?:var|local)\.(?P<tvar>" + _NAME + r")(?![A-Za-z0-9_.(\[])")
_DEFAULT = lazy_re.compile(r"\|[ \t]*(?:default|d)[ \t]*\([ \t]*(['\"])(?P<value>[^'\"\n]*)\1")
_FILTER = lazy_re.compile(r"\|[ \t]*(?P<name>[A-Za-z_][A-Za-z0-9_]*)")
# Filters that leave a host name or domain as it is (DNS names are read in any case).
_KEEPING = frozenset({"default", "d", "lower", "upper", "trim", "string", "mandatory"})
_COMPUTED = lazy_re.compile(r"\$\(|`")


@dataclass(frozen=True)
class Resolved:
    """One value a variable may hold, and the definitions that give it, outermost first."""

    value: str
    via: tuple[Step, ...]

    def why(self) -> str:
        """`domain` is {{ base }} at a.yml:1, `base` is ana.lan at b.yml:2."""
        return ", ".join(f"`{variable}` is {raw} at {path}:{line}" for variable, path, line, raw in self.via)


@dataclass(frozen=True)
class Values:
    """What a variable may hold: the values the repo gives it, and why others cannot be told."""

    found: tuple[Resolved, ...]
    unknown: tuple[str, ...]


def resolve(variable: str, lookup: Lookup, depth: int = DEPTH) -> Values:
    """Every value `variable` may hold, its definitions followed through other variables."""
    return _resolve(variable, lookup, (), depth, {}).values


@dataclass(frozen=True)
class _Found:
    """One variable's values, the variables its resolution looked at (itself included), and the
    variables above it in the chain it met again (a cycle through them)."""

    values: Values
    visited: frozenset[str]
    met: frozenset[str]


# Each variable's values at each depth, reused within one `resolve`: a .env or vars file where
# many variables name the same few others was followed once per path to them, exponentially (a
# repo of 32 definitions made 576,000 calls and a sweep of over 10 minutes). A result is reused
# only where it cannot differ: made with no cycle through a variable above it, and reached again
# with none of the variables it looked at above it (else the cycle is found anew).
_Memo = dict[tuple[str, int], _Found]


def _resolve(variable: str, lookup: Lookup, chain: tuple[str, ...], depth: int, memo: _Memo) -> _Found:
    if variable in chain:
        cycle = (*chain[chain.index(variable):], variable)
        return _Found(Values((), (f"`{variable}` is defined through a cycle ({' -> '.join(cycle)})",)),
                      frozenset({variable}), frozenset({variable}))
    known = memo.get((variable, depth))
    if known is not None and known.visited.isdisjoint(chain):
        return known
    if depth <= 0:
        return _Found(Values((), (f"`{variable}` is defined through more than {DEPTH} variables",)),
                      frozenset({variable}), frozenset())
    definitions = lookup(variable)
    if not definitions:
        return _Found(Values((), (f"`{variable}` is defined nowhere in the repo",)),
                      frozenset({variable}), frozenset())
    found: list[Resolved] = []
    unknown: list[str] = []
    visited = {variable}
    met: set[str] = set()
    for path, line, raw in definitions:
        step = (variable, path, line, raw)
        if _COMPUTED.search(raw):
            unknown.append(f"`{variable}` is {raw} at {path}:{line}, computed when it runs")
            continue
        options, why = _expand(raw, lookup, (*chain, variable), depth - 1, memo, visited, met)
        unknown += [f"`{variable}` is {raw} at {path}:{line} and {reason}" for reason in why]
        found += [Resolved(value, (step, *via)) for value, via in options]
    met.discard(variable)  # a cycle through this variable is its own, whatever lies above it
    result = _Found(Values(tuple(_unique(found)[:WIDTH]), tuple(dict.fromkeys(unknown))),
                    frozenset(visited), frozenset(met))
    if not met:
        memo[(variable, depth)] = result
    return result


def _expand(raw: str, lookup: Lookup, chain: tuple[str, ...], depth: int, memo: _Memo, visited: set[str],
            met: set[str]) -> tuple[list[tuple[str, tuple[Step, ...]]], list[str]]:
    """`raw` with each variable it names replaced by each of its values: (value, via) pairs, and
    why a reference gives no value. The variables looked at go into `visited`, the cycles met
    into `met`."""
    partial: list[tuple[str, tuple[Step, ...]]] = [("", ())]
    unknown: list[str] = []
    last = 0
    for ref in _REFERENCE.finditer(raw):
        name, default, keeps = _reference(ref)
        literal = raw[last:ref.start()]
        last = ref.end()
        if not keeps:
            return [], [f"`{name}` goes through a filter that changes it"]
        inner = _resolve(name, lookup, chain, depth, memo)
        visited |= inner.visited
        met |= inner.met
        options = [(r.value, r.via) for r in inner.values.found]
        if not options and default is not None:
            options = [(default, ())]  # the variable is defined nowhere: the default holds
        else:
            unknown += list(inner.values.unknown)
        if not options:
            return [], unknown
        partial = [(head + literal + value, via + more) for head, via in partial
                   for value, more in options][:WIDTH]
    return [(head + raw[last:], via) for head, via in partial], unknown


def _reference(ref: re.Match[str]) -> tuple[str, str | None, bool]:
    """(the variable's own name, its default, whether every filter keeps the text)."""
    if ref.group("svar") is not None:
        name = ref.group("svar").rsplit(".", 1)[-1]  # Terraform's `${var.base}`
        default = ref.group("sdef") if ref.group("op") is not None else None
        return name, default, True
    if ref.group("jvar") is not None:
        filters = ref.group("filters") or ""
        keeps = all(f.group("name") in _KEEPING for f in _FILTER.finditer(filters))
        found = _DEFAULT.search(filters)
        return ref.group("jvar").rsplit(".", 1)[-1], found.group("value") if found else None, keeps
    return ref.group("bvar") or ref.group("tvar"), None, True


def _unique(found: list[Resolved]) -> list[Resolved]:
    """One of each value per set of definitions giving it: two files defining the same value are
    two values to a caller that asks each definition's fate (one kept, one rewritten)."""
    seen: set[tuple[str, tuple[tuple[str, int], ...]]] = set()
    out = []
    for item in found:
        key = (item.value, tuple((path, line) for _, path, line, _ in item.via))
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out


def referenced(raw: str) -> list[str]:
    """The variables a definition's value names, as `resolve` looks each up (the superset: those
    after a filter that changes the text too)."""
    return [_reference(ref)[0] for ref in _REFERENCE.finditer(raw)]


def names_variables(raw: str) -> bool:
    """Does a value name another variable (or compute itself when it runs)?"""
    return bool(_REFERENCE.search(raw) or _COMPUTED.search(raw))
