"""Files one reader loads together: a config directory's top-level labels are one sibling set.

nginx's `include conf.d/*.conf;` and HAProxy's `-f /etc/haproxy/conf.d/` read every file of a
folder as one text: an `upstream wolf` in `a.conf` and another in `b.conf` are two upstreams of
one name (`nginx -t`: "duplicate upstream"), `backend wolf` in `10-a.cfg` and `20-b.cfg` two
backends. The sibling check of one file (formats/siblings.py) never sees them. A config directory
is the `.conf` or `.cfg` files of one folder whose name says so (`conf.d`, `*.d`,
`sites-enabled`, `*-enabled`) or whose files are numbered fragments (`10-a.cfg`, `20-b.cfg`); a
top-level label (a brace block's head at the top of its file, an HAProxy section, an nginx
`server_name` on one listen at the top) that stands more often across the set after the edits
than before (and more than once) is a collision, named at both files' lines (break-it round 9 #5).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping

from renamer.formats.siblings import Label, labels, servers

_SUFFIXES = (".conf", ".cfg")
_NUMBERED = re.compile(r"\d+[-_.]")
_TOP = (("block", 0), ("haproxy",))


def sets(paths: Iterable[str]) -> list[list[str]]:
    """The config directories among `paths`, each its files in path order."""
    by: dict[tuple[str, str], list[str]] = {}
    for path in paths:
        folder, _, name = path.rpartition("/")
        suffix = next((s for s in _SUFFIXES if name.endswith(s) and len(name) > len(s)), None)
        if suffix is not None:
            by.setdefault((folder, suffix), []).append(path)
    out = []
    for (folder, _), files in sorted(by.items()):
        base = folder.rpartition("/")[2]
        numbered = sum(1 for f in files if _NUMBERED.match(f.rpartition("/")[2]))
        if len(files) > 1 and (base.endswith((".d", "-enabled")) or numbered > 1):
            out.append(sorted(files))
    return out


def _top(text: str) -> list[Label]:
    return [label for label in labels(text) + servers(text)
            if label.scope in _TOP or (label.scope[0] == "server_name" and label.scope[1] == 0)]


def collision(texts: Mapping[str, tuple[str, str]]) -> tuple[str, int, str] | None:
    """(path, line, why) where the files of one set (path -> (before, after)) hold a top-level
    label more often after than before, and more than once; None otherwise. Named at the place
    that stood there before."""
    before: Counter[tuple[tuple[object, ...], str]] = Counter()
    was: set[tuple[str, int, str]] = set()
    after: dict[tuple[tuple[object, ...], str], list[tuple[str, int]]] = {}
    for path, (old, new) in sorted(texts.items()):
        for label in _top(old):
            before[(label.scope, label.label)] += 1
            was.add((path, label.line, label.label))
        for label in _top(new):
            after.setdefault((label.scope, label.label), []).append((path, label.line))
    for (scope, name), places in sorted(after.items(), key=lambda item: item[1][0]):
        if len(places) > max(before[(scope, name)], 1) and len({p for p, _ in places}) > 1:
            path, line = next(((p, n) for p, n in places if (p, n, name) in was), places[-1])
            listed = ", ".join(f"{p}:{n}" for p, n in places)
            kind = {"server_name": "server_name", "haproxy": "section"}.get(str(scope[0]), "block")
            return (path, line, f"the {kind} {name!r} would stand twice in one config directory, whose "
                                f"files are read as one ({listed}): a renamed {kind} would collide with an "
                                "existing one")
    return None
