"""A dated section follows the document's structure (break-it round 10, finding 1).

A `# 2025-03-01: switched to restic` shell comment inside a Markdown fence opened a level-1
"dated section" that kept the restic command and everything after it (`## Restore` / `ssh pug`),
and a setext heading (`Current setup` over `=====`) never closed one: verify --strict said OK.
Lines in code are never headings nor section starts, a fence ends nothing, and every heading the
format has counts at its level: Markdown's setext and HTML headings, reStructuredText's underlined
titles, AsciiDoc's `==`, Org's `*`, Textile's `h2.`, MediaWiki's `== x ==`; their code blocks
(rst's `::`, AsciiDoc's `----`, Org's `#+begin_src`, ...) hide a dated line as a fence does.
Each case: the file, then its lines that stay old (a record), every other `pug` rewritten.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import make_repo, snapshot

CONFIG = """\
version: 1
cutover: 2026-10-05
renames:
  hosts: {pug: wolf, pug.lab.lan: wolf.lab.lan}
allowlist: allow.yaml
"""
ALLOW = 'version: 1\nextends: [records-common]\ncurrent: ["**"]\n'

CASES = [
    pytest.param("runbook.md", "# Backup runbook\n\n```bash\n# 2025-03-01: switched to restic\n"
                 "restic -r sftp:backup@pug.lab.lan:/srv/restic backup /data\n```\n\n## Restore\n\nssh pug\n",
                 [], id="md-backtick-fence"),
    pytest.param("ops.md", "# Ops\n\n~~~sh\n# 2024-11-02 rotated keys\n~~~\n\nDeploy: `ssh pug ./deploy`\n",
                 [], id="md-tilde-fence"),
    pytest.param("README.md", "Setup\n=====\n\n## 2025-01-10 notes\nOld box was pug.\n\nCurrent setup\n"
                 "=============\n\nThe NAS is pug.lab.lan.\n", [5], id="md-setext-1-closes"),
    pytest.param("a.md", "## 2025-01-10 notes\nOld box was pug.\n\nNow\n---\nssh pug\n", [2], id="md-setext-2-closes"),
    pytest.param("b.md", "## 2025-01-10 old\n```sh\n# Restore\nssh pug\n```\nssh pug\n## Current\nssh pug\n",
                 [4, 6], id="md-a-fence-ends-nothing"),
    pytest.param("c.md", "# Runbook\n\n````\n# 2025-01-10\n```\nssh pug\n````\nssh pug\n", [],
                 id="md-longer-fence-holds-a-shorter"),
    pytest.param("d.md", "# Runbook\n\n```sh\n# 2025-01-10 never closed\nssh pug\n\n# Later\nssh pug\n", [],
                 id="md-unclosed-fence-starts-nothing"),
    pytest.param("e.md", "[2025-01-10] old\nssh pug\n<h2>Current</h2>\nssh pug\n", [2], id="md-html-heading"),
    pytest.param("e2.md", "[2025-01-10] old pug\nCurrent\n=======\nssh pug\n", [1],
                 id="md-setext-text-stops-at-a-dated-line"),
    pytest.param("f.md", "# Log\n\n```\n[2025-01-10] pug rebooted\n```\nssh pug\n", [],
                 id="md-bracketed-date-in-a-fence"),
    pytest.param("g.md", "---\ntitle: x\n# 2025-01-10 a YAML comment\n---\nssh pug\n", [], id="md-front-matter"),
    pytest.param("notes.txt", "Notes on the box, read first.\n\n```\n# 2025-01-10 switched\n```\nssh pug\n", [],
                 id="txt-fence"),
    pytest.param("README", "## 2025-01-10 notes\nOld box was pug.\n\nCurrent\n=======\nssh pug\n", [2],
                 id="suffixless-setext"),
    pytest.param("doc.rst", "Ops\n===\n\n[2025-01-10] notes\nold pug\n\nCurrent\n-------\n\nssh pug\n", [5],
                 id="rst-title-closes"),
    pytest.param("doc2.rst", "=====\nOps\n=====\n\n[2025-01-10] notes\nold pug\n\n=======\nCurrent\n=======\n\n"
                 "ssh pug\n", [6], id="rst-overlined-title-closes"),
    pytest.param("doc.adoc", "= Ops\n\n[2025-01-10] notes\nold pug\n\n== Current\nssh pug\n\n----\n"
                 "# 2025-02-01 a comment\nssh pug\n----\nssh pug\n", [4], id="adoc-title-and-listing"),
    pytest.param("doc.org", "* Ops\n[2025-01-10] notes\nold pug\n* Current\nssh pug\n#+BEGIN_SRC sh\n"
                 "# 2025-02-01 a comment\nssh pug\n#+END_SRC\nssh pug\n", [3], id="org-heading-and-src-block"),
    pytest.param("doc.textile", "h1. Ops\n\n[2025-01-10] notes\nold pug\n\nh2. Current\n\nssh pug\n", [4],
                 id="textile-heading"),
    pytest.param("doc.wiki", "= Ops =\n[2025-01-10] notes\nold pug\n== Current ==\nssh pug\n<pre>\n"
                 "# 2025-02-01 a comment\nssh pug\n</pre>\nssh pug\n", [3], id="wiki-heading-and-pre"),
]


def test_a_dated_section_follows_the_outline(tmp_path: Path, run: Callable[..., Result]) -> None:
    cases = {case.values[0]: case for case in CASES}  # one repo, one sweep: every format at once
    root = make_repo(tmp_path / "r", {str(name): str(case.values[1]) for name, case in cases.items()},
                     config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    files = snapshot(root)
    wrong = []
    for name, case in cases.items():
        text, kept = str(case.values[1]), case.values[2]
        want = "\n".join(line if n in kept else line.replace("pug", "wolf")  # type: ignore[operator]
                         for n, line in enumerate(text.split("\n"), 1))
        if files[str(name)] != want.encode():
            wrong.append(f"{case.id}: {files[str(name)]!r}")
    assert not wrong, "\n".join(wrong)
    assert run(root, "verify", "--strict").exit_code == 0
