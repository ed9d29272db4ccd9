#!/bin/bash
# 05 (sev 1): a zone that loads before the sweep no longer loads after it. A TXT record's
# character-string holds at most 255 bytes (RFC 1035 3.3); an SPF record naming the host
# (`v=spf1 a:web01.lab.example ip4:... -all`, 255 bytes) grows past 255 under
# `web01.lab.example -> webapp-frontend-01.lab.example`. named-checkzone: OK before, "syntax error"
# after (BIND refuses the whole zone: every name in it stops resolving). The sweep checks DNS
# labels over 63 and names over their platforms' limits, bumps the serial, and writes this zone:
# sweep --commit 0, verify --strict OK.
. "$(dirname "$0")/lib.sh"
mkrepo 05; cfg '{web01.lab.example: webapp-frontend-01.lab.example}' '{}'
mkdir -p zones
PAD=$(python3 -c 'print(" ".join("ip4:10.9.%d.0/24" % i for i in range(13)))')
S="v=spf1 a:web01.lab.example $PAD ip4:10.8.0.1 -all"
printf '$ORIGIN lab.example.\n$TTL 300\n@ IN SOA ns1 hostmaster 2025030101 3600 600 86400 300\n@ IN NS ns1\nns1 IN A 10.0.0.53\n@ IN TXT "%s"\nweb01 IN A 10.0.0.70\n' "$S" > zones/lab.example.zone
commit
echo "TXT string: ${#S} bytes"; echo "== named-checkzone before"; named-checkzone lab.example zones/lab.example.zone | tail -1
run_all 2>&1 | grep -E '^(rc|==|verify)'
echo "== named-checkzone after"; named-checkzone lab.example zones/lab.example.zone 2>&1 | tail -2
