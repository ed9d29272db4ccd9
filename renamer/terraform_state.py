"""Where Terraform keeps a configuration's state (issue 27, item 2): the names a sweep keeps.

`cloud { workspaces { name = "pug" } }`, `backend "s3" { key = "pug/terraform.tfstate" }`, a
`terraform_remote_state`'s `config`, a `-backend-config` file, Terragrunt's `remote_state`:
renamed with the host, they point Terraform at a new, empty state and the next apply creates
every resource again. The state must be moved first (`terraform state` / workspace rename), so
these strings are kept, reason `terraform-state`. A server named there (`address`, `hostname`,
`endpoint`) is a host reference like any other and follows the rename.

A small HCL reader: comments, strings with `${...}`, heredocs, blocks and object attributes,
enough to know for each string literal the blocks around it and the attribute it is the value of.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from renamer import lazy_re
from renamer.occurrences import Match

KEPT = "terraform-state"
# Backend (and remote-state `config`) arguments naming the state itself, across the backends:
# s3/oss/cos (bucket, key, workspace_key_prefix), gcs (bucket, prefix), azurerm (container_name,
# key, storage_account_name, resource_group_name), local (path, workspace_dir), pg (schema_name),
# kubernetes (secret_suffix), consul (path), remote/cloud (organization, workspaces).
_STATE_ARGUMENTS = frozenset({
    "key", "path", "prefix", "bucket", "workspace_key_prefix", "container_name", "storage_account_name",
    "resource_group_name", "schema_name", "workspace_dir", "secret_suffix", "organization", "name",
    "tags", "project", "workspace", "dynamodb_table", "table"})
_SERVERS = frozenset({"hostname", "address", "lock_address", "unlock_address", "endpoint", "endpoints",
                      "conn_str", "token"})  # a server's name is a host reference, not the state's
_IDENT = re.compile(rb"[A-Za-z_][A-Za-z0-9_-]*")
_HEREDOC = lazy_re.compile(rb"<<-?([A-Za-z_][A-Za-z0-9_]*)\r?\n")


def is_backend_config(rel: str) -> bool:
    """A file given to `terraform init -backend-config=FILE`: its top level is a backend's body."""
    name = rel.rpartition("/")[2].lower()
    return name.endswith(".tfbackend") or (name.endswith(".hcl") and "backend" in name)


def is_hcl(rel: str) -> bool:
    name = rel.rpartition("/")[2].lower()
    return name.endswith((".tf", ".hcl", ".tfbackend"))


@dataclass
class _Frame:
    label: str  # a block's type (`backend`, `data:terraform_remote_state`), `=name` for an object, `[`
    attribute: str | None = None  # the attribute whose value is being read at this level
    words: list[str] = field(default_factory=list)  # the statement so far: identifiers and labels


def state_spans(rel: str, data: bytes) -> list[tuple[int, int]]:
    """The byte spans of the string literals in `data` that name where Terraform keeps state."""
    top = "backend" if is_backend_config(rel) else ""
    stack = [_Frame(top)]
    spans: list[tuple[int, int]] = []
    i, n = 0, len(data)
    while i < n:
        c = data[i:i + 1]
        if c == b"#" or data.startswith(b"//", i):
            i = _line_end(data, i)
        elif data.startswith(b"/*", i):
            end = data.find(b"*/", i + 2)
            i = n if end < 0 else end + 2
        elif c == b'"':
            end = _string_end(data, i)
            if _is_state(stack):
                spans.append((i, end))
            stack[-1].words.append('"' + data[i + 1:end - 1].decode("utf-8", "replace"))
            i = end
        elif data.startswith(b"<<", i) and (heredoc := _HEREDOC.match(data, i)) is not None:
            end = _heredoc_end(data, heredoc.end(), heredoc.group(1))
            if _is_state(stack):
                spans.append((heredoc.end(), end))
            i = end
        elif (word := _IDENT.match(data, i)) is not None:
            stack[-1].words.append(word.group().decode())
            i = word.end()
        elif c in (b"=", b":") and not data.startswith(b"==", i) and not data.startswith(b"=>", i):
            frame = stack[-1]
            if frame.label != "[" and frame.words:
                frame.attribute = frame.words[-1].lstrip('"')
            i += 1
        elif c == b"{":
            stack.append(_Frame(_label(stack[-1]), _inherited(stack[-1])))
            stack[-2].words = []
            i += 1
        elif c in (b"[", b"("):
            stack.append(_Frame("[", _inherited(stack[-1])))
            i += 1
        elif c in (b"}", b"]", b")"):
            if len(stack) > 1:
                stack.pop()
            i += 1
        elif c in (b"\n", b","):
            if stack[-1].label != "[":
                stack[-1].words, stack[-1].attribute = [], None
            i += 1
        else:
            i += 1
    return spans


def _label(frame: _Frame) -> str:
    if frame.attribute is not None:  # `config = {`: an object, the value of an attribute
        return "=" + frame.attribute
    words = frame.words
    if not words:
        return "{"
    if words[0] in ("data", "resource") and len(words) > 1:
        return f"{words[0]}:{words[1].lstrip(chr(34))}"
    return words[0]


def _inherited(frame: _Frame) -> str | None:
    return frame.attribute if frame.label == "[" or frame.attribute is not None else None


def _is_state(stack: list[_Frame]) -> bool:
    labels = [f.label for f in stack]
    attribute = next((f.attribute for f in reversed(stack) if f.attribute is not None), None)
    if attribute is None or attribute in _SERVERS:
        return False
    if "workspaces" in labels and ("cloud" in labels or "backend" in labels or "=config" in labels):
        return True  # every name in a workspaces block names a workspace (name, prefix, tags)
    if "cloud" in labels:  # HCP Terraform: the organization and project hold the workspaces
        return attribute in ("organization", "project")
    state_block = "backend" in labels or (
        "=config" in labels and ("data:terraform_remote_state" in labels or "remote_state" in labels))
    if state_block:
        return attribute in _STATE_ARGUMENTS
    if labels[-1] == "data:terraform_remote_state":
        return attribute == "workspace"  # which of the backend's workspaces is read
    return False


def _line_end(data: bytes, i: int) -> int:
    end = data.find(b"\n", i)
    return len(data) if end < 0 else end


def _string_end(data: bytes, i: int) -> int:
    """The end of the string starting at `i` (past its closing quote); `${...}` may hold strings."""
    j, depth = i + 1, 0
    while j < len(data):
        c = data[j:j + 1]
        if c == b"\\":
            j += 2
            continue
        if data.startswith(b"${", j) or data.startswith(b"%{", j):
            depth += 1
            j += 2
            continue
        if c == b"}" and depth:
            depth -= 1
        elif c == b'"' and depth:
            j = _string_end(data, j)
            continue
        elif c == b'"' or c == b"\n":
            return j + 1
        j += 1
    return len(data)


def _heredoc_end(data: bytes, start: int, tag: bytes) -> int:
    for line in re.finditer(rb"^[ \t]*" + re.escape(tag) + rb"[ \t]*\r?$", data[start:], re.M):
        return start + line.start()
    return len(data)


# `terraform init -backend-config="key=pug/terraform.tfstate"` on a command line (a CI step, a
# Makefile, a script: break-it round 17, finding 7): the same argument a backend file holds.
# Its value after `=`, a space, a line continued with `\`, or the next item of a JSON argv list
# (break-it round 18, #2).
_FLAG = lazy_re.compile(rb"""-backend-config(?:[ \t]*=[ \t]*|[ \t]*\\\r?\n[ \t]*|[ \t]+|["'][ \t]*,[ \t]*)"""
                   rb"""["']?(?P<name>[A-Za-z_]+)[ \t]*=[ \t]*(?P<v>[^\s"',\]]+)""")
# dflook's terraform actions take the same pairs as an input: `backend_config: key=pug/tf.tfstate`,
# one a line in a block scalar, or comma-separated.
_ACTION_INPUT = lazy_re.compile(rb"(?m)^(?P<indent>[ \t]*)backend_config[ \t]*:[ \t]*(?P<rest>[^\r\n]*)")
_PAIR = lazy_re.compile(rb"""(?:^|[\s,"'])(?P<name>[A-Za-z_]+)[ \t]*=[ \t]*(?P<v>[^\s"',]+)""")


def flag_spans(data: bytes) -> list[tuple[int, int]]:
    """The values of `-backend-config=NAME=VALUE` arguments that name where the state is kept."""
    if b"-backend-config" not in data and b"backend_config" not in data:
        return []
    out = [(m.start("v"), m.end("v")) for m in _FLAG.finditer(data)
           if m.group("name").decode() in _STATE_ARGUMENTS]
    for found in _ACTION_INPUT.finditer(data):
        start, end = found.start("rest"), found.end("rest")
        if found.group("rest").strip()[:1] in (b"|", b">"):  # a block: the lines indented deeper
            indent = len(found.group("indent"))
            for line in re.finditer(rb"\n([ \t]*)([^\n]*)", data[end:]):
                if line.group(2).strip() and len(line.group(1)) <= indent:
                    break
                end = found.end("rest") + line.end()
        out += [(start + m.start("v"), start + m.end("v")) for m in _PAIR.finditer(data[start:end])
                if m.group("name").decode() in _STATE_ARGUMENTS]
    return out


def kept_state(rel: str, data: bytes, matches: list[Match]) -> list[Match]:
    """`matches` with those inside a state name kept (`terraform-state`)."""
    if not matches:
        return matches
    spans = (state_spans(rel, data) if is_hcl(rel) else []) + flag_spans(data) + http_spans(data)
    if not spans:
        return matches
    return [replace(m, kept=KEPT) if m.refused is None and m.kept is None
            and any(s <= m.start and m.end <= e for s, e in spans) else m for m in matches]


# The `http` backend keys its state by the address's path (issue 27, t35 finding 04): GitLab-managed
# state is `.../terraform/state/NAME` (with `/lock`), named in a `backend "http"` block, in
# `-backend-config=address=...`, in `TF_HTTP_ADDRESS`/`TF_ADDRESS` and by GitLab CI's `TF_STATE_NAME`
# (the gitlab-terraform template). The server's host is a host reference and still follows; the path
# after it is the state's name, kept like an s3 key.
HTTP_LITERALS = (b"terraform/state/", b"TF_STATE_NAME", b"TF_HTTP_", b"TF_ADDRESS", b'"http"', b"address=")
_GITLAB_STATE = lazy_re.compile(rb"/terraform/state/(?P<v>[^/\s\"'?#&,)}\]]+)")
_STATE_NAME_VAR = lazy_re.compile(rb"""\bTF_STATE_NAME["']?[ \t]*[=:][ \t]*["']?(?P<v>[^\s"'#;&|]+)""")
_ADDRESS_VAR = lazy_re.compile(rb"""\b(?:TF_ADDRESS|TF_HTTP_(?:LOCK_|UNLOCK_)?ADDRESS)["']?[ \t]*[=:]"""
                          rb"""[ \t]*["']?(?P<v>[^\s"'#;&|]+)""")
_HTTP_BLOCK = lazy_re.compile(rb'\bbackend[ \t]+"?http"?[ \t]*\{')
_ADDRESS_ARG = lazy_re.compile(rb"""(?:^|[\s,"'{])(?:lock_|unlock_)?address["']?[ \t]*[=:][ \t]*["']?"""
                          rb"""(?P<v>[^\s"',}]+)""")
_URL_PATH = lazy_re.compile(rb"(?:[A-Za-z][\w+.-]*://)?(?:\$\{[^}]*\}|[^/\s])*(?P<path>/\S*)$")


def http_spans(data: bytes) -> list[tuple[int, int]]:
    """The spans naming an `http` backend's state: the path of its addresses (after the server),
    GitLab's `/terraform/state/NAME`, and `TF_STATE_NAME`'s value."""
    if not any(word in data for word in HTTP_LITERALS):
        return []
    out = [(m.start("v"), m.end("v")) for m in _GITLAB_STATE.finditer(data)]
    out += [(m.start("v"), m.end("v")) for m in _STATE_NAME_VAR.finditer(data)
            if not m.group("v").startswith((b"$", b"{"))]
    values = [(m.start("v"), m.end("v")) for m in _ADDRESS_VAR.finditer(data)]
    for block in _HTTP_BLOCK.finditer(data):
        close = data.find(b"}", block.end())
        values += [(m.start("v"), m.end("v"))
                   for m in _ADDRESS_ARG.finditer(data, block.end(), len(data) if close < 0 else close)]
    values += [(m.start("v"), m.end("v")) for m in _FLAG.finditer(data) if m.group("name") in (
        b"address", b"lock_address", b"unlock_address")]
    for start, end in values:
        url = _URL_PATH.match(data, start, end)
        if url is not None and url.end("path") - url.start("path") > 1:
            out.append((url.start("path"), url.end("path")))
    return out


_STATE_FILE = lazy_re.compile(r"\.tfstate(?:\.backup|\.enc|\.json)?$")
STATE = "terraform-state"
STATE_HINT = ("a Terraform state file: terraform writes it, renamer never does (edited to the new values, it "
              "would agree with the swept configuration, and the read-only plan guard (-refresh=false) would "
              "see no change while the real object keeps the old value); run `terraform apply` with the "
              "swept configuration (verify --terraform plans it first), or call the file a record")


def state_held(rel: str, matches: list[Match]) -> list[Match]:
    """`matches` in a Terraform state file (`*.tfstate`, `*.tfstate.backup`, a workspace's under
    `terraform.tfstate.d/`), committed or ignored, each refused `terraform-state` unless kept
    already (break-it round 20, finding 9): its contents are terraform's, never rewritten."""
    if not _STATE_FILE.search(rel.rsplit("/", 1)[-1]):
        return matches
    return [replace(m, refused=STATE, note=None) if m.kept is None and m.refused is None else m
            for m in matches]


def state_file_note(rel: str, new_path: str) -> str | None:
    """Why a Terraform state file keeps its path (break-it round 16, finding 12): its own name
    changes (`state/pug.tfstate`, which a backend's or remote state's kept `path` names), or the
    workspace folder of `terraform.tfstate.d/pug/` does. None where it may move (only a folder
    above it changes: the configuration moves with it)."""
    old_parts, new_parts = rel.split("/"), new_path.split("/")
    if len(old_parts) != len(new_parts):
        return None
    if _STATE_FILE.search(old_parts[-1]) and old_parts[-1] != new_parts[-1]:
        return (f"a Terraform state file: a backend's or `terraform_remote_state`'s `path` reads it by this "
                f"name (kept `{KEPT}`); renamed, it reads no state and the next apply creates every resource "
                "again: move the state with Terraform (`terraform init -migrate-state`) and then the file")
    for i, part in enumerate(old_parts[:-2]):
        if part == "terraform.tfstate.d" and old_parts[i + 1] != new_parts[i + 1]:
            return (f"the state of the Terraform workspace `{old_parts[i + 1]}` (`terraform.tfstate.d/`): "
                    "renamed, the workspace reads no state: move it with `terraform state` first")
    return None
