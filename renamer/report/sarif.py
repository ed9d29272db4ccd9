"""SARIF 2.1.0 for GitHub code scanning: problems as results, kept references suppressed."""

from __future__ import annotations

import hashlib
from typing import Any
from urllib.parse import quote

from renamer.about import home_page, version
from renamer.masking import mask_line
from renamer.near_miss import sentence
from renamer.report.machine import dumps
from renamer.report.text import change
from renamer.sweep.model import KEPT, NearMiss, Reference
from renamer.sweep.summary import Summary

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
RULES = {
    "residual": ("error", "A current-state file still references an old host name or address."),
    "unclassified": ("error", "A file no allowlist rule covers references an old value."),
    "kept": ("note", "A reference to an old value kept on purpose (a record or an exemption)."),
    "skipped": ("warning", "A binary, too large or undecodable file holds an old value."),
    "near-miss": ("warning", "A spelling close to an old value that the exact rules do not match."),
    "derived-name": ("warning", "A longer name built on an old host name, not renamed."),
}


def _fingerprint(*parts: str) -> str:
    """Stable across line moves: built from content, not from line numbers."""
    return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogateescape")).hexdigest()[:32]


def _location(path: str, line: int, column: int) -> dict[str, Any]:
    region: dict[str, Any] = {"startLine": max(line, 1)}
    if column > 0 and line > 0:
        region["startColumn"] = column
    uri = quote(path.encode("utf-8", "surrogateescape"), safe="/")  # SARIF wants a URI reference
    return {"physicalLocation": {"artifactLocation": {"uri": uri, "uriBaseId": "%SRCROOT%"},
                                 "region": region}}


def _result(ref: Reference) -> dict[str, Any]:
    rule = ref.status
    text = f"{change(ref)}: {ref.note or ref.status}"
    if ref.key_path:
        text += f" (at {mask_line(ref.key_path)})"
    result: dict[str, Any] = {
        "ruleId": rule,
        "level": RULES[rule][0],
        "message": {"text": text},
        "locations": [_location(ref.path, ref.line, ref.column)],
        "partialFingerprints": {
            "renamerReference/v1": _fingerprint(ref.path, ref.old, mask_line(ref.text), rule)},
    }
    if ref.status == KEPT:
        result["suppressions"] = [{"kind": "inSource" if ref.reason == "inline" else "external",
                                   "status": "accepted",
                                   "justification": f"{ref.reason}: {ref.note or ''}".strip()}]
    return result


def _miss_result(miss: NearMiss) -> dict[str, Any]:
    return {
        "ruleId": miss.kind,
        "level": RULES[miss.kind][0],
        "message": {"text": sentence(miss.text, miss.like, miss.why, miss.name)},
        "locations": [_location(miss.path, miss.line, miss.column)],
        "partialFingerprints": {
            "renamerReference/v1": _fingerprint(miss.path, miss.text, mask_line(miss.line_text))},
    }


def sarif(summary: Summary, refs: list[Reference], *, include_kept: bool) -> str:
    chosen = [r for r in refs if include_kept or r.status != KEPT]
    results = [_result(r) for r in chosen]
    results += [_miss_result(m) for m in summary.derived + summary.near_misses]
    rules = [{"id": rule_id, "shortDescription": {"text": text},
              "defaultConfiguration": {"level": level}}
             for rule_id, (level, text) in RULES.items()]
    driver: dict[str, Any] = {"name": "renamer", "version": version()}
    url = home_page()
    if url is not None:  # optional in SARIF: better none than a page that is not ours
        driver["informationUri"] = url
    driver["rules"] = rules
    document = {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{"tool": {"driver": driver}, "results": results}],
    }
    return dumps(document)
