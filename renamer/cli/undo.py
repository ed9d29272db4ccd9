"""renamer undo: the inverse of a recorded move, committed as a move of its own."""

from __future__ import annotations

import click

from renamer import vcs_command
from renamer.cli.common import early_listing, project_from
from renamer.cli.options import common_options, settings
from renamer.cli.output import Output
from renamer.errors import EXIT_FINDINGS, EXIT_OK, EXIT_UNSAFE, UnsafeError
from renamer.masking import mask_diff, mask_line
from renamer.report.machine import dumps, undo_data
from renamer.report.text import verify_report
from renamer.sweep import run, undo
from renamer.sweep.results import VerifyResult
from renamer.words import plural


@click.command("undo")
@click.argument("move")
@click.option("--dry-run", is_flag=True, help="Print the undo's diff and what it checked; write nothing.")
@click.option("--no-verify", "no_hooks", is_flag=True,
              help="Skip the repo's pre-commit and commit-msg hooks, as git's --no-verify.")
@click.option("--commit-timeout", type=click.FloatRange(min=0), default=vcs_command.DEFAULT_COMMIT_TIMEOUT,
              show_default=True, help="Seconds git commit (and its hooks) may take before it is stopped.")
@click.option("--show-secrets", is_flag=True, help="Print the diff's secret-looking values unmasked.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="Output format.")
@common_options
@click.pass_context
def undo_command(ctx: click.Context, move: str, dry_run: bool, no_hooks: bool, commit_timeout: float,
                 show_secrets: bool, fmt: str) -> int:
    """Undo a recorded move: revert its commits and commit the inverse as a move.

    MOVE is a move `renamer log` lists. Its commits (renames, rewrite,
    .git-blame-ignore-revs entry, the keep rules of sweep --interactive, the
    `moved` blocks the rewrite wrote) are reverted onto HEAD with git's 3-way
    merge, in a scratch worktree first, then committed as one commit carrying
    `Renamer-Move: undo-MOVE` and `Renamer-Undoes: MOVE`; verify of the
    inverse renames runs after it (exit 1 where it fails).

    Refused (exit 3, each place named as path:line): a line the move wrote
    that a later commit changed, a new value used since where the undo would
    leave it dangling, an old value used again where the undo writes it, a
    dirty work tree, a move whose commits are not in HEAD's history, and the
    undo of an undo (run the move again instead). A move already undone
    changes nothing (exit 0).

    \b
    Examples:
      renamer log                          # the moves, and their names
      renamer undo fv-ml1-move --dry-run   # the inverse as a diff; nothing written
      renamer undo fv-ml1-move             # revert, commit, verify
      renamer undo fv-ml1-move --format json
    """
    options = settings(ctx)
    out = options.output
    project = project_from(ctx)
    if not project.git:
        raise UnsafeError(f"{project.root}: not a git repository: renamer undo reverts the commits of a move")
    if not dry_run:
        undo.check_clean(project.root)
    plan = undo.plan_undo(project, move)
    if plan.run is None or plan.refusals or dry_run:
        return _report(out, plan, fmt, dry_run, show_secrets)
    with vcs_command.commit_timeout(commit_timeout):
        sha = undo.apply_undo(project.root, plan, hooks=not no_hooks)
    assert plan.renames is not None
    inverse = undo.inverse_project(project, move, plan.renames)
    with early_listing(ctx) as listing:
        verified = run.verify(inverse, runtime=run.Runtime(out.progress("verifying"), listing))
    if fmt == "json":
        out.echo(dumps(undo_data(plan, dry_run=False, commit=sha, verified=verified)))
    else:
        _summary(out, plan, sha)
        _verified(out, verified)
    return EXIT_OK if verified.verdict.ok else EXIT_FINDINGS


def _report(out: Output, plan: undo.UndoPlan, fmt: str, dry_run: bool, show_secrets: bool) -> int:
    """Nothing left to undo, a refusal, or a dry run."""
    code = EXIT_UNSAFE if plan.refusals else EXIT_OK
    if fmt == "json":
        out.echo(dumps(undo_data(plan, dry_run=dry_run, commit=None, verified=None)))
        return code
    if plan.run is None:
        out.echo(f"undo: nothing left to undo: {plan.move} was undone by {(plan.already or '')[:12]} "
                 f"({undo.undo_name(plan.move)}); to redo it, run the move again\n")
        return EXIT_OK
    if plan.refusals:
        for r in plan.refusals:
            out.echo(f"{r.where()}: refused ({r.kind}): {r.message}\n")
            if r.text:
                out.echo(f"    {mask_line(r.text)}\n")
        places = plural(len(plan.refusals), "place")
        out.echo(out.verdict(f"undo: REFUSED: {places} where undoing {plan.move} would lose a change or "
                             "leave a name wrong; nothing was written"))
        return code
    diff, masked = (plan.diff, 0) if show_secrets else mask_diff(plan.diff)
    out.write_bytes(out.color_diff(diff))
    if masked:
        out.info(f"renamer: {plural(masked, 'diff line')} hold secrets, masked (****): this diff does not "
                 "apply as printed; --show-secrets prints it exactly")
    out.echo("")
    _summary(out, plan, None)
    return code


def _summary(out: Output, plan: undo.UndoPlan, sha: str | None) -> None:
    assert plan.run is not None
    commits = ", ".join(f"{s[:12]} {role}" for s, role in plan.run.commits)
    files = plural(len(plan.changed), "file")
    lines = plan.counts
    done = f"committed as {sha[:12]} ({undo.undo_name(plan.move)})" if sha else "dry run: nothing written"
    out.echo(f"undo: {plan.move} ({commits}): {files}, {plural(len(plan.renamed), 'rename')}, "
             f"-{lines.get('removed', 0)} +{lines.get('added', 0)} lines; {done}\n")


def _verified(out: Output, verified: VerifyResult) -> None:
    report = verify_report(verified.summary, verified.verdict, verified.expired, verified.collisions,
                           quiet=out.quiet)
    body, _, last = report.rstrip("\n").rpartition("\n")
    if body:
        out.echo(body + "\n")
    out.echo(out.verdict(f"undo: verify of the inverse renames: {last.removeprefix('verify: ')}"))
