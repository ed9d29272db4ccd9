#!/bin/bash
# Finding: records-common `migrations` keeps live files that only stand in a folder named for migrations:
# a numbered Kubernetes Job manifest that RUNS the migrations (deploy/migrations/01-migrate-job.yaml, its
# database URL naming the old host; numbered for Argo CD sync-wave order) and a helper script under
# db/migrate/ with no version in its name. Both kept as "applied migrations": the sweep changes nothing,
# verify --strict OK, the Job keeps connecting to the old host.
R=${RENAMER:-/work/t37-break/.venv/bin/renamer}
D=/tmp/t37-break/r15; rm -rf $D; mkdir -p $D; cd $D; git init -q; git config user.email t@t; git config user.name t
cat > renamer.yaml <<'Y'
version: 1
renames:
  hosts: {db01.lab.example: pg01.lab.example}
allowlist: allow.yaml
Y
printf 'version: 1\nextends: [records-common]\ncurrent: ["**"]\n' > allow.yaml
mkdir -p deploy/migrations db/migrate
cat > deploy/migrations/01-migrate-job.yaml <<'Y'
apiVersion: batch/v1
kind: Job
metadata: {name: migrate, annotations: {argocd.argoproj.io/sync-wave: "-1"}}
spec:
  template:
    spec:
      containers:
        - name: migrate
          image: migrate/migrate:v4.17.0
          args: ["-path", "/migrations", "-database", "postgres://app@db01.lab.example:5432/app", "up"]
      restartPolicy: Never
Y
cat > db/migrate/run.rb <<'Y'
ActiveRecord::Base.establish_connection(host: "db01.lab.example")
Y
git add -A; git commit -qm init
$R sweep --dry-run 2>&1 | grep -E '^Summary|^Kept'
$R audit 2>&1 | grep -A4 '^migrations' | cut -c1-160
$R verify --strict | tail -1; echo "(expected: both rewritten: neither is an applied migration)"
