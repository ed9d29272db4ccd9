"""renamer init's names that say "a copy of what was": backup and archive folders
(`previous_records/`, `old/`, `attic/`, `dumps/`) and backup file names (`db.zone.save.1`,
`hosts.bak2`, `compose.old.yml`, `nginx.conf~`). A backup keeps the names of its time on
purpose: rewriting it destroys the copy someone would roll back to (issue 27, init item 1: a zone
repo's `previous_records/**` and `db.x.save.1` were proposed as current and rewritten)."""

from __future__ import annotations

import re

from renamer import lazy_re
from renamer.classify import literal_pattern
from renamer.preset_folders import in_unit

# A folder named so holds copies, whatever its files look like. `backup*`, `archive*` and
# `previous*` as prefixes (`backups-2024`, `archive_zones`, `previous_records`); the other words
# whole or joined by a separator (`old`, `old-configs`, `nginx_old`), never inside a word
# (`fold`, `threshold`, `cold-storage` stay current).
BACKUP_FOLDER = lazy_re.compile(
    r"(?i)^\.?(?:previous.*|prev|backups?.*|archives?.*|archived|"
    r"(?:.*[-_.])?(?:old|olds|bak|baks|attic|dumps?|snapshots?|obsolete|retired)(?:[-_.].*)?|history)$")

# A file name ending so is a copy: an editor's or a package manager's leftover (`.save.1` is nano's
# numbered save, `~` an editor's), or a copy with the old marker before the extension
# (`compose.old.yml`, `hosts-bak.ini`). The marker must follow a separator: `fold.conf` is current.
_BACKUP_FILE = lazy_re.compile(
    r"(?i)(?:\.(?:bak|backup|old|orig|save|prev|dist|swp)(?:[.-]?\d+)?~?"
    r"|[-_](?:bak|backup|old|orig)\d*"
    r"|[._-](?:bak|backup|old|orig|prev|previous)\.[a-z0-9]{1,5}"
    r"|~)$")


# A script or unit named for the backup it runs (break-it round 4, finding 7).
_DOES_BACKUPS = lazy_re.compile(r"(?i)[._-]backups?\.(?:sh|bash|zsh|py|pl|rb|ps1|service|timer|socket|path)$")


def backup_file_pattern(name: str) -> str | None:
    """The pattern of the backup suffix `name` ends with (`**/*.save.[0-9]*` for `db.x.save.1`),
    or None when its name does not say it is a copy. Digits become a range: the next save
    (`.save.2`) is a backup too."""
    match = _BACKUP_FILE.search(name)
    if match is None or match.start() == 0:  # `.bak` alone, `~` alone: no name before the marker
        return None
    if _DOES_BACKUPS.search(name):  # `restic-backup.sh`, `pg_backup.timer`: what it does, not a copy
        return None
    parts = re.split(r"(\d+)", name[match.start():])
    suffix = "".join("[0-9]*" if part.isdigit() else literal_pattern(part) for part in parts)
    return "**/*" + suffix


def is_backup_folder(name: str) -> bool:
    return BACKUP_FOLDER.match(name) is not None


# What a backup tool is made of, not what a copy is: scripts, units, an Ansible role's folders.
_TOOLING_SUFFIX = lazy_re.compile(r"(?i)\.(?:sh|bash|py|pl|rb|ps1|service|timer|j2)$")
_ROLE_PARTS = {"roles", "tasks", "handlers", "templates", "defaults", "meta"}


def looks_like_tooling(rel: str, backup_folder: str) -> bool:
    """Whether `rel`, under a folder named for backups, may be the backup tool rather than a copy
    (`backup-scripts/run.sh`, `backup-playbooks/tasks/main.yml`): then init cannot tell, and asks."""
    parts = rel.split("/")
    return bool(_TOOLING_SUFFIX.search(parts[-1])) or bool(_ROLE_PARTS & set(parts[:-1]))


def is_role_name(backup_folder: str) -> bool:
    """Whether the folder named for backups is an Ansible role's or a Helm chart's own folder
    (`roles/backups_restic/`, `charts/backup/`) or lies inside one (`roles/web/files/backup/`): a
    role is code that runs today, its name says what it does, not that it is a copy."""
    return in_unit(backup_folder)
