"""`renamer verify --render DIR` (issue 32, item 4): what kustomize makes of the tree, before and after.

A kustomization pulls text from places a file-by-file verify judges apart: a generator's
`files:` (a record, a kept file), a base in another folder, a patch that sets a field. So the
guard renders DIR with `kubectl kustomize` twice, on the tree at the move's base commit (a
detached `git worktree`, always removed) and on the work tree, and compares the objects:

* an old value in a rendered object, outside its identity fields, survives the move: a finding;
* an object whose identity (kind, namespace, name) is in one render and not the other changed
  identity: a finding, unless identities may move (`--allow-identity`) and the new one is the old
  one with the move's names applied (anything else, an object gone or made, is always one).

An old value inside an identity field (kube_identities.py) is the identity rule's to judge, not
a survivor: a held name renders as it was. kubectl missing, kustomize refusing either tree, or a
base that is no commit: RenderError (exit 2, one line). Rendered objects are read as text: kubectl
prints them in one canonical shape (top-level keys at column 0, two spaces a level).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from renamer import kube_identities, lazy_re
from renamer.errors import RenamerError, one_line
from renamer.vcs_command import git_error, git_run

DEFAULT_TIMEOUT = 120.0
Identity = tuple[str, str, str]  # kind, namespace ("" for none), name
Find = Callable[[bytes], list[tuple[int, int, str, str]]]  # (start, end, old, new) of each old value


class RenderError(RenamerError):
    """kubectl is missing, kustomize refused a tree, or the base is no commit (exit 2)."""


@dataclass(frozen=True)
class RenderFinding:
    folder: str  # as given, relative to the repo
    identity: Identity
    message: str

    def where(self) -> str:
        kind, namespace, name = self.identity
        return f"{kind} {namespace + '/' if namespace else ''}{name}"


@dataclass(frozen=True)
class Rendered:
    identity: Identity
    text: bytes


def objects(output: bytes) -> list[Rendered]:
    """The objects of `kubectl kustomize`'s output, in order."""
    out = []
    for doc in output.split(b"\n---\n"):
        doc = doc.removeprefix(b"---\n")
        if not doc.strip():
            continue
        keys = kube_identities.top_keys(doc, 0, len(doc))
        kind = _value(doc, keys.get(b"kind"))
        meta = keys.get(b"metadata")
        name = namespace = ""
        if meta is not None:
            found = kube_identities.child_value(doc, meta[1], meta[2], b"name")
            name = found[2].decode("utf-8", "replace") if found else ""
            found = kube_identities.child_value(doc, meta[1], meta[2], b"namespace")
            namespace = found[2].decode("utf-8", "replace") if found else ""
        out.append(Rendered((kind, namespace, name), doc))
    return out


def _value(doc: bytes, key: tuple[int, int, int] | None) -> str:
    if key is None:
        return ""
    return doc[key[1]:doc.find(b"\n", key[1]) if b"\n" in doc[key[1]:] else len(doc)].strip().decode(
        "utf-8", "replace")


def kustomize(folder: Path, shown: str, timeout: float = DEFAULT_TIMEOUT) -> bytes:
    """`kubectl kustomize folder`'s output; RenderError where kubectl is missing or refuses."""
    kubectl = shutil.which("kubectl")
    if kubectl is None:
        raise RenderError("verify --render: kubectl not found on PATH (it renders kustomizations: install "
                          "kubectl, or leave out --render)")
    if not folder.is_dir():
        raise RenderError(f"verify --render: {shown}: no such folder")
    try:
        done = subprocess.run([kubectl, "kustomize", str(folder)], capture_output=True, timeout=timeout,
                              env={**os.environ, "KUBECONFIG": os.devnull})
    except subprocess.TimeoutExpired:
        raise RenderError(f"verify --render: {shown}: kubectl kustomize ran past {timeout:g} s") from None
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines() or ["no message"]
        raise RenderError(f"verify --render: {shown}: kubectl kustomize failed: {one_line(said[-1])}")
    return done.stdout


@contextmanager
def base_tree(root: Path, rev: str) -> Iterator[Path]:
    """The tree at `rev`, checked out in a detached worktree removed on the way out (whatever happens)."""
    folder = Path(tempfile.mkdtemp(prefix="renamer-render-"))
    tree = folder / "base"
    done = git_run(["git", "-C", str(root), "worktree", "add", "--detach", "--quiet", str(tree), rev],
                   capture_output=True, text=True)
    try:
        if done.returncode != 0:
            raise RenderError(f"verify --render: the base {rev}: {git_error(done.stderr)}")
        yield tree
    finally:
        if done.returncode == 0:
            git_run(["git", "-C", str(root), "worktree", "remove", "--force", str(tree)], capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)
        git_run(["git", "-C", str(root), "worktree", "prune"], capture_output=True)


# kustomize names a generated ConfigMap or Secret `NAME-HASH`, the hash of its content: a sweep
# that rewrites the content changes the suffix, and kustomize rolls whatever mounts it. The same
# object, not another identity.
_HASHED = lazy_re.compile(r"-[a-z0-9]{10}\Z")


def _unhashed(ident: Identity) -> Identity:
    kind, namespace, name = ident
    return (kind, namespace, _HASHED.sub("", name)) if kind in ("ConfigMap", "Secret") else ident


def compare(folder: str, before: list[Rendered], after: list[Rendered],
            find: Find, *, allow_identity: bool) -> list[RenderFinding]:
    """The findings of one folder's two renders; `find` gives (start, end, old, new) of every old
    value in a text (the project's matcher). A generated name's content hash is no identity."""
    out = []
    then = {_unhashed(r.identity) for r in before}
    now = {_unhashed(r.identity) for r in after}
    for item in after:
        fields = [(i.start, i.end) for i in kube_identities.identities("rendered.yaml", item.text)]
        olds = sorted({old for s, e, old, _ in find(item.text)
                       if not any(a <= s and e <= b for a, b in fields)})
        if olds:
            out.append(RenderFinding(folder, item.identity, "an old value survives in the rendered object: "
                                     + ", ".join(olds)))
    moved = {_moved(ident, find) for ident in then - now}
    for ident in sorted(then - now):
        new = _moved(ident, find)
        if allow_identity and new in now and new != ident:
            continue
        if new in now and new != ident:
            why = (f"renamed to {_shown(new)}: `kubectl apply` creates it anew and a pruning apply deletes "
                   "the old one (`renamer sweep --allow-identity` and `verify --render --allow-identity` "
                   "accept it)")
        else:
            why = "gone from the current render: the move removed the object"
        out.append(RenderFinding(folder, ident, f"identity changed: {why}"))
    for ident in sorted(now - then):
        if ident not in moved:  # a renamed one is said above, with its old identity
            out.append(RenderFinding(folder, ident, "identity changed: new in the current render, in no "
                                                    "object of the base's"))
    return out


def _moved(ident: Identity, find: Find) -> Identity:
    kind, namespace, name = ident
    return kind, _renamed(namespace, find), _affixed(name, find)


def _affixed(name: str, find: Find) -> str:
    """`name` renamed by the move; where it holds no old name whole, the old name as a run of its
    `-`-separated parts: a kustomization's `namePrefix: prod-`/`nameSuffix: -v2` render Service pug
    as `prod-pug-v2`, and the move's `prod-wolf-v2` is that object (break-it round 20k, finding 15)."""
    renamed = _renamed(name, find)
    if renamed != name:
        return renamed
    parts = name.split("-")
    for size in range(len(parts) - 1, 0, -1):
        for at in range(len(parts) - size + 1):
            part = "-".join(parts[at:at + size]).encode()
            hits = find(part)
            if len(hits) == 1 and hits[0][0] == 0 and hits[0][1] == len(part):
                return "-".join([*parts[:at], hits[0][3], *parts[at + size:]])
    return name


def _renamed(text: str, find: Find) -> str:
    data = text.encode()
    out, at = b"", 0
    for start, end, _, new in find(data):
        out += data[at:start] + new.encode()
        at = end
    return (out + data[at:]).decode("utf-8", "replace")


def _shown(ident: Identity) -> str:
    kind, namespace, name = ident
    return f"{kind} {namespace + '/' if namespace else ''}{name}"


def _moved_from(root: Path, base: str, folder: str) -> str | None:
    """Where `folder` was at `base`, where the move renamed it (`hosts/pug/` -> `hosts/wolf/`): the
    old path of a file git sees renamed into it, less the same tail; None where none was."""
    done = git_run(["git", "-C", str(root), "diff", "--name-status", "-M", "-z", base],
                   capture_output=True)
    out: bytes = done.stdout if done.returncode == 0 else b""
    fields = out.decode("utf-8", "surrogateescape").split("\0")
    i = 0
    while i < len(fields):
        status = fields[i]
        if status.startswith(("R", "C")) and i + 2 < len(fields):
            old, new = fields[i + 1], fields[i + 2]
            tail = new[len(folder):] if new.startswith(folder + "/") else None
            if tail is not None and old.endswith(tail):
                return old[:len(old) - len(tail)]
            i += 3
        else:
            i += 2
    return None


def guard(root: Path, folders: Sequence[str], base: str,
          find: Find, *, allow_identity: bool,
          timeout: float = DEFAULT_TIMEOUT) -> list[RenderFinding]:
    """Render each of `folders` (relative to `root`) at `base` and now, and compare (`compare`)."""
    out: list[RenderFinding] = []
    with base_tree(root, base) as tree:
        for folder in folders:
            then = folder if (tree / folder).is_dir() else _moved_from(root, base, folder) or folder
            before = objects(kustomize(tree / then, f"{then} (at {base})", timeout))
            after = objects(kustomize(root / folder, folder, timeout))
            out += compare(folder, before, after, find, allow_identity=allow_identity)
    return out
