"""Each explanation once (issue 27, t35 finding 23): nine escaped spellings printed the same
458-character `encoded` paragraph nine times, in verify, the dry run and the sweep. A residual is
one line; an explanation several lines share is said once after them, under `Why`; one a line has
alone stays on it; `-v` repeats it on every line; JSON keeps each finding's whole note."""

from __future__ import annotations

import json

from renamer.report.text import explained
from renamer.sweep.model import RESIDUAL, Reference
from tests.testing.repos import Repo, Run

CONFIG = """\
version: 1
name: t35
cutover: 2026-01-01
renames:
  hosts: {web01.lab.example: app01.lab.example}
  addresses: {10.0.0.70: 10.0.1.90}
allowlist: allow.yaml
"""
FILES = {
    "a.xml": "<config><host>web&#48;1.lab.example</host><alt>&#x77;eb01.lab.example</alt>"
             "<ip>10.0.0.&#55;0</ip></config>\n",
    "a.yaml": 'host: "web\\x301.lab.example"\nip: "10.0.0.\\x370"\n',
    "a.toml": '[host]\nname = "web\\u00301.lab.example"\n',
    "a.js": 'const h = "web\\x301.lab.example";\n',
    "b.properties": "host=web\\u00301.lab.example\n",
    "a.html": '<a href="http://web01&#46;lab&#46;example/">x</a>\n',
    "run.md": "# Run\n\nssh web01.lab.example\n",  # rewritten by the sweep; verify lists it before
}
ENCODED = "an old value spelled with escapes (`\\x2d`, `\\u002d`"
WHY = "Why, said once for the lines above sharing it (--verbose repeats it on each line):"


def _repo(repo: Repo) -> object:
    return repo(FILES, config=CONFIG, allowlist="version: 1\ncurrent: ['**']\n")


def test_verify_says_each_shared_explanation_once(repo: Repo, run: Run) -> None:
    root = _repo(repo)
    out = run(root, "--color", "never", "verify").stdout
    lines = out.splitlines()
    places = [line for line in lines if ": residual (encoded): " in line]
    assert len(places) == 9, out
    assert "a.yaml:1:8: residual (encoded): web\\x301.lab.example -> app01.lab.example [host]" in places
    assert "a.xml:1:80: residual (encoded): 10.0.0.&#55;0 -> 10.0.1.90" in places
    assert all(ENCODED not in line for line in places)
    assert out.count(ENCODED) == 1
    assert lines[-3] == WHY and lines[-2].startswith(f"  encoded: {ENCODED}"), out
    assert lines[-2].endswith("or keep it with a keep rule")
    assert lines[-1].startswith("verify: FAILED: 10 residual")
    # the only line with its explanation says it where it stands
    assert "run.md:3:5: residual: web01.lab.example -> app01.lab.example: current-state file: `renamer sweep` " \
        "rewrites it" in lines
    assert len(out) < 2200, len(out)  # was 5.4 KB
    verbose = run(root, "--color", "never", "-v", "verify").stdout
    assert verbose.count(ENCODED) == 9 and WHY not in verbose
    assert "a.yaml:1:8: residual (encoded): web\\x301.lab.example -> app01.lab.example [host]: " + ENCODED \
        in verbose
    findings = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    encoded = [f for f in findings if f["reason"] == "encoded"]
    assert len(findings) == 10 and len(encoded) == 9
    assert all(f["note"].startswith(ENCODED[:30]) and f["line"] and f["column"] for f in encoded)


def test_the_dry_run_and_the_sweep_say_it_once(repo: Repo, run: Run) -> None:
    root = _repo(repo)
    for args in (("sweep", "--dry-run"), ("sweep", "--commit")):
        out = run(root, "--color", "never", *args).stdout
        part = out[out.index("Residual, left for you (9):"):]
        assert "\n  a.js:1:12: web\\x301.lab.example (encoded)\n" in part, out
        assert "\n  b.properties:1:6: web\\u00301.lab.example (encoded)\n" in part, out
        assert out.count(ENCODED) == 1 and f"\n  {WHY}\n    encoded: {ENCODED}" in out, out
    assert (root / "run.md").read_text() == "# Run\n\nssh app01.lab.example\n"


def _ref(line: int, reason: str | None, note: str) -> Reference:
    return Reference("f.conf", line, 1, "web01", "app01", RESIDUAL, reason, note)


def test_explanations_shared_alone_and_several_in_one_class() -> None:
    refs = [_ref(1, "pattern", "glob A"), _ref(2, "pattern", "glob B"), _ref(3, "pattern", "glob A"),
            _ref(4, "pattern", "glob B"), _ref(5, "range", "its own: 10.0.0.1-10.0.0.9"),
            _ref(6, None, "current-state file"), _ref(7, None, "current-state file")]
    labels, why = explained(refs)
    assert labels == ["pattern #1", "pattern #2", "pattern #1", "pattern #2", "", "residual", "residual"]
    assert why == ["  " + WHY, "    pattern #1: glob A", "    pattern #2: glob B",
                   "    residual: current-state file"]
    assert explained([_ref(1, "range", "alone")]) == ([""], [])
