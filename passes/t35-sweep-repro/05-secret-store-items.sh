#!/bin/bash
# 05 (sev 1): docs/matching.md says an ExternalSecret's `remoteRef.key` "names an item of the
# secret store (Vault, 1Password) that no sweep renames: a residual state-name". The same
# items named by every other consumer are rewritten: Terraform's `vault_generic_secret` path,
# Ansible's hashi_vault lookup, `vault kv get`, a Vault Agent template's `secret "..."`,
# 1Password `op://` references and `bw get`. The store still holds secret/web01/db, so each
# read fails after the sweep. The Ansible line is also masked on both sides of the diff
# ("1 line changes inside a masked value"): the operator cannot see the path move.
# exit 0, verify --strict OK (the ExternalSecret control, in a second repo, is a residual).
. "$(dirname "$0")/lib.sh"
mkrepo 05; cfg '{web01: app01}' '{}'
mkdir -p k8s ansible vault-agent
printf 'data "vault_generic_secret" "db" { path = "secret/web01/db" }\n' > vault.tf
printf -- '- set_fact:\n    db_pw: "{{ lookup('"'"'community.hashi_vault.hashi_vault'"'"', '"'"'secret=secret/data/web01/db:password'"'"') }}"\n- shell: vault kv get -field=password secret/web01/db\n' > ansible/tasks.yml
printf '{{ with secret "secret/data/web01/db" }}DB_PASSWORD={{ .Data.data.password }}{{ end }}\n' > vault-agent/db.env.ctmpl
printf '#!/bin/sh\nexport DB_PASSWORD="$(op read op://Homelab/web01/password)"\nexport API_KEY="$(bw get password web01)"\n' > load-secrets.sh
# control (a second repo below): the ExternalSecret naming the same item is a residual
ES() { printf 'apiVersion: external-secrets.io/v1beta1\nkind: ExternalSecret\nmetadata: {name: db}\nspec:\n  secretStoreRef: {name: vault, kind: ClusterSecretStore}\n  target: {name: db}\n  data:\n  - secretKey: password\n    remoteRef: {key: secret/web01/db, property: password}\n' > k8s/es.yaml; }
commit
echo "== dry run (default masking)"; renamer --color never sweep --dry-run 2>&1 | grep -E '^[-+][^-+]|masked'
run_all
echo "== control: the ExternalSecret naming the same item"
mkrepo 05-control; cfg '{web01: app01}' '{}'; mkdir -p k8s; ES; commit
renamer --color never verify 2>&1 | cut -c1-200
