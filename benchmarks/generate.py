#!/usr/bin/env python3
"""Generate a large synthetic infrastructure repo, deterministically, for the benchmarks.

    python3 benchmarks/generate.py DEST --files 40000 [--shape mixed] [--seed 1]

Tens of thousands of files, hundreds of MB: YAML stacks, Markdown runbooks and
dated notes, Python scripts, .env files, JSON, configuration files, binaries;
old names at a realistic density (most files hold none), decoys such as
ana-ml20 and 10.250.50.540, record folders, and a renamer.yaml with its
allowlist. A shape says what the repo looks like besides (SHAPES below): the
field's repos are not all like the one a benchmark was tuned on.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ALLOWLIST = """version: 1
current: [stacks/**, services/**, scripts/**, docs/**, playbooks/**, conf/**]
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


def _config(hosts: dict[str, str], addresses: dict[str, str]) -> str:
    lines = ["version: 1", "name: bench-move", "cutover: 2026-10-05", "renames:", "  hosts:"]
    lines += [f"    {old}: {new}" for old, new in hosts.items()]
    lines += ["  addresses:"] + [f"    '{old}': '{new}'" for old, new in addresses.items()]
    return "\n".join([*lines, "allowlist: allowlist.yaml", ""])


def _no_noise(rng: random.Random) -> str:
    return ""


def _ten_net(rng: random.Random) -> str:
    """Some other address on a 10/8 network, often with a port or a prefix, as a company's repo has."""
    address = f"10.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}"
    if rng.random() < 0.02:  # now and then a glob or a regex over some of them (alerts, firewalls)
        a, b = rng.randrange(256), rng.randrange(256)
        return rng.choice([f"10.{a}.{b}.*", f"^10\\.{a}\\.{b}\\.[0-9]+$", f"10.{a}.[0-9]*"])
    return rng.choice([address, f"{address}:{rng.randrange(1, 65536)}", f"{address}/32",
                       f"http://{address}:8080/", f"10.{rng.randrange(256)}.0.0/16"])


def _homelab(rng: random.Random) -> str:
    address = f"192.168.{rng.choice([0, 1, 1, 1, 10, 20, 178])}.{rng.randrange(1, 255)}"
    return rng.choice([address, f"{address}:{rng.choice([80, 443, 8006, 53, 32400])}",
                       f"pve{rng.randrange(1, 4)}", f"{address}/24", "pihole"])


def _ipv6(rng: random.Random) -> str:
    groups = ":".join(f"{rng.randrange(65536):x}" for _ in range(rng.randrange(1, 4)))
    return rng.choice([f"2001:db8:{rng.randrange(256):x}::{groups}", f"fd00:{groups}::1",
                       f"[2001:db8::{rng.randrange(65536):x}]:443", f"fe80::{groups}%eth0",
                       f"2001:db8:{rng.randrange(65536):x}::/64"])


def _many(rng: random.Random) -> str:
    """Neighbours of the renamed hosts that are not renamed: node51..node99, 10.20.0.51..."""
    n = rng.randrange(51, 100)
    return rng.choice([f"node{n:02d}", f"10.20.0.{n}", f"node{n:02d}.dc1.lan", f"10.20.{n}.1"])


@dataclass(frozen=True)
class Shape:
    """What a repo looks like: its move, where old values hide, what else its lines hold."""

    hosts: dict[str, str]
    addresses: dict[str, str]
    references: list[str]          # old values as files spell them
    decoys: list[str]              # near an old value, but none
    noise: Callable[[random.Random], str] = _no_noise   # other values on a line
    noise_rate: float = 0.0        # share of lines holding one
    kinds: tuple[tuple[str, int], ...] = (("yaml", 40), ("md", 25), ("py", 15), ("env", 8), ("json", 10),
                                          ("bin", 2))

    @property
    def config(self) -> str:
        return _config(self.hosts, self.addresses)


_FV_HOSTS = {"ana-ml2": "fv-ml1", "ana-ml2-bmc": "fv-ml1-bmc", "ana-ml2.ana.lan": "fv-ml1.fv.lan"}
_FV_REFERENCES = ["ana-ml2", "10.250.50.54", "ana-ml2.ana.lan", "http://ana-ml2:8016/v1",
                  "10.250.50.54:8001", "ana-ml2-bmc"]
_FV_DECOYS = ["ana-ml20", "10.250.50.540", "xana-ml2", "110.250.50.54", "ana-ml1", "10.250.50.5"]
_MANY_HOSTS = {f"node{n:02d}": f"edge{n:02d}" for n in range(1, 51)}
_MANY_ADDRESSES = {f"10.20.0.{n}": f"10.21.0.{n}" for n in range(1, 51)}

SHAPES: dict[str, Shape] = {
    # The first benchmark shape: one host moves, few other addresses anywhere.
    "mixed": Shape(_FV_HOSTS, {"10.250.50.54": "10.251.50.54"}, _FV_REFERENCES, _FV_DECOYS),
    # A company on 10/8: nearly every line holds some other 10.x address (performance-2.md's repo).
    "dense10": Shape(_FV_HOSTS, {"10.250.50.54": "10.251.50.54"}, _FV_REFERENCES, _FV_DECOYS,
                     _ten_net, 0.9, (("yaml", 35), ("md", 15), ("py", 10), ("env", 10), ("json", 10),
                                     ("conf", 18), ("bin", 2))),
    # A homelab on 192.168: a Proxmox node and a Pi-hole renamed and renumbered.
    "homelab": Shape({"pve2": "pve-b2", "nas": "tank"}, {"192.168.1.20": "192.168.20.20"},
                     ["pve2", "192.168.1.20", "nas.home.arpa", "https://pve2:8006/", "192.168.1.20:8006",
                      "nas:/volume1"],
                     ["pve20", "192.168.1.200", "192.168.1.2", "nasty", "mypve2x"],
                     _homelab, 0.3),
    # IPv6 everywhere: the old address in full, compressed and bracketed spellings.
    "ipv6": Shape({"ana-ml2": "fv-ml1"}, {"2001:db8:50::54": "2001:db8:51::54"},
                  ["2001:db8:50::54", "[2001:db8:50::54]:8001", "ana-ml2", "2001:db8:50:0:0:0:0:54"],
                  ["2001:db8:50::540", "2001:db8:50::5", "2001:db8:500::54"],
                  _ipv6, 0.6),
    # Fifty hosts renamed and renumbered at once, among neighbours that stay.
    "many": Shape(_MANY_HOSTS, _MANY_ADDRESSES,
                  [*_MANY_HOSTS, *_MANY_ADDRESSES, *(f"{h}.dc1.lan" for h in list(_MANY_HOSTS)[:10])],
                  ["node00", "node500", "10.20.0.500", "10.20.0.0"], _many, 0.4),
    # Mostly JSON (exported dashboards, API dumps, package locks), long string values.
    "json": Shape(_FV_HOSTS, {"10.250.50.54": "10.251.50.54"}, _FV_REFERENCES, _FV_DECOYS,
                  _ten_net, 0.2, (("json", 80), ("yaml", 10), ("md", 8), ("bin", 2))),
}


def _line(rng: random.Random, kind: str, i: int) -> str:
    if kind == "yaml":  # valid YAML: sections of plain keys
        return f"section_{i}:" if i % 8 == 0 else f"  key_{i}: {sentence(rng, 4)}"
    if kind == "md":
        return f"## {sentence(rng, 3)}" if i % 12 == 0 else sentence(rng, 12)
    if kind == "py":
        return f"VALUE_{i} = \"{sentence(rng, 5)}\"  # {sentence(rng, 3)}"
    if kind == "env":
        return f"VAR_{i}={rng.choice(WORDS)}-{rng.randrange(1000)}"
    if kind == "conf":
        word = rng.choice(WORDS)
        return f"[{word}_{i}]" if i % 10 == 0 else f"{word}_{i} = {sentence(rng, 3)}"
    return f'  "k{i}": "{sentence(rng, 5)}",'


def sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def _insert(line: str, kind: str, word: str) -> str:
    if kind == "json":  # inside the string, so the JSON stays valid
        return line.replace('",', f' {word}",', 1)
    return f"{line} {word}"


def body(rng: random.Random, shape: Shape, kind: str, size: int, hit: bool, decoy: bool) -> bytes:
    lines: list[str] = []
    total = 0
    while total < size:
        line = _line(rng, kind, len(lines))
        if shape.noise_rate and not line.endswith((":", "]")) and rng.random() < shape.noise_rate:
            line = _insert(line, kind, shape.noise(rng))
        lines.append(line)
        total += len(line) + 1
    if kind == "json":
        lines = ["{", *lines, '  "end": 0', "}"]
    # Values only: a YAML section header, an INI section or a JSON brace must stay as it is.
    values = [i for i, line in enumerate(lines) if not line.endswith((":", "{", "}", "]"))] or [0]
    extra = [rng.choice(shape.references) for _ in range(rng.randrange(1, 4) if hit else 0)]
    for word in extra + ([rng.choice(shape.decoys)] if decoy else []):
        at = rng.choice(values)
        lines[at] = _insert(lines[at], kind, word)
    return ("\n".join(lines) + "\n").encode()


FOLDERS = ["stacks", "services", "scripts", "docs", "playbooks", "conf", "notes", "incidents", "vendor"]
SUFFIX = {"yaml": ".yaml", "md": ".md", "py": ".py", "env": ".env", "json": ".json", "bin": ".bin",
          "conf": ".conf"}
BLOCK = 1000  # files per random stream: the repo is the same whatever the number of cores


def _block(dest: Path, block: int, files: int, seed: int, shape_name: str, hits: float,
           decoys: float) -> None:
    shape = SHAPES[shape_name]
    rng = random.Random(seed * 1_000_003 + block)
    population = [k for k, weight in shape.kinds for _ in range(weight)]
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
                data += b"\x00" + shape.references[0].encode() + b"\x00"
        else:
            data = body(rng, shape, kind, size, hit, decoy)
        path.write_bytes(data)


def generate(dest: Path, files: int, seed: int, hits: float = 0.05, decoys: float = 0.03,
             shape: str = "mixed") -> None:
    """Blocks of files in parallel, each from its own seeded stream, then one commit."""
    dest.mkdir(parents=True, exist_ok=True)
    (dest / "renamer.yaml").write_text(SHAPES[shape].config)
    (dest / "allowlist.yaml").write_text(ALLOWLIST)
    blocks = range((files + BLOCK - 1) // BLOCK)
    with multiprocessing.Pool() as pool:
        pool.starmap(_block, [(dest, b, files, seed, shape, hits, decoys) for b in blocks])
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
    parser.add_argument("--shape", choices=sorted(SHAPES), default="mixed")
    parser.add_argument("--hits", type=float, default=0.05, help="share of files holding an old value")
    parser.add_argument("--decoys", type=float, default=0.03, help="share of files holding a decoy")
    args = parser.parse_args()
    generate(args.dest, args.files, args.seed, args.hits, args.decoys, args.shape)


if __name__ == "__main__":
    main()
