#!/bin/bash
# Finding 20 (sev 3): two moves in one config, `10.1.0.0/24: 10.1.0.0/23` (grow in place) and
# `10.1.1.0/24: 10.9.0.0/24` (the /24 the grow needs moves away in the same sweep): the dry run and
# the sweep list `iot: 10.1.1.0/24` and `iot_gw: 10.1.1.1` as collisions "after the sweep the grown
# network overlaps what stands there ... (2 that verify --strict fails on)", though both are rewritten
# by the same sweep to 10.9.0.x; `sweep --strict` would refuse a correct plan.
. "$(dirname "$0")/lib.sh"
mkrepo /tmp/t36-33/r18 "10.1.0.0/24: 10.1.0.0/23" "10.1.1.0/24: 10.9.0.0/24"
printf 'lan: 10.1.0.0/24\ngw: 10.1.0.1\niot: 10.1.1.0/24\niot_gw: 10.1.1.1\n' > n.yml
commit
$R sweep --dry-run --strict --color never 2>&1 | grep -vE 'in-addr' | cut -c1-200; echo "dry-run --strict rc=${PIPESTATUS[0]}"
