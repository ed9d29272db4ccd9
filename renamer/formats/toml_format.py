"""TOML: a structure check by tomllib (which refuses a key or table declared twice)."""

from __future__ import annotations

from renamer.formats import data_formats
from renamer.formats.base import BaseFormat


class Toml(BaseFormat):
    name = "toml"
    structured = True
    checks_edits = True
    needs_edits = True
    suffixes = (".toml",)

    def edit_problem(self, before: str, after: str) -> str | None:
        return data_formats.edit_problem("toml", before, after)


FORMAT = Toml()
