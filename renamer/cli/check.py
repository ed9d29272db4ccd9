"""renamer verify and renamer audit: the proofs."""

from __future__ import annotations

import os
import posixpath
from pathlib import Path

import click

from renamer import hcl_blocks, lazy_re, moved_tags, vcs
from renamer.atomic import save
from renamer.cli import plan_guard, render_guard
from renamer.cli.common import early_listing, project_from, warn_interrupted
from renamer.cli.options import common_options, settings
from renamer.cli.output import Output
from renamer.dns.transition import transitions_text
from renamer.errors import EXIT_FINDINGS, EXIT_OK
from renamer.project import LoadedProject
from renamer.report.machine import audit_data, dumps, moved_dict, prune_data, tombstone_data, verify_data
from renamer.report.sarif import sarif
from renamer.report.text import audit_markdown, audit_table, verify_report
from renamer.sites import site_hosts, transition_documents, transitions
from renamer.sweep import run
from renamer.sweep.results import PruneResult
from renamer.terraform_plan import DEFAULT_TIMEOUT, binary_path, run_plan, workspaces
from renamer.words import plural


def _tombstones(ctx: click.Context, staged: bool, since: str | None, fmt: str) -> int:
    out = settings(ctx).output
    result = run.verify_change(project_from(ctx), staged=staged, since=since)
    if fmt == "json":
        out.echo(dumps(tombstone_data(result)))
    else:
        for stone in result.tombstones:
            out.echo(f"{stone.path}:{stone.line}:{stone.column}: tombstone: {stone.message()}\n")
        for live in result.live_again:
            out.echo(f"{live.path}:{live.line}:{live.column}: live again: {live.message()}\n")
        what = "staged change" if staged else f"change since {since}"
        back = len(result.tombstones) + len(result.live_again)
        # What was read beyond the added lines (sweep/tombstones.py): a changed file whole, or the repo.
        also = f"; {result.rechecked}" if result.rechecked else ""
        if back:
            last = f"verify: FAILED: {plural(back, 'old value')} back in the {what}"
            last += f" ({result.rechecked})" if result.live_again else ""
        else:
            last = (f"verify: OK: no old value in the {plural(result.lines, 'line')} the {what} adds "
                    f"({plural(len(result.moves), 'move')} checked{also})")
        out.echo(out.verdict(last))
    return EXIT_OK if result.ok else EXIT_FINDINGS


def _move_text(move: moved_tags.TaggedMove) -> str:
    return f"moved {move.old} -> {move.new} (move {move.name}, expired {move.expires.isoformat()})"




Decided = list[tuple[moved_tags.TaggedMove, str | None]]
# a kept block: why, and the folder whose plan still moves from it (None: kept for another reason)
Kept = list[tuple[moved_tags.TaggedMove, str, str | None]]


_SKIPPED = (".git", ".terraform", "terraform.tfstate.d", ".venv", "node_modules")


def _unlisted_roots(project: LoadedProject, listed: set[Path]) -> list[str]:
    """Folders of the repo that hold Terraform state or an init (`.terraform/`, `*.tfstate`,
    `terraform.tfstate.d/`) and are not in `terraform:`: a plan there is not proven."""
    found = []
    for dirpath, dirnames, filenames in os.walk(project.root):
        folder = Path(dirpath)
        dirnames[:] = [d for d in dirnames if d not in _SKIPPED]
        here = os.listdir(folder)
        if (".terraform" in here or "terraform.tfstate.d" in here
                or any(f.endswith(".tfstate") for f in filenames)) and folder.resolve() not in listed:
            found.append(project.config.display(folder))
    return sorted(found)


# a root module's own state settings: `backend "s3" {` or `cloud {` (inside its `terraform` block)
_BACKEND = lazy_re.compile(rb'(?m)^[ \t]*(?:backend[ \t]+"[^"\r\n]*"|cloud)[ \t]*\{')


def _module_calls(project: LoadedProject) -> tuple[dict[str, set[str]], set[str]]:
    """Each folder of the repo holding `.tf` files -> the repo folders its `module` blocks call
    by a local `source` (`../../modules/vm`); and the folders declaring a backend (root modules
    whose state is kept elsewhere, applied from CI: break-it t26-32, finding 01)."""
    calls: dict[str, set[str]] = {}
    backends: set[str] = set()
    for dirpath, dirnames, filenames in os.walk(project.root):
        dirnames[:] = [d for d in dirnames if d not in _SKIPPED]
        folder = os.path.relpath(dirpath, project.root).replace(os.sep, "/")
        folder = "" if folder == "." else folder
        for name in filenames:
            if not name.endswith((".tf", ".tf.json")):
                continue
            try:
                data = (Path(dirpath) / name).read_bytes()
            except OSError:
                continue
            called = calls.setdefault(folder, set())
            for call in hcl_blocks.read(data, (), is_json=name.endswith(".json")).calls:
                if call.source is not None and call.source.startswith(("./", "../")):
                    child = posixpath.normpath(posixpath.join(folder or ".", call.source))
                    if not child.startswith(".."):
                        called.add("" if child == "." else child)
            if not name.endswith(".json") and _BACKEND.search(data):
                backends.add(folder)
    return calls, backends


def _reached(calls: dict[str, set[str]], start: str) -> set[str]:
    """`start` and every module folder it calls, directly or through other modules."""
    seen = {start}
    todo = [start]
    while todo:
        for child in calls.get(todo.pop(), ()):
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return seen


def _unproven_modules(project: LoadedProject, listed: set[Path]) -> dict[str, str]:
    """Module folder -> why its `moved` blocks are not proven unneeded by the `terraform:` plans:
    no listed folder calls it (a module published to other repositories: no plan of the repo
    reads it), or a root module of the repo that is not listed calls it (a folder no other calls,
    or one declaring a backend: its state may be elsewhere, its plan is unknown)."""
    calls, backends = _module_calls(project)
    root = project.root.resolve()
    shown = {}
    for path in listed:
        try:
            rel = path.relative_to(root).as_posix()
        except ValueError:
            continue
        shown["" if rel == "." else rel] = project.config.display(path)
    covered: set[str] = set()
    for rel in shown:
        covered |= _reached(calls, rel)
    called = {c for children in calls.values() for c in children}
    roots = sorted(f for f in calls if (f not in called or f in backends) and f not in shown)
    out: dict[str, str] = {}
    for module in sorted(calls):
        name = module or "the root module"
        if module not in covered:
            out[module] = (f"not proven unneeded: no `terraform:` folder calls {name}, so no plan of this "
                           "repo reads it (a module used by other repositories keeps its `moved` "
                           "blocks); list a folder that calls it")
            continue
        callers = [r for r in roots if module in _reached(calls, r)]
        if callers:
            what = "a root module with a backend" if callers[0] in backends else "a root module"
            caller = callers[0] or "the root module"
            out[module] = (f"not proven unneeded: {caller} calls {name} ({what}) and is not in "
                           "renamer.yaml's `terraform:`, so its plan is unknown; list it")
    return out


def _prune_moves(project: LoadedProject, moves: list[moved_tags.TaggedMove],
                 write: bool) -> tuple[Decided, Kept]:
    """The `moved` blocks past expiry that can be proved unneeded, removed (with --write): `terraform:`
    folders are configured, every other folder holding state is among them, each workspace of each
    is planned, no plan still moves from the block's `from` or an address inside it, and no block
    of its chain is kept (a chain goes whole). Every other block is kept, with why."""
    if not moves:
        return [], []
    why: str | None = None
    unproven: dict[str, str] = {}
    where: dict[int, str] = {}
    planned: dict[str, str] = {}
    if not project.config.terraform_dirs:
        why = ("not proven unneeded: no `terraform:` folder is configured in renamer.yaml, so no plan shows "
               "that every state has applied it; list the folders that use it")
    else:
        folders = plan_guard.directories(project, ())
        unlisted = _unlisted_roots(project, {f for f, _ in folders})
        unproven = _unproven_modules(project, {f for f, _ in folders})
        if unlisted:
            why = (f"not proven unneeded: {', '.join(unlisted)} holds Terraform state or an init but is not "
                   "in renamer.yaml's `terraform:`, so its plan is unknown; list it")
        else:
            binary = binary_path(project.config.terraform_binary)
            for folder, shown in folders:
                names = workspaces(folder, shown, binary, DEFAULT_TIMEOUT)
                if names is None:
                    why = (f"not proven unneeded: `terraform workspace list` failed in {shown}, so its "
                           "workspaces are unknown")
                    break
                for name in names:
                    label = shown if names == ["default"] else f"{shown} (workspace {name})"
                    guard = run_plan(folder, shown, binary, DEFAULT_TIMEOUT, lambda c: None,
                                                workspace=name)
                    for c in guard.changes:
                        if c.previous and c.previous != c.address:
                            planned.setdefault(c.previous, label)
    kept_why: dict[int, str] = {}
    every = [m for rel in moved_tags.tagged_files(project.root, project.git)
             for m in moved_tags.tagged_moves(rel, (project.root / rel).read_bytes())]
    expired = {(m.path, m.start) for m in moves}
    for move in moves:
        if why is not None:
            kept_why[id(move)] = why
            continue
        module = posixpath.dirname(move.path)
        if module in unproven:
            kept_why[id(move)] = unproven[module]
            continue
        still = next((d for p, d in planned.items() if moved_tags.pending(move, {p})), None)
        if still is not None:
            where[id(move)] = still
            kept_why[id(move)] = f"the plan of {still} still moves from {move.old}; apply it there first"
    for chain in moved_tags.chains([*moves, *(m for m in every if (m.path, m.start) not in expired)]):
        if len(chain) < 2:
            continue
        held = next((m for m in chain if id(m) in kept_why or (m.path, m.start) not in expired), None)
        if held is None:
            continue
        for move in chain:
            if (move.path, move.start) in expired and id(move) not in kept_why:
                kept_why[id(move)] = (f"its chain ({held.old} -> {held.new}, {held.path}:{held.line}) is "
                                      "kept, and a chain goes whole: state may still be at its first address")
    removed: Decided = [(m, None) for m in moves if id(m) not in kept_why]
    kept: Kept = [(m, kept_why[id(m)], where.get(id(m))) for m in moves if id(m) in kept_why]
    if write:
        for path in sorted({m.path for m, _ in removed}):
            data = (project.root / path).read_bytes()
            for move in sorted((m for m, _ in removed if m.path == path), key=lambda m: -m.start):
                data = moved_tags.without(data, move)
            save(project.root / path, data)
    return removed, kept


def _prune(out: Output, result: PruneResult, fmt: str, moves: bool = False) -> int:
    if fmt == "json":
        out.echo(dumps(prune_data(result)))
        return EXIT_OK
    for edit in result.edits:
        out.write_bytes(out.color_diff(edit.diff().encode("utf-8")))
    for item in result.pruned:
        out.echo(f"{item.exemption.where}: {'removed' if result.written else 'would remove'} "
                 f"{item.exemption.label}: {item.why}\n")
    if not result.pruned and moves:
        pass  # the moved blocks say what there is
    elif not result.pruned:
        out.echo("audit --prune: nothing to prune: every keep rule kept something (or was not asked: a file "
                 "it matches was skipped unread), none has expired\n")
    elif not result.written:
        out.echo(f"audit --prune: dry run, nothing written: {plural(len(result.pruned), 'exemption')} "
                 "to remove; --write removes them\n")
    return EXIT_OK


@click.command()
@click.option("--format", "fmt", type=click.Choice(["text", "json", "sarif"]), default="text",
              help="Output format (sarif: for GitHub code scanning).")
@click.option("--strict", is_flag=True,
              help="Near-misses fail too, not just warn; so do collisions inside one structured file, and "
                   "current-state files skipped unread (binary, another encoding, too large) that hold an "
                   "old value.")
@click.option("--include-ignored", is_flag=True,
              help="Also check git-ignored files that a `current` pattern covers.")
@click.option("--staged", is_flag=True,
              help="Check only the lines the index adds against HEAD (a pre-commit hook): an old name "
                   "of this move or a past one (moves/*.yaml) must not come back.")
@click.option("--since", "since", metavar="REF", default=None,
              help="Check only the lines the commits since REF add (CI: the target branch).")
@click.option("--terraform", "terraform", metavar="DIR", multiple=True, type=click.Path(path_type=Path),
              help="Also run `terraform plan -json -refresh=false -lock=false` (read-only, against the "
                   "existing state) in DIR, initialised already (repeatable; renamer.yaml's `terraform:` "
                   "lists more): a planned delete or replace fails verify.")
@click.option("--allow-replace", "allow_replace", metavar="ADDR", multiple=True,
              help="With the plan guard: accept a planned delete or replace of this resource address "
                   "(repeatable).")
@click.option("--terraform-timeout", "terraform_timeout", type=click.FloatRange(min=1),
              default=DEFAULT_TIMEOUT, show_default=True, metavar="SECONDS",
              help="How long one terraform plan may run (exit 2 past it).")
@click.option("--render", "render", metavar="DIR", multiple=True, type=click.Path(path_type=Path),
              help="Also render the kustomization in DIR with `kubectl kustomize`, on the tree at the move's "
                   "base commit and on the work tree (repeatable): an old value left in a rendered object, "
                   "or an object whose kind/namespace/name changed, fails verify.")
@click.option("--base", "base", metavar="REV", default=None,
              help="With --render: the tree before the move (default: the commit before the move's first).")
@click.option("--allow-identity", is_flag=True,
              help="With --render: accept an object renamed by the move's names (as `sweep "
                   "--allow-identity` moves it).")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@common_options
@click.pass_context
def verify(ctx: click.Context, fmt: str, strict: bool, include_ignored: bool, staged: bool,
           since: str | None, terraform: tuple[Path, ...], allow_replace: tuple[str, ...],
           terraform_timeout: float, render: tuple[Path, ...], base: str | None, allow_identity: bool,
           paths: tuple[Path, ...]) -> int:
    """Prove no live reference to an old value remains.

    Exits 1 listing each reference left in a current-state file outside an
    exemption (identifiers included) or in an unclassified file, as
    path:line:col with the YAML key path or Python role and a hint. A looser
    pass (any case, -/_/. interchangeable, dashed addresses) lists
    near-misses as warnings; --strict makes them failures. Secrets are masked.

    \b
    Examples:
      renamer verify                  # in CI or a pre-commit hook
      renamer verify --strict         # near-misses fail too
      renamer verify stacks/ runbook.md  # only these paths
      renamer verify --format sarif > renamer.sarif
      renamer verify --staged         # after the move: nothing staged brings an old name back
      renamer verify --since origin/main
      renamer verify --terraform infra/   # and what terraform would destroy
      renamer verify --render k8s/overlays/prod   # and what kustomize renders, before and after
    """
    out = settings(ctx).output
    if os.environ.get(vcs.RENAMES_PHASE) == "undo":
        # Run as a commit hook on `renamer undo`'s commit: the old values are current again on
        # purpose; the undo verifies the inverse renames itself once committed.
        out.info("verify: passed for renamer undo's commit; the undo verifies the inverse renames after it")
        return EXIT_OK
    if staged or since is not None:
        if terraform:
            raise click.UsageError("--terraform plans the work tree; --staged and --since check a change")
        if render:
            raise click.UsageError("--render renders the work tree; --staged and --since check a change")
        if staged and since is not None:
            raise click.UsageError("--staged and --since exclude each other")
        if fmt == "sarif":
            raise click.UsageError("--staged and --since print text or json")
        if paths:
            raise click.UsageError("--staged and --since check a change; PATH... checks the work tree")
        return _tombstones(ctx, staged, since, fmt)
    if os.environ.get(vcs.RENAMES_PHASE) == "renames":
        # Run as a commit hook on a sweep's first commit: pure renames, the rewrite follows
        # in the next commit, which this hook checks in full.
        out.info("verify: passed for a sweep's pure-rename commit; its rewrite commit is checked")
        return EXIT_OK
    with early_listing(ctx) as listing:
        project = project_from(ctx)
        result = run.verify(project, strict=strict, include_ignored=include_ignored,
                            hosts=site_hosts(project.config),
                            runtime=run.Runtime(out.progress("scanning"), listing), paths=paths)
        guards = plan_guard.run_guards(project, terraform, allow_replace, terraform_timeout)
        rendered = render_guard.run_render(project, render, base, allow_identity)
    warn_interrupted(ctx, result.interrupted)
    for address in plan_guard.unmatched(guards, allow_replace):
        out.echo(f"renamer: warning: --allow-replace {address}: no planned delete or replace has this "
                 "address\n", err=True)
    for path in result.unchecked:  # never a silent OK for a path verify did not look at
        out.echo(f"renamer: warning: {path}: no file here is checked (ignored by git, excluded, renamer's "
                 "own files, or nothing there); --include-ignored checks ignored files that `current` "
                 "covers\n", err=True)
    summary, verdict = result.summary, result.verdict
    ok = verdict.ok and not any(g.failing for g in guards) and not rendered
    if fmt == "json":
        data = verify_data(result)
        data.update(ok=ok)
        if guards:  # as `render`: only where asked, so the library's verify data and this agree
            data.update(terraform=plan_guard.guard_data(guards))
        if render:
            data.update(render=render_guard.render_data(rendered))
        out.echo(dumps(data))
    elif fmt == "sarif":
        out.echo(sarif(summary, summary.residual + summary.unclassified, include_kept=False))
    else:
        report = verify_report(summary, verdict, result.expired, result.collisions, quiet=out.quiet,
                               verbose=out.verbosity >= 1)
        lines = plan_guard.guard_lines(guards)
        rendered_lines = render_guard.render_lines(rendered)
        if out.quiet:  # -q: the findings alone
            out.echo(report + "".join(line + "\n" for line in lines if ": error: " in line)
                     + "".join(line + "\n" for line in rendered_lines))
            return EXIT_OK if ok else EXIT_FINDINGS
        body, _, last = report.rstrip("\n").rpartition("\n")
        if body or lines or rendered_lines:
            out.echo("".join(line + "\n" for line in [*([body] if body else []), *lines, *rendered_lines]))
        if not ok and verdict.ok:
            last = last.replace("verify: OK:", "verify: FAILED:", 1)
        last += plan_guard.guard_summary(guards)
        if render:
            last += (f"; render: {plural(len(rendered), 'finding')} in {plural(len(render), 'kustomization')}"
                     if rendered else f"; render: {plural(len(render), 'kustomization')} rendered alike")
        out.echo(out.style(last, fg="green" if ok else "red", bold=True) + "\n")
    return EXIT_OK if ok else EXIT_FINDINGS


@click.command()
@click.option("--format", "fmt", type=click.Choice(["table", "markdown", "json", "sarif"]),
              default="table", help="Output format (json is a stable interface).")
@click.option("--output", "output_file", type=click.Path(path_type=Path, dir_okay=False),
              help="Write the report to FILE instead of standard output.")
@click.option("--strict", is_flag=True,
              help="Exit 1 on residual or unclassified references or stale exemptions.")
@click.option("--include-ignored", is_flag=True,
              help="Also audit git-ignored files that a `current` pattern covers.")
@click.option("--prune", is_flag=True,
              help="Show the allowlist without keep rules that kept nothing and expired exemptions "
                   "(a diff; nothing written without --write), and the `moved` blocks past expiry that "
                   "plans of every workspace of the `terraform:` folders prove unneeded (a chain whole).")
@click.option("--write", "write", is_flag=True,
              help="With --prune: write the pruned allowlist and remove those `moved` blocks.")
@common_options
@click.pass_context
def audit(ctx: click.Context, fmt: str, output_file: Path | None, strict: bool,
          include_ignored: bool, prune: bool, write: bool) -> int:
    """List every reference to an old value that remains on purpose, and why.

    Grouped by reason (record class, dated-file, dated-section, inline, keep
    rule), with counts per reason and per file, each occurrence's path:line
    and line (secrets masked); residual, unclassified and skipped references;
    stale exemptions that matched nothing; the Terraform `moved` blocks
    the sweep wrote that are past their expiry (`# renamer: move NAME
    expires DATE`); and the DNS inventory's transitional aliases (old names
    kept as CNAMEs to their new FQDN: `options.dns_transition`), each with
    the date it expires or was retired (RENAMER_NOW sets the clock).

    \b
    Examples:
      renamer audit                                 # a table on the terminal
      renamer audit --format markdown > AUDIT.md    # for a PR or commit message
      renamer audit --format json | jq .summary     # the stable interface
      renamer audit --format sarif --output audit.sarif
      renamer audit --strict                        # fail on stale or expired exemptions too
      renamer audit --prune                         # what pruning the allowlist would remove
      renamer audit --prune --write                 # remove it (comments and order kept)
    """
    out = settings(ctx).output
    if write and not prune:
        raise click.UsageError("--write goes with --prune")
    if prune and (fmt not in ("table", "json") or output_file is not None):
        raise click.UsageError("--prune prints a diff (or json with --format json)")
    project = project_from(ctx)
    with early_listing(ctx) as listing:
        result = run.audit(project, include_ignored=include_ignored,
                           runtime=run.Runtime(out.progress("scanning"), listing))
    warn_interrupted(ctx, result.interrupted)
    moves = result.moved_expired
    if prune:
        pruned = run.prune(project, result, write=write)
        removed, kept = _prune_moves(project, moves, write)
        if fmt == "json":
            out.echo(dumps({**prune_data(pruned), "moved_removed": [moved_dict(m) for m, _ in removed],
                            "moved_kept": [{**moved_dict(m), "planned_in": d, "why": w}
                                           for m, w, d in kept]}))
            return EXIT_OK
        _prune(out, pruned, fmt, bool(moves))
        for move, _ in removed:
            said = "removed" if write else "would remove"
            out.echo(f"{move.path}:{move.line}: {said} {_move_text(move)}\n")
        for move, reason, _ in kept:
            out.echo(f"{move.path}:{move.line}: kept {_move_text(move)}: {reason}\n")
        if removed and not write:
            out.echo(f"audit --prune: dry run, nothing written: {plural(len(removed), 'moved block')} to "
                     "remove; --write removes them\n")
        return EXIT_OK
    summary, refs, stale = result.summary, result.references, result.stale
    dated = transitions(project.config) if fmt != "json" else None  # DNS transitional aliases, dated
    if fmt == "json":
        text = dumps({**audit_data(result), "dns_transitional": transition_documents(project.config)})
    elif fmt == "markdown":
        text = audit_markdown(result.name, summary, refs, stale)
    elif fmt == "sarif":
        text = sarif(summary, refs, include_kept=True)
    else:
        text = audit_table(summary, refs, stale, out.width() if output_file is None else None)
        if moves:
            text = text.rstrip("\n") + "\n\n" + "\n".join([
                f"Moved blocks past expiry: {len(moves)} (`audit --prune` removes those no plan still needs)",
                *(f"  {m.path}:{m.line}  {_move_text(m)}" for m in moves)]) + "\n"
        if dated is not None and (dated.transitions or dated.no_window):
            text = text.rstrip("\n") + "\n\n" + transitions_text(
                dated.transitions, asked=False, no_window=dated.no_window).replace(
                "transitional aliases:", "DNS transitional aliases:", 1).replace(
                "then retired)", "then retired; from the site files, no resolver asked)", 1)
    if output_file is None:
        out.echo(text)
    else:
        save(output_file if output_file.is_absolute() else Path.cwd() / output_file, text.encode("utf-8"))
        out.info(f"wrote {output_file}")
    return EXIT_FINDINGS if strict and result.failed else EXIT_OK
