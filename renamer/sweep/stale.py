"""Exemptions that matched nothing: reported so allowlists do not rot."""

from __future__ import annotations

from dataclasses import dataclass

from renamer.allowlist import Allowlist
from renamer.sweep.model import KEPT, Reference


@dataclass(frozen=True)
class Stale:
    kind: str  # record | keep
    name: str
    source: str


def stale_exemptions(allowlist: Allowlist, refs: list[Reference]) -> list[Stale]:
    """The user's own record classes and keep rules that kept no reference (presets aside)."""
    used = {r.reason for r in refs if r.status == KEPT}
    out = [Stale("record", r.name, r.source) for r in allowlist.records
           if not r.inherited and r.name not in used]
    out += [Stale("keep", k.name, k.source) for k in allowlist.keep
            if not k.inherited and k.name not in used]
    return out
