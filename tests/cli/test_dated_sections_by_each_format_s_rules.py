"""A line starts a dated section only where its format calls it a heading (break-it round 11).

#2: a dated `#` line inside a Markdown HTML block (`<!-- -->`, `<pre>`, `<details>`) opened a level-1
section that kept every live line after it. #3: `# 2025-03-01 ...` is a comment in Org, a numbered-list
item in MediaWiki and Textile, a paragraph in rst, yet it opened a section there. #8: in a plain-text
log, dashes under a line of an entry are a rule, not a heading that ends the entry; and the "Looks like
a record" list named only the address of a line that held a name too.
Each case: the file, then its lines that stay old (a record); every other old value is rewritten.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.conftest import Result
from tests.testing.repos import make_repo, snapshot

CONFIG = """\
version: 1
cutover: 2026-10-05
renames:
  hosts: {pug: wolf, pug.lab.lan: wolf.lab.lan}
  addresses: {10.0.40.11: 10.0.50.21}
allowlist: allow.yaml
"""
ALLOW = 'version: 1\nextends: [records-common]\ncurrent: ["**"]\n'

CASES: dict[str, tuple[str, list[int]]] = {
    # 2: HTML blocks hide a dated line as a fence does
    "runbook.md": ("# Runbook\n\n<!--\n# 2025-03-01 old notes, hidden\n-->\n\nssh pug ./deploy\n", []),
    "guide.md": ("# Guide\n\n<pre>\n# 2025-03-01 shell comment\nrestic backup pug\n</pre>\n\n## Restore\n\n"
                 "ssh pug restore\n", []),
    "script.md": ("# Page\n\n<SCRIPT>\n# 2025-03-01 x\n</SCRIPT>\nssh pug\n", []),
    "details.md": ("# Notes\n\n<details>\n# 2025-03-01 hidden\nssh pug\n</details>\n\nssh pug\n", []),
    "unclosed.md": ("# Ops\n<!--\n# 2025-03-01 never closed\nssh pug\n", []),
    "notes.txt": ("Notes, read first.\n\n<!--\n# 2025-03-01 x\n-->\nssh pug\n", []),
    # look-alikes: a one-line comment, a closed comment's `# Current` ends nothing, a div's heading ends one
    "one-line.md": ("<!-- generated -->\n## 2025-03-01 old\nold pug\n", [3]),
    "closed.md": ("## 2025-03-01 old\n<!--\n# Current\n-->\nold pug\n", [5]),
    "div.md": ("## 2025-03-01 old\nold pug\n\n<div>\n# Current\nssh pug\n</div>\n", [2]),
    "comment-then-dashes.md": ("## 2025-03-01 old\nold pug\n<!--\nx\n-->\n---\nold pug\n", [2, 7]),
    # 3: a `#` line that is no heading in its format starts nothing
    "backup.org": ("* Backup\n# 2025-03-01: switched to restic (org comment)\nssh pug restic backup\n", []),
    "backup.wiki": ("== Backup ==\n# 2025-03-01 switched to restic\nssh pug restic backup\n", []),
    "backup.rst": ("Backup\n======\n\n# 2025-03-01 switched to restic\n\nssh pug restic backup\n", []),
    "backup.textile": ("h1. Backup\n\n# 2025-03-01 switched to restic\n\nssh pug restic backup\n", []),
    # look-alikes: AsciiDoc's `#` title is a heading; a bracketed date starts a section in any format
    "doc.adoc": ("= Ops\n\n## 2025-03-01 notes\nold pug\n\n== Current\nssh pug\n", [4]),
    "log.org": ("* Log\n[2025-03-01] swapped the disk\nold pug\n* Current\nssh pug\n", [3]),
    "log.rst": ("Log\n===\n\n[2025-03-01] swapped the disk\nold pug\n", [5]),
    # 8: plain text: dashes under a line of the entry are a rule
    "maint.txt": ("## 2025-03-01 disk swap on pug\nReplaced disk in pug (10.0.40.11)\n"
                  "----------------------------------\npug rebooted, still at 10.0.40.11\n", [1, 2, 4]),
    "maint2.txt": ("## 2025-03-01 swap\nline one pug\nline two pug\n-----\npug after\n", [2, 3, 5]),
    "JOURNAL": ("[2025-03-01] swap\nReplaced pug's disk\n-------------------\npug rebooted\n", [2, 4]),
    # look-alikes: a line standing apart over dashes is a heading in plain text; Markdown keeps setext
    "apart.txt": ("## 2025-03-01 notes\nold pug\n\nCurrent\n-------\nssh pug\n", [2]),
    "maint.md": ("## 2025-03-01 disk swap\nReplaced disk in pug\n--------------------\npug rebooted\n", []),
    "log-apart.txt": ("## 2025-03-01 disk swap\n\nReplaced disk\n-------------\npug rebooted, still at 10.0.40.11\n",
                      []),
}


def test_a_line_starts_a_dated_section_only_as_its_format_s_heading(tmp_path: Path,
                                                                     run: Callable[..., Result]) -> None:
    root = make_repo(tmp_path / "r", {name: text for name, (text, _) in CASES.items()},
                     config=CONFIG, allowlist=ALLOW)
    assert run(root, "verify", "--strict").exit_code == 1  # the live lines are found, not kept
    dry = run(root, "sweep", "--dry-run", "--format", "summary")
    assert dry.exit_code == 0, dry.stdout + dry.stderr
    # the hint names every old value of a rewritten line, the name beside the address
    assert "  log-apart.txt:5: pug, 10.0.40.11 (dated 2025-03-01 at line 1)" in dry.stdout, dry.stdout
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    files = snapshot(root)
    wrong = []
    for name, (text, kept) in CASES.items():
        want = "\n".join(line if n in kept else line.replace("pug", "wolf").replace("10.0.40.11", "10.0.50.21")
                         for n, line in enumerate(text.split("\n"), 1))
        if files[name] != want.encode():
            wrong.append(f"{name}: {files[name]!r}")
    assert not wrong, "\n".join(wrong)
    assert run(root, "verify", "--strict").exit_code == 0
