#!/bin/bash
# Finding: records-common keeps applied migrations of Flyway/Liquibase/Django/Alembic/Rails/Prisma and
# numbered files of migrations/, but not the same record of other migration tools, each a default layout:
# Doctrine (Symfony) migrations/Version20240101120000.php, Yii migrations/m240101_120000_x.php,
# MikroORM migrations/Migration20240101120000.ts, TypeORM src/migration/1704067200000-Init.ts,
# Hasura migrations/default/1704067200000_init/up.sql, Drizzle drizzle/0000_init.sql, Sqitch deploy/x.sql
# (with sqitch.plan). Each is rewritten: sweep 0, verify OK, audit lists nothing kept.
R=${RENAMER:-/work/t37-break/.venv/bin/renamer}
D=/tmp/t37-break/r03; rm -rf $D; mkdir -p $D; cd $D; git init -q; git config user.email t@t; git config user.name t
cat > renamer.yaml <<'Y'
version: 1
renames:
  hosts: {db01.lab.example: pg01.lab.example}
allowlist: allow.yaml
Y
printf 'version: 1\nextends: [records-common]\ncurrent: ["**"]\n' > allow.yaml
SQL="INSERT INTO replicas (host) VALUES ('db01.lab.example');"
mkdir -p migrations src/migration hasura/migrations/default/1704067200000_init drizzle sqitch/deploy db/migrations
echo "<?php final class Version20240101120000 extends AbstractMigration { public function up(Schema \$s): void { \$this->addSql(\"$SQL\"); } }" > migrations/Version20240101120000.php
echo "<?php class m240101_120000_replicas extends Migration { public function up() { \$this->execute(\"$SQL\"); } }" > migrations/m240101_120000_replicas.php
echo "export class Migration20240101120000 extends Migration { async up() { this.addSql(\"$SQL\"); } }" > migrations/Migration20240101120000.ts
echo "export class Init1704067200000 { async up(q) { await q.query(\"$SQL\"); } }" > src/migration/1704067200000-Init.ts
echo "$SQL" > hasura/migrations/default/1704067200000_init/up.sql
echo "$SQL" > drizzle/0000_init.sql
echo "$SQL" > sqitch/deploy/replicas.sql
printf '%%syntax-version=1.0.0\n%%project=lab\nreplicas 2024-01-01T12:00:00Z ops <ops@lab> # replicas\n' > sqitch/sqitch.plan
echo "$SQL" > db/migrations/20240101120000_replicas.sql   # dbmate: kept (control)
git add -A; git commit -qm init
$R sweep; echo "sweep rc=$?"
git diff --stat
$R audit | grep -i migration | head; echo "(expected: every file above kept as an applied migration, like the dbmate control; actual: rewritten)"
