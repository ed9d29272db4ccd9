#!/usr/bin/env bash
# Run bench_sweep.py on the 16-core device host (no package registry there): install the wheels
# carried in .whl/ (see README.md here), a "before" renamer from .whl/before/, and ripgrep, then
# time. Arguments go to bench_sweep.py; the results land in $OUT.
set -euo pipefail
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
if compgen -G ".whl/before/*.whl" >/dev/null; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/before .whl/before/*.whl
fi
mkdir -p /tmp/lib /tmp/bin && cp .whl/bin/libpcre2-8.so.0 /tmp/lib/ && cp .whl/bin/rg /tmp/bin/rg
export LD_LIBRARY_PATH=/tmp/lib PATH="/tmp/bin:$PATH"
printf '#!/bin/sh\nPYTHONPATH=/tmp/site exec python3 -m renamer "$@"\n' > /tmp/bin/renamer
printf '#!/bin/sh\nPYTHONPATH=/tmp/before:/tmp/site exec python3 -m renamer "$@"\n' > /tmp/bin/renamer-before
chmod +x /tmp/bin/renamer /tmp/bin/renamer-before
python3 -m compileall -q /tmp/site /tmp/before 2>/dev/null || true  # that image sets PYTHONDONTWRITEBYTECODE
git --version && rg --version | head -n 1 && renamer --version
also=()
[ -d /tmp/before ] && also=(--also before=/tmp/bin/renamer-before)
PYTHONUNBUFFERED=1 python3 benchmarks/bench_sweep.py "${also[@]}" "$@"
