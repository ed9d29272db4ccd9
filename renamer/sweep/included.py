"""A file in a preset's record folder that a live file names by path (break-it round 17, finding 5).

`records-common` keeps `**/backup/**` and `**/archive/**` as history, but `backup` is also what a
failover upstream, a backup job's env file or a legacy vars file is for: nginx's `include
conf.d/backup/*.conf;`, compose's `env_file: ./backup/restic.env`, Ansible's `include_vars:
archive/legacy.yml` read the file as live configuration. The folder's name is evidence; a live
file naming the file by a path through that folder is evidence against it:

* a comment names nothing (break-it round 19, #11): a line opening with `#`, `;` or `//`, and the
  rest of a line after ` #` / ` //` (`# include conf.d/backup/*.conf;` is a disabled include);
* named by an include directive (`include`, `Include`, `include_vars`, `vars_files`,
  `import_*`/`include_*`, `env_file`, `extends`, `source`/`.`, `EnvironmentFile=`, `--env-file`,
  `src:`, `file:`, `conf-file=`, a kustomization's `resources:`/`bases:`/`components:`; on the
  line, or the key of the YAML list the line is an item of)
  with a relative path that, read from the referrer's folder or a folder above it (globs as the
  shell reads them), is the file: the file is live, swept as current;
* named otherwise: a path whose end alone spells the file's end from the preset's folder (an
  absolute path on the machine, `{{ playbook_dir }}/archive/x.yml`, `../backup/x`), or a word that
  is no directive's (`cp app.env backup/app.env` may write a copy there): left undecided, with the
  place that names it, so verify fails until a person decides.

One `git grep -F` per folder name asked (`backup/`), over the tracked and untracked files,
remembered per scanner; only a current file's lines count.
"""

from __future__ import annotations

import fnmatch
import os
import posixpath
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

from renamer import lazy_re

# A path-like word: letters, digits, `._-/`, and the shell's globs.
_WORD = lazy_re.compile(rb"[\w./*?\[\]{},@+~-]+")
_DIRECTIVE = lazy_re.compile(
    rb"(?i)(?:\binclude\w*|\bimport\w*|\bvars_files\b|\benv_file\b|\bextends\b|\bsource\b|^[ \t-]*\.[ \t]"
    rb"|\bEnvironmentFile\b|--env-file|\bconf-(?:file|dir)\b|\baddn-hosts\b|\bsrc[ \t]*[:=]|\bfile[ \t]*[:=]"
    rb"|\bfiles[ \t]*:|\bservers-file\b|\b(?:resources|bases|components)[ \t]*:)")
# A leading variable or template the path is joined to (`{{ playbook_dir }}/`, `${DIR}/`, `$DIR/`).
_ITEM = lazy_re.compile(rb"^([ \t]*)-[ \t]")
_READ = 1024 * 1024
# a line that may name a dated file (classify.FILE_DATE's dates), for git grep -E
_DATED = "[0-9]{4}-?[0-9]{2}-?[0-9]{2}"
_PREFIX = lazy_re.compile(r"^(?:\{\{[^}]*\}\}|\$\{[^}]*\}|\$\w+|%\w+%)/")

Named = tuple[str, bool]  # (`path:line` of the live file naming it, by an include directive)


class IncludedBy:
    def __init__(self, root: Path, live: Callable[[str], bool],
                 preset_folder: Callable[[str], str | None] = lambda rel: None,
                 unclassified: Callable[[str], bool] = lambda rel: False) -> None:
        self.root = root
        self.live = live
        # a file no rule classes (it holds no old value, so nobody was asked): it may be live too
        self.unclassified = unclassified
        self.preset_folder = preset_folder  # the folder a preset keeps a file by, else None
        self._hits: dict[str, list[tuple[str, str, bytes]]] = {}
        self._included: dict[str, bool] = {}
        # (folder, with sub-folders, a kustomization between) -> who reads it whole
        self._folders: dict[tuple[str, bool, bool], Named | None] = {}

    def _reads(self, referrer: str) -> bool:
        """Is `referrer` live: current, or a preset folder's file a live file includes in turn
        (`nginx.conf` -> `backup/main.conf` -> `archive/legacy.conf`)?"""
        if self.live(referrer):
            return True
        if referrer not in self._included:
            self._included[referrer] = False  # a cycle of includes reads as nothing more
            folder = self.preset_folder(referrer)
            found = self.naming(referrer, folder) if folder is not None else None
            self._included[referrer] = found is not None and found[1]
        return self._included[referrer]

    def naming(self, rel: str, folder: str) -> Named | None:
        """Where a live file names `rel` by a path through `folder` (the preset's folder it lies
        in, `nginx/conf.d/backup`), or by its own name where `folder` is `rel` itself (a dated
        file: break-it round 21, #33); an include directive's place first."""
        name = folder.rsplit("/", 1)[-1]
        parts = rel.split("/")
        depth = len(folder.split("/")) - 1
        found: Named | None = None
        itself = folder == rel
        # a dated file by its own name: one grep of every dated line serves them all (a repo of a
        # thousand dated notes asks a thousand names)
        rows = ([r for r in self._grep(_DATED, regex=True) if name.encode() in r[2]] if itself
                else self._grep(f"{name}/"))
        for referrer, line, text in rows:
            if referrer == rel:
                continue
            maybe = itself and not self._reads(referrer) and self.unclassified(referrer)
            if not maybe and not self._reads(referrer):
                continue
            code = code_end(text)  # a commented-out include names nothing (break-it round 19, #11)
            for word in _WORD.finditer(text, 0, code):
                how = names(os.fsdecode(word.group()), parts, depth, name, referrer)
                if how is None:
                    continue
                if how == "exact" and not maybe and (
                        _DIRECTIVE.search(text, 0, word.start()) is not None
                        or self._listed_under_directive(referrer, int(line), text)):
                    return f"{referrer}:{line}", True
                found = found or (f"{referrer}:{line}", False)
        if itself and (found is None or not found[1]):  # break-it round 24, #20: its folder read whole
            return self.folder_naming(rel) or found
        return found

    def folder_naming(self, rel: str) -> Named | None:
        """Where a live file reads the folder holding `rel` whole, by a directive that reads every
        file in it (break-it round 24, finding 20): a Flux Kustomization's or an Argo CD
        Application's `path: ./apps/backup` (and the folders below it), `kubectl apply -f
        apps/backup/` (`-R`: below too; `-k`), `kustomize build DIR`, ansible.cfg's `inventory =
        inventories/`, `ansible-playbook -i inventories/`, a kustomization's `resources: [dir/]`."""
        parts = rel.split("/")
        maybe: Named | None = None  # read by a file no rule classes: undecided, naming it
        for depth in range(len(parts) - 1, 0, -1):
            # a kustomization.yaml from the folder down to the file's: kustomize (Flux, Argo CD, `-k`)
            # applies what it lists, not the folder: a listed file is an include by name (above)
            kustomized = any((self.root / "/".join(parts[:d]) / k).is_file()
                             for d in range(depth, len(parts)) for k in _KUSTOMIZATIONS)
            key = ("/".join(parts[:depth]), depth < len(parts) - 1, kustomized)
            if key not in self._folders:  # one answer per folder: a thousand dated notes ask it once
                self._folders[key] = self._folder_read(rel, parts[:depth], below=key[1],
                                                       kustomized=kustomized)
            found = self._folders[key]
            if found is not None and found[1]:
                return found
            maybe = maybe or found
        return maybe

    def _folder_read(self, rel: str, folder: list[str], *, below: bool, kustomized: bool) -> Named | None:
        """Where a live (or unclassified) file reads `folder` whole (`below`: with its sub-folders)."""
        name = folder[-1]
        maybe: Named | None = None
        for referrer, line, text in self._grep(name):
            if referrer == rel:
                continue
            live = self._reads(referrer)
            if not live and not self.unclassified(referrer):
                continue
            code = code_end(text)
            for word in _WORD.finditer(text, 0, code):
                written = os.fsdecode(word.group()).strip("'\"`,;")
                if name not in written or not _reads_folder(self.root, referrer, text, word.start(),
                                                              below=below, kustomized=kustomized):
                    continue
                if _is_folder(written, folder, referrer):
                    if live:
                        return f"{referrer}:{line}", True
                    maybe = maybe or (f"{referrer}:{line}", False)
        return maybe

    def _listed_under_directive(self, referrer: str, line: int, text: bytes) -> bool:
        """A YAML list item (`- backup/db.env`) under a directive's key (`env_file:`, `vars_files:`)
        some lines above it."""
        item = _ITEM.match(text)
        if item is None:
            return False
        try:
            with open(self.root / referrer, "rb") as f:
                lines = f.read(_READ).split(b"\n")[: line - 1]
        except OSError:
            return False
        indent = len(item.group(1).expandtabs())
        for above in reversed(lines):
            stripped = above.lstrip()
            if not stripped or stripped.startswith(b"#"):
                continue
            width = len(above[: len(above) - len(stripped)].expandtabs())
            if width < indent or (width == indent and not stripped.startswith(b"-")):
                return _DIRECTIVE.search(above) is not None
        return False

    def _grep(self, needle: str, *, regex: bool = False) -> list[tuple[str, str, bytes]]:
        name = needle
        if name not in self._hits:
            command = ["git", "-C", str(self.root), "grep", "--untracked", "-I", "-n", "-z",
                       "-E" if regex else "-F", "--full-name", "-e", needle]
            try:
                done = subprocess.run(command, capture_output=True, check=False)
                rows = done.stdout.split(b"\n")
            except OSError:
                rows = []
            hits = []
            for row in rows:
                cells = row.split(b"\0", 2)
                if len(cells) == 3:
                    hits.append((os.fsdecode(cells[0]), cells[1].decode("ascii", "replace"), cells[2]))
            self._hits[name] = hits
        return self._hits[name]


# A directive that reads every file of a folder it names (break-it round 24, finding 20); `path:`
# only in a Flux Kustomization or an Argo CD Application (elsewhere it is any path).
_FOLDER_READ = lazy_re.compile(
    rb"(?i)(?:\bkubectl\b.*?\s(?:-f|--filename|-k|--kustomize)(?:[= ]|$)|\bkustomize[ \t]+build\b"
    rb"|^[ \t]*inventory[ \t]*[=:]|\bansible(?:-playbook|-inventory)?\b.*?\s(?:-i|--inventory)(?:[= ]|$)"
    rb"|\b(?:resources|bases)[ \t]*:|^[ \t-]*path[ \t]*:)")
_RECURSIVE = lazy_re.compile(rb"\bkubectl\b.*?\s(?:-R|--recursive)\b|^[ \t-]*path[ \t]*:|\bkustomize\b|-k\b")
_APPLIERS = (b"kustomize.toolkit.fluxcd.io", b"argoproj.io")
_KUSTOMIZATIONS = ("kustomization.yaml", "kustomization.yml", "Kustomization")
_KUSTOMIZE = lazy_re.compile(rb"(?i)path[ \t]*:|-k\b|--kustomize|kustomize|resources|bases")


def _reads_folder(root: Path, referrer: str, text: bytes, at: int, *, below: bool,
                  kustomized: bool) -> bool:
    """Does the line `text` of `referrer` read, by a directive before `at`, every file of a folder
    named there (and of the folders under it, where `below`)? Not kustomize's (`path:`, `-k`,
    `kustomize build`, `resources:`) where a kustomization file stands in between (`kustomized`)."""
    found = None
    for m in _FOLDER_READ.finditer(text, 0, at):
        found = m
    if found is None:
        return False
    if kustomized and _KUSTOMIZE.search(found.group()):
        return False
    if below and _RECURSIVE.search(text, 0, at) is None and b"inventory" not in found.group().lower():
        return False
    if re.match(rb"(?i)^[ \t-]*path[ \t]*:", found.group()):
        try:
            with open(root / referrer, "rb") as f:
                head = f.read(_READ)
        except OSError:
            return False
        return any(word in head for word in _APPLIERS)
    return True


def _is_folder(written: str, folder: list[str], referrer: str) -> bool:
    """Is the path `written` in `referrer` the folder `folder` (read from the referrer's folder or
    a folder above it, as Flux reads `path:` from the repository's root)?"""
    word = written.rstrip("/")
    while word.startswith("./"):
        word = word[2:]
    if not word or word.startswith("/") or any(c in word for c in "*?[{$"):
        return False
    above = referrer.split("/")[:-1]
    for keep in range(len(above), -1, -1):
        if posixpath.normpath(posixpath.join(*above[:keep], word)).split("/") == folder:
            return True
    return False


# Where a comment starts: a line that opens with `#`, `;` or `//` (nginx, YAML, shell, INI,
# dnsmasq, Caddy), or ` #` / ` //` after some code (`echo x  # . archive/env.sh`).
_LINE_COMMENT = lazy_re.compile(rb"^[ \t]*(?:#|;|//)")
_TRAILING_COMMENT = lazy_re.compile(rb"(?<=[ \t])(?:#|//)")


def code_end(text: bytes) -> int:
    """Where the code of a line ends: 0 for a comment line, else the start of a trailing comment
    (outside quotes), else its length."""
    if _LINE_COMMENT.match(text):
        return 0
    doubles = singles = at = 0  # the quotes before each candidate, counted once along the line
    for found in _TRAILING_COMMENT.finditer(text):
        doubles += text.count(b'"', at, found.start())
        singles += text.count(b"'", at, found.start())
        at = found.start()
        if doubles % 2 == 0 and singles % 2 == 0:
            return found.start()
    return len(text)


def names(word: str, parts: list[str], depth: int, name: str, referrer: str) -> str | None:
    """How the written path `word` in the file `referrer` names the path `parts` (a file whose
    folder `parts[depth]` is the preset's `name`): `exact` where, read from the referrer's folder or
    a folder above it (`conf.d/backup/*.conf` in nginx/nginx.conf, `./backup/restic.env`), it is that
    file; `tail` where only its end spells the file's end from the preset's folder or above (an
    absolute path on the machine, `{{ playbook_dir }}/archive/x.yml`, `../backup/x`); else None."""
    word = word.strip("'\"`,;")
    joined = _PREFIX.sub("", word) != word or "}/" in word  # `{{ playbook_dir }}/`: anywhere above
    word = word[word.rfind("}") + 1:] if "}/" in word else _PREFIX.sub("", word)
    while word.startswith("./"):
        word = word[2:]
    absolute = word.startswith("/") or joined
    if not absolute:
        above = referrer.split("/")[:-1]
        for keep in range(len(above), -1, -1):
            full = posixpath.normpath(posixpath.join(*above[:keep], word)).split("/")
            if len(full) == len(parts) and _fits(parts, full):
                return "exact"
            # a folder at or below the preset's folder, read whole: Terraform's module `source =
            # "./archive/dns"`, a kustomization's `resources: [backup/]` (break-it round 19, #16)
            if depth < len(full) < len(parts) and _fits(parts[:len(full)], full):
                return "exact"
    written = [p for p in word.split("/") if p]
    if ".." in written:  # `../backup/x.conf` from no folder that reaches it: its end is read
        written = written[len(written) - written[::-1].index(".."):]
    if not written or not any(fnmatch.fnmatchcase(name, p) for p in written):
        return None
    for start in range(len(written)):
        tail = written[start:]
        if len(tail) > len(parts) or len(parts) - len(tail) > depth:
            continue  # the written path must reach down from the preset's folder or above it
        if _fits(parts[-len(tail):], tail):
            return "tail"
    return None


def _fits(have: list[str], want: list[str]) -> bool:
    return all(fnmatch.fnmatchcase(h, w) for h, w in zip(have, want, strict=True))
