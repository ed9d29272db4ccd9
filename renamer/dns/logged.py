"""One query as a resolver's query log records it (`dns who-asks`): each backend reads its own
daemon's line format (Backend.query); dns/queries.py reads the time and gathers them."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Logged:
    stamp: str  # the line's text before the daemon's name: its time as written (queries.when)
    client: str  # the address that asked
    name: str  # the name asked, lower case, without the final dot
    rdtype: str  # A, AAAA, PTR ...


def logged(stamp: str, client: str, name: str, rdtype: str) -> Logged | None:
    """A Logged from a line's parts, or None where the client is no address (not a query line)."""
    try:
        ipaddress.ip_address(client)
    except ValueError:
        return None
    return Logged(stamp.strip(), client, name.rstrip(".").lower(), rdtype.upper())


def reader(pattern: re.Pattern[str]) -> Callable[[str], Logged | None]:
    """A backend's `query`: a line's Logged where `pattern` (groups client, name, type) finds
    the query in it, the text before the match its stamp."""
    def query(line: str) -> Logged | None:
        found = pattern.search(line)
        if found is None:
            return None
        return logged(line[:found.start()], found["client"], found["name"], found["type"])

    return query
