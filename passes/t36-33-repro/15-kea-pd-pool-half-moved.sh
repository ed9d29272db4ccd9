#!/bin/bash
# Finding 15: a Kea pd-pool over the whole moved prefix, `{"prefix": "2001:db8:a::", "prefix-len": 48,
# "delegated-len": 64}`, under 2001:db8:a::/48 -> 2001:db8:b:100::/56 is written half-moved:
# "prefix": "2001:db8:b:100::" with "prefix-len": 48 (host bits set; as Kea computes the pool's last
# address from prefix-len, it now reaches 2001:db8:b:ffff:..., 255 /56s that are not this site's).
# The sweep writes it and calls it a `tied-length` choice ("decide delegated-len and prefix-len").
# Here prefix-len is the pool's own length, in the same object as its prefix, equal to the subnet's.
. "$(dirname "$0")/lib.sh"
mkrepo /tmp/t36-33/r11 "2001:db8:a::/48: 2001:db8:b:100::/56"
cat > kea.json <<'X'
{"Dhcp6": {"subnet6": [{"id": 1, "subnet": "2001:db8:a::/48",
  "pd-pools": [{"prefix": "2001:db8:a::", "prefix-len": 48, "delegated-len": 64}]}]}}
X
commit
$R sweep --commit --color never 2>&1 | grep -vE 'ip6.arpa' | cut -c1-260; echo "sweep rc=${PIPESTATUS[0]}"
git --no-pager diff HEAD~1 | grep -E '^[-+]' | grep -v '^+++\|^---'
python3 - <<'P'
import json, ipaddress
p = json.load(open('kea.json'))['Dhcp6']['subnet6'][0]['pd-pools'][0]
try:
    print(ipaddress.ip_network(f"{p['prefix']}/{p['prefix-len']}"))
except ValueError as e:
    print('pool as written:', e)
P
