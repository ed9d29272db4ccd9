"""History inside a current-state file (newcomer pass 2 B3): a plan that also tells how a step ran
(`at execution time the pihole0 name belonged ...`, under `## Action 35j (executed 2026-09-30)`)
was rewritten with nothing said. The dry run lists each line it would rewrite whose paragraph or
heading holds a date on or before the cutover, in a current-state prose file, for a decision."""

from __future__ import annotations

import json

CONFIG = ("version: 1\ncutover: 2026-10-05\nrenames:\n  hosts:\n    pihole0: dns-a\nallowlist: allow.yaml\n")
ALLOW = "version: 1\ncurrent: ['Caddy/**', README, 'ops/**']\n"
PLAN = """# Plan 35

Point the resolvers at pihole0 for the zone.

## Action 35j (executed 2026-09-30)

The step ran against pihole0-local-zone.conf.
At execution time the `pihole0` name belonged only
to the repository source file.

## Next

On 2026-11-02 pihole0 gets a new disk.
ssh pihole0 uptime
"""
FILES = {
    "Caddy/docs/35-PLAN.md": PLAN,
    "README": "Notes\n\nSince 2026-03-01 the backups go to pihole0.\n",  # prose by name
    "ops/sync.yaml": "# moved 2026-09-01\nhost: pihole0\n",  # configuration: a date in a comment says nothing
    "ops/old.md": "## 2026-09-01 moved\npihole0 took over.\n",  # a dated section: kept, not listed
}


def test_the_dry_run_lists_dated_lines_of_current_prose_files(repo, run) -> None:
    root = repo(FILES, config=CONFIG, allowlist=ALLOW + "dated:\n  sections: ['^## (?P<date>\\d{4}-\\d{2}-\\d{2})']\n")
    dry = run(root, "sweep", "--dry-run", "--format", "summary")
    assert dry.exit_code == 0, dry.stderr
    assert ("Looks like a record, rewritten unless you keep it (2: a date on or before the cutover in its "
            "paragraph or heading, in a current-state prose file; a keep rule, the inline marker or "
            "dated.sections keeps it):\n"
            "  Caddy/docs/35-PLAN.md:8: pihole0 (dated 2026-09-30 at line 5)\n"
            "  README:3: pihole0 (dated 2026-03-01 at line 3)\n") in dry.stdout
    data = json.loads(run(root, "sweep", "--dry-run", "--format", "json").stdout)
    assert data["looks_like_records"] == [
        {"path": "Caddy/docs/35-PLAN.md", "line": 8, "old": "pihole0", "date": "2026-09-30", "date_line": 5},
        {"path": "README", "line": 3, "old": "pihole0", "date": "2026-03-01", "date_line": 3}]


def test_a_keep_rule_takes_a_line_off_the_list(repo, run) -> None:
    allow = ALLOW + ("keep:\n  - {name: plan-history, path: Caddy/docs/35-PLAN.md, line_contains: 'At execution "
                     "time', reason: how 35j ran}\n")
    root = repo({"Caddy/docs/35-PLAN.md": PLAN}, config=CONFIG, allowlist=allow)
    dry = run(root, "sweep", "--dry-run", "--format", "json")
    assert json.loads(dry.stdout)["looks_like_records"] == []
    assert run(root, "sweep", "--commit").exit_code == 0
    assert "At execution time the `pihole0` name" in (root / "Caddy/docs/35-PLAN.md").read_text()


def test_without_a_cutover_a_date_before_today_counts(repo, run) -> None:
    config = CONFIG.replace("cutover: 2026-10-05\n", "")
    root = repo({"ops/run.md": "Ran on 2020-01-02 against pihole0.\n\nNext: pihole0 on 2999-01-01.\n"},
                config=config, allowlist=ALLOW)
    data = json.loads(run(root, "sweep", "--dry-run", "--format", "json").stdout)
    assert [(p["line"], p["date"]) for p in data["looks_like_records"]] == [(1, "2020-01-02")]
