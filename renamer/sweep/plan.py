"""Scan the repository and plan a sweep: decisions only, nothing written."""

from __future__ import annotations

import bisect
import os
import posixpath
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from renamer import debug, ignore, once, vcs_listing
from renamer.classify import RECORD
from renamer.errors import ConfigError, UnsafeError
from renamer.paths import problem
from renamer.project import LoadedProject
from renamer.sweep import config_dirs, narrowed, sparse, unread_content
from renamer.sweep.anchors import follow_anchors
from renamer.sweep.compose_search import compose_searches
from renamer.sweep.content import read_content, read_scanned
from renamer.sweep.folders import FolderMove, located, merging, named, plan_folders, splitting
from renamer.sweep.hcl_align import align_scan
from renamer.sweep.held_paths import follow_held_paths
from renamer.sweep.helm_tails import helm_compositions
from renamer.sweep.kube_fates import one_fate
from renamer.sweep.links import Relink, plan_links, without_relinked
from renamer.sweep.machine_search import machine_searches
from renamer.sweep.model import KEPT, FileResult, ScanResult, apply_edits
from renamer.sweep.module_refs import follow_modules
from renamer.sweep.moved_files import gather
from renamer.sweep.parallel import scan_files
from renamer.sweep.pins import Pin, find_pins
from renamer.sweep.pins_history import replaced_versions
from renamer.sweep.refusals import Refusal, refusals
from renamer.sweep.scan import REFUSED_HINTS, FileScanner, ScanOptions
from renamer.sweep.terraform_matches import whole_across_files
from renamer.sweep.tool_names import expanded_hosts, ssh_included
from renamer.sweep.unread import not_read
from renamer.sweep.vars_names import merging as vars_merging
from renamer.sweep.zone_origins import zone_map
from renamer.sweep.zone_serials import including_serials

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Plan:
    project: LoadedProject
    scan: ScanResult
    links: tuple[Relink, ...] = ()  # symlinks re-pointed to follow the renames (links.py)
    link_refusals: tuple[Refusal, ...] = ()
    folder_refusals: tuple[Refusal, ...] = ()  # a renamed folder that would merge into an existing one
    # a DNS inventory host's address a shrinking network move cannot place (refusals.inventory_refusals)
    inventory_refusals: tuple[Refusal, ...] = ()
    pins: tuple[Pin, ...] = ()  # digests of the files it rewrites, recorded elsewhere (sweep/pins.py)
    folders: tuple[FolderMove, ...] = ()  # moved whole, with what git does not track (folders.py)

    @property
    def refusals(self) -> list[Refusal]:
        """What a sweep that writes refuses on, and its dry run lists: edits that would break a
        file's structure, links that would dangle."""
        return sorted(refusals(self.scan) + list(self.link_refusals) + list(self.folder_refusals)
                      + list(self.inventory_refusals), key=lambda r: (r.path, r.line))

    @property
    def changes(self) -> list[FileResult]:
        return [f for f in self.scan.files if f.changes]

    @property
    def renames(self) -> list[tuple[str, str]]:
        return [(f.path, f.new_path) for f in self.scan.files if f.new_path]


def repo_relative(project: LoadedProject, paths: Sequence[Path], cwd: Path) -> list[str]:
    """PATHS arguments as repo-relative prefixes; refuses paths outside the repo."""
    out = []
    for path in paths:
        absolute = (cwd / path).resolve() if not path.is_absolute() else path.resolve()
        try:
            rel = absolute.relative_to(project.root).as_posix()
        except ValueError:
            raise UnsafeError(f"{path}: outside the repository {project.root}") from None
        if not absolute.exists():
            raise ConfigError(f"{path}: no such file or folder")
        out.append("" if rel == "." else rel)
    return out


def _selected(rel: str, prefixes: list[str]) -> bool:
    return not prefixes or any(p == "" or rel == p or rel.startswith(p + "/") for p in prefixes)


@once.scoped
def scan_repo(project: LoadedProject, options: ScanOptions, prefixes: Sequence[str] = (),
              include_ignored: bool = False, progress: Progress | None = None,
              listing: vcs_listing.Listing | None = None) -> ScanResult:
    """Scan every file the sweep would see; keep the files with anything to say.

    `listing`: a `git ls-files` already started for this root (see vcs_listing.start_listing).
    Tracked files are scanned while git still walks the work tree for untracked ones.
    """
    classifier = project.classifier
    wanted = list(prefixes)

    def keep(paths: list[str]) -> list[str]:
        return [rel for rel in paths if _selected(rel, wanted) and not classifier.is_excluded(rel)]

    def selected(paths: list[str]) -> list[str]:
        """The big batches: the workers leave out excluded files (a regex per path, in parallel)."""
        return [rel for rel in paths if _selected(rel, wanted)] if wanted else paths

    git: vcs_listing.Listing | None = None
    if project.git:
        git = (listing if listing is not None and listing.root == project.root
               else vcs_listing.Listing(project.root))

    def ignored_current(git: vcs_listing.Listing) -> list[str]:
        return [rel for rel in keep(git.ignored()) if classifier.is_current_pattern(rel)]

    plain_ignored: list[str] = []
    walked = ignore.walk(project.root) if git is None else None
    # Which zone each zone file holds, where a named.conf says so: read from the tracked files (git's
    # walk for untracked ones is not waited for; a server's configuration is tracked).
    # A record (a backed-up named.conf) is never a server's configuration: no server loads it.
    tracked = git.tracked() if git is not None else walked[0] if walked else []
    zones = zone_map(project.root, tracked, project.config.max_file_size,
                     lambda rel: classifier.classify(rel).status == RECORD)
    if zones.origins:
        options = replace(options, zone_origins=zones.origins)
    if any("." in old for old, _ in project.matcher.hosts):  # a domain to move: dnsmasq's hosts files
        expanded = expanded_hosts(project.root, tracked, project.config.max_file_size,
                                  lambda rel: classifier.classify(rel).status == RECORD)
        if expanded:
            options = replace(options, expanded_hosts=expanded)
        searched, services = compose_searches(project.root, tracked, project.config.max_file_size,
                                              lambda rel: classifier.classify(rel).status == RECORD)
        if searched or services:
            options = replace(options, searched_env=searched, searched_services=services)
        included = ssh_included(project.root, tracked, project.config.max_file_size,
                                lambda rel: classifier.classify(rel).status == RECORD)
        if included:
            options = replace(options, ssh_includes=included)
        searches = machine_searches(project.root, tracked, project.config.max_file_size,
                                    lambda rel: classifier.classify(rel).status == RECORD)
        if searches:
            options = replace(options, machine_searches=searches)
        helm = helm_compositions(project.root, tracked, project.config.max_file_size,
                                 lambda rel: classifier.classify(rel).status == RECORD)
        if helm:
            options = replace(options, helm_compositions=helm)

    def batches() -> Iterator[list[str]]:
        """Tracked files at once; untracked (and ignored) ones when git's walk is done."""
        if git is None:  # a plain folder: its .gitignore files still apply
            listed, hidden = walked or ([], [])
            plain_ignored.extend(hidden)
            yield selected(listed) + ([rel for rel in keep(hidden) if classifier.is_current_pattern(rel)]
                                      if include_ignored else [])
            return
        yield selected(git.tracked())
        yield selected(git.untracked()) + (ignored_current(git) if include_ignored else [])

    listed: list[str] = []

    def recorded(batches: Iterator[list[str]]) -> Iterator[list[str]]:
        for batch in batches:
            listed.extend(batch)
            yield batch

    scanner = FileScanner(project, options)
    chunk = scan_files(project, options, recorded(batches()), progress, scanner)
    if chunk.excluded:
        excluded = set(chunk.excluded)
        listed = [rel for rel in listed if rel not in excluded]
    found_files = chunk.kept
    if options.edits:  # an instance key held in one file is held in all, its `moved` block gone
        found_files = whole_across_files(list(found_files), scanner.instance_keys,
                                         REFUSED_HINTS["terraform-label"])
    if options.edits:
        found_files = list(including_serials(project.root, found_files, zones.parents,
                                             lambda rel: classifier.classify(rel).status,
                                             project.config.max_file_size, zones.unsure))
    debug.say(f"listed: {len(listed)} files")
    unreadable = tuple((f.path, f.refused or "unreadable") for f in found_files if f.kind == "unreadable")
    if git is not None:  # tracked files a sparse checkout keeps out of the work tree (sweep/sparse.py)
        unreadable += tuple(sparse.outside(
            project.root, lambda rel: _selected(rel, wanted) and classifier.is_current_pattern(rel)
            and not classifier.is_excluded(rel) and classifier.classify(rel).status != RECORD,
            lambda data: unread_content.first_old(project.matcher, data), project.config.max_file_size))
    files = tuple(f for f in found_files if f.kind != "unreadable")
    ignored_with_references: list[str] = []
    ignored_with_old_paths: list[str] = []
    if not include_ignored:
        hidden = ignored_current(git) if git is not None else [
            rel for rel in keep(plain_ignored) if classifier.is_current_pattern(rel)]
        for rel in hidden:
            ignored_file = scanner.scan(rel)
            if ignored_file is None or not ignored_file.references:
                continue
            # its content, or only its path (break-it round 10, #11: an `.env` holding no old
            # value was listed as holding some, for its folder's name)
            if any(r.role != "path" for r in ignored_file.references):
                ignored_with_references.append(rel)
            elif any(r.status != KEPT for r in ignored_file.references):  # keep_paths keeps a name
                ignored_with_old_paths.append(rel)
    return ScanResult(files, chunk.scanned, tuple(ignored_with_references), unreadable, tuple(listed),
                      tuple(chunk.holding), tuple(chunk.linking), tuple(ignored_with_old_paths),
                      tuple(sorted(chunk.encrypted)),
                      tuple(sorted([*not_read(project.root, tracked, classifier, project.matcher,
                                              project.config.max_file_size, chunk.scanned),
                                    *chunk.unread])))


@once.scoped
def plan_sweep(project: LoadedProject, prefixes: Sequence[str] = (), include_ignored: bool = False,
               options: ScanOptions | None = None, progress: Progress | None = None,
               listing: vcs_listing.Listing | None = None, *, update_pins: bool = False) -> Plan:
    """The plan, pins included: with `update_pins`, the pins whose format is certain are edits too."""
    scan = scan_repo(project, options or ScanOptions(texts=False), prefixes, include_ignored,
                     progress, listing)
    with debug.timed("anchors"):
        scan = follow_anchors(project, scan)
    with debug.timed("held paths"):
        scan = follow_held_paths(project, scan)
    with debug.timed("module paths"):  # `pws.web-vm` follows `pws/web-vm.sls` (round 22, #02)
        scan = follow_modules(project, scan)
    # each renamed resource's `moved` block into its module's moved.tf (after every pass that may
    # drop one: an instance key held whole takes its block back)
    files, moved_refusals = gather(project.root, scan.files, project.config.max_file_size,
                                   lambda rel: project.classifier.classify(rel).status, git=project.git)
    if files is not scan.files:
        scan = replace(scan, files=files)
    if options is not None and options.allow_identity:  # a Service and its `.svc` names: one fate
        scan = one_fate(project, scan)
    with debug.timed("hcl alignment"):  # terraform fmt's aligned `=` and comments (round 22, #12)
        scan = align_scan(project.root, scan, project.config.max_file_size)
    with debug.timed("pins"):  # after the anchors: their edits change the bytes too
        # the pins a commit of this move left stale too (pins_history.py): a second sweep reports
        # what verify would, and --update-pins after the commit still updates them
        scan, pins = find_pins(project, scan, update=update_pins,
                               prior=lambda: replaced_versions(project))
    plan = Plan(project, scan, pins=pins, folder_refusals=tuple(moved_refusals))
    _check_renames(project, plan)
    merged = merging(project.root, plan.renames)
    split = splitting(plan.renames, _listed_under(project, plan, bool(prefixes)),
                      lambda rel: project.classifier.classify(rel).status != RECORD,
                      lambda moving, staying: _names(project, moving, staying))
    if merged or split:
        plan = replace(plan, folder_refusals=(*plan.folder_refusals, *(
            Refusal(f"{folder}/", 0, f"renaming it to {target}/ would merge it into that existing folder, "
                                     f"which holds {named(held)}: two folders would become one (merge them "
                                     f"by hand, or keep the folder's name with `keep_paths: [{folder}]`)")
            for folder, target, held in merged), *(
            Refusal(f"{folder}/", 0, f"renaming it to {target}/ would split it: {named(staying)} "
                                     f"{'stays' if len(staying) == 1 else 'stay'} (kept, held, outside "
                                     "the paths swept, or a record a moved file names) "
                                     "while its other files move, and references between them (`env_file: "
                                     f"./secrets.yaml`) or to the folder (`rsync -a {folder}/`) would each "
                                     f"name part of it; keep the whole folder (`keep_paths: [{folder}]`), or "
                                     "move what stays out of it first")
            for folder, target, staying in split)))
    lost = _keeps_left_behind(project, plan)
    if lost:
        plan = replace(plan, folder_refusals=(*plan.folder_refusals, *lost))
    joined = vars_merging(project.root, plan.renames)
    if joined:
        plan = replace(plan, folder_refusals=(*plan.folder_refusals, *(
            Refusal(path, 0, f"renaming it to {target} beside {named(held)} would give two entries one "
                             f"name: Ansible reads {name}'s variables from one of them "
                             "and drops the other's (merge them by hand, or keep the name with "
                             f"`keep_paths: [{path}]`)")
            for path, target, name, held in joined)))
    joined_sets = _config_dir_refusals(project, plan)
    if joined_sets:
        plan = replace(plan, folder_refusals=(*plan.folder_refusals, *joined_sets))
    if prefixes and project.git:  # a narrowed sweep's moves named outside its paths (break-it round 17 #19)
        outside = narrowed.outside_readers(project, plan.renames, prefixes)
        if outside:
            plan = replace(plan, folder_refusals=(*plan.folder_refusals, *outside))
    if project.git and plan.renames:
        root = project.root
        plan = replace(plan, folders=plan_folders(
            root, plan.renames, lambda folder: vcs_listing.ls_files(root, "--cached", "--", folder)))
    if plan.folders and plan.scan.ignored_with_old_paths:  # a folder moved whole takes them along
        moved = {rel: os.fsencode(located(rel, plan.folders)) for rel in plan.scan.ignored_with_old_paths}
        left = tuple(rel for rel, new in moved.items()
                     if any(m.kept is None for m in project.matcher.find(new)))
        plan = replace(plan, scan=replace(plan.scan, ignored_with_old_paths=left))
    links = [f for f in plan.scan.files if f.kind == "symlink"]
    relinks, refused = plan_links(project.root, links, plan.renames, plan.scan.paths, project.matcher)
    if not (relinks or refused):
        return plan
    return replace(plan, scan=without_relinked(plan.scan, relinks), links=tuple(relinks),
                   link_refusals=tuple(refused))


def _keeps_left_behind(project: LoadedProject, plan: Plan) -> list[Refusal]:
    """A file the sweep renames whose references a keep rule keeps by a path the new name no
    longer matches (`path: host_vars/web01.yml` while it becomes app01.yml: t35 finding 21): the
    sweep would exit 0, verify would fail on the kept line, and the next sweep would rewrite it."""
    out = []
    for f in plan.scan.files:
        if not f.new_path:
            continue
        used = {r.reason for r in f.references if r.status == KEPT}
        classifier = project.classifier
        after = {rule.name for rule in classifier.keep_rules_for(f.new_path)}
        for rule in classifier.keep_rules_for(f.path):
            if rule.name in used and rule.name not in after:
                out.append(Refusal(f.path, 0, (
                    f"renaming it to {f.new_path} would leave {rule.label} ({rule.where}) behind: its "
                    f"path no longer matches, so the line it keeps would be a residual and the next sweep "
                    f"would rewrite it; add {f.new_path} to the rule's paths (it may name both), or keep "
                    f"the file's name with `keep_paths: [{f.path}]`")))
    return out


def _config_dir_refusals(project: LoadedProject, plan: Plan) -> list[Refusal]:
    """A config directory's files, or a folder's Kubernetes manifests, read as one
    (sweep/config_dirs.py), whose edits make two top-level labels or object identities one across
    two files. Parsed only where two of the set's files hold a new value after the edits."""
    edited = {f.path: f.edits for f in plan.scan.files if f.edits and f.refused is None}
    renames = project.config.renames
    news = {new.encode() for _, new in renames.hosts + renames.addresses}
    out = []
    for files, collision in config_dirs.checked_sets(plan.scan.paths, project.root):
        if not any(path in edited for path in files):
            continue
        read: dict[str, tuple[bytes, bytes]] = {}
        for path in files:
            try:
                data = read_scanned(project.root / path)
            except OSError:
                continue
            read[path] = (data, apply_edits(data, edited[path]) if path in edited else data)
        if sum(1 for _, after in read.values() if any(new in after for new in news)) < 2:
            continue
        found = collision({path: (before.decode("utf-8", "replace"), after.decode("utf-8", "replace"))
                           for path, (before, after) in read.items()})
        if found is not None:
            out.append(Refusal(*found))
    return out


def _listed_under(project: LoadedProject, plan: Plan, some: bool) -> Callable[[str], list[str]]:
    """The tracked files under a folder: the scan's own list, or git's where the sweep was asked
    about some paths only (break-it round 14, finding 12: one file's sweep split its folder)."""
    if some and project.git:
        return lambda folder: vcs_listing.ls_files(project.root, "--cached", "--", folder)
    paths = sorted(plan.scan.paths)
    return lambda folder: paths[bisect.bisect_left(paths, folder + "/"):
                                bisect.bisect_left(paths, folder + "/\U0010ffff")]


def _names(project: LoadedProject, moving: str, staying: str) -> bool:
    """Does `moving` name its neighbour `staying`: its name, or a folder it is in below the folder
    both share (a record folder: `./incidents`, `[incidents](incidents/)`; break-it round 15, #4)?"""
    content = read_content(project.root / moving, project.config.max_file_size)
    if content is None or content.kind != "text":
        return False
    shared = posixpath.commonpath([posixpath.dirname(moving), posixpath.dirname(staying)])
    below = posixpath.relpath(staying, shared) if shared else staying
    return any(os.fsencode(part) in content.data for part in below.split("/"))


def _check_renames(project: LoadedProject, plan: Plan) -> None:
    """A rename must land on a free path inside the repo, and no two on the same one."""
    targets: dict[str, str] = {}
    for old, new in plan.renames:
        if new in targets:
            raise UnsafeError(f"{old}: would be renamed to {new}, as would {targets[new]}")
        targets[new] = old
        why = problem(project.root, new)
        if why is not None:  # e.g. through a symlinked folder, which could lead out of the repo
            raise UnsafeError(f"{old}: cannot rename to {new}: {why}; nothing changed")
        if os.path.lexists(project.root / new):
            raise UnsafeError(f"{old}: cannot rename to {new}: that path already exists")
    if project.git and targets:
        ignored = vcs_listing.ignored_among(project.root, list(targets))
        if ignored:  # an ignored file (`--include-ignored`) renamed to an ignored path stays ignored
            already = vcs_listing.ignored_untracked(project.root, [targets[new] for new in ignored])
            ignored = {new: rule for new, rule in ignored.items() if targets[new] not in already}
        if ignored:  # git would refuse to add it, and git status would no longer show the file
            new, rule = next(iter(ignored.items()))
            raise UnsafeError(f"{targets[new]}: cannot rename to {new}: git ignores that path ({rule}); "
                              "add an exception or rename it by hand; nothing changed")
