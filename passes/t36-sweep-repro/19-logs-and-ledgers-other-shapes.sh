#!/bin/bash
# 19 (sev 1): logs and ledgers in shapes the `logs` class and `dated-row` rule do not read (t35
# finding 13's neighbours). Rewritten into events that never happened:
#  - Apache's own log names `access_log` and `error_log` (RHEL's default; no `.log` suffix), with
#    `[01/Mar/2025:10:00:00 +0000]` and `[Sat Mar 01 10:00:00.000000 2025]` stamps;
#  - a JSON-lines event log (`events.jsonl`: `{"time":"2025-03-01T10:00:00Z","host":"web01",...}`);
#  - a CSV ledger whose date is the second column (`host,date,event` / `web01,2025-03-01,reboot`);
#  - a TSV whose rows start with an epoch timestamp (`1740823200 web01 up`).
# sweep --commit 0, verify --strict OK. (Syslog's year-less `Mar  1 10:00:00` is a documented gap
# and is left out here.)
. "$(dirname "$0")/lib.sh"
mkrepo 19; cfg '{web01: app01}' '{10.0.0.70: 10.0.1.90}'
mkdir -p var/httpd ops data
printf '10.0.0.70 - - [01/Mar/2025:10:00:00 +0000] "GET / HTTP/1.1" 200 612\n10.0.0.70 - - [01/Mar/2025:10:00:01 +0000] "GET /x HTTP/1.1" 404 10\n' > var/httpd/access_log
printf '[Sat Mar 01 10:00:00.000000 2025] [core:error] [pid 1] [client 10.0.0.70:5555] File does not exist\n' > var/httpd/error_log
printf '{"time":"2025-03-01T10:00:00Z","host":"web01","msg":"disk full"}\n{"time":"2025-03-02T11:00:00Z","host":"web01","msg":"disk cleaned"}\n{"time":"2025-03-03T12:00:00Z","host":"db01","msg":"ok"}\n' > ops/events.jsonl
printf 'host,date,event\nweb01,2025-03-01,reboot\nweb01,2025-04-01,kernel update\ndb01,2025-05-01,reboot\n' > data/maintenance.csv
printf '1740823200 web01 up\n1740909600 web01 down\n1740996000 web01 up\n' > ops/uptime.tsv
commit
run_all 2>&1 | grep -E '^(rc|==|verify|diff --git|[-+][^-+])'
