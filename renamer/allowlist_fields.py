"""The fields every exemption of an allowlist file has, checked: name, reason, expires, owner, and
where it is written."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from renamer import lazy_re
from renamer.formats.yaml_source import Problems, kind, line_of, shown

NAME = lazy_re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*\Z")


def _reason(entry: dict[str, Any], keypath: str, problems: Problems) -> str:
    reason = entry.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        problems.add(entry, "reason" if "reason" in entry else None, f"{keypath}.reason",
                     "every exemption needs a reason (why the old name must stay)")
        return ""
    return " ".join(reason.split())


def _name(entry: dict[str, Any], keypath: str, problems: Problems) -> str:
    name = entry.get("name")
    if not isinstance(name, str) or not NAME.match(name):
        problems.add(entry, "name" if "name" in entry else None, f"{keypath}.name",
                     f"expected a name of letters, digits, '-', '_' or '.', got {shown(name)}")
        return ""
    return name


@dataclass(frozen=True)
class Origin:
    source: str
    inherited: bool
    file: Path | None


def common_fields(entry: dict[str, Any], keypath: str, problems: Problems, origin: Origin) -> dict[str, Any]:
    """The fields every exemption has, checked: name, reason, expires, owner, where it is."""
    owner = entry.get("owner")
    if owner is not None and (not isinstance(owner, str) or not owner.strip() or "\n" in owner.strip()):
        problems.add(entry, "owner", f"{keypath}.owner", f"expected a one-line string, got {kind(owner)}")
        owner = None
    return {"name": _name(entry, keypath, problems), "reason": _reason(entry, keypath, problems),
            "source": origin.source, "inherited": origin.inherited, "file": origin.file,
            "expires": _expires(entry, keypath, problems), "owner": owner.strip() if owner else None,
            "line": line_of(entry)}


def _expires(entry: dict[str, Any], keypath: str, problems: Problems) -> dt.date | None:
    value = entry.get("expires")
    if value is None:
        return None
    if isinstance(value, dt.date):
        return value if not isinstance(value, dt.datetime) else value.date()
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value.strip())
        except ValueError:
            pass
    problems.add(entry, "expires", f"{keypath}.expires",
                 f"expected a date like 2027-06-30, got {shown(value)}")
    return None
