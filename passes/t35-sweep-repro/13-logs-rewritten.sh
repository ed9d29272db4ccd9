#!/bin/bash
# 13 (sev 1): captured output and logs (ansible.log, nohup.out, *.log, an Ansible .retry
# file) are records of what happened; `init` proposes them as current and the sweep rewrites
# them: the log now says ansible reached app01 at 10.0.1.90 on 2025-03-01.
. "$(dirname "$0")/lib.sh"
mkrepo 13
printf '[web]\nweb01 ansible_host=10.0.0.70\n' > hosts.ini
printf '2025-03-01 10:00:01,123 p=4242 u=ops n=ansible | ok: [web01] => {"ansible_host": "10.0.0.70"}\n2025-03-01 10:00:09,871 p=4242 u=ops n=ansible | fatal: [web01]: UNREACHABLE!\n' > ansible.log
printf 'nohup: ignoring input\n[2025-03-01T10:02:00Z] rsync to web01:/srv/data done (10.0.0.70)\n' > nohup.out
printf '2025-03-01T10:03:00Z restic backup from web01 ok\n' > backup-run.log
printf 'web01\n' > site.retry
commit
echo "== renamer init"; renamer --color never init --from web01=app01 --from 10.0.0.70=10.0.1.90
commit cfg
run_all
