"""Cases 59-73: file sizes, modes and owners, faults while writing, SIGKILL, and the repo's layout.

Root-only faults use the real thing when running as root (chattr +i / +a, chown)
and say so; otherwise the fault is injected the way tests/cli/test_adversarial.py
does (a patched `write_new` or `os.replace`), and the detail says that too.
"""

from __future__ import annotations

import errno
import json
import os
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

from renamer.atomic import write_new
from renamer.sweep import apply as apply_module
from tests.adversarial.faults import attribute, is_root, kill_at
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
    no_crash,
    ok,
    require,
    require_none,
    succeeded,
    swept,
)
from tests.testing.repos import git, snapshot

CHUNK = 8 * 1024 * 1024  # the streaming reader's block size (sweep/scan.py)


def _one_line_file(size: int, offsets: list[int]) -> bytes:
    """`size` bytes of one line, with ` ana-ml2 ` at each offset (the name starting there)."""
    data = bytearray(b"x" * size)
    for offset in offsets:
        data[offset - 1:offset + 8] = b" ana-ml2 "
    return bytes(data)


@case(59, "size", "skipped, all reported")
def case_59(s: Scratch) -> Outcome:
    """100 MB one line, matches at chunk edges

    Slimmed: a 20 MB line over `max_file_size: 10MiB`, names straddling both 8 MiB edges.
    """
    size = 20 * 1024 * 1024
    offsets = [100, CHUNK - 4, 2 * CHUNK - 3, size - 20]  # two names straddle the 8 MiB edges
    cfg = config(hosts={"ana-ml2": "fv-ml1"}, options={"max_file_size": "10MiB"})
    root = s.repo({"big.txt": _one_line_file(size, offsets)}, config=cfg)
    audit = s.cli(root, "audit", "--format", "json")
    succeeded(audit, "audit")
    found = [r for r in audit.json()["references"] if r["path"] == "big.txt"]
    require(len(found) == len(offsets), f"{len(found)} of {len(offsets)} references reported")
    require(all(r["status"] == "skipped" and r["reason"] == "too-large" for r in found),
            f"not reported as skipped too-large: {found[0]}")
    sweep = s.cli(root, "sweep")
    succeeded(sweep, "sweep")
    require(git(root, "status", "--porcelain") == "", "the too-large file was rewritten")
    return ok(f"{len(found)}/{len(offsets)} found in a 20 MB line, across the chunk edges, never "
              f"rewritten; audit {audit.seconds:.2f} s, sweep {sweep.seconds:.2f} s")


@doubtful(60, "size", "verify fails?")
def case_60(s: Scratch) -> Outcome:
    """UTF-16 / too-large current file with live ref"""
    cfg = config(hosts={"ana-ml2": "fv-ml1"}, options={"max_file_size": "1KiB"})
    root = s.repo({"settings.ini": "[s]\nhost=ana-ml2\n".encode("utf-16"),
                   "big.conf": "host ana-ml2\n" + "x" * 2048 + "\n"}, config=cfg)
    verify = s.cli(root, "verify", "--strict")
    no_crash(verify)
    skipped = verify.stdout.partition("Skipped, holding old values")[2]
    listed = [name for name in ("settings.ini", "big.conf") if name in skipped]
    return decided(f"verify --strict exit {verify.exit_code}; {' and '.join(listed) or 'neither'} "
                   f"listed under 'Skipped, holding old values' (a warning, not a failure); skipping them is "
                   f"{documented('too large and UTF-16 files are skipped and reported')}")


@case(61, "size", "seconds")
def case_61(s: Scratch) -> Outcome:
    """20k matches in one file"""
    root = s.repo({"dense.json": json.dumps([{"host": "ana-ml2"}] * 20_000)})
    verify = s.cli(root, "verify", "--format", "json")
    require(verify.exit_code == 1, f"verify: {verify.brief()}")
    found = verify.json()["summary"]["residual"]
    require(found == 20_000, f"verify found {found} of 20000")
    dry = s.cli(root, "sweep", "--dry-run", "--format", "summary")
    succeeded(dry, "sweep --dry-run")
    slowest = max(verify.cpu, dry.cpu)  # CPU, not wall time: a loaded machine must not fail it
    require(slowest < 8, f"verify {verify.cpu:.1f} s of CPU, sweep --dry-run {dry.cpu:.1f} s")
    return ok(f"verify {verify.cpu:.2f} s of CPU, sweep --dry-run {dry.cpu:.2f} s")


@case(62, "modes", "kept")
def case_62(s: Scratch) -> Outcome:
    """setuid, exec"""
    root = s.repo({"suid.sh": "#!/bin/sh\nssh ana-ml2\n", "exec.sh": "#!/bin/sh\nssh ana-ml2\n"})
    os.chmod(root / "suid.sh", 0o4755)
    os.chmod(root / "exec.sh", 0o755)
    commit_all(root, "modes")  # git keeps the exec bit; setuid lives only in the work tree
    modes = {name: os.stat(root / name).st_mode for name in ("suid.sh", "exec.sh")}
    succeeded(s.cli(root, "sweep"), "sweep")
    now = {name: os.stat(root / name).st_mode for name in modes}
    require(now == modes, f"modes changed: {({k: oct(v) for k, v in now.items()})}")
    require("fv-ml1" in (root / "suid.sh").read_text(), "not swept")
    return ok("setuid and exec bits kept")


@doubtful(63, "modes", "kept?")
def case_63(s: Scratch) -> Outcome:
    """other owner (as root)

    Needs root (a file owned by nobody); otherwise recorded as not run.
    """
    if not is_root():
        return decided("not run: giving a file to another owner needs root")
    root = s.repo({"a.txt": "ana-ml2\n"})
    os.chown(root / "a.txt", 65534, 65534)
    result = s.cli(root, "sweep")
    owner = os.stat(root / "a.txt").st_uid
    return decided(f"sweep {result.brief()}; the nobody-owned file is now owned by uid {owner}; "
                   f"ownership is {documented('owner', 'chown')}")


@doubtful(64, "modes", "refused?")
def case_64(s: Scratch) -> Outcome:
    """0444 as root"""
    root = s.repo({"a.txt": "ana-ml2\n"})
    os.chmod(root / "a.txt", 0o444)
    result = s.cli(root, "sweep")
    text = (root / "a.txt").read_text().strip()
    mode = stat.S_IMODE(os.stat(root / "a.txt").st_mode)
    who = "as root" if is_root() else "not root"
    return decided(f"{who}: sweep {result.brief()}; the file now says {text!r}, mode {mode:o} kept; the "
                   f"refusal of read-only files is {documented('Read-only files and folders are refused')} "
                   "for a user who cannot write them (root can)")


@case(65, "modes", "refused")
def case_65(s: Scratch) -> Outcome:
    """immutable file

    As root: a real `chattr +i`. Otherwise a read-only file stands in (refused the same way).
    """
    root = s.repo({"imm.txt": "ana-ml2\n", "b.txt": "ana-ml2\n"})
    with attribute(root / "imm.txt", "+i") as real:
        if not real:
            os.chmod(root / "imm.txt", 0o444)  # not root: a read-only file is refused the same way
        before = snapshot(root)
        result = s.cli(root, "sweep")
        after = snapshot(root)
    clear_error(result, 3)
    require(after == before, "refused, but files were written")
    how = "chattr +i" if real else "simulated with a read-only file, not root"
    return ok(f"{first_line(result.stderr)} ({how})")


@contextmanager
def _replace_refused_in(folder: Path) -> Iterator[None]:
    """os.replace into `folder` fails with EPERM, as in an append-only folder."""
    real = os.replace

    def refusing(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
        if Path(dst).parent == folder:
            raise OSError(errno.EPERM, os.strerror(errno.EPERM))
        real(src, dst)

    with mock.patch.object(os, "replace", refusing):
        yield


@contextmanager
def _append_only(folder: Path) -> Iterator[str]:
    with attribute(folder, "+a") as real:
        if real:
            yield "chattr +a"
        else:
            with _replace_refused_in(folder):
                yield "EPERM injected into os.replace, not root"


@case(66, "modes", "refused")
def case_66(s: Scratch) -> Outcome:
    """append-only folder

    As root: a real `chattr +a`. Otherwise EPERM is injected into `os.replace` into the folder.
    """
    root = s.repo({"a/1.txt": "ana-ml2\n", "b/2.txt": "ana-ml2\n"})
    with _append_only(root / "b") as how:
        failed = s.cli(root, "sweep", "--commit")
    clear_error(failed, 3)
    again = s.cli(root, "sweep", "--commit")
    succeeded(again, "the sweep after the folder became writable")
    left = [rel for rel in ("a/1.txt", "b/2.txt") if (root / rel).read_text() != "fv-ml1\n"]
    require(not left, f"not finished: {left}")
    status = git(root, "status", "--porcelain")
    require(status == "", f"left uncommitted or temp files: {status.strip()}")
    return ok(f"{first_line(failed.stderr)[:110]}...; the next sweep finished and committed ({how})")


def _disk_full(path: Path, data: bytes, mode: int | None = None) -> None:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@case(67, "faults", "nothing changed")
def case_67(s: Scratch) -> Outcome:
    """full disk after renames

    No tmpfs: ENOSPC is injected into the write phase (`write_new`), as test_w13 does.
    """
    root = s.repo({"stacks/ana-ml2.yaml": "host: ana-ml2\n", "stacks/big.env": "HOST=ana-ml2\n"})
    head, before = git(root, "rev-parse", "HEAD"), snapshot(root)
    with mock.patch.object(apply_module, "write_new", _disk_full):
        result = s.cli(root, "sweep", "--commit")
    clear_error(result, 3)
    require("nothing changed" in result.stderr, f"does not say nothing changed: {first_line(result.stderr)}")
    require(snapshot(root) == before, "the renames were left in place")
    require(git(root, "rev-parse", "HEAD") == head, "a rename commit was made")
    require(git(root, "status", "--porcelain") == "", "changes left staged")
    return ok(f"{first_line(result.stderr)}; tree, index and HEAD as before (ENOSPC injected)")


MOVED = {f"stacks/ana-ml2/f{i:02d}.env": f"HOST=ana-ml2 {i}\n" for i in range(12)}
WRITTEN = {f"stacks/f{i:02d}.env": f"HOST=ana-ml2 {i}\n" for i in range(12)}


HELD_AT = {"swap": "before swap", "commit-before": "before git commit", "commit-after": "after git commit"}


def _killed_then_rerun(s: Scratch, root: Path, point: str, nth: int) -> str:
    """Reset `root`, kill `sweep --commit` at `point`, rerun it; '' when all is well, else what is not."""
    start = git(root, "rev-list", "--max-parents=0", "HEAD").strip()
    git(root, "reset", "-q", "--hard", start)
    git(root, "clean", "-qfdx")
    if not kill_at(s, root, point, nth, ["sweep", "--commit"]):
        return f"{point} #{nth}: the sweep never reached it"
    rerun = s.cli(root, "sweep", "--commit")
    if rerun.exit_code != 0:
        return f"{point} #{nth}: the rerun failed: {rerun.brief()}"
    status = git(root, "status", "--porcelain")
    if status:
        return f"{point} #{nth}: the rerun left {status.split()[-1]} (and more) uncommitted"
    return ""


def _all_new(root: Path, files: dict[str, str]) -> list[str]:
    return [rel for rel, text in files.items()
            if (root / rel.replace("ana-ml2/", "fv-ml1/")).read_text() != text.replace("ana-ml2", "fv-ml1")]


def _kill_trials(s: Scratch, files: dict[str, str], trials: list[tuple[str, int]],
                 check: Callable[[Path], str]) -> Outcome:
    root = s.repo(files)
    for point, nth in trials:
        problem = _killed_then_rerun(s, root, point, nth)
        require(not problem, problem)
        stale = _all_new(root, files)
        require_none(stale, f"{point} #{nth}: not completed")
        problem = check(root)
        require(not problem, f"{point} #{nth}: {problem}")
    shown = ", ".join(f"{HELD_AT[point]} #{nth}" for point, nth in trials)
    return ok(f"SIGKILL {shown}: each rerun of sweep --commit completed and committed")


def _history_kept(root: Path) -> str:
    start = git(root, "rev-list", "--max-parents=0", "HEAD").strip()
    follow = git(root, "log", "--follow", "--format=%H", "--", "stacks/fv-ml1/f00.env").split()
    return "" if follow and follow[-1] == start else "git log --follow lost the file's history"


def _one_rewrite_commit(root: Path) -> str:
    count = int(git(root, "rev-list", "--count", "HEAD"))
    return "" if count == 2 else f"{count - 1} commits after the initial one (wanted 1)"


@case(68, "faults", "rerun completes")
def case_68(s: Scratch) -> Outcome:
    """SIGKILL in rename commit

    Killed (whole process group) just before and just after the rename's git commit,
    held there by tests/adversarial/hold.py.
    """
    return _kill_trials(s, MOVED, [("commit-before", 1), ("commit-after", 1)], _history_kept)


@case(69, "faults", "completed and committed")
def case_69(s: Scratch) -> Outcome:
    """SIGKILL in write commit phase, `--commit`

    Killed before the first and before the seventh of twelve swaps of a temporary file
    over its target.
    """
    return _kill_trials(s, WRITTEN, [("swap", 1), ("swap", 7)], _one_rewrite_commit)


@case(70, "faults", "committed on rerun")
def case_70(s: Scratch) -> Outcome:
    """SIGKILL during rewrite `git commit`

    Killed just before and just after the rewrite's git commit.
    """
    return _kill_trials(s, WRITTEN, [("commit-before", 1), ("commit-after", 1)], _one_rewrite_commit)


@case(71, "faults", "refused")
def case_71(s: Scratch) -> Outcome:
    """edit during write phase

    The user's edit is made from a patched `write_new`, after the third file is written, as
    test_d1 does: the same moment, without a race.
    """
    root = s.repo({f"stacks/f{i}.env": f"HOST=ana-ml2 {i}\n" for i in range(5)})
    real = write_new
    written: list[Path] = []

    def write_then_user_saves(path: Path, data: bytes, mode: int | None = None) -> None:
        real(path, data, mode)
        written.append(path)
        if len(written) == 3:
            with open(root / "stacks/f1.env", "a") as handle:
                handle.write("USER EDIT\n")

    with mock.patch.object(apply_module, "write_new", write_then_user_saves):
        result = s.cli(root, "sweep")
    clear_error(result, 3)
    require((root / "stacks/f1.env").read_text() == "HOST=ana-ml2 1\nUSER EDIT\n", "the user's edit was lost")
    left = sorted(p.name for p in root.rglob("*.renamer-tmp"))
    require(not left, f"temporary files left: {left}")
    return ok(f"{first_line(result.stderr)} (edit made between two writes)")


@case(72, "layout", "warned")
def case_72(s: Scratch) -> Outcome:
    """ignored `.env`/`data/` in renamed folder"""
    root = s.repo({".gitignore": ".env\ndata/\n", "stacks/ana-ml2/compose.yaml": "host: ana-ml2\n"})
    (root / "stacks/ana-ml2/.env").write_text("HOST=ana-ml2\n")
    (root / "stacks/ana-ml2/data").mkdir()
    (root / "stacks/ana-ml2/data/x.txt").write_text("ana-ml2\n")
    result = s.cli(root, "sweep", "--commit")
    succeeded(result, "sweep --commit")
    warned = [line for line in result.stdout.splitlines() if line.startswith("Ignored by git")]
    require(bool(warned) and "stacks/ana-ml2/.env" in warned[0] and "data/x.txt" in warned[0],
            "the ignored files left behind are not named")
    return ok(warned[0][:140])


@case(73, "layout", "swept")
def case_73(s: Scratch) -> Outcome:
    """`dns/` zone files, no inventory"""
    zone = "$ORIGIN lab.\nana-ml2 IN A 10.250.50.54\n"  # under lab. the short name stays in its zone
    root, _ = swept(s, {"dns/db.ana.lan": zone})
    after = (root / "dns/db.ana.lan").read_text()
    require(after == "$ORIGIN lab.\nfv-ml1 IN A 10.251.50.54\n", f"left as {after!r}")
    return ok("the zone file in dns/ swept")
