"""Issue 27 item 9, break-it round 8 #15: `renamer sweep` writes and stops (for review), then
`renamer sweep --commit` found nothing to change and said "nothing to change: no commit made",
exit 0, the rewrite left uncommitted. The `--commit` run now commits that rewrite where the
work tree holds exactly what the sweep wrote, and refuses, naming the files, where it does not."""

from __future__ import annotations

import pytest

from tests.testing.repos import PUG_ALLOW, PUG_CONFIG, git, make_repo

FILES = {"renamer.yaml": PUG_CONFIG, "allow.yaml": PUG_ALLOW, "a.txt": "x pug\n", "b.env": "HOST=10.0.0.5\n",
         "stacks/pug/compose.yaml": "services:\n  app: {image: a, hostname: pug}\n",
         "stacks/pug/notes.txt": "no name here\n"}


def _log(root) -> list[str]:
    return git(root, "log", "--format=%s").splitlines()


@pytest.mark.parametrize("flags", [(), ("--allow-dirty",)])
def test_the_commit_after_a_plain_sweep_commits_its_rewrite(repo, run, flags) -> None:
    root = repo(FILES, config=None, allowlist=None)
    assert run(root, "sweep").exit_code == 0
    assert git(root, "status", "--porcelain") != ""
    dry = run(root, "sweep", "--dry-run", "--format", "summary")
    assert ("renamer: an earlier `renamer sweep` rewrote 4 files, not committed: `renamer sweep --commit` "
            "commits them") in dry.stderr
    done = run(root, "sweep", "--commit", *flags)
    assert done.exit_code == 0, done.stderr
    assert "nothing to change" not in done.stderr
    assert "the rewrite an earlier `renamer sweep` left uncommitted (4 files, exactly as it wrote them) " \
           "is committed as" in done.stderr
    assert git(root, "status", "--porcelain") == ""
    log = _log(root)
    assert len(log) == 3 and "rename files" in log[1]  # the renames in a commit of their own, as --commit does
    assert git(root, "show", "--stat", "--format=", "HEAD~1").count("=>") == 2
    assert git(root, "show", "HEAD:a.txt") == "x wolf\n"
    assert git(root, "show", "HEAD:stacks/wolf/compose.yaml").endswith("hostname: wolf}\n")
    assert run(root, "verify", "--strict").exit_code == 0
    again = run(root, "sweep", "--commit")
    assert again.exit_code == 0 and "nothing to change: no commit made" in again.stderr


def test_a_file_edited_after_the_plain_sweep_is_refused_by_name(repo, run) -> None:
    root = repo(FILES, config=None, allowlist=None)
    run(root, "sweep")
    with (root / "a.txt").open("a") as handle:
        handle.write("more\n")
    head = git(root, "rev-parse", "HEAD")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3
    assert done.stderr.startswith("renamer: error: a.txt: rewritten by an earlier `renamer sweep`, not "
                                  "committed, and changed since")
    assert "commit it with git" in done.stderr and "nothing written" in done.stderr
    assert "nothing to change" not in done.stderr + done.stdout
    assert git(root, "rev-parse", "HEAD") == head
    assert (root / "a.txt").read_text() == "x wolf\nmore\n"


def test_a_plain_sweep_over_another_head_is_refused(repo, run) -> None:
    root = repo(FILES, config=None, allowlist=None)
    run(root, "sweep")
    (root / "other.txt").write_text("z\n")
    git(root, "add", "other.txt")
    git(root, "commit", "-qm", "other")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3
    assert "rewritten by an earlier `renamer sweep` over another HEAD" in done.stderr
    assert "a.txt" in done.stderr and "nothing written" in done.stderr


def test_a_rewrite_committed_by_hand_or_undone_is_not_taken_for_it(repo, run, tmp_path) -> None:
    flat = {k: v for k, v in FILES.items() if not k.startswith("stacks/")}
    root = repo(flat, config=None, allowlist=None)
    run(root, "sweep")
    git(root, "commit", "-qam", "by hand")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0 and "nothing to change: no commit made" in done.stderr
    assert "earlier" not in done.stderr
    # undone with git: the next sweep plans it again, from scratch
    other = make_repo(tmp_path / "two", flat, config=None, allowlist=None)
    run(other, "sweep")
    git(other, "checkout", "--", "a.txt", "b.env")
    done = run(other, "sweep", "--commit")
    assert done.exit_code == 0 and "earlier" not in done.stderr
    assert git(other, "status", "--porcelain") == "" and git(other, "show", "HEAD:a.txt") == "x wolf\n"


def test_a_plain_sweep_over_uncommitted_work_is_never_committed_as_its_own(repo, run) -> None:
    """`sweep --allow-dirty` over a file with work of yours: that file holds both; the `--commit`
    run refuses it by name rather than commit your work under the sweep's message."""
    root = repo({**FILES, "a.txt": "x pug\n\nnotes\n"}, config=None, allowlist=None)
    (root / "a.txt").write_text("x pug\n\nnotes, edited\n")
    assert run(root, "sweep", "--allow-dirty").exit_code == 0
    head = git(root, "rev-parse", "HEAD")
    done = run(root, "sweep", "--commit", "--allow-dirty")
    assert done.exit_code == 3
    assert done.stderr.startswith("renamer: error: a.txt: rewritten by an earlier `renamer sweep` over "
                                  "uncommitted changes of yours, not committed")
    assert git(root, "rev-parse", "HEAD") == head
    assert (root / "a.txt").read_text() == "x wolf\n\nnotes, edited\n"
