"""JSON: key paths (JSON is YAML 1.2's flow style, so the YAML composer locates them) and a
structure check by Python's own parser, which also refuses duplicate keys."""

from __future__ import annotations

from collections.abc import Sequence

from renamer.formats import data_formats, yaml_rt
from renamer.formats.base import BaseFormat, Location


class Json(BaseFormat):
    name = "json"
    structured = True
    keys = True
    checks_edits = True
    needs_edits = True
    escapes = ("u",)  # JSON has escapes only inside strings, and `\u002d` is exactly `-`
    suffixes = (".json",)

    def locate(self, text: str, offsets: Sequence[int]) -> list[Location] | None:
        return yaml_rt.locate(text, offsets)

    def edit_problem(self, before: str, after: str) -> str | None:
        return data_formats.edit_problem("json", before, after)


FORMAT = Json()
