#!/usr/bin/env python3
"""The gap in answers while `dns apply` activates an address change, with and without hosts_dir.

    python3 benchmarks/bench_activation.py [--interval 0.005] [--runs 3]

One real dnsmasq on loopback per case. The site is applied once, then one host is renumbered
and applied again while a loop asks the resolver for a name of the site every `interval`
seconds, from just before the apply starts until it has ended (a few hundred queries).
Without hosts_dir the change is a restart of dnsmasq (host-record is re-read only then);
with hosts_dir it is a hosts file that dnsmasq re-reads by itself. Printed per case: queries
sent, queries without an answer (a timeout, a refusal, an empty answer), the longest run of
them in ms, whether the pid changed.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from dns import exception as dns_exception
from dns import message as dns_message
from dns import query as dns_query
from dns import rcode as dns_rcode
from renamer.dns.dnsmasq import sandbox
from renamer.shipped import shipped


def _loop(instance: sandbox.Instance, done: threading.Event, interval: float,
          out: list[tuple[float, bool]]) -> None:
    while not done.is_set():
        sent = time.monotonic()
        try:
            response = dns_query.udp(dns_message.make_query("fv-ml1.fv.lan.", "A"), instance.address,
                                     port=instance.port, timeout=0.5)
            ok = response.rcode() == dns_rcode.NOERROR and bool(response.answer)
        except (dns_exception.Timeout, OSError):
            ok = False
        out.append((sent, ok))
        time.sleep(interval)


def _case(root: Path, hosts_dir: bool, interval: float) -> tuple[int, int, float, bool]:
    instance = sandbox.create(root / "ns")
    extra: dict[str, dict[str, object]] = {}
    if hosts_dir:
        (instance.folder / "hosts.d").mkdir()
        with instance.conf.open("a") as conf:
            conf.write(f"hostsdir={instance.folder / 'hosts.d'}\n")
        extra["ns"] = {"hosts_dir": str(instance.folder / "hosts.d")}
    shutil.copytree(shipped("dns") / "sites", root / "dns" / "sites")
    inventory = sandbox.resolvers_yaml({"ns": instance}, root / "backups", extra)
    (root / "dns" / "resolvers.yaml").write_text(inventory)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    command = [sys.executable, "-m", "renamer", "dns", "apply", "--resolvers", "all",
               "--inventory", str(root / "dns")]
    sandbox.start(instance.folder)
    try:
        subprocess.run(command, cwd=root, check=True, capture_output=True)
        pid = instance.pid_file.read_text()
        site = root / "dns" / "sites" / "fv.yaml"
        site.write_text(site.read_text().replace("address: 10.251.0.1", "address: 10.251.0.9"))
        answers: list[tuple[float, bool]] = []
        done = threading.Event()
        loop = threading.Thread(target=_loop, args=(instance, done, interval, answers))
        loop.start()
        try:
            subprocess.run(command, cwd=root, check=True, capture_output=True)
        finally:
            done.set()
            loop.join()
        restarted = instance.pid_file.read_text() != pid
    finally:
        sandbox.stop(instance.folder)
    missed = sum(1 for _, ok in answers if not ok)
    longest, start = 0.0, None
    for sent, ok in answers:
        if not ok and start is None:
            start = sent
        elif ok and start is not None:
            longest, start = max(longest, sent - start), None
    if start is not None:
        longest = max(longest, answers[-1][0] - start)
    return len(answers), missed, longest * 1000, restarted


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--interval", type=float, default=0.005)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print("| case | queries (median) | without an answer (median) | longest gap, ms (median) | restarted |")
    print("| --- | ---: | ---: | ---: | --- |")
    for hosts_dir in (False, True):
        results = []
        for _ in range(args.runs):
            with tempfile.TemporaryDirectory(prefix="renamer-bench-activation-") as scratch:
                results.append(_case(Path(scratch), hosts_dir, args.interval))
        label = "hosts_dir (hosts file re-read live)" if hosts_dir else "conf-dir snippet (restart)"
        print(f"| {label} | {statistics.median(r[0] for r in results):g} | "
              f"{statistics.median(r[1] for r in results):g} | "
              f"{statistics.median(r[2] for r in results):.0f} | {', '.join(str(r[3]) for r in results)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
