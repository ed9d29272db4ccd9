#!/usr/bin/env python3
"""Time `renamer dns apply` and `dns verify` of a 1,000-host site on each backend's real daemon.

    python3 benchmarks/bench_backends.py [--hosts 1000] [--runs 5] [--backends dnsmasq,unbound,bind,powerdns]
        [--engines builtin,ansible] [--ansible-runs 1] [--json FILE]

For each backend one real daemon on 127.0.0.1, started by the tests' lab starters
(tests/testing/resolvers.py: dnsmasq, Unbound, BIND 9's named, PowerDNS with its API), holding
one site (benchmarks/dns_sites.py): every host an A and a PTR, every fifth an alias (CNAME),
every tenth an IPv6 address too (AAAA and ip6.arpa PTR), one retired name. Each run starts a
fresh daemon holding nothing of the site, then times through the CLI, each a process of its own:

* `apply (empty)`: `dns apply --resolvers all`, every record written;
* `verify`: `dns verify --resolvers all`, every record asked over DNS;
* `apply (1 host changed)`: one host's address moved (its A and PTR), applied.

With `--engines ...,ansible` the two applies again with `--engine ansible` (ansible-playbook
over the exported playbook; slow: `--ansible-runs`, default 1). Each step must exit 0.

Printed: a table of backend, engine, step, median and min wall seconds, the median CPU seconds
of the renamer process and every child it waited for (`getrusage(RUSAGE_CHILDREN)`: the
daemons' test and reload commands, ansible-playbook; not the daemons themselves), the runs,
the daemon's own CPU seconds meanwhile (from /proc; a dnsmasq restarted counts from its
start), and the work each step did as `-vv`'s `work:` line counts it: DNS queries sent, PowerDNS API
calls, commands run (a test, a reload). Under `--engine ansible` those counts are of the
renamer process alone: the playbook's own verify steps run renamer in processes of ansible's.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]  # dns_sites beside this; tests.testing's lab starters
from dns_sites import site_yaml  # noqa: E402  (a script beside this one, not a package)

from renamer.dns.load import load_sites  # noqa: E402
from renamer.dns.powerdns import rrsets  # noqa: E402
from tests.testing import resolvers as labs  # noqa: E402

BACKENDS: dict[str, Callable[..., labs.Lab]] = {
    "dnsmasq": labs.start_lab, "unbound": labs.start_unbound_lab, "bind": labs.start_bind_lab,
    "powerdns": labs.start_powerdns_lab}
ALIAS_EVERY, IPV6_EVERY, MOVED = 5, 10, (1,)  # host1 moves: 10.60.0.2 -> 10.60.200.2
WORK = re.compile(r"^renamer: debug: work: (.*)$", re.M)


@dataclass
class Row:
    backend: str
    engine: str
    step: str
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    work: list[dict[str, int]] = field(default_factory=list)
    daemon: list[float] = field(default_factory=list)

    def counted(self, *names: str) -> int:
        """The median over the runs of the counts named (summed)."""
        return int(statistics.median(sum(w.get(n, 0) for n in names) for w in self.work)) if self.work else 0


def renamer_argv() -> list[str]:
    beside = Path(sys.executable).parent / "renamer"
    return [str(beside)] if beside.exists() else [sys.executable, "-m", "renamer"]


def children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def parse_work(stderr: str) -> dict[str, int]:
    found = WORK.findall(stderr)
    if not found or found[-1] == "nothing counted":
        return {}
    return {what: int(n) for what, n in (part.rsplit(" ", 1) for part in found[-1].split(", "))}


def daemon_cpu(lab: labs.Lab) -> dict[str, float]:
    """CPU seconds (user + system) of each daemon process of the lab, by pid."""
    used = {}
    for pid in lab.pids().values():
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, ValueError, IndexError):
            continue
        used[pid] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return used


def timed(row: Row, lab: labs.Lab, *args: str) -> None:
    """One `renamer dns ARGS -vv --inventory ...` of `lab`, into `row`; exit 0 or raise."""
    root = lab.root
    argv = [*renamer_argv(), "dns", *args, "-vv", "--inventory", str(root / "dns")]
    before, cpu, start = daemon_cpu(lab), children_cpu(), time.perf_counter()
    done = subprocess.run(argv, cwd=root, capture_output=True, text=True, check=False,
                          env={**os.environ, "NO_COLOR": "1"})
    row.wall.append(time.perf_counter() - start)
    row.cpu.append(children_cpu() - cpu)
    # a daemon restarted meanwhile (dnsmasq) counts from its start: the old one's last moments are lost
    row.daemon.append(sum(used - before.get(pid, 0.0) for pid, used in daemon_cpu(lab).items()))
    if done.returncode != 0:
        raise RuntimeError(f"{row.backend} {row.engine} {row.step}: `{' '.join(args)}` exited "
                           f"{done.returncode}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    row.work.append(parse_work(done.stderr))


def start(backend: str, root: Path, hosts: int) -> labs.Lab:
    """A fresh daemon of `backend` under `root` holding nothing of the site, and an inventory of
    the one site at dns/sites/big.yaml."""
    lab = BACKENDS[backend](root, (f"ns-{backend}",))
    try:
        sites = root / "dns" / "sites"
        shutil.rmtree(sites)  # the lab's shipped sites: only the big one here
        sites.mkdir()
        (sites / "big.yaml").write_text(site_yaml(hosts, alias_every=ALIAS_EVERY, ipv6_every=IPV6_EVERY))
        if isinstance(lab, labs.PowerDNSLab):  # renamer never creates a zone: the operator's part
            for site in load_sites(root / "dns"):
                for zone in rrsets.zones(site):
                    lab.server(f"ns-{backend}").create_zone(zone)
        subprocess.run(["git", "init", "-q", str(root)], check=True)
    except BaseException:
        lab.stop()
        raise
    return lab


def one_run(backend: str, engine: str, hosts: int, rows: dict[tuple[str, str, str], Row]) -> None:
    def row(step: str) -> Row:
        return rows.setdefault((backend, engine, step), Row(backend, engine, step))

    root = Path(tempfile.mkdtemp(prefix=f"renamer-bench-{backend}-"))
    lab = start(backend, root, hosts)
    try:
        engine_args = ("--engine", engine) if engine != "builtin" else ()
        timed(row("apply (empty)"), lab, "apply", "--resolvers", "all", *engine_args)
        if engine == "builtin":
            timed(row("verify"), lab, "verify", "--resolvers", "all")
        (root / "dns" / "sites" / "big.yaml").write_text(
            site_yaml(hosts, alias_every=ALIAS_EVERY, ipv6_every=IPV6_EVERY, moved=MOVED))
        timed(row("apply (1 host changed)"), lab, "apply", "--resolvers", "all", *engine_args)
    finally:
        lab.stop()
        shutil.rmtree(root, ignore_errors=True)


def table(rows: list[Row]) -> str:
    heads = ("backend", "engine", "step", "median s", "min s", "CPU s (median)", "daemon CPU s", "runs",
             "DNS queries", "API calls", "commands")
    lines = ["| " + " | ".join(heads) + " |", "| --- | --- | --- |" + " ---: |" * (len(heads) - 3)]
    for r in rows:
        api = sum(r.counted(k) for k in {k for w in r.work for k in w if k.startswith("api ")})
        cells = (r.backend, r.engine, r.step, f"{statistics.median(r.wall):.2f}", f"{min(r.wall):.2f}",
                 f"{statistics.median(r.cpu):.2f}", f"{statistics.median(r.daemon):.2f}", str(len(r.wall)),
                 str(r.counted("dns queries")), str(api), str(r.counted("resolver commands")))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def bytecode_cached() -> Path | None:
    """Where PYTHONDONTWRITEBYTECODE is set (this machine), every renamer process compiled its
    modules from source (~0.7 s): cache them in a folder of this run instead (as tests/conftest.py
    does), compiled once before the first timed step; that folder, for the caller to remove."""
    made = None
    if os.environ.pop("PYTHONDONTWRITEBYTECODE", None) and "PYTHONPYCACHEPREFIX" not in os.environ:
        made = Path(tempfile.mkdtemp(prefix="renamer-bench-pycache-"))
        os.environ["PYTHONPYCACHEPREFIX"] = str(made)
    import renamer
    package = str(Path(renamer.__file__).parent)
    subprocess.run([sys.executable, "-m", "compileall", "-q", package], check=False)
    return made


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hosts", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5, help="runs of each built-in step (fresh daemons each)")
    parser.add_argument("--ansible-runs", type=int, default=1)
    parser.add_argument("--backends", default=",".join(BACKENDS))
    parser.add_argument("--engines", default="builtin")
    parser.add_argument("--json", type=Path, default=None, help="write every sample here")
    args = parser.parse_args(argv)
    backends = [b for b in args.backends.split(",") if b]
    engines = [e for e in args.engines.split(",") if e]
    unknown = [b for b in backends if b not in BACKENDS] + [e for e in engines
                                                            if e not in ("builtin", "ansible")]
    if unknown:
        parser.error(f"unknown backend or engine: {', '.join(unknown)}")
    cache = bytecode_cached()
    rows: dict[tuple[str, str, str], Row] = {}
    load = os.getloadavg()
    began = time.time()
    try:
        for engine in engines:
            for backend in backends:
                for _ in range(args.runs if engine == "builtin" else args.ansible_runs):
                    one_run(backend, engine, args.hosts, rows)
    finally:
        if cache is not None:
            shutil.rmtree(cache, ignore_errors=True)
    ordered = sorted(rows.values(), key=lambda r: (list(BACKENDS).index(r.backend), engines.index(r.engine)))
    cores = len(os.sched_getaffinity(0))
    print(f"{args.hosts} hosts (alias every {ALIAS_EVERY}th, IPv6 every {IPV6_EVERY}th, 1 retired), "
          f"{cores} cores, load average {load[0]:.1f} at start, {os.getloadavg()[0]:.1f} at end")
    print(table(ordered))
    if args.json is not None:
        args.json.write_text(json.dumps({
            "date": datetime.datetime.fromtimestamp(began, datetime.UTC).isoformat(timespec="seconds"),
            "hosts": args.hosts, "alias_every": ALIAS_EVERY, "ipv6_every": IPV6_EVERY, "cores": cores,
            "load_start": load, "load_end": os.getloadavg(), "seconds": round(time.time() - began, 1),
            "rows": [{"backend": r.backend, "engine": r.engine, "step": r.step, "runs": len(r.wall),
                      "median": statistics.median(r.wall), "min": min(r.wall), "wall": r.wall, "cpu": r.cpu,
                      "daemon_cpu": r.daemon, "work": r.work} for r in ordered]}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
