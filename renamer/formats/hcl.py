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
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from renamer.formats import keylines
from renamer.formats.base import BaseFormat, Comment

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


class Hcl(BaseFormat):
    name = "hcl"
    # Keys and labelled blocks: a renamed one may meet a standing one (edit_problem).
    structured = True
    checks_edits = True
    comment = Comment("  # ")
    suffixes = SUFFIXES

    def edit_problem(self, before: str, after: str) -> str | None:
        return edit_problem(before, after)

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
