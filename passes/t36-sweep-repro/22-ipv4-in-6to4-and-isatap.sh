#!/bin/bash
# 22 (sev 1, rare): IPv4 embedded in IPv6 as hex, the neighbours of issue 27 item 3's IPv4-mapped
# `::ffff:0a00:46` (read, rewritten) and NAT64's `64:ff9b::a00:46` (rewritten): a 6to4 prefix
# (`2002:a00:46::/48`, `2002:0a00:0046:1::/64`: RFC 3056, the site's IPv6 prefix IS its IPv4
# address) and an ISATAP interface id in hex (`fe80::5efe:a00:46`; its dotted twin
# `fe80::200:5efe:10.0.0.70` is rewritten) are silent under `10.0.0.70 -> 10.0.1.90`.
# sweep --commit 0, verify --strict OK.
. "$(dirname "$0")/lib.sh"
mkrepo 22; cfg '{}' '{10.0.0.70: 10.0.1.90}'
printf 'interface tun6to4\n  tunnel mode ipv6ip 6to4\n  ipv6 address 2002:a00:46::1/48\nipv6 route 2002:0a00:0046:1::/64 tun6to4\n' > router.cfg
printf 'isatap-router fe80::5efe:a00:46\nisatap-peer fe80::200:5efe:10.0.0.70\n' > isatap.conf
printf 'tunnel-source 10.0.0.70\n' > tunnel.conf
commit
run_all 2>&1 | grep -E '^(rc|==|verify|diff --git|[-+][^-+])'
