#!/usr/bin/env python3
"""Time `renamer sweep --dry-run`, `verify` and `audit` against ripgrep and git grep, side by side.

    python3 benchmarks/bench_sweep.py [--sizes 10000,40000,160000] [--clean 160000] [--runs 5]
                                      [--workdir DIR] [--json FILE]

For each size it generates (once, deterministically) a synthetic infra repo (and,
for each --clean size, one without any old value),
warms the page cache with one run of every command, then times the commands
in alternating rounds and prints medians, ratios and peak RSS. ripgrep and
git grep look for the same literals renamer does (every old key and the
reverse-DNS name). Nothing here is a pass/fail test: it measures.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
LITERALS = ["ana-ml2", "ana-ml2-bmc", "ana-ml2.ana.lan", "10.250.50.54", "54.50.250.10.in-addr.arpa"]


def timed(argv: list[str], cwd: Path) -> tuple[float, float]:
    """(wall seconds, peak RSS in MB of the process and the children it waited for)."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    return elapsed, usage.ru_maxrss / 1024


def commands(renamer: str) -> dict[str, list[str]]:
    literals = [arg for lit in LITERALS for arg in ("-e", lit)]
    out = {
        "renamer sweep --dry-run": [renamer, "sweep", "--dry-run", "--format", "summary"],
        "rg -F": ["rg", "-F", "-c", "--hidden", *literals],
        "git grep -F": ["git", "grep", "-F", "-c", *literals],
    }
    return {name: argv for name, argv in out.items() if shutil.which(argv[0])}


def measure(repo: Path, argvs: dict[str, list[str]], runs: int) -> dict[str, tuple[float, float]]:
    for argv in argvs.values():  # warm-up: page cache, git index
        timed(argv, repo)
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in argvs}
    for _ in range(runs):
        for name, argv in argvs.items():  # alternating, so drift hits every command alike
            samples[name].append(timed(argv, repo))
    return {name: (statistics.median(s for s, _ in got), max(m for _, m in got))
            for name, got in samples.items()}


def _size(repo: Path) -> int:
    """Bytes of the work tree's files, .git left out."""
    total = 0
    for folder, subfolders, files in os.walk(repo):
        subfolders[:] = [d for d in subfolders if d != ".git"]
        total += sum(os.lstat(os.path.join(folder, name)).st_size for name in files)
    return total


def repo_for(workdir: Path, size: int, clean: bool) -> Path:
    """The synthetic repo of `size` files (generated once); `clean`: no old value anywhere."""
    repo = workdir / (f"repo-clean-{size}" if clean else f"repo-{size}")
    if not (repo / ".git").exists():
        print(f"generating {size} files in {repo} ...", flush=True)
        extra = ["--hits", "0", "--decoys", "0"] if clean else []
        subprocess.run([sys.executable, str(HERE / "generate.py"), str(repo), "--files", str(size), *extra],
                       check=True)
    return repo


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,40000,160000")
    parser.add_argument("--clean", default="160000",
                        help="sizes of repos with no old value at all (comma-separated; '' for none)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/renamer-bench"))
    parser.add_argument("--json", type=Path, help="also write every median here")
    args = parser.parse_args()
    renamer = shutil.which("renamer")
    if renamer is None:
        print("renamer is not on PATH (pip install . first)", file=sys.stderr)
        return 2
    cores = len(os.sched_getaffinity(0))
    print(f"{cores} cores; {args.runs} alternating runs after a warm-up; medians\n")
    cases = [(int(s), False) for s in args.sizes.split(",") if s]
    cases += [(int(s), True) for s in args.clean.split(",") if s]
    report = {"cores": cores, "runs": args.runs, "repos": []}
    for size, clean in cases:
        repo = repo_for(args.workdir, size, clean)
        argvs = commands(renamer)
        argvs["renamer verify"] = [renamer, "verify"]
        argvs["renamer audit --format json"] = [renamer, "audit", "--format", "json"]
        megabytes = _size(repo) / 1e6
        results = measure(repo, argvs, args.runs)
        print(f"== {size} files, {megabytes:.0f} MB{', no old value' if clean else ''}")
        rg = results.get("rg -F", (0, 0))[0]
        gg = results.get("git grep -F", (0, 0))[0]
        print(f"{'command':32} {'median':>8} {'vs rg':>7} {'vs git grep':>12} {'peak RSS':>9}")
        for name, (seconds, rss) in results.items():
            ratio_rg = f"{seconds / rg:.2f}x" if rg else "-"
            ratio_gg = f"{seconds / gg:.2f}x" if gg else "-"
            print(f"{name:32} {seconds:7.3f}s {ratio_rg:>7} {ratio_gg:>12} {rss:7.0f}MB")
        print(flush=True)
        report["repos"].append({"files": size, "clean": clean, "megabytes": round(megabytes),
                                "results": {n: {"seconds": round(t, 4), "rss_mb": round(m)}
                                            for n, (t, m) in results.items()}})
    help_times = sorted(timed([renamer, "--help"], Path.cwd())[0] for _ in range(7))
    print(f"renamer --help: median {statistics.median(help_times) * 1000:.0f} ms")
    report["help_ms"] = round(statistics.median(help_times) * 1000)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
