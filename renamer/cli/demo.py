"""renamer demo: the fv-ml1 move end to end, on a throwaway copy of the bundled example.

Each step runs a real renamer command in-process, exactly as a user would type
it, through the same error boundary; the DNS half is in cli/demo_dns.py.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import click

from renamer import vcs
from renamer.cli.demo_dns import dns_tour, kept_readme, serve_resolvers
from renamer.cli.options import common_options, settings
from renamer.cli.tour import Tour
from renamer.shipped import build_example

_STEPS = [
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
     "No live reference left: exit 0. A near-miss (ana-ml2-ipmi, a derived name) is "
     "listed as a warning so verify never shares a blind spot with the sweep; ANA_ML2_URL, "
     "a constant's name, is an identifier's word, no host reference.",
     ["verify"], 0),
    ("audit",
     "Every reference left on purpose, grouped by reason, with the reason's text.",
     ["audit"], 0),
]


@click.command()
@click.option("--keep", "keep_dir", type=click.Path(file_okay=False), default=None,
              help="Build the demo repo in this (new) folder and leave it there.")
@click.option("--resolvers-only", "resolvers_for", type=click.Path(file_okay=False, exists=True),
              default=None, help="Start a kept demo repo's loopback resolvers again, until Ctrl-C.")
@common_options
@click.pass_context
def demo(ctx: click.Context, keep_dir: str | None, resolvers_for: str | None) -> int:
    """Run the fv-ml1 move end to end on the bundled example repo.

    Copies the example infra repo (LiteLLM gateway, compose stacks, .env and
    backups, dated notes, archival memory, incidents, a DNS inventory) into a
    temporary git repo, then runs sweep --dry-run, sweep --commit, verify and
    audit there, and the DNS steps where dnsmasq is installed. Needs no
    network and no root; leaves nothing behind (unless --keep).

    \b
    Examples:
      renamer demo
      renamer demo --keep /tmp/fv-demo    # keep the repo to look around
      renamer demo --resolvers-only /tmp/fv-demo   # its DNS resolvers again, until Ctrl-C
    """
    out = settings(ctx).output
    if resolvers_for is not None:
        if keep_dir is not None:
            raise click.UsageError("--resolvers-only runs on a kept repo: give it without --keep")
        return serve_resolvers(out, Path(resolvers_for).resolve())
    root = ctx.find_root().command
    assert isinstance(root, click.Group)
    folder = Path(keep_dir) if keep_dir else Path(tempfile.mkdtemp(prefix="renamer-demo-"))
    try:
        return _tour(Tour(out, build_example(folder), root))
    finally:
        if keep_dir is None:
            shutil.rmtree(folder, ignore_errors=True)
        elif (folder / ".git").is_dir():
            _leave_readme(folder)
            out.info(f"demo repo kept at {folder} (its DEMO.md says what to try there)")


def _leave_readme(folder: Path) -> None:
    """DEMO.md in the kept repo, untracked and excluded, so `git status` stays clean."""
    (folder / "DEMO.md").write_text(kept_readme(folder))
    exclude = folder / ".git" / "info" / "exclude"
    exclude.parent.mkdir(exist_ok=True)
    with exclude.open("a") as handle:
        handle.write("/DEMO.md\n")


def _tour(tour: Tour) -> int:
    out = tour.out
    out.echo(out.style("renamer demo: ana-ml2 moves to Fountain Valley as fv-ml1", bold=True) + "\n")
    out.echo(f"A copy of the example infra repo, committed in {tour.repo}.\n"
             "Renames: ana-ml2 -> fv-ml1 (and its BMC and FQDN), 10.250.50.54 -> 10.251.50.54.\n")
    for number, (title, why, args, expected) in enumerate(_STEPS, 1):
        tour.step(number, title, why)
        code = tour.run(*args)
        if code != expected:
            out.echo(f"renamer demo: step {number} exited {code}, expected {expected}\n", err=True)
            return 1
    out.echo("\n" + out.style("The history now reads:", bold=True) + "\n" + vcs.log_oneline(tour.repo))
    return dns_tour(tour, len(_STEPS) + 1)
