#!/bin/bash
# Finding 11: addresses of a MOVED NETWORK written with zero-padded octets (192.168.040.005,
# 192.168.040.000/24, 192.168.40.05), in inet_aton octal (0300.0250.050.05) or dotted hex
# (0xc0.0xa8.0x28.0x05) are neither rewritten nor said: 0 residuals, 0 near-misses. For a renamed
# ADDRESS docs/matching.md makes a padded spelling a `zero-padded` near-miss, and a moved network's
# address as one number (3232245765) is a `number-address` residual (control, same file).
. "$(dirname "$0")/lib.sh"
mkrepo /tmp/t36-33/r14 "192.168.40.0/24: 10.20.0.0/22"
printf 'nas: 192.168.040.005\nlan: 192.168.040.000/24\nprinter: 192.168.40.05\n' > hosts.yml
printf 'ping -c1 0300.0250.050.05\nping -c1 0xc0.0xa8.0x28.0x05\nping -c1 3232245765\n' > check.sh
commit
$R sweep --commit --color never 2>&1 | cut -c1-160
echo "--- verify:"; $R verify --color never 2>&1 | grep -E '^[a-z]+\.(yml|sh):|verify:' | cut -c1-120
python3 -c "import socket;[print(a,'->',socket.inet_ntoa(socket.inet_aton(a))) for a in ['192.168.040.005','0300.0250.050.05','0xc0.0xa8.0x28.0x05']]"
echo "--- control: a renamed address padded is a near-miss"
mkrepo /tmp/t36-33/r14c; sed -i 's/  networks:/  addresses:/' renamer.yaml; echo '    192.168.40.5: 10.20.0.5' >> renamer.yaml
python3 - <<'P'
s=open('renamer.yaml').read().replace('allowlist: allow.yaml\n    192.168.40.5: 10.20.0.5\n','    192.168.40.5: 10.20.0.5\nallowlist: allow.yaml\n'); open('renamer.yaml','w').write(s)
P
printf 'nas: 192.168.040.005\n' > hosts.yml; commit
$R verify --color never 2>&1 | tail -1
