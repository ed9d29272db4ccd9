#!/usr/bin/env python3
"""verify on one file dense with references: the cost must grow linearly with the matches.

    python3 benchmarks/bench_dense.py [--refs 1000000] [--runs 3]

Writes an 8-byte-per-line text file (1M references: 8 MB) and a one-line JSON
file (every reference on the same line, with YAML key paths) at 1/10, 1/4 and
all of --refs, and prints the median time of `renamer verify` for each, with
the time per reference: a flat column is linear. (The adversarial pass found
this quadratic: 20,000 references in one JSON line took 10 s; 1M never ended.)
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CONFIG = "version: 1\nrenames: {hosts: {ana-ml2: fv-ml1}}\nallowlist: allow.yaml\n"


def build(root: Path, kind: str, refs: int) -> None:
    root.mkdir(parents=True)
    (root / "renamer.yaml").write_text(CONFIG)
    (root / "allow.yaml").write_text("version: 1\ncurrent: ['**']\n")
    if kind == "lines":
        (root / "big.txt").write_text("ana-ml2\n" * refs)
    else:
        (root / "big.json").write_text(json.dumps([{"host": "ana-ml2"}] * refs))
    identity = ["-c", "user.name=bench", "-c", "user.email=bench@renamer.invalid"]
    for args in (["init", "-q"], ["add", "-A"], [*identity, "commit", "-qm", "bench"]):
        subprocess.run(["git", "-C", str(root), *args], check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--refs", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"{'shape':<6} {'refs':>9} {'size MB':>8} {'median s':>9} {'us/ref':>7}")
    with tempfile.TemporaryDirectory() as tmp:
        for kind in ("lines", "json"):
            for refs in (args.refs // 10, args.refs // 4, args.refs):
                root = Path(tmp) / f"{kind}-{refs}"
                build(root, kind, refs)
                size = sum(p.stat().st_size for p in root.glob("big.*")) / 1e6
                times = []
                for _ in range(args.runs):
                    started = time.perf_counter()
                    subprocess.run([sys.executable, "-m", "renamer", "verify"], cwd=root,
                                   stdout=subprocess.DEVNULL, check=False)
                    times.append(time.perf_counter() - started)
                median = statistics.median(times)
                print(f"{kind:<6} {refs:>9} {size:>8.1f} {median:>9.2f} {median / refs * 1e6:>7.1f}")


if __name__ == "__main__":
    main()
