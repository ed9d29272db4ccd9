#!/bin/bash
# 12 (sev 1): an address written as hex bytes in a DHCP option. The UniFi controller's address is
# handed to access points in option 43 as `01:04:0a:00:00:46` (sub-option 1, length 4, then
# 10.0.0.70 as bytes); Cisco/Aruba APs and Mitel/Polycom phones use the same shape (`f104.0a00.0046`
# in IOS). dnsmasq `dhcp-option=43,01:04:0a:00:00:46`, ISC `option ... 01:04:0a:00:00:46`, IOS
# `option 43 hex f104.0a00.0046`, MikroTik `value=0x01040a000046`. The sweep moves the controller
# (10.0.0.70 -> 10.0.1.90) everywhere else; every AP is still told the old address at its next
# lease, and adoption fails. sweep --commit 0, verify --strict OK: no residual, no near-miss.
# (An address spelled as one number, `0x0a000046`, is a `number-address` residual.)
. "$(dirname "$0")/lib.sh"
mkrepo 12; cfg '{}' '{10.0.0.70: 10.0.1.90}'
mkdir -p dnsmasq dhcp ios mikrotik
printf 'dhcp-option=tag:unifi,43,01:04:0a:00:00:46\nhost-record=unifi.lab.example,10.0.0.70\n' > dnsmasq/unifi.conf
printf 'option space ubnt;\noption ubnt.unifi-address code 1 = ip-address;\nclass "ubnt" {\n  match if substring (option vendor-class-identifier, 0, 4) = "ubnt";\n  option vendor-encapsulated-options 01:04:0a:00:00:46;\n}\n' > dhcp/dhcpd.conf
printf 'ip dhcp pool APS\n network 10.0.5.0 255.255.255.0\n option 43 hex f104.0a00.0046\n' > ios/dhcp.cfg
printf '/ip dhcp-server option add code=43 name=unifi value=0x01040a000046\n' > mikrotik/dhcp.rsc
commit
python3 -c 'import ipaddress; print("0a:00:00:46 =", ipaddress.ip_address(bytes.fromhex("0a000046")))'
run_all 2>&1 | grep -E '^(rc|==|verify|diff --git|[-+][^-+])'
dnsmasq --test -C dnsmasq/unifi.conf 2>&1 | tail -1
