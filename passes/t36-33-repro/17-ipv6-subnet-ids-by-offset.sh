#!/bin/bash
# Finding 17: IPv6 subnets chosen by an ID/offset written alone are not placed by a shrink:
# OpenWrt `option ip6hint 'f000'` (with ip6assign 60) and systemd-networkd `SubnetId=0xf002`
# ([DHCPPrefixDelegation]/[DHCPv6PrefixDelegation]) pick 2001:db8:a:f000::/60 and 2001:db8:a:f002::/64
# out of the /48; under 2001:db8:a::/48 -> /52 those subnet IDs no longer exist in the prefix
# (a /52 leaves 12 bits: ids up to 0xfff). The same subnets written as addresses are refused
# (control: guest 2001:db8:a:f001::/64). Here: sweep writes, no word about the ids.
. "$(dirname "$0")/lib.sh"
mkrepo /tmp/t36-33/r05 "2001:db8:a::/48: 2001:db8:a::/52"
cat > network <<'X'
config globals 'globals'
	option ula_prefix '2001:db8:a::/48'

config interface 'iot'
	option proto 'static'
	option ip6assign '60'
	option ip6hint 'f000'
X
cat > 10-lan.network <<'X'
[Match]
Name=lan0

[Network]
DHCPPrefixDelegation=yes
IPv6SendRA=yes

[DHCPPrefixDelegation]
UplinkInterface=wan0
SubnetId=0xf002
Announce=yes
X
printf 'site_prefix: 2001:db8:a::/48\n' > site.yml
commit
$R sweep --commit --color never 2>&1 | grep -vE 'ip6.arpa' | cut -c1-300
echo "--- control: the same subnet written as an address is refused"
printf 'guest: "2001:db8:a:f001::/64"\n' > guest.yml
$R sweep --dry-run --color never 2>&1 | grep -A1 'Refused' | cut -c1-200
