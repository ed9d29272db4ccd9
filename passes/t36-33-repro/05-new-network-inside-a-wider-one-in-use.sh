#!/bin/bash
# Finding 05: moving into address space a WIDER network of the repo already uses is no collision.
# 10.42.0.0/21 -> 10.60.8.0/21 while the repo declares an IoT VLAN 10.60.0.0/20 and the Kubernetes
# pod CIDR 10.60.0.0/16 (and a route to 10.60.8.0/22 via another router): after the sweep the LAN
# overlaps all three; sweep 0, verify --strict OK. A host or a narrower network inside 10.60.8.0/21
# (control: 10.60.15.7) IS listed as a collision.
. "$(dirname "$0")/lib.sh"
mkrepo /tmp/t36-33/r02 "10.42.0.0/21: 10.60.8.0/21"
printf 'lan: 10.42.0.0/21\ngw: 10.42.0.1\n' > lan.yml
printf 'vlans:\n  iot:\n    cidr: 10.60.0.0/20\n    gateway: 10.60.0.1\n' > vlans.yml
printf 'networking:\n  podSubnet: "10.60.0.0/16"\n  serviceSubnet: "10.96.0.0/12"\n' > kubeadm.yml
printf 'ip route 10.60.0.0 255.255.240.0 192.0.2.2\n' > edge.ios
commit
$R sweep --commit --color never 2>&1 | grep -v in-addr
echo "--- verify --strict:"; $R verify --strict --color never 2>&1 | tail -3; echo "rc=${PIPESTATUS[0]}"
echo "--- control: a host inside the new network is listed as a collision by the dry run"
mkrepo /tmp/t36-33/r02c "10.42.0.0/21: 10.60.8.0/21"
printf 'lan: 10.42.0.0/21\n' > lan.yml; printf 'ula: "10.60.15.7"\n' > ctl.yml; commit
$R sweep --dry-run --color never 2>&1 | grep -A1 -i 'collision' | head -4
