"""What a name in a computing expression stands for: its literal network, and where it is written.

One resolver for both readers of computed addresses (review item D8: computed_resizes.Resolver was a
near-copy of composed_addresses' var/local resolver): sweep/computed_resizes.py (expressions over a
resized network) and sweep/composed_addresses.computed_matches (an old address computed).

A name is resolved to every literal network it may stand for, nearest first (t29-33 finding 01:
only a variable's `default` was read, so `cidrhost(var.lan, -2)` with the network in
terraform.tfvars moved silently):

* Terraform `var.NAME`: the module folder's `terraform.tfvars`, `*.auto.tfvars` (and their `.json`),
  the argument `NAME = ...` of every `module` block in the repository whose `source` is the module's
  folder (followed in the caller's own folder), then the `default`; `local.NAME` the `locals` value;
  `TYPE.NAME.ATTR` a resource's argument; `.tf` and `.tf.json` files alike; a map or list value read
  by its key or index (`var.nets["lan"]`, `var.nets.lan`, `var.lst[0]`); a heredoc holding one
  literal; another `var.`/`local.` followed three deep;
* Python's `NET = ip_network("...")` in the same file; Bicep's `var NAME = '...'` and `param NAME
  string = '...'` in the same `.bicep` file; CloudFormation's `cfn:NAME`, a template Parameter's
  `Default` in the same file;
* a Jinja variable (`jinja:NAME`): the caller's (its literal definition nearest the file).

A name resolved to nothing is the caller's to say (an unknown network). Reads files only under
the repository root, never follows a source outside it, and reads at most `_MAX_FILES` `.tf` files
to find the callers of a module.
"""

from __future__ import annotations

import ipaddress
import json
import os
import re
from collections.abc import Callable
from pathlib import Path

from renamer import hcl_keys, lazy_re

Found = tuple[str, str]  # (the literal network, why: where it is written)
Jinja = Callable[[str], "Found | None"]

_MAX_FILES = 2000
_SKIP_DIRS = frozenset({".git", ".terraform", "node_modules", ".venv", "venv", "__pycache__"})
_NETWORK = r"[0-9A-Fa-f:.]+/\d{1,3}"
# (netaddr's IPNetwork and a `u"..."` prefix too, and `NET = ip_network(LAN)` where the file says `LAN =
# "192.168.40.0/24"`: the same reading main's computed_resizes gained for t29-33 finding 02)
_PY_NETWORK = lazy_re.compile(rb"^[ \t]*(?P<name>[A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?=[ \t]*"
                         rb"(?:(?:ipaddress|netaddr)[ \t]*\.[ \t]*)?"
                         rb"(?:ip_network|IPv4Network|IPv6Network|ip_interface|IPv4Interface|IPv6Interface|"
                         rb"IPNetwork)"
                         rb"""[ \t]*\([ \t]*[uUrR]?(?P<q>['"])(?P<net>[0-9A-Fa-f:.]+/\d{1,3})(?P=q)""", re.M)
_PY_NETWORK_OF = lazy_re.compile(rb"^[ \t]*(?P<name>[A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?=[ \t]*"
                            rb"(?:(?:ipaddress|netaddr)[ \t]*\.[ \t]*)?"
                            rb"(?:ip_network|IPv4Network|IPv6Network|ip_interface|IPv4Interface|IPv6Interface|"
                            rb"IPNetwork)[ \t]*\([ \t]*(?P<ref>[A-Za-z_]\w*)[ \t]*[,)]", re.M)
_PY_STRING = lazy_re.compile(rb"""^[ \t]*(?P<name>[A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?=[ \t]*[uUrR]?(?P<q>['"])"""
                        rb"""(?P<net>[0-9A-Fa-f:.]+/\d{1,3})(?P=q)[ \t]*(?:#[^\n]*)?$""", re.M)
_BICEP = lazy_re.compile(rb"^[ \t]*(?:var[ \t]+(?P<var>[A-Za-z_]\w*)|"
                    rb"param[ \t]+(?P<param>[A-Za-z_]\w*)[ \t]+string)"
                    rb"[ \t]*=[ \t]*'(?P<net>[0-9A-Fa-f:.]+/\d{1,3})'[ \t]*(?://.*)?\r?$", re.M)
_REF_PART = lazy_re.compile(r'\.([A-Za-z_][\w-]*)|\[\s*(?:"([^"\\]*)"|(\d+)|([^\[\]"\s][^\[\]"]*?))\s*\]')
ANY = "\x00any"  # an index that is not a literal (`var.nets[each.key]`): every value of the map or list
_HEREDOC = lazy_re.compile(r"(?:(?:trimspace|chomp)\s*\(\s*)?<<-?([A-Za-z_]\w*)[ \t]*\r?\n\s*(" + _NETWORK
                      + r")\s*\r?\n[ \t]*\1[ \t]*(?:\r?\n\s*)?\)?")
_TFVARS_LINE = lazy_re.compile(rb"^[ \t]*(?P<name>[A-Za-z_][\w-]*)[ \t]*=(?![=>])[ \t]*", re.M)
_INTERPOLATED = lazy_re.compile(r"\$\{\s*([A-Za-z_][\w.\-\[\]\"]*)\s*\}")


def is_network(text: str) -> bool:
    try:
        ipaddress.ip_network(text, strict=False)
    except ValueError:
        return False
    return "/" in text


def split_ref(ref: str) -> tuple[str, list[str | int]] | None:
    """`var.nets["lan"]` -> ("var.nets", ["lan"]); `var.nets.lan` -> ("var.nets", ["lan"]);
    `aws_vpc.main.cidr_block` -> ("aws_vpc.main.cidr_block", []); None where it is no reference."""
    head = re.match(r"[A-Za-z_][\w-]*", ref)
    if head is None:
        return None
    parts: list[str | int] = [head.group()]
    pos = head.end()
    while pos < len(ref):
        m = _REF_PART.match(ref, pos)
        if m is None:
            return None
        parts.append(m.group(1) if m.group(1) is not None else
                     m.group(2) if m.group(2) is not None else
                     int(m.group(3)) if m.group(3) is not None else ANY)
        pos = m.end()
    if len(parts) < 2 or not isinstance(parts[1], str):
        return None
    root = parts[0]
    width = 2 if root in ("var", "local") else 3
    if root not in ("var", "local") and (len(parts) < 3 or not isinstance(parts[2], str)):
        return None
    return ".".join(str(p) for p in parts[:width]), parts[width:]


# --- literal values: HCL and JSON -------------------------------------------------------------


class _NoLiteral(Exception):
    pass


def hcl_literal(text: str) -> object:
    """A literal HCL value: a quoted string, a number, a heredoc holding one network, a list or a
    map of those; a reference (`var.x`, `local.x`) is returned as ("ref", text). Raises _NoLiteral."""
    value, pos = _hcl_value(text, _skip(text, 0))
    if _skip(text, pos) != len(text):
        raise _NoLiteral
    return value


def _skip(text: str, pos: int) -> int:
    while pos < len(text):
        if text[pos] in " \t\r\n,":
            pos += 1
        elif text[pos] == "#" or text.startswith("//", pos):
            newline = text.find("\n", pos)
            pos = len(text) if newline < 0 else newline
        else:
            break
    return pos


def _hcl_value(text: str, pos: int, depth: int = 0) -> tuple[object, int]:
    if pos >= len(text) or depth > 16:  # a hostile nesting costs nothing (no recursion past 16)
        raise _NoLiteral
    c = text[pos]
    if c == '"':
        m = re.compile(r'"([^"\\$%\n]*)"').match(text, pos)
        if m is None:
            raise _NoLiteral
        return m.group(1), m.end()
    if c == "[":
        items: list[object] = []
        pos = _skip(text, pos + 1)
        while pos < len(text) and text[pos] != "]":
            item, pos = _hcl_value(text, pos, depth + 1)
            items.append(item)
            pos = _skip(text, pos)
        if pos >= len(text):
            raise _NoLiteral
        return items, pos + 1
    if c == "{":
        out: dict[str, object] = {}
        pos = _skip(text, pos + 1)
        while pos < len(text) and text[pos] != "}":
            key = re.compile(r'"([^"\\$%\n]*)"|([A-Za-z_][\w-]*)').match(text, pos)
            if key is None:
                raise _NoLiteral
            assign = re.compile(r"\s*(?:=(?![=>])|:)\s*").match(text, key.end())
            if assign is None:
                raise _NoLiteral
            value, pos = _hcl_value(text, assign.end(), depth + 1)
            out[key.group(1) if key.group(1) is not None else key.group(2)] = value
            pos = _skip(text, pos)
        if pos >= len(text):
            raise _NoLiteral
        return out, pos + 1
    heredoc = _HEREDOC.match(text, pos)
    if heredoc is not None:
        return heredoc.group(2), heredoc.end()
    number = re.compile(r"-?\d+(?![\w.])").match(text, pos)
    if number is not None:
        return int(number.group()), number.end()
    ref = re.compile(r'(?:var|local)\.[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*|\[\s*(?:"[^"\\]*"|\d+)\s*\])*'
                     r"(?![\w.(])").match(text, pos)
    if ref is not None:
        return ("ref", re.sub(r"\s+", "", ref.group())), ref.end()
    raise _NoLiteral


def _walk(value: object, path: list[str | int]) -> list[object]:
    """The values at `path` in `value` (every one of a map or list at an index `ANY`)."""
    values = [value]
    for key in path:
        out: list[object] = []
        for v in values:
            if key == ANY:
                out += list(v.values()) if isinstance(v, dict) else list(v) if isinstance(v, list) else []
            elif (isinstance(v, dict) and isinstance(key, str) and key in v) or (
                    isinstance(v, list) and isinstance(key, int) and -len(v) <= key < len(v)):
                out.append(v[key])  # type: ignore[index]
        values = out
    if not values:
        raise _NoLiteral
    return values


# --- the resolver -----------------------------------------------------------------------------


class Names:
    """What a name in an expression of `rel` stands for: `all(ref)` every literal network, nearest
    first, each with where it is written; `names(ref)` the first (None where none)."""

    def __init__(self, data: bytes, rel: str, root: Path | None, jinja: Jinja | None = None) -> None:
        self._data = data
        self._rel = rel
        self._root = root
        self._jinja = jinja
        self._python: dict[str, tuple[str, int]] | None = None
        self._folders: dict[str, dict[str, bytes]] = {}
        self._callers: list[tuple[str, bytes]] | None = None
        self._numbers = False
        # names defined by what no reader here evaluates (`lookup(..)`, `cidrsubnet(..)`): by name, the
        # definition's text and where it stands (computed_resizes says one holding a moved network)
        self.unread: dict[str, list[tuple[str, str]]] = {}

    def __call__(self, ref: str) -> Found | None:
        found = self.all(ref)
        return found[0] if found else None

    def number(self, ref: str) -> tuple[int, str] | None:
        """The literal integer a Terraform `var.`/`local.` holds (tfvars, a module call, the default; the
        first where they differ), with where it is written (t29-33 finding 14: `var.newbits`)."""
        if not self._rel.endswith((".tf", ".tf.json")):
            return None
        self._numbers = True
        try:
            found = self._terraform(ref, self._rel.rpartition("/")[0], 3)
        finally:
            self._numbers = False
        return (int(found[0][0]), found[0][1]) if found else None

    def all(self, ref: str) -> list[Found]:
        if ref.startswith("jinja:"):
            one = self._jinja(ref[len("jinja:"):]) if self._jinja is not None else None
            return [one] if one is not None else []
        if ref.startswith("cfn:"):
            return self._cloudformation(ref[len("cfn:"):])
        if re.fullmatch(r"[A-Za-z_]\w*", ref):
            if self._rel.endswith(".bicep"):
                return self._bicep(ref)
            return self._python_name(ref)
        if not self._rel.endswith((".tf", ".tf.json")):
            return []
        return self._terraform(ref, self._rel.rpartition("/")[0], 3)

    # same file

    def _python_name(self, ref: str) -> list[Found]:
        if self._python is None:
            self._python = {m.group("name").decode(): (m.group("net").decode(),
                                                       self._data.count(b"\n", 0, m.start()) + 1)
                            for m in _PY_NETWORK.finditer(self._data)}
            strings = {m.group("name"): m.group("net").decode() for m in _PY_STRING.finditer(self._data)}
            for m in _PY_NETWORK_OF.finditer(self._data):
                if m.group("ref") in strings and m.group("name").decode() not in self._python:
                    self._python[m.group("name").decode()] = (strings[m.group("ref")],
                                                              self._data.count(b"\n", 0, m.start()) + 1)
        found = self._python.get(ref)
        return [(found[0], f"`{ref}` at {self._rel}:{found[1]}")] if found else []

    def _bicep(self, ref: str) -> list[Found]:
        for m in _BICEP.finditer(self._data):
            name = (m.group("var") or m.group("param")).decode()
            if name == ref:
                line = self._data.count(b"\n", 0, m.start()) + 1
                return [(m.group("net").decode(), f"`{ref}` at {self._rel}:{line}")]
        return []

    def _cloudformation(self, name: str) -> list[Found]:
        text = self._data.decode("utf-8", "replace")
        if text.lstrip().startswith("{"):
            try:
                default = json.loads(text).get("Parameters", {}).get(name, {}).get("Default")
            except (ValueError, AttributeError, RecursionError):
                return []
            if not isinstance(default, str) or not is_network(default):
                return []
            at = text.find(f'"{default}"', max(0, text.find(f'"{name}"')))
            line = text.count("\n", 0, max(at, 0)) + 1
            return [(default, f"the parameter `{name}` at {self._rel}:{line}")]
        params = re.search(r"^Parameters:[ \t]*\r?\n", text, re.M)
        if params is None:
            return []
        block_form = re.compile(r"^(?P<i>[ \t]+)" + re.escape(name) + r":[ \t]*\r?\n"
                           r"(?P<body>(?:(?P=i)[ \t]+.*\r?\n?|[ \t]*\r?\n)*)", re.M)
        block = block_form.search(text, params.end())
        if block is None:
            return []
        default = re.search(r"^[ \t]+Default:[ \t]*(['\"]?)(" + _NETWORK + r")\1[ \t]*(?:#.*)?$",
                            block.group("body"), re.M)
        if default is None or not is_network(default.group(2)):
            return []
        line = text.count("\n", 0, block.start("body") + default.start()) + 1
        return [(default.group(2), f"the parameter `{name}` at {self._rel}:{line}")]

    # Terraform

    def _module(self, folder: str) -> dict[str, bytes]:
        if folder not in self._folders:
            files: dict[str, bytes] = {}
            base = self._root / folder if self._root is not None else None
            try:
                names = sorted(os.listdir(base)) if base is not None else []
            except OSError:
                names = []
            for name in names:
                if base is None or not name.endswith((".tf", ".tf.json", ".tfvars", ".tfvars.json")):
                    continue
                path = base / name
                if path.is_symlink() or not path.is_file():
                    continue
                try:
                    files[f"{folder}/{name}" if folder else name] = path.read_bytes()
                except OSError:
                    continue
            self._folders[folder] = files
        return self._folders[folder]

    def _terraform(self, ref: str, folder: str, depth: int) -> list[Found]:
        if depth <= 0:
            return []
        split = split_ref(ref)
        if split is None:
            return []
        head, path = split
        kind, _, name = head.partition(".")
        files = self._module(folder)
        out: list[Found] = []
        if kind == "var":
            # terraform.tfvars, then *.auto.tfvars (the later wins: name order, as terraform reads them)
            tfvars = sorted((at for at in files if at.endswith((".tfvars", ".tfvars.json"))
                             and (at.rsplit("/", 1)[-1] in ("terraform.tfvars", "terraform.tfvars.json")
                                  or ".auto.tfvars" in at)),
                            key=lambda at: (".auto." in at, at), reverse=True)
            for at in tfvars:
                span = self._tfvars_span(at, files[at], name)
                out += self._value_at(at, files[at], span, ref, path, folder, depth)
            for caller, text, span in self._callers_of(folder, name):
                out += self._value_at(caller, text, span, ref, path, caller.rpartition("/")[0], depth,
                                      f"the argument `{name}` of a module call")
        for at, text in files.items():
            if at.endswith((".tfvars", ".tfvars.json")):
                continue
            span = self._block_span(at, text, kind, name)
            out += self._value_at(at, text, span, ref, path, folder, depth)
        return list(dict.fromkeys(out))

    def _block_span(self, at: str, text: bytes, kind: str, name: str) -> tuple[int, int] | None:
        if at.endswith(".json"):
            return _json_span(text, kind, name)
        if kind == "var":
            return hcl_keys.block_arguments(text, "variable").get(name, {}).get("default")
        if kind == "local":
            return hcl_keys.block_arguments(text, "locals").get("", {}).get(name)
        resource, _, attr = name.partition(".")
        return hcl_keys.labelled_arguments(text, "resource").get((kind, resource), {}).get(attr)

    @staticmethod
    def _tfvars_span(at: str, text: bytes, name: str) -> tuple[int, int] | None:
        if at.endswith(".json"):
            return _json_span(text, "tfvars", name)
        for m in _TFVARS_LINE.finditer(text):
            if m.group("name").decode() == name:
                return m.end(), hcl_keys.expression_end(text, m.end(), len(text))
        return None

    def _value_at(self, at: str, text: bytes, span: tuple[int, int] | None, ref: str, path: list[str | int],
                  folder: str, depth: int, said: str = "") -> list[Found]:
        if span is None:
            return []
        raw = text[span[0]:span[1]].decode("utf-8", "replace")
        try:
            tree = json.loads(raw) if at.endswith(".json") else hcl_literal(raw.strip())
            values = _walk(tree, path)
        except (_NoLiteral, ValueError, RecursionError):
            if not self._numbers and raw.strip():  # defined, but by nothing renamer evaluates
                line = text.count(b"\n", 0, span[0]) + 1
                self.unread.setdefault(ref, []).append((raw.strip()[:200], f"{at}:{line}"))
            return []
        out: list[Found] = []
        for value in values:
            out += self._one_value(at, text, span, ref, value, folder, depth, said)
        return out

    def _one_value(self, at: str, text: bytes, span: tuple[int, int], ref: str, value: object, folder: str,
                   depth: int, said: str) -> list[Found]:
        where = f"`{ref}`" if not said else f"`{ref}` is {said}"
        if isinstance(value, str) and at.endswith(".json"):
            inner = _INTERPOLATED.fullmatch(value)
            if inner is not None:
                value = ("ref", inner.group(1))
        if isinstance(value, tuple) and len(value) == 2 and value[0] == "ref":
            line = text.count(b"\n", 0, span[0]) + 1
            inner_ref = str(value[1])
            found = self._terraform(inner_ref, folder, depth - 1)
            joined = f"{where}, {inner_ref}," if said else f"{where} is {inner_ref}"
            return [(net, f"{joined} at {at}:{line}, {why}") for net, why in found]
        if self._numbers:  # `number`: a literal integer (newbits, a host number)
            if isinstance(value, bool) or not isinstance(value, int):
                return []
            line = text.count(b"\n", 0, span[0]) + 1
            return [(str(value), f"{where} = {value} at {at}:{line}")]
        if not isinstance(value, str) or not is_network(value):
            return []
        at_text = text.find(value.encode(), span[0], span[1])
        line = text.count(b"\n", 0, at_text if at_text >= 0 else span[0]) + 1
        return [(value, f"{where} at {at}:{line}")]

    def callers(self, folder: str, name: str) -> list[tuple[str, bytes, tuple[int, int]]]:
        """The argument `name` of every `module` block whose local `source` is `folder`: (the caller's
        path, the text the span is in, the argument's span)."""
        return self._callers_of(folder, name)

    def _callers_of(self, folder: str, name: str) -> list[tuple[str, bytes, tuple[int, int]]]:
        """The argument `name` of every `module` block whose local `source` is `folder`."""
        if self._root is None:
            return []
        if self._callers is None:
            self._callers = _tf_files(self._root)
        out = []
        target = os.path.normpath(folder or ".")
        for at, text in self._callers:
            if b"module" not in text or b"source" not in text:
                continue
            caller = at.rpartition("/")[0]
            blocks = _module_blocks(at, text)
            for args, body in blocks:
                source = args.get("source")
                span = args.get(name)
                if source is None or span is None:
                    continue
                literal = re.fullmatch(rb'\s*"(\.{1,2}/[^"\\$]*)"\s*', body[source[0]:source[1]])
                if literal is None:
                    continue
                source_path = literal.group(1).decode("utf-8", "replace")
                resolved = os.path.normpath(os.path.join(caller or ".", source_path))
                if resolved == target and not resolved.startswith(".."):
                    out.append((at, body, span))
        return out


# Each file's `module` blocks, by path: (the bytes they were read from, the blocks). The bytes are
# _READ's own, so an unchanged file is parsed once for every file scanned (t38: each expression over a
# module's variable asked for its callers, every `.tf` file parsed again each time).
_MODULES: dict[str, tuple[bytes, list[tuple[dict[str, tuple[int, int]], bytes]]]] = {}


def _module_blocks(at: str, text: bytes) -> list[tuple[dict[str, tuple[int, int]], bytes]]:
    cached = _MODULES.get(at)
    if cached is not None and cached[0] is text:
        return cached[1]
    blocks = (_json_modules(text) if at.endswith(".json")
              else [(args, text) for args in hcl_keys.block_arguments(text, "module").values()])
    if len(_MODULES) > 4 * _MAX_FILES:
        _MODULES.clear()
    _MODULES[at] = (text, blocks)
    return blocks


# The repository's `.tf` files by path: (mtime_ns, size, bytes), read again only when changed (one
# Names per file scanned asks for the callers of its module: a walk of stats, not of reads).
_READ: dict[str, tuple[int, int, bytes]] = {}


def _tf_files(root: Path) -> list[tuple[str, bytes]]:
    out: list[tuple[str, bytes]] = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS and not d.startswith("."))
        for name in sorted(files):
            if not name.endswith((".tf", ".tf.json")):
                continue
            path = Path(folder) / name
            try:
                info = path.lstat()
                if not path.is_file() or path.is_symlink():
                    continue
                key = str(path)
                cached = _READ.get(key)
                if cached is None or cached[:2] != (info.st_mtime_ns, info.st_size):
                    cached = (info.st_mtime_ns, info.st_size, path.read_bytes())
                    if len(_READ) > 4 * _MAX_FILES:
                        _READ.clear()
                    _READ[key] = cached
                out.append((path.relative_to(root).as_posix(), cached[2]))
            except OSError:
                continue
            if len(out) >= _MAX_FILES:
                return out
    return out


def _json_span(text: bytes, kind: str, name: str) -> tuple[int, int] | None:
    """The span of a value in a `.tf.json` file (or a `.tfvars.json`): found by parsing, then located
    in the text as its JSON spelling (the spans are what `_value_at` reads back)."""
    try:
        tree = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(tree, dict):
        return None
    value: object
    if kind == "tfvars":
        value = tree.get(name)
    elif kind == "var":
        value = tree.get("variable", {}).get(name, {}) if isinstance(tree.get("variable"), dict) else None
        value = value.get("default") if isinstance(value, dict) else None
    elif kind == "local":
        locals_ = tree.get("locals")
        blocks = locals_ if isinstance(locals_, list) else [locals_]
        value = next((b[name] for b in blocks if isinstance(b, dict) and name in b), None)
    else:
        resource, _, attr = name.partition(".")
        resources = tree.get("resource")
        typed = resources.get(kind) if isinstance(resources, dict) else None
        block = typed.get(resource) if isinstance(typed, dict) else None
        value = block.get(attr) if isinstance(block, dict) else None
    if value is None:
        return None
    spelled = json.dumps(value).encode()
    at = text.find(spelled)
    if at < 0:
        spelled = json.dumps(value, indent=None, separators=(",", ":")).encode()
        at = text.find(spelled)
    return (at, at + len(spelled)) if at >= 0 else None


def _json_modules(text: bytes) -> list[tuple[dict[str, tuple[int, int]], bytes]]:
    """Each `module` of a `.tf.json` file as spans into a text of its own (`source`, arguments)."""
    try:
        tree = json.loads(text)
    except (ValueError, RecursionError):
        return []
    modules = tree.get("module") if isinstance(tree, dict) else None
    if not isinstance(modules, dict):
        return []
    out = []
    for body in modules.values():
        if not isinstance(body, dict):
            continue
        own = b""
        spans: dict[str, tuple[int, int]] = {}
        for key, value in body.items():
            spelled = json.dumps(value).encode()
            spans[key] = (len(own), len(own) + len(spelled))
            own += spelled + b"\n"
        out.append((spans, own))
    return out
