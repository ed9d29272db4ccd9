#!/bin/bash
# Finding 18: under a grow 192.168.40.0/24 -> /22 the repo's two resolvers both declared the /24's
# reverse zone (unbound local-zone, dnsmasq local=/ and server=/...in-addr.arpa/). verify asks for
# 41-43.168.192.in-addr.arpa at the unbound line; once unbound names them, verify says OK although
# dnsmasq still answers/forwards only 40.168.192.in-addr.arpa (PTR queries for .41-.43 leak upstream).
. "$(dirname "$0")/lib.sh"
mkrepo /tmp/t36-33/r13 "192.168.40.0/24: 192.168.40.0/22"
printf 'server:\n  local-zone: "40.168.192.in-addr.arpa." static\n  local-data-ptr: "192.168.40.5 nas.lab"\n  private-address: 192.168.40.0/24\n' > unbound.conf
printf 'local=/40.168.192.in-addr.arpa/\nrev-server=192.168.40.0/24,192.168.40.1\nserver=/40.168.192.in-addr.arpa/192.168.40.1\n' > dnsmasq.conf
commit
$R sweep --commit --color never >/dev/null 2>&1
echo "--- verify after the sweep:"; $R verify --color never 2>&1 | grep -E '^[a-z]+\.conf:|verify:' | cut -c1-150
for z in 41 42 43; do sed -i "2a\\  local-zone: \"$z.168.192.in-addr.arpa.\" static" unbound.conf; done
git commit -qam "unbound: the grown network's reverse zones"
echo "--- verify after adding the zones to unbound only:"; $R verify --color never 2>&1 | tail -1
cat dnsmasq.conf
