"""Backup storage named from the machine's own name at run time (break-it round 16, finding 3).

resticprofile's `repository: "rest:http://nas:8000/{{ inventory_hostname }}/volumes"`, a
`BORG_REPO=ssh://borg@nas/./{{ ansible_hostname }}`, `restic -r sftp:nas:/srv/restic/$(hostname -s)`,
NixOS `services.restic.backups.x.repository = "s3:.../${config.networking.hostName}"`, borg's
own `{hostname}` placeholder: no byte spells the host, so nothing is rewritten, yet renaming the
host moves its backups to a new, empty repository (resticprofile's `initialize: true` and
`borg init` create it without a word), and the old snapshots are no longer listed or pruned.
Like a compose project's name (state_names.py), the location keys state the repo does not hold:
each such line is a `state-name` residual while the renames move a host, naming the line and
why. Pure: bytes in, spans out.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from renamer import lazy_re

# One of these stands in every file `might_hold` accepts (the scan's prefilter words).
LITERALS = (b"restic", b"RESTIC_", b"borg", b"BORG_", b"kopia", b"KOPIA_", b"repositor", b"rsync", b"rclone",
            b"duplicity", b"rdiff-backup", b"BACKUP_", b"backup_",
            # break-it round 19, finding 4: more copy tools, and a destination named for what it holds
            b"scp", b"zfs", b"syncoid", b"btrfs", b"DEST", b"dest_", b"SNAPSHOT", b"snapshot")

# Where a backup tool is told its repository: a variable, a key (borgmatic's `- path:` under its
# `repositories:`), or a flag on the tool's own command line.
# ... and any variable of a backup tool naming where it writes (break-it round 17, finding 12):
# `KOPIA_REPO_PATH=`, `BACKUP_DEST=`, `rsync_target:`, `backup_dir:`.
_VARIABLE = lazy_re.compile(rb"(?<![A-Za-z0-9_])(?P<name>RESTIC_REPOSITORY|BORG_REPO|KOPIA_REPOSITORY"
                       rb"|(?i:(?:restic|borg|kopia|rclone|rsync|duplicity|backups?)_[a-z0-9_]{1,64})"
                       rb"|(?:DEST(?:INATION)?|SNAPSHOTS?_[A-Z0-9_]{1,64}|[A-Z0-9]{1,32}_DEST(?:_[A-Z0-9]{1,32})?)"
                       # never a bare `dest:` (Ansible's template and copy modules)
                       rb"|(?:snapshots?_[a-z0-9_]{1,64}|[a-z0-9]{1,32}_dest(?:_[a-z0-9]{1,32})?))"
                       rb"(?![A-Za-z0-9_])[\"']?[ \t]*[=:][^\r\n]*")
_LOCATION = lazy_re.compile(rb"(?i:repo|path|dir|dest|target|location|remote|bucket|prefix|snapshot)")
_KEY = re.compile(rb"(?<![A-Za-z0-9_-])(?:repository|repo|repositories)[\"']?[ \t]*[=:][^\r\n]*"
                  rb"|(?m:^)[ \t]*-[ \t]+path[ \t]*:[^\r\n]*"
                  rb"|(?m:^)[ \t]*-[ \t]+(?![A-Za-z_]+[ \t]*:)[^\r\n]*")
_COMMAND = lazy_re.compile(rb"(?<![A-Za-z0-9_-])(?:restic|borg|kopia)(?![A-Za-z0-9_-])[^\r\n|;&]*")
# A copy tool's own command line: every argument is a source or a destination (`rsync -a /srv/
# "nas:/backups/$(uname -n)/"`, `rclone sync /srv remote:bk/{{ ansible_nodename }}`).
# ... and scp, `zfs recv`, syncoid, `btrfs receive` (break-it round 19, finding 4: `ssh nas zfs recv -F
# backup/$(uname -n)/data`, `scp -r /etc "nas:/srv/etc-copies/$HOSTNAME/"`).
_COPY = lazy_re.compile(rb"(?<![A-Za-z0-9_-])(?:rsync|rclone|duplicity|rdiff-backup|scp|syncoid"
                   rb"|zfs[ \t]+(?:recv|receive)|btrfs[ \t]+receive)(?![A-Za-z0-9_-])[^\r\n|;&]*")
# a word, a command substitution or a Jinja template inside it (borg's
# `nas:/srv/borg/{{ ansible_hostname }}::daily`)
_VALUE = rb"(?:\$\([^)\r\n]*\)|`[^`\r\n]*`|\{\{[^}\r\n]{0,200}\}\}|\S)+"
_FLAG = lazy_re.compile(rb"(?<![A-Za-z0-9_-])(?:-r|--repo|--repository|--path|--prefix)(?:[ \t]+|=)" + _VALUE
                   + rb"|(?<![A-Za-z0-9_-])(?:init|create|list|prune|check)[ \t]+(?:-\S+[ \t]+)*" + _VALUE)
# The machine's own name, as each tool or template spells it.
_OWN_NAME = re.compile(
    rb"\{\{-?[ \t]*(?:inventory_hostname(?:_short)?|ansible_(?:hostname|fqdn|nodename)"
    rb"|ansible_facts\.(?:hostname|fqdn|nodename)|ansible_facts\[['\"](?:hostname|fqdn|nodename)['\"]\])"
    rb"[ \t]*(?:\|[^}]*)?-?\}\}"
    rb"|\$\([ \t]*(?:hostname(?:[ \t]+-[sfA-Za-z-]+)?|uname[ \t]+-n|cat[ \t]+/etc/hostname)[ \t]*\)"
    rb"|`[ \t]*(?:hostname|uname[ \t]+-n)[^`]*`"
    rb"|\$\{?HOSTNAME\}?|%(?<!%%)[Hl](?![A-Za-z0-9_])"
    rb"|config\.networking\.(?:hostName|fqdn)|\{(?:hostname|fqdn)\}|%\{(?:::)?(?:facts\.)?(?:hostname|fqdn)\}"
    # Python's, Node's and Go's (break-it round 19, finding 4:
    # `f"/mnt/nas/snapshots/{socket.gethostname()}"`)
    rb"|socket\.(?:gethostname|getfqdn)\(\)|platform\.node\(\)|os\.uname\(\)(?:\.nodename|\[1\])"
    rb"|os\.hostname\(\)|os\.Hostname\(\)")
_TOOL = re.compile(rb"restic|borg|kopia|rsync|rclone|duplicity|rdiff-backup|scp|syncoid"
                   rb"|zfs[ \t]+(?:recv|receive)|btrfs[ \t]+receive", re.IGNORECASE)


def might_hold(data: bytes) -> bool:
    return any(word in data for word in LITERALS) and _OWN_NAME.search(data) is not None


def locations(rel: str, data: bytes) -> Iterator[tuple[int, int, str]]:
    """(start, end, the template) of each machine's-own-name template inside a backup tool's
    repository location in `data` (a file naming restic, borg or kopia, in its path or text)."""
    if not might_hold(data):
        return
    spans = [m.span() for m in _VARIABLE.finditer(data)  # its name says whose location it is
             if _LOCATION.search(m.group("name"))]
    if not (_TOOL.search(data) or _TOOL.search(rel.encode())):
        yield from _own_names(data, spans)
        return
    for key in _KEY.finditer(data):
        text = key.group().lstrip()
        if text.startswith(b"-"):  # a list item: only under borgmatic's `repositories:`
            above = data.rfind(b"repositories", max(0, key.start() - 400), key.start())
            if above < 0:
                continue
        spans.append(key.span())
    for command in _COMMAND.finditer(data):
        spans += [f.span() for f in _FLAG.finditer(data, command.start(), command.end())]
    spans += [copy.span() for copy in _COPY.finditer(data)]
    yield from _own_names(data, spans)


def _own_names(data: bytes, spans: list[tuple[int, int]]) -> Iterator[tuple[int, int, str]]:
    seen: set[int] = set()
    for start, end in sorted(spans):
        for own in _OWN_NAME.finditer(data, start, end):
            if own.start() not in seen:
                seen.add(own.start())
                yield own.start(), own.end(), own.group().decode("utf-8", "replace")


def location_spans(rel: str, data: bytes, copies: bool = True) -> list[tuple[int, int]]:
    """(start, end) of each backup tool's repository location or copy destination in `data`,
    whatever spells the machine in it (break-it round 23, finding 13: a literal `.../web01` keys
    the same state as `.../$(hostname -s)`). The same grammar as `locations`, without its own-name
    prefilter: a variable naming where a backup tool writes anywhere; a `repository`/`repo` key,
    borgmatic's list, a restic/borg/kopia `-r`/`--repo`/positional argument and every argument of
    a copy tool's command line only in a file whose path or text names the tool (`copies`: False
    leaves the copy tools out)."""
    if not any(word in data for word in LITERALS):
        return []
    spans = [m.span() for m in _VARIABLE.finditer(data) if _LOCATION.search(m.group("name"))]
    if not (_TOOL.search(data) or _TOOL.search(rel.encode())):
        return spans
    for key in _KEY.finditer(data):
        if key.group().lstrip().startswith(b"-") \
                and data.rfind(b"repositories", max(0, key.start() - 400), key.start()) < 0:
            continue
        spans.append(key.span())
    for command in _COMMAND.finditer(data):
        spans += [f.span() for f in _FLAG.finditer(data, command.start(), command.end())]
    if copies:  # rsync/scp/rclone arguments: not for a literal name (state_locations.keyed)
        spans += [copy.span() for copy in _COPY.finditer(data)]
    return sorted(spans)
