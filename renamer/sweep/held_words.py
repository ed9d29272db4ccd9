"""Words that must keep a held path's name (break-it round 15, findings 3 and 7).

sweep/held_paths.py holds a path-like token that names a path the sweep leaves under its old
name. Some references to such a path are not one token:

* a directory argument and a relative word (`tar -C hosts pug`, `tar --directory=hosts -czf
  x.tgz pug`, `cd hosts && tar c pug`, `find hosts -name pug`): the word, read from that
  directory, names the held path. It is held as a path token is (`split_directory`).
* a bare word that a file joins into a path under the held path's parent, or that a tool finds
  the held path by: the file reads the parent by name (Nix `builtins.readDir ./.`, a glob
  `hosts/*`, `os.listdir("hosts")`), or composes a path there from a variable
  (`./${host}`, `hosts/$(h)/`, `f"host_vars/{host}-qemu.yml"`, `"hosts/%s/app.conf"`,
  `"hosts/{}/".format(...)`); an Ansible inventory (or a line comparing `inventory_hostname`)
  naming the host whose `host_vars/pug.yml` is held; a Nix attribute `pug = ...` whose value
  names `./hosts/pug`. There the word is the held entry's name, so renamed it names nothing
  (the kept host fails its own `knownHosts` assertion, the inventory host loses its vars).
  The word is a residual `held-path` (`Readers`): which word of the file the path is built
  from cannot be proved, so the operator decides (keep the line, or rename the folder too).

Every rule runs only on a file holding a rewritable old value that is a held entry's name, and
only on words standing alone (the old value is the whole token): an ordinary mention elsewhere
follows the rename.
"""

from __future__ import annotations

import os
import posixpath
import re
import subprocess
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from renamer import lazy_re


@dataclass(frozen=True)
class Entry:
    """A component of a held path that holds an old value: `pug` of `hosts/pug/app.conf`."""

    path: str  # the held path up to and with the component: `hosts/pug`
    parent: str  # the folder it stands in: `hosts` ('' at the root)
    name: str  # the component: `pug`, `pug.yml`, `pug-qemu.yml`


def entries(paths: Iterable[tuple[str, frozenset[str]]]) -> dict[str, list[Entry]]:
    """The entries of the held paths (each with the old values its path spells), by old value."""
    out: dict[str, dict[str, Entry]] = {}
    for path, olds in paths:
        if path.startswith("/"):
            continue
        parts = path.split("/")
        for i, part in enumerate(parts):
            for old in olds:
                if old in part:
                    entry = Entry("/".join(parts[:i + 1]), "/".join(parts[:i]), part)
                    out.setdefault(old, {})[entry.path] = entry
    return {old: list(found.values()) for old, found in out.items()}


def fits(entry: Entry, word: str, prefix: str = "", suffix: str = "") -> bool:
    """Does `prefix + word + suffix` name the entry (a file: its name, or its name before the
    extension where no suffix is given: `host_vars/pug.yml` of `pug`)?"""
    spelled = prefix + word + suffix
    return entry.name == spelled or (not suffix and entry.name.partition(".")[0] == spelled
                                     and "." in entry.name)


# A command's directory argument: tar/make/git `-C DIR`, tar `--directory=DIR`; `cd DIR` then `&&`
# or `;` earlier on the line; find's starting point before `-name`/`-path`.
_SEGMENT_END = lazy_re.compile(rb"&&|\|\||[;|]")
_DIR_FLAG = lazy_re.compile(
    rb"(?:^|[ \t])(?:-C|--directory)(?:=|[ \t]+)['\"]?(?P<dir>[A-Za-z0-9._/~@+-]+)['\"]?")
_CD = lazy_re.compile(rb"(?:^|[;&|( \t])cd[ \t]+['\"]?(?P<dir>[A-Za-z0-9._/~@+-]+)['\"]?[ \t]*(?:&&|;)")
_FIND = lazy_re.compile(rb"(?:^|[ \t;&|(])find[ \t]+['\"]?(?P<dir>[A-Za-z0-9._/~@+-]+)['\"]?[^\n;|&]*?"
                   rb"-(?:i?name|i?path)[ \t]+['\"]?$")


# Commands whose operand is a host, not a file (`ssh -C pug` compresses; `cd hosts && ssh pug`).
_COMMAND = lazy_re.compile(
    rb"[ \t(]*(?:(?:sudo|exec|env|command)[ \t]+|[A-Za-z_][A-Za-z0-9_]*=[^ \t]*[ \t]+)*"
                      rb"(?P<name>[A-Za-z0-9_.-]+)")
_HOST_COMMANDS = frozenset({b"ssh", b"scp", b"sftp", b"mosh", b"ping", b"ping6", b"curl", b"wget", b"dig",
                            b"host", b"nslookup", b"nc", b"ncat", b"telnet", b"ansible", b"ansible-playbook"})


def split_directory(data: bytes, start: int) -> tuple[str, bool] | None:
    """The directory a command reads the word at `start` from (`hosts` of `tar -C hosts pug`),
    and whether it searches below it (find); None where no directory argument comes before it
    on its line."""
    line_start = data.rfind(b"\n", 0, start) + 1
    before = data[line_start:start]
    if b"-C" not in before and b"--directory" not in before and b"cd" not in before \
            and b"find" not in before:
        return None
    found = _FIND.search(before)
    if found is not None:
        return found.group("dir").decode("utf-8", "surrogateescape"), True
    # The command holding the word: from the last `;`, `&&`, `|` before it.
    cuts = [m.end() for m in _SEGMENT_END.finditer(before)]
    command = before[cuts[-1] if cuts else 0:]
    first = _COMMAND.match(command)
    if first is not None and first.group("name") in _HOST_COMMANDS:
        return None  # `cd hosts && ssh pug`: a host, whatever the folder
    flags = list(_DIR_FLAG.finditer(command))
    if flags and flags[-1].end() < len(command):
        return flags[-1].group("dir").decode("utf-8", "surrogateescape"), False
    cds = list(_CD.finditer(before))
    if cds:
        return cds[-1].group("dir").decode("utf-8", "surrogateescape"), False
    return None


@dataclass(frozen=True)
class Reader:
    """A place where a file reads a folder by name: it lists the folder, or joins a variable
    (with `prefix` and `suffix` around it) into a path there."""

    folder: str  # as written, relative to the file or the root: `hosts`, `./.`, `../hosts`
    prefix: str
    suffix: str
    lists: bool  # the file lists the folder (every entry), rather than composing one name
    how: str  # what the file does, for the note
    at: int  # where it stands: a word is told of the nearest


# Nix `builtins.readDir ./.`, `readDir ../hosts`
_READ_DIR = lazy_re.compile(rb"readDir[ \t]+\(?[ \t]*(?P<dir>\.{1,2}(?:/[A-Za-z0-9._-]*)*)")
# Python `os.listdir("hosts")`, `os.scandir("hosts")`, `Path("hosts").iterdir()`
_LIST_DIR = lazy_re.compile(rb"(?:listdir|scandir|walk)\([ \t]*[\"'](?P<dir>[A-Za-z0-9._/-]+)[\"']"
                       rb"|Path\([ \t]*[\"'](?P<pdir>[A-Za-z0-9._/-]+)[\"'][ \t]*\)\.(?:iterdir|glob)\(")
# A glob over a folder's entries: `hosts/*`, `hosts/*/`, `$(wildcard hosts/*)`, `with_fileglob: hosts/*`
_GLOB = lazy_re.compile(rb"(?<![A-Za-z0-9._/*-])(?P<dir>[A-Za-z0-9._-][A-Za-z0-9._/-]*)/\*(?![A-Za-z0-9_*-])")
# A variable joined into a path: `./${host}`, `hosts/$(h)/`, `hosts/$$h/`, `hosts/{{ h }}/`,
# `host_vars/{host}-qemu.yml`, `hosts/%s/`, `hosts/{}/`, `hosts/#{h}/`; after a variable's folder
# (`${path.module}/hosts/${each.key}/`), read from the file's folder and the root.
_INTERPOLATION = (rb"\$\{[^}\n]*\}|\$\([^)\n]*\)|\$\$?[A-Za-z_][A-Za-z0-9_]*|\{\{[^}\n]*\}\}"
                  rb"|#\{[^}\n]*\}|\{[A-Za-z_0-9.\[\]'\"]*\}|%s")
_COMPOSED = lazy_re.compile(rb"(?:(?<=[})])/|(?<![A-Za-z0-9._/-]))(?P<dir>(?:[A-Za-z0-9._-]+/)+|\./)"
                       rb"(?P<prefix>[A-Za-z0-9._-]*)(?:" + _INTERPOLATION + rb")"
                       rb"(?P<suffix>[A-Za-z0-9._-]*)")
_LITERALS = (b"readDir", b"listdir", b"scandir", b"walk(", b"iterdir", b"glob", b"/*", b"${", b"$(",
             b"$", b"{{", b"{", b"%s", b"#{")


def readers(data: bytes) -> list[Reader]:
    """Each place `data` reads a folder by name."""
    if not any(literal in data for literal in _LITERALS):
        return []
    out = []
    for found in _READ_DIR.finditer(data):
        out.append(Reader(found.group("dir").decode("utf-8", "surrogateescape"), "", "", True,
                          f"lists it (`{found.group().decode('utf-8', 'replace')}`)", found.start()))
    for found in _LIST_DIR.finditer(data):
        folder = found.group("dir") or found.group("pdir")
        out.append(Reader(folder.decode("utf-8", "surrogateescape"), "", "", True,
                          f"lists it (`{found.group().decode('utf-8', 'replace')}`)", found.start()))
    for found in _GLOB.finditer(data):
        out.append(Reader(found.group("dir").decode("utf-8", "surrogateescape"), "", "", True,
                          f"lists it (`{found.group().decode('utf-8', 'replace')}`)", found.start()))
    for found in _COMPOSED.finditer(data):
        folder, prefix, suffix = (found.group(g).decode("utf-8", "surrogateescape")
                                  for g in ("dir", "prefix", "suffix"))
        shown = found.group().decode("utf-8", "replace")
        out.append(Reader(folder.rstrip("/") or ".", prefix, suffix, False,
                          f"joins a variable into a path there (`{shown}`)", found.start()))
    return out


# The machine's own name in Ansible (break-it round 17, #10): the inventory host's name and the
# facts that spell the machine's name.
_OWN_NAME = rb"(?:inventory_hostname(?:_short)?|ansible_(?:hostname|nodename|fqdn)|ansible_facts\.nodename)\b"
# `playbook_dir + '/../services/' + inventory_hostname + '/*'`, `'files/host-' ~ inventory_hostname`
_OWN_JOIN = lazy_re.compile(rb"(?P<base>(?:playbook_dir|role_path|inventory_dir)[ \t]*[+~][ \t]*)?"
                       rb"[\"'](?P<dir>[A-Za-z0-9._/-]*/)(?P<prefix>[A-Za-z0-9._-]*)[\"'][ \t]*[+~][ \t]*"
                       + _OWN_NAME + rb"(?:[ \t]*[+~][ \t]*[\"'](?P<suffix>[A-Za-z0-9._-]*))?")


def own_name_readers(data: bytes) -> list[Reader]:
    """Each place `data` joins the machine's own name into a path (`services/{{ inventory_hostname
    }}/`, `playbook_dir + '/../services/' + inventory_hostname`): there each inventory host's name
    is the name of an entry of that folder."""
    if re.search(_OWN_NAME, data) is None:
        return []
    out = []
    for found in _COMPOSED.finditer(data):
        if re.search(_OWN_NAME, found.group()) is None:
            continue
        folder, prefix, suffix = (found.group(g).decode("utf-8", "surrogateescape")
                                  for g in ("dir", "prefix", "suffix"))
        out.append(Reader(folder.rstrip("/") or ".", prefix, suffix, False, _own_how(found.group()),
                          found.start()))
    for found in _OWN_JOIN.finditer(data):
        folder = found.group("dir").decode("utf-8", "surrogateescape")
        if found.group("base"):
            folder = folder.lstrip("/")  # `playbook_dir + '/../x/'`: from the playbook's folder
        out.append(Reader(folder.rstrip("/") or ".", found.group("prefix").decode("utf-8", "surrogateescape"),
                          (found.group("suffix") or b"").decode("utf-8", "surrogateescape"), False,
                          _own_how(found.group()), found.start()))
    return out


def own_readers_in(root: Path, live: Callable[[str], bool],
                   limit: int = 1024 * 1024) -> list[tuple[str, Reader]]:
    """Each live file's places joining the machine's own name into a path (one `git grep -l`)."""
    command = ["git", "-C", str(root), "grep", "--untracked", "-I", "-l", "-z", "-E",
               "inventory_hostname|ansible_(hostname|nodename|fqdn)|ansible_facts\\.nodename"]
    try:
        done = subprocess.run(command, capture_output=True, check=False)
    except OSError:
        return []
    out = []
    for raw in done.stdout.split(b"\0"):
        rel = os.fsdecode(raw)
        if not rel or not live(rel):
            continue
        try:
            with open(root / rel, "rb") as f:
                data = f.read(limit)
        except OSError:
            continue
        out += [(rel, reader) for reader in own_name_readers(data)]
    return out


def _own_how(text: bytes) -> str:
    return f"joins the machine's own name into a path there (`{text.decode('utf-8', 'replace')}`)"


def folder_readings(rel: str, folder: str) -> list[str]:
    """Where a folder a file names points: from the file's folder, from the root (a Nix path:
    from the file's folder only)."""
    here = posixpath.dirname(rel)
    out = []
    for reading in (posixpath.join(here, folder), *(() if rel.endswith(".nix") else (folder,))):
        path = posixpath.normpath(reading)
        path = "" if path == "." else path
        if not path.startswith("../") and path != ".." and path not in out:
            out.append(path)
    return out


# An Ansible inventory (as key_index reads one), and a line comparing the inventory's host name.
INVENTORY = lazy_re.compile(r"(?:^|/)(?:inventor(?:y|ies)/|(?:hosts|inventory)(?:\.[A-Za-z0-9]+)?$)")
_INVENTORY_NAME = lazy_re.compile(rb"inventory_hostname(?!_)")


def reads_host_vars(rel: str, folder: str, beside_playbook: bool = False) -> bool:
    """Is `folder` (`host_vars`, `inventory/host_vars`) one Ansible reads for the inventory or
    play `rel`: beside it or beside a folder above it (never a copy elsewhere, `backups/host_vars`),
    or beside a playbook (`beside_playbook`: Ansible reads a playbook's own `host_vars/` for every
    inventory host, break-it round 17 #10)?"""
    parent = posixpath.dirname(folder)
    here = posixpath.dirname(rel)
    return posixpath.basename(folder) == "host_vars" and (
        beside_playbook or parent == "" or here == parent or here.startswith(parent + "/"))


def names_inventory_host(rel: str, data: bytes, start: int) -> str | None:
    """Why the word at `start` is an inventory host's name (Ansible finds `host_vars/<name>` by
    it), or None. A file of group or host variables is no inventory, wherever it stands."""
    if INVENTORY.search(rel) and "group_vars/" not in rel and "host_vars/" not in rel:
        return f"{rel} is an Ansible inventory"
    line_start = data.rfind(b"\n", 0, start) + 1
    line_end = data.find(b"\n", start)
    if _INVENTORY_NAME.search(data[line_start: len(data) if line_end < 0 else line_end]):
        return "its line compares `inventory_hostname`"
    return None


_NIX_KEY_END = lazy_re.compile(rb"[\"']?[ \t]*=(?!=)")


def nix_binding(data: bytes, start: int, end: int) -> bytes | None:
    """The value of a Nix binding whose attribute path ends with the word at data[start:end]
    (`nixosConfigurations.pug = mkHost ./hosts/pug;`): up to its `;` outside brackets."""
    after = _NIX_KEY_END.match(data, end)
    if after is None:
        return None
    depth = 0
    i = after.end()
    quoted = False
    while i < len(data):
        c = data[i:i + 1]
        if c == b'"':
            quoted = not quoted
        elif not quoted:
            if c in b"{[(":
                depth += 1
            elif c in b"}])":
                depth -= 1
                if depth < 0:
                    break
            elif c == b";" and depth == 0:
                break
        i += 1
    return data[after.end():i]
