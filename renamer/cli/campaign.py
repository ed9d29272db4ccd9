"""renamer campaign: one move across many repositories (plan, apply, push, status)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import click

from renamer.campaign import render, run
from renamer.campaign.config import Campaign, load_campaign
from renamer.cli.options import Command, common_options, settings
from renamer.errors import EXIT_FINDINGS, EXIT_OK, UnsafeError
from renamer.report.machine import dumps


def _file(function: Command) -> Command:
    return click.argument("campaign_file", metavar="FILE",
                          type=click.Path(path_type=Path, dir_okay=False))(function)


def _format(function: Command) -> Command:
    return click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
                        help="Output format.")(function)


def _skip(function: Command) -> Command:
    return click.option("--skip", multiple=True, metavar="REPO",
                        help="Leave this repo out (repeatable); its dependants are skipped too.")(function)


def _progress(ctx: click.Context) -> Callable[[str], None]:
    out = settings(ctx).output
    if not sys.stderr.isatty():
        return run.quiet
    return lambda line: out.info(f"campaign: {line}")


def _load(path: Path) -> Campaign:
    return load_campaign(path)


@click.group()
def campaign() -> None:
    """One move across many repositories: plan, apply, push, status.

    FILE is a campaign.yaml naming the move (its renames, or `config:` naming
    a renamer.yaml) and the repos (local paths or git URLs, each cloned into
    work_dir: the user's own checkouts are never written). See
    docs/campaigns.md.

    \b
    Examples:
      renamer campaign plan campaign.yaml                 # phase 1: clone, plan, report
      renamer campaign apply campaign.yaml                # phases 1 and 2: a branch per repo
      renamer campaign apply campaign.yaml --skip gateway # leave one repo out
      renamer campaign push campaign.yaml                 # phase 3: push, open pull requests
      renamer campaign status campaign.yaml               # the burndown
    """


@campaign.command("plan")
@_file
@_skip
@_format
@common_options
@click.pass_context
def plan_command(ctx: click.Context, campaign_file: Path, skip: tuple[str, ...], fmt: str) -> int:
    """Phase 1: clone or fetch each repo and plan its sweep; writes nothing in any repo.

    Per repo: files to change, references kept, residuals, collisions, and the
    unclassified files or refusals that block the campaign. Exit 1 when a repo
    not skipped is blocked (apply would refuse), 0 otherwise.

    \b
    Examples:
      renamer campaign plan campaign.yaml
      renamer campaign plan campaign.yaml --skip legacy-app --format json
    """
    result = run.plan(_load(campaign_file), skip, _progress(ctx))
    out = settings(ctx).output
    out.echo(dumps(render.plan_data(result)) if fmt == "json" else render.plan_text(result))
    return EXIT_FINDINGS if result.blocked else EXIT_OK


@campaign.command("apply")
@_file
@_skip
@_format
@common_options
@click.pass_context
def apply_command(ctx: click.Context, campaign_file: Path, skip: tuple[str, ...], fmt: str) -> int:
    """Phases 1 and 2: per repo, the sweep's commits on branch renamer/<move>.

    Refused (exit 3, nothing written anywhere) while a repo not skipped has an
    unclassified file or a refusal. Then, in depends_on order, each repo gets
    the sweep's two commits (renames, rewrite, with the move's trailers) and
    verify must pass; a repo that fails is rolled back to where its clone was,
    and the repos depending on it are skipped. Running it again leaves done
    repos alone (verified with these renames) and makes any other branch
    again. Exit 1 when a repo failed.

    \b
    Examples:
      renamer campaign apply campaign.yaml
      renamer campaign apply campaign.yaml --skip gateway
    """
    result = run.apply(_load(campaign_file), skip, _progress(ctx))
    out = settings(ctx).output
    out.echo(dumps(render.apply_data(result)) if fmt == "json" else render.apply_text(result))
    if result.refused:
        names = ", ".join(r.name for r in result.plan.blocked)
        raise UnsafeError(f"campaign refused: {names} blocked (see the plan above); nothing written "
                          f"in any repo; fix it or --skip {result.plan.blocked[0].name}")
    return EXIT_OK if result.ok else EXIT_FINDINGS


@campaign.command("push")
@_file
@_skip
@click.option("--forge", "forge_choice", type=click.Choice(["auto", "gh", "glab", "none"]), default="auto",
              help="Open pull requests with this CLI (auto: gh or glab where on PATH; none: only push).")
@_format
@common_options
@click.pass_context
def push_command(ctx: click.Context, campaign_file: Path, skip: tuple[str, ...], forge_choice: str,
                 fmt: str) -> int:
    """Phase 3: push each repo's renamer/<move> branch and propose it.

    Pushes to the url (a checkout's own origin where the url is a checkout),
    never forced and never to a default branch. With gh or glab, opens a pull
    request whose body is the move's summary and the audit; without one, prints
    the branch names. A branch the remote has already is not pushed again; a
    pull request not opened before is opened now. Exit 1 when a push or a
    pull request failed.

    \b
    Examples:
      renamer campaign push campaign.yaml
      renamer campaign push campaign.yaml --forge none
    """
    result = run.push(_load(campaign_file), skip, forge_choice, _progress(ctx))
    out = settings(ctx).output
    out.echo(dumps(render.push_data(result)) if fmt == "json" else render.push_text(result))
    return EXIT_OK if result.ok else EXIT_FINDINGS


@campaign.command("status")
@_file
@_format
@common_options
@click.pass_context
def status_command(ctx: click.Context, campaign_file: Path, fmt: str) -> int:
    """The burndown: per repo its state and the references left.

    Read from the clones' branches (the move's commits and their trailers, as
    renamer log reads them; what was pushed) and the last plan and apply.
    Asks no remote and writes nothing.

    \b
    Examples:
      renamer campaign status campaign.yaml
      renamer campaign status campaign.yaml --format json
    """
    result = run.status(_load(campaign_file))
    out = settings(ctx).output
    out.echo(dumps(render.status_data(result)) if fmt == "json" else render.status_text(result))
    return EXIT_OK
