#!/bin/bash
# Finding 14: an SNMP OID whose instance index is a moved address (IP-MIB ipAdEntNetMask.A,
# ipAdEntIfIndex.A, .1.3.6.1.2.1.4.20.1.3.A, ipRouteNextHop.A, Zabbix/LibreNMS/Telegraf items) is
# neither rewritten nor said: the agent address on the same line moves, the index keeps the old
# address, the poll returns "No Such Instance" after the move. Sweep 0, verify OK.
. "$(dirname "$0")/lib.sh"
mkrepo /tmp/t36-33/r07 "192.168.40.0/24: 10.20.0.0/22"
cat > snmp.sh <<'X'
snmpget -v2c -c public 192.168.40.1 IP-MIB::ipAdEntNetMask.192.168.40.1
snmpget -v2c -c public 192.168.40.1 .1.3.6.1.2.1.4.20.1.3.192.168.40.1
X
cat > telegraf.conf <<'X'
[[inputs.snmp]]
  agents = ["udp://192.168.40.1:161"]
  [[inputs.snmp.field]]
    name = "lan_mask"
    oid = "IP-MIB::ipAdEntNetMask.192.168.40.1"
X
commit
$R sweep --commit --color never 2>&1 | grep -vE 'in-addr'
echo "--- verify:"; $R verify --color never 2>&1 | tail -1
git --no-pager diff HEAD~1 | grep '^[-+][^-+]'
