"""named's query log lines (`querylog yes;`, the `queries` category to a file or syslog):
`06-Dec-2026 07:46:01.292 client @0x7fe7550e8098 10.250.20.7#57283 (ana-ml2.ana.lan): query:
ana-ml2.ana.lan IN A + (10.250.0.53)`; `queries: info:` after the time where print-category is on."""

from __future__ import annotations

import re

from renamer import lazy_re
from renamer.dns.logged import Logged, logged

_QUERY = lazy_re.compile(
    r"(?:^|\s)(?:queries: )?(?:info: )?client (?:@0x[0-9a-fA-F]+ )?(?P<client>[^\s#]+)#\d+"
                    r"(?: \([^)]*\))?: (?:view [^:]+: )?query: (?P<name>\S+) [A-Za-z]+ "
                    r"(?P<type>[A-Za-z0-9]+)\b")


def query(line: str) -> Logged | None:
    found = _QUERY.search(line)
    if found is None:
        return None
    stamp = line[:found.start()]
    stamp = re.sub(r"\s+(?:\S+\s+)?named(?:\[\d+\])?:\s*$", "", stamp)  # syslog's host and tag
    return logged(stamp, found["client"], found["name"], found["type"])
