"""A resolver's `hosts_dir` (dnsmasq's hostsdir=): the sites' addresses go into hosts files there,
which dnsmasq re-reads without a restart. Real dnsmasq on loopback, through the CLI, asserted over DNS:
an address-only change keeps the pid and never misses an answer; anything else still restarts; a
failure puts the hosts file back; a hosts_dir dnsmasq does not read is refused before any write."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from dns import exception as dns_exception
from dns import message as dns_message
from dns import query as dns_query
from dns import rcode as dns_rcode
from tests.testing.resolvers import Lab, addresses, dns, move_gateway, start_lab, with_hosts_dir

TWO = ("ns-h1", "ns-h2")
OLD, NEW = ("10.251.0.1",), ("10.251.0.2",)  # fv-gw before and after move_gateway


@pytest.fixture
def pair(tmp_path: Path):  # type: ignore[no-untyped-def]
    started = start_lab(tmp_path / "pair", TWO)
    try:
        yield started
    finally:
        started.stop()


class Probe:
    """Asks one resolver for a name every 5 ms while an apply runs; counts what was not an answer."""

    def __init__(self, lab: Lab, resolver: str, name: str) -> None:
        self.instance, self.name = lab.instances[resolver], name
        self.sent, self.missed = 0, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def _loop(self) -> None:
        while not self._stop.is_set():
            self.sent += 1
            try:
                response = dns_query.udp(dns_message.make_query(self.name, "A"), self.instance.address,
                                         port=self.instance.port, timeout=0.5)
                if response.rcode() != dns_rcode.NOERROR or not response.answer:
                    self.missed += 1
            except (dns_exception.Timeout, OSError):
                self.missed += 1
            time.sleep(0.005)

    def __enter__(self) -> Probe:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()


def test_an_address_change_activates_with_no_restart_and_no_gap(run, pair) -> None:  # type: ignore[no-untyped-def]
    extra = with_hosts_dir(pair)
    first = dns(run, pair, "apply", "--resolvers", "all")
    assert first.exit_code == 0, first.stdout + first.stderr
    for instance in pair.instances.values():
        hosts = (instance.folder / "hosts.d" / "renamer-fv.hosts").read_text()
        assert "10.251.0.1 fv-gw.fv.lan fv-gw\n" in hosts
        assert "host-record" not in (instance.snippet_dir / "renamer-fv.conf").read_text()
    assert addresses(pair, "fv-gw.fv.lan.") == {name: OLD for name in TWO}
    pids = pair.pids()
    move_gateway(pair)
    with Probe(pair, "ns-h1", "fv-gw.fv.lan.") as probe:
        applied = dns(run, pair, "apply", "--resolvers", "all")
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    assert "no restart (re-read live)" in applied.stdout
    assert pair.pids() == pids, "an address-only change restarted dnsmasq"
    assert probe.sent >= 20 and probe.missed == 0, (probe.sent, probe.missed)
    assert addresses(pair, "fv-gw.fv.lan.") == {name: NEW for name in TWO}
    ptr = dns_query.udp(dns_message.make_query("2.0.251.10.in-addr.arpa.", "PTR"), "127.0.0.1",
                        port=pair.instances["ns-h2"].port, timeout=2.0)
    assert [str(item) for rrset in ptr.answer for item in rrset] == ["fv-gw.fv.lan."]
    # A failure on the second resolver: the first one's hosts file is put back, still no restart.
    path = pair.inventory / "sites" / "fv.yaml"
    path.write_text(path.read_text().replace("address: 10.251.0.2", "address: 10.251.0.3"))
    pair.write_resolvers(**{**extra, "ns_h2": {**extra["ns_h2"],
                                               "test": ["sh", "-c", "echo broken >&2; exit 1"]}})
    failed = dns(run, pair, "apply", "--resolvers", "all")
    assert failed.exit_code == 1 and "rollback FAILED" not in failed.stdout, failed.stdout
    assert pair.pids() == pids
    assert addresses(pair, "fv-gw.fv.lan.") == {name: NEW for name in TWO}
    # Anything beyond addresses (here a new alias: a cname line) still restarts.
    pair.write_resolvers(**extra)
    path.write_text(path.read_text().replace("aliases: [scriberr]", "aliases: [scriberr, notes]"))
    changed = dns(run, pair, "apply", "--resolvers", "all")
    assert changed.exit_code == 0, changed.stdout + changed.stderr
    assert all(pair.pids()[name] != pids[name] for name in TWO)
    assert addresses(pair, "notes.fv.lan.") == {name: ("10.251.50.54",) for name in TWO}


def test_a_hosts_dir_dnsmasq_does_not_read_is_refused(run, pair) -> None:  # type: ignore[no-untyped-def]
    folder = pair.root / "unread"
    folder.mkdir()
    pair.write_resolvers(ns_h1={"hosts_dir": str(folder)})
    refused = dns(run, pair, "apply", "--resolvers", "all")
    assert refused.exit_code == 3, refused.stdout + refused.stderr
    assert f"ns-h1: hosts_dir {folder} is not read by dnsmasq: no hostsdir=" in refused.stderr
    assert pair.snippets() == {} and list(folder.iterdir()) == []
    pair.write_resolvers(ns_h1={"hosts_dir": "hosts.d"})
    bad = dns(run, pair, "plan", "--resolvers", "all")
    assert bad.exit_code == 2
    assert bad.stderr == ("renamer: error: dns/resolvers.yaml:2: resolvers[0].hosts_dir: expected an absolute "
                          "folder path, got 'hosts.d'\n")


def test_the_ansible_engine_writes_the_hosts_files_too(run, pair) -> None:  # type: ignore[no-untyped-def]
    """The Ansible engine installs the same files (a restart after any change: no live path there)."""
    with_hosts_dir(pair)
    move_gateway(pair)
    applied = dns(run, pair, "apply", "--resolvers", "all", "--engine", "ansible")
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    assert addresses(pair, "fv-gw.fv.lan.") == {name: NEW for name in TWO}
    for instance in pair.instances.values():
        hosts = instance.folder / "hosts.d" / "renamer-fv.hosts"
        assert "10.251.0.2 fv-gw.fv.lan fv-gw\n" in hosts.read_text()
        assert hosts.stat().st_mode & 0o077 == 0o044  # readable by the daemon's user
