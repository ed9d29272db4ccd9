#!/usr/bin/env python3
"""Generate a large synthetic infrastructure repo, deterministically, for the benchmarks.

    python3 benchmarks/generate.py DEST --files 40000 [--seed 1]

Tens of thousands of files, hundreds of MB: YAML stacks, Markdown runbooks and
dated notes, Python scripts, .env files, JSON, binaries; old names at a
realistic density (most files hold none), decoys such as ana-ml20 and
10.250.50.540, record folders, and a renamer.yaml with its allowlist.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import subprocess
from pathlib import Path

CONFIG = """version: 1
name: bench-move
cutover: 2026-10-05
renames:
  hosts:
    ana-ml2: fv-ml1
    ana-ml2-bmc: fv-ml1-bmc
    ana-ml2.ana.lan: fv-ml1.fv.lan
  addresses:
    10.250.50.54: 10.251.50.54
allowlist: allowlist.yaml
"""
ALLOWLIST = """version: 1
current: [stacks/**, services/**, scripts/**, docs/**, playbooks/**]
records:
  - name: notes
    paths: [notes/**]
    reason: dated notes describe the system as it was
  - name: incidents
    paths: [incidents/**]
    reason: incident notes describe the system at the time
dated:
  filenames: true
  sections: ['^#{1,6}\\s+\\[?(?P<date>\\d{4}-\\d{2}-\\d{2})']
"""
WORDS = ["gpu", "seat", "model", "vllm", "gateway", "route", "compose", "image", "restart", "memory",
         "cache", "token", "context", "port", "volume", "network", "backup", "deploy", "health", "check",
         "node", "cluster", "rack"]
REFERENCES = ["ana-ml2", "10.250.50.54", "ana-ml2.ana.lan", "http://ana-ml2:8016/v1",
              "10.250.50.54:8001", "ana-ml2-bmc"]
DECOYS = ["ana-ml20", "10.250.50.540", "xana-ml2", "110.250.50.54", "ana-ml1", "10.250.50.5"]


def sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def body(rng: random.Random, kind: str, size: int, hit: bool, decoy: bool) -> bytes:
    lines: list[str] = []
    while sum(len(line) + 1 for line in lines) < size:
        i = len(lines)
        if kind == "yaml":  # valid YAML: sections of plain keys
            lines.append(f"section_{i}:" if i % 8 == 0 else f"  key_{i}: {sentence(rng, 4)}")
        elif kind == "md":
            lines.append(f"## {sentence(rng, 3)}" if i % 12 == 0 else sentence(rng, 12))
        elif kind == "py":
            lines.append(f"VALUE_{i} = \"{sentence(rng, 5)}\"  # {sentence(rng, 3)}")
        elif kind == "env":
            lines.append(f"VAR_{i}={rng.choice(WORDS)}-{rng.randrange(1000)}")
        else:
            lines.append(f'  "k{i}": "{sentence(rng, 5)}",')
    if kind == "json":
        lines = ["{", *lines, '  "end": 0', "}"]
    # Values only: a YAML section header or a JSON brace must stay as it is.
    values = [i for i, line in enumerate(lines) if not line.endswith((":", "{", "}"))] or [0]
    extra = [rng.choice(REFERENCES) for _ in range(rng.randrange(1, 4) if hit else 0)]
    for word in extra + ([rng.choice(DECOYS)] if decoy else []):
        at = rng.choice(values)
        if kind == "json":  # inside the string, so the JSON stays valid
            lines[at] = lines[at].replace('",', f' {word}",', 1)
        else:
            lines[at] += f" {word}"
    return ("\n".join(lines) + "\n").encode()


FOLDERS = ["stacks", "services", "scripts", "docs", "playbooks", "notes", "incidents", "vendor"]
KINDS = [("yaml", 40), ("md", 25), ("py", 15), ("env", 8), ("json", 10), ("bin", 2)]
SUFFIX = {"yaml": ".yaml", "md": ".md", "py": ".py", "env": ".env", "json": ".json", "bin": ".bin"}
BLOCK = 1000  # files per random stream: the repo is the same whatever the number of cores


def _block(dest: Path, block: int, files: int, seed: int, hits: float, decoys: float) -> None:
    rng = random.Random(seed * 1_000_003 + block)
    population = [k for k, weight in KINDS for _ in range(weight)]
    for n in range(block * BLOCK, min(files, (block + 1) * BLOCK)):
        folder = rng.choice(FOLDERS)
        kind = rng.choice(population)
        sub = f"{folder}/group{n % 97:02d}/unit{n % 13}"
        dated = f"2026-09-{n % 28 + 1:02d}-" if folder == "notes" else ""
        path = dest / sub / f"{dated}file{n}{SUFFIX[kind]}"
        path.parent.mkdir(parents=True, exist_ok=True)
        hit, decoy = rng.random() < hits, rng.random() < decoys
        size = int(rng.lognormvariate(8.2, 0.9))  # median ~3.6 kB, a long tail
        if kind == "bin":
            data = rng.randbytes(min(size, 4096)) * max(1, size // 4096)
            if hit:
                data += b"\x00ana-ml2\x00"
        else:
            data = body(rng, kind, size, hit, decoy)
        path.write_bytes(data)


def generate(dest: Path, files: int, seed: int, hits: float = 0.05, decoys: float = 0.03) -> None:
    """Blocks of files in parallel, each from its own seeded stream, then one commit."""
    dest.mkdir(parents=True, exist_ok=True)
    (dest / "renamer.yaml").write_text(CONFIG)
    (dest / "allowlist.yaml").write_text(ALLOWLIST)
    blocks = range((files + BLOCK - 1) // BLOCK)
    with multiprocessing.Pool() as pool:
        pool.starmap(_block, [(dest, b, files, seed, hits, decoys) for b in blocks])
    env = {**os.environ, "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@invalid",
           "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@invalid"}
    # No automatic gc: a repack in the background would run during the timings.
    for args in (["init", "-q", "-b", "main"], ["config", "gc.auto", "0"], ["add", "-A"],
                 ["commit", "-q", "-m", "synthetic"]):
        subprocess.run(["git", "-C", str(dest), *args], check=True, env=env)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dest", type=Path)
    parser.add_argument("--files", type=int, default=40000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hits", type=float, default=0.05, help="share of files holding an old value")
    parser.add_argument("--decoys", type=float, default=0.03, help="share of files holding a decoy")
    args = parser.parse_args()
    generate(args.dest, args.files, args.seed, args.hits, args.decoys)


if __name__ == "__main__":
    main()
