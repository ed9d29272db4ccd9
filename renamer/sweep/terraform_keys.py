"""A Terraform `for_each` instance key and every reference to it move together, with a `moved`
block, or none does (issue 27, the last class).

`for_each = toset(["pug"])` rewritten to `wolf` renames the instance `x["pug"]` to `x["wolf"]`:
without a `moved` block terraform destroys one and creates the other, and `x["pug"]` elsewhere
reads an instance that is gone. Each key an old value spells, where a `resource`, `data` or
`module` block's `for_each` reads it (renamer/hcl_keys.py: a list or set literal, a map
literal's keys, or a `locals` value of the module naming one of those):

* **moves** with every reference of its module (`x["pug"]`, `module.m["pug"].out`, an `import`'s
  `to`): each is rewritten, and a `moved { from = x["pug"]  to = x["wolf"] }` block goes after
  the block (after the block spelling the key, where the block's own file has no edit), none
  where a `moved` block from that address stands; a standing `moved` block's `from` and `to` are
  kept, so the chain grows a link, as for labels (sweep/terraform_labels.py);
* is **refused** (a residual `terraform-label`: the key, its references and the composed names
  reading `each.key` in the block all kept as they are) where a part could not follow: keys read
  from a variable (`var.hosts`: its default, a `.tfvars` file, a caller's argument, `-var` and
  `TF_VAR_` may each set it), an expression renamer cannot read (a `for`, a function), a key the
  loop rules hold (a mixed loop: sweep/composed.py, sweep/loop_holds.py) or the key rules hold,
  the new key standing already, a reference in a record or on an exempt line, a terraform
  command naming the instance (`-target='x["pug"]'`, `state mv`), a state or test file of the
  module naming the key, a reference to an address no `for_each` block of the module declares;
* **stays** where the key's own spelling does (a record, an exempt line): its references keep it.
"""

from __future__ import annotations

import glob
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from renamer import hcl_for_keys, hcl_keys, lazy_re
from renamer.classify import CURRENT, EXCLUDED
from renamer.formats.yaml_rt import compose_nodes
from renamer.hcl_keys import Looped
from renamer.occurrences import Match
from renamer.sweep.terraform_labels import TESTS, VARS, TerraformIndex, Verdict, folder_of

Span = tuple[str, int, int]  # file, start, end
# a module block's own arguments, not the child's variables
_META = frozenset({"source", "version", "providers", "depends_on", "count", "for_each", "lifecycle"})
# `file("${path.module}/hosts.yaml")`, `templatefile("x.tpl", {...})`, `fileset(path.module, "vms/*.yaml")`
_READS = lazy_re.compile(
    rb'(?<![\w.])(?P<fn>file|templatefile|fileset)[ \t]*\([ \t\r\n]*(?:"(?P<path>[^"\r\n]*)"'
    rb'(?:[ \t\r\n]*,[ \t\r\n]*"(?P<pattern>[^"\r\n]*)")?'
    rb'|(?P<dir>path[ \t]*\.[ \t]*(?:module|root|cwd))[ \t\r\n]*,[ \t\r\n]*"(?P<pattern2>[^"\r\n]*)")?'
)

_NAMED = lazy_re.compile(r"\b(local|var)\s*\.\s*([A-Za-z_][\w-]*)")  # a local or variable an expression reads
_LOCAL_ONLY = lazy_re.compile(rb"[ \t\r\n]*local[ \t]*\.[ \t]*([A-Za-z_][\w-]*)[ \t\r\n]*")
# a data file decoded as it is: its top-level keys are the instance keys
_DECODED_FILE = lazy_re.compile(
    rb'[ \t\r\n]*(?:yaml|json)decode[ \t]*\([ \t\r\n]*file[ \t]*\([ \t\r\n]*"[^"\r\n]*"[ \t\r\n]*\)'
    rb"[ \t\r\n]*\)[ \t\r\n]*"
)


@dataclass
class Instance:
    folder: str
    address: str
    old: str
    new: str
    block: tuple[str, Looped] | None = None
    words: list[Span] | None = None  # where the key is spelled as a key
    refs: list[tuple[str, int, int, bool]] | None = None  # file, start, end, history
    verdict: Verdict | None = None
    moved_at: tuple[str, int, bytes, bytes] | None = None  # file, offset, indent, newline
    tag: bytes = b""  # the `moved` block's tag line (moved_tags.py)
    outside: list[Span] = field(default_factory=list)  # a terraform command's address, in a script
    held: bool = False  # its key word held by the key or loop rules, which refuse it themselves

    @property
    def old_address(self) -> str:
        return f'{self.address}["{self.old}"]'

    @property
    def new_address(self) -> str:
        return f'{self.address}["{self.new}"]'


class InstanceKeys:
    """The instance keys of the repo's Terraform modules an old value spells, each decided once.

    `before(rel)`: the file's matches as the rules before the Terraform hook decide them (key
    references and holds, composed names and loop holds), so a key a loop or a key rule holds
    is known held wherever its references stand."""

    def __init__(self, index: TerraformIndex, before: Callable[[str], list[Match]]) -> None:
        self.index = index
        self.before = before
        self._spans: dict[str, list[tuple[int, int, Instance, str]]] | None = None
        self._texts: dict[str, bytes] = {}
        self._found: dict[str, list[Match]] = {}
        self._listed: dict[str, list[str]] = {}  # folder -> its .tf and .tf.json files
        self._moves: dict[str, set[str]] = {}  # file -> the addresses its `moved` blocks move from
        self.use_before = True  # False: decide without the key and loop rules (`seeds`)
        self._seeded: set[tuple[str, int, str]] = set()  # what `seeds` gave the key rules: no hold of theirs

    def seeds(self) -> dict[tuple[str, int, str], str]:
        """The key spellings refused for a reason of their own (a variable set from outside, a
        reference in a record, no place for the `moved` block...), by (file, line, old name): the
        key rules hold them as keys, so that no reference reads a map key the sweep keeps
        (`var.hosts.pug.ip` beside a held `hosts = { pug = ... }`)."""
        self.use_before = False
        try:
            instances = self._instances()
        finally:
            self.use_before = True
        out: dict[tuple[str, int, str], str] = {}
        for instance in instances:
            if instance.verdict is not None and instance.verdict.action == "refused":
                for rel, start, _end in instance.words or []:
                    line = hcl_keys.line_of(self._text(rel), start)
                    out.setdefault((rel, line, instance.old), f"held back with {instance.verdict.why}")
        self._seeded = set(out)
        return out

    # -- reading -------------------------------------------------------------------------------

    def spans(self, rel: str) -> list[tuple[int, int, Instance, str]]:
        """Each span of `rel` an instance decides: (start, end, instance, role), role one of
        `word`, `ref`, `history`, `body` (a block whose composed names read its keys)."""
        if self._spans is None:
            self._spans = {}
            for instance in self._instances():
                for rel_, start, end in instance.words or []:
                    self._spans.setdefault(rel_, []).append((start, end, instance, "word"))
                for rel_, start, end, history in instance.refs or []:
                    self._spans.setdefault(rel_, []).append(
                        (start, end, instance, "history" if history else "ref")
                    )
                for rel_, start, end in instance.outside:
                    self._spans.setdefault(rel_, []).append((start, end, instance, "ref"))
                if instance.block is not None:
                    rel_, block = instance.block
                    self._spans.setdefault(rel_, []).append((*block.body, instance, "body"))
        return self._spans.get(rel, [])

    def _text(self, rel: str) -> bytes:
        if rel not in self._texts:
            data = self.index.texts.get(rel)
            self._texts[rel] = data if data is not None else (self.index._bytes(rel) or b"")
        return self._texts[rel]

    def _matches(self, rel: str) -> list[Match]:
        if rel not in self._found:
            self._found[rel] = self.index.project.matcher.find(self._text(rel))
        return self._found[rel]

    def _folder_files(self, folder: str) -> list[str]:
        if folder not in self._listed:
            self._listed[folder] = self._list(folder)
        return self._listed[folder]

    def _moved_from(self, rel: str) -> set[str]:
        if rel not in self._moves:
            self._moves[rel] = hcl_keys.moved_from(self._text(rel))
        return self._moves[rel]

    def _list(self, folder: str) -> list[str]:
        root = self.index.project.root / folder if folder else self.index.project.root
        try:
            names = sorted(os.listdir(root))
        except OSError:
            return []
        out = []
        for name in names:
            rel = f"{folder}/{name}" if folder else name
            if (
                name.endswith((".tf", ".tf.json"))
                and (root / name).is_file()
                and self.index.project.classifier.classify(rel).status != EXCLUDED
            ):
                out.append(rel)
        return out

    def _instances(self) -> list[Instance]:
        index = self.index
        index.load()
        folders = {folder_of(r) for r in index.texts if r.endswith((".tf", ".tf.json", *VARS))}
        folders |= {c for c in index.children.values() if c is not None}
        out: list[Instance] = []
        for folder in sorted(folders):
            out += self._folder(folder)
        _shared(out)
        # `terraform apply -target='x["pug"]'` in a script: refused with the instance it names
        for rel in sorted(index.outside):
            data = self._text(rel)
            for ref in hcl_keys.references(data):
                for instance in out:
                    if (instance.address, instance.old) == (ref.address, ref.key):
                        instance.outside.append((rel, ref.start, ref.end))
        return out

    def _folder(self, folder: str) -> list[Instance]:
        files = self._folder_files(folder)
        hcl = [r for r in files if r.endswith(".tf")]
        blocks = {b.address: (rel, b) for rel in hcl for b in hcl_keys.looped(self._text(rel))}
        refs: dict[tuple[str, str], list[tuple[str, int, int, bool]]] = {}
        for rel in files:
            data = self._text(rel)
            history = hcl_keys.history(data) if rel.endswith(".tf") else []
            for ref in hcl_keys.references(data):
                gone = any(s <= ref.start < e for s, e in history)
                refs.setdefault((ref.address, ref.key), []).append((rel, ref.start, ref.end, gone))
        for address, reads in self._through_outputs(folder, hcl, set(blocks)).items():
            for at, start, end, gone, key in reads:
                refs.setdefault((address, key), []).append((at, start, end, gone))
        declared = {a for rel in hcl for a in hcl_keys.declared(self._text(rel))}
        out: list[Instance] = []
        seen: set[tuple[str, str]] = set()
        for _address, (rel, block) in sorted(blocks.items()):
            for instance in self._block(folder, rel, block, hcl, refs):
                seen.add((instance.address, instance.old))
                out.append(instance)
        out += self._remote_arguments(folder, hcl)
        for (address, key), found in sorted(refs.items()):
            new = self._renamed(key)
            if (
                new is None
                or (address, key) in seen
                or not any(self._in_match(r, s, e) for r, s, e, _ in found)
            ):
                continue
            instance = Instance(folder, address, key, new, refs=found)
            if all(history for *_, history in found):  # only a standing `moved` block names it: kept
                out.append(instance)
                continue
            root = address.split(".")[0]
            if address not in declared and "_" not in root and root not in ("module", "data"):
                continue  # no resource type: a `for` variable's map (`h.tags["pug"]`), the key rules'
            unread = "declared by no block of the module renamer reads" if address not in blocks else ""
            instance.verdict = Verdict(
                "refused",
                (
                    f"`{instance.old_address}` reads the instance key {key} of {address}, "
                    f"{unread or 'whose for_each does not spell it'}: "
                    "whether the key is renamed cannot be told, "
                    "so it is kept; rename the instance by hand with a `moved` block"
                ),
            )
            out.append(instance)
        return out

    def _remote_arguments(self, folder: str, hcl: list[str]) -> list[Instance]:
        """A module block whose code is not in the repo (`source = "git::..."`, a registry, a URL)
        passed a map or list literal holding an old value as a key or an item: the child may read
        it as a `for_each` (an instance key) or a label, which cannot be seen, so it is held."""
        out: list[Instance] = []
        for rel in hcl:
            data = self._text(rel)
            for call, arguments in sorted(hcl_keys.block_arguments(data, "module").items()):
                if "source" not in arguments:
                    continue
                source = data[slice(*arguments["source"])].strip().strip(b'"').decode("utf-8", "replace")
                if source.startswith(("./", "../")):
                    continue  # the child is in the repo: its own for_each is read
                for name, span in sorted(arguments.items()):
                    if name in _META:
                        continue
                    items = hcl_keys.keys(data, *span).items
                    for key, start, end in items or ():
                        new = self._renamed(key)
                        if new is None or not self._in_match(rel, start, end):
                            continue
                        line = hcl_keys.line_of(data, start)
                        word = [(rel, start, end)]
                        instance = Instance(folder, f"module.{call}", key, new, words=word, refs=[])
                        instance.verdict = Verdict(
                            "refused",
                            f"{key} is a key or an item of the argument {name} of module.{call} at "
                            f"{rel}:{line}, whose source {source} is not in the repo: whether the module "
                            "reads it as an instance key (`for_each`) or a label cannot be seen: it is kept; "
                            "rename it by hand, with the `moved` block the module's instances need "
                            f'(module.{call}.TYPE.NAME["{key}"] to ["{new}"])',
                        )
                        out.append(instance)
        return out

    def _through_outputs(
        self, folder: str, hcl: list[str], addresses: set[str]
    ) -> dict[str, list[tuple[str, int, int, bool, str]]]:
        """A caller's `module.M.OUT["pug"]` where output OUT of the module yields a `for_each`
        block's instances by key (`value = terraform_data.x`, `{ for k, v in terraform_data.x : k => v.id }`):
        a reference to the instance key, by address: (file, start, end, history, key)."""
        exposed: dict[str, str] = {}  # output -> the block address it yields by key
        for rel in hcl:
            data = self._text(rel)
            for name, arguments in hcl_keys.block_arguments(data, "output").items():
                value = data[slice(*arguments["value"])] if "value" in arguments else b""
                for address in sorted(addresses):
                    whole = rb"(?<![\w.-])" + re.escape(address.encode()) + rb"(?![\w-])(?![ \t]*\[)"
                    if re.search(whole, value):
                        exposed.setdefault(name, address)
        out: dict[str, list[tuple[str, int, int, bool, str]]] = {}
        if not exposed:
            return out
        for (caller, call), child in sorted(self.index.children.items()):
            if child != folder:
                continue
            for rel in self._folder_files(caller):
                data = self._text(rel)
                history = hcl_keys.history(data) if rel.endswith(".tf") else []
                for name, address in exposed.items():
                    read = re.compile(
                        rb"(?<![\w.-])module[ \t]*\.[ \t]*"
                        + re.escape(call.encode())
                        + rb"(?:[ \t]*\[[^\]\r\n]*\])?[ \t]*\.[ \t]*"
                        + re.escape(name.encode())
                        + rb'[ \t]*\[[ \t]*\\?"(?P<key>[^"\\\r\n]*)\\?"[ \t]*\]'
                    )
                    for found in read.finditer(data):
                        gone = any(s <= found.start() < e for s, e in history)
                        out.setdefault(address, []).append(
                            (rel, found.start("key"), found.end("key"), gone, found.group("key").decode())
                        )
        return out

    def _renamed(self, key: str) -> str | None:
        new = self.index.project.matcher.replace(key.encode()).decode("utf-8", "replace")
        return new if new != key else None

    def _in_match(self, rel: str, start: int, end: int) -> bool:
        return any(m.start < end and start < m.end for m in self._matches(rel))

    def _block(
        self,
        folder: str,
        rel: str,
        block: Looped,
        hcl: list[str],
        refs: dict[tuple[str, str], list[tuple[str, int, int, bool]]],
    ) -> list[Instance]:
        data = self._text(rel)
        keys = hcl_keys.keys(data, *block.expr)
        expr = data[block.expr[0] : block.expr[1]].decode("utf-8", "replace")
        where = f"{rel}:{block.line}"
        # Keys spelled as literals (in the expression, or as a local's literal map) come from no file,
        # whatever the values beside them read (t37-break, finding 11: `for_each = local.records`,
        # a map `{a_pug = {content = local.network.hosts.pug.ip}}` over a yamldecode'd topology
        # file, held that whole file as instance keys)
        read = None if self._literal_keys(hcl, keys) else self._file_reads(folder, hcl, rel, block)
        if read is not None:  # `yamldecode(file("hosts.yaml"))`: the keys are a data file's
            files, said = read
            # Decoded as it is, the file's top-level keys are the instance keys and its values are
            # not (t36-sweep, finding 25: an address under `web01:` was kept and called "the instance
            # key", with a `moved` block for an instance that never was); through any other
            # expression, which of its words become keys cannot be told: the whole file is held.
            tops = self._top_keys(files) if self._decoded_whole(folder, hcl, rel, block) else None
            extra = tops if tops is not None else [(f, 0, len(self._text(f))) for f in files]
            return self._unread(
                folder,
                rel,
                block,
                hcl,
                refs,
                keys,
                f"its keys come from {said}, read by a Terraform function: "
                + ("the file's top-level keys are kept with the instances they name" if tops is not None else
                   "the file's old values are kept whole with the instance")
                + " (renamer writes no `moved` block for a key spelled there)",
                extra,
            )
        spelled: list[tuple[str, Span]] = []  # each key and where it is written
        why = None
        if keys.items is not None:
            spelled = [(k, (rel, s, e)) for k, s, e in keys.items]
        elif keys.source is not None and keys.source[0] == "local":
            found = self._local(hcl, keys.source[1])
            if found is not None:
                at, value = found
                inner = hcl_keys.keys(self._text(at), *value)
                if inner.items is not None:
                    spelled = [(k, (at, s, e)) for k, s, e in inner.items]
                else:
                    why = (
                        f"its keys come from local.{keys.source[1]} at {at}, an expression renamer does not "
                        "read (a `for`, a function, another variable)"
                    )
            else:
                why = f"its keys come from local.{keys.source[1]}, which no `locals` block of the module has"
        elif keys.source is not None and (given := self._given(folder, hcl, keys.source[1])) is not None:
            # a variable whose every value the repo spells: its default, the .tfvars files terraform loads
            for at, value in given:
                inner = hcl_keys.keys(self._text(at), *value)
                if inner.items is None:
                    line = hcl_keys.line_of(self._text(at), value[0])
                    why = (
                        f"its keys come from var.{keys.source[1]}, set at {at}:{line} by an unread expression"
                    )
                    break
                spelled += [(k, (at, s, e)) for k, s, e in inner.items]
        elif keys.source is not None:
            why = (
                f"its keys come from var.{keys.source[1]}, which has no literal default or is set besides "
                "(a .tfvars file, a module block's argument, `-var`, `TF_VAR_`): which instances it makes "
                "cannot be told here"
            )
        else:
            why = f"its keys come from `{expr}`, an expression renamer does not read (a `for`, a function)"
        if why is not None:
            return self._unread(folder, rel, block, hcl, refs, keys, why)
        out = []
        names = {k for k, _ in spelled}
        grouped: dict[str, list[Span]] = {}
        for key, span in spelled:
            if self._renamed(key) is not None and self._in_match(*span):
                grouped.setdefault(key, []).append(span)
        for key, spans in grouped.items():
            new = self._renamed(key)
            assert new is not None
            instance = Instance(
                folder, block.address, key, new, (rel, block), spans, refs.get((block.address, key), [])
            )
            instance.verdict = self._decide(instance, where, new in names)
            if instance.verdict.moved_block:
                instance.moved_at = self._moved_at(instance, rel, block)
                instance.tag = self.index.moved_tag
                if instance.moved_at is None:
                    instance.verdict = Verdict(
                        "refused",
                        f"the instance key {key} of {block.address} at {where} is not renamed {new}: it is "
                        "spelled in .tfvars files only, and no .tf file of the module the sweep reads can "
                        "hold "
                        f"its `moved` block; add `moved {{ from = {instance.old_address}  to = "
                        f"{instance.new_address} }}` by hand and rerun the sweep",
                    )
            out.append(instance)
        return out

    def _given(self, folder: str, hcl: list[str], name: str) -> list[tuple[str, tuple[int, int]]] | None:
        """Where var.NAME's every value is written, where the repo tells them all: its `default` and
        the `.tfvars` files terraform loads beside it (`terraform.tfvars`, `*.auto.tfvars`); None
        where a module block calls the folder, `TF_VAR_` or `-var` sets it, or another `.tfvars`
        file (read through `-var-file`) does."""
        if folder in self.index.called or any(
            r not in hcl and not r.endswith(VARS) for r, _s, _e in self._definitions(folder, hcl, "var", name)
        ):
            return None  # a module block's argument, `-var` or `TF_VAR_` sets it
        out: list[tuple[str, tuple[int, int]]] = []
        for rel in hcl:
            default = hcl_keys.block_arguments(self._text(rel), "variable").get(name, {}).get("default")
            if default is not None:
                out.append((rel, default))
        for rel in sorted(self.index.texts):
            if not rel.endswith(VARS):
                continue
            values = _tfvars_values(self._text(rel), name)
            base = rel.rpartition("/")[2]
            loaded = base in ("terraform.tfvars", "terraform.tfvars.json") or base.endswith(
                (".auto.tfvars", ".auto.tfvars.json")
            )
            if values and not (loaded and folder_of(rel) == folder):
                return None
            out += [(rel, v) for v in values]
        return out or None

    def _file_reads(
        self, folder: str, hcl: list[str], rel: str, block: Looped
    ) -> tuple[list[str], str] | None:
        """The repo files a `for_each` expression reads through `file()`, `templatefile()` or
        `fileset()`, directly or through the `local.X` / `var.X` values it names (a local's own
        locals too, three deep), with how they are read; None where it reads none."""
        todo: list[tuple[str, int, int]] = [(rel, *block.expr)]
        seen: set[Span] = set()
        files: list[str] = []
        said: list[str] = []
        depth = 0
        while todo and depth < 4:
            depth += 1
            following: list[Span] = []
            for span in todo:
                if span in seen:
                    continue
                seen.add(span)
                at, start, end = span
                text = self._text(at)[start:end]
                base = folder_of(at)
                for found in _READS.finditer(text):
                    call = found.group().decode("utf-8", "replace").strip() + ")"
                    line = hcl_keys.line_of(self._text(at), start + found.start())
                    said.append(f"`{call}` at {at}:{line}")
                    files += self._files_named(base, found)
                for root, name in re.findall(rb"\b(local|var)\s*\.\s*([A-Za-z_][\w-]*)", text):
                    module = hcl if base == folder else self._folder_files(base)
                    following += self._definitions(base, module, root.decode(), name.decode())
            todo = following
        if not said:
            return None
        return sorted(set(files)), ", ".join(said)

    def _literal_keys(self, hcl: list[str], keys: hcl_keys.Keys) -> bool:
        """Whether the `for_each` keys are literals: in its expression, or a local's literal map."""
        if keys.items is not None:
            return True
        if keys.source is None or keys.source[0] != "local":
            return False
        found = self._local(hcl, keys.source[1])
        return found is not None and hcl_keys.keys(self._text(found[0]), *found[1]).items is not None

    def _decoded_whole(self, folder: str, hcl: list[str], rel: str, block: Looped) -> bool:
        """Whether the `for_each` is one data file decoded as it is: `yamldecode(file("x.yaml"))`
        or `jsondecode(...)`, written there or as the one value of the `local.X` it names."""
        text = self._text(rel)[block.expr[0] : block.expr[1]]
        local = _LOCAL_ONLY.fullmatch(text)
        if local is not None:
            found = self._definitions(folder, hcl, "local", local.group(1).decode())
            if len(found) != 1:
                return False
            at, start, end = found[0]
            text = self._text(at)[start:end]
        return _DECODED_FILE.fullmatch(text) is not None

    def _top_keys(self, files: list[str]) -> list[Span] | None:
        """The top-level mapping keys of each YAML or JSON file, as spans; None where one does
        not read as a mapping (then nothing tells its keys from its values)."""
        out: list[Span] = []
        for rel in files:
            data = self._text(rel)
            try:
                text = data.decode("utf-8")
                docs = compose_nodes(text)
            except (UnicodeDecodeError, ValueError):
                return None
            if len(docs) != 1 or type(docs[0]).__name__ != "MappingNode":
                return None
            for key, _ in docs[0].value:
                start = len(text[: key.start_mark.index].encode())
                width = len(text[key.start_mark.index : key.end_mark.index].encode())
                out.append((rel, start, start + width))
        return out

    def _files_named(self, base: str, found: re.Match[bytes]) -> list[str]:
        """The files of the repo one `file("${path.module}/hosts.yaml")` or `fileset(path.module,
        "hosts/*.yaml")` names, relative to the module's folder (an interpolation read as `*`)."""
        if found.group("fn") == b"fileset":
            pattern = found.group("pattern") or found.group("pattern2")
            directory = found.group("path") if found.group("path") is not None else b"."
            if pattern is None or (found.group("path") is None and found.group("dir") is None):
                return []
            path = (directory + b"/" + pattern).decode("utf-8", "replace")
        elif found.group("path") is not None:
            path = found.group("path").decode("utf-8", "replace")
        else:
            return []
        path = re.sub(r"\$\{\s*path\s*\.\s*(?:module|root|cwd)\s*\}|^path\.(?:module|root|cwd)", ".", path)
        path = re.sub(r"\$\{[^}]*\}", "*", path)
        root = self.index.project.root
        pattern = os.path.normpath(os.path.join(root, base, path))
        if not pattern.startswith(str(root) + os.sep):
            return []
        out = []
        for hit in sorted(glob.glob(pattern, recursive=True)):
            rel = os.path.relpath(hit, root).replace(os.sep, "/")
            if (
                os.path.isfile(hit)
                and not os.path.islink(hit)
                and not rel.endswith((".tf", ".tf.json"))
                and self.index.project.classifier.classify(rel).status != EXCLUDED
            ):
                out.append(rel)
        return out[:200]

    def _local(self, hcl: list[str], name: str) -> tuple[str, tuple[int, int]] | None:
        for rel in hcl:
            found = hcl_keys.block_arguments(self._text(rel), "locals").get("", {}).get(name)
            if found is not None:
                return rel, found
        return None

    def _unread(
        self,
        folder: str,
        rel: str,
        block: Looped,
        hcl: list[str],
        refs: dict[tuple[str, str], list[tuple[str, int, int, bool]]],
        keys: hcl_keys.Keys,
        why: str,
        extra: list[Span] | None = None,
    ) -> list[Instance]:
        """Keys that cannot be read: every old value where they may be written (`extra`: a data
        file a function reads) is kept, with every reference to an instance of the block an old
        value names."""
        spans = [(rel, *block.expr), *(extra or [])]
        data = self._text(rel)
        # Each local and variable the expression reads, and those each local's value reads in turn:
        # `for_each = local.vms` where `local.vms = {for z in local.zones : ...}` and `local.zones =
        # [for k, v in var.instances : k]` builds its keys from var.instances's keys (a real repo:
        # the node's name, renamed, renamed every VM of it: destroy and create).
        pending = _NAMED.findall(data[block.expr[0] : block.expr[1]].decode("utf-8", "replace"))
        computed: hcl_for_keys.KeyFeed | None = None  # the keys an attribute of the objects (L1)
        seen: set[tuple[str, str]] = set()
        while pending:
            root, name = pending.pop()
            if (root, name) in seen:
                continue
            seen.add((root, name))
            found = self._definitions(folder, hcl, root, name)
            spans += found
            if root == "local":  # a variable's values are literals; a local's value is an expression
                for r, s, e in found:
                    value = self._text(r)[s:e].decode("utf-8", "replace")
                    # `{ for k in ... : k.name => k }`: only the headers and `name` feed the keys; a
                    # network literal that feeds `ipv4` only moves no instance (the lead's L1)
                    feed = hcl_for_keys.key_feed(value)
                    pending += _NAMED.findall(feed.text if feed is not None else value)
                    if feed is not None and keys.source == ("local", name):
                        computed = feed
        words = [
            (r, m.start, m.end) for r, s, e in spans for m in self._matches(r) if s <= m.start and m.end <= e
        ]
        olds = {self._text(r)[s:e].decode("utf-8", "replace") for r, s, e in words}
        olds |= {key for (address, key) in refs if address == block.address}
        out = []
        for old in sorted(olds):
            new = self._renamed(old)
            if new is None:
                continue
            mine = [w for w in words if self._text(w[0])[w[1] : w[2]].decode("utf-8", "replace") == old]
            instance = Instance(
                folder, block.address, old, new, (rel, block), mine, refs.get((block.address, old), [])
            )
            advice = (f"rename it by hand with a `moved` block (from = {instance.old_address}, to = "
                      f"{instance.new_address})")
            said = f"the instance key {old} of {block.address}"
            if computed is not None:  # no key is the old value itself: name none (the lead's L1)
                said = f"{old}, which feeds the instance keys of {block.address},"
                advice = (f"each key is an object's `{computed.attribute}` ({computed.definitions[0]}), "
                          f"built from {old}: the instances whose key holds it are replaced; write a "
                          "`moved` block for each key `terraform plan` shows replaced "
                          f"({block.address}[\"<old key>\"] to {block.address}[\"<new key>\"])")
            instance.verdict = Verdict(
                "refused",
                f"{said} at {rel}:{block.line} is not renamed {new}: {why}; {advice}",
            )
            out.append(instance)
        return out

    def _definitions(self, folder: str, hcl: list[str], root: str, name: str) -> list[Span]:
        """Where `local.NAME` or `var.NAME` may be given a value in the repo: the locals value; the
        variable's default, its `.tfvars` value beside it, and each calling module block's argument."""
        out: list[Span] = []
        if root == "local":
            local = self._local(hcl, name)
            return [(local[0], *local[1])] if local is not None else []
        for rel in hcl:
            default = hcl_keys.block_arguments(self._text(rel), "variable").get(name, {}).get("default")
            if default is not None:
                out.append((rel, *default))
        for rel in sorted(
            self.index.texts
        ):  # beside it, or loose (`envs/prod.tfvars`, read through -var-file)
            if rel.endswith(VARS) and (folder_of(rel) == folder or not self._folder_files(folder_of(rel))):
                out += [(rel, *value) for value in _tfvars_values(self._text(rel), name)]
        setter = re.compile(rf"""TF_VAR_{re.escape(name)}(?![\w-])|-var[= ]["']?{re.escape(name)}=""")
        for rel, lines in sorted(self.index.outside.items()):  # `-var 'hosts=["pug"]'`, `TF_VAR_hosts=...`
            data = self._text(rel)
            starts = hcl_keys.line_starts(data)  # once a file, not per call (review finding 10)
            for number, text in sorted(lines.items()):
                found = setter.search(text)
                if found is not None and number <= len(starts):
                    begin = starts[number - 1]
                    line_end = data.find(b"\n", begin)
                    out.append(
                        (
                            rel,
                            begin + len(text[: found.start()].encode()),
                            len(data) if line_end < 0 else line_end,
                        )
                    )
        for (caller, call), child in self.index.children.items():
            if child != folder:
                continue
            for rel in self._folder_files(caller):
                if rel.endswith(".tf"):
                    arguments = hcl_keys.block_arguments(self._text(rel), "module").get(call, {})
                    if name in arguments:
                        out.append((rel, *arguments[name]))
        return out

    # -- deciding ------------------------------------------------------------------------------

    def _decide(self, instance: Instance, where: str, taken: bool) -> Verdict:
        index = self.index
        project = index.project
        rel, start, _end = (instance.words or [])[0]
        line = hcl_keys.line_of(self._text(rel), start)
        head = (
            f"the instance key {instance.old} of {instance.address} (for_each at {where}, the key at "
            f"{rel}:{line})"
        )
        kept: list[str] = []  # why each spelling of the key that keeps its name keeps it
        for at, start, _end in instance.words or []:
            at_line = hcl_keys.line_of(self._text(at), start)
            klass = project.classifier.classify(at)
            exempt = index._exemption(at, at_line) if klass.status == CURRENT else None
            if klass.status != CURRENT or exempt is not None:
                kept.append(f"{at}:{at_line} ({exempt or klass.reason or klass.status})")
        if kept and len(kept) == len(instance.words or []):
            return Verdict("stays", f"{head} keeps its name ({', '.join(kept)})")

        def refused(why: str) -> Verdict:
            return Verdict(
                "refused",
                f"{head} is not renamed {instance.new}: {why}; the key, its references and "
                "the names its body composes from each.key are kept whole",
            )

        if kept:
            return refused(f"the key is kept at {', '.join(kept)} but renamed elsewhere")
        if taken:
            return refused(f"{instance.new_address} is declared already")
        for use, offset, _end, _history in instance.refs or []:
            klass = project.classifier.classify(use)
            use_line = hcl_keys.line_of(self._text(use), offset)
            exempt = index._exemption(use, use_line) if klass.status == CURRENT else None
            if klass.status != CURRENT or exempt is not None:
                return refused(
                    f"the reference at {use}:{use_line} keeps the old key "
                    f"({exempt or klass.reason or klass.status})"
                )
        quoted = re.compile(
            rf'(?<![\w.-]){re.escape(instance.address)}[ \t]*\[[ \t]*\\?["\']?'
            rf'{re.escape(instance.old)}\\?["\']?[ \t]*\]'
        )
        for other, lines in sorted(index.outside.items()):
            if project.classifier.classify(other).status == CURRENT:
                found = next((n for n, text in sorted(lines.items()) if quoted.search(text)), None)
                if found is not None:
                    return refused(
                        f"a terraform command at {other}:{found} names {instance.old_address} outside "
                        "the configuration"
                    )
        word = re.compile(rb"(?<![\w-])" + re.escape(instance.old.encode()) + rb"(?![\w-])")
        for state in index.states.get(instance.folder, []):
            if word.search(index.texts[state]):
                kind = "a terraform test file" if state.endswith(TESTS) else "terraform's own file"
                # its spellings of the key are kept with it: terraform's files are never edited
                instance.outside += [(state, *m.span()) for m in word.finditer(index.texts[state])]
                return refused(f"{state}, {kind}, names it")
        if self.use_before:  # what the key and loop rules decide of its spellings (read last: they ask back)
            for at, start, end in instance.words or []:
                before = next(
                    (
                        m
                        for m in self.before(at)
                        if m.start < end
                        and start < m.end
                        and (m.refused is not None or m.kept is not None)
                        and (at, hcl_keys.line_of(self._text(at), m.start), m.old) not in self._seeded
                    ),
                    None,
                )
                if before is not None and before.kept is not None:
                    return (
                        Verdict("stays", f"{head} keeps its name ({before.kept}: {before.note or ''})")
                        if len(instance.words or []) == 1
                        else refused(f"the key is kept at {at} ({before.kept}) but renamed elsewhere")
                    )
                if before is not None:
                    instance.held = True
                    return refused(f"the key itself is held ({before.refused}: {before.note or ''})")
        count = len([r for r in instance.refs or [] if not r[3]])
        block_rel = instance.block[0] if instance.block else rel
        moved = not any(
            f'{instance.address}["{instance.old}"]' in self._moved_from(r)
            for r in self._folder_files(instance.folder)
            if r.endswith(".tf")
        )
        moved = moved and not _override(block_rel) and not instance.address.startswith("data.")
        return Verdict(
            "moves",
            f"{head}, renamed {instance.new} with its {count} reference"
            f"{'s' if count != 1 else ''}" + (", and a `moved` block" if moved else ""),
            moved,
        )

    def _moved_at(self, instance: Instance, rel: str, block: Looped) -> tuple[str, int, bytes, bytes] | None:
        """Where its `moved` block goes, in a `.tf` file this sweep reads (one holding no old value
        is never read): after the block, where its file holds an old value; else after the
        top-level block of another `.tf` file of the module spelling the key or a reference (a
        `locals` block); None where only `.tfvars` files do."""
        spots = [(r, s) for r, s, _e in instance.words or []] + [
            (r, s) for r, s, _e, h in instance.refs or [] if not h
        ]
        read = self.index.project.matcher.might_match(self._text(rel))  # the sweep reads it
        if read and not _override(rel) and self.index.project.classifier.classify(rel).status == CURRENT:
            return rel, block.close, block.indent, block.newline
        for other, start in spots:
            if other.endswith(".tf") and folder_of(other) == instance.folder and not _override(other):
                at = hcl_keys.enclosing(self._text(other), start)
                if at is not None:
                    return (other, *at)
        return None


def _shared(instances: list[Instance]) -> None:
    """Instances whose keys one spelling gives (two blocks reading one `locals` list): where one
    is kept whole, the spelling stays, so every other one is kept whole too, to a fixed point."""
    by_word: dict[Span, list[Instance]] = {}
    for instance in instances:
        for word in instance.words or []:
            by_word.setdefault(word, []).append(instance)
    changed = True
    while changed:
        changed = False
        for (rel, _start, _end), sharing in sorted(by_word.items()):
            kept = next((i for i in sharing if i.verdict is not None and i.verdict.action != "moves"), None)
            if kept is None:
                continue
            for other in sharing:
                if other.verdict is not None and other.verdict.action == "moves":
                    other.verdict = Verdict(
                        "refused",
                        f"the instance key {other.old} of {other.address} is not renamed {other.new}: its "
                        f"spelling at {rel} is also the key of {kept.address}, which is kept whole; the key, "
                        "its references and the names its body composes from each.key are kept whole",
                    )
                    other.moved_at = None
                    changed = True


def _tfvars_values(data: bytes, name: str) -> list[tuple[int, int]]:
    """The spans of the values a `.tfvars` (or `.tfvars.json`) file gives variable `name`."""
    if data.lstrip()[:1] == b"{":  # JSON: the top object's members, on one line or many (round 9, finding 6)
        return _json_members(data, name)
    depths, _ = hcl_keys.structure(data)
    top = 0
    out = []
    # terraform takes a leading BOM in a `.tfvars` file (review finding 2)
    pattern = rb"^(?:\xef\xbb\xbf)?[ \t]*\"?" + re.escape(name.encode()) + rb"\"?[ \t]*[=:][ \t]*"
    for found in re.finditer(pattern, data, re.M):
        line = hcl_keys.line_of(data, found.start()) - 1
        if line < len(depths) and depths[line] == top:
            out.append(
                (
                    found.end(),
                    hcl_keys.expression_end(data, found.end(), len(data), stop=b"," if top else b""),
                )
            )
    return out


def _json_members(data: bytes, name: str) -> list[tuple[int, int]]:
    """The spans of the values the top-level object of a `.tfvars.json` file gives member `name`."""
    opened = data.index(b"{")
    close = hcl_keys.expression_end(data, opened, len(data), whole=True) - 1
    member = re.compile(rb'[ \t\r\n,]*"(?P<name>(?:[^"\\]|\\.)*)"[ \t\r\n]*:[ \t\r\n]*')
    out = []
    pos = opened + 1
    while pos < close:
        found = member.match(data, pos, close)
        if found is None:
            break
        end = _json_value_end(data, found.end(), close)
        if found.group("name").decode("utf-8", "replace") == name:
            out.append((found.end(), end))
        pos = end
    return out


def _json_value_end(data: bytes, pos: int, end: int) -> int:
    """Just after the JSON value at `pos` (newlines inside it skipped)."""
    if data[pos : pos + 1] in (b"{", b"["):
        return hcl_keys.expression_end(data, pos, end, whole=True)
    if data[pos : pos + 1] == b'"':
        found = re.compile(rb'"(?:[^"\\]|\\.)*"').match(data, pos, end)
        return found.end() if found is not None else end
    found = re.compile(rb"[^,\s}\]]*").match(data, pos, end)
    return found.end() if found is not None else end


def _override(rel: str) -> bool:
    name = rel.rpartition("/")[2].removesuffix(".json").removesuffix(".tf")
    return name == "override" or name.endswith("_override")


def moved_text(instance: Instance) -> bytes:
    """`moved { from = x["pug"]  to = x["wolf"] }`, as `terraform fmt` writes it."""
    assert instance.moved_at is not None
    _rel, _at, indent, nl = instance.moved_at
    return (
        nl
        + nl
        + (indent + instance.tag + nl if instance.tag else b"")
        + indent
        + b"moved {"
        + nl
        + indent
        + b"  from = "
        + instance.old_address.encode()
        + nl
        + indent
        + b"  to   = "
        + instance.new_address.encode()
        + nl
        + indent
        + b"}"
    )
