"""renamer.yaml's `options:`, checked: derived names, variants, the largest file read (a size like
50MiB), accounts, names under a renamed host (subdomains), the DNS transition (a duration like 30d)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from renamer import lazy_re
from renamer.config import DEFAULT_MAX_FILE_SIZE
from renamer.durations import EXPECTED, parse_duration
from renamer.formats.yaml_source import Problems, check_mapping, shown

_OPTION_KEYS = {"derived_names", "variants", "max_file_size", "accounts", "subdomains", "terraform_binary",
                "moved_expiry", "dns_transition"}
ACCOUNT_CHOICES = ("keep", "rewrite")
SUBDOMAIN_CHOICES = ("residual", "follow")
TERRAFORM_BINARIES = ("terraform", "tofu")
DEFAULT_MOVED_EXPIRY = 90
_SIZE = lazy_re.compile(r"(?i)\s*(\d+)\s*(b|k|kb|kib|m|mb|mib|g|gb|gib)?\s*\Z")
_UNITS = {None: 1, "b": 1, "k": 1024, "kb": 1000, "kib": 1024, "m": 1024**2, "mb": 1000**2,
          "mib": 1024**2, "g": 1024**3, "gb": 1000**3, "gib": 1024**3}


def read_options(top: dict[str, Any], problems: Problems) -> tuple[bool, bool, int]:
    raw = top.get("options")
    if raw is None:
        return False, False, DEFAULT_MAX_FILE_SIZE
    section = check_mapping(raw, "options", _OPTION_KEYS, problems, top, "options")
    if section is None:
        return False, False, DEFAULT_MAX_FILE_SIZE
    flags = []
    for key in ("derived_names", "variants"):
        value = section.get(key, False)
        if not isinstance(value, bool):
            problems.add(section, key, f"options.{key}", f"expected true or false, got {shown(value)}")
            value = False
        flags.append(value)
    size = section.get("max_file_size", DEFAULT_MAX_FILE_SIZE)
    parsed = parse_size(size)
    if parsed is None:
        problems.add(section, "max_file_size", "options.max_file_size",
                     f"expected a size like 50MiB, got {shown(size)}")
        parsed = DEFAULT_MAX_FILE_SIZE
    return flags[0], flags[1], parsed


def _read_choice(top: dict[str, Any], key: str, choices: tuple[str, ...], problems: Problems) -> str:
    """options.KEY, one of `choices` (the first is the default, and what a wrong value counts as)."""
    section = top.get("options")
    if not isinstance(section, dict) or key not in section:
        return choices[0]
    value = section[key]
    if value not in choices:
        problems.add(section, key, f"options.{key}", f"expected {' or '.join(choices)}, got {shown(value)}")
        return choices[0]
    return str(value)


def read_accounts(top: dict[str, Any], problems: Problems) -> str:
    return _read_choice(top, "accounts", ACCOUNT_CHOICES, problems)


def read_subdomains(top: dict[str, Any], problems: Problems) -> str:
    """Names under a renamed host's name (sweep/subdomains.py): residual (the default) or follow."""
    return _read_choice(top, "subdomains", SUBDOMAIN_CHOICES, problems)


def read_terraform_binary(top: dict[str, Any], problems: Problems) -> str:
    """options.terraform_binary: the plan guard's `terraform` (the default) or `tofu`."""
    return _read_choice(top, "terraform_binary", TERRAFORM_BINARIES, problems)


def read_moved_expiry(top: dict[str, Any], problems: Problems) -> int:
    """options.moved_expiry: days after the cutover a `moved` block the sweep writes expires (90)."""
    section = top.get("options")
    if not isinstance(section, dict) or "moved_expiry" not in section:
        return DEFAULT_MOVED_EXPIRY
    value = section["moved_expiry"]
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= 36500:
        problems.add(section, "moved_expiry", "options.moved_expiry",
                     f"expected a number of days from 1 to 36500, got {shown(value)}")
        return DEFAULT_MOVED_EXPIRY
    return value


def read_dns_transition(top: dict[str, Any], cutover: dt.date | None,
                        problems: Problems) -> dt.timedelta | None:
    """options.dns_transition: how long after the cutover each old name stays a CNAME to its new
    FQDN (dns/transition.py); None: retired at once. It needs the cutover: the window's start."""
    section = top.get("options")
    if not isinstance(section, dict) or "dns_transition" not in section:
        return None
    value = section["dns_transition"]
    duration = parse_duration(value)
    if duration is None:
        problems.add(section, "dns_transition", "options.dns_transition", f"{EXPECTED}, got {shown(value)}")
        return None
    if cutover is None:
        problems.add(section, "dns_transition", "options.dns_transition",
                     "needs `cutover:` (the day of the move, where the window starts)")
        return None
    return duration


def parse_size(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value > 0 else None
    if not isinstance(value, str):
        return None
    match = _SIZE.match(value)
    if not match:
        return None
    number = int(match.group(1)) * _UNITS[(match.group(2) or "").lower() or None]
    return number if number > 0 else None
