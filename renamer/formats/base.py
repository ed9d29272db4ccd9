"""The format contract: what a file format plugin tells the sweep, and the defaults.

A format claims files (by name or content), locates a reference inside a file
(a key path, or a role such as string or comment), says whether an edit set
keeps the file's structure by parsing the result, and may offer the inline
marker as a comment. The sweep asks these questions of whatever format a file
has and never branches on a format's name: adding a format is one module here
and one line in the registry (formats/__init__.py).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

FormatName = Literal["yaml", "json", "toml", "ini", "hcl", "python", "markdown", "zone", "dns", "prose",
                     "env", "text"]
Location = tuple[str | None, str]  # (key path, role)
# An SOA serial's edit: (start, end, new bytes, old serial, new serial). A zone whose serial
# cannot be bumped (none, out of range, in an $INCLUDE) is UNBUMPED.
Serial = tuple[int, int, bytes, str, str]
UNBUMPED: Serial = (0, 0, b"", "", "")


@dataclass(frozen=True)
class Comment:
    """How the inline marker is written at the end of a line of this format."""

    opener: str
    closer: str = ""

    def __call__(self, text: str) -> str:
        if self.closer:  # a reason must not close the comment early
            text = text.replace(self.closer.strip(), "")
        return f"{self.opener}{text}{self.closer}"


class Format(Protocol):
    @property
    def name(self) -> FormatName: ...

    @property
    def structured(self) -> bool:
        """Keys or records with names: a renamed one may collide with another (collisions,
        verify --strict)."""
        ...

    @property
    def keys(self) -> bool:
        """`locate` gives key paths."""
        ...

    @property
    def checks_edits(self) -> bool:
        """`edit_problem` parses the result (else it always says None)."""
        ...

    @property
    def needs_edits(self) -> bool:
        """A report (verify, audit) still computes this format's edits: they decide structure
        residuals (checks_edits) or links that follow a heading."""
        ...

    @property
    def comment(self) -> Comment | None:
        """The inline marker's comment where one is safe, else None."""
        ...

    @property
    def dns_names(self) -> bool:
        """Host names here are DNS names, matched in any case and rewritten in the case found
        (zone files, hosts files, resolver configuration); elsewhere they are case-sensitive."""
        ...

    @property
    def joins_indent(self) -> bool:
        """A line-ending backslash also drops the next line's leading blanks (YAML's escaped line
        break, TOML's line-ending backslash); else only the backslash and the line end go, as in
        a shell (decoded.py)."""
        ...

    @property
    def escapes(self) -> tuple[str, ...]:
        """The escape styles this format decodes wherever they stand, so that a name spelled with
        them is rewritten in the same style (JSON's `\\u`: only inside strings, each exactly one
        character); any other escaped spelling is a residual `encoded` (escapes.py)."""
        ...

    def claims(self, path: str, name: str, data: bytes) -> bool:
        """Whether this format reads the file at `path` (its last component `name`)."""
        ...

    def name_starts(self, data: bytes) -> list[int]:
        """Byte offsets where this format's grammar starts a name although the byte before is a
        name character (a TOML key's part after a dot); the matcher's left rule is not asked
        there (name_starts.py)."""
        ...

    def locate(self, text: str, offsets: Sequence[int]) -> list[Location] | None:
        """(key path, role) per character offset; None when the format knows no key paths or the
        file does not parse."""
        ...

    def roles(self, data: bytes, spans: Sequence[tuple[int, int]]) -> list[str] | None:
        """The code role (string, comment, identifier, code) of each byte span, where a text edit
        could change code; None when the format has no code roles or does not parse."""
        ...

    def retypes(self, new: str) -> bool:
        """Could `new`, written where a plain scalar stood, be read as another type?"""
        ...

    def edit_problem(self, before: str, after: str) -> str | None:
        """Why the edited text no longer parses to the same structure, or None (also when the
        original does not parse: text rules apply)."""
        ...

    def line_problems(self, before: str, after: str) -> dict[int, str]:
        """Where the edits are refused, each line's own reason where the format knows one (the
        line's scalar retyped); a line not listed gets `edit_problem`'s."""
        ...

    def means_otherwise(self, before: str, after: str) -> bool:
        """Does an added comment change what the file means (it fell inside a string)?"""
        ...

    def serial(self, data: bytes, today: dt.date) -> Serial | None:
        """The SOA serial edit a change of records needs; UNBUMPED when one is needed and cannot
        be made; None when the file holds no zone records."""
        ...

    def tree(self, text: str) -> object | None:
        """The parsed document, where a reader of values (the probe) may walk it; else None."""
        ...


class BaseFormat:
    """Defaults for a format with no structure: plain text rules apply."""

    name: FormatName = "text"
    structured = False
    keys = False
    checks_edits = False
    needs_edits = False
    comment: Comment | None = None
    joins_indent = False
    escapes: tuple[str, ...] = ()
    dns_names = False
    suffixes: tuple[str, ...] = ()

    def claims(self, path: str, name: str, data: bytes) -> bool:
        dot = name.rfind(".")
        return dot > 0 and name[dot:].lower() in self.suffixes

    def name_starts(self, data: bytes) -> list[int]:
        return []

    def locate(self, text: str, offsets: Sequence[int]) -> list[Location] | None:
        return None

    def roles(self, data: bytes, spans: Sequence[tuple[int, int]]) -> list[str] | None:
        return None

    def retypes(self, new: str) -> bool:
        return False

    def edit_problem(self, before: str, after: str) -> str | None:
        return None

    def line_problems(self, before: str, after: str) -> dict[int, str]:
        return {}

    def means_otherwise(self, before: str, after: str) -> bool:
        return False

    def serial(self, data: bytes, today: dt.date) -> Serial | None:
        return None

    def tree(self, text: str) -> object | None:
        return None
