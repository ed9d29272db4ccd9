"""A loaded project: repo root, config, allowlist, and the matchers compiled from them."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from renamer.allowlist import Allowlist
from renamer.allowlist_load import load_allowlists
from renamer.atomic import TMP_SUFFIX
from renamer.classify import Classifier
from renamer.config import CONFIG_NAME, Config, matcher_of
from renamer.config_load import load_config
from renamer.errors import ConfigError, UnsafeError
from renamer.match import Matcher
from renamer.near_miss import LoosePass, short_labels
from renamer.vcs_command import find_work_tree, is_git


@dataclass(frozen=True)
class LoadedProject:
    root: Path
    config: Config
    allowlist: Allowlist
    classifier: Classifier
    matcher: Matcher
    loose: LoosePass
    git: bool


def repo_root(repo: Path | None, cwd: Path) -> Path:
    """--repo, else the git work tree holding `cwd`, else `cwd` itself."""
    here = cwd.resolve()
    return repo.resolve() if repo is not None else (find_work_tree(here) or here)


def discover(repo: Path | None, config: Path | None, cwd: Path) -> tuple[Path, Path]:
    """(repo root, renamer.yaml): --repo, else the git work tree holding `cwd`; --config,
    else the nearest renamer.yaml from `cwd` up to the root."""
    if repo is not None:
        if not repo.is_dir():
            raise ConfigError(f"--repo {repo}: no such folder")
        root = repo.resolve()
    else:
        root = repo_root(None, cwd)
    if (root / "HEAD").is_file() and (root / "objects").is_dir() and (root / "refs").is_dir():
        raise UnsafeError(f"{root}: a bare git repository has no work tree to sweep; "
                          "clone it and run renamer in the clone")
    if config is not None:
        if not config.is_file():
            raise ConfigError(f"--config {config}: {not_a_file(config)}")
        return root, config.resolve()
    here = cwd.resolve()
    if here == root or root in here.parents:
        for folder in [here, *here.parents]:
            if _config_at(folder / CONFIG_NAME):
                return root, folder / CONFIG_NAME
            if folder == root:
                break
    if _config_at(root / CONFIG_NAME):
        return root, root / CONFIG_NAME
    raise ConfigError(f"{root / CONFIG_NAME}: file not found "
                      "(write one as the README shows, or pass --config)")


def _config_at(path: Path) -> bool:
    """Whether `path` is a renamer.yaml to load; one that is there but no file is an error saying
    what it is (a folder, a link to a device), never "not found" and never passed over."""
    if path.is_file():
        return True
    if os.path.lexists(path):
        raise ConfigError(f"{path}: {not_a_file(path)}")
    return False


def not_a_file(path: Path) -> str:
    """What `path`, which is no regular file, is: said instead of "file not found"."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return "file not found"
    except OSError as exc:
        return f"cannot read: {exc.strerror}"
    if stat.S_ISLNK(info.st_mode):
        target = os.readlink(path)
        try:
            pointed = os.stat(path)
        except OSError:
            return f"a link to {target}, which does not exist, expected a YAML file"
        return f"a link to {target}, {_kind(pointed.st_mode)}, expected a YAML file"
    return f"{_kind(info.st_mode)}, expected a YAML file"


def _kind(mode: int) -> str:
    for test, what in ((stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISSOCK, "a socket"), (stat.S_ISREG, "a file")):
        if test(mode):
            return what
    return "not a regular file"


def load_project(repo: Path | None, config_path: Path | None, cwd: Path) -> LoadedProject:
    root, path = discover(repo, config_path, cwd)
    return project_of(root, load_config(path, root))


def project_of(root: Path, config: Config) -> LoadedProject:
    """The project for a config already loaded (a campaign's: the move's renames over the repo's
    own renamer.yaml): the allowlists read, the rules compiled."""
    path = config.path
    allowlist = load_allowlists(config.allowlist_paths, config.display)
    implicit = [_rooted(config.display(path)), CONFIG_NAME]  # every renamer config, in any folder
    implicit += [_rooted(config.display(p)) for p in config.allowlist_paths]
    moves = _rooted(config.display(path.parent / "moves"))  # past moves' configs (sweep/tombstones.py)
    implicit += [f"{moves}/*.yaml", f"{moves}/*.yml"]
    # Only the files the DNS inventory loads: anything else in that folder (zone files,
    # notes) is swept and verified like any other file.
    dns = _rooted(config.display(config.dns_dir).rstrip("/"))
    implicit += [f"{dns}/resolvers.yaml", f"{dns}/sites/*.yaml", f"{dns}/sites/*.yml"]
    implicit.append(f"*{TMP_SUFFIX}")  # a sweep's temporary files (its state is never in the tree)
    classifier = Classifier(allowlist, config.cutover, implicit)
    matcher = matcher_of(config)
    hosts = [old for old, _ in config.renames.hosts]
    addresses = [old for old, _ in config.renames.addresses]
    labels = short_labels(config.renames.hosts)
    networks = list(config.renames.networks)
    return LoadedProject(root, config, allowlist, classifier, matcher,
                         LoosePass(hosts, addresses, labels, networks), is_git(root))


def _rooted(display: str) -> str:
    """A gitignore pattern for exactly this repo-relative path."""
    return "/" + display.lstrip("/")
