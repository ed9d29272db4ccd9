"""The messages of the commits a sweep makes: the pure-rename commit, the rewrite commit with its
counts, and the `Renamer-*` trailers every renamer commit carries (sweep/history.py reads them
back)."""

from __future__ import annotations

from renamer.project import LoadedProject
from renamer.sweep.plan import Plan
from renamer.sweep.summary import Summary, serial_lines


def renames_title(project: LoadedProject) -> str:
    pairs = project.config.renames.pairs()
    shown = ", ".join(f"{old} -> {new}" for old, new in pairs[:3])
    return shown + (f" (+{len(pairs) - 3} more)" if len(pairs) > 3 else "")


def rename_message(plan: Plan) -> str:
    project = plan.project
    lines = [f"{project.config.name}: rename files ({renames_title(project)})", "",
             "Pure renames, content unchanged, so `git log --follow` keeps each file's",
             "history; the rewrite follows in the next commit.", ""]
    lines += [f"  {old} -> {new}" for old, new in plan.renames]
    lines += ["", *trailers(plan, "renames", f"{len(plan.renames)} renamed", None)]
    return "\n".join(lines) + "\n"


def trailers(plan: Plan, role: str, changed: str, kept: int | None) -> list[str]:
    """git trailers naming the move, for `renamer log` and for people reading the history."""
    config = plan.project.config
    return trailer_lines(config.name, config.display(config.path), role, changed, kept)


def trailer_lines(move: str, config: str, role: str, changed: str | None = None,
                  kept: int | None = None) -> list[str]:
    """The trailers of every commit renamer makes (sweep/history.py reads them back)."""
    out = [f"Renamer-Move: {move}", f"Renamer-Config: {config}", f"Renamer-Commit: {role}"]
    out += [f"Renamer-Changed: {changed}"] if changed is not None else []
    return out + ([f"Renamer-Kept: {kept}"] if kept is not None else [])


def commit_message(plan: Plan, summary: Summary) -> str:
    project = plan.project
    lines = [f"{project.config.name}: {renames_title(project)}", ""]
    files = summary.files_changed
    lines.append(f"Rewrote {summary.replacement_total()} references in "
                 f"{files} file{'s' if files != 1 else ''} (renamer sweep).")
    if summary.replacements:
        lines += ["", "Replacements:"]
        lines += [f"  {old} -> {new}: {count}"
                  for (old, new), count in sorted(summary.replacements.items())]
    if summary.renames:
        lines += ["", "Renamed:"] + [f"  {old} -> {new}" for old, new in summary.renames]
    if summary.serials:
        lines += ["", "Zone serials bumped:", *serial_lines(summary)]
    updated = [p for p in summary.pins if p.status == "updated"]
    if updated:
        lines += ["", "Pins updated to the new bytes' digest:"]
        lines += [f"  {p.path}:{p.line}: {p.what}" for p in updated]
    lines.append("")
    lines.append(f"Kept on purpose: {summary.kept_line() or 'nothing'}")
    stuck, unclassified = summary.stuck, summary.unclassified
    lines.append(f"Residual: {len(stuck)}, unclassified: {len(unclassified)}, "
                 f"skipped: {len(summary.skipped)}")
    changed = (f"{files} file{'s' if files != 1 else ''}, {summary.replacement_total()} replacements, "
               f"{len(summary.renames)} renamed")
    lines += ["", *trailers(plan, "rewrite", changed, sum(summary.kept.values()))]
    return "\n".join(lines) + "\n"
