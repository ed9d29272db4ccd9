"""renamer init on folders named for backups (break-it round 4, finding 7): the scripts, units and
crontabs that RUN the backup are live and swept; what the backup wrote (dated dumps, copies,
archives) stays a record; a file is a copy only when it is alike its original (the same bytes, or
near-identical), never for its name alone. init says why it chose each."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import git, init_and_commit

PAIRS = ("--from", "ana-ml2=fv-ml1", "--from", "10.250.50.54=10.251.50.54")
HOSTS = "10.250.50.54 ana-ml2\n"
SCRIPT = "#!/bin/sh\nset -eu\nrestic -r sftp:ana-ml2:/srv/restic backup /etc\n"
UNIT = "[Service]\nType=oneshot\nExecStart=/usr/local/bin/restic-backup.sh\nEnvironment=TARGET=ana-ml2\n"
TIMER = "[Timer]\nOnCalendar=daily\n# pushes to ana-ml2\n[Install]\nWantedBy=timers.target\n"

# (files, executable paths, the folder that is live, why init says it is)
LIVE_TOOLS = [
    pytest.param({"backup/restic-backup.sh": SCRIPT}, (), "backup/**", "a script with a #! line", id="shebang"),
    pytest.param({"backups/backup.timer": TIMER}, (), "backups/**", "a systemd unit", id="timer"),
    pytest.param({"backups/backup.service": UNIT}, (), "backups/**", "a systemd unit", id="service"),
    pytest.param({"bak/crontab": "0 3 * * * pg_dump -h ana-ml2 app > /srv/db.sql\n"}, (), "bak/**",
                 "a crontab", id="crontab"),
    pytest.param({"backup/prune": "restic forget --keep-daily 7 -r sftp:ana-ml2:/srv\n"}, ("backup/prune",),
                 "backup/**", "an executable file", id="executable-bit"),
    pytest.param({"backups/rotate.py": "HOST = 'ana-ml2'\n",
                  "etc/cron.d/rotate": "30 4 * * * root python3 /opt/backups/rotate.py\n"}, (),
                 "backups/**", "a script etc/cron.d/rotate runs", id="named-by-a-live-crontab"),
    pytest.param({"ops/backups/pg.sh": "pg_dump -h ana-ml2 app\n",
                  "ops/playbook.yml": "- hosts: db\n  tasks:\n    - copy: {src: backups/pg.sh, dest: /usr/local/bin/}\n"},
                 (), "ops/backups/**", "a script ops/playbook.yml runs", id="named-by-a-playbook"),
]


def _repo(repo: Callable[..., Path], files: dict[str, str], executable: tuple[str, ...] = ()) -> Path:
    root = repo(files, config=None, allowlist=None, commit=False)
    for rel in executable:
        os.chmod(root / rel, 0o755)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "initial")
    return root


@pytest.mark.parametrize(("files", "executable", "folder", "why"), LIVE_TOOLS)
def test_the_backup_tool_is_live_and_swept(files: dict[str, str], executable: tuple[str, ...], folder: str,
                                           why: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    base = folder.removesuffix("/**")
    # beside the tool: what it wrote, a dated folder of copies, a `.bak`, a copy of a live file
    records = {f"{base}/db-2026-01-05.sql": "INSERT INTO hosts VALUES ('ana-ml2');\n",
               f"{base}/2026-01-05/hosts": HOSTS, f"{base}/hosts.bak": HOSTS, f"{base}/hosts": HOSTS}
    root = _repo(repo, {**files, **records, "etc/hosts": HOSTS}, executable)
    done = init_and_commit(root, run, PAIRS)
    tool = next(rel for rel in files if rel.startswith(base + "/"))
    assert f"  {folder}  ({tool}: {why})" in done.stdout, done.stdout
    assert "Could not classify" not in done.stdout, done.stdout
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 0, swept.stdout + swept.stderr
    for rel in files:
        assert "ana-ml2" not in (root / rel).read_text(), rel
    if executable:
        assert os.access(root / tool, os.X_OK), tool  # the sweep keeps the mode
    for rel, text in records.items():
        assert (root / rel).read_text() == text, rel
    assert "fv-ml1" in (root / "etc/hosts").read_text()
    assert run(root, "verify", "--strict").exit_code == 0


def test_a_folder_of_dumps_and_copies_is_a_record_and_init_says_why(repo: Callable[..., Path],
                                                                   run: Callable[..., Result]) -> None:
    files = {"backups/2026-01-05/etc/hosts": HOSTS, "backups/hosts-2026-01-05": HOSTS,
             "backups/pg.sql": "INSERT INTO hosts VALUES ('ana-ml2');\n",
             # a script, but a copy: the same bytes as the live one, or in a dated folder, or a .bak
             "backups/deploy.sh": SCRIPT, "scripts/deploy.sh": SCRIPT,
             "backups/2026-01-05/restic-backup.sh": SCRIPT, "backups/run.sh.bak": SCRIPT,
             "backups/backup.service.2026-01-05": UNIT}
    root = _repo(repo, files)
    done = init_and_commit(root, run, PAIRS)
    assert "Folders named for backups with no backup tool in them" in done.stdout and "backups/**" in done.stdout
    assert "Live configuration or tooling" not in done.stdout, done.stdout
    assert run(root, "sweep", "--commit").exit_code == 0
    for rel, text in files.items():
        assert ((root / rel).read_text() == text) == (rel != "scripts/deploy.sh"), rel
    assert run(root, "verify", "--strict").exit_code == 0


def test_a_same_named_file_of_other_bytes_is_no_original(repo: Callable[..., Path],
                                                         run: Callable[..., Result]) -> None:
    """`backup/compose.yml` runs the backup service; the `compose.yml` above it runs the app: a name
    in common is no copy. A near-identical file under the same name (one line edited since) is."""
    app = "services:\n  app:\n    image: app:2\n    environment:\n      DB_HOST: ana-ml2\n"
    restic = "services:\n  restic:\n    image: restic/restic\n    command: backup -r sftp:ana-ml2:/srv\n"
    config = "".join(f"key{n} = value{n}\n" for n in range(9)) + "host = ana-ml2\n"
    older = config.replace("value3", "value3-old")  # 9 of 10 lines alike: a copy
    settings = "[db]\nhost = ana-ml2\nport = 5432\nuser = app\n"
    files = {"compose.yml": app, "backup/compose.yml": restic,
             "app.ini": config, "backup/app.ini": older,  # near-identical: a copy, kept
             "etc/settings.ini": settings, "backup/settings.ini": "host = ana-ml2\n",  # too short to be one
             "svc/backups/.env": "TARGET=ana-ml2\nKEEP=7\n", "svc/.env": "APP_DB=ana-ml2\n"}
    root = _repo(repo, files)
    done = init_and_commit(root, run, PAIRS)
    assert "  backup/**  (backup/compose.yml: live configuration)" in done.stdout, done.stdout
    assert "  svc/backups/**  (svc/backups/.env: live configuration)" in done.stdout, done.stdout
    assert "a copy of app.ini" in next((root / "allowlists").glob("*.yaml")).read_text()
    assert run(root, "sweep", "--commit").exit_code == 0
    for rel in files:
        assert ("ana-ml2" in (root / rel).read_text()) == (rel == "backup/app.ini"), rel
    assert (root / "backup/app.ini").read_text() == older
    assert run(root, "verify", "--strict").exit_code == 0
