"""A file whose content holds zone records whatever its own format (a zone file named `db.lab`, a
zone in a `.txt` note, a Markdown page or a YAML heredoc): the file's own format decides every
question but two, which the records answer: names in it can collide (`structured`), and a change
of records needs the SOA serial bumped (`serial`)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from renamer.formats.base import Comment, Format, FormatName, Location, Serial


class WithRecords:
    def __init__(self, own: Format, records: Format, *, plain: bool) -> None:
        self.own, self.records, self.plain = own, records, plain

    @property
    def name(self) -> FormatName:
        return self.records.name if self.plain else self.own.name  # a plain file of records is a zone

    @property
    def structured(self) -> bool:
        return True

    @property
    def keys(self) -> bool:
        return self.own.keys

    @property
    def checks_edits(self) -> bool:
        return self.own.checks_edits

    @property
    def needs_edits(self) -> bool:
        return self.own.needs_edits

    @property
    def comment(self) -> Comment | None:
        return self.own.comment

    @property
    def dns_names(self) -> bool:
        return self.plain or self.own.dns_names  # a zone quoted in a note keeps the note's rules

    @property
    def joins_indent(self) -> bool:
        return self.own.joins_indent

    @property
    def escapes(self) -> tuple[str, ...]:
        return self.own.escapes

    def claims(self, path: str, name: str, data: bytes) -> bool:
        return self.own.claims(path, name, data) and self.records.claims(path, name, data)

    def name_starts(self, data: bytes) -> list[int]:
        return self.own.name_starts(data)

    def locate(self, text: str, offsets: Sequence[int]) -> list[Location] | None:
        return self.own.locate(text, offsets)

    def roles(self, data: bytes, spans: Sequence[tuple[int, int]]) -> list[str] | None:
        return self.own.roles(data, spans)

    def retypes(self, new: str) -> bool:
        return self.own.retypes(new)

    def edit_problem(self, before: str, after: str) -> str | None:
        return self.own.edit_problem(before, after)

    def line_problems(self, before: str, after: str) -> dict[int, str]:
        return self.own.line_problems(before, after)

    def means_otherwise(self, before: str, after: str) -> bool:
        return self.own.means_otherwise(before, after)

    def serial(self, data: bytes, today: dt.date) -> Serial | None:
        return self.records.serial(data, today)

    def tree(self, text: str) -> object | None:
        return self.own.tree(text)
