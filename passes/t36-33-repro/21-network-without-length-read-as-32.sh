#!/bin/bash
# Finding 21 (sev 3): `renames.networks: {192.168.40.0: 10.20.0.0}` (no length, as an operator
# abbreviates a /24) is accepted silently as a /32 move: no host of the LAN moves, the LAN's own
# `192.168.40.0/24` becomes a `supernet` residual, nothing says the key was read as /32.
. "$(dirname "$0")/lib.sh"
mkrepo /tmp/t36-33/r16 "192.168.40.0: 10.20.0.0"
printf 'lan: 192.168.40.0/24\ngw: 192.168.40.1\nnas: 192.168.40.5\n' > lan.yml
commit
$R sweep --dry-run --color never 2>&1 | cut -c1-170; echo "rc=${PIPESTATUS[0]}"
