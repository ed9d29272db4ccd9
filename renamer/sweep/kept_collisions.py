"""Collisions the sweep listed, still said once written (t31 round 24, finding 28).

Before the sweep, `collisions` lists a new value that already stands in a structured file the
sweep also rewrites an old value in (netplan's `addresses: [10.0.0.70/24]` beside its own gateway
`via: 10.0.1.1` under `10.0.0.70 -> 10.0.1.1`; an inventory's `web01 ansible_host=10.0.0.70` beside
`web02 ansible_host=10.0.0.71` under `10.0.0.70 -> 10.0.0.71`), and promises that `verify --strict`
fails on it. After the sweep no old value is left to rewrite, so that check finds nothing and
`written_collisions` reads identities only (keys, heads), not values: the promise was broken.

Here (addresses only), where the history records the move (its first commit's parent), a current
structured file whose version before the move held both an old value and the new value it becomes,
and that holds the new value more often now than then (the move wrote it beside the one that
stood), is the same collision, written: a strict failure, until it is decided by hand (a keep
rule, or the file fixed so the new value stands no more often than before).
"""

from __future__ import annotations

from renamer import vcs_status
from renamer.classify import CURRENT
from renamer.formats import format_of
from renamer.match import new_values_matcher
from renamer.project import LoadedProject
from renamer.sweep.collisions import Collision, before_move
from renamer.sweep.lines import Lines

NOTE = "a collision the sweep listed before it wrote"


def _spots(data: bytes, value: str, address: bool) -> list[int]:
    """Where `value` stands in `data` as a whole value (the sweep's exact rule, its own needle)."""
    pair = [(value, value)]
    matcher = new_values_matcher([], pair) if address else new_values_matcher(pair, [])
    return [m.start for m in matcher.find(data) if m.old == value or m.new == value]


def kept_collisions(project: LoadedProject) -> list[Collision]:
    """Each collision a sweep of this move listed in a structured file before it wrote, standing
    now (see above); empty where the history records no commit of the move."""
    parent = before_move(project)
    if parent is None:
        return []
    renames = project.config.renames
    # Addresses only: two names standing apart by meaning or namespace are decided where they are
    # read (written_collisions reads identities: keys, heads), and a warning there stays a warning
    pairs = [(old, new, True) for old, new in renames.addresses]
    classifier = project.classifier
    found: list[Collision] = []
    for old, new, address in pairs:
        held_old = vcs_status.files_holding(project.root, parent, old) or frozenset()
        held_new = vcs_status.files_holding(project.root, parent, new) or frozenset()
        both = sorted(rel for rel in held_old & held_new
                      if classifier.classify(rel).status == CURRENT and (project.root / rel).is_file())
        if not both:
            continue
        then = vcs_status.blobs(project.root, [f"{parent}:{rel}" for rel in both])
        for rel in both:
            before = then.get(f"{parent}:{rel}")
            if before is None or not format_of(rel, before).structured:
                continue
            if not _spots(before, old, address):
                continue
            was = _spots(before, new, address)
            try:
                now_data = (project.root / rel).read_bytes()
            except OSError:
                continue
            now = _spots(now_data, new, address)
            if not was or len(now) <= len(was):
                continue
            lines = Lines(now_data)
            line, column, text = lines.position(now[0])
            found.append(Collision(rel, line, column, new, (old,), True, True, text, count=len(now),
                                   note=NOTE))
    return found
