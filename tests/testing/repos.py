"""Build real git repositories from a dict of files, with a fixed commit identity."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tests.conftest import Result

# The `run` and `repo` fixtures' types (tests/conftest.py), and an allowlist making every file
# current-state, for the test modules that build their own small repos.
Run = Callable[..., "Result"]
Repo = Callable[..., Path]
CURRENT_ALL = "version: 1\ncurrent: ['**']\n"

IDENTITY = {
    "GIT_AUTHOR_NAME": "renamer tests", "GIT_AUTHOR_EMAIL": "tests@renamer.invalid",
    "GIT_COMMITTER_NAME": "renamer tests", "GIT_COMMITTER_EMAIL": "tests@renamer.invalid",
    "GIT_AUTHOR_DATE": "2026-10-06T12:00:00Z", "GIT_COMMITTER_DATE": "2026-10-06T12:00:00Z",
}

CONFIG = """\
version: 1
name: fv-ml1-move
cutover: 2026-10-05
renames:
  hosts:
    ana-ml2: fv-ml1
    ana-ml2-bmc: fv-ml1-bmc
    ana-ml2.ana.lan: fv-ml1.fv.lan
  addresses:
    10.250.50.54: 10.251.50.54
allowlist: allow.yaml
"""

ALLOWLIST = r"""version: 1
current: [stacks/**, litellm/**, scripts/**, runbook.md, servers.md, "*.env"]
records:
  - name: persistent-memory
    paths: [persistent-memory.d/**]
    reason: dated entries record what the box was when they were written
  - name: incidents
    paths: [incidents/**]
    reason: incident notes describe the system at the time of the incident
dated:
  filenames: true
  sections:
    - '^#{1,6}\s+\[?(?P<date>\d{4}-\d{2}-\d{2})'
    - '^\[(?P<date>\d{4}-\d{2}-\d{2})\]'
keep:
  - name: hand-test-site
    path: runbook.md
    line_contains: hand-test
    reason: records where the hand-test was run
"""

Files = dict[str, "str | bytes"]


def git(repo: Path, *args: str) -> str:
    env = {**os.environ, **IDENTITY}
    done = subprocess.run(["git", "-C", str(repo), *args], env=env, check=True,
                          capture_output=True, text=True)
    return done.stdout


def write_files(root: Path, files: Files) -> None:
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode() if isinstance(content, str) else content)


def _set_identity(root: Path) -> None:
    """The repo's user.name, user.email and commit.gpgsign, as three `git config` calls would set
    them, written into .git/config by hand: three git processes fewer for each of the suite's
    thousands of repos (a fork of the test process each)."""
    config = root / ".git" / "config"
    text = config.read_text()
    if "\n[user]\n" in text:  # a repo made again in the same folder: set already
        return
    config.write_text(text + f"[user]\n\tname = {IDENTITY['GIT_AUTHOR_NAME']}\n"
                      f"\temail = {IDENTITY['GIT_AUTHOR_EMAIL']}\n[commit]\n\tgpgsign = false\n")


def make_repo(root: Path, files: Files, *, config: str | None = CONFIG,
              allowlist: str | None = ALLOWLIST, commit: bool = True) -> Path:
    """A git repo at `root` holding `files` (plus renamer.yaml and allow.yaml), committed."""
    root.mkdir(parents=True, exist_ok=True)
    everything: Files = {}
    if config is not None:
        everything["renamer.yaml"] = config
    if allowlist is not None:
        everything["allow.yaml"] = allowlist
    everything.update(files)
    write_files(root, everything)
    git(root, "init", "-q", "-b", "main")
    _set_identity(root)
    if commit:
        git(root, "add", "-A")
        git(root, "commit", "-q", "--allow-empty", "-m", "initial")
    return root


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file's bytes (links as their target), .git aside."""
    out = {}
    for path in sorted(root.rglob("*")):
        if ".git" in path.relative_to(root).parts:
            continue
        rel = path.relative_to(root).as_posix()
        if path.is_symlink():
            out[rel] = b"-> " + os.readlink(path).encode()
        elif path.is_file():
            out[rel] = path.read_bytes()
    return out


def init_and_commit(root: Path, run: Callable[..., Any], pairs: Sequence[str]) -> Any:
    """`renamer init` with `pairs` (`--from OLD=NEW` ...), asserted to succeed, and what it wrote
    committed: the start of every init-then-sweep test."""
    done = run(root, "init", *pairs)
    assert done.exit_code == 0, done.stderr
    git(root, "add", "-A")
    git(root, "commit", "-qm", "renamer config")
    return done


# The pug -> wolf move most sweep tests of break-it rounds 5-7 build their repo with.
PUG_CONFIG = """\
version: 1
renames:
  hosts: {pug: wolf, pug.ana.lan: wolf.fv.lan}
  addresses: {10.0.0.5: 10.1.0.5}
allowlist: allow.yaml
"""
PUG_ALLOW = 'version: 1\ncurrent: ["**"]\n'
# pug moving within lab.lan, an address with it: the config of the held-path, preset-folder and
# other-namespace tests.
LAB_CONFIG = """\
version: 1
renames:
  hosts: {pug: wolf, pug.lab.lan: wolf.lab.lan}
  addresses: {10.0.40.11: 10.0.50.21}
allowlist: allow.yaml
"""
