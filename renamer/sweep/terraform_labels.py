"""A Terraform block label and every reference to it move together, or none does (break-it
round 5, finding 1).

`resource "aws_instance" "pug"` holds the quoted name the plain rules rename; `aws_instance.pug.id`
has a `.` before it and stays, so terraform then fails on a reference to an undeclared resource
(renamer/hcl_blocks.py reads both). A label is one name across its module (the `.tf` and
`.tf.json` files of one folder, and the `.tfvars` files there), and, for a variable or an
output, across the module blocks of the repo that call that folder (`module "m" { pug = ... }`,
`module.m.pug`). Each label named by an old host:

A provider's `alias = "pug"` is such a label too (`provider = docker.pug` reads it), never passed
to a module (a `providers` map, `configuration_aliases`: refused).

* **moves** with every reference: each one is rewritten, and a renamed `resource` or `module`
  gets a `moved { from = OLD  to = NEW }` block after its own, so that `terraform plan` shows a
  move, not a destroy and a create (none where a `moved` block from the old address stands);
* is **refused** (a residual `terraform-label`, with why; nothing of it rewritten) where a part
  of it could not follow: a reference in a record or on an exempt line, the new label declared
  already, a state file (`*.tfstate`) or lock file of the folder naming it, an output of a root
  module (read by `terraform output` and `terraform_remote_state`, outside the repo), a
  variable of a folder no module block calls unless a `.tfvars` file beside it sets it and no
  `TF_VAR_pug` or `-var pug=` anywhere does, a resource or module declared in `.tf.json`
  (renamer does not rename a JSON label), an address a terraform command of a script or a
  Makefile names (`-replace=aws_instance.pug`: which root module it runs in cannot be told),
  `terraform output pug` and `-var "pug=..."` there refused with the label they name; a
  setter or a reader from outside (`TF_VAR_`, `-var`, `terraform output`, remote state's
  `outputs.pug`) whether or not a module block calls the folder (run as a root too); a
  `terraform test` file of the module naming it; an output of a call read whole;
* **stays** where its own declaration does (a record, an exempt line): the references the plain
  rules would rewrite (a `.tfvars` key, a module argument) keep it (`terraform-label`, kept).

A `moved`/`removed` block's `from` is the address before a move: kept, never rewritten. An
argument of a module block whose source is outside the repo names a variable renamer cannot see:
refused. Locals keys are mapping keys (renamer/sweep/key_index.py). This module decides;
renamer/sweep/terraform_matches.py applies the verdicts to one file's matches.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from renamer import hcl_blocks, lazy_re, moved_tags, vcs_status
from renamer.classify import CURRENT, EXCLUDED, RECORD
from renamer.hcl_blocks import Label, Parsed, Use
from renamer.names import IPNetwork
from renamer.near_miss import Anchors
from renamer.project import LoadedProject

Key = tuple[str, str, str, str]  # folder, kind, type, name
_CONFIG = (".tf", ".tf.json")
VARS = (".tfvars", ".tfvars.json")
STATE = (".tfstate", ".tfstate.backup", ".terraform.lock.hcl")
# `terraform test`'s files: run blocks' variables, asserts and overrides read the module's labels
TESTS = (".tftest.hcl", ".tftest.json", ".tfmock.hcl")
_READ_LIMIT = 4 * 1024 * 1024
_TFVARS_KEY = lazy_re.compile(rb"^[ \t]*\"?(?P<key>[A-Za-z_][\w-]*)\"?[ \t]*[=:]", re.MULTILINE)
# `data.terraform_remote_state.net.outputs.pug` (or `["pug"]`): another root module's output
REMOTE = lazy_re.compile(
    rb"terraform_remote_state[ \t]*\.[ \t]*[A-Za-z_][\w-]*(?:\[[^\]\r\n]*\])?[ \t]*\.[ \t]*"
                    rb"outputs[ \t]*(?:\.[ \t]*(?P<name>[A-Za-z_][\w-]*)"
                    rb"|\[[ \t]*\"(?P<key>[^\"\r\n]*)\"[ \t]*\])")
_CALLS = r'^[[:space:]]*"?source"?[[:space:]]*[=:]'
# Terraform's functions reading a file of the repo: a `for_each` whose keys they give
FILE_READS = r"(^|[^A-Za-z0-9_.])(file|templatefile|fileset)[[:space:]]*\("
# How a root module's variable is set from outside its files: the environment, terraform's flag.
# Lines outside the configuration that name a label or set a variable: the environment,
# terraform's `-var` flag, a terraform (OpenTofu, Terragrunt) command (`-target=`, `state mv`,
# `import`, `output NAME`).
_OUTSIDE = "TF_VAR_|-var[= ]|(terraform|tofu|terragrunt)[[:space:]]"


@dataclass(frozen=True)
class Verdict:
    action: Literal["moves", "refused", "stays"]
    why: str
    moved_block: bool = False  # a renamed resource or module: add `moved {}` after its block


def network_heads(networks: Iterable[tuple[IPNetwork, IPNetwork]]) -> list[str]:
    """What every address of each old network spells (an IPv4 network's leading whole octets, an
    IPv6 network's leading whole groups), for the first read of the Terraform files."""
    out = []
    for old, _new in networks:
        if old.version == 4:
            out.append(".".join(str(old.network_address).split(".")[: max(1, old.prefixlen // 8)]))
        else:
            groups = [g.lstrip("0") or "0" for g in old.network_address.exploded.split(":")]
            out.append(":".join(groups[: max(1, old.prefixlen // 16)]) + ":")
    return out


def is_terraform(rel: str) -> bool:
    return rel.endswith(_CONFIG + VARS + STATE + TESTS)


def folder_of(rel: str) -> str:
    return rel.rpartition("/")[0]


class TerraformIndex:
    """The repo's Terraform labels named by an old host, their uses and the module calls, read
    once (lazily) per scanner."""

    def __init__(self, project: LoadedProject) -> None:
        self.project = project
        self.renames = dict(project.matcher.hosts)
        if project.matcher.variants:  # `pug_db`, `PUG`: labels the variant rules rename (t26-32, finding 08)
            for old, new in list(self.renames.items()):
                for upper, under in ((True, False), (False, True), (True, True)):
                    self.renames.setdefault(_variant(old, upper, under), _variant(new, upper, under))
        self.olds = frozenset(self.renames)
        self.news = frozenset(self.renames.values())
        self._loaded = False
        self.parsed: dict[str, Parsed] = {}
        self.texts: dict[str, bytes] = {}
        self.labels: dict[Key, list[tuple[str, Label]]] = {}
        self.uses: dict[Key, list[tuple[str, int]]] = {}
        self.children: dict[tuple[str, str], str | None] = {}  # (folder, call) -> the called folder
        self.called: set[str] = set()  # folders some module block of the repo calls
        self.states: dict[str, list[str]] = {}  # folder -> its state and lock files
        self.tf_vars: dict[str, str] = {}  # name -> where `TF_VAR_name` or `-var name=` first stands
        # file -> line -> text: where a terraform command or a variable's setter names an old name
        self.outside: dict[str, dict[int, str]] = {}
        self.remote_outputs: dict[str, str] = {}  # name -> where remote state or `terraform output` reads it
        self._verdicts: dict[Key, Verdict | None] = {}
        self._exempt: dict[str, dict[int, str]] = {}
        self.moved_tag = moved_tags.tag_line(project.config)  # on each `moved` block written
        self._finders: dict[str, tuple[frozenset[str], Anchors]] = {}

    def holds_old(self, data: bytes, prefix: str = "") -> bool:
        """Does `data` hold `prefix` + an old name (`any(f"{prefix}{n}".encode() in data ...)`)?
        Asked of every file holding an old value: under 50 renames 200 names with their variants,
        encoded afresh and looked for one by one each time; here encoded once (again when the
        names grow: _derive) and looked for in one scan where hyperscan runs (near_miss.Anchors)."""
        cached = self._finders.get(prefix)
        if cached is None or cached[0] is not self.olds:
            cached = self._finders[prefix] = (self.olds,
                                              Anchors(sorted({f"{prefix}{n}".encode() for n in self.olds})))
        return cached[1].holds(data)

    # -- reading -------------------------------------------------------------------------------

    def load(self) -> None:
        if self._loaded:
            return
        self._loaded = True
        # an old address spells no label, but may be a `for_each` key (sweep/terraform_keys.py)
        addresses = {old for old, _ in self.project.matcher.addresses}
        # and a moved network's CIDR or an address inside it (`toset(["192.168.40.0/24"])`; t36-33,
        # finding 06): what every such key spells, the network's leading octets or groups
        spelled = set(network_heads(self.project.matcher.networks))
        names = sorted(self.olds | self.news | addresses | spelled)
        if not self.olds and not addresses and not spelled:
            return
        # git grep's regex (PCRE or ERE): only what both read as special is escaped
        pattern = "|".join(re.sub(r"([.\\+*?\[\](){}|^$])", r"\\\1", n) for n in names)
        listed = vcs_status.worktree_files_holding(self.project.root, pattern)
        # `.tf` files reading a file (`yamldecode(file("hosts.yaml"))`): a `for_each` may read its
        # keys from a data file that holds an old value (break-it round 9, finding 6)
        readers: set[str] = set()
        if listed is not None and any(not is_terraform(r) for r in listed):
            readers = set(vcs_status.worktree_files_holding(self.project.root, FILE_READS, suffixes=_CONFIG)
                          or ())
        if listed is not None and not readers and not any(is_terraform(r) for r in listed):
            return  # no Terraform file names a host or reads a file: the common case
        calls = vcs_status.worktree_lines_matching(self.project.root, _CALLS)
        if listed is None or calls is None:
            files = set(self._walk())
        else:
            files = {r for r in listed if is_terraform(r)} | {r for r, _, _ in calls if r.endswith(_CONFIG)}
            files |= readers
        for rel in sorted(files):
            if self.project.classifier.classify(rel).status == EXCLUDED:
                continue
            data = self._bytes(rel)
            if data is None:
                continue
            if rel.endswith(STATE + TESTS):
                self.states.setdefault(state_folder(rel), []).append(rel)
                self.texts[rel] = data
            else:
                self.texts[rel] = data
        if self.project.matcher.derived_names:
            self._derive()
        for rel, data in self.texts.items():
            if rel.endswith(_CONFIG):
                self.parsed[rel] = hcl_blocks.read(data, self.olds | set(self.news),
                                                   is_json=rel.endswith(".json"))
        for rel, parsed in self.parsed.items():
            for call in parsed.calls:
                child = _child(folder_of(rel), call.source)
                self.children[(folder_of(rel), call.name)] = child
                if child is not None:
                    self.called.add(child)
            for label in parsed.labels:
                self.labels.setdefault(self._label_key(rel, label), []).append((rel, label))
        for rel, parsed in self.parsed.items():
            for use in parsed.uses:
                key = self.resolve(rel, use)
                if key is not None and not use.history and use.name in self.olds:
                    self.uses.setdefault(key, []).append((rel, use.line))
        for rel, data in self.texts.items():
            if rel.endswith(VARS):
                for name, line, _s, _e in tfvars_keys(data, self.olds):
                    self.uses.setdefault((folder_of(rel), "variable", "", name), []).append((rel, line))
        for rel, line, text in vcs_status.worktree_lines_matching(self.project.root, _OUTSIDE) or []:
            if is_terraform(rel) or not any(n in text for n in self.olds | addresses):
                continue
            self.outside.setdefault(rel, {})[line] = text
            for name in self.olds:
                word = re.escape(name)
                found = re.search(rf"TF_VAR_{word}(?![\w-])|-var[= ][\"']?{word}=", text)
                if found:
                    self.tf_vars.setdefault(name, f"{found.group()} at {rel}:{line}")
                read = re.search(rf"""\boutput(?:[ \t]+-[\w=-]+)*[ \t]+["']?{word}(?![\w-])""", text)
                if read:
                    self.remote_outputs.setdefault(name, f"`{read.group()}` at {rel}:{line}")
        for rel, data in self.texts.items():  # `data.terraform_remote_state.net.outputs.pug`
            if rel.endswith(_CONFIG):
                for reader in REMOTE.finditer(data):
                    name = (reader.group("name") or reader.group("key")).decode()
                    if name in self.olds:
                        at = data.count(b"\n", 0, reader.start()) + 1
                        self.remote_outputs.setdefault(name, f"`{reader.group().decode()}` at {rel}:{at}")

    def _derive(self) -> None:
        """With `derived_names: true` the plain rules rename `pug-db` to `wolf-db`: such a name in
        a configuration file is a label (or a reference) decided by the same rule as `pug`, so
        it moves with its references or not at all (break-it round 7, finding 3d)."""
        stems = "|".join(re.escape(o) for o in sorted(self.olds, key=len, reverse=True))
        derived = re.compile(rf"(?<![\w.-])({stems})(-[A-Za-z0-9][\w-]*)".encode())
        for rel, data in self.texts.items():
            if rel.endswith(_CONFIG + VARS):
                for found in derived.finditer(data):
                    stem, rest = found.group(1).decode(), found.group(2).decode()
                    self.renames.setdefault(stem + rest, self.renames[stem] + rest)
        self.olds = frozenset(self.renames)
        self.news = frozenset(self.renames.values())

    def _walk(self) -> list[str]:
        found = []
        for folder, dirs, files in os.walk(self.project.root):
            dirs[:] = [d for d in dirs if d not in (".git", ".terraform")]
            for name in files:
                rel = os.path.relpath(os.path.join(folder, name), self.project.root).replace(os.sep, "/")
                if is_terraform(rel):
                    found.append(rel)
        return found

    def _bytes(self, rel: str) -> bytes | None:
        path = self.project.root / rel
        try:
            if path.is_symlink() or path.stat().st_size > _READ_LIMIT:
                return None
            return path.read_bytes()
        except OSError:
            return None

    @staticmethod
    def _label_key(rel: str, label: Label) -> Key:
        return folder_of(rel), label.kind, label.type, label.name

    def resolve(self, rel: str, use: Use) -> Key | None:
        """The label a use reads: of its own folder, or of the folder its module call names."""
        folder = folder_of(rel)
        if not use.via:
            key = (folder, use.kind, use.type, use.name)
            aliased = (folder, "provider", use.type, use.name)  # `provider = docker.pug`
            return aliased if use.kind == "resource" and key not in self.labels and (
                aliased in self.labels or (folder, "provider", use.type, self.renames.get(use.name, ""))
                in self.labels) else key
        if (folder, use.via) not in self.children:
            return None
        child = self.children[(folder, use.via)]
        return (child, use.kind, "", use.name) if child is not None else ("", "remote", use.via, use.name)

    # -- deciding ------------------------------------------------------------------------------

    def verdict(self, key: Key) -> Verdict | None:
        self.load()
        if key not in self._verdicts:
            self._verdicts[key] = self._decide(key)
        return self._verdicts[key]

    def tfvars_verdict(self, folder: str, name: str) -> Verdict | None:
        """A `.tfvars` key: its folder's variable's verdict; in a folder declaring no such
        variable (`envs/prod.tfvars`, read through `-var-file=`), which module reads it cannot be
        told: it follows only where every variable of that name moves, and is kept with the first
        that does not (break-it round 7, finding 10a)."""
        own = self.verdict((folder, "variable", "", name))
        if own is not None or (folder, "variable", "", name) in self.labels:
            return own
        verdicts = [(k, v) for k in sorted(self.labels) if k[1] == "variable" and k[3] == name
                    and (v := self.verdict(k)) is not None]
        held = next((v for _k, v in verdicts if v.action != "moves"), None)
        if held is not None:
            return Verdict("refused" if held.action == "refused" else "stays", held.why)
        return verdicts[0][1] if verdicts else None

    def _decide(self, key: Key) -> Verdict | None:
        folder, kind, type_, name = key
        if kind == "remote":
            return Verdict("refused", f"`{name}` is an argument of module {type_}, whose source is "
                                      "outside the repo: its variable cannot be renamed with it")
        declared = self.labels.get(key)
        new = self.renames.get(name)
        if new is None:
            return None
        if not declared:
            stood = self.labels.get((folder, kind, type_, new))
            if stood:
                rel, label = stood[0]
                return Verdict("moves", f"reads the Terraform {kind} {name}, which is gone: it is "
                                        f"{label.address} at {rel}:{label.line} now, and the reference "
                                        "follows it")
            return None
        rel, label = declared[0]
        where = f"{rel}:{label.line}"
        klass = self.project.classifier.classify(rel)
        if klass.status != CURRENT:
            return Verdict("stays", f"the Terraform {kind} {label.address} at {where} keeps its name "
                                    f"({klass.reason or klass.status})")
        exempt = self._exemption(rel, label.line)
        if exempt is not None:
            return Verdict("stays", f"the Terraform {kind} {label.address} at {where} keeps its name "
                                    f"({exempt})")
        refused = self._refusal(key, rel, label, new)
        if refused is not None:
            return Verdict("refused", f"the Terraform {kind} label {label.address} at {where} is not renamed "
                                      f"{new}: {refused}")
        count = len(self.uses.get(key, []))
        moved = (kind in ("resource", "module") and not any(
            label.address in self.parsed[r].moved_from for r in self.parsed if folder_of(r) == folder))
        return Verdict("moves", f"the Terraform {kind} label {label.address} at {where}, renamed {new} with "
                                f"its {count} reference{'s' if count != 1 else ''}"
                                + (", and a `moved` block" if moved else ""), moved)

    def _refusal(self, key: Key, rel: str, label: Label, new: str) -> str | None:
        folder, kind, type_, _name = key
        taken = self.labels.get((folder, kind, type_, new))
        if taken:
            other, at = taken[0]
            return f"{at.address} is declared already at {other}:{at.line}"
        if kind == "provider" and any(label.name in p.passed for p in self.parsed.values()):
            return ("a provider configuration passed to a module (a `providers` map, "
                    "`configuration_aliases`): renamer does not follow an alias across modules")
        if rel.endswith(".json") and kind in ("resource", "module"):
            # t26-32 #14: the block would go to moved.tf as for HCL; it is the JSON label renamer leaves
            return ("declared in a .tf.json file, whose labels (JSON object keys) renamer does not rename: "
                    "rename it there by hand, with a `moved` block in the module's moved.tf")
        word = re.compile(rb"(?<![\w-])" + re.escape(label.name.encode()) + rb"(?![\w-])")
        for state in self.states.get(folder, []):
            if word.search(self.texts[state]) and state.endswith(TESTS):
                return (f"{state}, a terraform test file, names it: its run blocks, variables and asserts "
                        "are not rewritten with the label (break-it round 7, finding 4); rename it by hand "
                        "or keep it with a keep rule")
            if word.search(self.texts[state]):
                return (f"{state} names it: terraform's own files are never edited; move it with terraform "
                        "and rerun the sweep, or keep it with a keep rule")
        if kind in ("resource", "data", "module"):
            address = re.compile(rf"(?<![\w.-]){re.escape(label.address)}(?![\w-])")
            for other, lines in sorted(self.outside.items()):
                if self.project.classifier.classify(other).status == RECORD:
                    continue  # a record's command is history
                line = next((n for n, text in sorted(lines.items()) if address.search(text)), None)
                if line is not None:
                    return (f"a terraform command at {other}:{line} names {label.address} outside the "
                            "configuration: renamer cannot tell which root module it runs in")
        # a folder a module block calls may be run as a root too (`terraform -chdir=net apply`):
        # what reads or sets it from outside keeps the label whether or not it is called
        # (break-it round 7, finding 9)
        if kind == "output":
            for caller, parsed in sorted(self.parsed.items()):
                for call, line in sorted(parsed.opaque.items()):
                    if self.children.get((folder_of(caller), call), "\0") == folder:
                        return (f"module.{call} is read whole at {caller}:{line}: which of its outputs "
                                "are read there cannot be told")
        if kind == "output" and folder in self.called and label.name in self.remote_outputs:
            return (f"an output read from outside the configuration as {self.remote_outputs[label.name]}: "
                    "the module is run as a root too")
        if kind == "variable" and folder in self.called and label.name in self.tf_vars:
            return (f"a variable set from outside its files as {self.tf_vars[label.name]}: the module is run "
                    "as a root too")
        if kind == "output" and folder not in self.called:
            return ("an output of a root module (no module block of the repo calls it): `terraform output` "
                    "and `terraform_remote_state` read it outside this configuration")
        if kind == "variable" and folder not in self.called:
            # no module block of the repo calls the folder: a root module, or one other repos call
            if label.name in self.tf_vars:
                return f"a root module's variable, set from outside its files as {self.tf_vars[label.name]}"
            if not any(r.endswith(VARS) and folder_of(r) == folder for r, _ in self.uses.get(key, [])):
                return ("a variable of a module no module block of the repo calls, and no .tfvars file "
                        "beside it sets it: it is set from outside the repo (terraform -var, TF_VAR_, "
                        "a caller in another repository)")
        for use_rel, line in self.uses.get(key, []):
            klass = self.project.classifier.classify(use_rel)
            if klass.status != CURRENT:
                why = klass.reason or klass.status
                return f"the reference at {use_rel}:{line} keeps the old name ({why})"
            exempt = self._exemption(use_rel, line)
            if exempt is not None:
                return f"the reference at {use_rel}:{line} keeps the old name ({exempt})"
        return None

    def _exemption(self, rel: str, line: int) -> str | None:
        """The reason line `line` (1-based) of current-state file `rel` is exempt, if it is."""
        if rel not in self._exempt:
            data = self.texts.get(rel) if rel in self.texts else self._bytes(rel)
            lines = (data or b"").decode("utf-8", "replace").split("\n")
            found = self.project.classifier.line_exemptions(rel, lines)
            self._exempt[rel] = {i + 1: e.reason for i, e in found.items()}
        return self._exempt[rel].get(line)


def _variant(name: str, upper: bool, under: bool) -> str:
    """`name` as the `variants` option spells it too (forms.host_forms): upper case, `_` for `-`."""
    name = name.upper() if upper else name
    return name.replace("-", "_") if under else name


def state_folder(rel: str) -> str:
    """The module a state or lock file belongs to: its folder, or the one holding the
    `terraform.tfstate.d/` of a workspace's state."""
    parts = rel.split("/")
    if rel.endswith(TESTS) and len(parts) >= 2 and parts[-2] == "tests":
        return "/".join(parts[:-2])  # `terraform test` reads the tests/ folder of the module above it
    if "terraform.tfstate.d" in parts[:-1]:
        return "/".join(parts[:parts.index("terraform.tfstate.d")])
    return folder_of(rel)


def _child(folder: str, source: str | None) -> str | None:
    """The repo folder a module source names (`./mod`, `../modules/web`); None: not a local path."""
    if source is None or not source.startswith(("./", "../")):
        return None
    joined = os.path.normpath(os.path.join(folder or ".", source)).replace(os.sep, "/")
    return None if joined.startswith("..") else ("" if joined == "." else joined)


def tfvars_keys(data: bytes, names: frozenset[str]) -> list[tuple[str, int, int, int]]:
    """A `.tfvars` file's top-level keys named in `names`: (name, line, start, end)."""
    depths, _ = hcl_blocks.structure(data)
    out = []
    top = 1 if data.lstrip()[:1] == b"{" else 0  # a .tfvars.json file's keys stand inside its object
    for found in _TFVARS_KEY.finditer(data):
        line = data.count(b"\n", 0, found.start()) + 1
        key = found.group("key").decode()
        if key in names and line <= len(depths) and depths[line - 1] == top:
            out.append((key, line, found.start("key"), found.end("key")))
    return out
