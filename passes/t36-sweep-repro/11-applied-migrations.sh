#!/bin/bash
# 11 (sev 1): applied database migrations are history, and their tools check them. Flyway keeps
# each applied script's CRC32 checksum in flyway_schema_history and 'flyway migrate'/'validate'
# fails with "Migration checksum mismatch for migration version 1" once V1__init.sql changes;
# Django and Alembic migrations record what was run then (a fresh database built from the rewritten
# scripts differs from the live one, which ran the old text). Rails' db/migrate/ and a Liquibase
# changelog under db/changelog/ are left (kept); Flyway's db/migration/, Django, Alembic are rewritten.
# sweep --commit 0, verify --strict 0; nothing says the migration was applied history.
. "$(dirname "$0")/lib.sh"
mkrepo 11; cfg '{web01: app01}' '{10.0.0.70: 10.0.1.90}'
mkdir -p db/migration db/changelog db/migrate app/migrations alembic/versions
printf "INSERT INTO hosts(name, addr) VALUES ('web01', '10.0.0.70');\n" > db/migration/V1__init.sql
printf 'databaseChangeLog:\n  - changeSet:\n      id: 1\n      author: ops\n      changes:\n        - insert:\n            tableName: hosts\n            columns:\n              - column: {name: name, value: web01}\n' > db/changelog/001-hosts.yaml
printf "class AddWeb01 < ActiveRecord::Migration[7.1]\n  def up\n    execute \"INSERT INTO hosts VALUES ('web01')\"\n  end\nend\n" > db/migrate/20250301120000_add_web01.rb
printf "from django.db import migrations\n\ndef fwd(apps, schema):\n    apps.get_model('inv', 'Host').objects.create(name='web01', addr='10.0.0.70')\n\nclass Migration(migrations.Migration):\n    operations = [migrations.RunPython(fwd)]\n" > app/migrations/0002_seed.py
printf "revision = 'a1b2'\ndef upgrade():\n    op.execute(\"INSERT INTO hosts VALUES ('web01')\")\n" > alembic/versions/a1b2_seed.py
printf 'web01 ansible_host=10.0.0.70\n' > hosts.ini
commit
crc() { python3 -c 'import sys,zlib;c=0
for l in open(sys.argv[1],encoding="utf-8").read().splitlines(): c=zlib.crc32(l.encode(),c)
print((c+2**31)%2**32-2**31)' "$1"; }
echo "flyway checksum recorded when V1 was applied: $(crc db/migration/V1__init.sql)"
run_all 2>&1 | grep -E '^(rc|==|diff --git|[-+][^-+])'
echo "flyway checksum of V1 now:                    $(crc db/migration/V1__init.sql)   (flyway validate: Migration checksum mismatch)"
