#!/bin/bash
# Finding: t36-sweep 24's fix refuses a host renamed onto an Ansible group's name only where the group
# stands in the SAME file. An inventory directory (`-i inventory/`: Ansible merges 01-hosts.ini and
# 02-groups.yml) or a constructed inventory's `groups:` define the group in another file: the sweep writes
# host `monitoring` beside group `monitoring` (Ansible: "Found both group and host with same name",
# `hosts: monitoring` now targets both), exit 0, 0 that verify --strict fails on; verify --strict OK after.
R=${RENAMER:-/work/t38-break/.venv/bin/renamer}
run() { git add -A; git commit -qm init
  $R sweep 2>&1 | grep -E '^Summary|^Refused|^renamer:'; echo "sweep rc=${PIPESTATUS[0]} (expected 3, refused)"
  $R verify --strict | tail -1; echo "verify --strict rc=${PIPESTATUS[0]} (expected 1)"; }
for case in dir constructed same-file; do
D=/tmp/t38-break/r07-$case; rm -rf $D; mkdir -p $D/inventory; cd $D; git init -q; git config user.email t@t; git config user.name t
cat > renamer.yaml <<'Y'
version: 1
renames:
  hosts: {web01: monitoring}
allowlist: allow.yaml
Y
printf 'version: 1\ncurrent: ["**"]\n' > allow.yaml
printf -- '- hosts: monitoring\n  roles: [prometheus]\n' > site.yml
echo "=== $case"
case $case in
dir) printf '[web]\nweb01 ansible_host=10.0.0.5\nweb02 ansible_host=10.0.0.6\n' > inventory/01-hosts.ini
     printf 'all:\n  children:\n    monitoring:\n      hosts:\n        mon01:\n' > inventory/02-groups.yml ;;
constructed) printf '[web]\nweb01 ansible_host=10.0.0.5\nmon01 ansible_host=10.0.0.9\n' > inventory/01-hosts.ini
     printf 'plugin: ansible.builtin.constructed\ngroups:\n  monitoring: "\x27mon\x27 in inventory_hostname"\n' > inventory/02-constructed.yml ;;
same-file) printf '[web]\nweb01 ansible_host=10.0.0.5\n\n[monitoring]\nmon01\n' > inventory/01-hosts.ini ;;  # control: refused
esac
run; done
