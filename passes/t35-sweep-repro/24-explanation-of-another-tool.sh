#!/bin/bash
# 24 (sev 3): a residual's explanation names the wrong tool. An ExternalSecret's `remoteRef.key`
# (a Vault/1Password item) is a `state-name` residual whose text goes on about compose projects,
# COMPOSE_PROJECT_NAME, `-p`, Helm releases and "copy each volume into the new one" - advice that
# does not apply to a secret store item and buries the one line that does.
. "$(dirname "$0")/lib.sh"
mkrepo 24; cfg '{web01: app01}' '{}'
mkdir -p k8s
printf 'apiVersion: external-secrets.io/v1beta1\nkind: ExternalSecret\nmetadata: {name: db}\nspec:\n  secretStoreRef: {name: vault, kind: ClusterSecretStore}\n  target: {name: db}\n  data:\n  - secretKey: password\n    remoteRef: {key: secret/web01/db, property: password}\n' > k8s/es.yaml
commit
renamer --color never verify | fold -w 120
