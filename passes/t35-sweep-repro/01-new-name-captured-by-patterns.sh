#!/bin/bash
# 01 (sev 1): the new text means something else. Renaming web01 -> db03 (the web server takes a
# free name of the db series) puts the new name under patterns written for other machines, and
# nothing is said: Ansible's `hosts: "db*"` now runs the postgresql role on the web server,
# ssh's earlier `Host db*` block now gives db03 `User postgres` and `ProxyJump bastion-db`
# (first obtained value wins, before `Host db03`'s own), Prometheus' keep-regex "db0[0-9].*" now
# scrapes it as a database. Likewise the new address 10.0.2.70 lands in an existing
# `-s 10.0.2.64/28 -j DROP`. renamer checks that a pattern matching the OLD value also matches
# the new one (patterns._covers_new), never the other way round.
# exit 0, verify --strict OK.
. "$(dirname "$0")/lib.sh"
mkrepo 01; cfg '{web01: db03}' '{10.0.0.70: 10.0.2.70}'
printf '[web]\nweb01 ansible_host=10.0.0.70\n[db]\ndb01 ansible_host=10.0.2.11\ndb02 ansible_host=10.0.2.12\n' > hosts.ini
printf -- '- hosts: "db*"\n  roles: [postgresql]\n- hosts: web\n  roles: [nginx]\n' > site.yml
printf 'Host db*\n  User postgres\n  ProxyJump bastion-db\nHost web01\n  User deploy\n' > ssh_config
printf '#!/bin/sh\niptables -A INPUT -s 10.0.2.64/28 -j DROP   # quarantine range\niptables -A INPUT -s 10.0.0.70 -p tcp --dport 443 -j ACCEPT\n' > fw.sh
printf 'scrape_configs:\n- job_name: postgres\n  relabel_configs:\n  - source_labels: [__address__]\n    regex: "db0[0-9].*"\n    action: keep\n' > prom.yml
commit
run_all
echo "== what ssh now uses for db03 (ssh -G):"
ssh -G -F ssh_config db03 2>/dev/null | grep -E '^(user|proxyjump) ' || echo "(ssh not installed: first-match rule gives User postgres, ProxyJump bastion-db)"
echo "== ansible's pattern db* over the swept inventory:"
python3 -c "import fnmatch;print([h for h in ['db03','db01','db02'] if fnmatch.fnmatch(h,'db*')])"
