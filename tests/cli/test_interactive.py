"""sweep --interactive on a real pseudo-terminal: decisions that persist in the allowlist."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.testing.repos import git
from tests.testing.terminal import Terminal

RENAMER = str(Path(sys.executable).parent / "renamer")
FILES = {
    "stacks/app.env": "HOST=ana-ml2\nDB=10.250.50.54\n",
    "stacks/lab.env": "LAB=ana-ml2\n",
    "runbook.md": "# Runbook\n\nThe box is ana-ml2.\nThe old board was on ana-ml2.\n",
    "scripts/deploy.sh": "#!/bin/sh\nssh ana-ml2 uptime\n",
}
PROMPT = "]? "
WHY = "(the reason goes into the allowlist): "


def _session(root: Path, *args: str) -> Terminal:
    return Terminal([RENAMER, "sweep", "--interactive", *args], root)


def test_answers_write_a_keep_rule_and_the_next_sweep_agrees(repo, run) -> None:
    root = repo(FILES)
    allow_before = (root / "allow.yaml").read_text()
    term = _session(root)
    # Hunks in path order: runbook.md:3, runbook.md:4, scripts/deploy.sh:2, stacks/app.env:1, :2, stacks/lab.env:1
    assert "-The box is ana-ml2.\n+The box is fv-ml1." in term.expect(PROMPT).replace("\r\n", "\n")
    term.send("?")
    assert "k - keep it for good" in term.expect(PROMPT)
    term.send("y")
    term.expect(PROMPT)  # runbook.md:4
    term.send("K")
    term.expect(WHY)
    term.send("the old board keeps its name")
    term.expect(PROMPT)  # scripts/deploy.sh:2: no safe comment syntax for K
    term.send("K")
    assert "keep it with `k` (a keep rule) instead" in term.expect(PROMPT)
    term.send("k")
    assert "a reason is required" not in term.expect(WHY)
    term.send("")  # an empty reason is asked again
    assert "a reason is required" in term.expect(WHY)
    term.send("deploys still go through the lab box")
    term.expect(PROMPT)  # stacks/app.env:1
    term.send("n")
    term.expect(PROMPT)  # stacks/app.env:2
    term.send("y")
    term.expect(PROMPT)  # stacks/lab.env:1
    term.send("s")
    assert term.wait() == 0, term.text
    assert "keep rule kept-scripts-deploy-sh-2 written into allow.yaml" in term.text

    assert (root / "runbook.md").read_text() == (
        "# Runbook\n\nThe box is fv-ml1.\n"
        "The old board was on ana-ml2.<!-- renamer: keep: the old board keeps its name -->\n")
    assert (root / "scripts" / "deploy.sh").read_text() == FILES["scripts/deploy.sh"]
    assert (root / "stacks" / "app.env").read_text() == "HOST=ana-ml2\nDB=10.251.50.54\n"
    assert (root / "stacks" / "lab.env").read_text() == FILES["stacks/lab.env"]
    # The keep rule went to the end of `keep:`; every other byte of the allowlist is as it was.
    assert (root / "allow.yaml").read_text() == allow_before + (
        "  - name: kept-scripts-deploy-sh-2\n    path: scripts/deploy.sh\n    line_contains: ssh ana-ml2 uptime\n"
        "    reason: deploys still go through the lab box\n")

    # A later non-interactive sweep keeps what was kept and does what was left for later (n, s).
    dry = run(root, "sweep", "--dry-run", "--format", "json")
    assert [(e["path"], e["line"]) for e in __import__("json").loads(dry.stdout)["edits"]] == [
        ("stacks/app.env", 1), ("stacks/lab.env", 1)]
    git(root, "add", "-A")
    git(root, "commit", "-qm", "interactive")
    assert run(root, "sweep", "--commit").exit_code == 0
    assert run(root, "verify").exit_code == 0
    audit = run(root, "audit").stdout
    assert "kept-scripts-deploy-sh-2 (1): deploys still go through the lab box" in audit
    assert "inline (1): the old board keeps its name" in audit


def test_quit_before_any_answer_writes_nothing(repo) -> None:
    root = repo(FILES)
    term = _session(root)
    term.expect(PROMPT)
    term.send("q")
    assert term.wait() == 0
    assert "quit: nothing written" in term.text
    assert git(root, "status", "--porcelain") == ""


def test_quit_keeps_the_answers_given_as_git_add_p_does(repo) -> None:
    """`q` keeps what was answered (a rewrite, a keep rule) and leaves the rest for later."""
    root = repo(FILES)
    allow_before = (root / "allow.yaml").read_text()
    term = _session(root)
    term.expect(PROMPT)  # runbook.md:3
    term.send("y")
    term.expect(PROMPT)  # runbook.md:4
    term.send("k")
    term.expect(WHY)
    term.send("the old board keeps its name")
    term.expect(PROMPT)  # scripts/deploy.sh:2
    term.send("q")
    assert term.wait() == 0
    assert "quit: keeping the 2 answers given; the other lines are left for later" in term.text
    assert (root / "runbook.md").read_text() == (
        "# Runbook\n\nThe box is fv-ml1.\nThe old board was on ana-ml2.\n")
    assert (root / "allow.yaml").read_text().startswith(allow_before)
    assert "reason: the old board keeps its name" in (root / "allow.yaml").read_text()
    for rel in ("scripts/deploy.sh", "stacks/app.env", "stacks/lab.env"):
        assert (root / rel).read_text() == FILES[rel]


def test_commit_records_the_decisions_in_a_commit_of_their_own(repo, run) -> None:
    root = repo({"stacks/app.env": "HOST=ana-ml2\nLAB=ana-ml2 # lab\n"})
    term = _session(root, "--commit")
    term.expect(PROMPT)
    term.send("y")
    term.expect(PROMPT)
    term.send("k")
    term.expect(WHY)
    term.send("the lab")
    assert term.wait() == 0, term.text
    assert git(root, "status", "--porcelain") == ""
    subjects = git(root, "log", "--format=%s", "-3").splitlines()
    assert subjects[0] == "fv-ml1-move: 1 keep rule decided in renamer sweep --interactive"
    assert subjects[1].startswith("fv-ml1-move: ana-ml2 -> fv-ml1")
    assert "Renamer-Commit: decisions" in git(root, "log", "-1", "--format=%B")
    assert "(kept-stacks-app-env-2)" not in run(root, "verify").stdout
    assert run(root, "verify").exit_code == 0


def test_refused_without_a_terminal_or_with_dry_run(repo, run) -> None:
    root = repo(FILES)
    assert run(root, "sweep", "--interactive").exit_code == 2  # CliRunner: stdin is no terminal
    assert "needs a terminal" in run(root, "sweep", "--interactive").stderr
    assert run(root, "sweep", "--interactive", "--dry-run").exit_code == 2
    (root / "stacks" / "app.env").write_text("dirty\n")
    term = _session(root)  # refused before a single question: the work tree is dirty
    assert term.wait() == 3
    assert "uncommitted changes" in term.text and PROMPT not in term.text


TF = 'resource "terraform_data" "ana-ml2" {\n  input = "x"\n}\n'
ALL_CURRENT = "version: 1\ncurrent: ['**']\n"


def test_a_moved_block_goes_with_its_label_and_is_never_a_question_of_its_own(repo, run) -> None:
    """t26-32 finding 13: the label's line and its block in moved.tf were two questions; "y" to
    the label and "n" to the block renamed the resource with no `moved` block (verify OK,
    terraform planned a destroy). The block is no question: it follows the label's answer."""
    root = repo({"main.tf": TF}, allowlist=ALL_CURRENT)
    term = _session(root)
    assert '+resource "terraform_data" "fv-ml1" {' in term.expect(PROMPT).replace("\r\n", "\n")
    term.send("y")
    assert term.wait() == 0, term.text
    assert "moved.tf" not in term.text.split("Summary")[0].split("main.tf", 1)[1]  # never asked
    assert (root / "main.tf").read_text() == TF.replace('"ana-ml2"', '"fv-ml1"')
    moved = (root / "moved.tf").read_text()
    assert "from = terraform_data.ana-ml2\n  to   = terraform_data.fv-ml1" in moved, moved
    assert run(root, "verify").exit_code == 0


def test_a_declined_label_writes_no_moved_block(repo, run) -> None:
    root = repo({"main.tf": TF}, allowlist=ALL_CURRENT)
    term = _session(root)
    term.expect(PROMPT)
    term.send("n")
    assert term.wait() == 0, term.text
    assert (root / "main.tf").read_text() == TF
    assert not (root / "moved.tf").exists()  # no block for a rename nobody made
    verified = run(root, "verify")
    assert verified.exit_code == 1 and "main.tf:1" in verified.stdout + verified.stderr


ALIGNED = ('locals {\n  a = {\n    ana-ml2 = "x"\n    db      = "y"\n  }\n  b = {\n    "ana-ml2" = "x"\n'
           '    "db"      = "y"\n  }\n}\n')


def test_terraform_fmt_s_blanks_follow_the_answers_and_are_no_question(repo, run) -> None:
    """t28 finding 12 in the interactive sweep: the sweep re-aligns an aligned HCL run a rename of
    another length reaches (sweep/hcl_align.py). Those blanks are no question of their own: the
    run a "y" renames is aligned again, the run an "n" keeps is left as it was."""
    root = repo({"main.tf": ALIGNED}, allowlist=ALL_CURRENT)
    term = _session(root)
    first = term.expect(PROMPT).replace("\r\n", "\n")
    assert "(1/2) main.tf:3" in first and "+    fv-ml1 = \"x\"" in first, first  # db's line is no question
    term.send("y")
    term.expect(PROMPT)
    term.send("n")
    assert term.wait() == 0, term.text
    assert term.text.count(PROMPT) == 2, term.text  # two renamed lines, two questions
    assert (root / "main.tf").read_text() == ALIGNED.replace("    ana-ml2 = ", "    fv-ml1 = ").replace(
        "    db      = ", "    db     = ")
