"""benchmarks/bench_backends.py itself, on a tiny site and two backends (a file one and the API
one): it still starts the labs, every step exits 0, and its table and JSON hold what the issue 31
closing note quotes (so the benchmark does not rot between the runs that measure)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STEPS = ["apply (empty)", "verify", "apply (1 host changed)"]


def test_the_backends_benchmark_runs_on_a_tiny_site(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_backends.py"), "--hosts", "20",
                           "--runs", "1", "--backends", "dnsmasq,powerdns", "--json", str(out)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    rows = json.loads(out.read_text())["rows"]
    assert [(r["backend"], r["engine"], r["step"]) for r in rows] == [
        (backend, "builtin", step) for backend in ("dnsmasq", "powerdns") for step in STEPS]
    records = 20 * 2 + 4 + 2 * 2 + 1  # A and PTR each, 4 aliases, 2 AAAA and their PTRs, 1 retired
    for row in rows:
        assert row["runs"] == 1 and len(row["wall"]) == len(row["cpu"]) == 1, row
        assert 0 < row["cpu"][0] <= row["wall"][0] * 2, row  # the process and its children, 2 cores
        counted = row["work"][0]
        assert counted["dns queries"] >= records, row  # every record asked over DNS
        api = sum(n for what, n in counted.items() if what.startswith("api "))
        assert (api > 0) == (row["backend"] == "powerdns" and row["step"] != "verify"), row
    applied = {r["backend"]: r["work"][0] for r in rows if r["step"] == "apply (empty)"}
    assert applied["powerdns"]["api PATCH"] == 3  # big.lan, its IPv4 and its IPv6 reverse zones
    assert applied["dnsmasq"]["resolver commands"] >= 2  # a test and a restart at least
    lines = done.stdout.splitlines()
    assert lines[1].startswith("| backend | engine | step | median s | min s | CPU s")
    assert sum(line.startswith(("| dnsmasq | builtin |", "| powerdns | builtin |")) for line in lines) == 6
