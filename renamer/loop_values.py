"""Loops that bind a variable to a list of words: what `$n` holds inside `for n in pug rex; do`.

A composed name inside a loop body (`ssh root@$n.ana.lan` under `for n in pug rex`, Jinja's
`{{ h }}.ana.lan` under `{% for h in ['pug','rex'] %}`, an Ansible task's `"{{ item }}.ana.lan"`
beside `loop: [pug, rex]`, Terraform's `[for n in ["pug"] : "${n}.ana.lan"]` and
`"${each.key}.ana.lan"` under `for_each = toset(["pug"])`) reads the loop's values, not a
definition elsewhere (break-it round 5, finding 7). This module is the grammar: where each loop
is, the variable it binds, the byte span it binds it in, and its values where they are written
out (`items`), or the list variable it walks (`source`: `gpu_hosts`, `var.hosts`), or why they
cannot be told (`$(cat hosts)`, `groups['gpu']`). What the values become is sweep/composed.py's.
Pure: bytes in, loops out.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace

from renamer import lazy_re

_IDENT = rb"[A-Za-z_][A-Za-z0-9_]*"
_SHELL_FOR = lazy_re.compile(rb"(?:^|(?<=[;&|({\n]))[ \t]*for[ \t]+(?P<var>" + _IDENT + rb")[ \t]+in"
                        rb"(?P<words>[ \t][^;\n]*)?"
                        rb"[ \t]*(?:;|\n)[ \t\r\n]*do(?![A-Za-z0-9_-])", re.M)
_SHELL_BLOCK = lazy_re.compile(rb"(?<![A-Za-z0-9_-])(do|done)(?![A-Za-z0-9_-])")
_JINJA_FOR = lazy_re.compile(rb"\{%-?[ \t]*for[ \t]+(?P<var>" + _IDENT + rb")[ \t]+in[ \t]+"
                        rb"(?P<expr>.*?)[ \t]*-?%\}")
_JINJA_BLOCK = lazy_re.compile(rb"\{%-?[ \t]*(for|endfor)\b")
_ANSIBLE_LOOP = lazy_re.compile(
    rb"^(?P<indent>[ \t]*)(?:-[ \t]+)?(?P<key>loop|with_items|with_list|with_flattened"
                           rb"|with_dict|with_nested|with_cartesian|with_together|with_indexed_items"
                           rb"|with_subelements|with_inventory_hostnames)[ \t]*:"
                           rb"[ \t]*(?P<value>[^\r\n]*)$", re.M)
_LOOP_VAR = lazy_re.compile(rb"(?:^|[{,])[ \t]*loop_var[ \t]*:[ \t]*['\"]?(?P<var>" + _IDENT + rb")", re.M)
_TF_FOR = lazy_re.compile(
    rb"[\[{][ \t\r\n]*for[ \t]+(?P<var>" + _IDENT + rb")(?:[ \t]*,[ \t]*(?P<var2>" + _IDENT
                     + rb"))?[ \t]+in[ \t]+(?P<expr>[^:\n]+?)[ \t]*:")
_TF_FOR_EACH = lazy_re.compile(rb"^[ \t]*for_each[ \t]*=[ \t]*(?P<expr>[^\r\n]*?)[ \t]*$", re.M)
_TOSET = lazy_re.compile(r"^to(?:set|list)\((?P<inner>.*)\)$", re.S)
# `keys(var.hosts)`, `toset(keys(var.hosts))`: a mapping's keys (break-it round 17, #9)
# (inside any of the wrappers that keep the keys: `sort(keys(...))`, `nonsensitive(keys(...))`)
_KEYS = lazy_re.compile(r"^(?:(?:to(?:set|list)|sort|nonsensitive|distinct|compact|reverse)\(\s*)*"
                   r"keys\(\s*(?P<inner>[^()]*?)\s*\)(?:\s*\))*$")
# A dynamic block binds its label (or `iterator = NAME`) as `NAME.key` and `NAME.value`.
_DYNAMIC = lazy_re.compile(rb"dynamic[ \t]+\"(?P<label>[A-Za-z_][A-Za-z0-9_-]*)\"[ \t]*\{[ \t]*\Z")
_ITERATOR = lazy_re.compile(rb"^[ \t]*iterator[ \t]*=[ \t]*(?P<name>[A-Za-z_][A-Za-z0-9_]*)[ \t]*$", re.M)
_SOURCE = lazy_re.compile(r"^(?:(?:var|local)\.)?(?P<name>[A-Za-z_][A-Za-z0-9_]*)$")
_JINJA_SOURCE = lazy_re.compile(r"^\{\{-?\s*(?P<name>[A-Za-z_][A-Za-z0-9_]*)\s*-?\}\}$")
_JINJA_EXPRESSION = lazy_re.compile(r"^\{\{-?\s*(?P<inner>[\[(].*?)\s*-?\}\}$")
_ITEM = lazy_re.compile(r"""\s*(?:"(?P<dq>[^"\\]*)"|'(?P<sq>[^'\\]*)'|(?P<bare>[A-Za-z0-9._-]+))\s*""")
_SHELL_SOURCE = lazy_re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?"
                           r"|\"?\$\{([A-Za-z_][A-Za-z0-9_]*)\[[@*]\]\}\"?")  # a bash array's every element
# `printf '%s\n' pug rex | while read -r h; do`: a here-list, one word a line, read into `h`.
_WHILE_READ = lazy_re.compile(rb"(?:^|(?<=[;&|({\n]))[ \t]*printf[ \t]+(?P<q>['\"])%s\\n(?P=q)"
                         rb"(?P<words>(?:[ \t]+[^|;&\n]+?)?)[ \t]*\|[ \t]*while[ \t]+read(?:[ \t]+-r)?[ \t]+"
                         rb"(?P<var>" + _IDENT + rb")[ \t]*"
                         rb"(?:;|\n)[ \t\r\n]*do(?![A-Za-z0-9_-])", re.M)
# The inventory's hosts: `groups['web']`, `groups.web`, `ansible_play_hosts`: any host, a renamed one too.
# Bare in a template's `{% for h in groups["web"] %}` (break-it round 9, finding 8), braced in a
# play's `loop:`.
# Break-it round 16 (#10): the inventory_hostnames lookup (`query('inventory_hostnames', 'web')`,
# `lookup(..., wantlist=True)`, `q(...)`) walks them too, and a filter keeping a subset of them
# (`difference([...])`, `reject(...)`, `select(...)`, `intersect(...)`) still holds renamed ones.
_SUBSET = r"(?:list|sort|unique|reverse|shuffle|(?:difference|reject|select|intersect|sort|unique)\([^()]*\))"
_INVENTORY = lazy_re.compile(
    r"^(?:\{\{-?\s*)?(?:groups(?:\[\s*['\"][^'\"]+['\"]\s*\]|\.[A-Za-z_][A-Za-z0-9_]*)"
                        r"|ansible_play_hosts(?:_all)?|play_hosts"
                        r"|(?:query|q|lookup)\(\s*['\"]inventory_hostnames['\"][^()]*\))"
                        r"\s*(?:\|\s*" + _SUBSET + r"\s*)*(?:-?\}\})?$")
_SPLIT = lazy_re.compile(
    r"""^(['"])(?P<body>[A-Za-z0-9._, -]*)\1\.split\(\s*(?:(['"])(?P<sep>[^'"]+)\3)?\s*\)$""")
_MAPPING = lazy_re.compile(r"\s*\{(?P<body>[^{}]*)\}\s*")
_PAIR = lazy_re.compile(r"\s*(?P<key>[A-Za-z_][A-Za-z0-9_]*)\s*:\s*"
                   r"(?:\"(?P<dq>[^\"\\]*)\"|'(?P<sq>[^'\\]*)'|(?P<bare>[A-Za-z0-9._-]+))\s*")
_UNQUOTED_WORD = lazy_re.compile(r"[A-Za-z0-9._-]+")


@dataclass(frozen=True)
class Loop:
    """A loop binding `variable` (`n`, `item`, `each.key`) inside [start, end): its header's line
    and text, and its values (`items`) or the list variable it walks (`source`), else `why` not."""

    variable: str
    start: int
    end: int
    line: int
    header: str
    items: tuple[str, ...] | None = None
    source: str | None = None
    why: str | None = None
    split: bool = False  # a shell's `for n in $HOSTS`: the source's value split into words
    words: tuple[int, int] = (0, 0)  # where the loop's own words are written
    hosts: bool = False  # it walks the inventory's hosts (`groups['web']`): any host, renamed ones too
    # A function's parameter (function_params.py): its values are its calls' arguments, written at
    # `arguments`; callers elsewhere may pass others, so its domain never follows.
    function: bool = False
    arguments: tuple[tuple[int, int], ...] = ()
    keys: bool = False  # it walks the keys of the mapping `source` (`for k, v in var.hosts`, `each.key`)


def list_items(raw: str) -> tuple[str, ...] | None:
    """The words of a list literal (`[pug, rex]`, `["pug", "rex"]`, `('pug','rex')`, `toset([...])`),
    or None where it is anything else (a variable, a call, an item that computes itself)."""
    text = raw.strip()
    inner = _TOSET.match(text)
    if inner is not None:
        text = inner.group("inner").strip()
    if len(text) < 2 or (text[0], text[-1]) not in (("[", "]"), ("(", ")")):
        return None
    body = text[1:-1].strip().rstrip(",")
    if not body:
        return ()
    items = []
    for part in body.split(","):
        found = _ITEM.fullmatch(part)
        if found is None:
            return None
        items.append(found.group("dq") if found.group("dq") is not None
                     else found.group("sq") if found.group("sq") is not None else found.group("bare"))
    return tuple(items)


def shell_words(raw: str) -> tuple[str, ...] | None:
    """The words a shell splits a variable's value into, where each is a plain word (a bash
    array's `(pug rex)` too; Make's `HOSTS := pug rex`, read as `HOSTS` set to `= pug rex`)."""
    text = re.sub(r"^(?:::?|[?+!])?=[ \t]*", "", raw.strip())
    if len(text) >= 2 and text[0] == "(" and text[-1] == ")":
        text = text[1:-1]
    words = [w[1:-1] if len(w) >= 2 and w[0] == w[-1] and w[0] in "'\"" else w for w in text.split()]
    return tuple(words) if words and all(_UNQUOTED_WORD.fullmatch(w) for w in words) else None


def loops(data: bytes) -> list[Loop]:
    """Every loop of the grammars in `data` (shell, while-read, Jinja, Ansible, Terraform, GNU
    parallel, Make's foreach, Go templates' range, Make's list functions, formatlist and printf,
    Python's), in order of their headers."""
    found = [*_shell(data), *_while_read(data), *_jinja(data), *_ansible(data), *_terraform(data),
             *_parallel(data), *_make(data), *_helm(data),
             *_make_lists(data), *_formats(data), *_python(data), *_read_loops(data),
             *_jinja_maps(data)]
    named: dict[str, list[Loop]] = {}
    for loop in found:
        if loop.variable != "%":
            named.setdefault(loop.variable, []).append(loop)
    found = [_through(loop, named) for loop in found]
    return sorted(found, key=lambda loop: (loop.start, -loop.end))


def _through(loop: Loop, named: dict[str, list[Loop]]) -> Loop:
    """A list function or printf over one variable another loop binds where it stands (`printf
    '%s.ana.lan\\n' "$h"` inside `for h in pug rex`, `$(addsuffix .ana.lan,$(h))` inside a
    foreach): that loop's values, in this one's span."""
    if loop.variable != "%" or loop.source is None:
        return loop
    outer = binding(named.get(loop.source, []), loop.source, loop.start)
    if outer is None:
        return loop
    return replace(outer, variable="%", start=loop.start, end=loop.end)


def binding(found: list[Loop], variable: str, pos: int) -> Loop | None:
    """The innermost loop binding `variable` at `pos`; for `item.key` or `item.0`, a loop binding
    `item` to values that cannot be told (`loop: "{{ nodes | dict2items }}"`) when none binds it."""
    inside = [loop for loop in found if loop.variable == variable and loop.start <= pos < loop.end]
    if not inside and "." in variable:
        head = variable.split(".", 1)[0]
        inside = [loop for loop in found if loop.variable == head and loop.start <= pos < loop.end
                  and loop.items is None]
    if not inside:
        return None
    loop = min(inside, key=lambda loop: loop.end - loop.start)
    if loop.variable != variable:  # a part of each value: what the values are matters no more
        loop = replace(loop, source=None, split=False,
                       why=f"`{variable}` is a part of each value `{loop.variable}` walks, "
                           "which cannot be told here")
    return loop


_READ = lazy_re.compile(rb"\{[0-9]*\}|[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*")


def read_by(data: bytes, start: int, end: int) -> str:
    """The variable a template at [start, end) reads, as a loop names it (`n`, `item`, `each.key`,
    `item.0`, parallel's `{}`)."""
    found = _READ.search(data, start, end)
    return found.group().decode() if found is not None else ""


def _line(data: bytes, pos: int) -> int:
    return data.count(b"\n", 0, pos) + 1


def _header(data: bytes, start: int, end: int) -> str:
    return data[start:end].decode("utf-8", "replace").strip()


def _closing(data: bytes, pattern: re.Pattern[bytes], opener: bytes, pos: int) -> int:
    """Where the block opened before `pos` closes (nested blocks counted), else the end of data."""
    depth = 1
    for token in pattern.finditer(data, pos):
        depth += 1 if token.group(1) == opener else -1
        if depth == 0:
            return token.start()
    return len(data)


def _shell(data: bytes) -> Iterator[Loop]:
    if b"for" not in data or b"do" not in data:
        return
    for found in _SHELL_FOR.finditer(data):
        words = (found.group("words") or b"").decode("utf-8", "replace").split()
        end = _closing(data, _SHELL_BLOCK, b"do", found.end())
        header_end = data.find(b"\n", found.start("var")) if b"\n" in data[found.start("var"):found.end()] \
            else found.end()
        header = _header(data, found.start(), header_end)
        line = _line(data, found.start("var"))
        var = found.group("var").decode()
        plain = [w.strip("'\"") if w[:1] in "'\"" and w[-1:] == w[:1] else w for w in words]
        plain = [part for w in plain for part in _braced(w)]  # bash's `{pug,rex}`, `node{1,2}`
        source = _SHELL_SOURCE.fullmatch(words[0]) if len(words) == 1 else None
        if words and all(_UNQUOTED_WORD.fullmatch(w) for w in plain):
            yield Loop(var, found.end(), end, line, header, items=tuple(plain), words=found.span("words"))
        elif source is not None:  # unquoted, or an array's every element: one value a word
            yield Loop(var, found.end(), end, line, header, source=source.group(1) or source.group(2),
                       split=True)
        else:
            yield Loop(var, found.end(), end, line, header,
                       why=f"`{var}` walks {' '.join(words) or 'the arguments'}, "
                           "which cannot be told before it runs")


_BRACE = lazy_re.compile(r"^(?P<pre>[A-Za-z0-9._-]*)\{(?P<alts>[A-Za-z0-9._-]*(?:,[A-Za-z0-9._-]*)+)\}"
                    r"(?P<post>[A-Za-z0-9._-]*)$")


def _braced(word: str) -> list[str]:
    """The words bash's brace expansion makes of `word` (`{pug,rex}`, `web{1,2}.x`), else the word."""
    found = _BRACE.match(word)
    if found is None:
        return [word]
    return [f"{found.group('pre')}{alt}{found.group('post')}" for alt in found.group("alts").split(",")]


_PARALLEL = lazy_re.compile(rb"(?:^|(?<=[;&|({\n]))[ \t]*(?:[\w./-]*/)?parallel[ \t][^\n]*?"
                       rb"(?P<groups>(?:[ \t]:::[ \t]+[^\n;&|]*?)+)[ \t]*(?=$|[;&|\n])", re.M)
_PARALLEL_GROUP = lazy_re.compile(rb":::(?P<words>(?:[ \t]+(?!:::)[^ \t\n;&|]+)*)")


def _parallel(data: bytes) -> Iterator[Loop]:
    """GNU parallel's `parallel CMD {}.ana.lan ::: pug rex`: `{}` (and `{1}`, `{2}` for each
    `:::` group) is each word in turn, inside the command's own line."""
    if b":::" not in data:
        return
    for found in _PARALLEL.finditer(data):
        line = _line(data, found.start())
        header = _header(data, found.start(), found.end())
        groups = list(_PARALLEL_GROUP.finditer(data, found.start("groups"), found.end("groups")))
        for index, group in enumerate(groups, start=1):
            words = group.group("words").decode("utf-8", "replace").split()
            plain = [w[1:-1] if len(w) >= 2 and w[0] == w[-1] and w[0] in "'\"" else w for w in words]
            names = [f"{{{index}}}"] + (["{}"] if len(groups) == 1 else [])
            for name in names:
                if plain and all(_UNQUOTED_WORD.fullmatch(w) for w in plain):
                    yield Loop(name, found.start(), found.end(), line, header, items=tuple(plain),
                               words=group.span("words"))
                else:
                    yield Loop(name, found.start(), found.end(), line, header,
                               why=f"`{name}` walks {' '.join(words) or 'nothing'}, "
                                   "which cannot be told here")


_MAKE_FOREACH = lazy_re.compile(rb"\$[({]foreach[ \t]+(?P<var>" + _IDENT + rb")[ \t]*,(?P<list>[^,\n]*),")
_MAKE_SOURCE = lazy_re.compile(rb"^[ \t]*\$[({](?P<name>" + _IDENT + rb")[)}][ \t]*$")


def _make(data: bytes) -> Iterator[Loop]:
    """Make's `$(foreach h,pug rex,ssh $(h).ana.lan;)`, its list written out or a variable the
    Makefile sets (`HOSTS := pug rex`: its words are where that line spells them)."""
    if b"foreach" not in data:
        return
    settings = _make_settings(data)
    for found in _MAKE_FOREACH.finditer(data):
        opener = data[found.start() + 1:found.start() + 2]
        end = bracket_end(data, found.start() + 1, opener)
        var = found.group("var").decode()
        yield _make_loop(data, settings, var, found.end(), end, _line(data, found.start()),
                         _header(data, found.start(), found.end()), found.group("list"), found.span("list"))


_MAKE_SETTING = lazy_re.compile(rb"^(?:override[ \t]+|export[ \t]+)?(?P<name>" + _IDENT
                           + rb")[ \t]*(?:::?=|[:+?!]?=)[ \t]*(?P<value>[^\n#]*?)[ \t]*$", re.M)


def _make_settings(data: bytes) -> dict[bytes, list[re.Match[bytes]]]:
    """Each variable the Makefile sets, with the lines setting it."""
    settings: dict[bytes, list[re.Match[bytes]]] = {}
    for found in _MAKE_SETTING.finditer(data):
        settings.setdefault(found.group("name"), []).append(found)
    return settings


def _make_loop(data: bytes, settings: dict[bytes, list[re.Match[bytes]]], var: str, start: int, end: int,
               line: int, header: str, listed: bytes, span: tuple[int, int],
               pattern: tuple[str, str] = ("", "")) -> Loop:
    """A Make loop binding `var` in [start, end) over `listed` (at `span`): its words written out, a
    variable the Makefile sets once (its words where that line spells them), else the variable as a
    source; `$(addprefix P,...)` prefixes each word; `pattern` (patsubst's `P%S`): each word's stem."""
    prefix = b""
    nested = _MAKE_ADDPREFIX.match(listed)
    if nested is not None:
        prefix, listed = nested.group("prefix"), nested.group("list")
        span = (span[0] + nested.start("list"), span[0] + nested.end("list"))
    source = _MAKE_SOURCE.match(listed)
    if source is not None:
        setting = settings.get(source.group("name"), [])
        if len(setting) != 1:
            if prefix or pattern != ("", ""):
                return Loop(var, start, end, line, header,
                            why=f"`{var}` walks {listed.decode('utf-8', 'replace').strip()} through a "
                                "pattern or prefix, defined elsewhere: which words it holds cannot be told "
                                "here")
            return Loop(var, start, end, line, header, source=source.group("name").decode(), split=True)
        listed, span = setting[0].group("value"), setting[0].span("value")
    words = listed.decode("utf-8", "replace").split()
    if words and all(_UNQUOTED_WORD.fullmatch(w) for w in words):
        head, tail = pattern
        words = [prefix.decode() + w for w in words]
        stems = [w[len(head):len(w) - len(tail)] for w in words
                 if w.startswith(head) and w.endswith(tail) and len(w) >= len(head) + len(tail)]
        return Loop(var, start, end, line, header, items=tuple(stems), words=span)
    return Loop(var, start, end, line, header,
                why=f"`{var}` walks {listed.decode('utf-8', 'replace').strip()}, which cannot be told here")


_MAKE_ADDPREFIX = lazy_re.compile(rb"^[ \t]*\$[({]addprefix[ \t]+(?P<prefix>[A-Za-z0-9@._-]*),"
                             rb"(?P<list>[^,()\n]*(?:\$\(" + _IDENT + rb"\)[^,()\n]*)?)[)}][ \t]*$")
# `$(addsuffix .ana.lan,LIST)`, `$(patsubst %,%.ana.lan,LIST)`: each word of LIST made into a name.
_MAKE_LIST_CALL = lazy_re.compile(rb"\$(?P<open>[({])(?:addsuffix[ \t]+(?P<suffix>[^,()\n]*)"
                             rb"|patsubst[ \t]+(?P<pattern>[^,()%\n]*%[^,()%\n]*),(?P<replace>[^,()\n]*)),")
# `$(HOSTS:%=%.ana.lan)`, `$(HOSTS:=.ana.lan)`: a substitution reference, each word of HOSTS.
_MAKE_SUBST = lazy_re.compile(rb"\$(?P<open>\()(?P<name>" + _IDENT + rb"):(?P<pattern>[^=()\n]*)="
                         rb"(?P<replace>[^()\n]*?)[)}]")


def _make_lists(data: bytes) -> Iterator[Loop]:
    """Make's list-to-name functions as loops binding `%` (each word, or its stem) inside the text
    that makes each name: addsuffix's suffix, patsubst's replacement, a substitution reference's
    (break-it round 9, finding 8)."""
    if b"$" not in data:
        return
    calls = [*_MAKE_LIST_CALL.finditer(data)]
    substitutions = [*_MAKE_SUBST.finditer(data)]
    settings = _make_settings(data) if calls or substitutions else {}
    for found in calls:
        opener = found.group("open")
        end = bracket_end(data, found.start() + 1, opener)
        if end == len(data) and data[end - 1:end] != {b"(": b")", b"{": b"}"}[opener]:
            continue
        listed, span = data[found.end():end - 1], (found.end(), end - 1)
        line, header = _line(data, found.start()), _header(data, found.start(), found.end())
        if found.group("suffix") is not None:
            yield _make_loop(data, settings, "%", *found.span("suffix"), line, header, listed, span)
            continue
        head, _, tail = found.group("pattern").decode("utf-8", "replace").strip().partition("%")
        yield _make_loop(data, settings, "%", *found.span("replace"), line, header, listed, span,
                         (head, tail))
    for found in substitutions:
        pattern = found.group("pattern").decode("utf-8", "replace")
        head, _, tail = pattern.partition("%") if "%" in pattern else ("", "", pattern)
        listed = b"$(" + found.group("name") + b")"
        line, header = _line(data, found.start()), _header(data, found.start(), found.end())
        yield _make_loop(data, settings, "%", *found.span("replace"), line, header, listed,
                         found.span("name"),
                         (head, tail))


_HELM_RANGE = lazy_re.compile(rb"\{\{-?[ \t]*range[ \t]+(?:(?:\$(?P<index>" + _IDENT + rb")[ \t]*,[ \t]*)?"
                         rb"\$(?P<var>"
                         + _IDENT + rb")[ \t]*:?=[ \t]*)?(?P<expr>(?:.{0,1000}?\S)?)[ \t]*-?\}\}")
_HELM_BLOCK = lazy_re.compile(rb"\{\{-?[ \t]*(range|if|with|define|block|end)\b")
_HELM_LIST = lazy_re.compile(r"^(?:list|tuple)((?:\s+\"[^\"\\]*\")*)\s*$")
_HELM_SPLIT = lazy_re.compile(r'^splitList\s+"(?P<sep>[^"\\]+)"\s+"(?P<body>[^"\\]*)"\s*$')
_HELM_VALUES = lazy_re.compile(
    r"^\$?\.Values(?:\.[A-Za-z_][A-Za-z0-9_]*)*\.(?P<name>[A-Za-z_][A-Za-z0-9_]*)$")


def _helm(data: bytes) -> Iterator[Loop]:
    """Go templates' `{{ range $h := list "pug" "rex" }}` (Helm): `$h` is each word up to its `{{ end }}`;
    without a variable (`range tuple "pug" "rex"`), the dot `{{ . }}` is (break-it round 9, finding 8);
    `splitList " " "pug rex"` gives the words of its string, `$i, $h :=` over a list binds `$h` to them."""
    if b"range" not in data:
        return
    for found in _HELM_RANGE.finditer(data):
        end = _helm_end(data, found.end())
        var = found.group("var").decode() if found.group("var") is not None else "."
        expr = found.group("expr").decode("utf-8", "replace").strip()
        if expr.startswith("(") and expr.endswith(")"):
            expr = expr[1:-1].strip()
        line = _line(data, found.start())
        header = _header(data, found.start(), found.end())
        listed = _HELM_LIST.match(expr)
        split = _HELM_SPLIT.match(expr)
        values = _HELM_VALUES.match(expr)
        items: tuple[str, ...] | None = None
        if listed is not None:
            items = tuple(re.findall(r'"([^"\\]*)"', listed.group(1)))
        elif split is not None:
            parts = [p.strip() for p in split.group("body").split(split.group("sep"))]
            words = [p for p in parts if p]
            items = tuple(words) if all(_UNQUOTED_WORD.fullmatch(p) for p in words) else None
        if items is not None:
            yield Loop(var, found.end(), end, line, header, items=items, words=found.span("expr"))
        elif values is not None and found.group("index") is None:
            yield Loop(var, found.end(), end, line, header, source=values.group("name"))
        else:
            shown = "." if var == "." else f"${var}"
            yield Loop(var, found.end(), end, line, header, why=f"`{shown}` walks {expr}, "
                                                                "which cannot be told here")


_FORMATLIST = lazy_re.compile(rb"formatlist[ \t]*\([ \t\r\n]*\"(?P<format>[^\"\\\n]*)\"[ \t\r\n]*,")
_PRINTF = re.compile(rb"(?:^|(?<=[;&|({\n])|(?<=\bdo)|(?<=\bthen)|(?<=\belse))[ \t]*printf[ \t]+"
                     rb"(?P<q>['\"])(?P<format>[^'\"\n]*)(?P=q)"
                     rb"(?P<words>(?:[ \t]+[^|;&<>\n]+?)?)[ \t]*(?=$|[;&|<>\n])", re.M)
_VERB = lazy_re.compile(r"%[-+ #0-9.]*[a-zA-Z%]")


def _formats(data: bytes) -> Iterator[Loop]:
    """A format applied to each word of a list, read as a loop binding `%` inside the format
    (break-it round 9, finding 8): Terraform's `formatlist("%s.ana.lan", ["pug", "rex"])` (or a list
    variable), a shell's `printf '%s.ana.lan\\n' pug rex` (the format repeats for each argument)."""
    if b"formatlist" in data:
        for found in _FORMATLIST.finditer(data):
            end = bracket_end(data, data.index(b"(", found.start()), b"(")
            expr = data[found.end():end - 1].decode("utf-8", "replace")
            line, header = _line(data, found.start()), _header(data, found.start(), found.end())
            loop = _from_expression("%", expr.strip(), *found.span("format"), line, header)
            verbs = [v for v in _VERB.findall(found.group("format").decode("utf-8", "replace")) if v != "%%"]
            if len(verbs) != 1:
                loop = Loop("%", *found.span("format"), line, header,
                            why=f"formatlist's {len(verbs)} verbs read {expr.strip()}, "
                                "which cannot be told here")
            yield replace(loop, words=(found.end(), end - 1))
    if b"printf" not in data:
        return
    for found in _PRINTF.finditer(data):
        verbs = [v for v in _VERB.findall(found.group("format").decode("utf-8", "replace")) if v != "%%"]
        if verbs != ["%s"]:
            continue
        words = (found.group("words") or b"").decode("utf-8", "replace").split()
        plain = [w[1:-1] if len(w) >= 2 and w[0] == w[-1] and w[0] in "'\"" else w for w in words]
        line, header = _line(data, found.start()), _header(data, found.start(), found.end())
        one = words[0][1:-1] if len(words) == 1 and len(words[0]) > 2 and words[0][0] == words[0][-1] == '"' \
            else words[0] if len(words) == 1 else ""
        source = _SHELL_SOURCE.fullmatch(one) if one else None  # `$HOSTS`, or `"$h"` a loop binds
        if plain and all(_UNQUOTED_WORD.fullmatch(w) for w in plain):
            yield Loop("%", *found.span("format"), line, header, items=tuple(plain),
                       words=found.span("words"))
        elif source is not None:
            yield Loop("%", *found.span("format"), line, header, source=source.group(1) or source.group(2),
                       split=True)
        else:
            yield Loop("%", *found.span("format"), line, header,
                       why=f"printf's format walks {' '.join(words) or 'nothing'}, which cannot be told here")


# Jinja's filters making a name of each item: `nodes | map('regex_replace', '$', '.ana.lan')`,
# `map('regex_replace', '^(.*)$', '\\1.ana.lan')`, `nodes | product(['.ana.lan']) | map('join')`.
JINJA_MAP = lazy_re.compile(
    rb"\{\{-?[ \t]*(?P<list>[^{}|]+?(?:\|[ \t]*(?:list|sort|unique)[ \t]*)*)\|[ \t]*(?:"
                       rb"map\([ \t]*(?P<q>['\"])regex_replace(?P=q)[ \t]*,[ \t]*(?P<q1>['\"])"
                       rb"(?P<pattern>\$|\^?\(\.[*+]\)\$?)(?P=q1)[ \t]*,[ \t]*"
                       rb"(?P<q2>['\"])(?P<replace>[^'\"\n]*)(?P=q2)[ \t]*\)"
                       rb"|product\([ \t]*\[[ \t]*(?P<q3>['\"])(?P<suffix>[^'\"\n]*)(?P=q3)[ \t]*\][ \t]*\)"
                       rb"[ \t]*\|[ \t]*map\([ \t]*(?P<q4>['\"])join(?P=q4)[ \t]*\))")


def _jinja_maps(data: bytes) -> Iterator[Loop]:
    """Jinja's filters that make a name of each item of a list, as loops binding `%` inside the
    text making the name (break-it round 9, finding 8): the list written out, a list variable, or
    the inventory's hosts."""
    if b"{{" not in data or (b"regex_replace" not in data and b"product" not in data):
        return
    for found in JINJA_MAP.finditer(data):
        listed = found.group("list").decode("utf-8", "replace").strip()
        span = found.span("replace") if found.group("replace") is not None else found.span("suffix")
        line, header = _line(data, found.start()), _header(data, found.start(), found.end())
        loop = _from_expression("%", "{{ " + listed + " }}", span[0], span[1], line, header)
        if loop.source is None and loop.items is None and not loop.hosts:
            bare = re.sub(r"(?:\s*\|\s*(?:list|sort|unique))+$", "", listed)
            loop = _from_expression("%", bare, span[0], span[1], line, header)
        yield replace(loop, words=found.span("list") if loop.items is not None else (0, 0))


_PY_FOR = lazy_re.compile(
    rb"^(?P<indent>[ \t]*)(?:async[ \t]+)?for[ \t]+(?P<var>" + _IDENT + rb")[ \t]+in[ \t]+"
                     rb"(?P<expr>[^\n#]*?)[ \t]*:[ \t]*(?P<inline>[^\r\n]*?)\r?$", re.M)
_PY_COMPREHENSION = lazy_re.compile(rb"(?<=[ \t\r\n)\]}'\"])for[ \t]+(?P<var>" + _IDENT + rb")[ \t]+in[ \t]+")
_SHELL_DO = lazy_re.compile(rb"[^\n]*;[ \t]*do(?![A-Za-z0-9_-])")
_PY_CONDITION = lazy_re.compile(r"^(?P<expr>.*?)(?:\s+if\s.*)?$", re.S)


def _python(data: bytes) -> Iterator[Loop]:
    """Python's `for h in ["pug", "rex"]:` (its body the deeper lines below, or the rest of its
    line) and a comprehension's `[f"{h}.ana.lan" for h in ("pug", "rex")]` (its brackets) (break-it
    round 9, finding 8)."""
    if b"for" not in data or b"in" not in data:
        return
    for found in _PY_FOR.finditer(data):
        expr = found.group("expr").decode("utf-8", "replace").strip()
        if not expr or ";" in expr or expr.endswith("do"):
            continue  # a shell's `for h in pug rex; do ssh $h:22`
        inline = found.group("inline").strip()
        if inline and not inline.startswith(b"#"):
            end = found.end()
        else:
            end = indented_block_end(data, found.end(), len(found.group("indent").expandtabs()))
        body = found.start("inline") if inline else found.end()
        loop = _from_expression(found.group("var").decode(), expr, body, end, _line(data, found.start("var")),
                                _header(data, found.start(), found.end("expr") + 1))
        yield replace(loop, words=found.span("expr"))
    for found in _PY_COMPREHENSION.finditer(data):
        if _SHELL_DO.match(data, found.end()):
            continue  # a shell's `for h in pug rex; do`
        opener = _enclosing(data, found.start())
        if opener is None or not data[opener + 1:found.start()].strip():
            continue  # `[for h in ...` is Terraform's; a bare `for` is no comprehension
        if data[opener + 1:opener + 2] in (b"%", b"{") or data[opener - 1:opener] == b"{":
            continue  # Jinja's `{% for` or `{{ ... }}`
        end = bracket_end(data, opener, data[opener:opener + 1])
        rest = data[found.end():end - 1].decode("utf-8", "replace")
        condition = _PY_CONDITION.match(rest)
        expr = (condition.group("expr") if condition is not None else rest).strip()
        loop = _from_expression(found.group("var").decode(), expr, opener, end, _line(data, found.start()),
                                _header(data, found.start(), found.end() + len(expr)))
        yield replace(loop, words=(found.end(), found.end() + len(rest)))


_BRACKET = lazy_re.compile(rb"[\[\](){}]")


def _enclosing(data: bytes, pos: int, reach: int = 1000) -> int | None:
    """The bracket opened before `pos` and not closed by it, within `reach` bytes."""
    depth = 0
    for found in reversed(list(_BRACKET.finditer(data, max(0, pos - reach), pos))):
        if found.group() in (b"]", b")", b"}"):
            depth += 1
        elif depth == 0:
            return found.start()
        else:
            depth -= 1
    return None


def _helm_end(data: bytes, pos: int) -> int:
    depth = 1
    for token in _HELM_BLOCK.finditer(data, pos):
        depth += -1 if token.group(1) == b"end" else 1
        if depth == 0:
            return token.start()
    return len(data)


# `while read -r h; do ...; done <<< "pug rex"`, `done <<EOF`, `done < hosts`: what the loop reads
# follows its `done`.
_READ_LOOP = lazy_re.compile(rb"(?:^|(?<=[;&({\n]))[ \t]*while[ \t]+(?:IFS=[^ \t\n]*[ \t]+)?read"
                        rb"(?:[ \t]+-r)?[ \t]+"
                        rb"(?P<var>" + _IDENT + rb")[ \t]*(?:;|\n)[ \t\r\n]*do(?![A-Za-z0-9_-])", re.M)
_HERE_STRING = lazy_re.compile(rb"done[ \t]*<<<[ \t]*(?:\$?(?P<q>['\"])(?P<body>[^'\"]*)(?P=q)"
                          rb"|(?P<other>[^\n;&|]*))")
_HERE_DOC = lazy_re.compile(rb"done[ \t]*<<-?[ \t]*(?P<q>['\"]?)(?P<tag>" + _IDENT + rb")(?P=q)[^\n]*\n"
                       rb"(?P<body>(?:.*\n)*?)[ \t]*(?P=tag)[ \t]*$", re.M)
_FROM_FILE = lazy_re.compile(rb"done[ \t]*<[ \t]*(?P<file>[^\s;&|<]+)")


def _read_loops(data: bytes) -> Iterator[Loop]:
    """`while read -r h; do ...; done <<< "pug
rex"` (or `$'pug\\nrex'`, a here-document): `h` is each line in turn;
    `done < hosts` reads a file, which cannot be told here (break-it round 9, finding 8)."""
    if b"read" not in data or b"done" not in data:
        return
    for found in _READ_LOOP.finditer(data):
        if re.search(rb"\|[ \t]*$", data[data.rfind(b"\n", 0, found.start()) + 1:found.start()]):
            continue  # piped: `printf ... | while read` is _while_read's
        end = _closing(data, _SHELL_BLOCK, b"do", found.end())
        var = found.group("var").decode()
        line, header = _line(data, found.start("var")), _header(data, found.start(), found.end())
        string, document, file = (p.match(data, end) for p in (_HERE_STRING, _HERE_DOC, _FROM_FILE))
        if string is not None and string.group("body") is not None:
            body, span = string.group("body"), string.span("body")
            if data[string.start("q") - 1:string.start("q")] == b"$":
                body = body.replace(b"\\n", b"\n")
        elif document is not None:
            body, span = document.group("body"), document.span("body")
        else:
            told = string.group("other") if string is not None else (
                file.group("file") if file is not None else None)
            if told is not None:
                yield Loop(var, found.end(), end, line, header,
                           why=f"`{var}` reads {told.decode('utf-8', 'replace').strip()}, "
                               "which cannot be told before it runs")
            continue
        lines = [text.strip() for text in body.decode("utf-8", "replace").splitlines() if text.strip()]
        if lines and all(_UNQUOTED_WORD.fullmatch(text) for text in lines):
            yield Loop(var, found.end(), end, line, header, items=tuple(lines), words=span)
        else:
            yield Loop(var, found.end(), end, line, header,
                       why=f"`{var}` reads the lines {' / '.join(lines) or 'of nothing'}, "
                           "which are no plain words")


def _while_read(data: bytes) -> Iterator[Loop]:
    if b"while" not in data:
        return
    for found in _WHILE_READ.finditer(data):
        words = (found.group("words") or b"").decode("utf-8", "replace").split()
        plain = [w[1:-1] if len(w) >= 2 and w[0] == w[-1] and w[0] in "'\"" else w for w in words]
        end = _closing(data, _SHELL_BLOCK, b"do", found.end())
        header = _header(data, found.start(), found.end())
        line = _line(data, found.start("var"))
        var = found.group("var").decode()
        source = _SHELL_SOURCE.fullmatch(words[0]) if len(words) == 1 else None
        if plain and all(_UNQUOTED_WORD.fullmatch(w) for w in plain):
            yield Loop(var, found.end(), end, line, header, items=tuple(plain), words=found.span("words"))
        elif source is not None:
            yield Loop(var, found.end(), end, line, header, source=source.group(1) or source.group(2),
                       split=True)
        else:
            yield Loop(var, found.end(), end, line, header,
                       why=f"`{var}` reads {' '.join(words) or 'nothing'}, "
                           "which cannot be told before it runs")


def _jinja(data: bytes) -> Iterator[Loop]:
    if b"{%" not in data:
        return
    for found in _JINJA_FOR.finditer(data):
        expr = found.group("expr").decode("utf-8", "replace").strip()
        end = _closing(data, _JINJA_BLOCK, b"for", found.end())
        header = _header(data, found.start(), found.end())
        line = _line(data, found.start())
        yield replace(_from_expression(found.group("var").decode(), expr, found.end(), end, line, header),
                      words=found.span("expr"))


def _ansible(data: bytes) -> Iterator[Loop]:
    if b"loop" not in data and b"with_" not in data:
        return
    lines = data.split(b"\n")
    offsets = [0]
    for text in lines:
        offsets.append(offsets[-1] + len(text) + 1)
    for found in _ANSIBLE_LOOP.finditer(data):
        number = _line(data, found.start())
        indent = found.start("key") - found.start()
        first, last = _task(lines, number - 1, indent)
        start, end = offsets[first], min(offsets[last + 1], len(data))
        task = data[start:end]
        var = _LOOP_VAR.search(task)
        variable = var.group("var").decode() if var else "item"
        value = found.group("value").decode("utf-8", "replace").strip()
        header = _header(data, found.start(), found.end())
        words = found.span("value")
        if not value or value.startswith("#"):  # a block list: `- pug` lines below, deeper
            items = []
            for offset, text in enumerate(lines[number:], start=number):
                item = re.match(rb"^[ \t]*-[ \t]+(.*?)[ \t]*(?:[ \t]#.*)?\r?$", text)
                if item is None or len(text) - len(text.lstrip()) < indent:
                    break
                items.append(item.group(1).decode("utf-8", "replace"))
                words = (words[0], offsets[offset] + len(text))
            value = "[" + ", ".join(items) + "]"
        kind = found.group("key").decode()
        if kind == "with_inventory_hostnames":  # a host pattern's hosts (break-it round 16, #10)
            yield Loop(variable, start, end, number, header, hosts=True, words=words,
                       why=f"`{variable}` walks with_inventory_hostnames: {value}, the inventory's hosts, "
                           "any of which may be renamed")
        elif kind in ("loop", "with_items", "with_list", "with_flattened"):
            yield replace(_from_expression(variable, value, start, end, number, header), words=words)
            for key, values in _attributes(value).items():  # `loop: [{name: pug}]` read as `item.name`
                yield Loop(f"{variable}.{key}", start, end, number, header, items=values, words=words)
        else:
            yield from _ansible_shaped(kind, variable, value, start, end, number, header, words)


def _ansible_shaped(kind: str, variable: str, value: str, start: int, end: int, number: int, header: str,
                    words: tuple[int, int]) -> Iterator[Loop]:
    """The lookups whose item is no plain word: `with_dict: {pug: 1}` (`item.key`, `item.value`),
    `with_nested: [[pug, rex], [a]]` (`item.0`, `item.1`); anything else cannot be told."""
    text = value.strip()
    mapping = _MAPPING.fullmatch(text) if kind == "with_dict" else None
    pairs = [_PAIR.fullmatch(p) for p in mapping.group("body").split(",")] if mapping is not None else []
    if mapping is not None and pairs and all(pairs):
        keys = tuple(p.group("key") for p in pairs if p is not None)
        values = tuple(next(v for v in p.group("dq", "sq", "bare") if v is not None)
                       for p in pairs if p is not None)
        yield Loop(f"{variable}.key", start, end, number, header, items=keys, words=words)
        yield Loop(f"{variable}.value", start, end, number, header, items=values, words=words)
        return
    inner = re.fullmatch(r"\[\s*(\[.*\])\s*\]", text, re.S) if kind in ("with_nested", "with_cartesian",
                                                                        "with_together") else None
    parts = [part.strip() for part in re.split(r"\]\s*,", inner.group(1))] if inner else []
    lists = [list_items(part if part.endswith("]") else part + "]") for part in parts]
    lists = [items for items in lists if items is not None] if None not in lists else []
    if lists:
        for index, items in enumerate(lists):
            yield Loop(f"{variable}.{index}", start, end, number, header, items=items, words=words)
        return
    yield Loop(variable, start, end, number, header, why=f"`{variable}` walks {kind}: {text}, "
                                                         "which cannot be told here")


def _attributes(value: str) -> dict[str, tuple[str, ...]]:
    """Each key every mapping of a flow list of mappings gives (`[{name: pug}, {name: rex}]`:
    name -> (pug, rex)), where each value is a plain word; else nothing."""
    text = value.strip()
    if len(text) < 2 or text[0] != "[" or text[-1] != "]" or "{" not in text:
        return {}
    mappings = []
    for part in re.split(r"(?<=\})\s*,", text[1:-1].strip().rstrip(",")):
        found = _MAPPING.fullmatch(part)
        if found is None:
            return {}
        pairs = {}
        for pair in found.group("body").split(","):
            item = _PAIR.fullmatch(pair)
            if item is None:
                return {}
            pairs[item.group("key")] = next(v for v in item.group("dq", "sq", "bare") if v is not None)
        mappings.append(pairs)
    keys = set.intersection(*(set(m) for m in mappings)) if mappings else set()
    return {key: tuple(m[key] for m in mappings) for key in sorted(keys)}


def _task(lines: list[bytes], at: int, indent: int) -> tuple[int, int]:
    """The lines of the YAML mapping (an Ansible task) holding the key at line `at`, `indent` deep."""
    def depth(text: bytes) -> int:
        return len(text) - len(text.lstrip(b" \t"))

    first = at
    if not lines[at].lstrip().startswith(b"-"):
        while first > 0:
            above = lines[first - 1]
            if not above.strip() or above.lstrip().startswith(b"#") or depth(above) >= indent:
                first -= 1
                continue
            if above.lstrip().startswith(b"-"):
                first -= 1  # the task's own `- name: ...` line
            break
    last = at
    while last + 1 < len(lines) and (not lines[last + 1].strip() or depth(lines[last + 1]) >= indent):
        last += 1
    return first, last


def _terraform(data: bytes) -> Iterator[Loop]:
    if b"for" not in data:
        return
    for found in _TF_FOR.finditer(data):
        opener = data[found.start():found.start() + 1]
        end = bracket_end(data, found.start(), opener)
        var = (found.group("var2") or found.group("var")).decode()
        expr = found.group("expr").decode("utf-8", "replace").strip()
        loop = _from_expression(var, expr, found.end(), end, _line(data, found.start()),
                                _header(data, found.start(), found.end()))
        yield replace(loop, words=found.span("expr"))
        if found.group("var2") and loop.source is not None:  # `for k, v in var.hosts`: k walks its keys
            yield replace(loop, variable=found.group("var").decode(), keys=True)
    for found in _TF_FOR_EACH.finditer(data):
        start = _block_start(data, found.start())
        if start is None:
            continue
        end = bracket_end(data, start, b"{")
        expr = found.group("expr").decode("utf-8", "replace").strip()
        header = _header(data, found.start(), found.end())
        line_start = data.rfind(b"\n", 0, start) + 1
        dynamic = _DYNAMIC.search(data, line_start, start + 1)
        name = "each"
        if dynamic is not None:  # `dynamic "rule" { for_each = var.hosts ... "${rule.key}" }`
            # its own `iterator =`, not a nested dynamic block's
            named = next((m for m in _ITERATOR.finditer(data, start, end)
                          if _block_start(data, m.start()) == start), None)
            name = (named.group("name") if named else dynamic.group("label")).decode()
        for variable in (f"{name}.key", f"{name}.value"):
            loop = _from_expression(variable, expr, start, end, _line(data, found.start()), header)
            # `each.key` over a map is its keys (over a set, its words: read first)
            keys = variable.endswith(".key") and loop.source is not None and not loop.keys
            yield replace(loop, words=found.span("expr"), keys=keys or loop.keys)


def bracket_end(data: bytes, pos: int, opener: bytes) -> int:
    """Where the bracket opened at `pos` closes (strings skipped), else the end of data."""
    closer = {b"[": b"]", b"{": b"}", b"(": b")"}[opener]
    depth = 0
    quoted = False
    at = pos
    while at < len(data):
        byte = data[at:at + 1]
        if quoted:
            if byte == b"\\":
                at += 1
            elif byte == b'"':
                quoted = False
        elif byte == b'"':
            quoted = True
        elif byte == opener:
            depth += 1
        elif byte == closer:
            depth -= 1
            if depth == 0:
                return at + 1
        at += 1
    return len(data)


def _block_start(data: bytes, pos: int) -> int | None:
    """The `{` of the HCL block holding `pos`."""
    depth = 0
    at = pos - 1
    while at >= 0:
        byte = data[at:at + 1]
        if byte == b"}":
            depth += 1
        elif byte == b"{":
            if depth == 0:
                return at
            depth -= 1
        at -= 1
    return None


def _from_expression(variable: str, expr: str, start: int, end: int, line: int, header: str) -> Loop:
    """A loop over `expr`: a list literal's words, a list variable, or values that cannot be told."""
    text = expr.strip().strip("'\"") if expr.strip()[:1] in "'\"" else expr.strip()
    braced = _JINJA_EXPRESSION.match(text)  # Ansible's `loop: "{{ ['pug', 'rex'] }}"`
    items = list_items(braced.group("inner") if braced else text)
    split = _SPLIT.match(expr.strip())  # Jinja's `"pug rex".split()`, `'pug,rex'.split(',')`
    if items is None and split is not None:
        body = split.group("body")
        parts = body.split(split.group("sep")) if split.group("sep") else body.split()
        if all(_UNQUOTED_WORD.fullmatch(p.strip()) for p in parts):
            items = tuple(p.strip() for p in parts)
    if items is not None:
        return Loop(variable, start, end, line, header, items=items)
    if _INVENTORY.match(text):
        return Loop(variable, start, end, line, header, hosts=True,
                    why=f"`{variable}` walks {expr}, the inventory's hosts, any of which may be renamed")
    walked = _KEYS.match(text)
    if walked is not None and (keyed := _SOURCE.match(walked.group("inner"))) is not None:
        return Loop(variable, start, end, line, header, source=keyed.group("name"), keys=True)
    source = _JINJA_SOURCE.match(text) or _SOURCE.match(text)
    inner = _TOSET.match(text)
    if source is None and inner is not None:
        source = _SOURCE.match(inner.group("inner").strip())
    if source is not None:
        return Loop(variable, start, end, line, header, source=source.group("name"))
    why = f"`{variable}` walks {expr}, which cannot be told here"
    return Loop(variable, start, end, line, header, why=why)


def indented_block_end(data: bytes, start: int, indent: int) -> int:
    """Where a Python block whose header ends at `start` ends: before the first non-blank line
    indented `indent` columns or less."""
    end = start
    for text in re.finditer(rb"\n([^\n]*)", data[start:]):
        body = text.group(1)
        if body.strip() and len(body.expandtabs()) - len(body.expandtabs().lstrip()) <= indent:
            break
        end = start + text.end()
    return end
