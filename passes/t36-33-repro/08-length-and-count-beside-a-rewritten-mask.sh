#!/bin/bash
# Finding 08: where the sweep rewrites a dotted mask, the old length and the old counts beside it on
# the same line or table row are neither rewritten nor said, although the same words on a line with
# no mask are a `mask` residual / a count that follows (controls a. and t.md).
. "$(dirname "$0")/lib.sh"
mkrepo /tmp/t36-33/r04 "192.168.40.0/24: 192.168.40.0/22"
cat > README.md <<'X'
a. The IoT VLAN 192.168.40.0 is a /24 with 254 usable hosts.
d. The IoT VLAN 192.168.40.0 is a /24: 254 usable hosts, mask 255.255.255.0.
e. IoT network 192.168.40.0 netmask 255.255.255.0 (a /24, 256 addresses)
X
printf '| VLAN | Network | Hosts |\n|---|---|---|\n| IoT | 192.168.40.0/24 | 254 |\n' > t.md
printf '| VLAN | Network | Mask | Hosts |\n|---|---|---|---|\n| IoT | 192.168.40.0 | 255.255.255.0 | 254 |\n' > t2.md
commit
$R sweep --commit --color never 2>&1 | grep -E '^  [a-zA-Z].*md:' | cut -c1-160
echo "--- verify:"; $R verify --color never 2>&1 | grep -E '^[a-zA-Z0-9].*md:|verify:' | cut -c1-160
git --no-pager diff HEAD~1 | grep '^[-+][^-+]'
