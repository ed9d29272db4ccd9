"""The shared front of a reader that looks for old values in spellings the exact rules miss
(dressed_addresses, packed_addresses, snmp_indexes): its literals, one of which a file must hold,
asked before any regex runs."""

from __future__ import annotations

from renamer.occurrences import Match


class LiteralReader:
    """`literals` (empty: nothing renamed that this reader reads); `find` is the reader's own."""

    literals: tuple[bytes, ...] = ()

    def holds_literal(self, data: bytes) -> bool:
        return any(literal in data for literal in self.literals)

    def might_hold(self, data: bytes) -> bool:
        return bool(self.literals) and self.holds_literal(data) and bool(self.find(data))

    def find(self, data: bytes) -> list[Match]:
        raise NotImplementedError
