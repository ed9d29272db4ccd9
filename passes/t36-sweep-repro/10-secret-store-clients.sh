#!/bin/bash
# 10 (sev 1): secret-store items named after the host, the neighbours of t35 finding 05's fix.
# Vault/1Password/Bitwarden/pass/SSM... are held (state-name); these clients of the same family are
# rewritten: LastPass `lpass show`, KeePassXC `keepassxc-cli show`, chamber (SSM by service),
# Doppler `--project`, Infisical `--path`, libsecret `secret-tool lookup`, macOS keychain
# `security find-generic-password -s`, and an Ansible lookup of a KeePass entry. The item stays
# under the old name in the store: each script now asks for an item that does not exist.
# sweep --commit 0, verify --strict 0.
. "$(dirname "$0")/lib.sh"
mkrepo 10; cfg '{web01: app01}' '{10.0.0.70: 10.0.1.90}'
mkdir -p scripts group_vars
printf '#!/bin/sh\nlpass show --password web01/root\n' > scripts/lpass.sh
printf '#!/bin/sh\nkeepassxc-cli show -a Password infra.kdbx web01/root\n' > scripts/keepass.sh
printf '#!/bin/sh\nchamber exec web01 -- ./run\nchamber read web01 db_password\n' > scripts/chamber.sh
printf '#!/bin/sh\ndoppler secrets get DB_PASSWORD --project web01 --plain\n' > scripts/doppler.sh
printf '#!/bin/sh\ninfisical secrets get DB_PASSWORD --path /web01\n' > scripts/infisical.sh
printf '#!/bin/sh\nsecret-tool lookup service ssh host web01\n' > scripts/libsecret.sh
printf '#!/bin/sh\nsecurity find-generic-password -s web01 -w\n' > scripts/keychain.sh
printf "root_pw: \"{{ lookup('viczem.keepass.keepass', 'infra/web01', 'password') }}\"\n" > group_vars/all.yml
commit
run_all 2>&1 | grep -E '^(rc|==|diff --git|[-+][^-+])'
