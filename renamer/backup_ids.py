"""The destination or identity a backup tool keeps its backups under, beyond restic, borg and kopia
(issue 27, t36-sweep finding 08; asked by sweep/own_storage.py beside state_keys.keyed).

Backups are kept under a name the tool was given: a remote's path (rclone `b2:lab-backups/web01/srv`,
rdiff-backup's destination), a Proxmox Backup Server datastore or namespace (`--repository
backup@pbs@pbs.lab:web01`, `PBS_REPOSITORY`, `--ns`, storage.cfg's `datastore`), Velero's
BackupStorageLocation `prefix:`/`bucket:` (and a Restore's `backupName:`, `velero ... --from-backup`),
rsnapshot's destination folder and `snapshot_root`, a Bacula or Bareos resource's name (`Job { Name =
"web01" }`, `Client = web01-fd`, `FileSet`, `Pool`: the catalog's job history and the incremental
chain are under them; bconsole's `job=`), UrBackup's `computername`, burp's `cname`, restic's
`--tag`, Veeam's job `--name`, a tarsnap archive's `-f` name, a kopia snapshot source
(`root@web01:/etc`). Renamed in the text, the next run writes a new, full chain under the new
name, the old backups stay under the old one and retention no longer reaches them. A host the
tool connects to (the location's host part, rsnapshot's source, a Bacula `Address`) is a machine
and follows. Pure: bytes in, a short description of what keys state out.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from renamer import lazy_re

LITERALS = (b"rclone", b"rdiff-backup", b"proxmox-backup", b"PBS_", b"datastore", b"BackupStorageLocation",
            b"velero", b"backupName", b"scheduleName", b"snapshot_root", b"rsnapshot", b"Job", b"Client",
            b"bconsole", b"computername", b"cname", b"restic", b"veeamconfig", b"tarsnap", b"kopia")

_RCLONE = lazy_re.compile(rb"(?<![\w/.-])rclone(?:[ \t]+-[\w-]+(?:=\S*)?)*[ \t]+(?:sync|copy|move|copyto"
                          rb"|moveto|bisync|check|cryptcheck|ls|lsd|lsl|lsf|lsjson|size|tree|delete|deletefile"
                          rb"|purge|rmdirs?|mkdir|dedupe|mount|nfsmount|serve[ \t]+\w+|cat|rcat"
                          rb"|backend[ \t]+\w+|cleanup|link|touch)(?![\w-])(?P<args>[^\r\n|;&)`#]*)")
# a remote's path: `NAME:path` (not a URL, not a Windows drive `C:\`), quoted or not
_REMOTE = lazy_re.compile(rb"""(?:(?<=[\s"'=])|^)(?P<remote>[A-Za-z0-9_.-]{2,}|[A-Za-z0-9_.-]*,[^\s:"']*):"""
                          rb"""(?!//)(?P<path>[^\s"']+)""")
_RDIFF = lazy_re.compile(rb"(?<![\w/.-])rdiff-backup(?P<args>[^\r\n|;&)`#]*)")
_PBS_REPO = lazy_re.compile(rb"""(?:--repository(?:[ \t]+|=)|\bPBS_REPOSITORY["']?[ \t]*[=:][ \t]*)["']?"""
                            rb"""(?P<loc>[^\s"']+)""")
_PBS_NS = lazy_re.compile(rb"""(?:--ns(?:[ \t]+|=)|\bPBS_NAMESPACE["']?[ \t]*[=:][ \t]*)["']?"""
                          rb"""(?P<v>[^\s"']+)""")
_PBS_CFG = lazy_re.compile(rb"(?m)^(?:pbs|datastore):[ \t]")
_PBS_KEY = lazy_re.compile(rb"^(?:datastore:[ \t]*|[ \t]+(?P<k>datastore|namespace|path)[ \t]+)(?P<v>\S+)")
_SECTION = lazy_re.compile(rb"(?m)^(?P<type>[a-z][\w-]*):[ \t]")
_BACULA_FILE = lazy_re.compile(rb"(?im)^[ \t]*(?:Type[ \t]*=[ \t]*(?:Backup|Restore)|FileSet[ \t]*[={]"
                               rb"|Catalog[ \t]*[={])")
_KIND = lazy_re.compile(rb"(?m)^kind:[ \t]*(?P<kind>BackupStorageLocation|Restore|Schedule|Backup)[ \t]*\r?$")
_VELERO_KEY = lazy_re.compile(rb"""^[ \t]*(?P<k>prefix|bucket|backupName|scheduleName)[ \t]*:[ \t]*["']?"""
                              rb"""(?P<v>[^\s"'#]+)""")
_VELERO_CLI = lazy_re.compile(rb"""(?<![\w/.-])velero[ \t]+(?:(?:backup|restore|schedule|backup-location"""
                              rb"""|snapshot-location)[ \t]+(?:create|delete|describe|logs|download|get|set"""
                              rb"""|pause|unpause)(?:[ \t]+-[\w-]+(?:=\S*)?)*[ \t]+["']?"""
                              rb"""(?P<v>[^\s"'-][^\s"']*)"""
                              rb"""|[^\r\n]*?--(?:from-backup|from-schedule|prefix|bucket)(?:[ \t]+|=)["']?"""
                              rb"""(?P<w>[^\s"']+))""")
_RSNAPSHOT = lazy_re.compile(rb"^(?:backup|backup_script)[ \t]+\S+[ \t]+(?P<v>[^\s#]+)|^snapshot_root[ \t]+"
                             rb"(?P<w>[^\s#]+)")
_BACULA_BLOCK = lazy_re.compile(rb"(?m)^[ \t]*(?:Job|JobDefs|Client|FileSet|Pool|Storage|Schedule|Director"
                                rb"|FileDaemon|Catalog)[ \t]*\{")
_BACULA_KEY = lazy_re.compile(rb"""(?i)^[ \t]*(?:name|client|fileset|job|jobdefs|pool|storage|catalog"""
                              rb"""|(?:full|incremental|differential|next|virtual[ \t]*full)[ \t]*"""
                              rb"""(?:backup[ \t]*)?pool)[ \t]*=[ \t]*(?P<q>"?)(?P<v>[^"\n#;]+?)(?P=q)"""
                              rb"""[ \t]*;?[ \t]*(?:#.*)?\r?$""")
_BCONSOLE = lazy_re.compile(rb"""\b(?:job|jobname|client|fileset|pool|storage)=["']?(?P<v>[^\s"']+)""")
_URBACKUP = lazy_re.compile(rb"""computername(?:["']?[ \t]*[=:][ \t]*|[ \t]+-v[ \t]+)["']?"""
                            rb"""(?P<v>[^\s"',;]+)""")
_BURP = lazy_re.compile(rb"^[ \t]*cname[ \t]*=[ \t]*(?P<v>\S+)")
_RESTIC_TAG = lazy_re.compile(rb"""--tag(?:[ \t]+|=)["']?(?P<v>[^\s"']+)""")
_VEEAM = lazy_re.compile(rb"""--name(?:[ \t]+|=)["']?(?P<v>[^\s"']+)""")
_TARSNAP = lazy_re.compile(rb"""(?:^|[ \t])(?:-f|--archive)(?:[ \t]+|=)["']?(?P<v>[^\s"']+)""")
_KOPIA_SOURCE = lazy_re.compile(rb"(?<![\w.-])[\w.-]+@(?P<v>[\w.-]+):(?:/|[A-Za-z]:\\)")


def might_hold(rel: str, data: bytes) -> bool:
    """Cheap: might `data` (of the file `rel`) spell one of the names this module reads?"""
    return any(word in data for word in LITERALS) or "rsnapshot" in rel or "burp" in rel


class _Facts(NamedTuple):
    """What a file is, read once per file (keyed is asked once per old name in it)."""

    pbs: bool
    pbs_cfg: bool
    velero: bool
    rsnapshot: bool
    bacula: bool
    burp: bool


@functools.lru_cache(maxsize=8)
def _facts(rel: str, data: bytes) -> _Facts:
    name = rel.rsplit("/", 1)[-1].lower()
    return _Facts(
        pbs=b"proxmox-backup" in data or "pbs" in name,
        pbs_cfg=(b"pbs:" in data or b"datastore:" in data) and _PBS_CFG.search(data) is not None,
        velero=b"kind:" in data and (b"BackupStorageLocation" in data or b"backupName" in data
                                     or b"scheduleName" in data),
        rsnapshot="rsnapshot" in name or b"snapshot_root" in data,
        bacula=(b"Job" in data or b"Client" in data) and _BACULA_BLOCK.search(data) is not None
        and _bacula(rel, data),
        burp="burp" in name or b"burp" in data)


def _line(data: bytes, start: int) -> tuple[int, bytes]:
    head = data.rfind(b"\n", 0, start) + 1
    tail = data.find(b"\n", start)
    return head, data[head:len(data) if tail < 0 else tail]


def _in(m_start: int, m_end: int, start: int, end: int) -> bool:
    return m_start <= start and end <= m_end


def keyed(rel: str, data: bytes, start: int, end: int) -> str | None:
    """What keeps backups under `data[start:end]` (an old name found there), in words, or None."""
    head, line = _line(data, start)
    at, to = start - head, end - head
    name = rel.rsplit("/", 1)[-1].lower()
    m: re.Match[bytes] | None
    if b"rclone" in line:
        for m in _RCLONE.finditer(line):
            for r in _REMOTE.finditer(line, m.start("args"), m.end("args")):
                if _in(r.start("path"), r.end("path"), at, to):
                    return ("an rclone remote's path (the copy kept there: renamed, the next sync starts a "
                            "new full copy and the old one is never pruned)")
    if b"rdiff-backup" in line:
        for r in _RDIFF.finditer(line):
            words = [w for w in _WORDS.finditer(line, r.start("args"), r.end("args"))
                     if not w.group().startswith(b"-")]
            if words and _in(words[-1].start(), words[-1].end(), at, to) \
                    and (line[:at].endswith((b"/", b"::")) or words[-1].start() == at):
                return "an rdiff-backup destination (its increments are kept there)"
    facts = _facts(rel, data)
    if b"proxmox-backup" in line or b"PBS_" in line or facts.pbs:
        for m in _PBS_REPO.finditer(line):
            loc = m.group("loc")
            store = m.start("loc") + loc.rfind(b":") + 1  # `[[user@]server[:port]:]datastore`
            if _in(store, m.end("loc"), at, to):
                return "a Proxmox Backup Server datastore (`--repository ...:DATASTORE`)"
        for m in _PBS_NS.finditer(line):
            if _in(m.start("v"), m.end("v"), at, to):
                return "a Proxmox Backup Server namespace (`--ns`)"
    if facts.pbs_cfg:
        m = _PBS_KEY.match(line)
        if m is not None and _in(m.start("v"), m.end("v"), at, to) and _pbs_section(data, head, line):
            return "a Proxmox Backup Server datastore or namespace (its backups are kept under it)"
    if facts.velero:
        m = _VELERO_KEY.match(line)
        if m is not None and _in(m.start("v"), m.end("v"), at, to) and _velero_kind(data, start,
                                                                                  m.group("k")):
            return ("a Velero backup location or backup (`prefix:`, `bucket:`, `backupName:`: velero lists "
                    "the backups kept under it)")
    if b"velero" in line:
        for m in _VELERO_CLI.finditer(line):
            g = "v" if m.group("v") is not None else "w"
            if _in(m.start(g), m.end(g), at, to):
                return "a Velero backup, schedule or location named on its command line"
    if facts.rsnapshot:
        m = _RSNAPSHOT.match(line)
        if m is not None:
            g = "v" if m.group("v") is not None else "w"
            if _in(m.start(g), m.end(g), at, to):
                return "rsnapshot's destination folder (its hard-link chain of snapshots is kept there)"
    if facts.bacula:
        m = _BACULA_KEY.match(line)
        if m is not None and _in(m.start("v"), m.end("v"), at, to):
            return ("a Bacula or Bareos resource's name (a Job, Client, FileSet or Pool: the catalog keeps "
                    "the job history and the incremental chain under it)")
    if b"bconsole" in line or "bconsole" in name:
        for m in _BCONSOLE.finditer(line):
            if _in(m.start("v"), m.end("v"), at, to):
                return "a Bacula or Bareos resource named to bconsole (`job=`, `client=`)"
    if b"computername" in line:
        for m in _URBACKUP.finditer(line):
            if _in(m.start("v"), m.end("v"), at, to):
                return "an UrBackup client's `computername` (the server keeps its backups under it)"
    if facts.burp:
        m = _BURP.match(line)
        if m is not None and _in(m.start("v"), m.end("v"), at, to):
            return "a burp client's `cname` (the server keeps its backups under it)"
    for word, pattern, what in _WORD_RULES:
        if word in line:
            for m in pattern.finditer(line):
                if _in(m.start("v"), m.end("v"), at, to):
                    return what
    return None


_WORDS = lazy_re.compile(rb"""[^\s"']+""")
_WORD_RULES = (
    (b"restic", _RESTIC_TAG, "a restic snapshot tag (`--tag`: `forget` and `restore` select by it)"),
    (b"veeamconfig", _VEEAM, "a Veeam Agent job's name (its backup chain is kept under it)"),
    (b"tarsnap", _TARSNAP, "a tarsnap archive's name (pruning and restores select archives by it)"),
    (b"kopia", _KOPIA_SOURCE, "a kopia snapshot source (`user@host:/path`: its snapshots are kept under it)"),
)


def _velero_kind(data: bytes, start: int, key: bytes) -> bool:
    """Is the key at `start` one of Velero's, in a document of the kind that has it?"""
    begin = data.rfind(b"\n---", 0, start)
    stop = data.find(b"\n---", start)
    doc = data[0 if begin < 0 else begin:len(data) if stop < 0 else stop]
    kind = _KIND.search(doc)
    if kind is None or b"velero.io" not in doc:
        return False
    if key in (b"prefix", b"bucket"):
        return kind.group("kind") == b"BackupStorageLocation"
    return kind.group("kind") in (b"Restore", b"Schedule", b"Backup")


def _pbs_section(data: bytes, head: int, line: bytes) -> bool:
    """Is `line` (at `head`) a datastore's header or key in PBS's datastore.cfg, or a `pbs:` storage's
    `datastore`/`namespace` in Proxmox VE's storage.cfg (not another storage's `path`)?"""
    if line.startswith(b"datastore:"):
        return True
    sections = list(_SECTION.finditer(data, 0, head))
    if not sections:
        return False
    section = sections[-1]
    key = line.split()[0]
    if section.group("type") == b"pbs":
        return key in (b"datastore", b"namespace")
    return section.group("type") == b"datastore"


def _bacula(rel: str, data: bytes) -> bool:
    """Is `data` a Bacula or Bareos configuration (by its path, or by what only they write)?"""
    low = rel.lower()
    return "bacula" in low or "bareos" in low or _BACULA_FILE.search(data) is not None
