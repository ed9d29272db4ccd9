"""The fields of every JSON document, for docs/cli.md (rendered by reference.py; a test checks the
top-level keys against what each command prints)."""

from __future__ import annotations

_SCHEMA = "the document's version (renamer/documents.py): raised only by a release that says so"
_TRANSITIONAL = ("the DNS transitional aliases (options.dns_transition, a host's transition:), each old name kept as "
                 "a CNAME to its new FQDN until its date: name (the old FQDN), short, target, host, expires (UTC), "
                 "state (served, or retired once expired), from (where the window is set)")
_AUDITED = _TRANSITIONAL.replace("state (served, or retired once expired)",
                                 "state (in-window, or expired: from the clock and the site files, no resolver "
                                 "asked; `dns apply` retires an expired one where it is still served)")

DOCUMENTS: dict[str, dict[str, str]] = {
    "renamer verify --format json": {
        "schema": _SCHEMA, "name": "the move's name",
        "ok": ("the verdict: what the exit code says (with --render, a `render` list follows the fields below: "
               "folder, kind, namespace, name, message of each finding; with the plan guard (--terraform, "
               "`terraform:`), a `terraform` list, per folder: directory, binary, changes (address, action, "
               "previous, reason, forced_by, drift, accepted, fails, message))"),
        "summary": "counts: files_scanned, residual, unclassified, kept (per reason), near_misses, skipped",
        "findings": "each live reference: path, line, column, old, new, status, reason, note, key_path, role",
        "near_misses": ("what looks like an old value but is not one: path, line, column, text, like, kind, why, "
                        "name (the longer name it stands in, or empty)"),
        "encrypted": ("current-state files read only as ciphertext where a value may stand (ansible-vault, "
                      "sops, git-crypt, age, OpenPGP, an encrypted PEM key or zip): path, why; --strict fails "
                      "on them"),
        "not_read": ("current-state places not read that may hold an old value (a git submodule, a file the "
                     "allowlist excludes that spells one, an exclude covering every file, a Git LFS pointer, a "
                     "git-annex link, a compressed file renamer cannot open): path, why; --strict fails on them"),
        "ignored_with_references": ("git-ignored files whose content holds an old value (not checked without "
                                    "--include-ignored)"),
        "ignored_with_old_paths": ("git-ignored files whose path alone holds an old value (a sweep moves them "
                                   "only with a folder it moves whole)"),
        "expired": "keep rules and record classes past their expires: date",
        "collisions": "new values already standing where the sweep writes them, and whether --strict fails",
    },
    "renamer verify --staged/--since --format json": {
        "schema": _SCHEMA, "ok": "no old value comes back", "moves": "the moves checked (this one and moves/*.yaml)",
        "files": "files the change touches", "lines": "lines it adds",
        "tombstones": "each old value back: path, line, column, old, new, move, date, message",
        "live_again": ("each old value a change made live without adding it (an exemption ended): path, line, "
                       "column, old, new, move, date, why, message"),
        "rechecked": ("what was read beyond the added lines: the changed files whole, or the whole repo where "
                      "the configuration changed"),
    },
    "renamer audit --format json": {
        "schema": _SCHEMA, "name": "the move's name", "summary": "counts, as verify's",
        "references": "every reference with its status (kept, residual, ...), reason and note",
        "near_misses": "as verify's",
        "stale_exemptions": ("exemptions that matched nothing, or kept nothing (`unread`: the files it "
                             "matches that were skipped unread: not asked, never pruned)"),
        "unreadable": "files that could not be read", "encrypted": "as verify's", "not_read": "as verify's",
        "ignored_with_references": "as verify's", "ignored_with_old_paths": "as verify's",
        "expired": "as verify's",
        "moved_expired": "Terraform `moved` blocks the sweep wrote, past their expiry: path, line, from, to, move, "
                         "expires",
        "dns_transitional": _AUDITED,
    },
    "renamer audit --prune --format json": {
        "schema": _SCHEMA, "written": "whether --write removed them",
        "removed": "each exemption removed (or to remove) and why", "files": "the allowlist files edited",
        "moved_removed": "each `moved` block past expiry removed (or to remove), as moved_expired",
        "moved_kept": "each one kept, with why (not proven unneeded, a plan still moves from it, its chain is kept) and planned_in: the folder whose plan still moves from it, or null",
    },
    "renamer sweep --format json": {
        "schema": _SCHEMA, "name": "the move's name", "collisions": "as verify's",
        "dry_run": "nothing was written",
        "edits": "each planned replacement: path, line, column, old, new", "renames": "files moved: from, to",
        "refused": "files whose edits would break their structure, links that would dangle (path, line, "
                   "problem): a sweep that writes refuses",
        "relinks": "symlinks re-pointed to follow the renames: path, from, to (target texts)",
        "folders": "folders moved whole (every tracked file of them renamed into one new folder): from, to, and untracked: what git does not track in them, moved with them (a folder ends in /)",
        "serials": "zone files whose SOA serial goes with the edits: path, old, new",
        "reverse_zones": ("per network move that changes which reverse zones answer for it: from, to, renamed "
                          "(from, to), add (zones the new network needs that no old one becomes), remove (old "
                          "zones answering for addresses outside the new network), classless (RFC 2317 names, "
                          "never rewritten)"),
        "pins": ("digests of rewritten files recorded elsewhere: path, line, column, of, algorithm, old, new, "
                 "status (updated, residual, kept), why"),
        "looks_like_records": ("lines the sweep rewrites in a current-state prose file whose paragraph or "
                               "heading holds a date on or before the cutover (dry run): path, line, old (each old "
                               "value on the line, \", \" between), date, date_line"),
        "summary": "counts: files_changed, replacements, to_rewrite and left (dry run), kept, near_misses, ...",
        "dead_keep_rules": ("`key:` keep rules whose files hold old values at none of which the key path "
                            "stands (a typo, a file that does not parse): name, source, files, why; the sweep "
                            "rewrites those values"),
    },
    "renamer explain --format json": {
        "schema": _SCHEMA, "path": "the file", "status": "its class: current, record, excluded, unclassified",
        "rule": "the rule that classes it", "line": "the line asked about, or null",
        "decisions": "each old value or near-miss there: line, column, found, new, decision, rule, key_path",
    },
    "renamer log --format json": {
        "schema": _SCHEMA, "moves": "each move in the history: move, date, config, commits (sha, role), changed, kept",
    },
    "renamer undo --format json": {
        "schema": _SCHEMA, "move": "the move undone (as `renamer log` names it)",
        "undo": "the undo's own move name (`undo-MOVE`), which `renamer log` lists",
        "status": "undone, dry-run, refused (exit 3) or nothing (already undone: exit 0)",
        "commits": "the move's commits reverted: sha, role",
        "undone_by": "with status nothing: the undo commit that undid the move already, else null",
        "commit": "the undo commit made, or null", "changed": "the paths the undo changes, as HEAD names them",
        "renamed": "files the undo renames back: from, to",
        "deleted": "files the move changed that a later commit deleted: left deleted, nothing of them restored",
        "refused": "each place refused: path, line (null for a whole file), kind (conflict, dangling, collision, "
                   "unexplained; dns: with --dns, a host or resolver of the inventory changed since the move, "
                   "path the inventory's folder), message, text (the line as it stands, secrets masked)",
        "verify": "after an undo: verify of the inverse renames: ok, residual, unclassified; else null",
        "dns": "with --dns: dry_run, ok (null in a dry run), resolvers (resolver, status: planned, or the "
               "apply's outcome), head_differs (the records HEAD's inventory describes otherwise than the ones "
               "applied, after the undo: exit 1; empty in a dry run); else null",
    },
    "renamer dns plan --format json": {
        "schema": _SCHEMA, "changes": "whether anything is left to do on any resolver (not only snippets)",
        "resolvers": "per resolver: managed, changes, its snippets with their digests (for dns apply --plan), "
                     "records +/-/~, interrupted, lock, not_served (asked over DNS), hand_written, down",
        "over_thresholds": "what the safety thresholds would refuse without --force (deletes and updates, "
                           "counted apart, per resolver and site); empty when the apply may go on",
        "transitional": _TRANSITIONAL,
    },
    "renamer dns verify --format json": {
        "schema": _SCHEMA, "ok": "every check on every resolver passed",
        "resolvers": "per resolver: name, endpoint, ok, unreachable, checks (check, name, type, expected, got)",
    },
    "renamer dns who-asks --format json": {
        "schema": _SCHEMA, "ok": "no client asked, and every log read covers the window",
        "since": "the window's start", "olds": "the old names and addresses looked for",
        "logs": ("per resolver read: resolver, path, queries (in the window), own (of them, renamer's own "
                 "checks for an old value, not counted as a client's), first, last, problem"),
        "askers": "per old value and client: old, client, resolver, count, types, last",
    },
    "renamer campaign plan --format json": {
        "schema": _SCHEMA, "name": "the move's name", "branch": "the branch each repo gets: renamer/<move>",
        "blocked": ("the repos whose unclassified files, refusals, residuals or errors block the campaign "
                    "(apply refuses)"),
        "repos": ("per repo, in depends_on order: name, state (ready, nothing, done, blocked, skipped), why, clone "
                  "(cloned, fetched), base (the default branch), files, replacements, renames, kept, residual, "
                  "collisions, unclassified (paths), refusals, commits (sha, role), left (references left)"),
    },
    "renamer campaign apply --format json": {
        "schema": _SCHEMA, "name": "the move's name", "branch": "renamer/<move>",
        "ok": "every repo applied, already done, had nothing to change, or was skipped",
        "refused": "a repo was blocked: nothing was written in any repo",
        "plan": "phase 1's repos, as campaign plan's",
        "repos": ("per repo: name, outcome (applied, already, nothing, failed: rolled back, skipped), why, "
                  "commits (sha, role)"),
    },
    "renamer campaign push --format json": {
        "schema": _SCHEMA, "name": "the move's name", "forge": "gh, glab, or null (no pull requests opened)",
        "ok": "every repo pushed (or had it already, or was skipped), every pull request opened",
        "repos": ("per repo: name, outcome (pushed, already, nothing, not-applied, failed, skipped), branch, target (where "
                  "it went), why, proposal (the forge's answer: the pull request, or `failed: ...`)"),
    },
    "renamer campaign status --format json": {
        "schema": _SCHEMA, "name": "the move's name", "branch": "renamer/<move>",
        "done": "repos applied, pushed or with nothing to change",
        "left": "references left over every repo (null: a repo not planned yet)",
        "repos": ("per repo: name, state (not cloned, not planned, a plan or apply state, applied, pushed, "
                  "`pushed, no pull request`), why, left, commits (sha, role), changed (the rewrite's "
                  "Renamer-Changed), pushed"),
    },
    "renamer dns status --format json": {
        "schema": _SCHEMA, "ok": "no revert overdue or failed, no confirm unfinished, every resolver read",
        "resolvers": "per resolver: resolver, target, state (free, held, armed, reverting, overdue, revert "
                     "failed, confirm unfinished, unreachable, not read), holder (user, host, pid, started), "
                     "armed (apply, sequence, seconds, deadline, how, pid, unit, script, folder, seconds_left), "
                     "failed, error, last",
    },
    "renamer probe --format json": {
        "schema": _SCHEMA, "dry_run": "the endpoints were listed, not probed", "ok": "every endpoint answered",
        "endpoints": "each endpoint: where it is named, resolution, answers, connect, http, latency_ms, problems",
    },
}


def markdown() -> str:
    parts = ["# JSON documents", "",
             "Every document starts with `schema`; these are the top-level fields of each.", "",
             "A file name (or any other text) that is not UTF-8 is shown with each byte that is not as "
             "`\\xNN` (`\"n\\\\xe9-pug.txt\"`), and given exactly beside it, base64, in a field named "
             "after it with `_bytes` (`\"path_bytes\": \"buktcHVnLnR4dA==\"`): read that one to open the "
             "file. A JSON string never holds a lone surrogate (`\\udce9`), which strict parsers refuse "
             "or replace.", ""]
    for command, fields in DOCUMENTS.items():
        parts += [f"### `{command}`", "", "| field | what it holds |", "| --- | --- |"]
        parts += [f"| `{name}` | {meaning} |" for name, meaning in fields.items()]
        parts.append("")
    return "\n".join(parts)
