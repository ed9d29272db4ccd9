#!/bin/bash
# Finding: t37-break 06's fix (the loose pass reads a moved network's addresses as it reads a renamed
# address) makes every numeric OID holding four numbers of a moved network a `part-of-name` near-miss,
# and `verify --strict` fails on them: the false positive t37-break 12 removed from `snmp-index` is back
# under another name. UCD laLoad `1.3.6.1.4.1.2021.10.1.3.1` under 10.1.3.0/24 -> 10.1.9.0/24 (t37-break
# 12's own example), a build label `2024.10.1.3.7`. On prometheus/snmp_exporter (fetched), a move of
# 10.2.0.0/16 gives 83 near-misses (APC PowerNet OIDs `1.3.6.1.4.1.318.1.1.10.2.3.2`), verify --strict 1;
# the commit before (162f050f) says 0 near-misses, OK.
R=${RENAMER:-/work/t38-break/.venv/bin/renamer}
D=/tmp/t38-break/r09; rm -rf $D; mkdir -p $D; cd $D; git init -q; git config user.email t@t; git config user.name t
cat > renamer.yaml <<'Y'
version: 1
renames:
  networks: {10.1.3.0/24: 10.1.9.0/24}
allowlist: allow.yaml
Y
printf 'version: 1\ncurrent: ["**"]\n' > allow.yaml
cat > snmp.yml <<'Y'
modules:
  ucd_la_table:
    walk:
      - 1.3.6.1.4.1.2021.10.1.3.1
      - 1.3.6.1.4.1.2021.10.1.3.2
      - 1.3.6.1.4.1.2021.10.1.3.3
Y
printf 'agentAddress udp:10.1.3.7:161\n' > snmpd.conf
printf 'FROM alpine:3.19\nLABEL build="2024.10.1.3.7"\n' > Dockerfile
git add -A; git commit -qm init
$R sweep 2>&1 | grep -E '^Summary|^Near'
$R verify --strict 2>&1 | tail -5; echo "verify --strict rc=${PIPESTATUS[0]}"
echo "expected: OK (snmpd.conf rewritten; OIDs and the build label name no address); actual: 4 near-misses, --strict fails"
