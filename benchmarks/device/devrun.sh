#!/bin/bash
# Copied into .device/ by benchmarks/device/prepare.sh; runs there, on the device.
# Usage (repo root): bash .device/devrun.sh SHAPES CLEAN SIZE RUNS
source "$(dirname "$0")/install.sh"
cd "$ROOT"
$PY benchmarks/bench_sweep.py --shapes "$1" --clean "$2" --sizes "$3" --runs "$4" --commands sweep \
  --workdir /tmp/bench-work --also before=/tmp/bin-base/renamer --json "${OUT:-/tmp}/bench-$(nproc)-cores.json" 2>&1 | tee "${OUT:-/tmp}/bench.log"
