#!/bin/bash
# 16 (sev 1): copies editors leave beside a file are backups, but only `*~` and `*.swp` are
# known: Emacs' auto-save `#hosts.ini#`, VS Code's Local History (`.history/...<timestamp>.ini`),
# Kate's `.kate-swp` and a `.tmp` copy are proposed current by
# `init` (or kept current by `current: ["**"]`) and rewritten. The Local History file is
# named with a 14-digit stamp from before the cutover, yet `dated.filenames` does not read it.
. "$(dirname "$0")/lib.sh"
mkrepo 16
mkdir -p .history/inventory
printf '[web]\nweb01 ansible_host=10.0.0.70\n' > hosts.ini
printf '[web]\nweb01 ansible_host=10.0.0.70\n' > '#hosts.ini#'
printf '[web]\nweb01 ansible_host=10.0.0.70\n' > hosts.ini.kate-swp
printf '[web]\nweb01 ansible_host=10.0.0.70\n' > hosts.ini.tmp
printf '(undo-tree-save-format-version . 1)\n"web01 ansible_host=10.0.0.70"\n' > .hosts.ini.~undo-tree~  # (kept: ends in ~)
printf '[web]\nweb01 ansible_host=10.0.0.70\n' > .history/inventory/hosts_20250301101500.ini
commit
echo "== renamer init (fails on .history/, finding 19)"; renamer --color never init --from web01=app01 --from 10.0.0.70=10.0.1.90
echo "== with the documented broad config instead: cutover 2026-01-01, records-common, current: [**]"
cfg '{web01: app01}' '{10.0.0.70: 10.0.1.90}'
commit cfg
run_all
