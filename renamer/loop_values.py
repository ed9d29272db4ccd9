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

_IDENT = rb"[A-Za-z_][A-Za-z0-9_]*"
_SHELL_FOR = re.compile(rb"(?:^|(?<=[;&|({\n]))[ \t]*for[ \t]+(?P<var>" + _IDENT + rb")[ \t]+in"
                        rb"(?P<words>[ \t][^;\n]*)?"
                        rb"[ \t]*(?:;|\n)[ \t\r\n]*do(?![A-Za-z0-9_-])", re.M)
_SHELL_BLOCK = re.compile(rb"(?<![A-Za-z0-9_-])(do|done)(?![A-Za-z0-9_-])")
_JINJA_FOR = re.compile(rb"\{%-?[ \t]*for[ \t]+(?P<var>" + _IDENT + rb")[ \t]+in[ \t]+"
                        rb"(?P<expr>.*?)[ \t]*-?%\}")
_JINJA_BLOCK = re.compile(rb"\{%-?[ \t]*(for|endfor)\b")
_ANSIBLE_LOOP = re.compile(rb"^(?P<indent>[ \t]*)(?:-[ \t]+)?(?P<key>loop|with_items|with_list)[ \t]*:"
                           rb"[ \t]*(?P<value>[^\r\n]*)$", re.M)
_LOOP_VAR = re.compile(rb"(?:^|[{,])[ \t]*loop_var[ \t]*:[ \t]*['\"]?(?P<var>" + _IDENT + rb")", re.M)
_TF_FOR = re.compile(rb"[\[{][ \t\r\n]*for[ \t]+(?P<var>" + _IDENT + rb")(?:[ \t]*,[ \t]*(?P<var2>" + _IDENT
                     + rb"))?[ \t]+in[ \t]+(?P<expr>[^:\n]+?)[ \t]*:")
_TF_FOR_EACH = re.compile(rb"^[ \t]*for_each[ \t]*=[ \t]*(?P<expr>[^\r\n]*?)[ \t]*$", re.M)
_TOSET = re.compile(r"^to(?:set|list)\((?P<inner>.*)\)$", re.S)
_SOURCE = re.compile(r"^(?:(?:var|local)\.)?(?P<name>[A-Za-z_][A-Za-z0-9_]*)$")
_JINJA_SOURCE = re.compile(r"^\{\{-?\s*(?P<name>[A-Za-z_][A-Za-z0-9_]*)\s*-?\}\}$")
_JINJA_EXPRESSION = re.compile(r"^\{\{-?\s*(?P<inner>[\[(].*?)\s*-?\}\}$")
_ITEM = re.compile(r"""\s*(?:"(?P<dq>[^"\\]*)"|'(?P<sq>[^'\\]*)'|(?P<bare>[A-Za-z0-9._-]+))\s*""")
_SHELL_SOURCE = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?"
                           r"|\"?\$\{([A-Za-z_][A-Za-z0-9_]*)\[[@*]\]\}\"?")  # a bash array's every element
# `printf '%s\n' pug rex | while read -r h; do`: a here-list, one word a line, read into `h`.
_WHILE_READ = re.compile(rb"(?:^|(?<=[;&|({\n]))[ \t]*printf[ \t]+(?P<q>['\"])%s\\n(?P=q)"
                         rb"(?P<words>(?:[ \t]+[^|;&\n]+?)?)[ \t]*\|[ \t]*while[ \t]+read(?:[ \t]+-r)?[ \t]+"
                         rb"(?P<var>" + _IDENT + rb")[ \t]*"
                         rb"(?:;|\n)[ \t\r\n]*do(?![A-Za-z0-9_-])", re.M)
# The inventory's hosts: `groups['web']`, `groups.web`, `ansible_play_hosts`: any host, a renamed one too.
_INVENTORY = re.compile(r"^\{\{-?\s*(?:groups(?:\[\s*['\"][^'\"]+['\"]\s*\]|\.[A-Za-z_][A-Za-z0-9_]*)"
                        r"|ansible_play_hosts(?:_all)?|play_hosts)\s*(?:\|\s*(?:list|sort|unique)\s*)*-?\}\}$")
_MAPPING = re.compile(r"\s*\{(?P<body>[^{}]*)\}\s*")
_PAIR = re.compile(r"\s*(?P<key>[A-Za-z_][A-Za-z0-9_]*)\s*:\s*"
                   r"(?:\"(?P<dq>[^\"\\]*)\"|'(?P<sq>[^'\\]*)'|(?P<bare>[A-Za-z0-9._-]+))\s*")
_UNQUOTED_WORD = re.compile(r"[A-Za-z0-9._-]+")


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
    array's `(pug rex)` too)."""
    text = raw.strip()
    if len(text) >= 2 and text[0] == "(" and text[-1] == ")":
        text = text[1:-1]
    words = [w[1:-1] if len(w) >= 2 and w[0] == w[-1] and w[0] in "'\"" else w for w in text.split()]
    return tuple(words) if words and all(_UNQUOTED_WORD.fullmatch(w) for w in words) else None


def loops(data: bytes) -> list[Loop]:
    """Every loop of the four grammars in `data`, in order of their headers."""
    found = [*_shell(data), *_while_read(data), *_jinja(data), *_ansible(data), *_terraform(data)]
    return sorted(found, key=lambda loop: (loop.start, -loop.end))


def binding(found: list[Loop], variable: str, pos: int) -> Loop | None:
    """The innermost loop binding `variable` at `pos`."""
    inside = [loop for loop in found if loop.variable == variable and loop.start <= pos < loop.end]
    return min(inside, key=lambda loop: loop.end - loop.start) if inside else None


_READ = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")


def read_by(data: bytes, start: int, end: int) -> str:
    """The variable a template at [start, end) reads, as a loop names it (`n`, `item`, `each.key`)."""
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
        yield replace(_from_expression(variable, value, start, end, number, header), words=words)
        for key, values in _attributes(value).items():  # `loop: [{name: pug}]` read as `item.name`
            yield Loop(f"{variable}.{key}", start, end, number, header, items=values, words=words)


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
        end = _bracket_end(data, found.start(), opener)
        var = (found.group("var2") or found.group("var")).decode()
        expr = found.group("expr").decode("utf-8", "replace").strip()
        loop = _from_expression(var, expr, found.end(), end, _line(data, found.start()),
                                _header(data, found.start(), found.end()))
        yield replace(loop, words=found.span("expr"))
    for found in _TF_FOR_EACH.finditer(data):
        start = _block_start(data, found.start())
        if start is None:
            continue
        end = _bracket_end(data, start, b"{")
        expr = found.group("expr").decode("utf-8", "replace").strip()
        header = _header(data, found.start(), found.end())
        for variable in ("each.key", "each.value"):
            loop = _from_expression(variable, expr, start, end, _line(data, found.start()), header)
            yield replace(loop, words=found.span("expr"))


def _bracket_end(data: bytes, pos: int, opener: bytes) -> int:
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
    if items is not None:
        return Loop(variable, start, end, line, header, items=items)
    if _INVENTORY.match(text):
        return Loop(variable, start, end, line, header, hosts=True,
                    why=f"`{variable}` walks {expr}, the inventory's hosts, any of which may be renamed")
    source = _JINJA_SOURCE.match(text) or _SOURCE.match(text)
    inner = _TOSET.match(text)
    if source is None and inner is not None:
        source = _SOURCE.match(inner.group("inner").strip())
    if source is not None:
        return Loop(variable, start, end, line, header, source=source.group("name"))
    why = f"`{variable}` walks {expr}, which cannot be told here"
    return Loop(variable, start, end, line, header, why=why)
