#!/bin/bash
# Finding 02: the broadcast address of a SUBNET that ends where the moved network ends (the upper
# /25 of a /24: 192.168.40.255 is both) is mapped to the NEW NETWORK's broadcast under a grow
# elsewhere (192.168.40.0/24 -> 10.20.0.0/22): `ip addr add 10.20.0.130/25 brd 10.20.3.255`, ifupdown
# `broadcast 10.20.3.255` beside `netmask 255.255.255.128`, ISC `subnet 10.20.0.128 netmask
# 255.255.255.128 { option broadcast-address 10.20.3.255; }`. The /25 keeps its length (a longer
# length keeps its own), so its broadcast is 10.20.0.255; 10.20.3.255 lies outside the subnet.
# Sweep 0, verify OK.
. "$(dirname "$0")/lib.sh"
mkrepo /tmp/t36-33/r21 "192.168.40.0/24: 10.20.0.0/22"
printf 'ip addr add 192.168.40.130/25 brd 192.168.40.255 dev eth1\n' > up.sh
printf 'auto eth1\niface eth1 inet static\n  address 192.168.40.130\n  netmask 255.255.255.128\n  broadcast 192.168.40.255\n' > interfaces
printf 'subnet 192.168.40.128 netmask 255.255.255.128 {\n  option broadcast-address 192.168.40.255;\n  range 192.168.40.140 192.168.40.200;\n}\n' > dhcpd.conf
printf 'lan: 192.168.40.0/24\n' > l.yml
commit
$R sweep --commit --color never 2>&1 | grep -vE 'in-addr'
echo "--- verify:"; $R verify --color never 2>&1 | tail -1
git --no-pager diff HEAD~1 -- up.sh interfaces dhcpd.conf | grep -E '^[-+]' | grep -v '^+++\|^---'
python3 -c "import ipaddress;n=ipaddress.ip_network('10.20.0.128/25');print('the /25 now:',n,'broadcast',n.broadcast_address,'| 10.20.3.255 in it:',ipaddress.ip_address('10.20.3.255') in n)"
