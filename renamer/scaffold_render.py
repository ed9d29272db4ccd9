"""renamer init's text: the renamer.yaml and allowlist it writes, and the summary it prints."""

from __future__ import annotations

import datetime as dt
import re

from renamer.config_renames import pair_kind
from renamer.formats.yaml_edit import scalar
from renamer.scaffold_place import BACKUPS_CLASS, FIXTURES_CLASS, Proposal
from renamer.words import plural


def render_config(name: str, pairs: list[tuple[str, str]], allowlist_rel: str, today: dt.date) -> str:
    hosts = [(o, n) for o, n in pairs if pair_kind(o, n) == "hosts"]
    addresses = [(o, n) for o, n in pairs if pair_kind(o, n) == "addresses"]
    networks = [(o, n) for o, n in pairs if pair_kind(o, n) == "networks"]
    lines = ["# Written by `renamer init`; see the README for every key.", "version: 1",
             f"name: {scalar(name)}",
             f"cutover: {today.isoformat()}   # dated records up to this day keep old names", "renames:"]
    lines.append("  hosts:" if hosts else "  hosts: {}")
    lines += [f"    {scalar(o)}: {scalar(n)}" for o, n in hosts]
    lines.append("  addresses:" if addresses else "  addresses: {}")
    lines += [f"    {scalar(o)}: {scalar(n)}" for o, n in addresses]
    if networks:  # every address inside keeps its host offset (matching.md, "Networks of another length")
        lines.append("  networks:")
        lines += [f"    {scalar(o)}: {scalar(n)}" for o, n in networks]
    lines += ["options:", "  derived_names: false", "  variants: false",
              f"allowlist: {scalar(allowlist_rel)}", ""]
    return "\n".join(lines)


def render_allowlist(proposal: Proposal) -> str:
    lines = ["# Written by `renamer init`: review it. Record classes keep old names on purpose;",
             "# edit each reason to say why. Files listed at the end are unclassified: until you",
             "# add them to `current` or a record class, `renamer verify` fails on them.",
             "version: 1",
             "extends: [records-common]   # incidents, journals, migrations, changelogs, histories, logs, "
             "tool-output, notebook-checkpoints, editor-copies, mailmap, archives, backups"]
    lines.append("current:" if proposal.current else "current: []")
    lines += [f"  - {scalar(p)}" for p in proposal.current]
    lines.append("records:" if proposal.records or proposal.fixtures or proposal.backups
                 or proposal.preset_overrides else "records: []")
    for name, patterns, reason in proposal.preset_overrides:  # replaces the preset's class of that name
        lines += [f"  - name: {scalar(name)}", f"    paths: [{', '.join(scalar(p) for p in patterns)}]",
                  f"    reason: {scalar(reason)}   # records-common's, minus live folders named like it"]
    # a class named like another replaces it (or is refused): `zones/old/` and `etc/old/` need two names
    taken = {BACKUPS_CLASS, FIXTURES_CLASS, *proposal.preset_names}
    for folder, members in sorted(proposal.records.items()):
        name = _class_name(folder, taken)
        taken.add(name)
        what = proposal.record_reasons.get(folder, "of history that must keep the old names")
        lines += [f"  - name: {scalar(name)}", f"    paths: [{scalar(folder)}]",
                  f"    reason: {scalar(f'{len(members)} file(s) {what} (edit me)')}"]
    if proposal.backups:
        count = sum(len(m) for m in proposal.backups.values())
        lines += [f"  - name: {BACKUPS_CLASS}",
                  f"    paths: [{', '.join(scalar(p) for p in sorted(proposal.backups))}]",
                  "    reason: " + scalar(f"{count} file(s) named as backup copies (.bak, .save.N, .old, ~): "
                                         "copies of what was, kept to roll back to (edit me)")]
    if proposal.fixtures:
        count = sum(len(m) for m in proposal.fixtures.values())
        lines += [f"  - name: {FIXTURES_CLASS}",
                  f"    paths: [{', '.join(scalar(p) for p in sorted(proposal.fixtures))}]",
                  f"    reason: {count} test file(s) spell the old values in fixtures on purpose (edit me; "
                  "or make them current to rewrite them)"]
    lines += ["dated:", "  filenames: true", "  sections:",
              "    - '^#{1,6}\\s+\\[?(?P<date>\\d{4}-\\d{2}-\\d{2})'",
              "    - '^\\[(?P<date>\\d{4}-\\d{2}-\\d{2})\\]'",
              "keep: []", 'inline_marker: "renamer: keep"', 'exclude: [".git/**"]']
    if proposal.unclassified:
        lines.append("# Unclassified (old values found, no rule proposed):")
        # a comment ends at a newline: the name goes in as the emitter writes it, one line
        lines += [f"#   {scalar(rel)}  ({proposal.why_unclassified.get(rel, '')})"
                  for rel in proposal.unclassified]
    return "\n".join(lines) + "\n"


def _class_name(folder: str, taken: set[str]) -> str:
    """The folder's own name (`old`), else its path (`zones-old`), else numbered: never one taken."""
    path = folder.replace("/**", "")
    # a class name starts with a letter or digit (allowlist_fields.NAME): `.history/` is `history`
    own = re.sub(r"[^A-Za-z0-9_.-]+", "-", path.rsplit("/", 1)[-1]).strip("-._") or "records"
    whole = re.sub(r"[^A-Za-z0-9_.-]+", "-", path).strip("-._") or "records"
    for name in (own, whole, *(f"{whole}-{n}" for n in range(2, len(taken) + 3))):
        if name not in taken:
            return name
    raise AssertionError("unreachable: more numbers than names taken")


def summary(proposal: Proposal) -> str:
    lines = [f"Old values found in {plural(len(proposal.files_with_values), 'file')}."]
    if proposal.current:
        lines.append(f"Current state (rewritten by sweep, {plural(len(proposal.current_files), 'file')}): "
                     + ", ".join(scalar(p) for p in proposal.current))
    for folder, members in sorted(proposal.records.items()):
        lines.append(f"Record class proposed: {scalar(folder)} ({plural(len(members), 'file')}) "
                     "- edit its reason")
    def why(folder: str) -> str:
        return proposal.live_why.get(folder, "live configuration")

    if proposal.live_named:
        lines.append(f"Live configuration or tooling in folders named like backups or history, current "
                     f"({len(proposal.live_named)}):")
        lines += [f"  {scalar(folder)}  ({scalar(rel)}: {why(folder)})"
                  for folder, rel in sorted(proposal.live_named.items())]
    if proposal.backup_records:
        lines.append("Folders named for backups with no backup tool in them (no systemd unit, crontab, "
                     "executable, script a live file runs, or live configuration), kept as records: "
                     + ", ".join(scalar(p) for p in proposal.backup_records))
    if proposal.named_by_path:
        renamed = [rel for rel in proposal.named_by_path if rel in proposal.current_files]
        lines.append(f"Paths named after an old value: {len(proposal.named_by_path)} "
                     f"({len(renamed)} current, renamed by the sweep)")
    if proposal.backups:
        count = sum(len(m) for m in proposal.backups.values())
        names = ", ".join(scalar(p) for p in sorted(proposal.backups))
        lines.append(f"Backup copies by name ({BACKUPS_CLASS}): {names} ({plural(count, 'file')}) - kept")
    if proposal.fixtures:
        count = sum(len(m) for m in proposal.fixtures.values())
        folders = ", ".join(scalar(p) for p in sorted(proposal.fixtures))
        lines.append(f"Test fixtures ({FIXTURES_CLASS}): {folders} "
                     f"({plural(count, 'file')}) - kept unless you make them current")
    if proposal.live_tests:
        lines.append(f"Tests that read live files, made current ({len(proposal.live_tests)}; the sweep "
                     "rewrites them with what they test):")
        lines += [f"  {rel}  (reads {reads})" for rel, reads in sorted(proposal.live_tests.items())]
    if proposal.covered_by_preset:
        lines.append(f"History covered by the records-common preset: "
                     f"{plural(len(proposal.covered_by_preset), 'file')}")
    if proposal.dated_files:
        count = len(proposal.dated_files)
        lines.append(f"Dated file names (kept if dated on or before the cutover): {count}")
    if proposal.unclassified:
        lines.append(f"Could not classify ({len(proposal.unclassified)}; verify fails until you decide):")
        lines += [f"  {scalar(rel)}  ({proposal.why_unclassified.get(rel, '')})"
                  for rel in proposal.unclassified]
    if proposal.ranges:
        lines.append(f"Ranges and patterns, never rewritten ({len(proposal.ranges)}; "
                     "edit by hand or keep them):")
        lines += [f"  {where}" for where in proposal.ranges]
    return "\n".join(lines) + "\n"
