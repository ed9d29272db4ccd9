"""dnsmasq's query log lines (`log-queries`, to `log-facility=FILE` or syslog):
`Dec  6 07:45:50 dnsmasq[8773]: query[A] ana-ml2.ana.lan from 10.250.20.7` (Pi-hole's
pihole.log too), and with `log-queries=extra` a serial and the client's port before `query[`."""

from __future__ import annotations

from renamer import lazy_re
from renamer.dns.logged import reader

# between the tag and `query[`: a serial and the client's port (log-queries=extra), or RFC 5424's
# procid, msgid and structured data (OPNsense, a remote syslog)
_QUERY = lazy_re.compile(r"(?:^|\s)dnsmasq(?:\[\d+\])?(?::|\s).*?(?<!\S)query\[(?P<type>[A-Za-z0-9]+)\] "
                    r"(?P<name>\S+) from (?P<client>\S+)\s*$")

query = reader(_QUERY)
