"""Classification of files and lines: pure, table-driven."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from renamer.allowlist import Allowlist, KeepRule, RecordClass
from renamer.classify import Classifier
from tests.testing.repos import snapshot

SECTIONS = (re.compile(r"^#{1,6}\s+\[?(?P<date>\d{4}-\d{2}-\d{2})"),
            re.compile(r"^\[(?P<date>\d{4}-\d{2}-\d{2})\]"))
ALLOW = Allowlist(
    current=("stacks/**", "runbook.md", "*.env"),
    records=(RecordClass("incidents", ("incidents/**",), "then", "a.yaml", False),),
    dated_filenames=True,
    sections=SECTIONS,
    keep=(KeepRule("hand-test", ("runbook.md",), "where it ran", "a.yaml", False, line_contains="hand-test"),),
    exclude=("vendor/**",),
)
CLASSIFIER = Classifier(ALLOW, dt.date(2026, 10, 5), ["/renamer.yaml", "/dns/"])


@pytest.mark.parametrize("path, status, reason", [
    pytest.param("stacks/app/compose.yaml", "current", None, id="current"),
    pytest.param("runbook.md", "current", None, id="current-file"),
    pytest.param("incidents/2026-09-01.md", "record", "incidents", id="record-beats-dated"),
    pytest.param("stacks/app/.env.bak-20261005-rebal", "record", "dated-file", id="dated-on-cutover"),
    pytest.param("stacks/app/.env.bak-20261006", "current", None, id="dated-after-cutover"),
    pytest.param("stacks/notes-2026-09-30.md", "record", "dated-file", id="dashed-date"),
    pytest.param("stacks/build-20261399.log", "current", None, id="not-a-date"),
    pytest.param("stacks/v123456789.txt", "current", None, id="long-number"),
    # a compact date with a time of day (VS Code's Local History, t35-sweep finding 16); not any 14 digits
    pytest.param("stacks/hosts_20250301101500.ini", "record", "dated-file", id="stamp-with-seconds"),
    pytest.param("stacks/hosts_202503011015.ini", "record", "dated-file", id="stamp-with-minutes"),
    pytest.param("stacks/hosts_20250301996099.ini", "current", None, id="stamp-not-a-time"),
    pytest.param("stacks/serial-2025030101.zone", "current", None, id="zone-serial"),
    pytest.param("docs/other.md", "unclassified", None, id="unclassified"),
    pytest.param("vendor/x/stacks/a", "excluded", None, id="explicit-exclude"),
    pytest.param("renamer.yaml", "excluded", None, id="implicit-config"),
    pytest.param("dns/sites/fv.yaml", "excluded", None, id="implicit-dns"),
    pytest.param(".git/config", "excluded", None, id="git-folder"),
    pytest.param("sub/x.env", "current", None, id="gitignore-style-anywhere"),
])
def test_classify(path: str, status: str, reason: str | None) -> None:
    klass = CLASSIFIER.classify(path)
    assert (klass.status, klass.reason) == (status, reason)


RUNBOOK = ["# Runbook", "ana-ml2 now", "## 2026-09-20 old creep", "ana-ml2 then", "### detail, still old", "ana-ml2 then too", "## 2026-10-10 after cutover", "ana-ml2 now again", "[2026-09-01] ana-ml2 bracket entry", "ana-ml2 under bracket entry", "## Later", "ana-ml2 now", "hand-test ran on ana-ml2", "old link ana-ml2 <!-- renamer: keep: archived dashboard -->", ""]


def test_line_exemptions() -> None:
    exempt = CLASSIFIER.line_exemptions("runbook.md", RUNBOOK)
    got = {index + 1: (e.reason, e.note) for index, e in exempt.items()}
    section = "section dated {}, on or before the cutover 2026-10-05"
    assert got == {
        3: ("dated-section", section.format("2026-09-20")),
        4: ("dated-section", section.format("2026-09-20")),
        5: ("dated-section", section.format("2026-09-20")),
        6: ("dated-section", section.format("2026-09-20")),
        9: ("dated-section", section.format("2026-09-01")),
        10: ("dated-section", section.format("2026-09-01")),
        13: ("hand-test", "where it ran"),
        14: ("inline", "archived dashboard"),
    }


def test_non_heading_section_ends_at_any_heading() -> None:
    lines = ["[2026-09-01] entry", "ana-ml2", "#### deep heading", "ana-ml2"]
    assert sorted(CLASSIFIER.line_exemptions("x.md", lines)) == [0, 1]


def test_no_cutover_disables_dated_rules() -> None:
    classifier = Classifier(ALLOW, None)
    assert classifier.classify("stacks/.env.bak-20200101").status == "current"
    assert classifier.line_exemptions("x.md", ["## 2020-01-01 old", "a"]) == {}


@pytest.mark.parametrize("patterns", [
    pytest.param(["stacks/**", "runbook.md", "*.env", "/renamer.yaml", "/dns/"], id="plain"),
    pytest.param(["docs/", "**/incidents/**", "a?c.md", "[ab]*.txt", "x/**/y"], id="globs"),
    pytest.param(["stacks/**", "!stacks/keep/**", "*.env", "!local.env"], id="negations"),
])
def test_path_patterns_agree_with_pathspec(patterns: list[str]) -> None:
    import pathspec

    from renamer.classify import PathPatterns

    paths = ["stacks/a.yaml", "stacks/keep/b.yaml", "x/runbook.md", "runbook.md", "a/.env", "a/local.env",
             "local.env", "renamer.yaml", "sub/renamer.yaml", "dns/sites/fv.yaml", "docs/x.md", "a/docs/y",
             "p/incidents/i.md", "abc.md", "a/abc.md", "b1.txt", "c1.txt", "x/y", "x/q/y", "x/q/y/z", "y"]
    spec = pathspec.GitIgnoreSpec.from_lines(patterns)
    ours = PathPatterns(patterns)
    assert [ours.match_file(p) for p in paths] == [bool(spec.match_file(p)) for p in paths]


# -- key-path keep rules through the CLI (break-it t26-32, findings 03 and 04) ---------------------

KEY_CONFIG = "version: 1\nrenames:\n  hosts: {pug: wolf}\nallowlist: allow.yaml\n"


def _keep(rules: list[tuple[str, str]]) -> str:
    return "version: 1\ncurrent: ['**']\nkeep:\n" + "".join(
        f"  - {{name: r{i}, paths: ['{path}'], key: '{key}', reason: the old backup target stays}}\n"
        for i, (path, key) in enumerate(rules))


def test_a_key_rule_through_the_old_name_keeps_the_keys_on_its_path_and_a_second_sweep_changes_nothing(
        repo, run) -> None:
    # 03: the value was kept while the section, table or parent key above it was renamed: the kept
    # value then stood at a path no rule named, verify failed and the next sweep rewrote it
    files = {"e.ini": "[pug]\nhost = pug.lan\nport = 1\n[other]\nx = pug.lan\n",
             "d.toml": '[servers.pug]\nhost = "pug.lan"\n[servers.rex]\nhost = "pug.lan"\n',
             "n.yaml": "hosts:\n  pug:\n    note: was pug.lan\n    ip: pug.lan\nbackup: pug\n",
             # a resource label on the path: kept, with its reference in another file
             "main.tf": 'resource "terraform_data" "pug" {\n  input = "pug.lan"\n}\n',
             "out.tf": 'output "x" {\n  value = terraform_data.pug.output\n}\n'}
    allow = _keep([("e.ini", "pug.host"), ("d.toml", "servers.pug.host"), ("n.yaml", "hosts.pug.note"),
                   ("main.tf", "resource.terraform_data.pug.input")])
    root = repo(files, config=KEY_CONFIG, allowlist=allow)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "e.ini").read_text() == "[pug]\nhost = pug.lan\nport = 1\n[other]\nx = wolf.lan\n"
    assert (root / "d.toml").read_text() == '[servers.pug]\nhost = "pug.lan"\n[servers.rex]\nhost = "wolf.lan"\n'
    assert (root / "n.yaml").read_text() == "hosts:\n  pug:\n    note: was pug.lan\n    ip: wolf.lan\nbackup: wolf\n"
    assert (root / "main.tf").read_text() == files["main.tf"] and (root / "out.tf").read_text() == files["out.tf"]
    verify = run(root, "verify")
    assert verify.exit_code == 0, verify.stdout + verify.stderr
    before = snapshot(root)
    again = run(root, "sweep", "--commit")
    assert again.exit_code == 0 and snapshot(root) == before, again.stdout  # the kept values stay kept


def test_a_key_rule_keeps_list_entries_and_quoted_keys_below_it(repo, run) -> None:
    # 04: `hosts[0].name` and `s["a.b"]` are below `hosts` and `s`; "below" was read as `key.` only
    files = {"b.yaml": "hosts:\n  - name: pug\n  - {name: pug}\nbackup: pug\n",
             "s.json": '{\n  "s": {\n    "a.b": "pug",\n    "c": "pug"\n  },\n  "t": "pug"\n}\n',
             "t.toml": 's = { "a.b" = "pug" }\nlist = [["pug"]]\nt = "pug"\n'}
    root = repo(files, config=KEY_CONFIG, allowlist=_keep([("b.yaml", "hosts"), ("s.json", "s"),
                                                           ("t.toml", "s"), ("t.toml", "list[0]")]))
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "b.yaml").read_text() == files["b.yaml"].replace("backup: pug", "backup: wolf")
    assert (root / "s.json").read_text() == files["s.json"].replace('"t": "pug"', '"t": "wolf"')
    assert (root / "t.toml").read_text() == files["t.toml"].replace('t = "pug"', 't = "wolf"')
    assert run(root, "verify").exit_code == 0
