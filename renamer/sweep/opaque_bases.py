"""The networks a Terraform expression that is no plain literal or name may compute from (t31-33
findings 02, 07, 24).

`cidrhost(coalesce(var.d, "10.0.48.0/24"), 203)`, `cidrhost(lookup(var.e, "lan"), -2)`,
`cidrhost(element(["10.0.48.0/24"], 0), 205)`, `cidrsubnet(try(var.e["wan"], "10.0.48.0/24"), 2, 3)`,
`cidrhost(true ? "10.0.48.0/24" : "10.1.0.0/16", 207)`, `cidrhost(merge({..}, {}).lan, -2)`,
`cidrsubnet(jsondecode(file("nets.json")).lan, 2, 3)`, `cidrhost(local.nets.lan, 200)` with
`nets = yamldecode(file("nets.yaml"))`, `cidrhost(each.value.cidr, ..)` under a `for_each` object,
and `${cidrhost(lan, 200)}` in a template `templatefile(.., { lan = local.lan })` renders: each had
its network literal rewritten to the new length while the expression, which no reader evaluated,
changed value (a grow) or failed in terraform (a shrink), sweep 0 and verify OK.

`candidates` gives every literal network such an expression may stand for, with where it is
written: a network literal inside it; what each name inside it resolves to (`lookup(R, "k")` read
as `R["k"]`, `element(R, n)` as `R[n]`); a name whose definition no reader evaluates, that
definition read the same way (three deep); a `file("...")` beside the module (path.module or
relative, never outside the repository root, never a symlink): the networks written in it; the
enclosing block's `for_each` expression for `each.`; in a template, the argument of that name of
each `templatefile()` call naming the template in a `.tf` file of its folder or the folders above.
The caller judges the expression over the first one a move resizes: it may compute from it, so a
value with no place in the new network refuses and another value is a residual (never OK unproved).
"""

from __future__ import annotations

import ipaddress
import os
import re
from dataclasses import replace
from pathlib import Path

from renamer import computed_lengths, hcl_keys, lazy_re
from renamer.computed_lengths import Step
from renamer.sweep.network_names import Found, Names

OPAQUE = computed_lengths.OPAQUE
_MAX_READ = 1 << 20
_NET = rb"[0-9A-Fa-f:.]*[:.][0-9A-Fa-f:.]*/\d{1,3}"
_LITERAL = re.compile(rb"(?<![\w.:/])(" + _NET + rb")(?![\w/])")
_REF = lazy_re.compile(
    rb"(?<![\w.\"'])(?:var|local|module|data|each|[A-Za-z_][\w-]*)(?:\.[A-Za-z_][\w-]*|\[[ \t]*"
                  rb'(?:\\?"[^"\\\n]*\\?"|\d+|\*)[ \t]*\]){1,6}')
_LOOKUP = lazy_re.compile(
    rb'\blookup[ \t]*\([ \t]*([A-Za-z_][\w.\-\[\]"]*)[ \t]*,[ \t]*("[^"\n]*")[ \t]*[,)]')
_ELEMENT = lazy_re.compile(rb"\belement[ \t]*\([ \t]*([A-Za-z_][\w.\-\[\]\"]*)[ \t]*,[ \t]*(\d+)[ \t]*\)")
_FILE = lazy_re.compile(
    rb'\b(?:file|templatefile)[ \t]*\([ \t]*"(?:\$\{[ \t]*path\.(?:module|root)[ \t]*\}/)?'
                   rb'(?P<path>[^"$\n]+)"')
_FOR_EACH = lazy_re.compile(rb"^[ \t]*for_each[ \t]*=[ \t]*", re.M)
_TEMPLATEFILE = lazy_re.compile(rb'\btemplatefile[ \t]*\([ \t]*"(?P<path>[^"\n]+)"[ \t]*,[ \t]*')
_IDENT = re.compile(r"[A-Za-z_][\w-]*")
# `tolist(local.nets)[0]`, `values(local.m)`: a conversion that keeps the values (t32-33 finding 13)
_KEEPS = lazy_re.compile(
    rb"\b(?:tolist|toset|tomap|values|flatten|distinct|compact|sort|nonsensitive|sensitive)"
                    rb"[ \t]*\([ \t]*([A-Za-z_][\w.\-]*(?:\[[^\[\]\n]*\])*)[ \t]*\)")
# `format("%s/%d", "10.0.48.0", 24)`, `join("/", ["10.0.48.0", "24"])`: a network made of its parts
_PARTS = rb'[ \t]*,[ \t]*"([0-9A-Fa-f:.]+)"[ \t]*,[ \t]*"?(\d{1,3})"?[ \t]*'
_FORMAT = lazy_re.compile(rb'\bformat[ \t]*\([ \t]*"%s/%[ds]"' + _PARTS + rb"\)")
_JOIN = lazy_re.compile(
    rb'\bjoin[ \t]*\([ \t]*"/"[ \t]*,[ \t]*\[' + _PARTS[len(rb"[ \t]*,"):] + rb"\][ \t]*\)")
# A `for` expression (`[for n in COLL : ..]`, `{for k, r in COLL : ..}`) or a template's `%{ for n in COLL }`
_FOR_NAMES = rb"for[ \t]+([A-Za-z_][\w-]*)(?:[ \t]*,[ \t]*([A-Za-z_][\w-]*))?[ \t]+in[ \t]+"
_FOR = lazy_re.compile(rb"[\[{][ \t\r\n]*" + _FOR_NAMES)
_TEMPLATE_FOR = lazy_re.compile(rb"%\{~?[ \t]*" + _FOR_NAMES + rb"([^}~\n]+?)[ \t]*~?\}")
_ENDFOR = lazy_re.compile(rb"%\{~?[ \t]*endfor[ \t]*~?\}")


def _networks(raw: bytes) -> list[str]:
    out = []
    for m in _LITERAL.finditer(raw):
        try:
            ipaddress.ip_network(m.group(1).decode(), strict=False)
        except ValueError:
            continue
        out.append(m.group(1).decode())
    return list(dict.fromkeys(out))


class Bases:
    """`candidates(base, at, data, resolve)` for the expressions of one file `rel` under `root`."""

    def __init__(self, rel: str, root: Path | None) -> None:
        self._rel = rel
        self._root = root
        self._folder = rel.rpartition("/")[0]

    def candidates(self, base: str, at: int, data: bytes, resolve: Names) -> list[Found]:
        text = base[len(OPAQUE):] if base.startswith(OPAQUE) else base
        line = data.count(b"\n", 0, at) + 1
        bound = _for_bound(data, at, text)
        if bound is not None:  # `n` of `[for n in local.nets : cidrhost(n, 200)]` (t32-33 findings 13, 16)
            text = bound
        out = self._from_text(text.encode(), self._folder, resolve, 3, f"{self._rel}:{line}")
        if text.startswith("each."):
            out += self._for_each(data, at, resolve)
        if not self._rel.endswith((".tf", ".tf.json")):
            head = _IDENT.match(text)
            if head is not None:
                out += self._templated(head.group(), text[head.end():])
        return list(dict.fromkeys(out))

    def _from_text(self, raw: bytes, folder: str, resolve: Names, depth: int, where: str) -> list[Found]:
        if depth <= 0:
            return []
        out: list[Found] = [(net, f"written in `{raw.decode('utf-8', 'replace').strip()[:80]}` at {where}")
                            for net in _networks(raw)]
        for made in (*_FORMAT.finditer(raw), *_JOIN.finditer(raw)):
            net = f"{made.group(1).decode()}/{made.group(2).decode()}"
            if _networks(net.encode()):
                out.append((net, f"made by `{made.group().decode('utf-8', 'replace')[:80]}` at {where}"))
        text = _ELEMENT.sub(rb"\1[\2]", _LOOKUP.sub(rb"\1[\2]", raw))
        text = _KEEPS.sub(rb"\1", text)
        for m in _REF.finditer(text):
            ref = re.sub(rb"\s+", b"", m.group()).decode("utf-8", "replace")
            if ref.startswith(("each.", "path.", "count.", "terraform.")):
                continue
            resolve.unread.clear()
            found = resolve.all(ref)
            out += found
            if not found:
                for defined, at in [e for entries in list(resolve.unread.values()) for e in entries]:
                    out += self._from_text(defined.encode(), folder, resolve, depth - 1, at)
        for m in _FILE.finditer(text):
            out += self._file(folder, m.group("path").decode("utf-8", "replace"))
        return out

    def _file(self, folder: str, path: str) -> list[Found]:
        if self._root is None or os.path.isabs(path):
            return []
        rel = os.path.normpath(os.path.join(folder or ".", path))
        if rel.startswith(".."):
            return []
        full = self._root / rel
        try:
            if full.is_symlink() or not full.is_file() or full.stat().st_size > _MAX_READ:
                return []
            raw = full.read_bytes()
        except OSError:
            return []
        out = []
        for net in _networks(raw):
            line = raw.count(b"\n", 0, raw.find(net.encode())) + 1
            out.append((net, f"in {rel}:{line}, a file the expression reads"))
        return out

    def each_variants(self, steps: tuple[Step, ...], at: int, data: bytes) -> list[tuple[Step, ...]]:
        """`steps` once per value a number `each.value.KEY` takes in the enclosing `for_each`'s
        literal object (`host = -2`); `steps` alone where none is such a number or none is read."""
        out = [steps]
        for i, step in enumerate(steps):
            for j, (arg, said) in enumerate(zip(step.args, step.said, strict=False)):
                key = re.fullmatch(r"each\.value\.([A-Za-z_][\w-]*)", said.replace(" ", ""))
                if arg is not None or key is None:
                    continue
                text = self._for_each_text(data, at)
                values = [int(v) for v in re.findall(rb"(?<![\w.])" + re.escape(key.group(1).encode())
                                                     + rb"[ \t]*[=:][ \t]*(-?\d+)(?![\w.])", text)]
                if not values:
                    continue
                grown = []
                for variant in out:
                    for value in dict.fromkeys(values):
                        args = list(variant[i].args)
                        args[j] = value
                        grown.append((*variant[:i], replace(variant[i], args=tuple(args)), *variant[i + 1:]))
                out = grown[:64]
        return out

    @staticmethod
    def _for_each_text(data: bytes, at: int) -> bytes:
        found = None
        for m in _FOR_EACH.finditer(data, max(0, at - 20000), at):
            found = m
        if found is None:
            return b""
        end = min(hcl_keys.expression_end(data, found.end(), len(data)), at)
        return data[found.end():end]

    def _for_each(self, data: bytes, at: int, resolve: Names) -> list[Found]:
        """The `for_each` of the block holding `at`: the last one before it at a lesser depth."""
        found = None
        for m in _FOR_EACH.finditer(data, max(0, at - 20000), at):
            found = m
        if found is None:
            return []
        end = hcl_keys.expression_end(data, found.end(), len(data))
        if end > at:  # the expression is inside the for_each itself
            end = at
        line = data.count(b"\n", 0, found.start()) + 1
        return self._from_text(data[found.end():end], self._folder, resolve, 3,
                               f"the for_each at {self._rel}:{line}")

    def _templated(self, name: str, tail: str) -> list[Found]:
        """Each `templatefile("…/TEMPLATE", { NAME = EXPR })` in a `.tf` of the template's folder or
        above: what EXPR (then `tail`, `.cidr`) may stand for."""
        if self._root is None:
            return []
        out: list[Found] = []
        basename = self._rel.rpartition("/")[2]
        folder = self._folder
        seen = 0
        while True:
            for caller, text in self._tf_files(folder):
                seen += 1
                for m in _TEMPLATEFILE.finditer(text):
                    path = m.group("path").decode("utf-8", "replace")
                    if path.rpartition("/")[2] != basename:
                        continue
                    end = hcl_keys.expression_end(text, m.end(), len(text), whole=True)
                    vars_text = text[m.end():end]
                    arg = re.search(rb"(?:^|[{,\s])" + re.escape(name.encode()) + rb"[ \t]*[=:][ \t]*",
                                    vars_text)
                    if arg is None:
                        continue
                    start = m.end() + arg.end()
                    stop = hcl_keys.expression_end(text, start, end, stop=b",")
                    expr = text[start:stop].strip().rstrip(b"}").strip() + tail.encode()
                    names = Names(text, caller, self._root)
                    line = text.count(b"\n", 0, start) + 1
                    out += [(net, f"{why}, passed as `{name}` by the templatefile() at {caller}:{line}")
                            for net, why in self._from_text(expr, caller.rpartition("/")[0], names, 3,
                                                            f"{caller}:{line}")]
            if not folder or seen > 200:
                break
            folder = folder.rpartition("/")[0]
        return out

    def _tf_files(self, folder: str) -> list[tuple[str, bytes]]:
        assert self._root is not None
        base = self._root / folder if folder else self._root
        try:
            names = sorted(os.listdir(base))
        except OSError:
            return []
        out = []
        for name in names:
            path = base / name
            if not name.endswith(".tf") or path.is_symlink() or not path.is_file():
                continue
            try:
                out.append((f"{folder}/{name}" if folder else name, path.read_bytes()[:_MAX_READ]))
            except OSError:
                continue
        return out


def for_bound(data: bytes, at: int, text: str) -> str | None:
    """`_for_bound`, for sweep/split_networks.py (a `for` over a module's variable)."""
    return _for_bound(data, at, text)


def _for_bound(data: bytes, at: int, text: str) -> str | None:
    """`text` with its head name, where a `for` expression (or a template's `%{ for }`) enclosing `at`
    binds it, read as every value of the collection: `local.nets[*]`, `local.rows[*].cidr`; the
    collection itself where it is no name (a literal list, a call)."""
    head = _IDENT.match(text)
    if head is None or head.group() in ("var", "local", "module", "data", "each", "path", "count"):
        return None
    name = head.group().encode()
    found = None
    for m in _FOR.finditer(data, max(0, at - 20000), at):
        if (m.group(2) or m.group(1)) != name:  # `for k, v in ..`: the value's name
            continue
        if _encloses(data, m.start(), at):
            found = (m.end(), hcl_keys.expression_end(data, m.end(), at, stop=b":"))
    for m in _TEMPLATE_FOR.finditer(data, max(0, at - 20000), at):
        if (m.group(2) or m.group(1)) != name or _ENDFOR.search(data, m.end(), at) is not None:
            continue
        if found is None or m.start() > found[0]:
            found = (m.start(3), m.end(3))
    if found is None:
        return None
    collection = data[found[0]:found[1]].strip().rstrip(b":").strip()
    collection = _KEEPS.sub(rb"\1", collection)
    if re.fullmatch(rb"[A-Za-z_][\w.\-]*(?:\[[^\[\]\n]*\])*", collection):
        return f"{collection.decode('utf-8', 'replace')}[*]{text[head.end():]}"
    return collection.decode("utf-8", "replace")


def _encloses(data: bytes, start: int, at: int) -> bool:
    """Whether the bracket opening at `start` is still open at `at` (strings skipped roughly)."""
    depth = 0
    quoted = False
    for i in range(start, at):
        c = data[i:i + 1]
        if c == b'"' and data[i - 1:i] != b"\\":
            quoted = not quoted
        elif quoted:
            continue
        elif c in b"[({":
            depth += 1
        elif c in b"])}":
            depth -= 1
            if depth <= 0:
                return False
    return depth > 0
