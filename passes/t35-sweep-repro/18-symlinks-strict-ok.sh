#!/bin/bash
# 18 (sev 2): symlinks whose target names the old host (a deployed `sites-enabled/default ->
# /etc/nginx/sites-available/web01.lab.example.conf`, `cert.pem -> /srv/certs/web01.lab.example/
# fullchain.pem`) are listed "Skipped, holding old values", yet `verify --strict` says OK
# and counts none of them as skipped unread - contrary to issue 27 item 15 ("a current-state file
# skipped ... that holds an old value fails verify --strict"). After the move certbot writes
# /srv/certs/app01.lab.example/, and the link deploys pointing at the old name.
. "$(dirname "$0")/lib.sh"
mkrepo 18; cfg '{web01.lab.example: app01.lab.example}' '{}'
mkdir -p nginx/sites-enabled
printf 'server { server_name web01.lab.example; ssl_certificate /etc/nginx/cert.pem; }\n' > nginx/site.conf
ln -s /etc/nginx/sites-available/web01.lab.example.conf nginx/sites-enabled/default
ln -s /srv/certs/web01.lab.example/fullchain.pem nginx/cert.pem
commit
run_all
