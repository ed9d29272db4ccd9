#!/bin/bash
# Finding 16: BIND's $GENERATE makes addresses in use (`$GENERATE 100-200 dyn-$ A 192.168.40.$`, and
# its reverse `$GENERATE 100-200 $ PTR dyn-$.lab.`); under a shrink 192.168.40.0/24 -> /25 the hosts
# .128-.200 have no place, but the sweep is not refused (the same hosts written one by one are:
# control). It writes, and says only `prefix` ("a head a placeholder completes") for the A lines and
# a zone-level `reverse-zone` note for the PTR zone; the range and the hosts it cannot place are
# never named.
. "$(dirname "$0")/lib.sh"
mkrepo /tmp/t36-33/r10 "192.168.40.0/24: 192.168.40.0/25"
cat > db.lab <<'X'
$ORIGIN lab.
$TTL 3600
@ IN SOA ns root 1 2 3 4 5
@ IN NS ns
gw IN A 192.168.40.1
$GENERATE 100-200 dyn-$ A 192.168.40.$
X
printf 'lan: 192.168.40.0/24\n' > l.yml
commit
$R sweep --commit --color never 2>&1 | cut -c1-220; echo "sweep rc=${PIPESTATUS[0]}"
git --no-pager log --oneline | head -1
echo "--- control: one generated host written by hand refuses the sweep"
mkrepo /tmp/t36-33/r10c "192.168.40.0/24: 192.168.40.0/25"
printf '$ORIGIN lab.\n$TTL 3600\n@ IN SOA ns root 1 2 3 4 5\n@ IN NS ns\ndyn-150 IN A 192.168.40.150\n' > db.lab; commit
$R sweep --commit --color never 2>&1 | cut -c1-200; echo "sweep rc=${PIPESTATUS[0]}"
