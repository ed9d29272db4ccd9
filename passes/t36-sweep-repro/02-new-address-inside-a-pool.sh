#!/bin/bash
# 02 (sev 1): the new address falls inside an address pool handed out to other machines, the
# neighbour of t35 finding 01's `captured` (which asks globs, regexes, host sets and networks in
# access rules). `10.0.0.70 -> 10.0.1.150` puts a static host (Ansible `ansible_host`) inside an
# ISC dhcpd `range 10.0.1.100 10.0.1.200`, a Kea `pool`, a MetalLB IPAddressPool
# `10.0.1.140-10.0.1.160` and a kube-vip `range-global`: DHCP or MetalLB will hand the same
# address to another machine or Service (an address conflict; the outage comes later and far
# away). (dnsmasq's own `dhcp-host` reservation beside its range is fine: dnsmasq excludes it.)
# sweep --commit 0, verify --strict OK.
. "$(dirname "$0")/lib.sh"
mkrepo 02; cfg '{}' '{10.0.0.70: 10.0.1.150}'
mkdir -p dnsmasq dhcp kea k8s
printf 'dhcp-range=10.0.1.100,10.0.1.200,12h\ndhcp-host=aa:bb:cc:dd:ee:01,web01,10.0.0.70\n' > dnsmasq/lan.conf
printf 'subnet 10.0.1.0 netmask 255.255.255.0 {\n  range 10.0.1.100 10.0.1.200;\n  option routers 10.0.1.1;\n}\n' > dhcp/dhcpd.conf
printf '{"Dhcp4": {"subnet4": [{"id": 1, "subnet": "10.0.1.0/24", "pools": [{"pool": "10.0.1.100 - 10.0.1.200"}]}]}}\n' > kea/kea-dhcp4.conf
printf 'apiVersion: metallb.io/v1beta1\nkind: IPAddressPool\nmetadata:\n  name: lan\nspec:\n  addresses:\n    - 10.0.1.140-10.0.1.160\n' > k8s/pool.yaml
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kubevip\n  namespace: kube-system\ndata:\n  range-global: 10.0.1.140-10.0.1.160\n' > k8s/kubevip.yaml
printf 'web01 ansible_host=10.0.0.70\n' > hosts.ini
commit
run_all 2>&1 | grep -E '^(rc|==|verify|diff --git|[-+][^-+]|.*collision)'
dnsmasq --test -C dnsmasq/lan.conf 2>&1 | tail -1
