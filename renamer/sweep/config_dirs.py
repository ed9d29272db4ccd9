"""Files one reader loads together: a config directory's top-level labels are one sibling set.

nginx's `include conf.d/*.conf;` and HAProxy's `-f /etc/haproxy/conf.d/` read every file of a
folder as one text: an `upstream wolf` in `a.conf` and another in `b.conf` are two upstreams of
one name (`nginx -t`: "duplicate upstream"), `backend wolf` in `10-a.cfg` and `20-b.cfg` two
backends. The sibling check of one file (formats/siblings.py) never sees them. A config directory
is the `.conf` or `.cfg` files of one folder whose name says so (`conf.d`, `*.d`,
`sites-enabled`, `*-enabled`), whose files are numbered fragments (`10-a.cfg`, `20-b.cfg`), or
which a `.conf` file of the folder above includes by a glob (`include sites/*.conf;`); a
top-level label (a brace block's head at the top of its file, an HAProxy section, an nginx
`server_name` on one listen at the top) that stands more often across the set after the edits
than before (and more than once) is a collision, named at both files' lines (break-it round 9 #5).
So is a Kubernetes object's identity across the YAML files of one folder (`kubectl apply -f DIR`):
another folder is another set, and a kustomization's folder none (its patches name their object
again on purpose); a kustomization's own set is the manifests its `resources:` list, wherever they
stand (`kustomize_sets`, break-it round 16 #8: kustomize refuses the duplicate only when built).
"""

from __future__ import annotations

import fnmatch
import posixpath
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from pathlib import Path

from renamer import lazy_re
from renamer.formats.siblings import Label, labels, servers
from renamer.formats.yaml_rt import kubernetes_objects, merged_identities
from renamer.formats.yaml_source import parse_yaml_text
from renamer.sweep import read_sets

_SUFFIXES = (".conf", ".cfg")
_NUMBERED = lazy_re.compile(r"\d+[-_.]")
_TOP = (("block", 0), ("haproxy",))


def sets(paths: Iterable[str], root: Path | None = None) -> list[list[str]]:
    """The config directories among `paths`, each its files in path order: by the folder's name,
    numbered fragments, or (with `root`) an `include` glob in a `.conf` file of the folder above
    that names the folder's files (`include sites/*.conf;` in `nginx/nginx.conf`)."""
    by: dict[tuple[str, str], list[str]] = {}
    confs: dict[str, list[str]] = {}  # folder -> its `.conf` files (an include names a set's files)
    for path in paths:
        folder, _, name = path.rpartition("/")
        suffix = next((s for s in _SUFFIXES if name.endswith(s) and len(name) > len(s)), None)
        if suffix is not None:
            by.setdefault((folder, suffix), []).append(path)
        if path.endswith(".conf"):
            confs.setdefault(folder, []).append(path)
    out = []
    for (folder, _), files in sorted(by.items()):
        base = folder.rpartition("/")[2]
        numbered = sum(1 for f in files if _NUMBERED.match(f.rpartition("/")[2]))
        if len(files) > 1 and (base.endswith((".d", "-enabled")) or numbered > 1
                               or (root is not None and _included(root, folder, files, confs))):
            out.append(sorted(files))
    return out


_INCLUDE = lazy_re.compile(r"^[ \t]*include[ \t]+[\"']?(?P<glob>[^\s;\"']+)", re.MULTILINE)


def _included(root: Path, folder: str, files: list[str], confs: Mapping[str, list[str]]) -> bool:
    """Whether a `.conf` file in the folder above `folder` includes two or more of `files` by one
    glob (its last folder and file pattern, since the include names the deployed path). `confs`:
    each folder's `.conf` files (a scan of every path per folder took 7 s at 40,000 files)."""
    parent, _, base = folder.rpartition("/")
    above = confs.get(parent, [])
    names = [f.rpartition("/")[2] for f in files]
    for path in above:
        try:
            text = (root / path).read_bytes()[:_INCLUDE_READ].decode("utf-8", "replace")
        except OSError:
            continue
        for found in _INCLUDE.finditer(text):
            glob_folder, _, pattern = found.group("glob").rpartition("/")
            matched = sum(fnmatch.fnmatchcase(name, pattern) for name in names)
            if glob_folder.rpartition("/")[2] == base and matched > 1:
                return True
    return False


_INCLUDE_READ = 256 * 1024


# kustomize refuses two resources of one identity itself ("already registered id"), and an
# overlay's patches name their object again on purpose: its folder is no set of this check.
_KUSTOMIZATIONS = frozenset({"kustomization.yaml", "kustomization.yml", "Kustomization"})


def manifest_sets(paths: Iterable[str]) -> list[list[str]]:
    """The YAML files of each folder holding two or more: `kubectl apply -f DIR` and a kustomization's
    folder apply them as one set, where two objects of one identity are one object."""
    by: dict[str, list[str]] = {}
    kustomized = set()
    for path in paths:
        folder, _, name = path.rpartition("/")
        if name in _KUSTOMIZATIONS:
            kustomized.add(folder)
        elif path.endswith((".yaml", ".yml")):
            by.setdefault(folder, []).append(path)
    return [sorted(files) for folder, files in sorted(by.items())
            if len(files) > 1 and folder not in kustomized]


def manifest_collision(texts: Mapping[str, tuple[str, str]]) -> tuple[str, int, str] | None:
    """(path, line, why) where two manifests of one folder (path -> (before, after)) hold one
    Kubernetes identity after the edits that two different identities held before, in two files
    (yaml_rt.merged_identities, place by place); None otherwise."""
    before: dict[tuple[str, str], list[tuple[str, int]]] = {}
    after: dict[tuple[str, str], list[tuple[str, int]]] = {}
    for path, (old, new) in sorted(texts.items()):
        if "apiVersion" not in new or "kind" not in new:
            continue
        for key, lines in kubernetes_objects(old).items():
            before.setdefault(key, []).extend((path, line) for line in lines)
        for key, lines in kubernetes_objects(new).items():
            after.setdefault(key, []).extend((path, line) for line in lines)
    merged = merged_identities(before, after)
    if merged is None or len({p for p, _ in merged[2]}) < 2:
        return None
    what, name, places, (path, line) = merged
    listed = ", ".join(f"{p}:{n}" for p, n in places)
    return (path, line, f"after the rename {what} {name!r} in one folder, which `kubectl apply -f` "
                        f"applies as one ({listed}): a renamed object would collide with an existing one")


def kustomize_sets(paths: Iterable[str], root: Path) -> list[tuple[str, list[str]]]:
    """(kustomization, the manifests it builds as one) for each kustomization of `paths`: the YAML
    files its `resources:` (and `bases:`) list, and those of each folder listed there that holds
    a kustomization of its own, however far apart they stand (break-it round 16, #8:
    `resources: [pug.yaml, db/deploy.yaml]`, two Deployments made one `wolf`, which `kubectl
    kustomize` refuses only when it is run). Patches name their object again on purpose: not read."""
    listed = set(paths)
    found = sorted(p for p in listed if p.rpartition("/")[2] in _KUSTOMIZATIONS)
    out = []
    for kustomization in found:
        files: list[str] = []
        _resources(root, kustomization, listed, files, set())
        files = list(dict.fromkeys(files))
        if len(files) > 1:
            out.append((kustomization, files))
    return out


def _resources(root: Path, kustomization: str, listed: set[str], into: list[str], seen: set[str]) -> None:
    if kustomization in seen:
        return
    seen.add(kustomization)
    try:
        data = parse_yaml_text((root / kustomization).read_bytes()[:_INCLUDE_READ].decode("utf-8", "replace"))
    except OSError:
        return
    if not isinstance(data, dict):
        return
    folder = kustomization.rpartition("/")[0]
    for key in ("resources", "bases"):
        entries = data.get(key)
        for entry in entries if isinstance(entries, list) else []:
            if not isinstance(entry, str) or "://" in entry or entry.startswith(("/", "github.com/")):
                continue
            target = posixpath.normpath(posixpath.join(folder, entry) if folder else entry)
            if target in listed and target.endswith((".yaml", ".yml")):
                into.append(target)
                continue
            inner = next((f"{target}/{name}" for name in sorted(_KUSTOMIZATIONS)
                          if f"{target}/{name}" in listed), None)
            if inner is not None:
                _resources(root, inner, listed, into, seen)


def kustomize_collision(kustomization: str,
                        texts: Mapping[str, tuple[str, str]]) -> tuple[str, int, str] | None:
    """`manifest_collision` of the manifests one kustomization builds, named for it."""
    found = manifest_collision(texts)
    if found is None:
        return None
    path, line, why = found
    return path, line, why.replace("in one folder, which `kubectl apply -f` applies as one",
                                   f"among the resources {kustomization} builds as one (`kubectl kustomize`: "
                                   "\"already registered id\")")


def _top(text: str) -> list[Label]:
    return [label for label in labels(text) + servers(text)
            if label.scope in _TOP or (label.scope[0] == "server_name" and label.scope[1] == 0)]


def collision(texts: Mapping[str, tuple[str, str]]) -> tuple[str, int, str] | None:
    """(path, line, why) where the files of one set (path -> (before, after)) hold a top-level
    label more often after than before, and more than once; None otherwise. Named at the place
    that stood there before."""
    before: Counter[tuple[tuple[object, ...], str]] = Counter()
    was: set[tuple[str, int, str]] = set()
    after: dict[tuple[tuple[object, ...], str], list[tuple[str, int]]] = {}
    for path, (old, new) in sorted(texts.items()):
        for label in _top(old):
            before[(label.scope, label.label)] += 1
            was.add((path, label.line, label.label))
        for label in _top(new):
            after.setdefault((label.scope, label.label), []).append((path, label.line))
    for (scope, name), places in sorted(after.items(), key=lambda item: item[1][0]):
        if len(places) > max(before[(scope, name)], 1) and len({p for p, _ in places}) > 1:
            path, line = next(((p, n) for p, n in places if (p, n, name) in was), places[-1])
            listed = ", ".join(f"{p}:{n}" for p, n in places)
            kind = {"server_name": "server_name", "haproxy": "section"}.get(str(scope[0]), "block")
            return (path, line, f"the {kind} {name!r} would stand twice in one config directory, whose "
                                f"files are read as one ({listed}): a renamed {kind} would collide with an "
                                "existing one")
    return None


Check = Callable[[Mapping[str, tuple[str, str]]], tuple[str, int, str] | None]


def checked_sets(paths: Sequence[str], root: Path | None = None) -> list[tuple[list[str], Check]]:
    """Every set of files read as one, with its check: config directories, then manifest folders."""
    listed = list(paths)
    out: list[tuple[list[str], Check]] = [(files, collision) for files in sets(listed, root)]
    out += [(files, manifest_collision) for files in manifest_sets(listed)]
    if root is not None and any(p.rpartition("/")[2] in _KUSTOMIZATIONS for p in listed):
        out += [(files, partial(kustomize_collision, kustomization))
                for kustomization, files in kustomize_sets(listed, root)]
    if root is not None:
        out += [(files, partial(read_sets.inventory_collision, where))
                for where, files in read_sets.inventory_sets(listed, root)]
        out += [(files, partial(read_sets.compose_collision, where))
                for where, files in read_sets.compose_sets(listed, root)]
        out += [(files, partial(read_sets.ssh_collision, where))
                for where, files in read_sets.ssh_sets(listed, root)]
    return out
