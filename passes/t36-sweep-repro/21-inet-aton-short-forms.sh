#!/bin/bash
# 21 (sev 1): inet_aton's other spellings of an address. One number (`167772230`, `0x0a000046`)
# is a `number-address` residual and zero padding a near-miss (t35 finding 20's fix); the short
# dotted forms inet_aton, ping, curl, ssh and browsers read the same way are not looked for:
# `10.70` and `10.0.70` are 10.0.0.70 (the last part fills the remaining bytes), and per-octet hex
# `0xa.0.0.0x46` is too. sweep 0, verify --strict OK, each line still reaches the old address.
. "$(dirname "$0")/lib.sh"
mkrepo 21; cfg '{}' '{10.0.0.70: 10.0.1.190}'
printf '#!/bin/sh\nping -c1 10.70\nssh root@10.0.70 uptime\ncurl -s http://0xa.0.0.0x46/health\n' > check.sh
printf '10.0.0.70 web01\n' > hosts
commit
python3 -c 'import socket; [print(f"inet_aton({s!r}) = {socket.inet_ntoa(socket.inet_aton(s))}") for s in ("10.70","10.0.70","0xa.0.0.0x46")]'
run_all 2>&1 | grep -E '^(rc|==|diff --git|verify|[-+][^-+])'
