#!/bin/bash
# 16 (sev 1): records by other names, neighbours of t35 findings 10-16's fix. The preset's
# changelogs/incidents/histories/logs/editor-copies classes miss the commonest neighbours:
# `HISTORY.rst`/`History.md` (setuptools' changelog name), `postmortems/` and `postmortem/` (the fix
# named `post-mortem/` only), `retrospectives/`, towncrier's `newsfragments/`, `whatsnew.rst`,
# `releases/v1.2.md`, syslog's rotated `syslog.1` and `var/log/messages`, script(1)'s `typescript`
# and an asciinema `*.cast`, patch's `*.rej`, ADRs (`docs/adr/`, `decisions/`), tickets/. Each is
# rewritten into a past that never happened ("2025-03-01 ssh app01 went down", app01 did not exist).
# sweep --commit 0, verify --strict 0.
. "$(dirname "$0")/lib.sh"
mkrepo 16; cfg '{web01: app01}' '{10.0.0.70: 10.0.1.90}'
L='2025-03-01 03:12 ssh web01 (10.0.0.70) stopped answering; failed over by hand'
for f in HISTORY.rst History.md postmortems/db-outage.md postmortem/2025-03.md retrospectives/q1.md \
  newsfragments/45.bugfix whatsnew.rst releases/v1.2.md syslog.1 var/log/messages typescript \
  session.cast hosts.ini.rej docs/adr/0007-move-db.md decisions/0003.md tickets/INC-1234.md; do
  mkdir -p "$(dirname "$f")"; printf '%s\n' "$L" > "$f"; done
printf 'web01 ansible_host=10.0.0.70\n' > hosts.ini
commit
run_all 2>&1 | grep -v '^ ' | grep -E '^(rc|==|diff --git|\+2025)' 
