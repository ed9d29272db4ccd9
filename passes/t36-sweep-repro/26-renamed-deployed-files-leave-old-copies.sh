#!/bin/bash
# 26 (sev 2): a file the sweep renames because its name holds the host is often deployed under that
# name: `roles/web/files/cron.d/web01` (copied as a folder to /etc/cron.d/), an nginx
# vhost `sites/web01.conf` deployed with `with_fileglob` to /etc/nginx/sites-enabled/, a systemd
# timer `web01.timer` deployed by a glob. After the rename the next deploy writes the new name
# beside the old file, which nothing removes: two cron jobs, two vhosts (the old one still answering for the old name),
# two timers. The sweep reports
# `rename ...` and exits 0, verify OK; nothing says the old name is still live on the machine
# (renamer knows the file is deployed: the task that globs its folder is in the repo).
. "$(dirname "$0")/lib.sh"
mkrepo 26; cfg '{web01: app01, web01.lab.example: app01.lab.example}' '{10.0.0.70: 10.0.1.90}'
mkdir -p roles/web/files/sites roles/web/files/cron.d roles/web/files/systemd roles/web/tasks
printf 'server {\n  listen 80;\n  server_name web01.lab.example;\n  root /srv/www;\n}\n' > roles/web/files/sites/web01.conf
printf '0 3 * * * root /usr/local/bin/backup --host web01\n' > roles/web/files/cron.d/web01
printf '[Timer]\nOnCalendar=daily\nUnit=backup.service\n' > roles/web/files/systemd/web01.timer
cat > roles/web/tasks/main.yml <<'EOT'
- name: vhosts
  ansible.builtin.copy:
    src: "{{ item }}"
    dest: /etc/nginx/sites-enabled/
  with_fileglob: "sites/*.conf"
- name: cron jobs
  ansible.builtin.copy:
    src: cron.d/
    dest: /etc/cron.d/
- name: timers
  ansible.builtin.copy:
    src: "{{ item }}"
    dest: /etc/systemd/system/
  with_fileglob: "systemd/*.timer"
EOT
commit
run_all 2>&1 | grep -E '^(rc|==|verify|rename|similarity|[-+][^-+]| .*=>)'
