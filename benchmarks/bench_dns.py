#!/usr/bin/env python3
"""Time `renamer dns verify` for 1,000 hosts against three real dnsmasq resolvers on loopback.

    python3 benchmarks/bench_dns.py [--hosts 1000] [--runs 5]

Each host has an address, a PTR and, for every fifth host, an alias: about
3,000 queries per resolver. The resolvers are started here and stopped after.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from renamer.dns import sandbox
from renamer.dns.dnsmasq.render import render_resolver
from renamer.dns.load import load_inventory


def site_yaml(hosts: int) -> str:
    lines = ["site: big", "domain: big.lan", "network: 10.60.0.0/16", "hosts:"]
    for n in range(hosts):
        lines.append(f"  - name: host{n}")
        lines.append(f"    address: 10.60.{n // 250}.{n % 250 + 1}")
        if n % 5 == 0:
            lines.append(f"    aliases: [alias{n}]")
    lines.append("retired: [old-box]")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hosts", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    renamer = shutil.which("renamer")
    if renamer is None:
        print("renamer is not on PATH (pip install . first)", file=sys.stderr)
        return 2
    root = Path(tempfile.mkdtemp(prefix="renamer-bench-dns-"))
    instances = {name: sandbox.create(root / name) for name in ("ns-a", "ns-b", "ns-c")}
    try:
        (root / "dns" / "sites").mkdir(parents=True)
        (root / "dns" / "sites" / "big.yaml").write_text(site_yaml(args.hosts))
        (root / "dns" / "resolvers.yaml").write_text(sandbox.resolvers_yaml(instances, root / "backups"))
        inventory = load_inventory(root / "dns", str)
        for resolver in inventory.resolvers:
            for name, text in render_resolver(inventory, resolver).items():
                (instances[resolver.name].snippet_dir / name).write_text(text)
        for instance in instances.values():
            sandbox.start(instance.folder)
        argv = [renamer, "dns", "verify", "--resolvers", "all", "--inventory", str(root / "dns")]
        first = subprocess.run(argv, cwd=root, capture_output=True, text=True)
        print(first.stdout.splitlines()[-1])
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            subprocess.run(argv, cwd=root, capture_output=True, check=False)
            times.append(time.perf_counter() - start)
        queries = sum(3 + (2 if n % 5 == 0 else 0) for n in range(args.hosts)) + 2
        print(f"dns verify, {args.hosts} hosts, {queries} queries per resolver, 3 resolvers: "
              f"median {statistics.median(times):.3f}s over {args.runs} runs "
              f"({3 * queries / statistics.median(times):.0f} queries/s)")
    finally:
        for instance in instances.values():
            sandbox.stop(instance.folder)
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
