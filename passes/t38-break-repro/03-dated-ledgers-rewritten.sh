#!/bin/bash
# Finding (regression of t37-break 01's fix, 1712dbef): ledgers whose rows say what happened in their
# own words (`deployed v1.2`, `upgraded to bookworm`, `replaced disk`, a restore test's `passed`) but
# whose path and header carry none of the listed words (log, ledger, history, action, event...) and no
# time of day are now rewritten: the history says app01/10.0.9.5 was deployed in 2024. Sweep 0, verify
# --strict OK, audit lists nothing. Before 1712dbef all four were kept (`dated-row 9`).
R=${RENAMER:-/work/t38-break/.venv/bin/renamer}
D=/tmp/t38-break/r10; rm -rf $D; mkdir -p $D/ops; cd $D; git init -q; git config user.email t@t; git config user.name t
cat > renamer.yaml <<'Y'
version: 1
cutover: 2026-12-01
renames:
  hosts: {web01: app01}
  addresses: {10.0.0.5: 10.0.9.5}
allowlist: allow.yaml
Y
printf 'version: 1\nextends: [records-common]\ncurrent: ["**"]\n' > allow.yaml
printf '2024-01-15,web01,10.0.0.5,deployed v1.2\n2024-03-02,db01,10.0.0.6,deployed v1.3\n2024-05-09,web01,10.0.0.5,rolled back to v1.2\n' > ops/deploys.csv
printf '2024-01-15 web01 upgraded to bookworm\n2024-03-02 db01 upgraded to bookworm\n' > ops/upgrades.txt
printf 'date\thost\tip\tresult\n2024-01-15\tweb01\t10.0.0.5\tpassed\n2024-03-02\tdb01\t10.0.0.6\tfailed\n' > ops/restore-tests.tsv
printf 'when,host,ip,who,note\n2024-01-15,web01,10.0.0.5,ana,replaced disk\n2024-03-02,db01,10.0.0.6,bo,replaced PSU\n' > ops/hardware.csv
git add -A; git commit -qm init
$R sweep 2>&1 | grep -E '^Summary|^Kept'; echo "sweep rc=${PIPESTATUS[0]}"
$R verify --strict | tail -1; echo "verify --strict rc=${PIPESTATUS[0]}"
echo "expected: the rows dated before the cutover kept as dated-row records; actual, the history rewritten:"
git diff -U0 | grep '^+[^+]'
