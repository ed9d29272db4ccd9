"""t36 finding 11 (issue 27), end to end through the CLI: applied database migrations are records
(`records-common`'s `migrations` class), kept as they ran, listed by `audit` with the reason: a
Flyway versioned script rewritten no longer matches the checksum Flyway stored when it ran
("Migration checksum mismatch": its next run fails), and a Django, Alembic or Rails migration
rewritten builds another database than the live one. A repeatable Flyway script (`R__`), which
Flyway runs again when it changes, and the live configuration beside them still move."""

from __future__ import annotations

import zlib

CONFIG = ("version: 1\nrenames:\n  hosts:\n    web01: app01\n  addresses:\n    10.0.0.70: 10.0.1.90\n"
          "allowlist: allow.yaml\n")
ALLOW = "version: 1\nextends: [records-common]\ncurrent: ['**']\n"
SQL = "INSERT INTO hosts(name, addr) VALUES ('web01', '10.0.0.70');\n"


def _flyway_checksum(text: str) -> int:
    """Flyway's checksum of a script: CRC32 over its lines, without their line breaks, signed."""
    crc = 0
    for line in text.splitlines():
        crc = zlib.crc32(line.encode(), crc)
    return (crc + 2**31) % 2**32 - 2**31


KEPT = {
    "db/migration/V1__init.sql": SQL,  # the report's: Flyway
    "app/migrations/0002_seed.py": ("from django.db import migrations\n\ndef fwd(apps, schema):\n"
                                    "    apps.get_model('inv', 'Host').objects.create(name='web01', addr='10.0.0.70')\n"),  # report
    "alembic/versions/a1b2_seed.py": "revision = 'a1b2'\ndef upgrade():\n    op.execute(\"INSERT INTO hosts VALUES ('web01')\")\n",
    # variants of our own: Flyway elsewhere and a baseline, Flask-Migrate, Rails, Liquibase,
    # golang-migrate, Prisma, Laravel, EF Core
    "src/main/resources/db/migration/V2_1__hosts.sql": SQL,
    "sql/B5__baseline.sql": SQL,
    "migrations/versions/9f3_seed.py": "def upgrade():\n    op.execute(\"UPDATE hosts SET addr='10.0.0.70'\")\n",
    "db/migrate/20250301120000_add_web01.rb": "class AddWeb01 < ActiveRecord::Migration[7.1]\n  def up\n"
                                              "    execute \"INSERT INTO hosts VALUES ('web01')\"\n  end\nend\n",
    "db/changelog/db.changelog-1.0.sql": "--liquibase formatted sql\n--changeset ops:1\n" + SQL,
    "db/migrations/000001_seed.up.sql": SQL,
    "prisma/migrations/20250301_seed/migration.sql": SQL,
    "database/migrations/2025_03_01_000000_seed_hosts.php": "<?php\nDB::table('hosts')->insert(['name' => 'web01']);\n",
    "Data/Migrations/20250301120000_SeedHosts.cs": "migrationBuilder.InsertData(\"hosts\", \"name\", \"web01\");\n",
    # t37-break finding 03, other tools' default layouts: Doctrine, Yii, MikroORM, TypeORM, Hasura,
    # Drizzle, Sqitch; and knex's JavaScript
    "migrations/Version20240101120000.php": "<?php\n$this->addSql(\"INSERT INTO hosts VALUES ('web01')\");\n",
    "console/migrations/m240101_120000_hosts.php": "<?php\n$this->execute(\"INSERT INTO hosts VALUES ('web01')\");\n",
    "src/migrations/Migration20240101120000.ts": "this.addSql(\"INSERT INTO hosts VALUES ('web01')\");\n",
    "src/migration/1704067200000-Init.ts": "await q.query(\"INSERT INTO hosts VALUES ('web01')\");\n",
    "hasura/migrations/default/1704067200000_init/up.sql": SQL,
    "drizzle/0000_init.sql": SQL,
    "sqitch/deploy/hosts.sql": SQL,
    "db/migrations/20240101_seed.js": "exports.up = (knex) => knex('hosts').insert({name: 'web01'});\n",
}
LIVE = {
    "sql/R__host_view.sql": "CREATE OR REPLACE VIEW primary_host AS SELECT 'web01' AS name;\n",  # run again on change
    "db/migrations/README.md": "Seeds reach web01 at 10.0.0.70.\n",
    "app/settings.py": "DB_HOST = 'web01'\n",
    # t37-break finding 02: what runs the migrations, in a folder named for them, is live
    "deploy/migrations/01-migrate-job.yaml": "args: [\"-database\", \"postgres://app@web01:5432/app\", \"up\"]\n",
    "db/migrate/run.rb": "ActiveRecord::Base.establish_connection(host: \"web01\")\n",
    "migrations/README.md": "Run against web01.\n",
}


def test_applied_migrations_are_kept_as_records_and_listed(repo, run) -> None:
    root = repo({**KEPT, **LIVE}, config=CONFIG, allowlist=ALLOW)
    applied = _flyway_checksum(SQL)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 0, swept.stderr
    for name, text in KEPT.items():
        assert (root / name).read_text() == text, name  # before: Flyway's, Django's, Alembic's rewritten
    assert _flyway_checksum((root / "db/migration/V1__init.sql").read_text()) == applied  # validate passes
    assert (root / "sql/R__host_view.sql").read_text() == LIVE["sql/R__host_view.sql"].replace("web01", "app01")
    assert (root / "db/migrations/README.md").read_text() == "Seeds reach app01 at 10.0.1.90.\n"
    assert (root / "app/settings.py").read_text() == "DB_HOST = 'app01'\n"
    for name in ("deploy/migrations/01-migrate-job.yaml", "db/migrate/run.rb", "migrations/README.md"):
        assert (root / name).read_text() == LIVE[name].replace("web01", "app01"), name
    audit = run(root, "audit")
    assert audit.exit_code == 0, audit.stdout
    head = ("migrations (30): an applied migration is what ran against the database, under the names of "
            "its time (Flyway and Liquibase refuse to run once its checksum changes); change the data with a "
            "new migration")
    assert head in audit.stdout, audit.stdout
    listed = audit.stdout.split(head)[1].split("\n\n")[0]
    for name in KEPT:
        assert f"  {name}:" in listed, (name, listed)
    assert run(root, "verify", "--strict").exit_code == 0
