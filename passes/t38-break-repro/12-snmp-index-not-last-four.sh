#!/bin/bash
# Finding: t37-break 12's fix reads a numeric OID's index as its LAST FOUR numbers. The address-indexed
# tables it lists (_ADDRESS_TABLES) whose index holds more after the address are missed: OSPF neighbours
# (14.10.1.x.ADDR.0), UDP listeners (7.5.1.x.ADDR.PORT), TCP connections (6.13.1.x.LADDR.LPORT.RADDR.RPORT)
# and an ipCidrRoute's destination (4.24.4.1.x.DEST.MASK.TOS.HOP). Under 10.1.3.0/24 -> 10.1.9.0/24 each
# keeps the old index (every poll: No Such Instance), said only as a `part-of-name` near-miss (a warning:
# `verify` OK). The named form OSPF-MIB::ospfNbrState.10.1.3.7.0 is an snmp-index residual (control).
R=${RENAMER:-/work/t38-break/.venv/bin/renamer}
D=/tmp/t38-break/r12; rm -rf $D; mkdir -p $D; cd $D; git init -q; git config user.email t@t; git config user.name t
cat > renamer.yaml <<'Y'
version: 1
renames:
  networks: {10.1.3.0/24: 10.1.9.0/24}
allowlist: allow.yaml
Y
printf 'version: 1\ncurrent: ["**"]\n' > allow.yaml
cat > telegraf.conf <<'Y'
[[inputs.snmp]]
  agents = ["udp://10.1.3.1:161"]
  [[inputs.snmp.field]]
    name = "ospf_nbr_state"
    oid = "1.3.6.1.2.1.14.10.1.6.10.1.3.7.0"
  [[inputs.snmp.field]]
    name = "ntp_udp_listener"
    oid = ".1.3.6.1.2.1.7.5.1.1.10.1.3.1.123"
  [[inputs.snmp.field]]
    name = "ssh_conn_state"
    oid = "1.3.6.1.2.1.6.13.1.1.10.1.3.1.22.10.1.3.50.51234"
  [[inputs.snmp.field]]
    name = "route_to_lab"
    oid = "1.3.6.1.2.1.4.24.4.1.16.10.1.3.0.255.255.255.0.0.192.0.2.1"
Y
printf '[[inputs.snmp.field]]\n  oid = "OSPF-MIB::ospfNbrState.10.1.3.7.0"\n' > control.conf
git add -A; git commit -qm init
$R sweep 2>&1 | grep -E '^Summary|snmp-index' | cut -c1-110; echo "sweep rc=${PIPESTATUS[0]}"
git rm -qf control.conf; git commit -qam 'control seen'
$R verify 2>&1 | grep -v '^    ' | cut -c1-140; echo "verify rc=${PIPESTATUS[0]} (expected 1: four snmp-index residuals)"
