"""Exemptions that kept nothing: reported so allowlists do not rot.

Two cases read differently: a rule whose paths match no file at all is *stale* (a
wrong or outdated pattern: `audit --strict` fails on it); a rule whose paths match
files that hold no old value *kept nothing this time*, which is right for a rename
that does not touch that history, and only reported.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from renamer.allowlist import Allowlist, Exemption
from renamer.classify import PathPatterns
from renamer.sweep.model import KEPT, SKIPPED, Reference, ScanResult

ExemptionKind = Literal["record", "keep"]  # a record class, or a keep rule


@dataclass(frozen=True)
class Stale:
    kind: ExemptionKind
    name: str
    source: str
    files: int = 0  # files its paths match (none held an old value); 0: matches no file
    # a `key:` rule whose files hold old values it kept none of: why it is stale all the same
    why: str = ""
    # files it matches that were skipped unread (too large, not decodable...): never asked, so
    # neither stale nor "kept nothing" (break-it round 24, finding 17); never pruned
    unread: tuple[str, ...] = ()

    @property
    def is_stale(self) -> bool:
        """Stale (what `audit --strict` fails on), not merely idle this time."""
        return not self.files or bool(self.why)

    @property
    def wording(self) -> str:
        if not self.files:
            return "matched nothing"
        if self.why:
            return self.why
        if self.unread:
            more = f" (and {len(self.unread) - 1} more)" if len(self.unread) > 1 else ""
            return (f"not asked this time: {self.unread[0]}{more}, which it matches, was skipped unread "
                    "(listed under Skipped), so whether it keeps a line there is unknown; kept until the "
                    "file is read")
        files = f"{self.files} file{'s' if self.files != 1 else ''}"
        return f"kept nothing this time ({files} match, none holds an old value)"


# A resource address (`terraform_data.web`, `module.m.aws_instance.x`, `data.t_x.y`): a keep rule
# with it as `line_contains` accepts a planned replace of it (verify --terraform, cli/plan_guard.py),
# whether or not it keeps a line; a type has a provider prefix, `NAME_`, which no host name has.
_ADDRESS = re.compile(r"(?:module\.[A-Za-z_][\w-]*\.)*(?:data\.)?[a-z0-9]+_[\w-]*\.[A-Za-z_][\w-]*")


def accepts_a_plan(contains: str | None, patterns: Sequence[str], paths: Sequence[str]) -> bool:
    """Whether a keep rule is the plan guard's acceptance of a replace: never stale, never pruned."""
    if contains is None or not _ADDRESS.fullmatch(contains):
        return False
    spec = PathPatterns(patterns)
    return any(p.endswith(".tf") and spec.match_file(p) for p in paths)


def stale_exemptions(allowlist: Allowlist, refs: list[Reference], paths: Sequence[str] = ()) -> list[Stale]:
    """The user's own record classes and keep rules that kept no reference (presets aside)."""
    used = {r.reason for r in refs if r.status == KEPT}
    rules: list[tuple[ExemptionKind, str, str, tuple[str, ...]]]
    rules = [("record", r.name, r.source, r.patterns) for r in allowlist.records
             if not r.inherited and r.name not in used]
    rules += [("keep", k.name, k.source, k.patterns) for k in allowlist.keep
              if not k.inherited and k.name not in used
              and not accepts_a_plan(k.line_contains, k.patterns, paths)]
    keys = {k.name: k.key for k in allowlist.keep if k.key is not None}
    out = []
    for kind, name, source, patterns in rules:
        spec = PathPatterns(patterns)
        why = ""
        keyed = kind == "keep" and name in keys
        holding = sorted({r.path for r in refs if spec.match_file(r.path)}) if keyed else []
        if holding:  # break-it t26-32, finding 05: a typo'd path, a file that does not parse
            why = (f"stale: its key path `{keys[name]}` stands at none of the old values {holding[0]}"
                   f"{f' (and {len(holding) - 1} more)' if len(holding) > 1 else ''} holds (no such path, a "
                   "file its format cannot parse, or a format with no key paths), so the sweep rewrites them")
        # break-it round 24, finding 17: a file skipped unread (over max_file_size...) was never asked
        unread = tuple(sorted({r.path for r in refs if r.status == SKIPPED and spec.match_file(r.path)}))
        out.append(Stale(kind, name, source, sum(1 for p in paths if spec.match_file(p)), why,
                         () if why else unread))
    return out


def dead_keep_rules(allowlist: Allowlist, scan: ScanResult) -> list[Stale]:
    """The `key:` keep rules that kept nothing though their files hold old values: said by the sweep
    itself, not only by audit, since it rewrites what they were written to keep (t26-32, finding 05)."""
    if not any(k.key is not None and not k.inherited for k in allowlist.keep):
        return []
    return [s for s in stale_exemptions(allowlist, scan.references(), scan.paths) if s.why]


def expired_exemptions(allowlist: Allowlist, today: dt.date) -> list[Exemption]:
    """Record classes and keep rules whose `expires:` day has passed: verify fails naming them."""
    return [e for e in (*allowlist.records, *allowlist.keep) if e.expired(today)]
