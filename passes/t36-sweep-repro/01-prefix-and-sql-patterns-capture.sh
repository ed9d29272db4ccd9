#!/bin/bash
# 01 (sev 1): the new value falls under a pattern that has no glob or regex syntax, the neighbours
# of t35 finding 01's fix (`captured` asks globs, regexes, host sets, networks). Under
# `web01 -> db03` and `10.0.0.70 -> 10.0.2.70` these are silent:
#  - prefix tests: rsyslog `:hostname, startswith, "db"`, HAProxy `hdr_beg(host) -i db`, Ansible
#    `when: inventory_hostname.startswith("db")` (the postgres role now runs on the web server),
#    Terraform `startswith(h, "db")`;
#  - address prefixes: tcp_wrappers' trailing dot `ALL: 10.0.2.` in hosts.deny (sshd now refuses
#    the moved host), Apache's partial address `Require not ip 10.0.2`;
#  - SQL LIKE wildcards in MySQL accounts: `'dba'@'db%'` and `'ro'@'10.0.2.%'`.
# (The same file's `10.0.2.*` in sshd_config and `db*` in sudoers are `captured` residuals.)
# sweep --commit 0, verify --strict OK.
. "$(dirname "$0")/lib.sh"
mkrepo 01; cfg '{web01: db03}' '{10.0.0.70: 10.0.2.70}'
mkdir -p inventory rsyslog haproxy tcpw apache mysql ansible tf
printf '[web]\nweb01 ansible_host=10.0.0.70\n[db]\ndb01\ndb02\n' > inventory/hosts.ini
printf ':hostname, startswith, "db" /var/log/db.log\n& stop\n' > rsyslog/50-db.conf
printf 'frontend f\n  acl is_db hdr_beg(host) -i db\n  use_backend pg if is_db\n' > haproxy/haproxy.cfg
printf 'ALL: 10.0.2.\n' > tcpw/hosts.deny
printf '<Location />\n  Require not ip 10.0.2\n  Require all granted\n</Location>\n' > apache/acl.conf
printf "GRANT ALL ON prod.* TO 'dba'@'db%%';\nGRANT SELECT ON prod.* TO 'ro'@'10.0.2.%%';\n" > mysql/grants.sql
printf -- '- hosts: all\n  tasks:\n    - include_role: {name: postgres}\n      when: inventory_hostname.startswith("db")\n' > ansible/site.yml
printf 'locals {\n  dbs = [for h in var.hosts : h if startswith(h, "db")]\n}\n' > tf/main.tf
commit
run_all 2>&1 | grep -E '^(rc|==|diff --git|verify|[-+][^-+])'
