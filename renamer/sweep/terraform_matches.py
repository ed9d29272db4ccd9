"""A Terraform label's verdict (renamer/sweep/terraform_labels.py) applied to one file's matches:
the label and its references rewritten, refused or kept, each in the file that holds it, and
the `moved` blocks a renamed resource or module gets."""

from __future__ import annotations

from dataclasses import replace

from renamer import composed_names, hcl_blocks, hcl_keys, lazy_re, loop_values, moved_tags
from renamer.hcl_blocks import Label
from renamer.occurrences import Match
from renamer.sweep.lines import Lines
from renamer.sweep.model import Edit, FileResult
from renamer.sweep.terraform_keys import Instance, InstanceKeys, moved_text
from renamer.sweep.terraform_labels import (
    REMOTE,
    STATE,
    TESTS,
    VARS,
    TerraformIndex,
    Verdict,
    folder_of,
    is_terraform,
    state_folder,
    tfvars_keys,
)

_COMMAND = lazy_re.compile(rb"TF_VAR_|-var[= ]|terraform|tofu|terragrunt")  # what may make a line `outside`
_SETTER = lazy_re.compile(rb"""-var[= ]["']?(?P<name>[A-Za-z_][\w-]*)=""")
_OUTPUT = lazy_re.compile(rb"""\boutput(?:[ \t]+-[\w=-]+)*[ \t]+["']?(?P<name>[A-Za-z_][\w-]*)""")


def terraform_matches(data: bytes, rel: str, matches: list[Match], index: TerraformIndex,
                      keys: InstanceKeys | None = None) -> tuple[list[Match], list[Edit]]:
    """`matches` with each Terraform label and reference decided (see the module's docstring),
    and the `moved` blocks to insert; with `keys`, each `for_each` instance key too
    (sweep/terraform_keys.py)."""
    matches, labels = _label_matches(data, rel, matches, index)
    matches = _tags_kept(data, matches)
    terraform = rel.endswith((".tf", ".tf.json", *VARS, *STATE, *TESTS))
    if keys is None:
        return matches, labels
    index.load()  # a key may be an old address, which no label names
    if not (terraform or rel in index.outside or (index.texts and keys.spans(rel))):
        return matches, labels  # a data file a `for_each` reads (`file("hosts.yaml")`) has spans
    matches, instances = instance_matches(rel, matches, keys)
    return matches, sorted([*labels, *instances], key=lambda e: e.start)


def _tags_kept(data: bytes, matches: list[Match]) -> list[Match]:
    """An old name in a `moved` block's tag line (the move's name: moved_tags.py) is the block's
    history, kept as its `from` is."""
    spans = moved_tags.tag_spans(data) if matches else []
    if not spans:
        return matches
    return [replace(m, refused=None, kept="terraform-moved", note=None)
            if any(s <= m.start < e for s, e in spans) else m for m in matches]


def instance_matches(rel: str, matches: list[Match], keys: InstanceKeys) -> tuple[list[Match], list[Edit]]:
    """`matches` with each `for_each` key and reference of an instance decided, and its `moved` block."""
    every = keys.spans(rel)
    if not every:
        return matches, []
    spans = [s for s in every if s[3] != "body"]
    out = []
    for m in matches:
        for start, end, instance, role in spans:
            if not (m.start < end and start < m.end):
                continue
            verdict = instance.verdict
            if role == "history":  # a standing `moved` block's address: the chain grows a link
                if m.refused in (None, "key-reference") and m.kept is None:
                    m = replace(m, refused=None, kept="terraform-moved", note=None)
            elif verdict is None:
                continue
            elif role == "word" and instance.held:
                pass  # held by the key or loop rules, which say so themselves
            elif m.refused == "key-reference" or (m.refused is None and m.kept is None):
                if verdict.action == "moves":
                    m = replace(m, refused=None, note=verdict.why)
                elif verdict.action == "refused":
                    m = replace(m, refused="terraform-label", note=verdict.why)
                else:
                    m = replace(m, refused=None, kept="terraform-label", note=verdict.why)
            break
        out.append(m)
    blocks: dict[int, list[bytes]] = {}  # one insert an offset, the keys in order
    for _start, _end, instance, _role in sorted(every, key=lambda s: s[2].old):
        at = instance.moved_at
        text = moved_text(instance) if at is not None else b""
        if (at is not None and at[0] == rel and instance.verdict is not None and instance.verdict.moved_block
                and text not in blocks.get(at[1], [])):
            blocks.setdefault(at[1], []).append(text)
    return out, [Edit(at, at, b"".join(texts)) for at, texts in sorted(blocks.items())]


def instance_bodies(data: bytes, rel: str, matches: list[Match], keys: InstanceKeys,
                    hosts: tuple[tuple[str, str], ...]) -> list[Match]:
    """After the composed rules: in the body of a block whose instance key is kept whole, a name
    composed from `each.key` (`"${each.key}.ana.lan"`) keeps it too, refused with the key."""
    bodies = [(s, e, i) for s, e, i, role in keys.spans(rel) if role == "body"
              and i.verdict is not None and i.verdict.action != "moves"]
    if not bodies or not matches:
        return matches
    tails = composed_names.tails_of(hosts)
    names = [n for n in composed_names.find(data, tails) if tails
             and loop_values.read_by(data, n.template.start, n.template.end).startswith("each.")]
    out = []
    for m in matches:
        name = next((n for n in names if n.start < m.end and m.start < n.end), None)
        body = next((i for s, e, i in bodies if name is not None and s <= name.start < e), None)
        if body is not None and body.verdict is not None and m.refused is None and m.kept is None:
            m = replace(m, refused="terraform-label", note=f"{name.text if name else ''} reads each.key of "
                                                           f"{body.address}: {body.verdict.why}")
        out.append(m)
    return out


def _label_matches(data: bytes, rel: str, matches: list[Match],
                   index: TerraformIndex) -> tuple[list[Match], list[Edit]]:
    if not index.olds or not index.holds_old(data):
        return matches, []
    index.load()
    if not is_terraform(rel):
        return (_outside(data, rel, matches, index) if rel in index.outside else matches), []
    if rel.endswith(STATE + TESTS):
        return _in_state(rel, matches, index), []
    by_start = {m.start: i for i, m in enumerate(matches)}
    out = list(matches)
    added: list[Match] = []
    inserts: list[Edit] = []

    def decide(start: int, end: int, name: str, verdict: Verdict, *, label: bool) -> None:
        at = by_start.get(start)
        # a label's traversal is no mapping key's path: key_index's `key-reference` yields here
        if at is not None and out[at].refused == "key-reference":
            out[at] = replace(out[at], refused=None, note=None)
        elif at is not None and (out[at].refused is not None or out[at].kept is not None):
            return
        new = index.renames[name]
        base = out[at] if at is not None else Match(start, end, name, new, "host")
        if verdict.action == "moves":
            decided = replace(base, note=verdict.why)
        elif verdict.action == "refused":
            decided = replace(base, refused="terraform-label", note=verdict.why)
        elif at is not None:
            decided = replace(base, kept="terraform-label", note=verdict.why)
        else:
            return
        if at is not None:
            out[at] = decided
        elif not label and verdict.action == "moves":
            added.append(decided)

    if rel.endswith(VARS):
        for name, _line, start, end in tfvars_keys(data, index.olds):
            verdict = index.tfvars_verdict(folder_of(rel), name)
            if verdict is not None:
                decide(start, end, name, verdict, label=False)
    else:
        parsed = index.parsed.get(rel) or hcl_blocks.read(data, index.olds, is_json=rel.endswith(".json"))
        for label in parsed.labels:
            if label.name not in index.olds:
                continue
            verdict = index.verdict(TerraformIndex._label_key(rel, label))
            if verdict is None:
                continue
            decide(label.start, label.end, label.name, verdict, label=True)
            if verdict.moved_block and label.close >= 0 and not is_override(rel):
                inserts.append(_moved(label, index.renames[label.name], index.moved_tag))
                inserts += _inverse_dropped(data, rel, label, index.renames[label.name])
        for use in parsed.uses:
            if use.name not in index.olds:
                continue
            if use.history:  # the address before a move: kept on purpose
                at = by_start.get(use.start)
                if at is None:
                    added.append(Match(use.start, use.end, use.name, index.renames[use.name], "host",
                                       kept="terraform-moved"))
                elif out[at].refused in (None, "key-reference"):
                    out[at] = replace(out[at], refused=None, kept="terraform-moved", note=None)
                continue
            key = index.resolve(rel, use)
            verdict = index.verdict(key) if key is not None else None
            if verdict is not None:
                decide(use.start, use.end, use.name, verdict, label=False)
        for found in REMOTE.finditer(data):  # `outputs["pug"]`: an output of another root module
            name = (found.group("key") or b"").decode()
            if name in index.olds:
                decide(found.start("key"), found.end("key"), name, Verdict(
                    "refused", f"`{found.group().decode()}` reads the output {name} of a root module's "
                               "state: it is renamed only with that output, by hand"), label=True)
    spans = [(m.start, m.end) for m in out]
    added = [m for m in added if not any(s < m.end and m.start < e for s, e in spans)]
    return (sorted([*out, *added], key=lambda m: m.start) if added else out), inserts


def is_override(rel: str) -> bool:
    """`override.tf`, `x_override.tf` (and `.tf.json`): merged into the block its base file declares;
    terraform refuses a `moved` block there ("Cannot override 'moved' blocks"), so the base file's
    declaration alone gets one (break-it round 7, finding 5)."""
    name = rel.rpartition("/")[2].removesuffix(".json").removesuffix(".tf")
    return name == "override" or name.endswith("_override")


def _moved(label: Label, new: str, tag: bytes) -> Edit:
    """`moved { from = OLD  to = NEW }` after the label's block, as `terraform fmt` writes it,
    its tag line above it (moved_tags.py)."""
    nl, indent = label.newline, label.indent
    old_address = label.address.encode()
    new_address = replace(label, name=new).address.encode()
    text = (nl + nl + indent + tag + nl + indent + b"moved {" + nl + indent + b"  from = " + old_address + nl
            + indent + b"  to   = " + new_address + nl + indent + b"}")
    return Edit(label.close, label.close, text)


def _inverse_dropped(data: bytes, rel: str, label: Label, new: str) -> list[Edit]:
    """The tagged `moved` blocks of this file that move the label's new address back to its old
    one (an undo's inverse block: sweep/undo.py), each removed with the blank line before it: with
    the move's own block beside it the pair is a cycle, and with the resource declared at the new
    address again `terraform plan` fails ("Moved object still exists": t25-34 finding 02)."""
    old_address, new_address = label.address, replace(label, name=new).address
    out = []
    for block in moved_tags.tagged_moves(rel, data):
        if block.old != new_address or block.new != old_address:
            continue
        start = block.start
        while start > 0 and data[start - 1:start] in (b"\n", b"\r") and data[max(0, start - 2):start - 1] in (
                b"\n", b"\r"):
            start -= 1  # the blank line(s) written before it
        end = block.end + (2 if data[block.end:block.end + 2] == b"\r\n" else
                           1 if data[block.end:block.end + 1] == b"\n" else 0)
        out.append(Edit(start, end, b""))
    return out


def _in_state(rel: str, matches: list[Match], index: TerraformIndex) -> list[Match]:
    """A state or lock file is terraform's: a name of a label of its folder is refused there
    with the label (the label itself is refused for it)."""
    folder = state_folder(rel)
    names = {key[3] for key in index.labels if key[0] == folder}
    note = ("is a terraform test file: the label {} it names is kept with it" if rel.endswith(TESTS)
            else "is terraform's own file: the label {} it names is renamed by terraform, never by a text "
                 "edit")
    return [replace(m, refused="terraform-label", note=f"{rel} " + note.format(m.old))
            if m.old in names and m.refused is None and m.kept is None else m for m in matches]


def _outside(data: bytes, rel: str, matches: list[Match], index: TerraformIndex) -> list[Match]:
    """`terraform plan -var "pug=..."` and `terraform output pug` in a Makefile or a CI script,
    which the plain rules would rewrite: refused with the variable or output they name where
    that label is refused."""
    starts = [0] + [i + 1 for i, b in enumerate(data) if b == 0x0A]
    spans: dict[int, str] = {}  # where a setter's or an output's name starts -> the label's kind
    for line in index.outside[rel]:
        if line > len(starts):
            continue
        begin = starts[line - 1]
        end = data.find(b"\n", begin)
        text = data[begin:len(data) if end < 0 else end]
        for kind, pattern in (("variable", _SETTER), ("output", _OUTPUT)):
            for found in pattern.finditer(text):
                spans[begin + found.start("name")] = kind
    out = []
    for m in matches:
        named = spans.get(m.start)
        verdict = next((v for key in index.labels if key[1] == named and key[3] == m.old
                        and (v := index.verdict(key)) is not None and v.action == "refused"), None)
        out.append(replace(m, refused="terraform-label", note=verdict.why)
                   if verdict is not None and m.refused is None and m.kept is None else m)
    return out


def whole_across_files(files: list[FileResult], keys: InstanceKeys, hint: str) -> list[FileResult]:
    """The consistency pass across files (review finding 1): an instance moving by its verdict
    one of whose key or reference spans, in any file the sweep scanned, ends up with no edit (a
    later rule, an exempt line or a file's structure check held it) is held whole: its edits in
    every file are dropped, their references become residual `terraform-label`, and its `moved`
    block goes. Run on a plan that carries edits; a file's own pass (FileScanner) ran first."""
    if not any(e.start == e.end for f in files for e in f.edits):
        return files  # no `moved` block anywhere: nothing an instance key could have added
    by_path = {f.path: f for f in files}
    spans: dict[int, tuple[Instance, list[tuple[str, int, int]]]] = {}
    for rel in by_path:
        for start, end, instance, role in keys.spans(rel):
            moves = instance.verdict is not None and instance.verdict.action == "moves"
            if role in ("word", "ref") and moves:
                spans.setdefault(id(instance), (instance, []))[1].append((rel, start, end))
    held: list[tuple[Instance, list[tuple[str, int, int]], str]] = []
    for instance, where in spans.values():
        for rel, start, end in where:
            if not any(e.start < end and start < e.end for e in by_path[rel].edits):
                held.append((instance, where, f"{rel}:{hcl_keys.line_of(keys._text(rel), start)}"))
                break
    if not held:
        return files
    for instance, where, at in held:
        note = f"held with {instance.old_address}, not rewritten at {at}; {hint}"
        for rel in {r for r, _s, _e in where} | ({instance.moved_at[0]} if instance.moved_at else set()):
            f = by_path.get(rel)
            if f is None:
                continue
            mine = [(s, e) for r, s, e in where if r == rel]
            dropped = [e for e in f.edits
                       if e.start < e.end and any(e.start < b and a < e.end for a, b in mine)]
            lines = Lines(keys._text(rel))
            spots = {(i + 1, col) for i, _start, col in lines.locate(sorted(e.start for e in dropped))}
            refs = tuple(replace(r, reason="terraform-label", note=note)
                         if r.rewritable and (r.line, r.column) in spots else r for r in f.references)
            edits = []
            for e in f.edits:
                if e in dropped:
                    continue
                moved = instance.moved_at
                if e.start == e.end and moved is not None and moved[:2] == (rel, e.start):
                    e = Edit(e.start, e.end, e.new.replace(moved_text(instance), b"", 1))
                    if not e.new:
                        continue
                edits.append(e)
            by_path[rel] = replace(f, references=refs, edits=tuple(edits), digest=f.digest if edits else "")
    return [by_path[f.path] for f in files]
