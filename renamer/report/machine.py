"""JSON renderers: the stable interface for audit, verify and sweep.

The use cases' results are plain values (`sweep/results.py`); each has its function here,
which the CLI prints and the API's `.data()` returns: `sweep_data`, `plan_data`, `verify_data`,
`audit_data`, `prune_data`, `tombstone_data` (and `explanation_data` for `renamer explain`).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from renamer import lazy_re
from renamer.allowlist import Exemption
from renamer.documents import versioned
from renamer.masking import mask_line
from renamer.moved_tags import TaggedMove
from renamer.name_limits import LIMIT
from renamer.prefix_moves import OUTSIDE, ZoneChange, zone_changes
from renamer.prefix_pools import TOOL
from renamer.printable import json_escaped
from renamer.sweep.collisions import Collision
from renamer.sweep.explain import Decision, Explanation
from renamer.sweep.model import NearMiss, Reference
from renamer.sweep.plan import Plan
from renamer.sweep.preview import edit_list
from renamer.sweep.refusals import Refusal
from renamer.sweep.results import AuditResult, PruneResult, SweepResult, TombstoneResult, VerifyResult
from renamer.sweep.stale import Stale, dead_keep_rules
from renamer.sweep.summary import Summary, Verdict
from renamer.sweep.undo import UndoPlan, undo_name


def reference_dict(ref: Reference) -> dict[str, Any]:
    out: dict[str, Any] = {
        "path": ref.path, "line": ref.line, "column": ref.column, "old": ref.old, "new": ref.new,
        "status": ref.status, "reason": ref.reason, "note": ref.note,
        "text": mask_line(ref.text),
    }
    if ref.key_path:
        out["key_path"] = mask_line(ref.key_path)
    if ref.role:
        out["role"] = ref.role
    return out


def near_miss_dict(miss: NearMiss) -> dict[str, Any]:
    data = asdict(miss)
    data["line_text"] = mask_line(miss.line_text)
    return data


def summary_dict(summary: Summary) -> dict[str, Any]:
    return {
        "kept": dict(summary.kept_sorted()),
        "residual": len(summary.residual),
        "unclassified": len(summary.unclassified),
        "skipped": len(summary.skipped),
        "files_scanned": summary.files_scanned,
        "near_misses": len(summary.near_misses) + len(summary.derived),
        "ignored_with_references": len(summary.ignored_with_references),
    }


def _sweep_counts(counts: dict[str, Any], summary: Summary, dry_run: bool,
                  refused: Sequence[Refusal] = ()) -> dict[str, Any]:
    """A sweep's counts say what they mean: before it runs, `to_rewrite` (what it will rewrite)
    and `left` (what it cannot: identifiers, ranges, patterns...) instead of `residual`; an
    address a shrink cannot place is in `refused`, not counted as left too (t29-33, finding 19)."""
    if not dry_run:
        return counts
    listed = {(r.path, r.line) for r in refused}
    stuck = sum(1 for r in summary.stuck
                if not (r.reason in (OUTSIDE, TOOL, LIMIT) and (r.path, r.line) in listed))
    out = {k: v for k, v in counts.items() if k != "residual"}
    return {"to_rewrite": counts["residual"] - len(summary.stuck), "left": stuck, **out}


def dumps(document: dict[str, Any]) -> str:
    """JSON as UTF-8 text. A file name that is not UTF-8 is shown with each byte that is not as
    `\\xNN`, and given exactly, base64, in a field beside it named `<field>_bytes` (docs/cli.md,
    "JSON documents"): a lone-surrogate `\\udcXX` escape is no Unicode, which strict parsers refuse
    or replace, so two such names could not be told apart. Nothing in it can drive a terminal:
    every character printable.py escapes is a \\uXXXX escape here."""
    text = json.dumps(_faithful(document), indent=2, ensure_ascii=False) + "\n"
    text = _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    return json_escaped(text)  # DEL, C1 and bidi controls too: JSON's escapes, never raw


_SURROGATE = lazy_re.compile("[\ud800-\udfff]")
_ESCAPED_BYTE = lazy_re.compile("[\udc80-\udcff]")  # a byte that is not UTF-8, as os.fsdecode reads it


def _faithful(value: Any) -> Any:
    """`value` with every string holding bytes that are not UTF-8 shown as `\\xNN`, and in a
    mapping given exactly beside it (`<key>_bytes`, base64)."""
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():
            out[key] = _faithful(item)
            if isinstance(item, str) and _ESCAPED_BYTE.search(item):
                exact = item.encode("utf-8", "surrogateescape")
                out[f"{key}_bytes"] = base64.b64encode(exact).decode("ascii")
        return out
    if isinstance(value, list | tuple):
        return [_faithful(item) for item in value]
    if isinstance(value, str) and _ESCAPED_BYTE.search(value):
        return _ESCAPED_BYTE.sub(lambda m: f"\\x{ord(m.group()) - 0xDC00:02x}", value)
    return value


def audit_document(name: str, summary: Summary, refs: list[Reference], stale: list[Stale]) -> dict[str, Any]:
    return {
        "name": name,
        "summary": summary_dict(summary),
        "references": [reference_dict(r) for r in refs],
        "near_misses": [near_miss_dict(m) for m in summary.derived + summary.near_misses],
        "stale_exemptions": [{**{k: (list(v) if k == "unread" else v) for k, v in asdict(s).items()
                                 if k not in ("why", "unread") or v}, "stale": s.is_stale}
                             for s in stale],
        "unreadable": [{"path": p, "error": e} for p, e in summary.skipped_files],
        "encrypted": [{"path": p, "why": w} for p, w in summary.encrypted],
        "not_read": [{"path": p, "why": w} for p, w in summary.unread],
        "ignored_with_references": summary.ignored_with_references,
        "ignored_with_old_paths": summary.ignored_with_old_paths,
    }


def exemption_dict(exemption: Exemption) -> dict[str, Any]:
    return {"kind": exemption.kind, "name": exemption.name, "source": exemption.source,
            "line": exemption.line, "reason": exemption.reason, "owner": exemption.owner,
            "expires": exemption.expires.isoformat() if exemption.expires else None}


def verify_document(name: str, summary: Summary, verdict: Verdict) -> dict[str, Any]:
    return {
        "name": name,
        "ok": verdict.ok,
        "summary": summary_dict(summary),
        "findings": [reference_dict(r) for r in summary.residual + summary.unclassified],
        "near_misses": [near_miss_dict(m) for m in summary.derived + summary.near_misses],
        "encrypted": [{"path": p, "why": w} for p, w in summary.encrypted],
        "not_read": [{"path": p, "why": w} for p, w in summary.unread],
        "ignored_with_references": summary.ignored_with_references,
        "ignored_with_old_paths": summary.ignored_with_old_paths,
    }


def sweep_document(name: str, summary: Summary, edits: list[dict[str, Any]], dry_run: bool,
                   collisions: Sequence[Collision] = (), refused: Sequence[Refusal] = (),
                   zones: Sequence[ZoneChange] = ()) -> dict[str, Any]:
    return {
        "name": name,
        "collisions": [collision_dict(c) for c in collisions],
        "dry_run": dry_run,
        "edits": edits,
        "renames": [{"from": a, "to": b} for a, b in summary.renames],
        "refused": [{"path": r.path, "line": r.line, "problem": r.problem} for r in refused],
        "relinks": [{"path": p, "from": a, "to": b} for p, a, b in summary.relinks],
        "folders": [{"from": f.old, "to": f.new, "untracked": list(f.untracked)} for f in summary.folders],
        "serials": [{"path": p, "old": o, "new": n} for p, o, n in summary.serials],
        "reverse_zones": [zone_dict(z) for z in zones],
        "pins": [{"path": p.path, "line": p.line, "column": p.column, "of": p.of, "algorithm": p.algorithm,
                  "old": p.old, "new": p.new, "status": p.status, "why": p.why} for p in summary.pins],
        "looks_like_records": [{"path": p.path, "line": p.line, "old": p.old, "date": p.date,
                                "date_line": p.date_line} for p in summary.past],
        "summary": {
            "files_changed": summary.files_changed,
            "replacements": [{"old": o, "new": n, "count": c}
                             for (o, n), c in sorted(summary.replacements.items())],
            "derived_candidates": [near_miss_dict(m) for m in summary.derived],
            **_sweep_counts(summary_dict(summary), summary, dry_run, refused),
        },
    }


def zone_dict(change: ZoneChange) -> dict[str, Any]:
    """One network move's reverse zones: renamed, to add, to remove, RFC 2317 names (prefix_moves.py)."""
    return {"from": str(change.move.old), "to": str(change.move.new),
            "renamed": [{"from": a, "to": b} for a, b in change.renamed],
            "add": list(change.add), "remove": list(change.remove), "classless": list(change.classless)}


def collision_dict(collision: Collision) -> dict[str, object]:
    c = collision
    return {"path": c.path, "line": c.line, "column": c.column, "value": c.value,
            "olds": list(c.olds), "same_file": c.same_file, "structured": c.structured,
            "key_path": c.key_path and mask_line(c.key_path), "text": mask_line(c.text),
            "message": c.message(), "refused": c.refused, "count": c.count}


def plan_data(plan: Plan, summary: Summary, collisions: Sequence[Collision], *,
              dry_run: bool = True, refused: Sequence[Refusal] | None = None,
              dead: Sequence[Stale] | None = None) -> dict[str, Any]:
    """What `sweep --dry-run --format json` prints for a plan (the API's `SweepPlan.data()`)."""
    shown = plan.refusals if refused is None and dry_run else (refused or ())
    dead = dead_keep_rules(plan.project.allowlist, plan.scan) if dead is None else dead
    document = sweep_document(plan.project.config.name, summary, edit_list(plan), dry_run, collisions, shown,
                              zone_changes(plan.project.config.renames.networks))
    return versioned({**document,
                      "dead_keep_rules": [{"name": s.name, "source": s.source, "files": s.files, "why": s.why}
                                          for s in dead]})


def sweep_data(result: SweepResult) -> dict[str, Any]:
    """What `sweep --format json` prints."""
    return plan_data(result.plan, result.summary, result.collisions, dry_run=result.applied is None,
                     refused=result.refused, dead=result.dead_keys)


def verify_data(result: VerifyResult) -> dict[str, Any]:
    """What `verify --format json` prints."""
    return versioned({**verify_document(result.name, result.summary, result.verdict),
                      "expired": [exemption_dict(e) for e in result.expired],
                      "collisions": [collision_dict(c) for c in result.collisions]})


def audit_data(result: AuditResult) -> dict[str, Any]:
    """What `audit --format json` prints."""
    return versioned({**audit_document(result.name, result.summary, result.references, result.stale),
                      "expired": [exemption_dict(e) for e in result.expired],
                      "moved_expired": [moved_dict(m) for m in result.moved_expired]})


def undo_data(plan: UndoPlan, *, dry_run: bool, commit: str | None,
              verified: VerifyResult | None, dns: dict[str, Any] | None = None) -> dict[str, Any]:
    """What `undo --format json` prints."""
    status = ("nothing" if plan.run is None else "refused" if plan.refusals
              else "dry-run" if dry_run else "undone")
    verify = None
    if verified is not None:
        verify = {"ok": verified.verdict.ok, "residual": len(verified.summary.residual),
                  "unclassified": len(verified.summary.unclassified)}
    return versioned({
        "move": plan.move, "undo": undo_name(plan.move), "status": status,
        "commits": [{"sha": sha, "role": role} for sha, role in (plan.run.commits if plan.run else ())],
        "undone_by": plan.already, "commit": commit, "changed": list(plan.changed),
        "renamed": [{"from": now, "to": after} for now, after in plan.renamed], "deleted": list(plan.deleted),
        "refused": [{"path": r.path, "line": r.line, "kind": r.kind, "message": r.message,
                     "text": mask_line(r.text)} for r in plan.refusals],
        "verify": verify, "dns": dns})


def moved_dict(move: TaggedMove) -> dict[str, object]:
    """A tagged `moved` block (renamer/moved_tags.py) as the JSON documents show it."""
    return {"path": move.path, "line": move.line, "from": move.old, "to": move.new, "move": move.name,
            "expires": move.expires.isoformat()}


def prune_data(result: PruneResult) -> dict[str, Any]:
    """What `audit --prune --format json` prints."""
    return versioned({"written": result.written,
                      "removed": [{**exemption_dict(p.exemption), "why": p.why} for p in result.pruned],
                      "files": [e.display for e in result.edits]})


def tombstone_data(result: TombstoneResult) -> dict[str, Any]:
    """What `verify --staged/--since --format json` prints."""
    return versioned({"ok": result.ok, "moves": result.moves, "files": result.files, "lines": result.lines,
                      "tombstones": [{"path": t.path, "line": t.line, "column": t.column, "old": t.old,
                                      "new": t.new, "move": t.move, "date": t.date, "message": t.message()}
                                     for t in result.tombstones],
                      "live_again": [{"path": t.path, "line": t.line, "column": t.column, "old": t.old,
                                      "new": t.new, "move": t.move, "date": t.date, "why": t.why,
                                      "message": t.message()} for t in result.live_again],
                      "rechecked": result.rechecked})


def decision_dict(decision: Decision) -> dict[str, Any]:
    d = decision
    return {"line": d.line, "column": d.column, "found": d.found, "new": d.new,
            "decision": d.decision, "rule": d.rule, "key_path": d.key_path and mask_line(d.key_path),
            "text": mask_line(d.text)}


def explanation_data(explanation: Explanation) -> dict[str, Any]:
    """What `explain --format json` prints."""
    e = explanation
    return versioned({"path": e.path, "status": e.status, "rule": e.rule, "line": e.line,
                      "decisions": [decision_dict(d) for d in e.decisions]})
