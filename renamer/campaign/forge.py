"""Phase 3's pull requests: the forge CLI the user has configured (`gh` for GitHub, `glab` for
GitLab), run with an argv list in the clone, the body handed over as a file or an argument, never
through a shell."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from renamer.errors import ConfigError, RenamerError

FORGES = ("gh", "glab")
TIMEOUT = 120.0  # seconds one forge command may take
# A pull request's body: GitHub takes 65536 characters; glab takes the description as one argv
# string, which Linux caps at 128 KiB (MAX_ARG_STRLEN). Longer (a big audit): cut, and said so.
BODY_CHARS = 60_000
BODY_BYTES = 100_000
CUT_NOTE = ("\n\n*(The audit is cut here to fit the forge's limit: `renamer audit` on the branch "
            "gives all of it.)*\n")


def fit(body: str) -> str:
    """The body as the forge takes it: whole where it fits, else cut at a line and said so."""
    if len(body) <= BODY_CHARS and len(body.encode()) <= BODY_BYTES:
        return body
    cut = body[:BODY_CHARS - len(CUT_NOTE)]
    while len(cut.encode()) > BODY_BYTES - len(CUT_NOTE.encode()):
        cut = cut[: len(cut) * 9 // 10]
    if "\n" in cut:
        cut = cut[: cut.rindex("\n")]
    return cut + CUT_NOTE


def find(choice: str) -> str | None:
    """The forge CLI to use: `none`; `gh` or `glab` (on PATH, or a usage error); `auto`: gh, else
    glab, where either is on PATH, else none (the branch names are printed)."""
    if choice == "none":
        return None
    if choice in FORGES:
        if shutil.which(choice) is None:
            raise ConfigError(f"--forge {choice}: {choice} is not on PATH")
        return choice
    if choice != "auto":
        raise ConfigError(f"--forge {choice}: expected auto, gh, glab or none")
    return next((tool for tool in FORGES if shutil.which(tool) is not None), None)


def propose(tool: str, clone: Path, branch: str, base: str, title: str, body: str,
            repo: str | None = None) -> str:
    """Open the pull (merge) request from `branch` into `base` of `repo` (the URL the branch was
    pushed to: both CLIs take a URL for --repo; None for a folder, where the forge can only guess
    from the clone's remotes); returns what the forge printed (its URL), or raises with its error
    in one line."""
    body = fit(body)
    with tempfile.TemporaryDirectory(prefix="renamer-campaign-") as folder:
        body_file = Path(folder) / "body.md"
        body_file.write_text(body)
        if tool == "gh":
            argv = ["gh", "pr", "create", "--head", branch, "--base", base, "--title", title,
                    "--body-file", str(body_file)]
        else:
            argv = ["glab", "mr", "create", "--source-branch", branch, "--target-branch", base,
                    "--title", title, "--description", body, "--yes"]
        if repo is not None:
            argv += ["--repo", repo]
        try:
            done = subprocess.run(argv, cwd=clone, capture_output=True, text=True, timeout=TIMEOUT,
                                  env={**os.environ, "GH_PROMPT_DISABLED": "1", "NO_PROMPT": "1"},
                                  stdin=subprocess.DEVNULL, check=False)
        except subprocess.TimeoutExpired:
            raise RenamerError(f"{tool}: no answer in {TIMEOUT:.0f} s") from None
        except OSError as exc:
            raise RenamerError(f"{tool}: cannot run: {exc.strerror or exc}") from None
    if done.returncode != 0:
        said = (done.stderr or done.stdout).strip().splitlines()
        raise RenamerError(f"{tool} exited {done.returncode}: {said[-1] if said else 'no message'}")
    lines = done.stdout.strip().splitlines()
    return lines[-1] if lines else f"{tool}: opened"
