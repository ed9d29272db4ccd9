#!/usr/bin/env python3
"""Time `renamer dns plan`, `apply`, `verify` and a rollback of a 1,000-host site, through the CLI,
against a real pdns_server on loopback (backend: powerdns; tests/testing/powerdns.py starts it).

    python3 benchmarks/bench_powerdns.py [--hosts 1000] [--runs 2]

One /16, an alias for every tenth host (dns_sites.py). Each run starts a fresh server and
times: the first plan, the first apply (every RRset created), verify, a second apply (a no-op), an apply that
renames every host (old names and PTRs deleted, --force: past the thresholds), then the
rollback of that rename after the apply was killed (dns apply --rollback).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]  # dns_sites beside this; tests.testing's server
from dns_sites import site_yaml  # noqa: E402  (a script beside this one, not a package)

from tests.testing import powerdns  # noqa: E402


def one_run(renamer: str, hosts: int) -> dict[str, float]:
    root = Path(tempfile.mkdtemp(prefix="renamer-bench-pdns-"))
    server = powerdns.start(root / "pdns")
    proxy: powerdns.Proxy | None = None
    times: dict[str, float] = {}
    try:
        for zone in ("big.lan.", "60.10.in-addr.arpa."):
            server.create_zone(zone)
        key = root / "pdns.key"
        key.write_text(powerdns.KEY + "\n")
        key.chmod(0o600)
        (root / "dns" / "sites").mkdir(parents=True)
        site = root / "dns" / "sites" / "big.yaml"
        site.write_text(site_yaml(hosts, alias_every=10))

        def resolvers(api: str) -> None:
            entry = {"name": "ns-pdns", "address": server.address, "port": server.port, "backend": "powerdns",
                     "api": api, "api_key_file": str(key), "backup_dir": str(root / "backups"), "timeout": 2}
            (root / "dns" / "resolvers.yaml").write_text(f"resolvers:\n  - {json.dumps(entry)}\n")

        def timed(step: str, *args: str, ok: tuple[int, ...] = (0,)) -> None:
            start = time.perf_counter()
            done = subprocess.run([renamer, "dns", *args, "--inventory", str(root / "dns")], cwd=root,
                                  capture_output=True, text=True, env={**os.environ, "NO_COLOR": "1"})
            times[step] = time.perf_counter() - start
            if done.returncode not in ok:
                said = done.stdout[-2000:] + done.stderr[-2000:]
                raise RuntimeError(f"{step}: exit {done.returncode}: {said}")

        resolvers(server.url)
        timed("plan (first)", "plan", "--resolvers", "all")
        timed("apply (first)", "apply", "--resolvers", "all")
        timed("verify", "verify", "--resolvers", "all")
        timed("apply (no-op)", "apply", "--resolvers", "all")
        site.write_text(site_yaml(hosts, "node", alias_every=10))
        timed("apply (rename every host)", "apply", "--resolvers", "all", "--force")
        # the rename back, killed once its PATCH reached the server; then its rollback
        site.write_text(site_yaml(hosts, alias_every=10))
        proxy = powerdns.Proxy(server.url, "hold")
        resolvers(proxy.url)
        apply = subprocess.Popen([renamer, "dns", "apply", "--resolvers", "all", "--force", "--inventory",
                                  str(root / "dns")], cwd=root, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
        if not proxy.held.wait(120):
            raise RuntimeError("the killed apply never reached its PATCH")
        time.sleep(1)  # the PATCH is forwarded before its answer is held: let the server finish it
        apply.kill()
        apply.wait()
        resolvers(server.url)
        timed("rollback (dns apply --rollback)", "apply", "--resolvers", "all", "--rollback")
    finally:
        if proxy is not None:
            proxy.stop()
        server.stop()
        shutil.rmtree(root, ignore_errors=True)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hosts", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    renamer = shutil.which("renamer") or str(Path(sys.executable).parent / "renamer")
    runs = [one_run(renamer, args.hosts) for _ in range(args.runs)]
    for step in runs[0]:
        shown = ", ".join(f"{run[step]:.2f}" for run in runs)
        print(f"{step:36} {shown} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
