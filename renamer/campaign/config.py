"""campaign.yaml -> a frozen Campaign, every problem reported with file, line and key: the move (its
name and renames, or a renamer.yaml whose renames it takes), the work folder, and the repos in the
order their `depends_on` gives."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from renamer import lazy_re
from renamer.config import DEFAULT_MAX_FILE_SIZE, Config, Renames
from renamer.config_load import load_config, read_cutover
from renamer.config_renames import read_renames
from renamer.errors import ConfigError
from renamer.formats.yaml_source import Problems, check_mapping, kind, line_of, load_yaml_file, shown
from renamer.glob_grammar import path_problem
from renamer.idempotence import check_idempotent

_TOP_KEYS = {"version", "name", "renames", "config", "cutover", "allowlist", "work_dir", "repos"}
_REPO_KEYS = {"name", "url", "allowlist", "depends_on"}
# A repo's name is a folder of work_dir and part of what the report prints: a plain name, never a
# path (no `/`, no `..`, no leading `.` or `-`).
_SAFE_NAME = lazy_re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
# renamer's own files in work_dir (clones.LOCK_FILE, run.RECORD): never a repo's clone folder.
_RESERVED = ("campaign.lock", "campaign-state.json")
# The move's name makes the branch renamer/<name>: the same plain name, no `..`, no `.lock` end.
_MOVE_NAME = lazy_re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
# A git URL renamer clones: these transports only (never `ext::`, which runs a command, nor any
# other `<transport>::`); scp-like `user@host:path` too.
_URL = lazy_re.compile(r"(?:https?|ssh|git|file)://[^\s]+|[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:[^\s]+")
DEFAULT_WORK_DIR = ".campaign"


@dataclass(frozen=True)
class RepoEntry:
    name: str
    url: str  # as written: a git URL, or a local path resolved in `local`
    local: Path | None  # the local repository `url` names (a work tree or a bare repo), if a path
    allowlist: str | None  # a path inside the repo
    depends_on: tuple[str, ...]
    line: int  # of its name
    allowlist_line: int = 0


@dataclass(frozen=True)
class Campaign:
    path: Path
    name: str
    renames: Renames
    cutover: dt.date | None
    allowlist: Path | None  # the shared allowlist, for a repo that has none of its own
    work_dir: Path
    repos: tuple[RepoEntry, ...]  # in depends_on order (a repo after everything it depends on)

    @property
    def branch(self) -> str:
        return f"renamer/{self.name}"

    def clone_of(self, repo: RepoEntry) -> Path:
        return self.work_dir / repo.name

    def repo(self, name: str) -> RepoEntry:
        return next(r for r in self.repos if r.name == name)

    def template(self, root: Path) -> Config:
        """The config of a repo with no renamer.yaml of its own: the campaign's move alone."""
        return Config(path=root / "renamer.yaml", root=root, name=self.name, cutover=self.cutover,
                      renames=self.renames, derived_names=False, variants=False,
                      max_file_size=DEFAULT_MAX_FILE_SIZE,
                      allowlist_paths=(self.allowlist,) if self.allowlist else (), dns_dir=root / "dns")


def load_campaign(path: Path) -> Campaign:
    """Load and validate campaign.yaml at `path`."""
    display = str(path)  # as the user wrote it: `campaign.yaml:12: repos[1].url: ...`
    data = load_yaml_file(path, display)
    problems = Problems(display)
    top = check_mapping({} if data is None else data, "", _TOP_KEYS, problems, data, None)
    if top is None:
        problems.raise_if_any()
        raise AssertionError("unreachable")
    base = path.resolve().parent
    if top.get("version") != 1:
        problems.add(top, "version", "version", f"must be 1, got {shown(top.get('version'))}")
    name = top.get("name")
    if not isinstance(name, str) or not _MOVE_NAME.fullmatch(name) or name.endswith((".lock", ".")) \
            or ".." in name:
        problems.add(top, "name" if "name" in top else None, "name",
                     f"expected the move's name, letters, digits, '.', '_' or '-' (it names the branch "
                     f"renamer/<name>), got {shown(name)}")
        name = "campaign"
    cutover = read_cutover(top, problems)
    renames = _renames(top, base, problems)
    if renames is not None and "renames" in top:
        check_idempotent(Campaign(path, name, renames, cutover, None, base, ()).template(base), top, problems)
    allowlist = _file(top, "allowlist", base, problems)
    work_dir = _work_dir(top, base, problems)
    repos = _repos(top, base, problems)
    for repo in repos:
        if repo.local is not None and (work_dir == repo.local or repo.local in work_dir.parents):
            problems.add(top, "work_dir", "work_dir",
                         f"{work_dir} is inside repo {repo.name}'s folder {repo.local}: the campaign never "
                         "writes a repository it clones")
    problems.raise_if_any()
    assert renames is not None
    ordered = _ordered(repos, top, problems)
    return Campaign(path.resolve(), name, renames, cutover, allowlist, work_dir, ordered)


def _renames(top: dict[str, Any], base: Path, problems: Problems) -> Renames | None:
    """`renames:` as renamer.yaml writes it, or `config: PATH` naming a renamer.yaml whose renames
    the move takes (its own errors said with its own file and line)."""
    if ("renames" in top) == ("config" in top):
        problems.add(top, None, "renames", "give the move's renames, or config: naming a renamer.yaml, "
                     "not both and not neither")
        return None
    if "renames" in top:
        before = len(problems.items)
        renames = read_renames(top, problems)
        return renames if len(problems.items) == before else None
    path = _file(top, "config", base, problems)
    if path is None:
        return None
    try:
        return load_config(path, path.parent).renames
    except ConfigError as exc:
        problems.add(top, "config", "config", str(exc))
        return None


def _file(top: dict[str, Any], key: str, base: Path, problems: Problems) -> Path | None:
    raw = top.get(key)
    if raw is None:
        return None
    if not isinstance(raw, str) or not raw.strip():
        problems.add(top, key, key, f"expected a file path, got {kind(raw)}")
        return None
    why = path_problem(raw)
    path = base / raw
    if why is None and not path.is_file():
        why = "is not a regular file" if path.exists() else "is not found"
    if why is not None:
        problems.add(top, key, key, f"{shown(raw)} {why}")
        return None
    return path


def _work_dir(top: dict[str, Any], base: Path, problems: Problems) -> Path:
    raw = top.get("work_dir", DEFAULT_WORK_DIR)
    if not isinstance(raw, str) or not raw.strip():
        problems.add(top, "work_dir", "work_dir", f"expected a folder path, got {kind(raw)}")
        return base / DEFAULT_WORK_DIR
    why = path_problem(raw)
    folder = (base / raw).resolve()  # links followed: a link out of the folder escapes it too
    if why is None and (folder == base or base not in folder.parents):
        why = f"is outside {base}, campaign.yaml's folder: the clones live in a folder of it"
    if why is None and folder.exists() and not folder.is_dir():
        why = "is not a folder"
    if why is not None:
        problems.add(top, "work_dir", "work_dir", f"{shown(raw)} {why}")
        return base / DEFAULT_WORK_DIR
    return folder


def _repos(top: dict[str, Any], base: Path, problems: Problems) -> list[RepoEntry]:
    raw = top.get("repos")
    if not isinstance(raw, list) or not raw:
        problems.add(top, "repos" if "repos" in top else None, "repos",
                     f"expected a list of repos, got {kind(raw) if 'repos' in top else 'nothing'}")
        return []
    repos: list[RepoEntry] = []
    seen: dict[str, int] = {}
    for index, item in enumerate(raw):
        where = f"repos[{index}]"
        entry = check_mapping(item, where, _REPO_KEYS, problems, raw, index)
        if entry is None:
            continue
        name = entry.get("name")
        if not isinstance(name, str) or not _SAFE_NAME.fullmatch(name):
            problems.add(entry, "name" if "name" in entry else None, f"{where}.name",
                         f"expected a plain folder name (letters, digits, '.', '_', '-'; not a path), "
                         f"got {shown(name)}")
            continue
        if name in _RESERVED:
            problems.add(entry, "name", f"{where}.name",
                         f"{name!r} is the name of the campaign's own file in work_dir: name the repo "
                         "otherwise")
            continue
        if name in seen:
            problems.add(entry, "name", f"{where}.name",
                         f"{name!r} is named twice (first at line {seen[name]})")
            continue
        seen[name] = line_of(entry, "name")
        url, local = _url(entry, where, base, problems)
        allowlist = entry.get("allowlist")
        if allowlist is not None and (not isinstance(allowlist, str) or not allowlist.strip()
                                      or path_problem(allowlist) or allowlist.startswith("/")
                                      or ".." in Path(allowlist).parts):
            problems.add(entry, "allowlist", f"{where}.allowlist",
                         f"expected a path inside the repo, got {shown(allowlist)}")
            allowlist = None
        depends = entry.get("depends_on", [])
        if not isinstance(depends, list) or not all(isinstance(d, str) for d in depends):
            problems.add(entry, "depends_on", f"{where}.depends_on",
                         f"expected a list of repo names, got {kind(depends)}")
            depends = []
        if url is not None:
            repos.append(RepoEntry(name, url, local, allowlist, tuple(depends), line_of(entry, "name"),
                                   line_of(entry, "allowlist") if allowlist is not None else 0))
    return repos


def _url(entry: dict[str, Any], where: str, base: Path, problems: Problems) -> tuple[str | None, Path | None]:
    url = entry.get("url")
    if not isinstance(url, str) or not url.strip():
        problems.add(entry, "url" if "url" in entry else None, f"{where}.url",
                     f"expected a local path or a git URL, got {kind(url) if 'url' in entry else 'nothing'}")
        return None, None
    if url.startswith("-") or path_problem(url) or any(c in url for c in "\n\r\t"):
        problems.add(entry, "url", f"{where}.url", f"{shown(url)} is neither a path nor a git URL")
        return None, None
    if _URL.fullmatch(url) and not url.startswith("file://"):
        return url, None
    if "::" in url or (re.match(r"[A-Za-z][A-Za-z0-9+.-]*://", url) and not url.startswith("file://")):
        problems.add(entry, "url", f"{where}.url",
                     f"{shown(url)} is neither a path nor a git URL renamer clones "
                     "(https://, ssh://, git://, file://, user@host:path, or a folder)")
        return None, None
    path = url.removeprefix("file://")
    if url.startswith("file://localhost/"):  # git reads file://localhost/PATH as /PATH
        path = path.removeprefix("localhost")
    folder = (base / path).resolve()
    if not folder.is_dir():
        problems.add(entry, "url", f"{where}.url", f"{shown(url)}: no such folder ({folder})")
        return None, None
    if not ((folder / ".git").exists() or ((folder / "HEAD").is_file() and (folder / "objects").is_dir())):
        problems.add(entry, "url", f"{where}.url", f"{shown(url)}: {folder} is no git repository")
        return None, None
    return url, folder


def _ordered(repos: list[RepoEntry], top: dict[str, Any], problems: Problems) -> tuple[RepoEntry, ...]:
    """The repos, each after everything it depends on (otherwise in the file's order); an unknown
    name or a cycle is a problem."""
    names = {r.name: r for r in repos}
    raw = top.get("repos") or []
    entries = {item.get("name"): item for item in raw if isinstance(item, dict)}
    for repo in repos:
        for dep in repo.depends_on:
            if dep not in names:
                problems.add(entries[repo.name], "depends_on", f"{_at(raw, repo.name)}.depends_on",
                             f"{dep!r} is no repo of this campaign")
    problems.raise_if_any()
    done: list[RepoEntry] = []
    state: dict[str, int] = {}

    def visit(repo: RepoEntry, chain: list[str]) -> None:
        if state.get(repo.name) == 2:
            return
        if state.get(repo.name) == 1:
            cycle = " -> ".join([*chain[chain.index(repo.name):], repo.name])
            problems.add(entries[repo.name], "depends_on", f"{_at(raw, repo.name)}.depends_on",
                         f"a cycle: {cycle}")
            problems.raise_if_any()
        state[repo.name] = 1
        for dep in repo.depends_on:
            visit(names[dep], [*chain, repo.name])
        state[repo.name] = 2
        done.append(repo)

    for repo in repos:
        visit(repo, [])
    return tuple(done)


def _at(raw: list[Any], name: str) -> str:
    index = next(i for i, item in enumerate(raw) if isinstance(item, dict) and item.get("name") == name)
    return f"repos[{index}]"
