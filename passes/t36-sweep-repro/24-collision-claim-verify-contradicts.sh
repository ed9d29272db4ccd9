#!/bin/bash
# 24 (sev 2): `web01 -> monitoring` where `[monitoring]` is an Ansible group of the same inventory
# (and `group_vars/monitoring.yml`, `hosts: monitoring` in the playbook). ansible-inventory then
# warns "Found both group and host with same name: monitoring" and host_vars/monitoring.yml
# sits beside group_vars/monitoring.yml. The sweep prints two collision warnings and ends with
# "2 collisions: new values already there (1 that `renamer verify --strict` fails on)" and exits 0;
# then `renamer verify --strict` says "verify: OK" and exits 0. The sweep's claim and verify
# disagree, and a host renamed onto a group's name goes through with exit 0.
. "$(dirname "$0")/lib.sh"
mkrepo 24; cfg '{web01: monitoring}' '{}'
printf '[web]\nweb01 ansible_host=10.0.0.70\n\n[monitoring]\nmon01 ansible_host=10.0.0.80\n' > hosts.ini
mkdir -p host_vars group_vars; printf 'nginx_workers: 4\n' > host_vars/web01.yml; printf 'grafana: true\n' > group_vars/monitoring.yml
printf -- '- hosts: monitoring\n  roles: [grafana]\n- hosts: web\n  roles: [nginx]\n' > site.yml
commit
echo "== sweep --commit"; renamer --color never sweep --commit 2>&1 | grep -E 'collision|Summary'; echo "rc(sweep)=${PIPESTATUS[0]}"
echo "== verify --strict"; renamer --color never verify --strict; echo "rc(verify --strict)=$?"
cat hosts.ini
