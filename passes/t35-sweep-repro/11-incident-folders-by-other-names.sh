#!/bin/bash
# 11 (sev 1): incident records in folders named `incident-reports/`, `outages/` or `rca/`
# (records-common knows incidents/, postmortems/, post-mortems/; init knows `postmortem/`) are
# proposed current by `init` and rewritten: "At 03:12 app01 (10.0.1.90) stopped answering" -
# a falsified incident report. exit 0, verify --strict OK. The same text in postmortem/ is kept.
. "$(dirname "$0")/lib.sh"
mkrepo 11
mkdir -p postmortem incident-reports rca outages
printf '[web]\nweb01 ansible_host=10.0.0.70\n' > hosts.ini
for d in postmortem incident-reports rca outages; do
  printf '# Disk failure on web01\n\nAt 03:12 web01 (10.0.0.70) stopped answering; we failed over to web02.\n' > $d/disk-failure.md
done
commit
echo "== renamer init"; renamer --color never init --from web01=app01 --from 10.0.0.70=10.0.1.90
commit cfg
run_all
