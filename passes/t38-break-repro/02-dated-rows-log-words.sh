#!/bin/bash
# Finding: t37-break 01's fix keeps dated rows only "where the file reads as a log", but the evidence is a
# word: a path component log/archive/maintenance/... anywhere (`log-targets.csv` = where logs GO,
# `archive-targets.csv` = where backups go, `maintenance/windows.csv` = a live schedule) or a header column
# named action/event/change (a firewall table `added,source,port,action` with allow/deny). Each live table
# is kept whole as `dated-row`: the moved machine keeps its old name/address there, verify --strict OK.
R=${RENAMER:-/work/t38-break/.venv/bin/renamer}
D=/tmp/t38-break/r02; rm -rf $D; mkdir -p $D; cd $D; git init -q; git config user.email t@t; git config user.name t
cat > renamer.yaml <<'Y'
version: 1
cutover: 2026-12-01
renames:
  hosts: {web01: app01}
  addresses: {10.0.0.5: 10.0.9.5}
allowlist: allow.yaml
Y
printf 'version: 1\nextends: [records-common]\ncurrent: ["**"]\n' > allow.yaml
mkdir -p maintenance roles/rsyslog/files
printf 'added,source,port,action\n2024-01-15,10.0.0.5,5432,allow\n2024-03-02,10.0.0.6,5432,allow\n2024-03-02,0.0.0.0/0,5432,deny\n' > pg-firewall.csv
printf '2024-01-15,web01,10.0.0.5,514\n2024-03-02,db01,10.0.0.6,514\n' > roles/rsyslog/files/log-targets.csv
printf '2024-01-15,web01,10.0.0.5,sun-0200\n2024-03-02,db01,10.0.0.6,sun-0300\n' > maintenance/windows.csv
printf '2024-01-15,web01,10.0.0.5,/srv/archive\n2024-03-02,db01,10.0.0.6,/srv/archive\n' > archive-targets.csv
# control: the same table under a neutral name is rewritten
printf '2024-01-15,web01,10.0.0.5,/srv/archive\n2024-03-02,db01,10.0.0.6,/srv/archive\n' > backup-targets.csv
git add -A; git commit -qm init
$R sweep 2>&1 | grep -E '^Summary|^Kept'; echo "sweep rc=${PIPESTATUS[0]}"
$R verify --strict | tail -1; echo "verify --strict rc=${PIPESTATUS[0]}"
echo "expected: all four tables rewritten (web01 -> app01, 10.0.0.5 -> 10.0.9.5) like backup-targets.csv; actual:"
grep -H -e web01 -e '10\.0\.0\.5,' *.csv */*.csv roles/rsyslog/files/*.csv
