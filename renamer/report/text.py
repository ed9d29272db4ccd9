"""Human-readable renderers: sweep summary, verify findings, audit table and markdown."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from renamer.allowlist import Exemption
from renamer.masking import mask_line
from renamer.name_limits import LIMIT
from renamer.near_miss import sentence
from renamer.prefix_moves import OUTSIDE, ZoneChange
from renamer.prefix_pools import TOOL
from renamer.sweep.collisions import Collision
from renamer.sweep.model import KEPT, NearMiss, Reference
from renamer.sweep.refusals import ROLE, SHRINK, Refusal, places
from renamer.sweep.stale import Stale
from renamer.sweep.summary import Summary, Verdict, serial_lines
from renamer.table import table
from renamer.words import plural


def collision_line(collision: Collision, *, strict: bool = False) -> str:
    """One collision, as verify prints it: an error only where `strict` fails on it."""
    c = collision
    where = f"{c.path}:{c.line}:{c.column}" if c.line else c.path
    key = f" [{mask_line(c.key_path)}]" if c.key_path else ""
    level = "error" if c.refused or (strict and c.strict_failure) else "warning"
    shown = f"\n    {mask_line(c.text)}" if c.text else ""
    return f"{where}{key}: {level}: collision: {c.message()}{shown}"


def location(ref: Reference) -> str:
    if ref.line == 0:
        return f"{ref.path}"
    return f"{ref.path}:{ref.line}:{ref.column}"


def change(ref: Reference) -> str:
    """`old -> new`, or the old value alone where there is no new one to write (a mask, a composed
    address or a reverse zone a person decides: `new` equal to `old`, or empty), never `X -> X`."""
    return f"{ref.old} -> {ref.new}" if ref.new and ref.new != ref.old else ref.old


def _where(ref: Reference) -> str:
    parts = []
    if ref.key_path:
        parts.append(mask_line(ref.key_path))  # a directive's key path is its line: `user bob password X`
    if ref.role and ref.role not in ("value",):
        parts.append(ref.role)
    return f" [{' '.join(parts)}]" if parts else ""


def explained(refs: Sequence[Reference]) -> tuple[list[str], list[str]]:
    """Each reference's pointer to its explanation, and each explanation shared by several
    references once (t35, finding 23: nine escaped spellings printed the same 458-character
    paragraph nine times). The pointer is "" for a reference whose explanation is its own (it
    stays on its line: said once there), else its class (`reason`, or the status where there is
    none), numbered where one class shares several explanations (`pattern #2`). `--verbose`
    prints the explanation on every line instead; JSON keeps each reference's `note` whole."""
    counts = Counter((ref.reason or ref.status, ref.note) for ref in refs if ref.note)
    shared: dict[str, list[str]] = {}
    for (klass, note), count in counts.items():
        if count > 1:
            shared.setdefault(klass, []).append(note or "")
    labels = []
    for ref in refs:
        klass = ref.reason or ref.status
        texts = shared.get(klass, [])
        if not ref.note or ref.note not in texts:
            labels.append("")
        else:
            labels.append(klass if len(texts) == 1 else f"{klass} #{texts.index(ref.note) + 1}")
    why = [f"    {klass if len(texts) == 1 else f'{klass} #{number}'}: {text}"
           for klass, texts in shared.items() for number, text in enumerate(texts, 1)]
    if why:
        why.insert(0, "  Why, said once for the lines above sharing it (--verbose repeats it on each line):")
    return labels, why


def _pointed(ref: Reference, label: str) -> str:
    """A summary line's class and its own explanation, or the class alone where the explanation is
    said once below (with its number where its class has several)."""
    if not label:
        return f"{ref.reason}: {ref.note}"
    return f"{ref.reason}, why: {label}" if "#" in label else f"{ref.reason}"


def sweep_summary(summary: Summary, *, dry_run: bool, collisions: Sequence[Collision] = (),
                  refused: Sequence[Refusal] = (), zones: Sequence[ZoneChange] = (),
                  verbose: bool = False) -> str:
    verb = "would change" if dry_run else "changed"
    lines = [f"Summary: {verb} {summary.files_changed} file{'s' if summary.files_changed != 1 else ''}"
             f" ({len(summary.renames)} renamed), {plural(summary.replacement_total(), 'replacement')}"]
    for (old, new), count in sorted(summary.replacements.items()):
        lines.append(f"  {old} -> {new}: {count}")
    for old, new in summary.renames:
        lines.append(f"  rename {old} -> {new}")
    for link, old, new in summary.relinks:
        lines.append(f"  re-point link {link}: {old} -> {new}")
    for folder in summary.folders:
        lines.append(f"  folder {folder.old}/ -> {folder.new}/ moved whole; moved with its folder, "
                     f"not tracked by git: {', '.join(folder.untracked)}")
    lines += serial_lines(summary)
    lines += _pin_lines(summary, dry_run)
    lines += zone_lines(zones, collisions)
    if summary.derived:
        lines.append(f"Derived-name candidates, not renamed ({len(summary.derived)}; add a key, or set "
                     "options.derived_names for a short name's, `pug-ipmi` of `pug`):")
        for name, count in Counter(m.text for m in summary.derived).most_common():
            first = next(m for m in summary.derived if m.text == name)
            lines.append(f"  {name}: {count} (first at {first.path}:{first.line}:{first.column})")
    if summary.near_misses:
        count = len(summary.near_misses)
        lines.append(f"Near-misses, not rewritten: {count} (other spellings of an old value; "
                     "`renamer verify` lists them)")
    lines.append(f"Kept on purpose: {summary.kept_line() or 'nothing'}")
    if summary.past:
        lines.append(f"Looks like a record, rewritten unless you keep it ({len(summary.past)}: a date on or "
                     "before the cutover in its paragraph or heading, in a current-state prose file; a keep "
                     "rule, the inline marker or dated.sections keeps it):")
        lines += [f"  {p.path}:{p.line}: {p.old} (dated {p.date} at line {p.date_line})"
                  for p in summary.past]
    if summary.state_names:  # each one needs a hand: the state moved first, then the name edited
        lines.append(f"Terraform state names, kept ({len(summary.state_names)}; move the state first "
                     "(terraform state / workspace rename), then edit them by hand):")
        lines += [f"  {location(r)}: {r.old}" for r in summary.state_names]
    if summary.named_like:  # break-it round 17, #21: a kept path named exactly like a moving host
        lines.append(f"Warning: kept paths named exactly like a host the rename moves "
                     f"({len(summary.named_like)}; whatever finds them by the host's name finds nothing "
                     "under the new one: rename them with the host, or keep the host's name where they are "
                     "read):")
        lines += [f"  {r.path}: {r.old} -> {r.new}" for r in summary.named_like]
    # An address a shrink cannot place (a length its tool refuses) is a refusal, listed under Refused
    # below: not a residual too (t29-33, finding 19: each was counted twice).
    listed = {(r.path, r.line) for r in refused}
    stuck = [r for r in summary.stuck
             if not (r.reason in (OUTSIDE, TOOL, LIMIT) and (r.path, r.line) in listed)]
    if stuck:
        lines.append(f"Residual, left for you ({len(stuck)}):")
        if verbose:
            lines += [f"  {location(r)}: {r.old} ({r.reason}: {r.note})" for r in stuck]
        else:
            labels, why = explained(stuck)
            lines += [f"  {location(r)}: {r.old} ({_pointed(r, label)})"
                      for r, label in zip(stuck, labels, strict=True)]
            lines += why
    files = summary.unclassified_files()
    if files:
        lines.append(f"Unclassified, never rewritten ({plural(len(files), 'file')}, "
                     f"{plural(len(summary.unclassified), 'reference')}):")
        lines += [f"  {path}" for path in files]
    lines += _skipped_lines(summary)
    if collisions:
        lines.append(f"Collisions, new values already there ({len(collisions)}; `renamer verify --strict` "
                     "fails on those inside one structured file, and on what a grown network swallows):")
        lines += [f"  {line}" for c in collisions for line in collision_line(c).splitlines()]
    if refused:
        shrunk = sum(1 for r in refused if r.problem.startswith(SHRINK))
        placeless = sum(1 for r in refused if r.problem.startswith(ROLE))
        whys = []
        if len(refused) > shrunk + placeless:
            rest = [r for r in refused if not r.problem.startswith((SHRINK, ROLE))]
            whys.append(f"{places(rest)} would no longer parse, would collide or would dangle")
        if shrunk:
            whys.append(f"{plural(shrunk, 'address', 'addresses')} in use would fall outside a shrunk "
                        "network")
        if placeless:
            whys.append(f"{plural(placeless, 'host')} would land on a grown network's network address")
        lines.append(f"Refused: a sweep that writes stops before its first write ({'; '.join(whys)}; "
                     "decide each by hand or keep it):")
        lines += [f"  {r}" for r in refused]
    return "\n".join(lines) + "\n"


def zone_lines(zones: Sequence[ZoneChange], collisions: Sequence[Collision] = ()) -> list[str]:
    """The reverse zones each network move renames, needs, leaves or cannot write (prefix_moves.py).
    A zone to add that the repo declares already is a neighbour the grow swallows (a collision):
    said so beside it, never as a plain zone to add (t29-33, finding 16)."""
    if not zones:
        return []
    lines = ["Reverse zones the network moves change (`renamer verify` fails while the repo declares "
             "a moved network's zones but not every one it needs):"]
    swallowed = {c.value.lower().rstrip(".") for c in collisions if c.swallowed}
    for change in zones:
        lines += [f"  {change.move.old} -> {change.move.new}: {line}" for line in change.lines()]
        served = [zone for zone in change.add if zone in swallowed]
        if served:
            lines.append(f"  {change.move.old} -> {change.move.new}: {', '.join(served)} declared already: "
                         "another network's zone, which the grown network swallows (see Collisions)")
    return lines


def _pin_lines(summary: Summary, dry_run: bool) -> list[str]:
    """Pins rewritten with the files they name, and those a record keeps (residual ones are
    listed with the other residuals)."""
    lines = []
    updated = [p for p in summary.pins if p.status == "updated"]
    if updated:
        verb = "that would be updated" if dry_run else "updated"
        lines.append(f"Pins {verb} to the new bytes' digest ({len(updated)}):")
        lines += [f"  {p.path}:{p.line}:{p.column}: {p.what}: {p.old} -> {p.new}" for p in updated]
    kept = [p for p in summary.pins if p.status == "kept"]
    if kept:
        lines.append(f"Pins of the old bytes, kept ({len(kept)}):")
        lines += [f"  {p.path}:{p.line}:{p.column}: {p.what} ({p.why})" for p in kept]
    return lines


def expired_lines(expired: Sequence[Exemption]) -> list[str]:
    """One error line per exemption past its `expires:` day."""
    return [f"{e.where}: error: {e.label}" + (f" (owner: {e.owner})" if e.owner else "")
            + f" expired on {e.expires}: renew its `expires:`, or remove it (`renamer audit --prune`) "
            "and sweep what it keeps" for e in expired]


def _skipped_lines(summary: Summary) -> list[str]:
    """Skipped files holding old values, then the files that could not be scanned."""
    lines = []
    if summary.skipped:
        by_file = Counter((r.path, r.reason) for r in summary.skipped)
        lines.append(f"Skipped, holding old values ({plural(len(by_file), 'file')}):")
        lines += [f"  {path} ({reason}, {count})" for (path, reason), count in sorted(by_file.items())]
    return lines + _unscanned_lines(summary)


def _unscanned_lines(summary: Summary) -> list[str]:
    lines = []
    if summary.skipped_files:
        lines.append(f"Unreadable ({plural(len(summary.skipped_files), 'file')}):")
        lines += [f"  {path}: {why}" for path, why in summary.skipped_files]
    if summary.encrypted:  # what they hold cannot be told: verify --strict fails on them
        lines.append(f"Encrypted, not read ({plural(len(summary.encrypted), 'current-state file')}; "
                     "once each is checked by hand, exclude it in the allowlist or class it a record):")
        lines += [f"  {path}: {why}" for path, why in summary.encrypted]
    if summary.unread:  # a submodule, an excluded file spelling an old value: verify --strict fails
        lines.append(f"Not read ({plural(len(summary.unread), 'current-state place')} that may hold an old "
                     "value; verify --strict fails on them):")
        lines += [f"  {path}: {why}" for path, why in summary.unread]
    if summary.ignored_with_references:
        count = len(summary.ignored_with_references)
        lines.append(f"Ignored by git but covered by `current`, holding old values: {count} "
                     f"(not scanned; pass --include-ignored): "
                     + ", ".join(summary.ignored_with_references[:5]))
    if summary.ignored_with_old_paths:  # content clean, the path not: a name left behind
        count = len(summary.ignored_with_old_paths)
        lines.append(f"Ignored by git but covered by `current`, an old value in their path only: {count} "
                     f"(a sweep moves them only with a folder it moves whole; rename the others by hand): "
                     + ", ".join(summary.ignored_with_old_paths[:5]))
    return lines


def verify_report(summary: Summary, verdict: Verdict, expired: Sequence[Exemption] = (),
                  collisions: Sequence[Collision] = (), *, quiet: bool = False, verbose: bool = False) -> str:
    """The findings, then the verdict line (last, so a caller may colour it). `quiet` (-q): the
    findings that fail verify alone, with no warnings, lists or verdict line. Each residual's
    explanation is printed once per class after them (`explained`), on every line with `verbose`."""
    lines = expired_lines(expired)
    problems = summary.residual + summary.unclassified
    labels, why = explained(problems)
    for ref, klass in zip(problems, labels, strict=True):
        if verbose:
            label = ref.status if not ref.reason else f"{ref.status} ({ref.reason})"
            lines.append(f"{location(ref)}: {label}: {change(ref)}{_where(ref)}: {ref.note or ''}")
        elif klass:  # its explanation shared with other lines: said once, below
            label = ref.status if not ref.reason else f"{ref.status} ({ref.reason})"
            number = f" (why: {klass})" if "#" in klass else ""
            lines.append(f"{location(ref)}: {label}: {change(ref)}{_where(ref)}{number}")
        else:  # an explanation of its own: on its line, as ever
            label = ref.status if not ref.reason else f"{ref.status} ({ref.reason})"
            lines.append(f"{location(ref)}: {label}: {change(ref)}{_where(ref)}: {ref.note or ''}")
        if ref.text and ref.role != "path":
            lines.append(f"    {mask_line(ref.text)}")
    if not verbose:
        lines += [line[2:] for line in why]  # not indented: verify's findings start at the margin
    level = "error" if verdict.strict else "warning"
    if quiet:
        failing = summary.derived + summary.near_misses if verdict.strict else []
        lines += [_miss_line(miss, level) for miss in failing]
        lines += [collision_line(c, strict=True) for c in collisions if verdict.strict and c.strict_failure]
        return "".join(line + "\n" for line in lines)
    for miss in summary.derived + summary.near_misses:
        lines.append(_miss_line(miss, level))
    lines += _skipped_lines(summary)
    lines += [collision_line(c, strict=verdict.strict) for c in collisions]
    misses = verdict.near_misses
    extra = (f", {plural(verdict.expired, 'expired exemption')}" if verdict.expired else "") + (
        f", {plural(verdict.collisions, 'collision')}" if verdict.collisions else "") + (
        f", {plural(verdict.skipped, 'current-state file')} skipped unread" if verdict.skipped else "") + (
        f", {plural(verdict.encrypted, 'current-state file')} encrypted, not read"
        if verdict.encrypted else "") + (
        f", {plural(verdict.unread, 'current-state place')} not read" if verdict.unread else "")
    lines.append(f"verify: {verdict.word}: {verdict.residual} residual, "
                 f"{verdict.unclassified} unclassified, {misses} near-miss"
                 f"{'es' if misses != 1 else ''}{extra}, {plural(verdict.files_scanned, 'file')} scanned")
    return "\n".join(lines) + "\n"


def _miss_line(miss: NearMiss, level: str) -> str:
    why = f" ({miss.why})" if miss.why and miss.kind == "near-miss" else ""
    return (f"{miss.path}:{miss.line}:{miss.column}: {level}: {miss.kind}{why}: "
            f"{sentence(miss.text, miss.like, miss.why, miss.name)}")


def audit_table(summary: Summary, refs: list[Reference], stale: list[Stale], width: int | None = None) -> str:
    kept = [r for r in refs if r.status == KEPT]
    lines = [f"Kept on purpose: {plural(len(kept), 'reference')}"]
    for reason, count in summary.kept_sorted():
        lines.append("")
        lines.append(f"{reason} ({count}): {summary.kept_notes.get(reason, '')}")
        for ref in (r for r in kept if r.reason == reason):
            lines.append(f"  {ref.path}:{ref.line}  {ref.old}{_where(ref)}  {mask_line(ref.text)}")
    per_file = Counter(r.path for r in kept)
    if per_file:
        lines += ["", "Per file:"]
        rows = [["", ""], *([path, str(count)] for path, count in sorted(per_file.items()))]
        lines += table(rows, width=width, indent="  ").splitlines()[1:]  # no header: the heading says it
    for title, group in (("Residual", summary.residual), ("Unclassified", summary.unclassified),
                         ("Skipped", summary.skipped)):
        lines += ["", f"{title}: {len(group)}"]
        lines += [f"  {location(r)}  {r.old}{_where(r)}  {r.reason or ''} {mask_line(r.text)}".rstrip()
                  for r in group]
    idle = [s for s in stale if not s.is_stale and not s.unread]
    unasked = [s for s in stale if not s.is_stale and s.unread]  # its files skipped unread (round 24 #17)
    lines += ["", f"Stale exemptions: {len(stale) - len(idle) - len(unasked)}"]
    lines += [f"  {s.kind} {s.name} ({s.source}): {s.wording}" for s in stale if s.is_stale]
    if unasked:
        lines += ["", f"Not asked this time (a file it matches skipped unread): {len(unasked)}"]
        lines += [f"  {s.kind} {s.name} ({s.source}): {s.wording}" for s in unasked]
    if idle:
        lines += ["", f"Kept nothing this time: {len(idle)}"]
        lines += [f"  {s.kind} {s.name} ({s.source}): {s.wording}" for s in idle]
    lines += _unscanned_lines(summary)  # skipped references are listed above
    lines.append(f"\n{plural(summary.files_scanned, 'file')} scanned")
    return "\n".join(lines) + "\n"


def audit_markdown(name: str, summary: Summary, refs: list[Reference], stale: list[Stale]) -> str:
    kept = [r for r in refs if r.status == KEPT]
    lines = [f"## renamer audit: {name}", "",
             f"{plural(len(kept), 'reference')} kept on purpose, {len(summary.residual)} residual, "
             f"{len(summary.unclassified)} unclassified, {len(summary.skipped)} skipped "
             f"({plural(summary.files_scanned, 'file')} scanned).", "",
             "| reason | count | why |", "| --- | ---: | --- |"]
    for reason, count in summary.kept_sorted():
        lines.append(f"| {reason} | {count} | {_cell(summary.kept_notes.get(reason, ''))} |")
    if kept:
        lines += ["", "<details><summary>Every kept reference</summary>", "",
                  "| location | old | reason | line |", "| --- | --- | --- | --- |"]
        lines += [f"| `{r.path}:{r.line}` | `{r.old}` | {r.reason} | {_cell(mask_line(r.text))} |"
                  for r in kept]
        lines += ["", "</details>"]
    problems = summary.residual + summary.unclassified
    if problems:
        lines += ["", "### Needs attention", ""]
        lines += [f"- `{location(r)}` {r.status}: `{r.old}` {r.note or ''}".rstrip() for r in problems]
    if stale:
        lines += ["", "### Stale exemptions", ""]
        lines += [f"- {s.kind} `{s.name}` ({s.source}) {s.wording}" for s in stale]
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("`", "'")
