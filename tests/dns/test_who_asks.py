"""`renamer dns who-asks` (issue 34 item 3) on real dnsmasq, Unbound and named that log the
queries this test makes over loopback, from two client addresses: each client that asked for an
old name (as written or under a site's domain) or an old address (its PTR name) is listed, with
how often and when; a name nobody asked is OK; a log that cannot prove it (missing, logging off,
rotated after the window's start) fails; older lines fall outside the window."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from dns import message as dns_message
from dns import query as dns_query
from tests.testing.resolvers import Lab, dns, start_bind_lab, start_lab, start_unbound_lab

STARTERS: dict[str, Callable[[Path, tuple[str, ...]], Lab]] = {"dnsmasq": start_lab, "unbound": start_unbound_lab,
                                                               "bind": start_bind_lab}


@pytest.fixture(params=sorted(STARTERS))
def logging_lab(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Lab, Path]]:
    """One resolver of each backend that logs every query it gets to a file (its query_log)."""
    lab = STARTERS[request.param](tmp_path / "lab", ("ns-ana",))
    try:
        yield lab, _log_queries(lab)
    finally:
        lab.stop()


def _log_queries(lab: Lab) -> Path:
    instance = lab.instances["ns-ana"]
    if instance.backend == "unbound":
        log = instance.folder / "unbound.log"
        extra = "server:\n  log-queries: yes\n"
    elif instance.backend == "bind":  # `named -g` logs every category to its stderr: named.log
        log, extra = instance.folder / "named.log", ""
    else:
        log = instance.folder / "queries.log"
        extra = f"log-queries\nlog-facility={log}\n"
    conf = instance.conf.read_text()
    if instance.backend == "bind":
        conf = conf.replace("options {\n", "options {\n  querylog yes;\n", 1)
    instance.conf.write_text(conf + extra)
    instance.stop()
    instance.start()
    lab.write_resolvers(ns_ana={"query_log": str(log)})
    return log


def _ask(lab: Lab, name: str, rdtype: str = "A", client: str = "127.0.0.1") -> None:
    instance = lab.instances["ns-ana"]
    dns_query.udp(dns_message.make_query(name, rdtype), instance.address, port=instance.port, source=client,
                  timeout=2.0)


def _queries(log: Path) -> int:
    """The query lines the daemon has written so far."""
    text = log.read_text(errors="replace") if log.exists() else ""
    return sum(1 for line in text.splitlines() if "query" in line or " IN" in line)


def _logged(log: Path, count: int) -> None:
    """Wait until the daemon has written `count` query lines (it writes them after it answers)."""
    deadline = dt.datetime.now() + dt.timedelta(seconds=10)
    while dt.datetime.now() < deadline:
        if _queries(log) >= count:
            return
    raise AssertionError(f"{log}: fewer than {count} queries logged")


def test_the_clients_that_still_ask_are_listed_from_the_daemons_own_log(
        run: Callable[..., Any], logging_lab: tuple[Lab, Path]) -> None:
    lab, log = logging_lab
    for _ in range(3):
        _ask(lab, "ana-ml2.ana.lan.")
    _ask(lab, "ANA-ML2.", client="127.0.0.2")  # a short name, in capitals: the same old name
    _ask(lab, "54.50.250.10.in-addr.arpa.", "PTR")  # the old address, by its PTR name
    _ask(lab, "ana-nas.ana.lan.", client="127.0.0.3")  # a current name: nobody to fix
    _logged(log, 6)
    found = dns(run, lab, "who-asks", "ana-ml2", "10.250.50.54", "--format", "json")
    assert found.exit_code == 1, found.stdout + found.stderr
    document = json.loads(found.stdout)
    assert [(a["old"], a["client"], a["count"], a["types"]) for a in document["askers"]] == [
        ("10.250.50.54", "127.0.0.1", 1, ["PTR"]),
        ("ana-ml2", "127.0.0.1", 3, ["A"]),
        ("ana-ml2", "127.0.0.2", 1, ["A"])]
    assert document["logs"][0]["queries"] >= 6
    # a log begun seconds ago proves nothing of the week before: said, whoever asked
    assert "holds queries from" in document["logs"][0]["problem"]
    table = dns(run, lab, "who-asks", "ana-ml2", "10.250.50.54")
    assert table.exit_code == 1
    assert "2 client(s) still ask for 2 old value(s)" in table.stdout, table.stdout
    nobody = dns(run, lab, "who-asks", "ana-gw")
    assert nobody.exit_code == 1 and "cannot prove it" in nobody.stdout, nobody.stdout


def test_renamers_own_checks_are_no_client(run: Callable[..., Any], logging_lab: tuple[Lab, Path]) -> None:
    """A trial on two public resolver configurations (a dnsmasq, an Unbound): `dns verify` and
    `dns apply` ask for every old name and address (that they are gone), from the machine renamer
    runs on, and who-asks listed that machine as a client still asking (13 times). renamer asks
    in its own case (dns/own_case.py); a client asking the same names, lower or upper case or
    randomised, is still listed."""
    lab, log = logging_lab
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    assert dns(run, lab, "verify", "--resolvers", "all").exit_code == 0
    before = _queries(log)
    text = log.read_text(errors="replace")
    assert "AnA-mL2.aNa.LaN" in text, text[-2000:]  # renamer asked, in its own case
    _ask(lab, "ana-ml2.ana.lan.", client="127.0.0.2")  # a client, as a stub resolver asks
    _ask(lab, "aNa-ML2.AnA.lAN.", client="127.0.0.3")  # a client that randomises case (DNS 0x20)
    _logged(log, before + 2)
    found = dns(run, lab, "who-asks", "ana-ml2", "10.250.50.54", "--format", "json")
    document = json.loads(found.stdout)
    assert [(a["old"], a["client"], a["count"]) for a in document["askers"]] == [
        ("ana-ml2", "127.0.0.2", 1), ("ana-ml2", "127.0.0.3", 1)], document
    assert document["logs"][0]["own"] > 0
    shown = dns(run, lab, "who-asks", "ana-ml2", "10.250.50.54")
    assert "were renamer's own checks" in shown.stdout, shown.stdout
    assert "2 client(s) still ask for 1 old value(s)" in shown.stdout, shown.stdout


def test_a_log_that_cannot_prove_nobody_asks_fails(run: Callable[..., Any], tmp_path: Path) -> None:
    lab = start_lab(tmp_path / "lab", ("ns-ana",))
    try:
        missing = tmp_path / "nowhere.log"
        lab.write_resolvers(ns_ana={"query_log": str(missing)})
        gone = dns(run, lab, "who-asks", "ana-ml2")
        assert gone.exit_code == 1 and f"ns-ana: {missing} does not exist" in gone.stdout, gone.stdout
        silent = tmp_path / "silent.log"
        silent.write_text("Dec  6 07:45:49 dnsmasq[8773]: started, version 2.90 cachesize 150\n")
        lab.write_resolvers(ns_ana={"query_log": str(silent)})
        off = dns(run, lab, "who-asks", "ana-ml2")
        assert off.exit_code == 1 and "no query logged: is query logging on (dnsmasq: log-queries" in off.stdout
        assert "cannot prove it" in off.stdout
    finally:
        lab.stop()


def test_the_window_reads_the_times_of_every_log_form(run: Callable[..., Any], tmp_path: Path) -> None:
    """Lines 30 days old fall outside --since 7d and inside --since 60d, where the log beginning
    30 days ago cannot prove the window's first days: listed, and a problem."""
    lab = start_lab(tmp_path / "lab", ("ns-ana",))
    try:
        now = dt.datetime.now().astimezone()
        old, recent = now - dt.timedelta(days=30), now - dt.timedelta(hours=2)
        log = tmp_path / "queries.log"
        log.write_text(f"{old:%b %e %H:%M:%S} dnsmasq[1]: query[A] ana-ml2.ana.lan from 10.250.20.9\n"
                       f"{recent:%b %e %H:%M:%S} dnsmasq[1]: 7 10.250.20.7/4711 query[AAAA] ana-ml2 from 10.250.20.7\n"
                       f"{recent.isoformat()} host dnsmasq[1]: query[A] ana-nas.ana.lan from 10.250.20.8\n")
        lab.write_resolvers(ns_ana={"query_log": str(log)})
        week = json.loads(dns(run, lab, "who-asks", "ana-ml2", "--format", "json").stdout)
        assert [(a["client"], a["types"]) for a in week["askers"]] == [("10.250.20.7", ["AAAA"])]
        assert week["logs"][0]["problem"] is None and week["logs"][0]["queries"] == 2
        nobody = dns(run, lab, "who-asks", "ana-gw", "10.250.50.54")
        assert nobody.exit_code == 0, nobody.stdout + nobody.stderr
        assert "dns who-asks: OK: no client asked for ana-gw, 10.250.50.54 since" in nobody.stdout
        longer = dns(run, lab, "who-asks", "ana-ml2", "--since", "60d", "--format", "json")
        assert longer.exit_code == 1
        document = json.loads(longer.stdout)
        assert [a["client"] for a in document["askers"]] == ["10.250.20.7", "10.250.20.9"]
        assert "on only, after the window's start" in document["logs"][0]["problem"]
        wrong = dns(run, lab, "who-asks", "--since", "7x")
        assert wrong.exit_code == 2 and "expected a number and a unit" in wrong.stderr
    finally:
        lab.stop()


def test_what_a_log_does_not_cover_is_never_ok(run: Callable[..., Any], tmp_path: Path) -> None:
    """DNS break-it round 4, finding 03: a log whose last query is older than the window, an old
    name asked on a line whose time cannot be read, and a managed resolver with no query_log were
    each passed over with `OK: no client asked`."""
    lab = start_lab(tmp_path / "lab", ("ns-ana", "ns-fv"))
    try:
        now = dt.datetime.now().astimezone()
        log = tmp_path / "queries.log"
        old = now - dt.timedelta(days=20)
        log.write_text(f"{old:%b %e %H:%M:%S} dnsmasq[1]: query[A] ana-nas.ana.lan from 10.250.20.8\n")
        lab.write_resolvers(ns_ana={"query_log": str(log)})
        gone = dns(run, lab, "who-asks", "ana-ml2", "--resolvers", "ns-ana")
        assert gone.exit_code == 1 and "its last query is from" in gone.stdout, gone.stdout
        recent = now - dt.timedelta(days=9)
        log.write_text(f"{recent:%b %e %H:%M:%S} dnsmasq[1]: query[A] ana-nas.ana.lan from 10.250.20.8\n"
                       "??? dnsmasq[1]: query[A] ana-ml2.ana.lan from 10.250.20.7\n"
                       f"{now:%b %e %H:%M:%S} dnsmasq[1]: query[A] ana-nas.ana.lan from 10.250.20.8\n")
        undated = dns(run, lab, "who-asks", "ana-ml2", "--resolvers", "ns-ana")
        assert undated.exit_code == 1 and "1 query line(s) with a time renamer cannot read" in undated.stdout
        log.write_text(log.read_text().replace("??? dnsmasq[1]: query[A] ana-ml2.ana.lan from 10.250.20.7\n", ""))
        assert dns(run, lab, "who-asks", "ana-ml2", "--resolvers", "ns-ana").exit_code == 0
        every = dns(run, lab, "who-asks", "ana-ml2")  # ns-fv too, which logs nowhere
        assert every.exit_code == 1 and "ns-fv: no query_log: its clients' queries are not read" in every.stdout
    finally:
        lab.stop()


def _dnsmasq_line(at: dt.datetime, name: str, client: str) -> str:
    """A query as dnsmasq's log-facility writes it: the host's local time, no zone, no year."""
    return f"{at:%b %e %H:%M:%S} dnsmasq[812]: query[A] {name} from {client}\n"


def test_a_resolver_in_another_zone_is_read_in_its_own_zone(run: Callable[..., Any], tmp_path: Path) -> None:
    """t25-34 finding 08: the resolver, over ssh, logs in its own local time (its sshd sets TZ);
    renamer runs in another zone. A client asked 6 days 20 hours ago, inside --since 7d: it is
    listed (exit 1), never missed by reading the times in renamer's zone."""
    from zoneinfo import ZoneInfo

    here = dt.datetime.now().astimezone().utcoffset()
    zone = next(z for z in ("America/New_York", "Asia/Tokyo")
                if dt.datetime.now(ZoneInfo(z)).utcoffset() != here)  # hours away from this machine's
    now = dt.datetime.now(ZoneInfo(zone))
    log = tmp_path / "queries.log"
    log.write_text(_dnsmasq_line(now - dt.timedelta(days=10), "ana-nas.ana.lan", "10.250.20.8")
                   + _dnsmasq_line(now - dt.timedelta(days=6, hours=20), "ana-ml2.ana.lan", "10.250.20.7")
                   + _dnsmasq_line(now - dt.timedelta(minutes=1), "ana-nas.ana.lan", "10.250.20.8"))
    lab = start_lab(tmp_path / "lab", ("ns-ana",))
    try:
        _asked_in_the_hosts_zone(run, lab, log, zone, tmp_path)
    finally:
        lab.stop()


def _asked_in_the_hosts_zone(run: Callable[..., Any], lab: Lab, log: Path, zone: str, tmp_path: Path) -> None:
    from tests.testing.sshd import start_sshd

    server = start_sshd(tmp_path / "sshd", f"SetEnv TZ={zone}")
    try:
        lab.write_resolvers(ns_ana={"target": server.target(), "ssh_config": str(server.client_config),
                                    "query_log": str(log)})
        found = dns(run, lab, "who-asks", "ana-ml2", "--format", "json")
        assert found.exit_code == 1, found.stdout + found.stderr
        doc = json.loads(found.stdout)
        assert [(a["old"], a["client"]) for a in doc["askers"]] == [("ana-ml2", "10.250.20.7")], doc
    finally:
        server.stop()
    # a host that cannot say its zone (its `date` fails): the log is a problem, never read in renamer's zone
    fake = tmp_path / "fake-bin"
    fake.mkdir()
    (fake / "date").write_text("#!/bin/sh\necho 'date: broken' >&2\nexit 1\n")
    (fake / "date").chmod(0o755)
    mute = start_sshd(tmp_path / "sshd-mute", f"SetEnv TZ={zone} PATH={fake}:/usr/sbin:/usr/bin:/sbin:/bin")
    try:
        lab.write_resolvers(ns_ana={"target": mute.target(), "ssh_config": str(mute.client_config),
                                    "query_log": str(log)})
        unknown = dns(run, lab, "who-asks", "ana-ml2")
        assert unknown.exit_code == 1, unknown.stdout + unknown.stderr
        assert "the zone of its times is not known" in unknown.stdout, unknown.stdout
    finally:
        mute.stop()


def test_an_old_fqdn_also_finds_the_clients_asking_its_short_name(run: Callable[..., Any], tmp_path: Path) -> None:
    """t25-34 finding 09: a client with the ana site's search domain asks `ana-ml2` alone; retiring
    ana-ml2.ana.lan breaks it too: `who-asks ana-ml2.ana.lan` lists it."""
    now = dt.datetime.now().astimezone()
    log = tmp_path / "queries.log"
    log.write_text(_dnsmasq_line(now - dt.timedelta(days=9), "ana-nas.ana.lan", "10.250.20.8")
                   + _dnsmasq_line(now - dt.timedelta(hours=2), "ana-ml2", "10.250.20.7")
                   + _dnsmasq_line(now - dt.timedelta(minutes=1), "ana-nas.ana.lan", "10.250.20.8"))
    lab = start_lab(tmp_path / "lab", ("ns-ana",))
    try:
        lab.write_resolvers(ns_ana={"query_log": str(log)})
        for old in ("ana-ml2.ana.lan", "ana-ml2.ana.lan."):
            found = dns(run, lab, "who-asks", old, "--format", "json")
            assert found.exit_code == 1, found.stdout + found.stderr
            doc = json.loads(found.stdout)
            assert [a["client"] for a in doc["askers"]] == ["10.250.20.7"], doc
        for since, said in (("0d", "empty window"), ("99999999d", "longer than the longest window")):
            refused = dns(run, lab, "who-asks", "ana-ml2", "--since", since)
            assert refused.exit_code == 2 and said in refused.stderr, refused.stderr  # t25-34 finding 10
            assert "Traceback" not in refused.stderr and "internal error" not in refused.stderr
    finally:
        lab.stop()
