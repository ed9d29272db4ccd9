"""The guided tour: the fv-ml1 move, end to end, on a throwaway copy of the example."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

from renamer.errors import RenamerError
from renamer.resources import shipped

EXAMPLE = "fv-ml1"
Echo = Callable[[str], None]


def build_example(target: Path) -> Path:
    """Copy the example infra repo (with its allowlist and DNS inventory) into a new git repo."""
    source = shipped("examples") / EXAMPLE
    if not source.is_dir():
        raise RenamerError(f"{source}: the bundled example is missing; reinstall renamer")
    target.mkdir(parents=True, exist_ok=True)
    if any(target.iterdir()):
        raise RenamerError(f"{target}: folder is not empty")
    shutil.copytree(source, target, dirs_exist_ok=True, symlinks=True)
    (target / "allowlists").mkdir(exist_ok=True)
    shutil.copy2(shipped("allowlists") / f"{EXAMPLE}.yaml", target / "allowlists")
    shutil.copytree(shipped("dns"), target / "dns", dirs_exist_ok=True)
    git = ["git", "-C", str(target), "-c", "init.defaultBranch=main"]
    for args in (["init", "-q"], ["config", "user.name", "renamer demo"],
                 ["config", "user.email", "demo@renamer.invalid"], ["config", "commit.gpgsign", "false"],
                 ["add", "-A"], ["commit", "-q", "-m", "Infra repo before the move: ana-ml2 at Anaheim"]):
        subprocess.run([*git, *args], check=True, capture_output=True)
    return target


def run_demo(out: object, keep_dir: str | None, *, color: str = "auto") -> int:
    from renamer.cli.output import Output

    assert isinstance(out, Output)
    folder = Path(keep_dir) if keep_dir else Path(tempfile.mkdtemp(prefix="renamer-demo-"))
    try:
        repo = build_example(folder)
        return _tour(out, repo)
    finally:
        if keep_dir is None:
            shutil.rmtree(folder, ignore_errors=True)
        else:
            out.info(f"demo repo kept at {folder}")


def _step(out: object, number: int, title: str, why: str) -> None:
    from renamer.cli.output import Output

    assert isinstance(out, Output)
    out.echo("\n" + out.style(f"== Step {number}: {title}", bold=True, fg="cyan") + "\n")
    out.echo(why.strip() + "\n\n")


def _run(out: object, repo: Path, *args: str) -> int:
    """Run one renamer command in-process, exactly as a user would type it."""
    from renamer.cli import cli, run
    from renamer.cli.output import Output

    assert isinstance(out, Output)
    argv = ["--repo", str(repo), "--color", out.color, *args]
    out.echo(out.style("$ renamer " + " ".join(args), bold=True) + "\n")
    return run(cli, argv)


def _tour(out: object, repo: Path) -> int:
    from renamer.cli.output import Output

    assert isinstance(out, Output)
    out.echo(out.style("renamer demo: ana-ml2 moves to Fountain Valley as fv-ml1", bold=True) + "\n")
    out.echo(f"A copy of the example infra repo, committed in {repo}.\n"
             "Renames: ana-ml2 -> fv-ml1 (and its BMC and FQDN), 10.250.50.54 -> 10.251.50.54.\n")
    steps = [
        ("verify before the sweep",
         "The grep-and-verify pass, made exact: every live reference to the old box, with "
         "its YAML key path. It fails (exit 1) and names the LiteLLM config, including the "
         "pass_through_endpoints target a key-based substitution would miss.",
         ["verify"], 1),
        ("sweep --dry-run",
         "What would change, as a diff `git apply` accepts, then a summary. Records (dated "
         "notes, archival memory, incidents, backups) and exemptions stay as they are.",
         ["sweep", "--dry-run"], 0),
        ("sweep --commit",
         "Apply it: the file rename is committed first so `git log --follow` keeps its "
         "history, then the rewrite, whose message carries the audit summary.",
         ["sweep", "--commit"], 0),
        ("verify after the sweep",
         "No live reference left: exit 0. Near-misses (ANA_ML2_URL, ana-ml2-ipmi) are "
         "listed as warnings so verify never shares a blind spot with the sweep.",
         ["verify"], 0),
        ("audit",
         "Every reference left on purpose, grouped by reason, with the reason's text.",
         ["audit"], 0),
    ]
    for number, (title, why, args, expected) in enumerate(steps, 1):
        _step(out, number, title, why)
        code = _run(out, repo, *args)
        if code != expected:
            out.echo(f"renamer demo: step {number} exited {code}, expected {expected}\n", err=True)
            return 1
    log = subprocess.run(["git", "-C", str(repo), "log", "--oneline"], capture_output=True,
                         text=True, check=True).stdout
    out.echo("\n" + out.style("The history now reads:", bold=True) + "\n" + log)
    from renamer.demo_dns import dns_tour

    return dns_tour(out, repo, len(steps) + 1, _step, _run)
