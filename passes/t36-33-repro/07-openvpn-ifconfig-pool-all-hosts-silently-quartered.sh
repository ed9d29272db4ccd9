#!/bin/bash
# Finding 07: under a grow elsewhere (192.168.40.0/24 -> 10.20.0.0/22) OpenVPN's
# `ifconfig-pool 192.168.40.1 192.168.40.254 255.255.255.0` (a pool over every host) is rewritten
# to `10.20.0.1 10.20.0.254 255.255.252.0` with no word: the "range over every host of a grown
# network" rule (a `range` residual: grow to every host, or keep offsets, is the operator's call)
# holds for dnsmasq, ASA, Kea, ISC... (controls below) but not here. In the controls, the mask beside
# the range they hold back IS rewritten: `dhcp-range=192.168.40.1,192.168.40.254,255.255.252.0`
# is left half-moved (old range, new mask) until the operator acts.
. "$(dirname "$0")/lib.sh"
mkrepo /tmp/t36-33/r19 "192.168.40.0/24: 10.20.0.0/22"
printf 'ifconfig-pool 192.168.40.1 192.168.40.254 255.255.255.0\n' > server.conf
printf 'dhcp-range=192.168.40.1,192.168.40.254,255.255.255.0,12h\n' > dnsmasq.conf
printf 'ip local pool VPN 192.168.40.1 192.168.40.254 mask 255.255.255.0\n' > asa.cfg
commit
$R sweep --commit --color never 2>&1 | grep -E '^  [a-z]+\.' | grep -v ' -> ' | cut -c1-120
git --no-pager diff HEAD~1 | grep -E '^[-+]' | grep -v '^+++\|^---'
