#!/bin/bash
# 03 (sev 1): the moved mail host leaves the network its SPF record authorises. Under
# `10.0.0.70 -> 10.0.1.90`, `v=spf1 ip4:10.0.0.64/28 -all` (a zone's TXT, a Terraform/Cloudflare
# record's value) held the old address and not the new one: every receiver now fails SPF for
# the domain's mail (`-all`: rejected). The same /28 in Postfix `mynetworks`, pg_hba, nginx `allow`
# and a NetworkPolicy `ipBlock` is an `access-set` residual; SPF's `ip4:`/`ip6:` mechanisms are
# not read as an access rule. sweep --commit 0, verify --strict OK.
. "$(dirname "$0")/lib.sh"
mkrepo 03; cfg '{}' '{10.0.0.70: 10.0.1.90}'
mkdir -p zones tf
printf '$ORIGIN lab.example.\n$TTL 300\n@ IN SOA ns1 hostmaster 2025030101 3600 600 86400 300\n@ IN NS ns1\nns1 IN A 10.0.0.53\n@ IN MX 10 mail\n@ IN TXT "v=spf1 ip4:10.0.0.64/28 -all"\nmail IN A 10.0.0.70\n' > zones/lab.example.zone
printf 'resource "cloudflare_record" "spf" {\n  zone_id = var.zone\n  name    = "@"\n  type    = "TXT"\n  content = "v=spf1 ip4:10.0.0.64/28 include:_spf.google.com -all"\n}\n' > tf/dns.tf
printf 'mail ansible_host=10.0.0.70\n' > hosts.ini
commit
run_all 2>&1 | grep -E '^(rc|==|verify|diff --git|[-+][^-+])'
named-checkzone lab.example zones/lab.example.zone | tail -1
python3 -c 'import ipaddress as i; n=i.ip_network("10.0.0.64/28"); print("10.0.1.90 in SPF ip4:10.0.0.64/28:", i.ip_address("10.0.1.90") in n)'
