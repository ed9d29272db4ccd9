"""Networks a Terraform module holds in its own keys, split in two (t38: randomcoww/homelab).

`service = { network = "192.168.208.0", cidr = 24, vips = { minio = 34 } }` in a `locals` map, turned
into `prefix = "${network.network}/${network.cidr}"` by a `for` expression, and read elsewhere in the
module as `cidrhost(local.networks.service.prefix, 40)`: no reader resolved either computation, so
under `192.168.208.0/24: 192.168.208.0/27` the sweep rewrote `cidr = 24` to 27 and said nothing while
hosts 33, 34 and 40 no longer fit (`terraform plan` fails on cidrhost).

`Module(root, folder)` reads the module's `.tf` and `.tf.json` files (a symlink too, where it points
to a file inside the repository: a shared file linked into each module) for the blocks holding a
network address under one key and its length under another (`network`/`address`/`subnet`..., and
`cidr`/`prefix`/`prefixlen`/`mask`/`bits`...; the address must be the network's own), each with the
map key naming it (`service`), and for every network literal the files spell. `judged(chain, ...)`
decides an expression over a name no resolver read:

* a map key of a block among its parts (`local.networks.service.prefix`, `var.nets["service"]`):
  judged over that block's network, as a literal is (a shrink leaving the value outside refuses the
  sweep; another value at the new length is a residual); a key of a block no move resizes (`lan`):
  not the moved network, left;
* a block's own parts interpolated (`"${network.network}/${network.cidr}"`) under a `for` over a
  literal map of blocks: judged over each block's network, a number bound by an inner `for` over
  one of the block's maps (`for s, n in lookup(network, "vips", {})`) taking each of its values;
* anything else, in a module whose files hold a network a move resizes: a `composed-address`
  residual saying what is not proved (never a refusal), unless the expression keeps its value at
  both lengths for the numbers tried (a host counted from the start under a grow).
"""

from __future__ import annotations

import bisect
import ipaddress
import os
import re
from dataclasses import dataclass, replace
from pathlib import Path

from renamer import computed_lengths, lazy_re
from renamer.computed_lengths import Chain, Network, Step, Verdict
from renamer.prefix_moves import PrefixMove
from renamer.sweep.network_names import Names
from renamer.sweep.opaque_bases import for_bound

_MAX_READ = 1 << 20
_MAX_FILES = 200
_ADDR = rb"(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7})"
# `network = "192.168.208.0"`, `"network": "10.0.0.0"` (.tf.json)
_ADDRESS = lazy_re.compile(rb'"?(?P<key>[A-Za-z_][\w-]*)"?[ \t]*[=:][ \t]*"(?P<addr>' + _ADDR + rb')"')
# `cidr = 24`, `"prefix": "24"`
_LENGTH = lazy_re.compile(rb'"?(?P<key>[A-Za-z_][\w-]*)"?[ \t]*[=:][ \t]*"?(?P<n>\d{1,3})"?(?![\w.])')
_LENGTH_KEY = lazy_re.compile(r"(?i)(?:cidr|prefix|prefixlen|prefix_?len(?:gth)?|mask|mask_?bits|bits|"
                              r"length|netmask_?bits|cidr_?bits|subnet_?bits|size)")
# the key naming a block: `service = {`, `"service": {`
_BLOCK_KEY = lazy_re.compile(rb'(?:"(?P<q>[^"\n]+)"|(?P<k>[A-Za-z_][\w-]*))[ \t]*[=:][ \t]*$')
_SPECIAL = lazy_re.compile(rb'[{}"#\n]|//|/\*')
_PART = re.compile(r'"([^"\\]*)"|([A-Za-z_][\w-]*)')
# `"${network.network}/${network.cidr}"`, `format("%s/%d", n.network, n.cidr)`, `join("/", [n.a, n.b])`
_SPLIT = (re.compile(r'"\$\{\s*(?P<v>[A-Za-z_][\w-]*)\.(?P<a>[A-Za-z_][\w-]*)\s*\}/'
                     r'\$\{\s*(?P=v)\.(?P<b>[A-Za-z_][\w-]*)\s*\}"'),
          re.compile(r'format\(\s*"%s/%[ds]"\s*,\s*(?P<v>[A-Za-z_][\w-]*)\.(?P<a>[A-Za-z_][\w-]*)\s*,\s*'
                     r'(?P=v)\.(?P<b>[A-Za-z_][\w-]*)\s*\)'),
          re.compile(r'join\(\s*"/"\s*,\s*\[\s*(?P<v>[A-Za-z_][\w-]*)\.(?P<a>[A-Za-z_][\w-]*)\s*,\s*'
                     r'(?P=v)\.(?P<b>[A-Za-z_][\w-]*)\s*\]\s*\)'))


@dataclass(frozen=True)
class Block:
    """A map value holding a network split in two keys: `key` the map key naming it ("" where none)."""

    key: str
    network: Network
    fields: tuple[str, str]  # (the address's key, the length's key)
    rel: str
    line: int
    start: int  # the block's `{` .. `}` in its file
    end: int

    def where(self) -> str:
        named = f"`{self.key}`" if self.key else "a block"
        return (f"{named} at {self.rel}:{self.line} ({self.fields[0]} and {self.fields[1]}: "
                f"{self.network})")


def pairs(data: bytes) -> dict[int, int]:
    """Each `{` of HCL or JSON text to its `}` (strings and comments skipped; unbalanced: dropped)."""
    out: dict[int, int] = {}
    stack: list[int] = []
    pos = 0
    while True:
        m = _SPECIAL.search(data, pos)
        if m is None:
            return out
        c = m.group()
        if c == b"{":
            stack.append(m.start())
        elif c == b"}":
            if stack:
                out[stack.pop()] = m.start()
        elif c == b'"':
            i = m.end()
            while True:
                close = data.find(b'"', i)
                newline = data.find(b"\n", i)
                if close < 0 or (0 <= newline < close):
                    close = newline if newline >= 0 else len(data) - 1
                    break
                if data[close - 1:close] != b"\\":
                    break
                i = close + 1
            pos = close + 1
            continue
        elif c in (b"#", b"//"):
            newline = data.find(b"\n", m.end())
            pos = len(data) if newline < 0 else newline
            continue
        elif c == b"/*":
            close = data.find(b"*/", m.end())
            pos = len(data) if close < 0 else close + 2
            continue
        pos = m.end()


class _Spans:
    """The innermost `{ }` holding a position, by the last one opening before it and its parents (the
    spans nest), not by every span (a file of thousands of blocks: t38's hostile case)."""

    def __init__(self, spans: dict[int, int]) -> None:
        self.starts = sorted(spans)
        self.ends = [spans[s] for s in self.starts]
        self.parent: list[int] = []
        stack: list[int] = []
        for i, start in enumerate(self.starts):
            while stack and self.ends[stack[-1]] < start:
                stack.pop()
            self.parent.append(stack[-1] if stack else -1)
            stack.append(i)

    def at(self, pos: int) -> tuple[int, int] | None:
        i = bisect.bisect_left(self.starts, pos) - 1
        while i >= 0 and not self.ends[i] > pos:
            i = self.parent[i]
        return (self.starts[i], self.ends[i]) if i >= 0 else None


def blocks(rel: str, data: bytes) -> list[Block]:
    """Every block of `data` holding a network address and its length under two keys of its own."""
    if b"{" not in data or _ADDRESS.search(data) is None:
        return []
    spans = _Spans(pairs(data))
    lengths: dict[tuple[int, int], list[re.Match[bytes]]] = {}
    for n in _LENGTH.finditer(data):  # each length key, by the block it stands in (one pass)
        if _LENGTH_KEY.fullmatch(n.group("key").decode()):
            span = spans.at(n.start())
            if span is not None:
                lengths.setdefault(span, []).append(n)
    out: list[Block] = []
    seen: set[tuple[int, int]] = set()
    line, counted = 1, 0
    for m in _ADDRESS.finditer(data):
        span = spans.at(m.start())
        if span is None or span in seen or span not in lengths:
            continue
        for n in lengths[span]:
            try:
                net = ipaddress.ip_network(f"{m.group('addr').decode()}/{n.group('n').decode()}")
            except ValueError:
                continue  # a host address, or no length of its family
            head = _BLOCK_KEY.search(data, max(0, span[0] - 200), span[0])
            key = (head.group("q") or head.group("k")).decode("utf-8", "replace") if head else ""
            line += data.count(b"\n", counted, m.start())
            counted = m.start()
            out.append(Block(key, net, (m.group("key").decode(), n.group("key").decode()), rel, line,
                             span[0], span[1]))
            seen.add(span)
            break
    return out


# A module folder's reading, by (root, folder): the files' stat signature and what they hold
_CACHE: dict[tuple[str, str], tuple[tuple[tuple[str, int, int], ...], Module]] = {}


@dataclass(frozen=True)
class Module:
    blocks: tuple[Block, ...]
    spelled: tuple[tuple[str, str], ...]  # (a network literal, where) the files spell

    def holds(self, moves: list[PrefixMove]) -> list[tuple[PrefixMove, str]]:
        """Each resized move whose old or new network the module holds, with where."""
        out: list[tuple[PrefixMove, str]] = []
        for move in moves:
            nets = (move.old, move.new)
            at = next((b.where() for b in self.blocks if b.network in nets), None)
            if at is None:
                at = next((f"`{text}` at {where}" for text, where in self.spelled
                           if _network(text) in nets), None)
            if at is not None:
                out.append((move, at))
        return out


def _network(text: str) -> Network | None:
    try:
        return ipaddress.ip_network(text, strict=False)
    except ValueError:
        return None


_LITERAL_NET = lazy_re.compile(rb"(?<![\w.:/])(" + _ADDR + rb"/\d{1,3})(?![\w/])")


def module(root: Path | None, folder: str) -> Module:
    """What the `.tf` files of `folder` hold (a symlink to a file inside `root` read as its target)."""
    if root is None:
        return Module((), ())
    base = root / folder if folder else root
    real_root = os.path.realpath(root)
    files: list[tuple[str, Path, int, int]] = []
    try:
        names = sorted(os.listdir(base))
    except OSError:
        names = []
    for name in names:
        if not name.endswith((".tf", ".tf.json", ".tfvars")) or len(files) >= _MAX_FILES:
            continue
        path = base / name
        try:
            real = os.path.realpath(path)
            if os.path.commonpath([real_root, real]) != real_root or not os.path.isfile(real):
                continue
            info = os.stat(real)
        except (OSError, ValueError):
            continue
        if info.st_size > _MAX_READ:
            continue
        files.append((f"{folder}/{name}" if folder else name, path, info.st_mtime_ns, info.st_size))
    signature = tuple((rel, mtime, size) for rel, _, mtime, size in files)
    key = (str(root), folder)
    cached = _CACHE.get(key)
    if cached is not None and cached[0] == signature:
        return cached[1]
    found: list[Block] = []
    spelled: list[tuple[str, str]] = []
    for rel, path, _, _ in files:
        try:
            data = path.read_bytes()
        except OSError:
            continue
        found += blocks(rel, data)
        for m in _LITERAL_NET.finditer(data):
            if _network(m.group(1).decode()) is not None:
                line = data.count(b"\n", 0, m.start()) + 1
                spelled.append((m.group(1).decode(), f"{rel}:{line}"))
    result = Module(tuple(found), tuple(spelled))
    if len(_CACHE) > 256:
        _CACHE.clear()
    _CACHE[key] = (signature, result)
    return result


@dataclass(frozen=True)
class Judged:
    """A verdict on an expression: `verdict` over `network` (where it is held: `where`); `move` the
    resize; `proved` False where the network is only the module's (the expression may not read it)."""

    verdict: Verdict
    network: Network
    move: PrefixMove
    where: str
    proved: bool


def judged(chain: Chain, data: bytes, rel: str, root: Path | None, resized: list[PrefixMove],
           names: Names | None = None, depth: int = 2) -> Judged | None:
    """The verdict on `chain`, an expression of the Terraform file `rel` over a name no resolver read,
    None where it follows or concerns no resized network (see the module's text)."""
    if not rel.endswith((".tf", ".tf.json")) or not resized or _TERRAFORM.match(chain.text) is None:
        return None  # (another reader's spelling in a .tf file, `option[user-class]`, is none of these)
    here = module(root, rel.rpartition("/")[0])
    held = here.holds(resized)
    text = chain.base[len(computed_lengths.OPAQUE):] if chain.base.startswith(computed_lengths.OPAQUE) \
        else chain.base
    if not held:  # the module holds no network a move resizes: a variable its callers pass may
        bound = for_bound(data, chain.start, text) if data else None  # `n` of `for n in var.nets`
        return _passed(chain, bound or text, rel, root, resized, names, depth) if depth > 0 else None
    split = _split_values(chain, text, data, rel, resized) if data else None
    if split is not None:
        return split if isinstance(split, Judged) else None
    keys = {p.group(1) if p.group(1) is not None else p.group(2) for p in _PART.finditer(text)}
    named = [b for b in here.blocks if b.key and b.key in keys]
    if named:
        # one network named: proved; keys of several (`lan` and `service` in one argument): what it
        # computes from is not proved, so never a refusal
        one = len({b.network for b in named}) == 1
        worst = None
        for block in named:
            move = next((m for m in resized if block.network in (m.old, m.new)), None)
            if move is None:
                continue
            verdict = computed_lengths.judge(chain.steps, move.old, move.new)
            if verdict is not None and (worst is None or verdict.kind == computed_lengths.OUTSIDE):
                worst = Judged(verdict, block.network, move, block.where(), one)
        return worst  # the key names a network: a block no move resizes is not the moved one
    for move, where in held:
        verdict = computed_lengths.judge(chain.steps, move.old, move.new)
        if verdict is not None:
            return Judged(verdict, move.old, move, where, False)
    return None


_TERRAFORM = re.compile(r"(?:Fn\.)?cidr(?:host|subnets?)\s*\(")
_VAR = re.compile(r"var\.([A-Za-z_][\w-]*)(.*)", re.S)


def _passed(chain: Chain, text: str, rel: str, root: Path | None, resized: list[PrefixMove],
            names: Names | None, depth: int) -> Judged | None:
    """`cidrhost(var.service_prefix, ..)` in a module a `module` block calls with `service_prefix =
    each.value.networks.service.prefix`: the argument judged in the caller's module (the worst)."""
    if root is None:
        return None
    names = names if names is not None else Names(b"", rel, root)  # (the file's own: the repo read once)
    var = _VAR.fullmatch(text.strip())
    passing = names.callers(rel.rpartition("/")[0], var.group(1)) if var is not None else []
    if var is None or not passing:
        return _called_from(chain, rel, root, resized, names) if depth == 2 else None
    worst: Judged | None = None
    for caller, body, span in passing:
        arg = _narrowed(body[span[0]:span[1]].decode("utf-8", "replace").strip(), var.group(2))
        line = body.count(b"\n", 0, span[0]) + 1
        found = judged(replace(chain, base=computed_lengths.OPAQUE + arg), b"", caller, root, resized, names,
                       depth - 1)
        if found is None:
            continue
        found = replace(found, where=f"{found.where}, passed as `{var.group(1)}` by the module call at "
                                     f"{caller}:{line}")
        if worst is None or (found.proved, found.verdict.kind == computed_lengths.OUTSIDE) > (
                worst.proved, worst.verdict.kind == computed_lengths.OUTSIDE):
            worst = found
    return worst


def _narrowed(arg: str, rest: str) -> str:
    """The argument `arg` read along `rest` (`[*].config.prefix`) where it is written out: `config =
    local.networks.lan` in a literal list of objects gives `local.networks.lan.prefix`."""
    for part in _PART.finditer(rest):
        key = part.group(1) if part.group(1) is not None else part.group(2)
        held = re.search(r"(?m)^[ \t]*\"?" + re.escape(key)
                         + r"\"?[ \t]*[=:][ \t]*([A-Za-z_][\w.\-\[\]\"]*)[ \t]*,?[ \t]*$", arg)
        if held is not None:
            return held.group(1) + rest[part.end():]
    return arg + rest


def _called_from(chain: Chain, rel: str, root: Path, resized: list[PrefixMove],
                 names: Names) -> Judged | None:
    """An expression over a name no resolver read (`cidrhost(iface.prefix, var.host_netnum)`, `iface` from
    a variable) in a module a `module` block calls from a module holding a resized network: what it may
    make, unproved (homelab's systemd-networkd module, its interfaces built from the networks)."""
    for caller, body, span in names.callers(rel.rpartition("/")[0], "source"):
        line = body.count(b"\n", 0, span[0]) + 1
        for move, where in module(root, caller.rpartition("/")[0]).holds(resized):
            verdict = computed_lengths.judge(chain.steps, move.old, move.new)
            if verdict is not None:
                return Judged(verdict, move.old, move, f"{where} through the module call at {caller}:{line}",
                              False)
    return None


def _split_values(chain: Chain, text: str, data: bytes, rel: str,
                  resized: list[PrefixMove]) -> Judged | bool | None:
    """`"${v.network}/${v.cidr}"` with `v` bound by a `for` over a literal map of blocks: the worst
    verdict over each block a move resizes (False: judged, each follows); None where not so written."""
    form = next((found for f in _SPLIT if (found := f.fullmatch(text.strip())) is not None), None)
    if form is None:
        return None
    name = form.group("v")
    spans = pairs(data)
    nest = _Spans(spans)
    bound = None
    fors = list(re.finditer(rb"\bfor[ \t]+(?:[A-Za-z_][\w-]*[ \t]*,[ \t]*)?" + re.escape(name.encode())
                            + rb"[ \t]+in[ \t\r\n]+", data[:chain.start]))
    for each in reversed(fors):  # the nearest `for` whose braces still hold the expression
        around = nest.at(each.start())
        if around is not None and around[1] > chain.start:
            bound = each
            break
    if bound is None or data[bound.end():bound.end() + 1] != b"{" or bound.end() not in spans:
        return None
    collection = (bound.end(), spans[bound.end()])
    values = [b for b in blocks(rel, data) if collection[0] < b.start and b.end < collection[1]
              and nest.at(b.start) == collection
              and b.fields == (form.group("a"), form.group("b"))]
    if not values:
        return None
    worst: Judged | None = None
    outside: list[str] = []
    for block in values:
        move = next((m for m in resized if block.network in (m.old, m.new)), None)
        if move is None:
            continue
        for steps, told in _number_variants(chain, data, block, name):
            verdict = computed_lengths.judge(steps, move.old, move.new)
            if verdict is None:
                continue
            if told and verdict.kind == computed_lengths.OUTSIDE:
                outside.append(f"{verdict.old_value} ({told})")
            if told:
                verdict = replace(verdict, why=f"{verdict.why} ({told})")
            if worst is None or (verdict.kind == computed_lengths.OUTSIDE
                                 and worst.verdict.kind != computed_lengths.OUTSIDE):
                worst = Judged(verdict, block.network, move, f"`{name}` is {block.where()}", True)
    if worst is not None and len(outside) > 1:  # each value that has no place, not the first alone
        worst = replace(worst, verdict=replace(worst.verdict, why=f"{worst.verdict.why}; so has "
                                               + ", ".join(outside[1:])))
    return worst if worst is not None else False


def _number_variants(chain: Chain, data: bytes, block: Block,
                     name: str) -> list[tuple[tuple[Step, ...], str]]:
    """`chain.steps` once per value a number takes where it is a name an inner `for` binds over one of
    the block's own maps (`for s, n in lookup(v, "vips", {})`, `v.vips`): (steps, what it was given)."""
    out: list[tuple[tuple[Step, ...], str]] = [(chain.steps, "")]
    for i, step in enumerate(chain.steps):
        for j, (arg, said) in enumerate(zip(step.args, step.said, strict=False)):
            if arg is not None or not re.fullmatch(r"[A-Za-z_][\w-]*", said.strip()):
                continue
            number = re.escape(said.strip().encode())
            inner = None
            for m in re.finditer(rb"\bfor[ \t]+(?:[A-Za-z_][\w-]*[ \t]*,[ \t]*)?" + number
                                 + rb"[ \t]+in[ \t]+"
                                 rb'(?:lookup[ \t]*\([ \t]*' + re.escape(name.encode())
                                 + rb'[ \t]*,[ \t]*"(?P<a>[A-Za-z_][\w-]*)"|' + re.escape(name.encode())
                                 + rb'(?:\.(?P<b>[A-Za-z_][\w-]*)|\[[ \t]*"(?P<c>[^"\n]+)"[ \t]*\]))',
                                 data[:chain.start]):
                inner = m
            if inner is None:
                continue
            field = (inner.group("a") or inner.group("b") or inner.group("c")).decode()
            held = re.search(rb'(?m)"?' + re.escape(field.encode()) + rb'"?[ \t]*[=:][ \t]*\{',
                             data[block.start:block.end])
            if held is None:
                out = []  # the block has no such map: the expression makes nothing for it
                continue
            open_at = block.start + held.end() - 1
            close = pairs(data[open_at:block.end + 1]).get(0)
            if close is None:
                continue
            values = [int(v) for v in re.findall(rb"[=:][ \t]*\"?(-?\d+)\"?(?![\w.])",
                                                 data[open_at:open_at + close])]
            grown = []
            for steps, told in out:
                for value in dict.fromkeys(values):
                    args = list(steps[i].args)
                    args[j] = value
                    said_now = f"`{said.strip()}` = {value}, from `{field}` of `{block.key}`"
                    grown.append(((*steps[:i], replace(steps[i], args=tuple(args)), *steps[i + 1:]),
                                  f"{told}; {said_now}" if told else said_now))
            out = grown[:64]
    return out
