"""Unbound's query log lines (`log-queries: yes`, to `logfile:` or syslog):
`[1796543155] unbound[9119:0] info: 10.250.20.7 ana-ml2.ana.lan. A IN` (with
`log-time-ascii: yes` the time as `Dec 06 07:45:56`; through syslog `unbound: [9119:0] info: ...`)."""

from __future__ import annotations

from renamer import lazy_re
from renamer.dns.logged import reader

# between the tag and `info:`: the pid and thread (`unbound[9119:0]`, syslog's `unbound: [9119:0]`),
# or RFC 5424's procid, msgid and structured data (OPNsense)
_QUERY = lazy_re.compile(
    r"(?:^|\s)unbound(?:\[\d+:\d+\])?(?::|\s).*?(?<!\S)info: (?P<client>\S+) (?P<name>\S+) "
                    r"(?P<type>[A-Za-z0-9]+) IN\s*$")

query = reader(_QUERY)
