"""References to a mapping key by its path, where an expression reads one.

`{{ net.hosts.pug.ip }}`, `{{ net.hosts['pug'] }}`, `{% for k in net.hosts["pug"] %}`,
`{{ net.hosts.get('pug') }}` (Jinja, in any file), `var.hosts.pug.ip`, `local.hosts["pug"]`,
`lookup(var.hosts, "pug")` (Terraform: anywhere in a `.tf`/`.hcl` file, or inside `${...}`),
Helm's `{{ .Values.hosts.pug }}` and an Ansible `when:`/`loop:` line's bare Jinja each read the
key `pug` at the path `net.hosts.pug` (`var.hosts.pug`, `local.hosts.pug`: Terraform's
namespaces are part of the path; Helm's `.Values` is a root, not a key). A host name is one
such key where a mapping is keyed by host; whether this one is, is another module's business
(renamer/sweep/key_index.py compares the path with the keys the repo defines, read by
renamer/key_paths.py). `hostvars['pug']` and `groups['pug']` read the inventory's host names,
which the plain rules follow; their attribute form, `hostvars.pug.ansible_host`, `groups.pug`,
reads the same host, and the `.` before it keeps the plain rules away: it is a `host` reference
(`KeyRef.host`), which follows the host's rename as the subscript does (break-it round 5,
finding B). Pure: bytes in, spans out.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass

from renamer import lazy_re

# Where expressions stand: Jinja's `{{ }}` and `{% %}`, `${ }` interpolation, and the value of
# an Ansible keyword whose value is a bare Jinja expression.
_JINJA = lazy_re.compile(rb"\{\{.*?\}\}|\{%.*?%\}|\$\{[^}\n]*\}", re.DOTALL)
_BARE = lazy_re.compile(rb"^[ \t]*(?:-[ \t]+)?(?:when|failed_when|changed_when|until|loop|with_[a-z]+|that)"
                   rb"[ \t]*:[ \t]*(?P<value>[^\r\n]*)", re.MULTILINE)
# A root stands after no name, index or call; Helm's `$.Values` (the top context from anywhere) too.
_ROOT = lazy_re.compile(rb"(?:(?<![A-Za-z0-9_.\]\)$-])|(?<=\$)(?=\.Values(?![A-Za-z0-9_])))"
                   rb"(?P<dot>\.)?(?P<root>[A-Za-z_][A-Za-z0-9_]*)")
# Go template actions that change (or keep, for a block's end) what `.` is.
_ACTION = lazy_re.compile(rb"\{\{-?[ \t\r\n]*(?P<kw>with|range|if|define|block|else|end)\b"
                     rb"(?P<rest>.*?)-?[ \t\r\n]*\}\}", re.DOTALL)
_VALUES_PATH = lazy_re.compile(rb"\$?\.Values(?P<rest>(?:\.[A-Za-z_][A-Za-z0-9_]*)*)")
_RELATIVE_PATH = lazy_re.compile(rb"(?:\.[A-Za-z_][A-Za-z0-9_]*)+")
# What `.` is in a Go template: None at the top (the chart's context: `.Values` is a root), else
# the path under `.Values` it was set to by `with` (`ANY` in it: it cannot be read).
Dot = tuple[str, ...] | None
# A step's dot is followed by its name at once: a dot followed by a blank ends a sentence, not a
# path (`# same as a roaming client. pug keeps its IP` in a comment, a heredoc or a `when:` value's
# trailing comment is no read of `client.pug`: break-it round 10, finding 10).
_ATTR = lazy_re.compile(rb"[ \t]*\.(?P<attr>[A-Za-z_][A-Za-z0-9_]*)")
_ATTR_DASHED = lazy_re.compile(rb"[ \t]*\.(?P<attr>[A-Za-z_][A-Za-z0-9_-]*)")  # HCL names may hold `-`
_SUB = lazy_re.compile(rb"""[ \t]*\[[ \t]*(?:(?P<q>['"])(?P<sub>[^'"\\\n]*)(?P=q)|(?P<index>\d+)"""
                  rb"""|(?P<other>[^\]\n]*))[ \t]*\]""")
_GET = lazy_re.compile(rb"""[ \t]*\.get[ \t]*\([ \t]*(?P<q>['"])(?P<sub>[^'"\\\n]*)(?P=q)""")
_LOOKUP = lazy_re.compile(rb"""lookup[ \t]*\(""")
_AFTER_LOOKUP = lazy_re.compile(rb"""\blookup[ \t]*\([ \t]*\Z""")
_LOOKUP_KEY = lazy_re.compile(rb"""[ \t]*,[ \t]*(?P<q>['"])(?P<sub>[^'"\\\n]*)(?P=q)""")
_HCL_STRING = lazy_re.compile(rb'"(?:[^"\\\n]|\\.)*"')
_JINJA_STRING = lazy_re.compile(rb""""(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'""")
_INTERPOLATION = lazy_re.compile(rb"\$\{[^}\n]*\}")
# Roots whose subscripts are the inventory's host names, not a mapping's keys.
_HOST_ROOTS = frozenset({"hostvars", "groups"})
ANY = "*"  # a part read through a variable (`net.hosts[name]`): any key
# A Go template variable's assignment (`{{- $hosts := .Values.hosts }}`, `{{ range $k, $v := ... }}`)
# and its use (`$hosts.pug`); a grouping paren (not a call's) closing after a chain.
_ASSIGN = lazy_re.compile(rb"\{\{-?[ \t]*(?:(?P<range>range[ \t]+)|(?:with|if)[ \t]+)?"
                     rb"(?:\$[A-Za-z_]\w*[ \t]*,[ \t]*)?"
                     rb"\$(?P<var>[A-Za-z_]\w*)[ \t]*:?=[ \t]*(?P<expr>[^{}]*?)[ \t]*-?\}\}")
_VAR = lazy_re.compile(rb"(?<![A-Za-z0-9_])\$(?P<var>[A-Za-z_]\w*)")
_GROUPED = lazy_re.compile(rb"(?<![A-Za-z0-9_\]\)])\([ \t]*\Z")
# A key read through a function (break-it round 8, finding 4): Helm's `index .Values.hosts "pug"`,
# `get`, `hasKey`, `pluck "pug" .Values.hosts`, `dig "pug" "ip" "x" .Values.hosts`; Terraform's
# `contains(keys(var.hosts), "pug")` and `k == "pug"` in a `for k, v in var.hosts` (or
# `for k in keys(var.hosts)`); Jinja's `'pug' in net.hosts`, `net.hosts | dict2items |
# selectattr('key', 'eq', 'pug')`, `k == 'pug'` under `{% for k, v in net.hosts.items() %}`,
# a `{% set h = net.hosts %}` alias and `lookup('vars', 'net')`.
_Q = rb"""(?P<q>['"])(?P<sub>[^'"\\\n]*)(?P=q)"""
_BEFORE_ARGS = lazy_re.compile(rb"(?<![\w.$-])(?:index|get|hasKey)[ \t]+\(?[ \t]*\Z")
_KEY_ARG = lazy_re.compile(rb"""[ \t]+(?P<q>")(?P<sub>[^"\\\n]*)(?P=q)""")
_BEFORE_PLUCK = lazy_re.compile(rb"""(?<![\w.$-])(?P<fn>pluck|dig)(?P<keys>(?:[ \t]+"[^"\\\n]*")+)"""
                           rb"""[ \t]+\(?[ \t]*\Z""")
_BEFORE_CONTAINS = lazy_re.compile(rb"(?:contains|index)[ \t]*\([ \t]*keys[ \t]*\([ \t]*\Z")
_CONTAINS_KEY = lazy_re.compile(rb"""[ \t]*\)[ \t]*,[ \t]*(?P<q>")(?P<sub>[^"\\\n]*)(?P=q)[ \t]*\)""")
_BEFORE_IN = lazy_re.compile(rb"""(?P<q>['"])(?P<sub>[^'"\\\n]*)(?P=q)[ \t]+(?:not[ \t]+)?in[ \t]+\Z""")
_SELECT_KEY = lazy_re.compile(
    rb"""[ \t]*\|[ \t]*dict2items[ \t]*\|[ \t]*(?:select|reject)attr[ \t]*\([ \t]*"""
                         rb"""['"]key['"][ \t]*,[ \t]*['"](?:eq|equalto|==|ne|!=)['"][ \t]*,[ \t]*"""
                         + _Q)
_SELECT_IN = lazy_re.compile(rb"""[ \t]*\|[ \t]*dict2items[ \t]*\|[ \t]*(?:select|reject)attr[ \t]*\([ \t]*"""
                        rb"""['"]key['"][ \t]*,[ \t]*['"](?:in|not in)['"][ \t]*,[ \t]*[\[(]"""
                        rb"""(?P<items>[^\])\n]*)[\])]""")
_JSON_QUERY = lazy_re.compile(rb"""[ \t]*\|[ \t]*(?:community\.general\.)?json_query[ \t]*\([ \t]*['"]"""
                         rb"""(?P<sub>[A-Za-z_][\w-]*)(?![\w-])""")
_BEFORE_FOR = lazy_re.compile(
    rb"(?<![\w.])for[ \t]+(?P<k>[A-Za-z_]\w*)[ \t]*(?P<two>,[ \t]*[A-Za-z_]\w*[ \t]*)?"
                         rb"in[ \t]+(?P<keys>keys[ \t]*\([ \t]*)?\Z")
_ITEMS = lazy_re.compile(rb"[ \t]*\.[ \t]*items[ \t]*\([ \t]*\)")
_LOOKUP_VARS = lazy_re.compile(
    rb"""lookup[ \t]*\([ \t]*['"]vars['"][ \t]*,[ \t]*['"](?P<name>[A-Za-z_]\w*)['"]"""
                          rb"""[ \t]*\)""")
_JINJA_SET = lazy_re.compile(rb"""\{%-?[ \t]*set[ \t]+(?P<var>[A-Za-z_]\w*)[ \t]*=[ \t]*"""
                        rb"""(?P<expr>(?:[^%]*?[^%\s])?)[ \t]*-?%\}""")
_PLAIN_CHAIN = lazy_re.compile(rb"""[A-Za-z_]\w*(?:[ \t]*\.[ \t]*[A-Za-z_]\w*"""
                          rb"""|[ \t]*\[[ \t]*['"][^'"\\\n]*['"][ \t]*\])*""")
_STRING_ARG = lazy_re.compile(rb'"(?P<sub>[^"\\\n]*)"')
_KEYS_CALL = lazy_re.compile(rb"[ \t]*\.[ \t]*keys[ \t]*\([ \t]*\)")
_RANGE_KEY = lazy_re.compile(
    rb"\{\{-?[ \t]*range[ \t]+\$(?P<key>[A-Za-z_]\w*)[ \t]*,[ \t]*\$[A-Za-z_]\w*[ \t]*"
                        rb":=[ \t]*(?P<expr>(?:[^{}|]*?[^{}|\s])?)[ \t]*-?\}\}")
# What a chain's function or loop ends with, just before the chain (a cheap gate for the above).
_STEMS = (b"index", b"get", b"hasKey", b"keys", b"in", b'"')
_CALLED = lazy_re.compile(rb"[ \t]*\([ \t]*\)")
_GO_FUNCTIONS = frozenset({b"index", b"get", b"hasKey", b"pluck", b"dig"})
_ENDFOR = lazy_re.compile(rb"\{%-?[ \t]*endfor")
_CHAIN_PART = lazy_re.compile(rb"""[A-Za-z_]\w*|['"](?P<sub>[^'"\\\n]*)['"]""")
_CLOSE = re.compile(rb"[ \t]*\)")
# A data file decoded inline and read by a path at once (break-it round 11, finding 4):
# Terraform's `yamldecode(file("${path.module}/hosts.yml")).hosts.pug.ip` (or `jsondecode`, or
# `["hosts"]["pug"]`), Jinja's `(lookup('file', 'hosts.yml') | from_yaml).hosts.pug.ip`. The
# path's root is the file as written (`<file:hosts.yml>`, sweep/key_index.py binds it to the file
# the reader's load reads); a decode of anything else (`jsondecode(data.http.x.response_body)`,
# `(raw | from_yaml)`) reads a mapping that cannot be told (`ANY`).
_DECODE_HCL = lazy_re.compile(rb"(?<![\w.])(?:yaml|json)decode[ \t]*\(")
_DECODE_JINJA = lazy_re.compile(rb"\|[ \t]*from_(?:yaml|json)[ \t]*\)")
_FILE_HCL = r"""file\s*\(\s*"(?P<path>[^"\\\n]*)"\s*\)"""
_FILE_JINJA = (r"""lookup\s*\(\s*(?P<fq>['"])(?:ansible\.builtin\.)?file(?P=fq)\s*,\s*"""
               r"""(?P<pq>['"])(?P<path>[^'"\\\n]*)(?P=pq)\s*\)""")
_FILE_ARG_HCL = lazy_re.compile(_FILE_HCL.encode())
_FILE_ARG_JINJA = lazy_re.compile(_FILE_JINJA.encode())
# The same loads on a line (git grep's text), for the mounts: each `path` a file read inline.
_INLINE_LOADS = (re.compile(r"(?<![\w.])(?:yaml|json)decode\s*\(\s*" + _FILE_HCL + r"\s*\)"),
                 re.compile(r"\(\s*" + _FILE_JINJA + r"\s*\|\s*from_(?:yaml|json)\s*\)"))
# The prefix of a path read through an inline load of a file written `path`.
LOADED = "<file:{}>"


@dataclass(frozen=True)
class KeyRef:
    """A key named in a reference: its byte span, the path through it, how it is written."""

    start: int
    end: int
    name: str
    path: tuple[str, ...]  # the parts through the name; a list index is `[]`, a variable `*`
    text: str  # the reference as written, through the name
    quoted: bool  # a subscript's or a lookup's string (plain text rules see it); else an attribute
    host: bool = False  # `hostvars.pug`, `groups.pug`: an inventory host's name, not a mapping's key
    local: bool = False  # a compose service's name: read only in the compose files beside it
    project: str = ""  # a compose file whose project reads it (its env_file: break-it round 9, 3)


def might_hold(data: bytes, names: Collection[str]) -> bool:
    """A cheap test first: some name after a dot or a quote, beside an expression's bracket."""
    if b"{{" not in data and b"{%" not in data and b"${" not in data and b"lookup" not in data \
            and b"var." not in data and b"local." not in data and b"when" not in data \
            and b"loop" not in data and b"that" not in data and b"decode" not in data:
        return False
    return any(f".{n}".encode() in data or f"'{n}'".encode() in data or f'"{n}"'.encode() in data
               for n in names)


def key_refs(data: bytes, names: Collection[str], *, hcl: bool) -> list[KeyRef]:
    """Every key in `names` that a reference of `data` reads at a path of two parts or more."""
    wanted = {n.encode() for n in names}
    seen: set[int] = set()
    out: list[KeyRef] = []
    offsets, dots = ([0], [None]) if hcl or b"{{" not in data else _dots(data)
    assigned = _assigned(data, offsets, dots) if not hcl and b"$" in data and b"=" in data else {}
    aliases = _aliases(data) if not hcl and b"set" in data else {}
    if not hcl and (b"set" in data or b":=" in data):
        for ref in _literal_keys(data, wanted, offsets, dots, assigned, aliases):
            seen.add(ref.start)
            out.append(ref)
    if not hcl and b"range" in data and (b"eq" in data or b"has" in data):
        for ref in _range_keys(data, wanted, offsets, dots):
            seen.add(ref.start)
            out.append(ref)
    for start, end in _regions(data, hcl=hcl):
        strings = _strings(data, start, end, hcl=hcl)
        dot = dots[bisect.bisect_right(offsets, start) - 1]
        decoded = (_decoded(data, start, end, wanted, strings, hcl=hcl)
                   if b"decode" in data or b"from_" in data else [])
        for ref in [*_chains(data, start, end, wanted, dashed=hcl, strings=strings, dot=dot, aliases=aliases),
                    *_variables(data, start, end, wanted, assigned), *decoded]:
            if ref.start not in seen:
                seen.add(ref.start)
                out.append(ref)
    return sorted(out, key=lambda r: r.start)


def _aliases(data: bytes) -> dict[bytes, tuple[str, ...]]:
    """What each Jinja `{% set h = net.hosts %}` alias of `data` reads, as a path (break-it round 8,
    finding 4): `h['pug']` reads `net.hosts.pug`; an alias set twice to different paths, or to
    anything but a plain chain, reads what cannot be told (`ANY`)."""
    out: dict[bytes, tuple[str, ...]] = {}
    for found in _JINJA_SET.finditer(data):
        expr = found.group("expr")
        path: tuple[str, ...] = (ANY,)
        if _PLAIN_CHAIN.fullmatch(expr):
            parts = [(p.group("sub") if p.group("sub") is not None else p.group()).decode("utf-8", "replace")
                     for p in _CHAIN_PART.finditer(expr)]
            head = parts[0].encode()
            path = (*(out[head] if head in out else (parts[0],)), *parts[1:])
            if path[0] == "vars" and len(path) > 1:
                path = path[1:]  # Ansible's `vars['net']` is the variable `net`
        variable = found.group("var")
        out[variable] = path if out.get(variable, path) == path else (ANY,)
    return out


def _after_chain(data: bytes, start: int, end: int, head: int, pos: int, parts: list[str],
                 wanted: set[bytes], *, hcl: bool) -> Iterator[KeyRef]:
    """The keys a function reads from the mapping at `parts` (its chain spans head..pos): see
    `_BEFORE_ARGS` and its neighbours (break-it round 8, finding 4)."""
    stem = data[max(start, head - 12):head].rstrip(b" \t(")
    if not stem.endswith(_STEMS):
        if not hcl and b"|" in data[pos:pos + 4]:  # `net.hosts | dict2items | selectattr(...)`
            yield from _piped(data, head, pos, end, parts, wanted)
        return  # nothing before the chain reads a key of it: the common case, cheaply
    before = max(start, head - 200)

    def ref(sub: re.Match[bytes], keys: list[str], shown: str) -> KeyRef:
        return KeyRef(sub.start("sub"), sub.end("sub"), keys[-1], (*parts, *keys), shown, True)

    def shown(first: int, last: int) -> str:
        return data[first:last].decode("utf-8", "replace")

    if not hcl and (call := _BEFORE_ARGS.search(data, before, head)) is not None:
        keys: list[str] = []
        at = pos
        while (arg := _KEY_ARG.match(data, at, end)) is not None:
            keys.append(arg.group("sub").decode("utf-8", "replace"))
            at = arg.end()
            if arg.group("sub") in wanted:
                yield ref(arg, keys, shown(call.start(), arg.end()))
            if not call.group().lstrip().startswith(b"index"):
                break  # `get` and `hasKey` take one key; `index` a path of them
    if not hcl and (call := _BEFORE_PLUCK.search(data, before, head)) is not None:
        args = list(_STRING_ARG.finditer(data, call.start("keys"), call.end("keys")))
        if call.group("fn") == b"dig":
            args = args[:-1]  # its last string is the default
            for i, arg in enumerate(args):
                if arg.group("sub") in wanted:
                    keys = [a.group("sub").decode("utf-8", "replace") for a in args[:i + 1]]
                    yield ref(arg, keys, shown(call.start(), pos))
        else:
            for arg in args:
                if arg.group("sub") in wanted:
                    yield ref(arg, [arg.group("sub").decode()], shown(call.start(), pos))
    if hcl and (call := _BEFORE_CONTAINS.search(data, before, head)) is not None:
        arg = _CONTAINS_KEY.match(data, pos, end)
        if arg is not None and arg.group("sub") in wanted:
            yield ref(arg, [arg.group("sub").decode()], shown(call.start(), arg.end()))
    if not hcl:
        member = _BEFORE_IN.search(data, before, head)
        if member is not None and member.group("sub") in wanted:
            called = _CALLED.match(data, pos, end) if parts and parts[-1] == "keys" else None
            if called is not None:  # `'pug' in net.hosts.keys()`: the mapping's keys (round 9, severity 3)
                key = member.group("sub").decode()
                yield KeyRef(member.start("sub"), member.end("sub"), key, (*parts[:-1], key),
                             shown(member.start(), called.end()), True)
            else:
                yield ref(member, [member.group("sub").decode()], shown(member.start(), pos))
        yield from _piped(data, head, pos, end, parts, wanted)
    loop = _BEFORE_FOR.search(data, before, head)
    if loop is not None:
        yield from _loop_keys(data, loop, head, pos, parts, wanted, hcl=hcl)


# A variable set to a string (break-it round 9, finding 3): Jinja's `{% set n = 'pug' %}`, Helm's
# `{{ $n := "pug" }}`; and what stands before a use of it that reads it as a key of a mapping.
_JINJA_LITERAL = lazy_re.compile(rb"""\{%-?[ \t]*set[ \t]+(?P<var>[A-Za-z_]\w*)[ \t]*=[ \t]*"""
                            rb"""(?P<q>['"])(?P<sub>[^'"\\\n]*)(?P=q)[ \t]*-?%\}""")
_HELM_LITERAL = lazy_re.compile(rb"""\{\{-?[ \t]*\$(?P<var>[A-Za-z_]\w*)[ \t]*:?=[ \t]*"""
                           rb"""(?P<q>")(?P<sub>[^"\\\n]*)"[ \t]*-?\}\}""")
_JINJA_CHAIN = rb"""[A-Za-z_]\w*(?:[ \t]*\.[ \t]*[A-Za-z_]\w*|[ \t]*\[[ \t]*['"][^'"\\\n]*['"][ \t]*\])*"""
_JINJA_BEFORE = (re.compile(rb"(?P<chain>" + _JINJA_CHAIN + rb")[ \t]*\[[ \t]*\Z"),
                 re.compile(rb"(?P<chain>" + _JINJA_CHAIN + rb")[ \t]*\.[ \t]*get[ \t]*\([ \t]*\Z"))
_JINJA_IN = lazy_re.compile(rb"[ \t]+(?:not[ \t]+)?in[ \t]+(?P<chain>" + _JINJA_CHAIN + rb")(?![\w.\[(])")
_HELM_BEFORE = lazy_re.compile(rb"(?<![\w.$-])(?:index|get|hasKey)[ \t]+\(?[ \t]*"
                          rb"(?P<chain>\$?\.Values(?:\.[A-Za-z_]\w*)*|\$[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)"
                          rb"[ \t]+\Z")


def _literal_keys(data: bytes, wanted: set[bytes], offsets: list[int], dots: list[Dot] | list[None],
                  assigned: dict[bytes, tuple[str, ...]],
                  aliases: dict[bytes, tuple[str, ...]]) -> Iterator[KeyRef]:
    """A string set to a variable that the file reads as a key (`net.hosts[n]`, `n in net.hosts`,
    `index .Values.hosts $n`): a reference at the string, at the mapping's path; a variable also
    read otherwise, or as keys of two mappings, reads a key that cannot be told (`ANY`)."""
    for helm, pattern in ((False, _JINJA_LITERAL), (True, _HELM_LITERAL)):
        for found in pattern.finditer(data):
            if found.group("sub") not in wanted:
                continue
            name = found.group("var")
            use = re.compile((rb"(?<![\w.])\$" if helm else rb"(?<![\w.$'\"])") + re.escape(name)
                             + rb"(?![\w'\"])")
            regions = [(m.start(), m.end()) for m in _JINJA.finditer(data)] if not helm else [(0, len(data))]
            paths: set[tuple[str, ...]] = set()
            other = False
            for first, last in regions:
                for hit in use.finditer(data, max(first, found.end()), last):
                    window = data[max(0, hit.start() - 200):hit.start()]
                    path: tuple[str, ...] | None = None
                    if helm:
                        before = _HELM_BEFORE.search(window)
                        if before is not None:
                            chain = before.group("chain")
                            if chain.startswith(b"$") and not chain.startswith(b"$."):
                                head, _, rest = chain[1:].partition(b".")
                                base = assigned.get(head)
                                path = (*base, *(p.decode() for p in rest.split(b".") if p)) if base else None
                            else:
                                dot = dots[bisect.bisect_right(offsets, hit.start()) - 1]
                                path = _dot_of(chain.lstrip(b"$"), dot)
                    else:
                        for before_use in _JINJA_BEFORE:
                            if (before := before_use.search(window)) is not None:
                                path = _jinja_path(before.group("chain"), aliases)
                                break
                        after = _JINJA_IN.match(data, hit.end(), last) if path is None else None
                        if after is not None:
                            path = _jinja_path(after.group("chain"), aliases)
                    if path is None or ANY in path:
                        other = True
                    else:
                        paths.add(path)
            if not paths:
                continue
            key = found.group("sub").decode()
            path = next(iter(paths)) if len(paths) == 1 and not other else (ANY,)
            shown = found.group().decode("utf-8", "replace")
            what = ".".join(path) if path != (ANY,) else "more than one thing"
            # `hostvars[n]`, `groups[n]`: the inventory's host (group) names, as `hostvars['pug']`
            host = path in (("hostvars",), ("groups",))
            yield KeyRef(found.start("sub"), found.end("sub"), key, (*path, key),
                         f"{shown}, read as a key of {what}", True, host=host)


def _jinja_path(chain: bytes, aliases: dict[bytes, tuple[str, ...]]) -> tuple[str, ...]:
    parts = [(p.group("sub") if p.group("sub") is not None else p.group()).decode("utf-8", "replace")
             for p in _CHAIN_PART.finditer(chain)]
    head = parts[0].encode()
    path = (*(aliases[head] if head in aliases else (parts[0],)), *parts[1:])
    return path[1:] if path[0] == "vars" and len(path) > 1 else path


def _piped(data: bytes, head: int, pos: int, end: int, parts: list[str],
           wanted: set[bytes]) -> Iterator[KeyRef]:
    """The keys a Jinja filter reads from the mapping at `parts` (its chain spans head..pos):
    `| dict2items | selectattr('key', 'eq', 'pug')` (round 8, finding 4), `selectattr('key', 'in',
    ['pug'])` and `| json_query('pug.ip')` (round 9, finding 3)."""
    def one(found: re.Match[bytes], span: tuple[int, int], key: bytes, last: int) -> KeyRef:
        return KeyRef(span[0], span[1], key.decode(), (*parts, key.decode()),
                      data[head:last].decode("utf-8", "replace") + ")", True)

    select = _SELECT_KEY.match(data, pos, end)
    if select is not None and select.group("sub") in wanted:
        yield one(select, select.span("sub"), select.group("sub"), select.end())
    listed = _SELECT_IN.match(data, pos, end)
    if listed is not None:
        for item in _JINJA_STRING.finditer(data, listed.start("items"), listed.end("items")):
            if item.group()[1:-1] in wanted:
                yield one(listed, (item.start() + 1, item.end() - 1), item.group()[1:-1], listed.end())
    query = _JSON_QUERY.match(data, pos, end)
    if query is not None and query.group("sub") in wanted:
        yield one(query, query.span("sub"), query.group("sub"), query.end())


def _range_keys(data: bytes, wanted: set[bytes], offsets: list[int],
                dots: list[Dot] | list[None]) -> Iterator[KeyRef]:
    """Helm's `{{ range $k, $v := .Values.hosts }}` ... `{{ if eq $k "pug" }}` (or `ne`, either
    order) up to the range's `end`: the key `hosts.pug` (break-it round 8, finding 4)."""
    for found in _RANGE_KEY.finditer(data):
        dot = dots[bisect.bisect_right(offsets, found.start()) - 1]
        path = _dot_of(found.group("expr"), dot)
        if path is None:
            continue
        depth, last = 0, len(data)
        for action in _ACTION.finditer(data, found.end()):
            kw = action.group("kw")
            if kw in (b"with", b"range", b"if", b"define", b"block"):
                depth += 1
            elif kw == b"end":
                if depth == 0:
                    last = action.start()
                    break
                depth -= 1
        name = re.escape(found.group("key"))
        test = re.compile(rb"(?<![\w])(?:eq|ne)[ \t]+(?:\$" + name + rb"[ \t]+(?P<q>\")(?P<sub>[^\"\\\n]*)\""
                          rb"|\"(?P<sub2>[^\"\\\n]*)\"[ \t]+\$" + name + rb")(?![\w])")
        shown = f"range ${found.group('key').decode()} := {found.group('expr').decode()} ... "
        for hit in test.finditer(data, found.end(), last):
            group = "sub" if hit.group("sub") is not None else "sub2"
            key = hit.group(group)
            if key in wanted:
                yield KeyRef(hit.start(group), hit.end(group), key.decode(), (*path, key.decode()),
                             shown + hit.group().decode("utf-8", "replace"), True)
        # `has $k (list "pug" "rex")` (break-it round 9, finding 3)
        member = re.compile(rb"(?<![\w])has[ \t]+\$" + name
                            + rb"[ \t]+\([ \t]*list(?P<items>(?:[ \t]+\"[^\"\\\n]*\")+)")
        for hit in member.finditer(data, found.end(), last):
            for item in _STRING_ARG.finditer(data, hit.start("items"), hit.end("items")):
                if item.group("sub") in wanted:
                    key = item.group("sub").decode()
                    yield KeyRef(item.start("sub"), item.end("sub"), key, (*path, key),
                                 shown + hit.group().decode("utf-8", "replace") + ")", True)


def _loop_keys(data: bytes, loop: re.Match[bytes], head: int, pos: int, parts: list[str],
               wanted: set[bytes], *, hcl: bool) -> Iterator[KeyRef]:
    """`k == "pug"` in the body of a loop whose `k` is the mapping's key: Terraform's
    `for k, v in X :` and `for k in keys(X) :`, Jinja's `{% for k in X %}`, `for k in X.keys()` and
    `for k, v in X.items()`, to the body's end (the closing bracket, `{% endfor %}`)."""
    if loop.group("keys"):
        close = _CLOSE.match(data, pos)
        if close is None:
            return
        pos = close.end()
    elif not hcl:
        called = _CALLED.match(data, pos) if parts and parts[-1] in ("items", "keys") else None
        if called is not None:  # `net.hosts.items()`: the chain read `items` as a part
            parts, pos = parts[:-1], called.end()
        items = called or _ITEMS.match(data, pos) or _KEYS_CALL.match(data, pos)
        if loop.group("two") and items is None:
            return
        pos = items.end() if items is not None else pos
    elif not loop.group("two"):
        return  # Terraform's `for v in X`: the values
    if hcl:
        depth, last = 0, len(data)
        for i in range(pos, len(data)):
            c = data[i:i + 1]
            if c in (b"(", b"[", b"{"):
                depth += 1
            elif c in (b")", b"]", b"}"):
                depth -= 1
                if depth < 0:
                    last = i
                    break
    else:
        done = _ENDFOR.search(data, pos)
        last = done.start() if done is not None else len(data)
    name = re.escape(loop.group("k"))
    flipped = _Q.replace(b"<q>", b"<q2>").replace(b"<sub>", b"<sub2>").replace(b"=q)", b"=q2)")
    test = re.compile(rb"(?<![\w.])" + name + rb"""[ \t]*[!=]=[ \t]*""" + _Q
                      + rb"|" + flipped + rb"[ \t]*[!=]=[ \t]*" + name + rb"(?![\w])")
    for found in test.finditer(data, pos, last):
        group = "sub" if found.group("sub") is not None else "sub2"
        key = found.group(group)
        if key in wanted:
            yield KeyRef(found.start(group), found.end(group), key.decode(), (*parts, key.decode()),
                         f"{data[loop.start():pos].decode('utf-8', 'replace')} ... {found.group().decode()}",
                         True)
    # break-it round 9, finding 3: a list the key is tested against, `contains(["pug"], k)`
    # (Terraform), `k in ['pug']` (Jinja)
    member = (re.compile(rb"(?<![\w.])contains[ \t]*\([ \t]*\[(?P<items>[^\]\n]*)\][ \t]*,[ \t]*" + name
                         + rb"[ \t]*\)|(?<![\w.])(?:starts|ends)with[ \t]*\([ \t]*" + name
                         + rb"""[ \t]*,(?P<items2>[ \t]*"[^"\\\n]*")[ \t]*\)""") if hcl else
              re.compile(rb"(?<![\w.])" + name
                         + rb"[ \t]+(?:not[ \t]+)?in[ \t]+[\[(](?P<items>[^\])\n]*)[\])]"))
    for found in member.finditer(data, pos, last):
        listed = "items" if found.group("items") is not None else "items2"
        for item in _JINJA_STRING.finditer(data, found.start(listed), found.end(listed)):
            key = item.group()[1:-1]
            if key in wanted:
                yield KeyRef(item.start() + 1, item.end() - 1, key.decode(), (*parts, key.decode()),
                             f"{data[loop.start():pos].decode('utf-8', 'replace')} ... "
                             f"{found.group().decode('utf-8', 'replace')}", True)


def dots(data: bytes) -> tuple[list[int], list[Dot]]:
    """`_dots`, for a reader of `.` elsewhere (composed_names: `{{ . }}.ana.lan` under a `with`)."""
    return _dots(data)


def dot_at(found: tuple[list[int], list[Dot]], pos: int) -> tuple[str, ...] | None:
    """The path under `.Values` that `.` is at `pos` (a `with`'s), or None (the top, or what
    cannot be read: a `range`'s element, a `define`)."""
    offsets, dots = found
    dot = dots[bisect.bisect_right(offsets, pos) - 1]
    return dot if dot and ANY not in dot else None


def _dots(data: bytes) -> tuple[list[int], list[Dot]]:
    """Where `.` changes in a Go template (Helm), and what it is from there on: `with .Values.hosts`
    makes `{{ .pug }}` read `.Values.hosts.pug` until its `end`; `range`, `define`, `block` and
    a `with` of anything else make it a context that cannot be read."""
    offsets: list[int] = [0]
    dots: list[Dot] = [None]
    stack: list[tuple[bytes, Dot]] = []
    dot: Dot = None
    for action in _ACTION.finditer(data):
        kw, rest = action.group("kw"), action.group("rest")
        if kw in (b"with", b"range", b"if", b"define", b"block"):
            stack.append((kw, dot))
            if kw == b"with":
                dot = _dot_of(rest, dot)
            elif kw == b"range":  # each element: its keys cannot be told from the values' paths
                inner = _dot_of(rest.split(b":=")[-1], dot)
                dot = (*inner, ANY) if inner is not None else (ANY,)
            elif kw != b"if":
                dot = (ANY,)
        elif kw == b"else" and stack and stack[-1][0] in (b"with", b"range"):
            dot = stack[-1][1]  # a `with`'s else runs with the outer `.`
        elif kw == b"end" and stack:
            dot = stack.pop()[1]
        offsets.append(action.end())
        dots.append(dot)
    return offsets, dots


def _assigned(data: bytes, offsets: list[int], dots: list[Dot] | list[None]) -> dict[bytes, tuple[str, ...]]:
    """What each Go template variable of `data` holds, as a path under `.Values` (break-it round 6,
    finding 7): `$hosts := .Values.hosts` is `hosts`; a `range`'s element, a variable set twice to
    different paths or to anything else holds what cannot be read (`ANY`)."""
    out: dict[bytes, tuple[str, ...]] = {}
    for found in _ASSIGN.finditer(data):
        expr = found.group("expr")
        dot = dots[bisect.bisect_right(offsets, found.start()) - 1]
        variable = found.group("var")
        if expr.startswith(b"$") and expr[1:2] != b"." and expr[1:].split(b".")[0] in out:
            base = out[expr[1:].split(b".")[0]]  # `$net := $v.net`: through another variable
            rest = expr[1:].split(b".")[1:]
            path: Dot = (*base, *(p.decode() for p in rest)) if _RELATIVE_PATH.fullmatch(
                b"." + b".".join(rest)) or not rest else (ANY,)
        else:
            path = _dot_of(expr, dot)
        if path is None:
            path = (ANY,)  # `$x := .`: the chart's context, not its values
        if found.group("range"):
            path = (*path, ANY)
        out[variable] = path if out.get(variable, path) == path else (ANY,)
    return out


def _variables(data: bytes, start: int, end: int, wanted: set[bytes],
               assigned: dict[bytes, tuple[str, ...]]) -> Iterator[KeyRef]:
    """`$hosts.pug.ip` where `$hosts` is assigned in the file: the key at its path; a variable the
    file never assigns is left (it cannot be a chart's: Go templates reject it)."""
    if not assigned:
        return
    for found in _VAR.finditer(data, start, end):
        base = assigned.get(found.group("var"))
        if base is None:
            continue
        parts = list(base)
        pos = found.end()
        while (step := _ATTR.match(data, pos, end)) is not None:
            part = step.group("attr")
            parts.append(part.decode())
            if part in wanted:
                yield KeyRef(step.start("attr"), step.end("attr"), part.decode(), tuple(parts),
                             data[found.start():step.end()].decode("utf-8", "replace"), False)
            pos = step.end()
        yield from _after_chain(data, start, end, found.start(), pos, parts, wanted, hcl=False)


def _dot_of(expression: bytes, dot: Dot) -> Dot:
    """What `.` becomes under `with expression`, where it was `dot`."""
    expression = expression.strip()
    values = _VALUES_PATH.fullmatch(expression)
    if values is not None:
        return tuple(p.decode() for p in values.group("rest").split(b".")[1:])
    if expression == b".":
        return dot
    if dot is not None and _RELATIVE_PATH.fullmatch(expression):
        return (*dot, *(p.decode() for p in expression.split(b".")[1:]))
    return (ANY,)


def _regions(data: bytes, *, hcl: bool) -> Iterator[tuple[int, int]]:
    if hcl:
        yield 0, len(data)
        return
    for found in _JINJA.finditer(data):
        yield found.start(), found.end()
    for found in _BARE.finditer(data):
        start, end = found.span("value")
        value = data[start:end].rstrip()
        if len(value) >= 2 and value[:1] in (b"'", b'"') and value[-1:] == value[:1]:
            start, end = start + 1, start + len(value) - 1  # `when: "a.b"`: YAML's quotes, not Jinja's
        yield start, end


def _strings(data: bytes, start: int, end: int, *, hcl: bool) -> list[tuple[int, int]]:
    """The string literals of an expression region (an HCL file's less their `${...}`
    interpolations): `"www.pug.lab"` and `lookup('dig', 'x.pug.lab')` hold names, not
    expressions, while `"${var.hosts.pug.ip}"` is one."""
    if not hcl:
        return [m.span() for m in _JINJA_STRING.finditer(data, start, end)]
    out = []
    for string in _HCL_STRING.finditer(data, start, end):
        pos = string.start()
        for interpolation in _INTERPOLATION.finditer(data, string.start(), string.end()):
            out.append((pos, interpolation.start()))
            pos = interpolation.end()
        out.append((pos, string.end()))
    return out


def _chains(data: bytes, start: int, end: int, wanted: set[bytes], *, dashed: bool,
            strings: list[tuple[int, int]], dot: Dot = None,
            aliases: dict[bytes, tuple[str, ...]] | None = None) -> Iterator[KeyRef]:
    attr = _ATTR_DASHED if dashed else _ATTR
    starts = [s for s, _ in strings]
    pos = start
    while pos < end:
        root = _ROOT.search(data, pos, end)
        if root is None:
            return
        pos = root.end()
        inside = bisect.bisect_right(starts, root.start()) - 1
        if inside >= 0 and root.start() < strings[inside][1]:
            continue  # inside a string literal: a name, not an expression
        name = root.group("root").decode()
        lookup = _LOOKUP.match(data, root.start()) if not root.group("dot") else None
        variables = _LOOKUP_VARS.match(data, root.start()) if lookup is not None and not dashed else None
        if lookup is not None and variables is None:
            continue  # `lookup(` itself: its first argument is the chain, read next
        scoped = bool(root.group("dot")) and name == "Values"  # Helm's values: the file's top
        grouped = _GROUPED.search(data, max(start, root.start() - 8), root.start()) is not None
        parts: list[str] = [] if scoped else [name]
        if not dashed and not root.group("dot") and root.group("root") in _GO_FUNCTIONS \
                and data[pos:pos + 1] in (b" ", b"\t"):
            continue  # `index .Values.hosts "pug"`: a function, its argument the chain read next
        if variables is not None:  # `lookup('vars', 'net')` is the variable `net` (round 8, finding 4)
            parts, pos = [variables.group("name").decode()], variables.end()
        elif aliases and not root.group("dot") and root.group("root") in aliases:
            parts = list(aliases[root.group("root")])  # `{% set h = net.hosts %}`: `h` is `net.hosts`
        if root.group("dot") and not scoped and dot is not None:
            # `{{ .pug }}` under `with .Values.hosts`: the path is the `with`'s, then this name
            parts, scoped = [*dot, name], True
            if root.group("root") in wanted:
                yield KeyRef(root.start("root"), root.end("root"), name, tuple(parts),
                             data[root.start():root.end()].decode("utf-8", "replace"), False)
        if name in _HOST_ROOTS:
            if not root.group("dot"):
                step = attr.match(data, pos, end)
                if step is not None and step.group("attr") in wanted and not _GET.match(data, pos, end):
                    part = step.group("attr").decode()
                    yield KeyRef(step.start("attr"), step.end("attr"), part, (name, part),
                                 data[root.start():step.end()].decode("utf-8", "replace"), False, host=True)
                sub = _SUB.match(data, pos, end)
                if sub is not None and sub.group("sub") is not None and sub.group("sub") in wanted:
                    # `hostvars['pug']`: the plain rules match it; its fate is the host's (round 6)
                    part = sub.group("sub").decode()
                    yield KeyRef(sub.start("sub"), sub.end("sub"), part, (name, part),
                                 data[root.start():sub.end()].decode("utf-8", "replace"), True, host=True)
            continue  # what lies below a host is its vars
        while True:
            step = attr.match(data, pos, end)
            if step is not None and not _GET.match(data, pos, end):
                part, span, quoted = step.group("attr"), step.span("attr"), False
            elif (step := _SUB.match(data, pos, end)) is not None:
                if step.group("sub") is not None:
                    part, span, quoted = step.group("sub"), step.span("sub"), True
                else:
                    part, span, quoted = (b"[]" if step.group("index") is not None else ANY.encode(),
                                          (-1, -1), False)
            elif (step := _GET.match(data, pos, end)) is not None:
                part, span, quoted = step.group("sub"), step.span("sub"), True
            elif grouped and (close := _CLOSE.match(data, pos, end)) is not None:
                grouped, pos = False, close.end()  # `(.Values.hosts).pug`: the group, then its keys
                continue
            else:
                break
            parts.append(part.decode("utf-8", "replace"))
            if part in wanted and len(parts) >= (1 if scoped else 2):
                yield KeyRef(span[0], span[1], part.decode(), tuple(parts),
                             data[root.start():step.end()].decode("utf-8", "replace"), quoted)
            pos = step.end()
        if parts or scoped:
            head = root.start() - 1 if data[root.start() - 1:root.start()] == b"$" else root.start()
            yield from _after_chain(data, start, end, head, pos, parts, wanted, hcl=dashed)
        opened = _AFTER_LOOKUP.search(data, max(start, root.start() - 24), root.start()) if parts else None
        if opened is not None:  # `lookup(var.hosts, "pug")`: the key is the second argument
            key = _LOOKUP_KEY.match(data, pos, end)
            if key is not None and key.group("sub") in wanted:
                path = (*parts, key.group("sub").decode())
                yield KeyRef(key.start("sub"), key.end("sub"), path[-1], path,
                             data[opened.start():key.end()].decode("utf-8", "replace") + ")", True)


def _decoded(data: bytes, start: int, end: int, wanted: set[bytes], strings: list[tuple[int, int]],
             *, hcl: bool) -> Iterator[KeyRef]:
    """The keys read by a path right after an inline decode (`_DECODE_HCL`, `_DECODE_JINJA`): the
    path's root is the file it loads (`LOADED`), else `ANY`."""
    starts = [s for s, _ in strings]

    def quoted(at: int) -> bool:
        inside = bisect.bisect_right(starts, at) - 1
        return inside >= 0 and at < strings[inside][1]

    calls: list[tuple[int, int, str]] = []  # (where the call starts, where it closes, its root)
    if hcl:
        for call in _DECODE_HCL.finditer(data, start, end):
            if quoted(call.start()):
                continue
            close = _balanced(data, call.end() - 1, end, quoted)
            if close is None:
                continue
            inner = data[call.end():close].strip()
            loaded = _FILE_ARG_HCL.fullmatch(inner)
            root = LOADED.format(loaded.group("path").decode("utf-8", "replace")) if loaded else ANY
            calls.append((call.start(), close + 1, root))
    else:
        for call in _DECODE_JINJA.finditer(data, start, end):
            if quoted(call.start()):
                continue
            opened = _balanced_back(data, call.end() - 1, start, quoted)
            if opened is None:
                continue
            inner = data[opened + 1:call.start()].strip()
            loaded = _FILE_ARG_JINJA.fullmatch(inner)
            root = LOADED.format(loaded.group("path").decode("utf-8", "replace")) if loaded else ANY
            calls.append((opened, call.end(), root))
    attr = _ATTR_DASHED if hcl else _ATTR
    for first, pos, root in calls:
        parts = [root]
        while True:
            step = attr.match(data, pos, end)
            if step is not None and not _GET.match(data, pos, end):
                part, span, is_quoted = step.group("attr"), step.span("attr"), False
            elif (step := _SUB.match(data, pos, end)) is not None:
                if step.group("sub") is not None:
                    part, span, is_quoted = step.group("sub"), step.span("sub"), True
                else:
                    part, span, is_quoted = (b"[]" if step.group("index") is not None else ANY.encode(),
                                             (-1, -1), False)
            elif not hcl and (step := _GET.match(data, pos, end)) is not None:
                part, span, is_quoted = step.group("sub"), step.span("sub"), True
            else:
                break
            parts.append(part.decode("utf-8", "replace"))
            if part in wanted:
                shown = re.sub(rb"\s*\n\s*", b" ", data[first:step.end()])  # a call over lines: one
                yield KeyRef(span[0], span[1], part.decode(), tuple(parts), shown.decode("utf-8", "replace"),
                             is_quoted)
            pos = step.end()


def _balanced(data: bytes, opened: int, end: int, quoted: Callable[[int], bool]) -> int | None:
    """Where the paren opened at `opened` closes (strings skipped), or None before `end`."""
    depth = 0
    for at in range(opened, end):
        char = data[at:at + 1]
        if char in (b"(", b")") and not quoted(at):
            depth += 1 if char == b"(" else -1
            if depth == 0:
                return at
    return None


def _balanced_back(data: bytes, closed: int, start: int, quoted: Callable[[int], bool]) -> int | None:
    """Where the paren closed at `closed` opens (strings skipped), or None after `start`."""
    depth = 0
    for at in range(closed, start - 1, -1):
        char = data[at:at + 1]
        if char in (b"(", b")") and not quoted(at):
            depth += 1 if char == b")" else -1
            if depth == 0:
                return at
    return None


def inline_loads(line: str, *, hcl: bool) -> list[str]:
    """The files (as written) a line of text decodes inline (`_DECODE_HCL`, `_DECODE_JINJA`)."""
    return [m.group("path") for m in _INLINE_LOADS[0 if hcl else 1].finditer(line)]
