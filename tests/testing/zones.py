"""BIND's own reading of a zone file: named-checkzone's canonical dump (-D), for tests that check
which records a zone holds before and after a sweep, not what renamer says it wrote."""

from __future__ import annotations

import subprocess
from pathlib import Path

Record = tuple[str, str, str]  # (owner, type, RDATA), as BIND writes them back


def loaded(path: Path, origin: str, directory: Path | None = None) -> list[Record]:
    """Every record but the SOA, sorted; the zone must load (named-checkzone exits 0). `directory`:
    where its relative `$INCLUDE` paths lead, as named.conf's `directory` option says."""
    where = ["-w", str(directory)] if directory is not None else []
    done = subprocess.run(["named-checkzone", *where, "-D", origin, str(path)], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    out = []
    for line in done.stdout.splitlines():
        fields = line.split()
        if len(fields) >= 5 and fields[2] == "IN" and fields[3] != "SOA":
            out.append((fields[0].lower(), fields[3], " ".join(fields[4:])))
    return sorted(out)


def serial(path: Path, origin: str, directory: Path | None = None) -> str:
    where = ["-w", str(directory)] if directory is not None else []
    done = subprocess.run(["named-checkzone", *where, origin, str(path)], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout.split("loaded serial ")[1].split()[0]
