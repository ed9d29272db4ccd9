#!/bin/bash
# Copied into .device/ by benchmarks/device/prepare.sh; runs there, on the device.
# Where the wall time of a 16-core sweep goes: -vv phases and a parent-side cProfile, main and base.
source "$(dirname "$0")/install.sh"
cd "$ROOT"
for shape in dense10 homelab; do
  for clean in "" "--hits 0 --decoys 0"; do
    repo=/tmp/bench-work/$shape${clean:+-clean}-10000
    [ -d $repo/.git ] || $PY benchmarks/generate.py $repo --files 10000 --shape $shape $clean >/dev/null
    for n in main base; do
      ( cd $repo; /tmp/bin-$n/renamer sweep --dry-run --format summary >/dev/null 2>&1
        s=$(date +%s%N); /tmp/bin-$n/renamer -vv sweep --dry-run --format summary > /dev/null 2> $OUT/vv-$n-$shape${clean:+-clean}.log
        e=$(date +%s%N); echo "$n $shape${clean:+-clean}: $(( (e - s) / 1000000 )) ms" )
    done
    ( cd $repo; PYTHONPATH=/tmp/site-main:/tmp/site-deps $PY -c "
import cProfile, pstats, sys
from renamer.cli import main
p = cProfile.Profile(); p.enable()
try: main(['sweep','--dry-run','--format','summary'])
except SystemExit: pass
p.disable(); p.dump_stats('$OUT/main-$shape${clean:+-clean}.prof')
" > /dev/null 2>&1 )
  done
done
cd $OUT
for p in *.prof; do $PY -c "
import pstats, sys
s = pstats.Stats(sys.argv[1], stream=open(sys.argv[1][:-5] + '.txt', 'w'))
s.sort_stats('cumulative').print_stats(60); s.sort_stats('tottime').print_stats(40)" $p; done
tar czf profs.tgz *.prof vv-*.log && rm -f *.prof vv-*.log
ls -la $OUT
