"""A bare host word a machine's search list qualifies follows only where the name does.

With `search ana.lan` (resolv.conf, resolved's `Domains=`, netplan, NetworkManager, dhclient,
cloud-init: renamer/search_lists.py), a bare `pug` on that machine is looked up as pug.ana.lan.
Where the rename moves the host to another domain (`pug.ana.lan -> wolf.fv.lan`) and the list
does not hold the new one, `wolf` rewritten alone is looked up as wolf.ana.lan, which does not
exist: each such word of a file of that machine is a `composed-name` residual. A machine is the
folder holding the configuration's `etc` (else its folder); where the repo holds one such
configuration, every file is of it. Only a domain the rename moves out of is read: a search list
of other domains composes nothing the rename breaks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from renamer import search_lists
from renamer.occurrences import Match
from renamer.sweep.content import read_content
from renamer.sweep.tool_names import _refused, _words


def machine_searches(root: Path, files: Sequence[str], limit: int,
                     record: Callable[[str], bool] = lambda rel: False,
                     ) -> Scopes:
    """(machine folder, its search domains, the configuration) for each configuration of the
    repo that sets a search list ('' for the folder: the whole repo); a record's is none."""
    found: list[tuple[str, tuple[str, ...]]] = []
    for rel in files:
        if search_lists.kind(rel) is None or record(rel):
            continue
        content = read_content(f"{root}/{rel}", limit)
        if content is None or content.kind != "text":
            continue
        domains = search_lists.search_list(rel, content.data)
        if domains:
            found.append((rel, domains))
    if len(found) == 1:
        return (("", found[0][1], found[0][0]),)
    out: dict[str, tuple[tuple[str, ...], str]] = {}
    for rel, domains in sorted(found):
        folder = search_lists.machine(rel)
        before, conf = out.get(folder, ((), rel))
        out[folder] = (tuple(dict.fromkeys((*before, *domains))), conf)
    return tuple((folder, domains, conf) for folder, (domains, conf) in sorted(out.items()))


Scopes = tuple[tuple[str, tuple[str, ...], str], ...]


def scope_of(rel: str, scopes: Scopes) -> tuple[tuple[str, ...], str] | None:
    """The search list (and its configuration) of the machine `rel` is a file of: the deepest."""
    best: tuple[int, tuple[str, ...], str] | None = None
    for folder, domains, conf in scopes:
        if (folder == "" or rel.startswith(folder + "/")) and (best is None or len(folder) > best[0]):
            best = (len(folder), domains, conf)
    return (best[1], best[2]) if best is not None else None


def machine_search_matches(data: bytes, rel: str, matches: list[Match], hosts: tuple[tuple[str, str], ...],
                           scopes: Scopes) -> list[Match]:
    """A file's bare host words its machine's search list qualifies: refused where the rename
    would break the name they are looked up as."""
    if not scopes or not matches:
        return matches
    scope = scope_of(rel, scopes)
    if scope is None:
        return matches
    domains, conf = scope
    how = f"the search list `{' '.join(domains)}` {conf} sets for this machine"
    return _refused(search_lists.looked_up(data, _words(hosts), domains, how), matches, hosts)


def line_holder(scopes: Scopes, hosts: tuple[tuple[str, str], ...]) -> Callable[[str, str], bool] | None:
    """Whether a current file's line holds a word machine_search_matches refuses (path, the
    line's text): a definition the sweep leaves as it is, which a composed name elsewhere
    (`${NODE}.ana.lan` beside `NODE=pug`) then reads as kept."""
    if not scopes:
        return None
    words = _words(hosts)

    def holds(path: str, text: str) -> bool:
        scope = scope_of(path, scopes)
        if scope is None:
            return False
        found = search_lists.looked_up(text.encode(), words, scope[0], "")
        return any(m.refused is not None for m in _refused(found, [], hosts))

    return holds
