"""Cases 51-58: worktrees, hostile journals, sparse checkouts, submodules, ownership, commits."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

from tests.adversarial.faults import is_root
from tests.adversarial.harness import (
    Outcome,
    Scratch,
    case,
    clear_error,
    decided,
    documented,
    doubtful,
    first_line,
    ok,
    require,
    succeeded,
)
from tests.testing.repos import git, make_repo, snapshot


def _worktree(s: Scratch, root: Path) -> Path:
    worktree = s.root / "wt"
    git(root, "worktree", "add", "-q", str(worktree), "-b", "w")
    return worktree


@case(51, "git", "sweeps")
def case_51(s: Scratch) -> Outcome:
    """linked worktree"""
    worktree = _worktree(s, s.repo({"a.txt": "HOST=ana-ml2\n"}))
    succeeded(s.cli(worktree, "sweep", "--commit"), "sweep --commit in the worktree")
    status = git(worktree, "status", "--porcelain")
    require(status == "", f"left in the worktree: {status.strip()}")
    require((worktree / "a.txt").read_text() == "HOST=fv-ml1\n", "not swept")
    return ok("swept and committed; no lock or journal in the work tree")


def _victim(s: Scratch) -> Path:
    victim = s.folder("victim") / "authorized_keys"
    victim.write_text("ORIGINAL\n")
    return victim


@case(52, "git", "ignored")
def case_52(s: Scratch) -> Outcome:
    """repo-provided `renamer-journal.json`"""
    victim = _victim(s)
    overwrite = {"id": "0123456789ab", "state": "committing",
                 "writes": [["../victim/authorized_keys", "payload.txt"]]}
    root = s.repo({"a.txt": "ana-ml2\n", "payload.txt": "attacker\n",
                   "renamer-journal.json": json.dumps(overwrite)})
    worktree = _worktree(s, root)
    result = s.cli(worktree, "sweep", "--commit")
    succeeded(result, "sweep in a worktree holding a journal")
    require("interrupted" not in result.stderr,
            f"the shipped journal was recovered: {first_line(result.stderr)}")
    delete = {**overwrite, "state": "preparing", "writes": [["a.txt", "../victim/authorized_keys"]]}
    export = make_repo(s.root / "export", {"a.txt": "ana-ml2\n", "renamer-journal.json": json.dumps(delete)},
                       config=(root / "renamer.yaml").read_text(),
                       allowlist=(root / "allow.yaml").read_text(), commit=False)
    shutil.rmtree(export / ".git")  # a `git archive` export: a plain folder
    succeeded(s.cli(export, "sweep"), "sweep in a plain folder holding a journal")
    require(victim.exists() and victim.read_text() == "ORIGINAL\n",
            "the file outside the repo was overwritten or deleted")
    return ok("a journal shipped in the tree is just a file: nothing outside touched (worktree and export)")


@doubtful(53, "git", "flags absent files")
def case_53(s: Scratch) -> Outcome:
    """sparse checkout"""
    root = s.repo({"a/x.txt": "clean\n", "b/y.txt": "ana-ml2\n"})
    git(root, "sparse-checkout", "set", "a")
    verify = s.cli(root, "verify")
    mentioned = "b/y.txt" in verify.output or "sparse" in verify.output.lower()
    summary = first_line(verify.stdout.splitlines()[-1] if verify.stdout.strip() else verify.stderr)
    return decided(f"verify exit {verify.exit_code} ({summary}); the file outside the cone is "
                   f"{'mentioned' if mentioned else 'not mentioned'}; sparse checkouts are "
                   f"{documented('sparse')}")


@case(54, "git", "kept, diff applies")
def case_54(s: Scratch) -> Outcome:
    """`.gitattributes eol=crlf`"""
    root = s.repo({".gitattributes": "*.txt text eol=crlf\n", "a.txt": "one\nssh ana-ml2\n"})
    (root / "a.txt").unlink()
    git(root, "checkout", "--", "a.txt")  # as git checks it out: CRLF
    require((root / "a.txt").read_bytes() == b"one\r\nssh ana-ml2\r\n", "git did not check out CRLF")
    clone = s.root / "clone"
    git(s.root, "clone", "-q", str(root), str(clone))
    diff = s.cli(root, "sweep", "--dry-run")
    applied = subprocess.run(["git", "-C", str(clone), "apply", "-"], input=diff.stdout_bytes,
                             capture_output=True, check=False)
    require(applied.returncode == 0, f"git apply refused the diff: {first_line(applied.stderr.decode())}")
    succeeded(s.cli(root, "sweep", "--commit"), "sweep --commit")
    after = (root / "a.txt").read_bytes()
    require(after == b"one\r\nssh fv-ml1\r\n", f"line ends not kept: {after!r}")
    require((clone / "a.txt").read_bytes() == after, "the applied diff differs from the sweep")
    require(git(root, "status", "--porcelain") == "", "the commit left the file modified")
    return ok("CRLF kept, the diff applies to a clone, the commit is clean")


@case(55, "git", "consistent")
def case_55(s: Scratch) -> Outcome:
    """submodule at `modules/ana-ml2`"""
    inner = make_repo(s.root / "inner", {"x.txt": "x\n"}, config=None, allowlist=None)
    root = s.repo({"a.txt": "ana-ml2\n"})
    git(root, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(inner), "modules/ana-ml2")
    git(root, "commit", "-q", "-m", "submodule")
    gitmodules = (root / ".gitmodules").read_text()
    succeeded(s.cli(root, "sweep", "--commit"), "sweep --commit", decisions=True)  # the submodule's residual
    require((root / ".gitmodules").read_text() == gitmodules, ".gitmodules rewritten without the submodule")
    status = subprocess.run(["git", "-C", str(root), "submodule", "status"], capture_output=True, text=True,
                            check=False)
    require(status.returncode == 0, f"git submodule status: {first_line(status.stderr)}")
    return ok(".gitmodules left as is (reported as residual submodule); git submodule status works")


DUBIOUS = "fatal: detected dubious ownership in repository"


def _distrusted(s: Scratch, root: Path) -> tuple[dict[str, str | None], str]:
    """An environment in which git distrusts `root`, and how that was made."""
    if is_root():
        subprocess.run(["chown", "-R", "65534:65534", str(root)], check=True)
        return {"GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}, "repo owned by nobody"
    shim = s.folder("git-shim")  # not root: a git that answers as a distrusting git does
    (shim / "git").write_text(f"#!/bin/sh\necho \"{DUBIOUS} at '$PWD'\" >&2\nexit 128\n")
    (shim / "git").chmod(0o755)
    return {"PATH": f"{shim}{os.pathsep}{os.environ.get('PATH', '')}"}, "simulated with a git shim, not root"


@case(56, "git", "refused")
def case_56(s: Scratch) -> Outcome:
    """dubious ownership (sudo)

    As root: the repo handed to nobody, git's global config off. Otherwise a `git` shim on
    PATH answers as a distrusting git does.
    """
    root = s.repo({"a.txt": "ana-ml2\n", ".gitignore": "node_modules/\n",
                   "node_modules/p/index.js": "module.exports='ana-ml2'\n"})
    before = snapshot(root)
    env, how = _distrusted(s, root)
    for args in (["sweep"], ["verify"]):
        result = s.cli(root, *args, env=env)
        clear_error(result, 3)
        require(DUBIOUS in result.stderr,
                f"{args[0]}: refused without git's reason: {first_line(result.stderr)}")
    require(snapshot(root) == before, "files changed")
    return ok(f"sweep and verify refused with git's reason, nothing written ({how})")


@case(57, "git", "refused")
def case_57(s: Scratch) -> Outcome:
    """rename into git-ignored path"""
    root = s.repo({".gitignore": "*fv-ml1*\n", "stacks/ana-ml2.env": "HOST=ana-ml2\n"})
    before = snapshot(root)
    result = s.cli(root, "sweep", "--commit")
    clear_error(result, 3)
    require(snapshot(root) == before and git(root, "status", "--porcelain") == "",
            "refused, but changed files")
    return ok(first_line(result.stderr))


@case(58, "git", "clear state")
def case_58(s: Scratch) -> Outcome:
    """`commit.gpgsign` without key"""
    root = s.repo({"a.txt": "HOST=ana-ml2\n"})
    git(root, "config", "commit.gpgsign", "true")
    git(root, "config", "gpg.program", "/bin/false")
    failed = s.cli(root, "sweep", "--commit")
    clear_error(failed, 2)
    require(len(failed.stderr.splitlines()) == 1, f"{len(failed.stderr.splitlines())} lines of error")
    require("written but not committed" in failed.stderr,
            f"does not say the files are written: {first_line(failed.stderr)}")
    git(root, "config", "commit.gpgsign", "false")
    succeeded(s.cli(root, "sweep", "--commit"), "the next sweep --commit")
    require(git(root, "status", "--porcelain") == "", "the next sweep left the rewrite uncommitted")
    return ok("says the rewrite is written but not committed; the next sweep --commit commits it")

