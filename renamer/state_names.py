"""Names that key state kept outside the repo (break-it round 10, finding 4), beside `terraform-state`.

A compose stack's containers, networks and named volumes are prefixed with its project name,
which is the compose file's folder (`hosts/pug/compose.yaml`), a top-level `name: pug`,
`COMPOSE_PROJECT_NAME=pug` or `docker compose -p pug`. Renamed with the host, the next `docker
compose up` creates `wolf_pgdata` new and empty while the old `pug_*` containers keep running.
The same holds for a compose volume's own `name:` and a helmfile release's name (Helm keeps the
release by it); a Kubernetes StatefulSet's name is an `identity` (kube_identities.py).

None of these can be renamed by a text edit: the data must be moved first. Each is a residual
`state-name` (the folder's files are held whole: renamed alone, the project splits), never a
silent rewrite. A project pinned by `name:` or by the folder's `.env` keeps its name whatever the
folder is called, so that folder follows. Pure, but for `folder_note`, which reads the folder.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

from renamer import lazy_re, store_names

HELD = "state-name"
# What a `state-name` residual's note ends with: what to do. The compose and Helm advice only where
# the note speaks of a compose project or volume, or of a Helm release; a node, a workspace or an
# archive name gets the general advice (a Proxmox node's note spoke of compose volumes).
GENERIC_HINT = ("a name that keys state kept outside the repo (the note says whose): renamed, the tool "
                "that keeps that state no longer finds it under the new name and starts new, empty "
                "state beside the old; move or rename the state first (the tool's own way), or pin the "
                "old name where the tool allows it, then edit it by hand; or keep it with a keep rule "
                "(`keep_paths` for a folder)")
COMPOSE_HINT = ("a name that keys state kept outside the repo (a compose project's: its compose "
                "file's folder, `name:`, COMPOSE_PROJECT_NAME, `-p`; a compose volume's `name:`): renamed, "
                "the next `docker compose up` starts new, empty volumes beside the old containers; move "
                "the data first (copy each volume into the new one), or pin the old name (`name: OLD` in "
                "the compose file), then edit it by hand; or keep it with a keep rule (`keep_paths` for "
                "a folder)")
HELM_HINT = ("a name that keys state kept outside the repo (a Helm release's: Helm keeps the release's "
             "history and objects by it): renamed, the next apply installs a second release, with "
             "empty volume claims, beside "
             "the old one; uninstall or migrate the old release first, or pin the old name, then edit "
             "it by hand; or keep it with a keep rule")
COMPOSE_FILES = ("compose.yaml", "compose.yml", "docker-compose.yaml", "docker-compose.yml")
_PROJECT = ("the compose project's name: it prefixes the stack's containers, networks and named volumes "
            "(`NAME_data`)")
_TOP_NAME = lazy_re.compile(rb"(?m)^name[ \t]*:[ \t]*[\"']?(?P<v>[^\s\"'#]+)")
_ENV_NAME = lazy_re.compile(rb"""COMPOSE_PROJECT_NAME["']?[ \t]*[=:][ \t]*["']?(?P<v>[^\s"'#;&|]+)""")
_FLAG = lazy_re.compile(rb"""\b(?:docker[ \t]+compose|docker-compose|podman[ \t]+compose|podman-compose)\b"""
                   rb"""[^\n|;&]*?[ \t](?:-p|--project-name)(?:[ \t]+|=)["']?(?P<v>[^\s"';|&]+)""")
_TOP_KEY = lazy_re.compile(rb"(?m)^(?P<key>[A-Za-z_][\w.-]*)[ \t]*:")
_NAME_KEY = lazy_re.compile(rb"""(?:^|[{,\s])["']?name["']?[ \t]*:[ \t]*["']?(?P<v>[^\s,}"'#]+)""")
# A Terraform workspace holds its own state (break-it round 16, finding 12): `terraform workspace
# select -or-create pug` renamed selects a new, empty workspace, and the next apply creates every
# resource again; so do `TF_WORKSPACE=pug` and an Atlantis project's `workspace: pug`.
_WORKSPACE = lazy_re.compile(rb"""\b(?:terraform|tofu|terragrunt)[ \t]+(?:[^\n|;&]*?[ \t])?workspace[ \t]+"""
                        rb"""(?:select|new)(?:[ \t]+-[A-Za-z-]+(?:=[^\s]*)?)*[ \t]+["']?"""
                        rb"""(?P<v>[^\s"';|&-][^\s"';|&]*)""")
_TF_WORKSPACE = lazy_re.compile(rb"""\bTF_WORKSPACE["']?[ \t]*[=:][ \t]*["']?(?P<v>[^\s"'#;&|]+)""")
_ATLANTIS = lazy_re.compile(rb"""(?m)^[ \t]*(?:-[ \t]+)?workspace[ \t]*:[ \t]*["']?(?P<v>[^\s"'#]+)""")
_WORKSPACE_NOTE = ("a Terraform workspace's name: the workspace holds its own state, so renamed, the next "
                   "apply starts from a new, empty one and creates every resource again (`terraform "
                   "workspace` has no rename: copy the state with `terraform state pull`/`push` first)")
# A Pulumi stack holds its own state and config (`Pulumi.pug.yaml`) (break-it round 17, finding 7):
# `pulumi stack select pug` renamed selects a new, empty stack; so does `--stack pug` / `-s pug`.
# `pulumi` is a command word (not `/pulumi.tgz`); a flag taking a value (`--secrets-provider
# passphrase`) is skipped with its value (round 18, #3 and #5).
_PULUMI_AT = rb"(?:^|(?<=[\s;&|(]))pulumi[ \t]"
_PULUMI_VALUED = rb"(?:--secrets-provider|--config-file|-C|--cwd|--color)[ \t]+[^\s-][^\s]*"
_PULUMI = lazy_re.compile(_PULUMI_AT + rb"[ \t]*stack[ \t]+(?:select|init|rm|output|export|import|history"
                     rb"|tag[ \t]+\w+)(?:[ \t]+(?:" + _PULUMI_VALUED + rb"|-[A-Za-z-]+(?:=[^\s]*)?))*"
                     rb"""[ \t]+["']?(?P<v>[^\s"';|&-][^\s"';|&]*)""")
_PULUMI_FLAG = lazy_re.compile(_PULUMI_AT + rb"""[^\n|;&]*?[ \t](?:-s|--stack)(?:[ \t]+|=)["']?"""
                          rb"""(?P<v>[^\s"';|&-][^\s"';|&]*)""")
# pulumi/actions' `stack-name: org/pug` and the Automation API's `stack_name="pug"` (round 18, #3)
_PULUMI_KEY = lazy_re.compile(rb"""(?:^|[\s{,(])["']?(?:stack-name|stack_name|stackName)["']?[ \t]*[:=]"""
                         rb"""[ \t]*["']?(?:[\w.-]+/){0,2}(?P<v>[^\s"'/,)}#]+)""")
_PULUMI_NOTE = ("a Pulumi stack's name: the stack holds its own state and its config "
                "(`Pulumi.NAME.yaml`), so renamed, pulumi selects a new, empty stack (`pulumi stack rename` "
                "moves it first)")
_STACK_NOTE = ("a stack's name (`stack-name`, `stack_name`: a Pulumi stack, an Ansible CloudFormation "
               "task's): the stack holds its own state, so renamed, the next run creates a new, empty one "
               "beside the old (rename the stack itself first)")
# `terraform.workspace == "pug"`: compared with a workspace's name, which is held (above): renamed
# alone, the condition is false in that workspace and what it counts is destroyed (finding 7);
# also `"${terraform.workspace}" == "pug"`, `startswith(terraform.workspace, "pug")` and
# `contains(["pug"], terraform.workspace)` (round 18, #4).
_WS = rb'(?:terraform\.workspace|"\$\{terraform\.workspace\}")'
_WORKSPACE_IS = lazy_re.compile(_WS + rb'[ \t]*[!=]=[ \t]*"(?P<v>[^"$%]*)"|'
                           rb'"(?P<w>[^"$%]*)"[ \t]*[!=]=[ \t]*' + _WS + rb"|"
                           rb"(?:startswith|endswith|strcontains)\([ \t]*terraform\.workspace[ \t]*,[ \t]*"
                           rb'"(?P<x>[^"$%]*)"')
_WORKSPACE_IN = lazy_re.compile(rb"contains\([ \t]*\[(?P<list>[^\]\n]*)\][ \t]*,[ \t]*terraform\.workspace"
                           rb"[ \t]*\)")
_QUOTED = lazy_re.compile(rb'"([^"$%]*)"')
_WORKSPACE_IS_NOTE = ("compared with the Terraform workspace's name (`terraform.workspace`), which a rename "
                      "cannot move: renamed alone, the condition no longer holds in workspace NAME")
_HINTS = (b"name", b"COMPOSE_PROJECT_NAME", b"-p", b"workspace", b"TF_WORKSPACE", b"pulumi", b"stack",
          b"_object", b"_blob")
# An object-store object a Terraform block reads or writes by its key (break-it t26-32, finding 10:
# `data "aws_s3_object"` `key = "pihole/teleporter.zip"`, written by a service outside the repo)
_OBJECT_BLOCK = lazy_re.compile(
    rb'(?m)^[ \t]*(?:data|resource)[ \t]+"(?P<type>aws_s3_object|aws_s3_bucket_object|'
                           rb'google_storage_bucket_object|azurerm_storage_blob)"[ \t]+"[^"\n]*"[ \t]*\{')
_OBJECT_KEY = lazy_re.compile(rb'(?m)^[ \t]*(?P<k>key|name)[ \t]*=[ \t]*"(?P<v>[^"\n]*)"')
_OBJECT_NOTE = ("an object-store object's key (`{type}`): the object is stored under it outside the repo, "
                "where no sweep moves it; renamed alone, the block reads or writes another object (a read "
                "fails, a restore finds nothing); move the object first, or keep the key")


def hint(note: str) -> str:
    """The advice a `state-name` residual's note ends with, for the state its note names."""
    if note.endswith(store_names.DONE):  # a disk's, a store item's, a scheduler's: the note says what to do
        return store_names.HINT
    lowered = note.lower()
    if "compose" in lowered:
        return COMPOSE_HINT
    if "helm" in lowered:
        return HELM_HINT
    return GENERIC_HINT


def is_compose(rel: str, data: bytes) -> bool:
    name = rel.rpartition("/")[2]
    if name in COMPOSE_FILES or re.fullmatch(r"(?:docker-)?compose[.-][\w.-]*\.ya?ml", name):
        return True
    return name.endswith((".yml", ".yaml")) and re.search(rb"(?m)^services[ \t]*:", data) is not None \
        and re.search(rb"(?m)^[ \t]+(?:image|build)[ \t]*:", data) is not None


def spans(rel: str, data: bytes) -> list[tuple[int, int, str]]:
    """(start, end, what it names) of every value in `data` that keys state outside the repo."""
    held = store_names.spans(rel, data)  # a disk's, a store item's, a scheduler's (issue 27, t35 03-06)
    if not any(hint in data for hint in _HINTS):
        return held
    out = held + [(h.start("v"), h.end("v"), _PROJECT) for regex in (_ENV_NAME, _FLAG)
                  for h in regex.finditer(data)]
    if b"workspace" in data or b"TF_WORKSPACE" in data:
        out += [(h.start("v"), h.end("v"), _WORKSPACE_NOTE) for regex in (_WORKSPACE, _TF_WORKSPACE)
                for h in regex.finditer(data) if not h.group("v").startswith((b"$", b"{"))]
        if rel.rpartition("/")[2] in ("atlantis.yaml", "atlantis.yml"):
            out += [(h.start("v"), h.end("v"), _WORKSPACE_NOTE) for h in _ATLANTIS.finditer(data)]
        if b"terraform.workspace" in data:
            out += [(h.start(g), h.end(g), _WORKSPACE_IS_NOTE) for h in _WORKSPACE_IS.finditer(data)
                    for g in ("v", "w", "x") if h.group(g) is not None]
            out += [(h.start("list") + q.start(1), h.start("list") + q.end(1), _WORKSPACE_IS_NOTE)
                    for h in _WORKSPACE_IN.finditer(data) for q in _QUOTED.finditer(h.group("list"))]
    if b"_object" in data or b"azurerm_storage_blob" in data:
        for block in _OBJECT_BLOCK.finditer(data):
            close = data.find(b"\n}", block.end())
            key = b"key" if block.group("type").startswith(b"aws_") else b"name"
            out += [(h.start("v"), h.end("v"), _OBJECT_NOTE.format(type=block.group("type").decode()))
                    for h in _OBJECT_KEY.finditer(data, block.end(), len(data) if close < 0 else close)
                    if h.group("k") == key]
    if b"pulumi" in data:
        out += [(h.start("v"), h.end("v"), _PULUMI_NOTE) for regex in (_PULUMI, _PULUMI_FLAG)
                for h in regex.finditer(data)]
    if b"stack-name" in data or b"stack_name" in data or b"stackName" in data:
        out += [(h.start("v"), h.end("v"), _STACK_NOTE) for h in _PULUMI_KEY.finditer(data)]
    name = rel.rpartition("/")[2]
    if not name.endswith((".yml", ".yaml")):
        return out
    if is_compose(rel, data):
        out += [(h.start("v"), h.end("v"), _PROJECT) for h in _TOP_NAME.finditer(data)]
        out += [(s, e, "a compose volume's own name: the volume that holds the data")
                for s, e in _names_under(data, b"volumes")]
    if name.startswith("helmfile") or re.search(rb"(?m)^releases[ \t]*:", data):
        out += [(s, e, "a Helm release's name: Helm keeps the release by it, and charts name their "
                       "volume claims after it") for s, e in _names_under(data, b"releases", items=True)]
    return out


def _names_under(data: bytes, top: bytes, *, items: bool = False) -> list[tuple[int, int]]:
    """The `name:` values in a top-level block (`volumes:`): a volume's own name one level inside
    an entry, or (`items`) a list item's first-level `name:` (helmfile's `releases:`)."""
    out = []
    keys = list(_TOP_KEY.finditer(data))
    for i, key in enumerate(keys):
        if key.group("key") != top:
            continue
        end = keys[i + 1].start() if i + 1 < len(keys) else len(data)
        block = data[key.end():end]
        item_indent: int | None = None
        offset = key.end()
        for line in block.splitlines(keepends=True):
            stripped = line.lstrip(b" ")
            indent = len(line) - len(stripped)
            if not items:
                wanted = indent >= 1  # a block's entries, or a flow mapping after the key
            elif stripped.startswith(b"- "):
                item_indent = indent if item_indent is None else item_indent
                wanted = indent == item_indent  # `- name: pug`
            else:
                wanted = item_indent is not None and indent == item_indent + 2
            if wanted:
                for hit in _NAME_KEY.finditer(line):
                    out.append((offset + hit.start("v"), offset + hit.end("v")))
            offset += len(line)
    return out


def folder_note(root: str, folder: str, planned: Sequence[Path] = ()) -> str | None:
    """Why renaming `folder` renames a compose project (it holds a compose file that names no project
    and no `.env` beside it pins one) or a Terragrunt unit's state, or moves a folder renamer.yaml's
    `terraform:` names (`planned`), or None."""
    return (_compose_note(root, folder) or _terragrunt_note(root, folder)
            or _planned_note(root, folder, planned))


def _planned_note(root: str, folder: str, planned: Sequence[Path]) -> str | None:
    """renamer.yaml's `terraform:` names `folder` or one under it (break-it round 20k, finding 14):
    renamer never edits renamer.yaml, so moved, every verify's plan guard would name a folder that
    is gone (and a local state moves with it)."""
    top = Path(root, folder).resolve()
    for path in planned:
        resolved = path.resolve()
        if resolved == top or top in resolved.parents:
            named = resolved.relative_to(Path(root).resolve()).as_posix()
            return (f"renamer.yaml's `terraform:` names {named}, the Terraform folder verify plans (its "
                    "state and `.terraform/` with it): renamer never edits renamer.yaml, so moved, every "
                    "verify would name a folder that is gone; move the folder by hand and name its new path "
                    "in `terraform:`")
    return None


_TERRAGRUNT_FILES = ("terragrunt.hcl", "root.hcl", "terragrunt.hcl.json")
# A state key made from the unit's folder: `key = "${path_relative_to_include()}/terraform.tfstate"`
# in the root the units include, or the unit's own `get_terragrunt_dir()`.
# (the state's own argument, `key`/`prefix`/`path`..., made from the path: a path function used
# elsewhere, `source = get_terragrunt_dir()`, keys nothing)
_FOLDER_KEY = lazy_re.compile(rb"(?:^|[{,\s])(?:key|prefix|path|workspace_key_prefix|name|secret_suffix)"
                         rb"[ \t]*=[^\n]*?(?:path_relative_to_include|get_terragrunt_dir"
                         rb"|get_original_terragrunt_dir|get_path_from_repo_root)[ \t]*\(")
_BACKEND = lazy_re.compile(rb"remote_state|generate[ \t]+\"backend\"|backend[ \t]+\"")


def _terragrunt_note(root: str, folder: str) -> str | None:
    """Terragrunt keys a unit's state by its folder (break-it round 17, finding 7): where `folder`
    holds a unit (a `terragrunt.hcl`, at any depth) and a configuration above it or the unit itself
    makes its `remote_state` key from the path, renaming the folder plans against a new, empty state."""
    units = []
    for here, dirs, files in os.walk(os.path.join(root, folder)):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        if "terragrunt.hcl" in files or "terragrunt.hcl.json" in files:
            units.append(here)
        if len(units) > 50:
            break
    if not units:
        return None
    parts = folder.split("/")
    candidates = [os.path.join(root, *parts[:i], name) for i in range(len(parts))
                  for name in _TERRAGRUNT_FILES + tuple(_hcl_files(os.path.join(root, *parts[:i])))]
    candidates += [os.path.join(unit, name) for unit in units for name in _TERRAGRUNT_FILES[::2]]
    for path in candidates:
        if not os.path.isfile(path) or os.path.islink(path):
            continue
        try:
            with open(path, "rb") as f:
                text = f.read(1 << 20)
        except OSError:
            continue
        if _BACKEND.search(text) and _FOLDER_KEY.search(text):
            shown = os.path.relpath(path, root)
            return (f"`{folder}/` holds a Terragrunt unit whose state key is made from its folder "
                    f"(`{shown}`'s `remote_state`): renamed, it plans against a new, empty state and creates "
                    "every resource again (move the state first: `terragrunt state pull`/`push`)")
    return None


def _hcl_files(folder: str) -> list[str]:
    """The `.hcl` files of a folder above a unit (a root the units include by any name:
    `find_in_parent_folders("backend.hcl")`), at most 20."""
    try:
        return sorted(n for n in os.listdir(folder) if n.endswith(".hcl") and n not in _TERRAGRUNT_FILES)[:20]
    except OSError:
        return []


def _compose_note(root: str, folder: str) -> str | None:
    for name in COMPOSE_FILES:
        path = os.path.join(root, folder, name)
        if os.path.isfile(path) and not os.path.islink(path):
            break
    else:
        return None
    try:
        with open(path, "rb") as f:
            compose = f.read(1 << 20)
    except OSError:
        return None
    if _TOP_NAME.search(compose) is not None:
        return None
    volumes = project_volumes(compose)
    if not volumes:
        return None  # containers and networks are created anew, but no data stays behind
    try:
        with open(os.path.join(root, folder, ".env"), "rb") as f:
            if re.search(rb"(?m)^[ \t]*(?:export[ \t]+)?COMPOSE_PROJECT_NAME[ \t]*=", f.read(1 << 20)):
                return None
    except OSError:
        pass
    base = folder.rpartition("/")[2].lower()
    shown = ", ".join(f"`{base}_{v}`" for v in volumes[:3]) + (", ..." if len(volumes) > 3 else "")
    return (f"`{folder}/` holds `{name}`, whose compose project is named after its folder: renamed, "
            f"its named volumes ({shown}) are created anew, empty, beside the old containers")


def project_volumes(compose: bytes) -> list[str]:
    """The named volumes a compose file declares whose names the project prefixes: the entries of
    its top-level `volumes:` that give no `name:` of their own and are not `external`."""
    keys = list(_TOP_KEY.finditer(compose))
    out: list[str] = []
    for i, key in enumerate(keys):
        if key.group("key") != b"volumes":
            continue
        end = keys[i + 1].start() if i + 1 < len(keys) else len(compose)
        block = compose[key.end():end]
        flow = block.split(b"\n", 1)[0].strip()
        if flow.startswith(b"{"):  # `volumes: {pgdata: {}, logs: {name: x}}`
            out += [e.group(1).decode("utf-8", "replace") for e in re.finditer(
                rb"[{,][ \t]*[\"']?([\w.-]+)[\"']?[ \t]*:[ \t]*(?:\{[ \t]*\}|null|~|(?=[,}]))", flow)]
            continue
        entries = list(re.finditer(rb"(?m)^(?P<indent>[ ]+)[\"']?(?P<name>[\w.-]+)[\"']?[ \t]*:", block))
        if not entries:
            continue
        top = min(len(e.group("indent")) for e in entries)
        entries = [e for e in entries if len(e.group("indent")) == top]
        for j, entry in enumerate(entries):
            body = block[entry.end():entries[j + 1].start() if j + 1 < len(entries) else len(block)]
            if re.search(rb"(?:^|[{,\s])(?:name|external)[ \t]*:", body) is None:
                out.append(entry.group("name").decode("utf-8", "replace"))
    return out
