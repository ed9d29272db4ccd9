#!/bin/bash
# Copied into .device/ by benchmarks/device/prepare.sh; runs there, on the device.
# Device benchmark: install carried wheels (no network), then bench_sweep beside rg and git grep.
# Sourced: installs the carried wheels into /tmp/site-{deps,main,base}, wrappers in /tmp/bin-*
set -u
D=$(cd "$(dirname "$0")" && pwd); ROOT=$(dirname "$D")
PY=$(command -v python3); V=$($PY -c 'import sys;print("%d.%d"%sys.version_info[:2])')
echo "python $V at $PY; $(nproc) cores; $(git --version)"; lscpu | grep -E 'Model name|^CPU\(s\)'
unz() { $PY - "$@" <<'PYEOF'
import sys, zipfile
dest = sys.argv[1]
for w in sys.argv[2:]:
    zipfile.ZipFile(w).extractall(dest)
PYEOF
}
mkdir -p /tmp/site-deps /tmp/site-main /tmp/site-base /tmp/bin-main /tmp/bin-base
unz /tmp/site-deps "$D"/wh/$V/*.whl
unz /tmp/site-main "$D"/wh/renamer-main/*.whl
unz /tmp/site-base "$D"/wh/renamer-base/*.whl
for n in main base; do
  printf '#!/bin/sh\nPYTHONPATH=/tmp/site-%s:/tmp/site-deps exec %s -c "import sys; from renamer.cli import main; sys.argv[0]=\\"renamer\\"; sys.exit(main())" "$@"\n' $n $PY > /tmp/bin-$n/renamer
  chmod +x /tmp/bin-$n/renamer
  PYTHONPATH=/tmp/site-$n:/tmp/site-deps $PY -m compileall -q /tmp/site-$n /tmp/site-deps >/dev/null 2>&1
done
cp "$D/bin/rg" /tmp/bin-main/rg; export LD_LIBRARY_PATH="$D/lib"
export PATH=/tmp/bin-main:$PATH
renamer --version; rg --version | head -1
PYTHONPATH=/tmp/site-main:/tmp/site-deps $PY -c 'import hyperscan; print("hyperscan", hyperscan.__version__ if hasattr(hyperscan,"__version__") else "ok")'
