#!/bin/bash
# 19 (sev 2): `renamer init` on a repo with a VS Code `.history/` folder writes a record class
# named `.history`, which its own loader refuses: init exits 2, writes nothing, and the user
# has no starting configuration. The message blames the generated file, not the repo.
. "$(dirname "$0")/lib.sh"
mkrepo 19
mkdir -p .history
printf 'web01 ansible_host=10.0.0.70\n' > hosts.ini
printf 'web01 ansible_host=10.0.0.70\n' > .history/hosts_20250301101500.ini
commit
renamer --color never init --from web01=app01; echo "rc(init)=$?"
ls renamer.yaml allowlists 2>&1
