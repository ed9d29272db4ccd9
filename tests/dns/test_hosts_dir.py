"""A resolver's `hosts_dir` (dnsmasq's hostsdir=): the sites' addresses go into hosts files there,
which dnsmasq re-reads without a restart. Real dnsmasq on loopback, through the CLI, asserted over DNS:
an address-only change keeps the pid and never misses an answer; anything else still restarts; a
failure puts the hosts file back; a hosts_dir dnsmasq does not read is refused before any write."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from dns import exception as dns_exception
from dns import message as dns_message
from dns import query as dns_query
from dns import rcode as dns_rcode
from tests.testing.resolvers import Lab, addresses, dns, move_gateway, with_hosts_dir

TWO = ("ns-h1", "ns-h2")
OLD, NEW = ("10.251.0.1",), ("10.251.0.2",)  # fv-gw before and after move_gateway


class Probe:
    """Asks one resolver for a name every 5 ms while an apply runs, keeping every answer (the A
    records, sorted; () for no answer: a timeout, an error, an empty or failed response)."""

    def __init__(self, lab: Lab, resolver: str, name: str) -> None:
        self.instance, self.name = lab.instances[resolver], name
        self.seen: list[tuple[str, ...]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                response = dns_query.udp(dns_message.make_query(self.name, "A"), self.instance.address,
                                         port=self.instance.port, timeout=0.5)
                ok = response.rcode() == dns_rcode.NOERROR
                self.seen.append(tuple(sorted(item.to_text() for rrset in response.answer for item in rrset))
                                 if ok else ())
            except (dns_exception.Timeout, OSError):
                self.seen.append(())
            time.sleep(0.005)

    def switched(self, old: tuple[str, ...], new: tuple[str, ...]) -> bool:
        """Every answer was `old` then `new`, in that order, once: no gap (a missed answer), no
        third value, no flapping back, and the switch happened while the probe ran."""
        runs = [value for i, value in enumerate(self.seen) if i == 0 or self.seen[i - 1] != value]
        return runs == [old, new]

    def __enter__(self) -> Probe:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()


def _processes(lab: Lab) -> dict[str, tuple[str, str]]:
    """Each daemon as the kernel knows it: its pid and its start time (field 22 of
    /proc/PID/stat), so a restart is seen even if the pid file were left as it was."""
    out = {}
    for name, pid in lab.pids().items():
        stat = Path(f"/proc/{pid}/stat").read_text()
        out[name] = (pid, stat.rsplit(")", 1)[1].split()[19])
    return out


def test_an_address_change_activates_with_no_restart_and_no_gap(run, pair) -> None:  # type: ignore[no-untyped-def]
    extra = with_hosts_dir(pair)
    first = dns(run, pair, "apply", "--resolvers", "all")
    assert first.exit_code == 0, first.stdout + first.stderr
    for instance in pair.instances.values():
        hosts = (instance.folder / "hosts.d" / "renamer-fv.hosts").read_text()
        assert "10.251.0.1 fv-gw.fv.lan fv-gw\n" in hosts
        assert "host-record" not in (instance.snippet_dir / "renamer-fv.conf").read_text()
    assert addresses(pair, "fv-gw.fv.lan.") == {name: OLD for name in TWO}
    pids, processes = pair.pids(), _processes(pair)
    move_gateway(pair)
    with Probe(pair, "ns-h1", "fv-gw.fv.lan.") as first_probe, Probe(pair, "ns-h2", "fv-gw.fv.lan.") as probe:
        applied = dns(run, pair, "apply", "--resolvers", "all")
        time.sleep(0.2)  # a few answers after the apply too
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    assert "no restart (re-read live)" in applied.stdout
    assert _processes(pair) == processes, "an address-only change restarted dnsmasq"
    for seen in (first_probe, probe):  # each resolver: the old address, then the new one, no gap
        assert len(seen.seen) >= 20 and seen.switched(OLD, NEW), sorted(set(seen.seen))
    assert addresses(pair, "fv-gw.fv.lan.") == {name: NEW for name in TWO}
    ptr = dns_query.udp(dns_message.make_query("2.0.251.10.in-addr.arpa.", "PTR"), "127.0.0.1",
                        port=pair.instances["ns-h2"].port, timeout=2.0)
    assert [str(item) for rrset in ptr.answer for item in rrset] == ["fv-gw.fv.lan."]
    # A failure on the second resolver: the first one's hosts file is put back, still no restart.
    path = pair.inventory / "sites" / "fv.yaml"
    path.write_text(path.read_text().replace("address: 10.251.0.2", "address: 10.251.0.3"))
    hosts = pair.instances["ns-h2"].folder / "hosts.d" / "renamer-fv.hosts"
    saved = pair.root / "ns-h2-hosts-as-it-was"
    saved.write_bytes(hosts.read_bytes())
    # passes on the hosts file as it stands (the preflight lets the apply start), fails once written
    broken = ["sh", "-c", 'cmp -s -- "$1" "$2" && exit 0; echo broken >&2; exit 1', "sh", str(hosts), str(saved)]
    pair.write_resolvers(**{**extra, "ns_h2": {**extra["ns_h2"], "test": broken}})
    with Probe(pair, "ns-h1", "fv-gw.fv.lan.") as probe:
        failed = dns(run, pair, "apply", "--resolvers", "all")
        time.sleep(0.2)
    assert failed.exit_code == 1 and "rollback FAILED" not in failed.stdout, failed.stdout
    assert _processes(pair) == processes
    assert () not in probe.seen and set(probe.seen) <= {NEW, ("10.251.0.3",)}, sorted(set(probe.seen))
    assert probe.seen[-1] == NEW  # put back, and answering all along
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
