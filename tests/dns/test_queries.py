"""Query log lines as each daemon writes them (to its own file or through syslog or the journal),
and their times (`dns who-asks`): pure, beside tests/dns/test_who_asks.py's real daemons."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from renamer.dns.backend import BACKENDS
from renamer.dns.logged import Logged
from renamer.dns.queries import when

NOW = dt.datetime(2027, 1, 2, 12, 0, tzinfo=dt.UTC)


@pytest.mark.parametrize(("backend", "line", "expected"), [
    pytest.param("dnsmasq", "Dec  6 07:45:50 dnsmasq[8773]: query[A] ana-ml2.ana.lan from 10.250.20.7",
                 Logged("Dec  6 07:45:50", "10.250.20.7", "ana-ml2.ana.lan", "A"), id="dnsmasq-file"),
    pytest.param("dnsmasq", "Dec  6 07:45:54 dnsmasq[9086]: 1 10.0.0.9/43399 query[PTR] 54.50.250.10.in-addr.arpa "
                            "from 10.0.0.9", Logged("Dec  6 07:45:54", "10.0.0.9", "54.50.250.10.in-addr.arpa", "PTR"),
                 id="dnsmasq-extra"),
    pytest.param("dnsmasq", "2026-12-06T07:45:50.123456+01:00 pi dnsmasq[12]: query[AAAA] ANA-ML2 from fd00::7",
                 Logged("2026-12-06T07:45:50.123456+01:00 pi", "fd00::7", "ana-ml2", "AAAA"), id="dnsmasq-rsyslog"),
    pytest.param("dnsmasq", '<30>1 2026-12-06T07:45:50+00:00 opn dnsmasq 1234 - [meta sequenceId="7"] query[A] '
                            "ana-ml2.ana.lan from 192.168.1.5",
                 Logged('<30>1 2026-12-06T07:45:50+00:00 opn', "192.168.1.5", "ana-ml2.ana.lan", "A"),
                 id="dnsmasq-rfc5424"),
    pytest.param("dnsmasq", "Dec  6 07:45:50 dnsmasq[8773]: forwarded ana-ml2.ana.lan to 10.0.0.1", None,
                 id="dnsmasq-not-a-query"),
    pytest.param("dnsmasq", "Dec  6 07:45:50 dnsmasq[8773]: reply ana-ml2.ana.lan is 10.0.0.1", None,
                 id="dnsmasq-a-reply"),
    pytest.param("dnsmasq", "Dec  6 07:45:50 dnsmasq[8773]: query[A] ana-ml2 from eth0", None,
                 id="dnsmasq-no-address"),
    pytest.param("unbound", "[1796543155] unbound[9119:0] info: 10.250.20.7 ana-ml2.ana.lan. A IN",
                 Logged("[1796543155]", "10.250.20.7", "ana-ml2.ana.lan", "A"), id="unbound-file"),
    pytest.param("unbound", "Dec 06 07:45:56 unbound[9230:0] info: 10.250.20.7 54.50.250.10.in-addr.arpa. PTR IN",
                 Logged("Dec 06 07:45:56", "10.250.20.7", "54.50.250.10.in-addr.arpa", "PTR"), id="unbound-ascii"),
    pytest.param("unbound", "Dec  6 07:45:56 fw unbound: [9230:0] info: 10.0.0.9 Ana-Ml2.ana.lan. AAAA IN",
                 Logged("Dec  6 07:45:56 fw", "10.0.0.9", "ana-ml2.ana.lan", "AAAA"), id="unbound-syslog"),
    pytest.param("unbound", "<30>1 2026-12-06T07:45:50+00:00 opnsense.local unbound 12345 - [meta sequenceId=\"1\"] "
                            "[12345:0] info: 192.168.1.5 ana-ml2.ana.lan. A IN",
                 Logged("<30>1 2026-12-06T07:45:50+00:00 opnsense.local", "192.168.1.5", "ana-ml2.ana.lan", "A"),
                 id="unbound-opnsense-rfc5424"),
    pytest.param("unbound", "[1796543155] unbound[9119:0] info: start of service (unbound 1.17.1).", None,
                 id="unbound-not-a-query"),
    pytest.param("bind", "06-Dec-2026 07:46:01.292 client @0x7fe7550e8098 10.250.20.7#57283 (ana-ml2.ana.lan): "
                         "query: ana-ml2.ana.lan IN A + (10.250.0.53)",
                 Logged("06-Dec-2026 07:46:01.292", "10.250.20.7", "ana-ml2.ana.lan", "A"), id="bind-file"),
    pytest.param("bind", "06-Dec-2026 07:46:01.292 queries: info: client @0x7f 10.0.0.9#1 (x): view lan: query: "
                         "54.50.250.10.in-addr.arpa IN PTR -E(0) (10.250.0.53)",
                 Logged("06-Dec-2026 07:46:01.292", "10.0.0.9", "54.50.250.10.in-addr.arpa", "PTR"),
                 id="bind-category-view"),
    pytest.param("bind", "Dec  6 07:46:01 ns1 named[812]: client @0x7f 10.0.0.9#1 (ana-ml2.ana.lan): query: "
                         "ana-ml2.ana.lan IN AAAA + (10.250.0.53)",
                 Logged("Dec  6 07:46:01", "10.0.0.9", "ana-ml2.ana.lan", "AAAA"), id="bind-syslog"),
    pytest.param("bind", "06-Dec-2026 07:46:01.292 client @0x7f 10.0.0.9#1 (x): query failed (REFUSED) for x/IN/A",
                 None, id="bind-query-error"),
    pytest.param("powerdns", "Dec  6 07:46:01 pdns_server[1]: Remote 10.0.0.9 wants 'ana-ml2.ana.lan|A'", None,
                 id="powerdns-has-none"),
])
def test_each_backend_reads_its_daemons_query_lines(backend: str, line: str, expected: Logged | None) -> None:
    assert BACKENDS[backend].query(line) == expected  # type: ignore[index]


@pytest.mark.parametrize(("stamp", "expected"), [
    pytest.param("[1796543155]", dt.datetime(2026, 12, 6, 7, 45, 55, tzinfo=dt.UTC), id="epoch"),
    pytest.param("2026-12-06T07:45:50.123456+01:00 pi", dt.datetime(2026, 12, 6, 6, 45, 50, tzinfo=dt.UTC),
                 id="iso-zone"),
    pytest.param("2026-12-06T07:45:50Z", dt.datetime(2026, 12, 6, 7, 45, 50, tzinfo=dt.UTC), id="iso-utc"),
    pytest.param("<30>1 2026-12-06T07:45:50+00:00 opn", dt.datetime(2026, 12, 6, 7, 45, 50, tzinfo=dt.UTC),
                 id="rfc5424-priority"),
    pytest.param("Jan  2 11:00:00", dt.datetime(2027, 1, 2, 11, 0), id="syslog-this-year"),
    pytest.param("Dec 31 23:59:00 host", dt.datetime(2026, 12, 31, 23, 59), id="syslog-last-year"),
    pytest.param("02-Jan-2027 11:00:00.5", dt.datetime(2027, 1, 2, 11, 0), id="bind"),
    pytest.param("Foo  2 11:00:00", None, id="no-month"),
    pytest.param("31-Feb-2027 11:00:00", None, id="no-such-day"),
    pytest.param("whenever", None, id="no-time"),
])
def test_the_time_of_each_log_form(stamp: str, expected: dt.datetime | None) -> None:
    got = when(stamp, NOW)
    if expected is None or got is None:
        assert got == expected
    elif expected.tzinfo is None:  # a time the log writes without a zone: this machine's local time
        assert got.replace(tzinfo=None) == expected and got.tzinfo is not None
    else:
        assert got == expected


def test_a_bad_query_log_is_refused_at_load_naming_the_key(run: Callable[..., Any], tmp_path: Path) -> None:
    """A relative or hostile path, and a query_log on PowerDNS (no query log there), are refused
    when the inventory loads: exit 2, the file and the key named, nothing read."""
    folder = tmp_path / "dns"
    (folder / "sites").mkdir(parents=True)
    (folder / "sites" / "ana.yaml").write_text(
        "site: ana\ndomain: ana.lan\nnetwork: 10.250.0.0/16\nhosts:\n  - name: ana-gw\n    address: 10.250.0.1\n")
    for value, backend, said in (("logs/q.log", "dnsmasq", "expected an absolute file path"),
                                 ("/var/log/../../etc/shadow", "dnsmasq", "expected an absolute file path"),
                                 ("/var/log/pdns.log", "powerdns", "not used with backend: powerdns")):
        extra = ("  api: http://127.0.0.1:8081\n  api_key_env: PDNS_KEY\n" if backend == "powerdns" else
                 "  snippet_dir: /etc/dnsmasq.d\n  backup_dir: /var/backups/renamer\n"
                 "  test: [dnsmasq, --test]\n  reload: [systemctl, restart, dnsmasq]\n")
        (folder / "resolvers.yaml").write_text(
            f"resolvers:\n- name: ns1\n  address: 127.0.0.1\n  backend: {backend}\n{extra}"
            f"  query_log: {value!r}\n")
        refused = run(tmp_path, "dns", "who-asks", "ana-ml2", "--inventory", str(folder))
        assert refused.exit_code == 2, refused.stdout + refused.stderr
        assert refused.stderr.startswith("renamer: error: ") and "resolvers.yaml:" in refused.stderr
        assert "query_log" in refused.stderr and said in refused.stderr, refused.stderr
