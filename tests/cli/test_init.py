"""renamer init on repos it has never seen, then a dry run straight away."""

from __future__ import annotations

from tests.testing.repos import snapshot

LAYOUT = {
    "compose/app.yaml": "services:\n  app:\n    hostname: old-db\n    env: [\"DB=10.9.8.7\"]\n",
    "ops/runbook.md": "# Runbook\nssh root@old-db\n",
    "README.md": "The database is old-db (10.9.8.7).\n",
    "notes/2026-01-10-disk.md": "old-db lost a disk\n",
    "journal/2026.md": "[2026-02-01] old-db rebooted\n",
    "decisions/why-postgres.md": "We chose Postgres on old-db.\n",
    "mixed/2026-03-01-plan.md": "moving old-db\n",
    "mixed/current.md": "old-db serves\n",
    "backups/compose.yaml.bak": "hostname: old-db\n",
    "untouched/other.md": "nothing to see\n",
}


def test_init_proposes_and_the_dry_run_works(repo, run) -> None:
    root = repo(LAYOUT, config=None, allowlist=None)
    result = run(root, "init", "--from", "old-db=new-db", "--from", "10.9.8.7=10.10.8.7")
    assert result.exit_code == 0, result.stderr
    assert "wrote renamer.yaml" in result.stderr
    allowlist = (root / "allowlists/new-db-move.yaml").read_text()
    assert "  - README.md\n" in allowlist and "  - compose/**\n" in allowlist and "  - ops/**\n" in allowlist
    assert "paths: [decisions/**]" in allowlist
    assert "#   mixed/current.md" in allowlist and "mixed/**" not in allowlist
    assert "untouched" not in allowlist
    assert "Could not classify (1; verify fails until you decide):\n  mixed/current.md" in result.stdout
    dry = run(root, "sweep", "--dry-run")
    assert dry.exit_code == 0, dry.stderr
    assert "+    hostname: new-db" in dry.stdout and "+ssh root@new-db" in dry.stdout
    assert "-old-db lost a disk" not in dry.stdout  # dated note: a record
    assert "-hostname: old-db" not in dry.stdout  # backup: records-common preset
    audit = run(root, "audit")
    assert "decisions (1)" in audit.stdout


def test_init_never_overwrites_without_force(repo, run) -> None:
    root = repo(LAYOUT, config="version: 1\nrenames: {hosts: {x: y}}\n", allowlist=None)
    before = snapshot(root)
    result = run(root, "init", "--from", "old-db=new-db")
    assert result.exit_code == 3
    assert result.stderr.endswith("renamer.yaml: already exists; pass --force to overwrite\n")
    assert snapshot(root) == before
    assert run(root, "init", "--from", "old-db=new-db", "--force").exit_code == 0
    assert "old-db: new-db" in (root / "renamer.yaml").read_text()


def test_init_rejects_bad_pairs(repo, run) -> None:
    root = repo(LAYOUT, config=None, allowlist=None)
    for args, message in (
        (["--from", "old-db"], "--from 'old-db': expected OLD=NEW"),
        (["--from", "old_db=new-db"], "invalid host name 'old_db'"),
        (["--from", "old-db=10.1.1.1"], "maps a host name to an address"),
    ):
        result = run(root, "init", *args)
        assert result.exit_code == 2 and message in result.stderr, result.stderr
    assert not (root / "renamer.yaml").exists()
