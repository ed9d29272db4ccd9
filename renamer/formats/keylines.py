"""Keys read by line, for files no parser reads: a Jinja template, an INI-like `.conf`, a
YAML file broken by template tags.

A key-like line is a YAML-style `key:`, an INI `[section]` or a `key =` / `key=` line. Its
scope is the keys it is indented under (and the INI section it sits in); Jinja's
`{% if %}` / `{% elif %}` / `{% else %}` branches are alternatives, so two keys in different
branches of one `if` never meet; so are a Helm (Go) template's `{{- if }}` / `{{ else if }}` /
`{{ else }}` (and `range`, `with`, `define`, `block`, closed by `{{ end }}`). An edit set
collides when, after it, some key stands more often in one scope than it did before: two names
became one.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from renamer import lazy_re
from renamer.formats import entry_lists, siblings

_SECTION = lazy_re.compile(r"[ \t]*\[(?P<key>[^\[\]\n]+)\][ \t]*(?:[#;].*)?\Z")
_ITEM = lazy_re.compile(r"[ \t]*-[ \t]+")
_KEY = re.compile(r"[ \t]*(?:export[ \t]+)?(?P<key>\"[^\"\n]*\"|'[^'\n]*'|[^\s:=#;\[\]{}'\"]+)"
                  r"[ \t]*(?::(?=[ \t]|\Z)|=)")
# Jinja's `{% if %}` and a Go template's (Helm's) `{{- if }}`, `{{ else if }}`, `{{ range }}`...
_TAG = re.compile(r"\{%-?\+?[ \t]*(?P<word>\w+)|\{\{-?[ \t]*(?P<go>if|else|range|with|define|block|end)\b")
_OPENS = frozenset({"if", "for", "macro", "block", "call", "filter", "with", "raw", "range", "define"})
_BRANCHES = frozenset({"elif", "else"})
Branch = tuple[tuple[int, int], ...]  # (block id, branch number) of every enclosing Jinja block


@dataclass(frozen=True)
class KeyLine:
    line: int  # 1-based
    scope: tuple[str, ...]  # the section and the keys it is indented under
    key: str
    branch: Branch


def key_lines(text: str) -> list[KeyLine]:
    """Every key-like line of `text` with its scope and Jinja branch."""
    out: list[KeyLine] = []
    parents: list[tuple[int, str]] = []  # (indent, key) of the enclosing keys
    section = ""
    blocks: list[tuple[int, int]] = []
    opened = 0
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.rstrip("\r")
        for tag in _TAG.finditer(line):
            word = tag.group("word") or tag.group("go")
            if word in _OPENS:
                opened += 1
                blocks.append((opened, 0))
            elif word in _BRANCHES and blocks:
                block, branch = blocks[-1]
                blocks[-1] = (block, branch + 1)
            elif word.startswith("end") and blocks:
                blocks.pop()
        if "{%" in line or "{#" in line or not line.strip() or line.lstrip()[:1] in "#;":
            continue
        if (found := _SECTION.match(line)) is not None:
            section, parents = found.group("key").strip(), []
            out.append(KeyLine(number, (), "[" + section + "]", tuple(blocks)))
            continue
        indent = len(line) - len(line.lstrip(" \t"))
        while parents and parents[-1][0] >= indent:
            parents.pop()
        item = _ITEM.match(line)
        if item is not None:  # a list item: its keys are its own, never its siblings'
            parents.append((indent, f"-{number}"))
            indent = item.end()
        found = _KEY.match(line, item.end() if item else 0)
        if found is None:
            continue
        key = found.group("key").strip("\"'")
        if "{{" in line[:found.end()]:
            key = f"{{{{template@{number}}}}}"  # a templated key is unique: its children are its own
        else:
            out.append(KeyLine(number, (section, *(k for _, k in parents)), key, tuple(blocks)))
        parents.append((indent, key))
    return out


def _meet(a: Branch, b: Branch) -> bool:
    """Both lines can be rendered together: in each Jinja block they share, the same branch."""
    branches = dict(a)
    return all(branches.get(block, branch) == branch for block, branch in b)


def _groups(lines: list[KeyLine]) -> dict[tuple[tuple[str, ...], str], list[KeyLine]]:
    groups: dict[tuple[tuple[str, ...], str], list[KeyLine]] = {}
    for key_line in lines:
        groups.setdefault((key_line.scope, key_line.key), []).append(key_line)
    return groups


def _clashes(group: list[KeyLine]) -> int:
    return sum(1 for i, a in enumerate(group) for b in group[i + 1:] if _meet(a.branch, b.branch))


def collision(before: str, after: str) -> str | None:
    """Where the edited text holds a key twice in one scope that the original did not, or a
    sibling label (a block's head, an HAProxy section, an inventory host line: siblings.py)
    twice among its siblings, a key twice in one bracketed list on any layout or a UCI section
    twice (entry_lists.py); else None."""
    return (_key_collision(before, after) or siblings.collision(before, after)
            or entry_lists.collision(before, after))


def _key_collision(before: str, after: str) -> str | None:
    earlier = key_lines(before)
    old = Counter({name: _clashes(group) for name, group in _groups(earlier).items()})
    was = {k.line: k.key for k in earlier}
    for (scope, key), group in sorted(_groups(key_lines(after)).items(), key=lambda g: g[1][0].line):
        if _clashes(group) > old[(scope, key)]:
            lines = ", ".join(str(k.line) for k in group)
            # Named at the key that stood there already, where the edits add no line (they never do).
            standing = next((k.line for k in group if was.get(k.line) == key), group[-1].line)
            kind = "section" if key.startswith("[") else "key"
            where = ".".join(s for s in scope if s)
            inside = f" under {where}" if where else ""
            return (f"line {standing}: after the rename the {kind} {key!r}{inside} would stand "
                    f"twice (lines {lines}): a renamed {kind} would collide with an existing one")
    return None
