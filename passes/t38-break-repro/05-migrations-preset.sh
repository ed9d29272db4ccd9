#!/bin/bash
# Finding: records-common `migrations` after t37-break 02/03: (a) `**/db/changelog/**` keeps every file of
# Liquibase's folder, a live `liquibase.properties` connection URL and a `runOnChange="true"` changeset
# (Liquibase's twin of Flyway's repeatable R__, which the preset itself calls live) included: both keep the
# old database host, verify --strict OK. (b) applied migrations of Ecto (`priv/repo/migrations/*.exs`) and
# SeaORM (`migration/src/mYYYYMMDD_NNNNNN_*.rs`) are rewritten, audit lists none. Control: dbmate's kept.
R=${RENAMER:-/work/t38-break/.venv/bin/renamer}
D=/tmp/t38-break/r03; rm -rf $D; mkdir -p $D; cd $D; git init -q; git config user.email t@t; git config user.name t
cat > renamer.yaml <<'Y'
version: 1
renames:
  hosts: {db01: pg01}
allowlist: allow.yaml
Y
printf 'version: 1\nextends: [records-common]\ncurrent: ["**"]\n' > allow.yaml
mkdir -p priv/repo/migrations migration/src src/main/resources/db/changelog db/migrations
printf 'defmodule App.Repo.Migrations.Replicas do\n  use Ecto.Migration\n  def change do\n    execute "INSERT INTO replicas VALUES (\x27db01\x27)"\n  end\nend\n' > priv/repo/migrations/20240101120000_replicas.exs
printf 'use sea_orm_migration::prelude::*;\n// seeds replica db01\npub const HOST: &str = "db01";\n' > migration/src/m20240101_000001_replicas.rs
printf '<databaseChangeLog>\n <changeSet id="view-replicas" author="a" runOnChange="true">\n  <createView viewName="primary_replica" replaceIfExists="true">SELECT * FROM replicas WHERE host = \x27db01\x27</createView>\n </changeSet>\n</databaseChangeLog>\n' > src/main/resources/db/changelog/views.xml
printf 'url: jdbc:postgresql://db01:5432/app\nchangeLogFile: db.changelog-master.yaml\n' > src/main/resources/db/changelog/liquibase.properties
printf -- '-- migrate:up\nINSERT INTO replicas VALUES (\x27db01\x27);\n' > db/migrations/20240101120000_replicas.sql
git add -A; git commit -qm init
$R sweep 2>&1 | grep -E '^Summary|^Kept'; echo "sweep rc=${PIPESTATUS[0]}"
$R verify --strict | tail -1; echo "verify --strict rc=${PIPESTATUS[0]}"
echo "--- expected: liquibase.properties and the runOnChange view follow pg01; the Ecto and SeaORM migrations kept. actual:"
grep -rn -e db01 -e pg01 --include=*.properties --include=*.xml --include=*.exs --include=*.rs --include=*.sql .
