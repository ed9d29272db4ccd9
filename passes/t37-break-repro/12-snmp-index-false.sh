#!/bin/bash
# Finding: any numeric OID whose last four numbers spell an address of a moved network is called an
# SNMP index of that address: UCD-SNMP laLoad.1 (1.3.6.1.4.1.2021.10.1.3.1) under a move of 10.1.3.0/24
# is a residual `snmp-index` ("the agent answers for its new address"); verify fails on a file the move
# does not touch. Also: each snmp-index line repeats the whole shared explanation (no "said once").
R=${RENAMER:-/work/t37-break/.venv/bin/renamer}
D=/tmp/t37-break/r02; rm -rf $D; mkdir -p $D; cd $D; git init -q; git config user.email t@t; git config user.name t
cat > renamer.yaml <<'Y'
version: 1
renames:
  networks: {10.1.3.0/24: 10.1.9.0/24}
allowlist: allow.yaml
Y
printf 'version: 1\ncurrent: ["**"]\n' > allow.yaml
cat > snmp.yml <<'Y'
# prometheus snmp_exporter generator: UCD-SNMP load averages and CPU counters (no address index)
modules:
  ucd:
    walk:
      - 1.3.6.1.4.1.2021.10.1.3.1     # laLoad.1
      - 1.3.6.1.4.1.2021.10.1.3.2     # laLoad.2
      - 1.3.6.1.4.1.2021.10.1.5.1     # laLoadInt.1 (not in the moved network: no residual)
Y
cat > telegraf.conf <<'Y'
[[inputs.snmp.field]]
  name = "load1"
  oid = ".1.3.6.1.4.1.2021.10.1.3.1"
Y
git add -A; git commit -qm init
$R sweep; echo "sweep rc=$?"
$R verify; echo "verify rc=$?   (expected: OK, 0 residuals: none of these OIDs is indexed by an address)"
