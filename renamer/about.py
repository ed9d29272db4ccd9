"""What renamer says about itself, from the installed package's metadata: its version, and its
project URL where pyproject.toml's [project.urls] names one (the one place that does)."""

from __future__ import annotations

from functools import cache
from importlib import metadata

DISTRIBUTION = "renamer"
UNKNOWN_VERSION = "0+unknown"  # run from a source tree that was never installed


@cache
def version() -> str:
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return UNKNOWN_VERSION


@cache
def home_page() -> str | None:
    """The project's URL: [project.urls]'s Homepage (else Repository, else Source), or None
    while it names none. Never a guess: the name `renamer` on the package index is not ours."""
    try:
        entries = metadata.metadata(DISTRIBUTION).get_all("Project-URL") or []
    except metadata.PackageNotFoundError:
        return None
    urls: dict[str, str] = {}
    for entry in entries:
        label, _, url = entry.partition(",")
        urls[label.strip().lower()] = url.strip()
    # The project's own page only: a bug tracker or a funding link is no "information URI".
    return next((urls[label] for label in ("homepage", "repository", "source") if urls.get(label)), None)
