#!/bin/bash
# 20 (sev 2): the zero-padded near-miss check catches 10.0.0.070 (one octet padded) and
# 010.000.000.070 (all padded) but no mix: 10.000.000.070 (the fixed-width form, as
# Windows, Cisco and many exports print them), 10.0.000.070, 10.000.000.70. Silent even under verify --strict; the same
# file's other spellings fail --strict.
. "$(dirname "$0")/lib.sh"
mkrepo 20; cfg '{}' '{10.0.0.70: 10.0.1.90}'
printf 'a 10.0.0.070\nb 10.000.000.070\nc 010.000.000.070\nd 10.0.000.070\ne 10.000.000.70\n' > acl.conf
commit
renamer --color never verify --strict; echo "rc(verify)=$?   (lines b, d, e are not listed)"
