#!/bin/bash
# Finding: record_spans' `dated-row` keeps ANY file whose rows start with a date on or before the cutover,
# also live tables whose first column is a date that is no record: a DHCP reservation list (date added),
# a CSV inventory with an `added` column, a certificate renewal list, a backup schedule (start date).
# Nothing is rewritten; verify --strict OK; the summary says "Kept on purpose: dated-row 6".
R=${RENAMER:-/work/t37-break/.venv/bin/renamer}
D=/tmp/t37-break/r09; rm -rf $D; mkdir -p $D; cd $D; git init -q; git config user.email t@t; git config user.name t
cat > renamer.yaml <<'Y'
version: 1
cutover: 2026-12-01
renames:
  hosts: {web01: app01}
  addresses: {10.0.0.5: 10.0.9.5}
allowlist: allow.yaml
Y
printf 'version: 1\nextends: [records-common]\ncurrent: ["**"]\n' > allow.yaml
printf '2024-01-15,web01,10.0.0.5,52:54:00:12:34:56\n2024-03-02,db01,10.0.0.6,52:54:00:12:34:57\n2025-07-19,mon01,10.0.0.7,52:54:00:12:34:58\n' > dhcp-reservations.csv
printf 'added,hostname,ip,mac\n2024-01-15,web01,10.0.0.5,52:54:00:12:34:56\n2024-03-02,db01,10.0.0.6,52:54:00:12:34:57\n' > inventory.csv
printf '2026-11-30 web01.lab.example renew-by\n2027-03-01 db01.lab.example renew-by\n' > certs.txt
printf '2025-01-01\tweb01\tdaily\t/srv\n2025-01-01\tdb01\thourly\t/var/lib/postgresql\n' > backup-schedule.tsv
printf 'reservations_file: dhcp-reservations.csv\n' > site.yml
git add -A; git commit -qm init
$R sweep 2>&1 | grep -E '^Summary|^Kept'; echo "sweep rc=${PIPESTATUS[0]}"
$R verify --strict | tail -1; echo "verify --strict rc=${PIPESTATUS[0]}"
echo "expected: web01/10.0.0.5 rewritten in all four live tables (or at least a residual), not kept as records"
grep -h web01 *.csv *.txt *.tsv
