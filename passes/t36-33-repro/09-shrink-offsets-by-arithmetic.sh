#!/bin/bash
# Finding 09: under a shrink in place (192.168.40.0/24 -> /25), host numbers added to an address or
# given to cidrhost() through a variable of another file are not placed: Python
# `ip_address("192.168.40.1") + 200`, `[NET.network_address + i for i in range(150, 200)]`,
# Node `ip.fromLong(ip.toLong("192.168.40.1") + 200)`. Sweep 0, verify OK; Python then makes
# 192.168.40.201 (outside the /25). Controls (not in this script, seen refused): Ansible ipmath(200),
# nthhost(200), cidrhost(local.base, 200), cidrhost(var.lan, var.vip_host) with terraform.tfvars,
# and Python NET[200].
. "$(dirname "$0")/lib.sh"
mkrepo /tmp/t36-33/r08 "192.168.40.0/24: 192.168.40.0/25"
cat > gen.py <<'X'
import ipaddress
GW = ipaddress.ip_address("192.168.40.1")
VIP = GW + 200
NET = ipaddress.ip_network("192.168.40.0/24")
POOL = [NET.network_address + i for i in range(150, 200)]
X
printf 'const ip = require("ip");\nconst vip = ip.fromLong(ip.toLong("192.168.40.1") + 200);\n' > gen.js
commit
$R sweep --commit --color never 2>&1 | grep -vE 'in-addr'
echo "--- verify:"; $R verify --color never 2>&1 | tail -1
python3 -c "
import ipaddress
exec(open('gen.py').read())
print('python: VIP', VIP, 'inside', NET, ':', VIP in NET, '| POOL ends', POOL[-1], POOL[-1] in NET)"
