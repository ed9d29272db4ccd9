"""Counts in messages, said right: "1 file", "2 files"."""

from __future__ import annotations


def plural(count: int, noun: str, many: str | None = None) -> str:
    """`count` and `noun`, in the plural unless it is one (`many` for an irregular plural)."""
    return f"{count} {noun if count == 1 else (many or noun + 's')}"
