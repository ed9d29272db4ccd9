"""Cases 42-50: links, hard links, folder renames, awkward file names, pathspec magic."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.adversarial.harness import (
    Outcome,
    Scratch,
    case,
    clear_error,
    commit_all,
    config,
    decided,
    documented,
    doubtful,
    first_line,
    ok,
    require,
    require_none,
    succeeded,
)
from tests.testing.repos import git, snapshot

RECORDS = ("version: 1\ncurrent: ['*.txt']\n"
           "records:\n  - {name: hist, paths: ['records/**'], reason: what was true then}\n")


def _links(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): os.readlink(p) for p in root.rglob("*")
            if p.is_symlink() and ".git" not in p.relative_to(root).parts}


@case(42, "files", "untouched")
def case_42(s: Scratch) -> Outcome:
    """symlink out of repo, into `.git`"""
    outside = s.folder("outside") / "x.txt"
    outside.write_text("host ana-ml2\n")
    root = s.repo({"a.txt": "ana-ml2\n"})
    (root / ".git/description").write_text("ana-ml2\n")
    (root / "out.txt").symlink_to(outside)
    (root / "desc.txt").symlink_to(".git/description")
    commit_all(root, "links")
    links = _links(root)
    succeeded(s.cli(root, "sweep"), "sweep")
    require(outside.read_text() == "host ana-ml2\n", "wrote through the link out of the repo")
    require((root / ".git/description").read_text() == "ana-ml2\n", "wrote through the link into .git")
    require(_links(root) == links, f"links changed: {_links(root)}")
    return ok("neither link followed nor replaced; a.txt swept")


@case(43, "files", "untouched")
def case_43(s: Scratch) -> Outcome:
    """symlink to a record"""
    root = s.repo({"records/a.md": "ana-ml2 then\n", "b.txt": "ana-ml2 now\n"}, allowlist=RECORDS)
    (root / "now.txt").symlink_to("records/a.md")
    commit_all(root, "link")
    succeeded(s.cli(root, "sweep"), "sweep")
    require((root / "records/a.md").read_text() == "ana-ml2 then\n", "the record was rewritten")
    require(_links(root) == {"now.txt": "records/a.md"}, "the link was replaced")
    return ok("the record and the link to it left alone")


@doubtful(44, "files", "?")
def case_44(s: Scratch) -> Outcome:
    """hard link current↔record"""
    root = s.repo({"records/a.md": "ana-ml2 here\n"}, allowlist=RECORDS)
    os.link(root / "records/a.md", root / "cur.txt")
    commit_all(root, "hard link")
    succeeded(s.cli(root, "sweep"), "sweep")
    current, record = (root / "cur.txt").read_text(), (root / "records/a.md").read_text()
    linked = os.stat(root / "cur.txt").st_ino == os.stat(root / "records/a.md").st_ino
    return decided(f"current file now {current.strip()!r}, record {record.strip()!r}, "
                   f"{'still' if linked else 'no longer'} one inode; hard links are "
                   f"{documented('hard link')}")


@case(45, "files", "all moved or flagged")
def case_45(s: Scratch) -> Outcome:
    """folder rename with symlink / too-large file"""
    cfg = config(hosts={"ana-ml2": "fv-ml1"}, options={"max_file_size": "1KiB"})
    root = s.repo({"stacks/ana-ml2/compose.yaml": "hostname: ana-ml2\n",
                   "stacks/ana-ml2/model.txt": "x" * 4096 + "\n"}, config=cfg)
    (root / "stacks/ana-ml2/docker-compose.yml").symlink_to("compose.yaml")
    commit_all(root, "link")
    succeeded(s.cli(root, "sweep", "--commit"), "sweep --commit")
    old = root / "stacks/ana-ml2"
    left = sorted(p.name for p in old.iterdir()) if old.exists() else []
    require(not left, f"left in the old folder: {left}")
    require((root / "stacks/fv-ml1/docker-compose.yml").read_text() == "hostname: fv-ml1\n",
            "the moved link does not reach the moved file")
    require((root / "stacks/fv-ml1/model.txt").stat().st_size == 4097, "the too-large file was not moved")
    succeeded(s.cli(root, "verify", "--strict"), "verify --strict")
    return ok("the link and the too-large file moved with their folder; verify --strict OK")


@case(46, "files", "refused")
def case_46(s: Scratch) -> Outcome:
    """rename through symlinked folder"""
    outside = s.folder("outside")
    root = s.repo({"stacks/ana-ml2/compose.yaml": "host: ana-ml2\n"})
    (root / "stacks/fv-ml1").symlink_to(outside)
    commit_all(root, "link")
    before = snapshot(root)
    result = s.cli(root, "sweep", "--commit")
    clear_error(result, 3)
    require_none(sorted(p.name for p in outside.iterdir()), "moved out of the repo")
    require(snapshot(root) == before, "refused, but the work tree changed")
    return ok(first_line(result.stderr))


@case(47, "files", "handled")
def case_47(s: Scratch) -> Outcome:
    """non-UTF-8 file name with match"""
    root = s.repo({})
    name = os.fsdecode(b"ana-ml2.caf\xe9.txt")
    (root / name).write_text("ana-ml2\n")
    commit_all(root, "latin-1 name")
    verify = s.cli(root, "verify")
    require(verify.exit_code == 1 and "ana-ml2.caf\\xe9.txt" in verify.stdout,
            f"verify does not list it escaped: {verify.brief()}")
    succeeded(s.cli(root, "sweep", "--commit"), "sweep --commit")
    moved = root / os.fsdecode(b"fv-ml1.caf\xe9.txt")
    require(moved.exists() and moved.read_text() == "fv-ml1\n", "not renamed and rewritten")
    return ok("verify lists it escaped; sweep renames and rewrites it")


AWKWARD = ["new\nline ana-ml2.txt", "tab\tana-ml2.txt", "space ana-ml2.txt", "-dash ana-ml2.txt",
           "ünï ana-ml2.txt", "\ufeffbom.txt", "cr\r.txt"]


@case(48, "files", "diff applies")
def case_48(s: Scratch) -> Outcome:
    """names with newline/tab/space/dash/unicode/BOM/CR"""
    root = s.repo({name: f"host ana-ml2 in {name!r}\n" for name in AWKWARD})
    clone = s.root / "clone"
    git(s.root, "clone", "-q", str(root), str(clone))
    diff = s.cli(root, "sweep", "--dry-run")
    succeeded(diff, "sweep --dry-run")
    applied = subprocess.run(["git", "-C", str(clone), "apply", "-"], input=diff.stdout_bytes,
                             capture_output=True, check=False)
    require(applied.returncode == 0, f"git apply refused the diff: {first_line(applied.stderr.decode())}")
    succeeded(s.cli(root, "sweep"), "sweep")
    swept_tree, applied_tree = snapshot(root), snapshot(clone)
    differs = sorted(set(swept_tree.items()) ^ set(applied_tree.items()))
    require_none(sorted({repr(path) for path, _ in differs}), "the applied diff differs from the sweep at")
    return ok(f"the dry-run diff applies to a clone and equals the sweep ({len(AWKWARD)} names)")


@case(49, "files", "committed")
def case_49(s: Scratch) -> Outcome:
    """file named `:(glob)x.txt`"""
    root = s.repo({":(glob)x.txt": "ana-ml2\n"})
    succeeded(s.cli(root, "sweep", "--commit"), "sweep --commit")
    status = git(root, "status", "--porcelain")
    require(status == "", f"left uncommitted: {status.strip()}")
    committed = git(root, "show", "--name-only", "--format=", "HEAD").split()
    require(committed == [":(glob)x.txt"], f"HEAD holds {committed}")
    return ok("rewritten and committed under its literal name")


@case(50, "files", "only it staged")
def case_50(s: Scratch) -> Outcome:
    """`x[ab].txt` + `--allow-dirty`"""
    root = s.repo({"x[ab].txt": "ana-ml2\n", "xa.txt": "one\n", "xb.txt": "two\n"})
    (root / "xa.txt").write_text("work in progress\n")
    (root / "xb.txt").write_text("more work\n")
    succeeded(s.cli(root, "sweep", "--commit", "--allow-dirty"), "sweep --commit --allow-dirty")
    status = git(root, "status", "--porcelain")
    require(status == " M xa.txt\n M xb.txt\n", f"the user's work was staged or committed: {status!r}")
    committed = git(root, "show", "--name-only", "--format=", "HEAD").split()
    require(committed == ["x[ab].txt"], f"HEAD holds {committed}")
    return ok("only x[ab].txt committed; the WIP in xa.txt and xb.txt stays unstaged")
