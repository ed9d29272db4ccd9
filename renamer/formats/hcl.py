"""HCL (Terraform and OpenTofu `.tf` and `.tfvars`, Terragrunt, Packer and Nomad `.hcl`): a
structure check by python-hcl2, a maintained HCL parser (issue 32, item 1).

Edits stay byte splices like every other format's: the parser only reads the text before and
after them. An edit is refused when the file parsed before it and does not after (a heredoc's
marker, a label or a key renamed into something HCL reads otherwise), or when it makes two
names one where HCL (or terraform reading it) allows one only: two attributes of one body, two
keys of one object constructor, two blocks of one type with the same labels (two
`resource "aws_instance" "fv-ml1"`). Block types that repeat by design (REPEATABLE, and every
unlabelled one such as `ingress`) are no collision; what is compared is how often each name
stands, before and after, so one that stood twice already is no new collision either. A file the
parser cannot read before the edit is checked by its key-like lines instead (keylines.py), as
plain text is. Which blocks and labels the sweep may rename at all is the Terraform rules'
business (hcl_blocks.py, sweep/terraform_labels.py), not this module's.
"""

from __future__ import annotations

import collections
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from renamer.formats import keylines
from renamer.formats.base import BaseFormat, Comment, Location

if TYPE_CHECKING:
    from lark import Token, Tree

SUFFIXES = (".tf", ".tfvars", ".hcl")
# Block types HCL's users may repeat with the same labels: a provider's aliased configurations, a
# dynamic block per generated type, provisioners run in turn. Every other labelled block is one
# object by its type and labels (a resource, a module, a Terragrunt dependency, a Nomad task).
REPEATABLE = frozenset({"provider", "dynamic", "provisioner"})
# A name in a body or an object: (the path of the body it stands in, what it is, its name).
_Name = tuple[str, str, str]


class Broken(Exception):
    """The parser could not read the text (its line, 1-based, where it knows one)."""

    def __init__(self, line: int, why: str) -> None:
        super().__init__(why)
        self.line = line


def names(text: str) -> dict[_Name, list[int]]:
    """The lines (1-based) where each attribute, object key and labelled block stands in its
    body; raises Broken where the parser cannot read `text`."""
    import hcl2  # deferred, as libcst is: ~110 ms to load, and only an edited .tf or .hcl needs it
    from lark import Tree

    try:
        tree = hcl2.parses_to_tree(text)
    except RecursionError:
        raise Broken(0, "nested too deep to read") from None
    except Exception as exc:  # the parser's own errors (lark's, and what the post-lexer raises)
        line = getattr(exc, "line", 0)
        first = str(exc).strip().splitlines()
        why = first[0] if first else type(exc).__name__
        raise Broken(line if isinstance(line, int) else 0, why) from None
    found: dict[_Name, list[int]] = collections.defaultdict(list)
    for body in tree.find_data("body"):
        for name, line in _body_names(body, Tree):
            found[name].append(line)
    for obj in tree.find_data("object"):
        for name, line in _object_keys(obj, Tree):
            found[name].append(line)
    return dict(found)


def _body_names(body: Tree[Token], tree: type[Any]) -> Iterator[tuple[_Name, int]]:
    where = _place(body)
    for child in body.children:
        if not isinstance(child, tree):
            continue
        if child.data == "attribute":
            yield (where, "attribute", _text(child.children[0])), _line(child)
        elif child.data == "block":
            parts = [_text(c) for c in child.children
                     if isinstance(c, tree) and c.data in ("identifier", "string")]
            if len(parts) > 1 and parts[0] not in REPEATABLE:  # an unlabelled block names nothing
                yield (where, "block", " ".join(parts)), _line(child)


def _object_keys(obj: Tree[Token], tree: type[Any]) -> Iterator[tuple[_Name, int]]:
    where = f"object at {obj.meta.line}" if not obj.meta.empty else "object"
    for elem in obj.find_data("object_elem"):
        if _owner(elem, obj):
            key = next((c for c in elem.children
                        if isinstance(c, tree) and c.data == "object_elem_key"), None)
            if key is not None:
                yield (where, "key", _text(key).strip('"')), _line(elem)


def _owner(elem: Tree[Token], obj: Tree[Token]) -> bool:
    """Whether `elem` is one of `obj`'s own elements (not a nested object's)."""
    return any(c is elem for c in obj.children)


def _line(node: Tree[Token]) -> int:
    return 0 if node.meta.empty else node.meta.line


def _place(body: Tree[Token]) -> str:
    return f"body at {body.meta.line}" if not body.meta.empty else "the file"


def _text(node: Tree[Token] | Token) -> str:
    if isinstance(node, str):  # a lark Token is a str
        return str(node)
    return "".join(str(t) for t in node.scan_values(lambda v: isinstance(v, str)))


def edit_problem(before: str, after: str) -> str | None:
    """Why the edited HCL no longer reads as the same blocks, attributes and keys, or None."""
    try:
        old = names(before.lstrip("\ufeff"))
    except Broken:
        return keylines.collision(before, after)  # not HCL the parser reads: key-like lines
    try:
        new = names(after.lstrip("\ufeff"))
    except Broken as exc:
        where = f"line {exc.line}: " if exc.line else ""
        return f"{where}the edit leaves HCL that no longer parses ({exc})"
    grown = sorted((lines, name) for name, lines in new.items()
                   if len(lines) > max(1, len(old.get(name, ()))))
    if not grown:
        return None
    lines, (_, what, name) = grown[0]
    noun = {"attribute": "attributes", "key": "object keys", "block": "blocks"}[what]
    where = "object" if what == "key" else "body"
    # the line the edit changed, where the parser says which (a renamed one meets a standing one)
    old_lines, new_lines = before.split("\n"), after.split("\n")
    changed = [n for n in lines if 0 < n <= len(old_lines) and n <= len(new_lines)
               and old_lines[n - 1] != new_lines[n - 1]]
    at = f"line {changed[0]}: " if changed else ""
    spots = sorted(set(lines))
    placed = f"lines {', '.join(map(str, spots))}" if len(spots) > 1 else f"both on line {spots[0]}"
    return f"{at}the edit makes two {noun} {name!r} in one {where} ({placed}; HCL allows one)"


def locate(text: str, offsets: Sequence[int]) -> list[Location] | None:
    """(key path, role) per character offset, None where the parser cannot read `text`. A block's
    path is its type and labels (`resource.aws_instance.web`, `locals`, `variable.instances`), an
    attribute's and an object key's are added to it (`resource.aws_instance.web.tags.Name`,
    `locals.nodes.pve-r740xd`, `variable.instances.default`); a label or key is role `key`,
    what an attribute or key holds role `value` (a list's items at the list's own path), a
    comment `comment`. Keep rules name these paths (`key:`, sweep/scan.py)."""
    import hcl2  # deferred, as above
    from lark import Tree

    shift = 1 if text.startswith("\ufeff") else 0
    try:
        tree = hcl2.parses_to_tree(text[shift:])
    except RecursionError:
        return None
    except Exception:  # the parser's own errors
        return None
    spans: list[tuple[int, int, str | None, str]] = []  # start, end, path, role; inner ones later

    def span(node: Tree[Token], path: str | None, role: str) -> None:
        if not node.meta.empty:
            spans.append((node.meta.start_pos + shift, node.meta.end_pos + shift, path, role))

    def join(path: str, part: str) -> str:
        return f"{path}.{part}" if path else part

    def walk(node: Tree[Token], path: str) -> None:
        for child in node.children:
            if not isinstance(child, Tree):
                continue
            if child.data == "new_line_or_comment":
                if any("#" in str(t) or "//" in str(t) or "/*" in str(t) for t in child.children):
                    span(child, None, "comment")
            elif child.data == "block":
                parts = [c for c in child.children
                         if isinstance(c, Tree) and c.data in ("identifier", "string")]
                here = path
                for part in parts:
                    here = join(here, _text(part).strip('"'))
                    if part is not parts[0]:
                        span(part, here, "key")
                walk(child, here)
            elif child.data == "attribute":
                name = child.children[0]
                here = join(path, _text(name))
                if isinstance(name, Tree):
                    span(name, here, "key")
                for value in child.children[1:]:
                    if isinstance(value, Tree):
                        span(value, here, "value")
                        walk(value, here)
            elif child.data == "object_elem":
                key = next((c for c in child.children
                            if isinstance(c, Tree) and c.data == "object_elem_key"), None)
                here = join(path, _text(key).strip('"')) if key is not None else path
                for elem in child.children:
                    if not isinstance(elem, Tree):
                        continue
                    if elem is key:
                        span(elem, here, "key")
                    else:
                        span(elem, here, "value")
                        walk(elem, here)
            else:
                walk(child, path)

    walk(tree, "")
    spans.sort(key=lambda s: (s[0], -s[1]))
    out: list[Location] = []
    for offset in offsets:
        best: tuple[int, int, str | None, str] | None = None
        for found in spans:  # the innermost span holding the offset
            if found[0] > offset:
                break
            if found[0] <= offset < found[1] and (best is None or found[1] - found[0] <= best[1] - best[0]):
                best = found
        out.append((best[2], best[3]) if best is not None else (None, "other"))
    return out


class Hcl(BaseFormat):
    name = "hcl"
    # Keys and labelled blocks: a renamed one may meet a standing one (edit_problem).
    structured = True
    checks_edits = True
    comment = Comment("  # ")
    suffixes = SUFFIXES

    def edit_problem(self, before: str, after: str) -> str | None:
        return edit_problem(before, after)

    def locate(self, text: str, offsets: Sequence[int]) -> list[Location] | None:
        # (`keys` stays False: reports show no HCL key paths; keep rules' `key:` asks this itself)
        return locate(text, offsets)

    def means_otherwise(self, before: str, after: str) -> bool:
        # An inline marker that fell inside a heredoc or a string is text there, not a comment.
        import hcl2  # deferred, as above

        plain = hcl2.SerializationOptions(with_comments=False)
        try:
            return bool(hcl2.loads(before.lstrip("\ufeff"), serialization_options=plain)
                        != hcl2.loads(after.lstrip("\ufeff"), serialization_options=plain))
        except Exception:  # the parser's own errors: a marker is never added where it cannot tell
            return True


FORMAT = Hcl()
