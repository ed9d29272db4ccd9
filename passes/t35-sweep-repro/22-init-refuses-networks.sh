#!/bin/bash
# 22 (sev 3): `renamer init --from OLD=NEW` takes host names and addresses only. A network move,
# which renamer.yaml takes (`renames.networks`, any length: issue 33), is refused with a
# misleading message - "invalid host name '192.168.42.0/24'" - and no hint that init cannot
# propose it; the user must find the key in docs/configuration.md and add it by hand after init.
. "$(dirname "$0")/lib.sh"
mkrepo 22
printf 'cluster:\n  podSubnets: [10.244.0.0/16]\n  nodeSubnet: 192.168.42.0/24\n  endpoint: https://192.168.42.10:6443\n' > cluster.yaml
commit
renamer --color never init --from 192.168.42.0/24=10.42.42.0/24; echo "rc(init)=$?"
