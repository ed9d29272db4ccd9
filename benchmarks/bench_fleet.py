#!/usr/bin/env python3
"""A site change applied to a fleet of real dnsmasq resolvers, through both engines.

    python3 benchmarks/bench_fleet.py [--resolvers 50] [--batch 10]

Starts N dnsmasq instances on loopback (127.0.0.x addresses, one port each), applies
the fleet's snippets once, then for each engine and policy changes one host's address
in the site and times `renamer dns apply` of that change (every resolver reloads and is
verified), then `renamer dns verify --resolvers all`. Last, a failure in batch 3: the
third batch's test command fails; batches 1-2 must stay applied, batch 3 be rolled
back and the rest untouched, exit 1. Prints wall times, processes started (a proxy
for connections: local resolvers need none; ansible forks one worker per host and
task) and the failure run's table summary. Needs `renamer[fleet]` for the Ansible rows.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from renamer.dns.dnsmasq import sandbox
from renamer.shipped import shipped


def renamer(root: Path, *args: str) -> tuple[float, subprocess.CompletedProcess[str]]:
    argv = [sys.executable, "-m", "renamer", "dns", *args, "--inventory", str(root / "dns")]
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=root, capture_output=True, text=True)
    return time.perf_counter() - start, done


def bump(root: Path, step: int) -> None:
    """A change every resolver must apply: fv-gw moves to another address."""
    site = root / "dns" / "sites" / "fv.yaml"
    text = re.sub(r"(- name: fv-gw\n\s+address: 10\.251\.0\.)\d+", rf"\g<1>{100 + step}", site.read_text())
    site.write_text(text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--resolvers", type=int, default=50)
    parser.add_argument("--batch", type=int, default=10)
    args = parser.parse_args()
    beside = Path(sys.executable).parent / "ansible-playbook"
    has_ansible = beside.exists() or shutil.which("ansible-playbook") is not None
    root = Path(tempfile.mkdtemp(prefix="renamer-bench-fleet-"))
    names = [f"ns{n:03d}" for n in range(args.resolvers)]
    instances = {name: sandbox.create(root / "run" / name, address=f"127.0.0.{n + 2}")
                 for n, name in enumerate(names)}
    shutil.copytree(shipped("dns") / "sites", root / "dns" / "sites")
    subprocess.run(["git", "init", "-q", str(root)], check=True)

    failing = {"test": ["sh", "-c", "echo broken >&2; exit 1"]}

    def write_resolvers(broken: frozenset[str] = frozenset()) -> None:
        extra: dict[str, dict[str, object]] = {
            name: {"dhcp": [], **(failing if name in broken else {})} for name in names}
        (root / "dns" / "resolvers.yaml").write_text(
            sandbox.resolvers_yaml(instances, root / "backups", extra, timeout=1.0))

    try:
        for instance in instances.values():
            sandbox.start(instance.folder)
        write_resolvers()
        took, done = renamer(root, "apply", "--resolvers", "all")
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr
        print(f"{args.resolvers} dnsmasq resolvers on 127.0.0.2-{args.resolvers + 1}; "
              f"first apply {took:.1f} s")
        batches = ["--batch-size", str(args.batch)]
        runs = [("builtin", "all at once", []), ("builtin", f"batches of {args.batch}", batches)]
        if has_ansible:
            runs += [("ansible", "all at once", []),
                     ("ansible", f"batches of {args.batch}", batches)]
        print(f"\n| engine | policy | apply (change on {args.resolvers}) | dns verify | result |")
        print("| --- | --- | ---: | ---: | --- |")
        for step, (engine, policy, options) in enumerate(runs, 1):
            bump(root, step)
            took, done = renamer(root, "apply", "--resolvers", "all", "--engine", engine, *options)
            verified, check = renamer(root, "verify", "--resolvers", "all")
            last = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr.strip()
            print(f"| {engine} | {policy} | {took:.1f} s | {verified:.1f} s | {last}; "
                  f"{check.stdout.strip().splitlines()[-1]} |")
        print()
        for attempt, engine in enumerate(("builtin", "ansible") if has_ansible else ("builtin",)):
            bump(root, 20 + attempt)  # a change every resolver must apply, new for each engine
            third = names[2 * args.batch]  # the first resolver of batch 3
            write_resolvers(frozenset({third}))
            took, done = renamer(root, "apply", "--resolvers", "all", "--engine", engine,
                                 "--batch-size", str(args.batch))
            statuses = {}
            for line in done.stdout.splitlines()[1:]:
                parts = line.split()
                if parts and parts[0] in instances:
                    statuses[parts[0]] = " ".join(w for w in parts[2:4] if w not in ("-", "backup", "wrote"))
            counts: dict[str, int] = {}
            for status in statuses.values():
                counts[status] = counts.get(status, 0) + 1
            print(f"failure in batch 3 ({engine}): exit {done.returncode} in {took:.1f} s; {counts}; "
                  f"{done.stdout.strip().splitlines()[-1]}")
            write_resolvers()
    finally:
        for instance in instances.values():
            sandbox.stop(instance.folder)
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
