"""One query as a resolver's query log records it (`dns who-asks`): each backend reads its own
daemon's line format (Backend.query); dns/queries.py reads the time and gathers them."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable
from dataclasses import dataclass

from renamer.dns.own_case import is_marked


@dataclass(frozen=True)
class Logged:
    stamp: str  # the line's text before the daemon's name: its time as written (queries.when)
    client: str  # the address that asked
    name: str  # the name asked, lower case, without the final dot
    rdtype: str  # A, AAAA, PTR ...
    own: bool = False  # asked by renamer's own checks, in its own case (dns/own_case.py)


def logged(stamp: str, client: str, name: str, rdtype: str) -> Logged | None:
    """A Logged from a line's parts, or None where the client is no address (not a query line)."""
    try:
        ipaddress.ip_address(client)
    except ValueError:
        return None
    asked = name.rstrip(".")
    return Logged(stamp.strip(), client, asked.lower(), rdtype.upper(), is_marked(asked))


def reader(pattern: re.Pattern[str]) -> Callable[[str], Logged | None]:
    """A backend's `query`: a line's Logged where `pattern` (groups client, name, type) finds
    the query in it, the text before the match its stamp."""
    def query(line: str) -> Logged | None:
        found = pattern.search(line)
        if found is None:
            return None
        return logged(line[:found.start()], found["client"], found["name"], found["type"])

    return query
