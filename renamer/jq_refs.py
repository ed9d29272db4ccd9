"""Key paths a jq or yq filter reads (break-it round 8, finding 9).

`IP=$(jq -r ".hosts.pug.ip" inventory.json)` reads the key `hosts.pug` of a JSON file, and the `.`
before `pug` keeps the plain rules away: the sweep renamed the key and left the filter reading
`null`. The filter (the first quoted argument of `jq`, `gojq`, `jaq` or `yq` that starts with `.`)
is read as a path from the document's root: `.a.b`, `."a"`, `.["a"]`, `.a[]`, `.a[0]`; where it
stops being one (a pipe, a function) the rest is not read. Each old name in it is a reference
at that path (`KeyRef`), decided as every key reference is (renamer/sweep/key_index.py). Pure:
bytes in, spans out.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from renamer import lazy_re
from renamer.key_refs import KeyRef

_COMMAND = lazy_re.compile(rb"""(?<![\w./-])(?:jq|gojq|jaq|yq)(?=[ \t])[^|;&\n'"]{0,256}?"""
                      rb"""(?:'(?P<single>\.[^'\n]*)'|"(?P<double>\.(?:[^"\\\n]|\\.)*)")""")
# (a filter in a shell's double quotes escapes its own: `.[\"pug\"]`)
_STEP = lazy_re.compile(
    rb"""\.(?P<name>[A-Za-z_][A-Za-z0-9_-]*)|\.?\\?"(?P<quoted>[^"\\\n]*)\\?"|\.?\[[ \t]*"""
                   rb"""(?:\\?"(?P<sub>[^"\\\n]*)\\?"|(?P<index>\d*))[ \t]*\]"""
                   rb"""|\.?\[[ \t]*'(?P<single>[^'\\\n]*)'[ \t]*\]""")

# A shell variable as a step: `.$H`, `.${H}` (in a shell's double quotes); yq's `.[env(H)]`,
# jq's `.[$ENV.H]` and `[env.H]`.
_SHELL_STEP = lazy_re.compile(rb"\.\$(?:(?P<var>[A-Za-z_]\w*)|\{(?P<var2>[A-Za-z_]\w*)\})")
_ENV_STEP = lazy_re.compile(rb"\.?\[[ \t]*(?:env\([ \t]*(?P<var>[A-Za-z_]\w*)[ \t]*\)"
                       rb"|\$?(?:ENV|env)\.(?P<var2>[A-Za-z_]\w*))[ \t]*\]")
_PIPE_PATH = lazy_re.compile(rb"[ \t]*\|[ \t]*(?=\.[A-Za-z_\[\"\\])")
_Q = rb'\\?"(?P<sub>[^"\\\n]*)\\?"'
_Q2 = _Q.replace(b"<sub>", b"<sub2>")
_HAS = lazy_re.compile(rb"[ \t]*\|[ \t]*has[ \t]*\([ \t]*" + _Q + rb"[ \t]*\)")
_ENTRIES = lazy_re.compile(rb"[ \t]*\|[ \t]*(?:to_entries|with_entries|map_values)\b")
_KEY_TEST = lazy_re.compile(
    rb"\.key[ \t]*(?:==|!=)[ \t]*" + _Q + rb"|" + _Q2 + rb"[ \t]*(?:==|!=)[ \t]*\.key\b")
_KEYS = lazy_re.compile(rb"[ \t]*\|[ \t]*keys(?:_unsorted)?\b")
_KEYS_TEST = lazy_re.compile(rb"(?:index|has|inside)[ \t]*\([ \t]*" + _Q + rb"[ \t]*\)"
                        rb"|\.[ \t]*(?:==|!=)[ \t]*" + _Q2)
_CONTAINS = lazy_re.compile(rb"contains[ \t]*\([ \t]*\[(?P<items>[^\]\n]*)\]")
_STRING = lazy_re.compile(_Q)


def might_hold(data: bytes) -> bool:
    return b"jq" in data or b"yq" in data


def jq_refs(data: bytes, names: Collection[str]) -> list[KeyRef]:
    """Each old name in a jq/yq filter's path, at its path from the document's root."""
    wanted = {n.encode() for n in names}
    out: list[KeyRef] = []
    variables: list[tuple[int, tuple[str, ...], bytes]] = []  # (where, the path before, the name)
    for command in _COMMAND.finditer(data):
        quote = "single" if command.group("single") is not None else "double"
        pos, end = command.start(quote), command.end(quote)
        parts: list[str] = []
        while pos < end:
            step = _STEP.match(data, pos, end)
            if step is None and parts and (pipe := _PIPE_PATH.match(data, pos, end)) is not None:
                step = _STEP.match(data, pipe.end(), end)  # `.hosts | .pug.ip`: the path goes on
            if step is None and parts and quote == "double" and (shell := _SHELL_STEP.match(data, pos, end)):
                # `yq ".hosts.$H.ip"` with `H=pug` in the script (break-it round 9, finding 3)
                variables.append((shell.start(), tuple(parts), shell.group("var") or shell.group("var2")))
                parts.append("*")
                pos = shell.end()
                continue
            if step is None and parts and (shell := _ENV_STEP.match(data, pos, end)):
                # `.[env(H)]`, `.[$ENV.H]`
                variables.append((shell.start(), tuple(parts), shell.group("var") or shell.group("var2")))
                parts.append("*")
                pos = shell.end()
                continue
            if step is None:
                break
            group = next((g for g in ("name", "quoted", "sub", "single") if step.group(g) is not None), None)
            if group is None:
                parts.append("[]")
            else:
                part = step.group(group)
                parts.append(part.decode("utf-8", "replace"))
                if part in wanted:
                    out.append(KeyRef(step.start(group), step.end(group), part.decode(), tuple(parts),
                                      data[command.start(quote):step.end()].decode("utf-8", "replace"),
                                      group != "name"))
            pos = step.end()
        if parts and pos < end:
            out.extend(_tested(data, pos, end, tuple(parts), wanted, command.start(quote)))
    out.extend(_assigned(data, variables, wanted))
    return sorted(out, key=lambda r: r.start)


def _assigned(data: bytes, variables: list[tuple[int, tuple[str, ...], bytes]],
              wanted: set[bytes]) -> list[KeyRef]:
    """A shell variable a filter reads as a key (`.hosts.$H`, `.[env(H)]`) where the script sets
    it once to a string (`H=pug`): a reference at that string; one the script also reads
    otherwise (`ssh $H`), or as keys of two mappings, reads what cannot be told (`ANY`)."""
    out: list[KeyRef] = []
    by_name: dict[bytes, list[tuple[int, tuple[str, ...]]]] = {}
    for at, parts, name in variables:
        by_name.setdefault(name, []).append((at, parts))
    for name, uses in by_name.items():
        setting = re.compile(rb"^[ \t]*(?:export[ \t]+)?" + re.escape(name)
                             + rb"""=(?P<q>["']?)(?P<sub>[A-Za-z0-9_.-]+)(?P=q)[ \t]*(?:[#;\n]|$)""",
                             re.MULTILINE)
        sets = list(setting.finditer(data))
        if len(sets) != 1 or sets[0].group("sub") not in wanted:
            continue
        every = re.findall(rb"\$\{?" + re.escape(name) + rb"(?![\w])|env\([ \t]*" + re.escape(name)
                           + rb"[ \t]*\)|\$ENV\." + re.escape(name) + rb"(?![\w])", data)
        paths = {parts for _, parts in uses}
        key = sets[0].group("sub").decode()
        path = next(iter(paths)) if len(paths) == 1 and len(every) == len(uses) else ("*",)
        what = ".".join(path) if path != ("*",) else "more than one thing"
        shown = f"{name.decode()}={key}, read as a key of {what}"
        out.append(KeyRef(sets[0].start("sub"), sets[0].end("sub"), key, (*path, key), shown, True))
    return out


def _tested(data: bytes, pos: int, end: int, parts: tuple[str, ...], wanted: set[bytes],
            first: int) -> list[KeyRef]:
    """The keys of the mapping at `parts` that the rest of the filter tests by name (break-it
    round 9, finding 3): `| to_entries[] | select(.key == "pug")` (`with_entries`, `!=`),
    `| has("pug")`, `| keys | index("pug")` (`contains(["pug"])`, `. == "pug"`)."""
    rest = data[pos:end]
    tests: list[re.Match[bytes]] = []
    if (has := _HAS.match(data, pos, end)) is not None:
        tests.append(has)
    if _ENTRIES.match(data, pos, end) is not None:
        tests.extend(_KEY_TEST.finditer(data, pos, end))
    if _KEYS.match(data, pos, end) is not None:
        tests.extend(_KEYS_TEST.finditer(data, pos, end))
        for listed in _CONTAINS.finditer(data, pos, end):
            tests.extend(_STRING.finditer(data, listed.start("items"), listed.end("items")))
    out = []
    for test in tests:
        key = test.group("sub") if test.group("sub") is not None else test.group("sub2")
        group = "sub" if test.group("sub") is not None else "sub2"
        if key in wanted and b"|" in rest:
            out.append(KeyRef(test.start(group), test.end(group), key.decode(), (*parts, key.decode()),
                              data[first:test.end()].decode("utf-8", "replace").replace('\\"', '"'), True))
    return out
