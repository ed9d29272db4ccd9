"""Names built from a domain variable the repo defines (break-it round 3, finding 9).

`url: https://ana-ml2.{{ domain }}/` beside `domain: ana.lan` in group_vars (or `ana-ml2.${DOMAIN}`
beside `DOMAIN=ana.lan` in an `.env`) is ana-ml2.ana.lan to every consumer, and no byte spells it.
Where the rename of that FQDN is not already followed by a plain rewrite of its label (a host
rename `ana-ml2 -> fv-ml1` with the FQDN's rename keeping the domain: `fv-ml1.{{ domain }}` is
then the new FQDN), it is a residual `templated-name` naming the variable and the file:line that
defines it as the old domain (or the template's own default, `default('ana.lan')`,
`${DOMAIN:-ana.lan}`); any plain match of the label inside it is refused with it (rewriting the
label alone would leave the old domain). Where the repo defines the variable nowhere (or only
as another template), what it holds cannot be told: a near-miss note, never silence. A variable
the repo defines only as other domains makes no finding: the name is another machine.

The definitions are asked of git (`git grep`, sweep/../vcs_status.py) once per variable and
process, and only for a file that holds `label.{{` or `label.$` for an old FQDN's label.
"""

from __future__ import annotations

import re
from pathlib import Path

from renamer import templated_names, vcs_status
from renamer.occurrences import Match
from renamer.templated_names import TemplatedName

Definition = tuple[str, int, str]  # path, line, value


class Definitions:
    """Where the repo defines each variable (its work tree, through git grep), asked lazily."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._found: dict[str, list[Definition]] = {}

    def of(self, variable: str) -> list[Definition]:
        if variable not in self._found:
            name = re.escape(variable)
            lines = vcs_status.worktree_lines_matching(
                self.root, rf"(^|[^A-Za-z0-9_]){name}[[:space:]]*[:=]") or []
            found = []
            for path, number, text in lines:
                value = templated_names.defined_value(text, variable)
                if value is not None:
                    found.append((path, number, value))
            self._found[variable] = found
        return self._found[variable]


# Left by templated_matches for the caller: (start, the name as written, what it may be, why).
Note = tuple[int, str, str, str]


def templated_matches(data: bytes, matches: list[Match], hosts: tuple[tuple[str, str], ...],
                      definitions: Definitions) -> tuple[list[Match], list[Note]]:
    """`matches` with each templated name the repo makes an old FQDN refused `templated-name`
    (`Match.note` says which variable, defined where); and a note for each one whose variable the
    repo defines nowhere."""
    labels = templated_names.labels_of(hosts)
    if not labels or not templated_names.might_hold(data, templated_names.literals(labels)):
        return matches, []
    renamed = dict(hosts)
    added: list[Match] = []
    notes: list[Note] = []
    for name in templated_names.find(data, labels):
        if any(m.refused is not None and m.start < name.end and name.start < m.end for m in matches):
            continue  # inside a range or a split already: one residual is enough
        known = [d for d in definitions.of(name.variable) if not _templated(d[2])]
        for old, new, domain in name.candidates:
            why = _why(name, old, domain, known)
            label = old[:len(old) - len(domain) - 1]
            follows = renamed.get(label)  # a plain rewrite of the label: right if the domain stays
            if why is not None:
                if follows is not None and new == f"{follows}.{domain}":
                    break
                added.append(Match(name.start, name.end, old, new, "host", refused="templated-name",
                                   note=why))
                break
            if not known:
                held = domain[:len(domain) - len(name.tail)] if name.tail else domain
                notes.append((name.start, name.text, old,
                              f"templated: `{name.variable}` is defined nowhere in the repo; where it holds "
                              f"{held}, this is {old}"))
                break
    if not added:
        return matches, notes
    kept = [m for m in matches if not any(a.start < m.end and m.start < a.end for a in added)]
    return sorted([*kept, *added], key=lambda m: m.start), notes


def _why(name: TemplatedName, old: str, domain: str, known: list[Definition]) -> str | None:
    """Why `name` is `old` (the variable, then `name.tail`, spelling `domain`): the definition, or
    where the repo defines it nowhere the template's default, that makes it so."""
    for path, line, value in known:
        if templated_names.same_domain(value, name.tail, domain):
            return f"{name.text} is {old}: `{name.variable}` is {value} at {path}:{line}"
    default = name.default
    if not known and default is not None and templated_names.same_domain(default, name.tail, domain):
        return (f"{name.text} is {old}: `{name.variable}` is defined nowhere in the repo and its default "
                f"is {name.default}")
    return None


def _templated(value: str) -> bool:
    """A value that is a template itself (`{{ base }}`, `${BASE}`): what it holds is unknown."""
    return "{{" in value or "${" in value or value.startswith("$")
