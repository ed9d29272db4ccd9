"""File formats as plugins: the registry, and the one question the rest of renamer asks.

Each format is a module of this package implementing `base.Format`; the
registry lists them in the order they claim files (the first claim wins; plain
text claims whatever is left). No module outside this package names a file
format: the sweep asks the format `format_of` returns.
"""

from __future__ import annotations

from renamer.formats import json_format, markdown, prose, python_cst, text, toml_format, yaml_rt, zone
from renamer.formats.base import Format
from renamer.formats.yaml_rt import plain_safe

__all__ = ["FORMATS", "Format", "format_of", "plain_safe"]

FORMATS: tuple[Format, ...] = (
    yaml_rt.FORMAT,
    json_format.FORMAT,
    toml_format.FORMAT,
    python_cst.FORMAT,
    markdown.FORMAT,
    zone.FORMAT,  # by content, whatever the file's name
    prose.FORMAT,
    text.ENV,
    text.FORMAT,  # last: it claims every file
)


def format_of(path: str, data: bytes) -> Format:
    """The format that claims the file: by suffix, name, shebang or content."""
    name = path.rsplit("/", 1)[-1]
    return next(fmt for fmt in FORMATS if fmt.claims(path, name, data))
