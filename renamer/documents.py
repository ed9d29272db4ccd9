"""The version every JSON document renamer prints carries as its `schema` key.

A consumer reads `schema` first: it grows by one whenever a document changes in a way a
consumer must know of (a key removed, renamed or given another meaning); new keys do not
raise it. docs/cli.md lists each document's fields under its command.
"""

from __future__ import annotations

from typing import Any

SCHEMA = 1


def versioned(document: dict[str, Any]) -> dict[str, Any]:
    """`document` with `schema` as its first key."""
    return {"schema": SCHEMA, **document}
