"""renamer init's question about a folder named for backups, archives or history: does it hold live
configuration? A service is often named after what it does (`stacks/archivebox/`,
`stacks/backup-server/`, `k8s/pg-dump/`, `k8s/etcd-snapshot/`, `apps/history/`), and its compose
file or manifest is today's state, not a copy (issue 27, round 3 finding 11: five such stacks were
proposed as records and kept their old host). A word in a folder's name never decides alone:

* the folder is live when it holds a live-configuration file (a compose file, a Kubernetes manifest,
  an Ansible playbook, a `.env`, a Dockerfile, Terraform or Nomad) that is no copy;
* in a folder named `backup/`, `backups/` or `bak/`, so is the backup tool itself: a systemd unit,
  a crontab, an executable or a script a live file runs (scaffold_tooling.py, round 4 finding 7);
* such a file is a copy when its path below the folder has a date in a folder name
  (`backups/2024-01-05/compose.yml`) or is a machine's file tree (`backups/host1/etc/...`), when
  that path, two names or more, stands elsewhere in the repo (`backups/stacks/app/compose.yml` beside
  `stacks/app/compose.yml`), or when a file of the
  same name one folder up or outside every folder named for copies is alike (`scaffold_tooling.alike`:
  the same bytes, or near-identical; `old/compose.yml` beside an edited `../compose.yml`). A
  same-named file of other content is no original (round 4 finding 7: a backup server's
  `backups/compose.yml` is not the app's `compose.yml`); two live stacks may share a compose file,
  and neither is the other's copy.

Inside a live folder, what a backup tool writes (`*.sql`, `*.dump`, archives) stays a record.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Collection, Sequence

from renamer import lazy_re
from renamer.classify import FILE_DATE, literal_pattern
from renamer.preset_folders import copy_by_path
from renamer.scaffold_backups import BACKUP_FOLDER, backup_file_pattern, is_role_name
from renamer.scaffold_tooling import BACKUP_WORD, Mentions, alike, tooling_reason

# Live by their name alone: what a container runtime, compose or an orchestrator reads as it is.
_LIVE_NAME = lazy_re.compile(
    r"(?i)^(?:(?:docker-)?compose(?:[._-][\w.-]+)?\.ya?ml|[\w.-]+\.compose\.ya?ml|(?:[\w.-]+)?\.env"
    r"|Dockerfile(?:\.[\w.-]+)?|Containerfile|[\w.-]+\.dockerfile|kustomization\.ya?ml|Chart\.ya?ml"
    r"|helmfile\.ya?ml|[\w.-]+\.tf|[\w.-]+\.nomad(?:\.hcl)?)$")
_YAML = lazy_re.compile(r"(?i)\.ya?ml$")
# Live by their content: a Kubernetes manifest (apiVersion and kind at the top level), a compose
# file under another name (top-level `services:`), an Ansible playbook (a play with `hosts:`).
_MANIFEST = (re.compile(rb"(?m)^apiVersion:"), re.compile(rb"(?m)^kind:"))
_COMPOSE = lazy_re.compile(rb"(?m)^services:[ \t]*(?:#.*)?\r?$")
_PLAY = lazy_re.compile(rb"(?m)^-[ \t]+(?:hosts:|import_playbook:|ansible\.builtin\.import_playbook:)"
                   rb"|^-[ \t]+name:.*\r?\n[ \t]+hosts:")
# What a backup tool writes: its output is a copy even inside a live service's folder.
_OUTPUT = lazy_re.compile(r"(?i)\.(?:sql|dump|pgdump|bak|tar|tgz|gz|xz|zst|bz2|zip|7z|snap|db)$")


def is_live_config(name: str, data: bytes) -> bool:
    """Whether a file named `name` holding `data` is configuration something runs from today."""
    if _LIVE_NAME.match(name) and not name.lower().endswith((".env.example", ".env.sample")):
        return True
    if not _YAML.search(name):
        return False
    return all(p.search(data) for p in _MANIFEST) or bool(_COMPOSE.search(data) or _PLAY.search(data))


def is_tool_output(name: str) -> bool:
    return _OUTPUT.search(name) is not None


class Copies:
    """Whether a file under a folder named for copies is a copy: its path below that folder has a
    dated folder, stands from a folder above (`old/compose.yml` beside `compose.yml`) or ends another
    path (`archive/app/compose.yml`, `stacks/app/compose.yml`), or its bytes are those of a file
    outside every such folder, of the same name or (for configuration) of any YAML file."""

    def __init__(self, files: Sequence[str], read: Callable[[str], bytes],
                 executable: Callable[[str], bool] = lambda _rel: False) -> None:
        self.files = files
        self.listed = set(files)
        self._read = read
        self.executable = executable
        self._contents: dict[str, bytes] = {}
        self._by_name: dict[str, list[str]] = {}
        for rel in files:
            if not named_folders(rel):
                self._by_name.setdefault(posixpath.basename(rel), []).append(rel)
        self._by_size: dict[int, list[str]] | None = None

    def data(self, rel: str) -> bytes:
        if rel not in self._contents:
            self._contents[rel] = self._read(rel)
        return self._contents[rel]

    def original(self, rel: str, folder: str) -> str | None:
        """What `rel`, below `folder`, is a copy of (a path, or `a dated folder`); None when none."""
        below = rel[len(folder) + 1:]
        mine = self.data(rel)
        above = folder
        while above:
            above = posixpath.dirname(above)
            standing = posixpath.join(above, below)
            # a mirrored path of two names or more is a copy by its path; a name alone only when alike
            if standing in self.listed and ("/" in below or alike(mine, self.data(standing))):
                return standing
        if "/" in below:
            ends = [p for p in self.files if p.endswith("/" + below) and not p.startswith(folder + "/")]
            if ends:
                return ends[0]
        # no original in the repo: a dated folder or a machine's file tree still says copy
        by_path = copy_by_path(below.split("/"))
        if by_path is not None:
            return by_path
        named = [other for other in self._by_name.get(posixpath.basename(rel), []) if other != rel]
        found = next((other for other in named if alike(mine, self.data(other))), None)
        if found is not None:
            return found
        sized = self._sized().get(len(mine), []) if _could_be_live(rel) else []
        return next((other for other in sized if other != rel and self.data(other) == mine), None)

    def _sized(self) -> dict[int, list[str]]:
        """Configuration files outside every folder named for copies, by length: read once, on demand."""
        if self._by_size is None:
            self._by_size = {}
            for rel in self.files:
                if _could_be_live(rel) and not named_folders(rel):
                    self._by_size.setdefault(len(self.data(rel)), []).append(rel)
        return self._by_size


def live_folders(copies: Copies) -> dict[str, tuple[str, str]]:
    """The folders named for copies (as patterns, `stacks/archivebox/**`) that hold live configuration
    or, named for backups, the backup tool: each with the first live file found in it and why."""
    live: dict[str, tuple[str, str]] = {}
    mentions = Mentions([rel for rel in copies.files if not named_folders(rel)
                         or tooling_reason(rel, b"", False, lambda _n: None) is not None], copies.data)
    for rel in copies.files:
        folders = named_folders(rel)
        if not folders:
            continue
        name = posixpath.basename(rel)
        why: str | None = None
        if _could_be_live(rel) and is_live_config(name, copies.data(rel)):
            why, where = "live configuration", folders
        else:
            why = _tooling(rel, copies, mentions)
            where = [f for f in folders if BACKUP_WORD.match(f.rsplit("/", 1)[-1])]
        if why is None:
            continue
        for folder in where:
            pattern = literal_pattern(folder) + "/**"
            if pattern not in live and copies.original(rel, folder) is None:
                live[pattern] = (rel, why)
    return live


def _tooling(rel: str, copies: Copies, mentions: Mentions) -> str | None:
    """Why `rel` is the backup tool (scaffold_tooling.tooling_reason), unless its name says it is
    what a tool wrote or a copy (a dump, a dated name, a `.bak`)."""
    name = posixpath.basename(rel)
    if is_tool_output(name) or FILE_DATE.search(name) or backup_file_pattern(name) is not None:
        return None

    def named_by(other: str) -> str | None:
        return mentions.named_by(other, rel)

    return tooling_reason(rel, copies.data(rel)[:2], copies.executable(rel), named_by)


def copies_in_live(rels: Sequence[str], live: Collection[str], copies: Copies) -> dict[str, str]:
    """The files of `rels` under a live folder that are copies all the same (a backup server's
    `backups/hosts`, the same bytes as `hosts`), each with what it copies: records."""
    out = {}
    for rel in rels:
        for folder in named_folders(rel):
            if literal_pattern(folder) + "/**" in live:
                original = copies.original(rel, folder)
                if original is not None:
                    out[rel] = original
                break
    return out


def _could_be_live(rel: str) -> bool:
    name = posixpath.basename(rel)
    return bool(_LIVE_NAME.match(name) or _YAML.search(name))


def named_folders(rel: str) -> list[str]:
    """Every folder of `rel` named for copies (not an Ansible role's own folder), shallowest first."""
    parts = rel.split("/")[:-1]
    out = []
    for depth, part in enumerate(parts):
        folder = "/".join(parts[: depth + 1])
        if BACKUP_FOLDER.match(part) and not is_role_name(folder):
            out.append(folder)
    return out
