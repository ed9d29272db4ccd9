#!/bin/bash
# Finding: t37-break 01's fix reads "a time of day after the dates" as a log's mark with
# `\d{4}-\d{2}-\d{2}[ \t,;|]+\d{1,2}:\d{2}`: a MAC address in the second column (`52:54:...`) matches.
# A DHCP reservation table `date,mac,host,ip` (t37-break 01's own example with its columns in another
# order) is kept whole as `dated-row`: the moved machine's reservation keeps web01/10.0.0.5, verify
# --strict OK. Control: the same table with the MAC last is rewritten.
R=${RENAMER:-/work/t38-break/.venv/bin/renamer}
D=/tmp/t38-break/r16; rm -rf $D; mkdir -p $D; cd $D; git init -q; git config user.email t@t; git config user.name t
printf 'version: 1\ncutover: 2026-12-01\nrenames:\n  hosts: {web01: app01}\n  addresses: {10.0.0.5: 10.0.9.5}\nallowlist: allow.yaml\n' > renamer.yaml
printf 'version: 1\nextends: [records-common]\ncurrent: ["**"]\n' > allow.yaml
printf '2024-01-15,52:54:00:12:34:56,web01,10.0.0.5\n2024-03-02,52:54:00:12:34:57,db01,10.0.0.6\n' > dhcp-reservations.csv
printf '2024-01-15,web01,10.0.0.5,52:54:00:12:34:56\n2024-03-02,db01,10.0.0.6,52:54:00:12:34:57\n' > control-reservations.csv
git add -A; git commit -qm init
$R sweep 2>&1 | grep -E '^Summary|^Kept'; $R verify --strict | tail -1; echo "verify --strict rc=${PIPESTATUS[0]}"
echo "expected: both tables rewritten; actual:"; grep -H . *.csv | grep -e web01 -e app01
