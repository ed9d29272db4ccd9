#!/usr/bin/env python3
"""Time `renamer sweep --dry-run`, `verify` and `audit` against ripgrep and git grep, side by side.

    python3 benchmarks/bench_sweep.py [--shapes mixed,dense10,...] [--sizes 40000,160000]
                                      [--clean mixed,dense10] [--runs 5] [--workdir DIR]
                                      [--also NAME=PATH_TO_RENAMER ...] [--json FILE]
                                      [--commands sweep,diff,verify,audit]

For each shape and size it generates (once, deterministically) a synthetic
infra repo (generate.py's SHAPES; each --clean shape also without any old
value), warms the page cache with one run of every command, then times the
commands in alternating rounds and prints medians, ratios and peak RSS.
ripgrep and git grep look for the same literals renamer does (every old key
and its reverse-DNS name). `--also old=/tmp/old/bin/renamer` times another
renamer in the same rounds (a release to compare with). Every sample is
written to benchmarks/results/ (or --json). Nothing here is a pass/fail test:
it measures.
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from generate import SHAPES  # noqa: E402  (a script beside this one, not a package)

# What a user's Python does: write and reuse bytecode. A shell that sets PYTHONDONTWRITEBYTECODE
# (this project's containers do) made every timed renamer compile its changed modules from source
# again, 0.4 s a run that the version beside it, its modules cached, did not pay (stop 51).
_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(argv: list[str], cwd: Path) -> tuple[float, float, int, float]:
    """(wall seconds, peak RSS in MB of the process and the children it waited for, exit code,
    CPU seconds, user and system, of the process and the children it waited for: on a machine
    shared with other work the wall time swings with the load, the CPU time much less)."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=_ENV)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    return elapsed, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status), usage.ru_utime + usage.ru_stime


def literals(shape: str) -> list[str]:
    """What a grep would look for: every old key, and each old address's reverse-DNS name."""
    spec = SHAPES[shape]
    out = [*spec.hosts, *spec.addresses]
    out += [ipaddress.ip_address(a).reverse_pointer for a in spec.addresses]
    return out


def commands(renamers: dict[str, str], shape: str,
             which: tuple[str, ...] = ("sweep", "verify", "audit")) -> dict[str, list[str]]:
    """The timed commands. `diff`: `sweep --dry-run` as a user types it, printing the masked diff
    (`sweep` prints the summary alone: the diff and its masking cost more where much changes)."""
    patterns = [arg for lit in literals(shape) for arg in ("-e", lit)]
    out: dict[str, list[str]] = {}
    for label, renamer in renamers.items():
        suffix = "" if label == "renamer" else f" ({label})"
        if "sweep" in which:
            out[f"sweep --dry-run{suffix}"] = [renamer, "sweep", "--dry-run", "--format", "summary"]
        if "diff" in which:
            out[f"sweep --dry-run, diff shown{suffix}"] = [renamer, "sweep", "--dry-run"]
        if "verify" in which:
            out[f"verify{suffix}"] = [renamer, "verify"]
        if "audit" in which:
            out[f"audit --format json{suffix}"] = [renamer, "audit", "--format", "json"]
    out["rg -F -c"] = ["rg", "-F", "-c", "--hidden", *patterns]
    out["git grep -F -c"] = ["git", "grep", "-F", "-c", *patterns]
    return {name: argv for name, argv in out.items() if shutil.which(argv[0])}


Sample = tuple[float, float, int, float]  # timed()'s answer


def measure(repo: Path, argvs: dict[str, list[str]], runs: int) -> dict[str, list[Sample]]:
    for argv in argvs.values():  # warm-up: page cache, git index
        timed(argv, repo)
    samples: dict[str, list[Sample]] = {name: [] for name in argvs}
    for _ in range(runs):
        for name, argv in argvs.items():  # alternating, so drift hits every command alike
            samples[name].append(timed(argv, repo))
    return samples


def _size(repo: Path) -> int:
    """Bytes of the work tree's files, .git left out."""
    total = 0
    for folder, subfolders, files in os.walk(repo):
        subfolders[:] = [d for d in subfolders if d != ".git"]
        total += sum(os.lstat(os.path.join(folder, name)).st_size for name in files)
    return total


def repo_for(workdir: Path, shape: str, size: int, clean: bool) -> Path:
    """The synthetic repo of `size` files (generated once); `clean`: no old value anywhere."""
    repo = workdir / f"{shape}{'-clean' if clean else ''}-{size}"
    if not (repo / ".git").exists():
        print(f"generating {size} files ({shape}{', clean' if clean else ''}) in {repo} ...", flush=True)
        extra = ["--hits", "0", "--decoys", "0"] if clean else []
        subprocess.run([sys.executable, str(HERE / "generate.py"), str(repo), "--files", str(size),
                        "--shape", shape, *extra], check=True)
    return repo


def _table(results: dict[str, list[Sample]]) -> None:
    medians = {name: statistics.median(s for s, _, _, _ in got) for name, got in results.items()}
    cpus = {name: statistics.median(c for _, _, _, c in got) for name, got in results.items()}
    rg, gg = medians.get("rg -F -c", 0.0), medians.get("git grep -F -c", 0.0)
    print(f"{'command':34} {'median':>8} {'vs rg':>7} {'vs git grep':>12} {'peak RSS':>9} {'CPU':>8}")
    for name, seconds in medians.items():
        rss = max(m for _, m, _, _ in results[name])
        # 0 and 1 are answers (1: something found); anything else failed, and its time means nothing
        failed = sorted({rc for _, _, rc, _ in results[name] if rc not in (0, 1)})
        ratio_rg = f"{seconds / rg:.2f}x" if rg else "-"
        ratio_gg = f"{seconds / gg:.2f}x" if gg else "-"
        note = f"  FAILED (exit {', '.join(map(str, failed))})" if failed else ""
        print(f"{name:34} {seconds:7.3f}s {ratio_rg:>7} {ratio_gg:>12} {rss:7.0f}MB {cpus[name]:7.3f}s{note}")
    print(flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shapes", default=",".join(SHAPES))
    parser.add_argument("--sizes", default="40000,160000")
    parser.add_argument("--clean", default="mixed,dense10",
                        help="shapes also measured with no old value at all (comma-separated; '' for none)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/renamer-bench"))
    parser.add_argument("--also", action="append", default=[], metavar="NAME=PATH",
                        help="another renamer to time in the same rounds")
    parser.add_argument("--json", type=Path, help="where the samples go (default: benchmarks/results/)")
    parser.add_argument("--commands", default="sweep,diff,verify,audit",
                        help="renamer commands to time (comma-separated: sweep, diff, verify, audit; a busy "
                             "machine may time fewer)")
    args = parser.parse_args()
    renamer = shutil.which("renamer")
    if renamer is None:
        print("renamer is not on PATH (pip install . first)", file=sys.stderr)
        return 2
    renamers = {"renamer": renamer, **dict(item.split("=", 1) for item in args.also)}
    cores = len(os.sched_getaffinity(0))
    print(f"{cores} cores; {args.runs} alternating runs after a warm-up; medians\n")
    cases = [(shape, int(size), False) for shape in args.shapes.split(",") if shape
             for size in args.sizes.split(",") if size]
    cases += [(shape, int(size), True) for shape in args.clean.split(",") if shape
              for size in args.sizes.split(",") if size]
    report: dict[str, object] = {"cores": cores, "runs": args.runs, "renamers": renamers, "repos": [],
                                 "commands": args.commands}
    repos: list[object] = []
    for shape, size, clean in cases:
        repo = repo_for(args.workdir, shape, size, clean)
        megabytes = _size(repo) / 1e6
        which = tuple(c for c in args.commands.split(",") if c)
        results = measure(repo, commands(renamers, shape, which), args.runs)
        print(f"== {shape}{', no old value' if clean else ''}: {size} files, {megabytes:.0f} MB")
        _table(results)
        repos.append({"shape": shape, "files": size, "clean": clean, "megabytes": round(megabytes),
                      "samples": {n: [{"seconds": round(t, 4), "rss_mb": round(m), "exit": rc,
                                       "cpu_seconds": round(c, 4)} for t, m, rc, c in got]
                                  for n, got in results.items()}})
    report["repos"] = repos
    help_times = sorted(timed([renamer, "--help"], Path.cwd())[0] for _ in range(7))
    print(f"renamer --help: median {statistics.median(help_times) * 1000:.0f} ms")
    report["help_ms"] = round(statistics.median(help_times) * 1000)
    target = args.json or HERE / "results" / f"bench_sweep-{cores}-cores.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(report, indent=2) + "\n")
    print(f"samples written to {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
