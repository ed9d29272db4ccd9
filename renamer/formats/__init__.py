"""File formats as plugins: the registry, and the one question the rest of renamer asks.

Each format is a module of this package implementing `base.Format`; the
registry lists them in the order they claim files (the first claim wins; plain
text claims whatever is left). No module outside this package names a file
format: the sweep asks the format `format_of` returns.
"""

from __future__ import annotations

from renamer.formats import (
    dns_config,
    hcl,
    ini,
    json_format,
    map_files,
    markdown,
    prose,
    python_cst,
    text,
    toml_format,
    yaml_rt,
    zone,
)
from renamer.formats.base import Format
from renamer.formats.layered import WithRecords
from renamer.formats.yaml_rt import plain_safe

__all__ = ["CONTENT", "FORMATS", "Format", "format_of", "plain_safe"]

# A file's own format: the first that claims it.
FORMATS: tuple[Format, ...] = (
    yaml_rt.FORMAT,
    json_format.FORMAT,
    toml_format.FORMAT,
    ini.FORMAT,
    hcl.FORMAT,
    markdown.FORMAT,  # before Python: a .md file is Markdown, whatever its first line
    python_cst.FORMAT,
    dns_config.FORMAT,
    prose.FORMAT,
    map_files.POSTFIX,  # lookup tables: plain text keyed by a line's first field (t32 round 25, 13)
    map_files.HAPROXY,
    text.ENV,
    text.FORMAT,  # last: it claims every file
)
# Content any file may hold besides its own format, known by the content alone: zone records.
CONTENT: tuple[Format, ...] = (zone.FORMAT,)


def format_of(path: str, data: bytes) -> Format:
    """The format that claims the file (by suffix, name or shebang), with the zone records its
    content holds, whatever its name."""
    name = path.rsplit("/", 1)[-1]
    own = next(fmt for fmt in FORMATS if fmt.claims(path, name, data))
    for records in CONTENT:
        if records.claims(path, name, data):
            return WithRecords(own, records, plain=own in (text.FORMAT, dns_config.FORMAT, map_files.POSTFIX,
                                                           map_files.HAPROXY))
    return own
