"""A kubeconfig's references by name (outside tester round 25, finding 01).

A kubeconfig (`kind: Config`, with `contexts:`) names its clusters and users in `clusters:` and
`users:` lists (`- name: hermes`), and a context points at them by name: `context: {cluster:
hermes, user: hermes}`. The context's `user:` is no account on a machine: it is the name of a
`users:` entry, which the sweep renames with the host, so it must follow too (kubectl otherwise
says "cannot locate user hermes"). `accounts.py` asks `context_users` and leaves those out.

Pure: bytes in, offsets out.
"""

from __future__ import annotations

from renamer import lazy_re

_CONFIG = lazy_re.compile(rb"(?m)^[\"']?kind[\"']?[ \t]*:[ \t]*[\"']?Config[\"']?[ \t]*\r?$")
_CONTEXTS = lazy_re.compile(rb"(?m)^[\"']?contexts[\"']?[ \t]*:")
_CONTEXT = lazy_re.compile(rb"(?m)^(?P<i>[ \t]*)(?:-[ \t]+)?[\"']?context[\"']?[ \t]*:[ \t]*"
                      rb"(?P<flow>\{[^}\n]*\})?")
_USER = lazy_re.compile(rb"(?:^|(?<=[\s{,]))[\"']?user[\"']?[ \t]*:[ \t]*[\"']?(?=[A-Za-z0-9_])")


def is_kubeconfig(data: bytes) -> bool:
    """A kubeconfig: `kind: Config` at the top level beside `contexts:`."""
    return b"contexts" in data and _CONFIG.search(data) is not None and _CONTEXTS.search(data) is not None


def context_users(data: bytes) -> set[int]:
    """Offsets where the value of a context's `user:` begins (block or flow style)."""
    if not is_kubeconfig(data):
        return set()
    out: set[int] = set()
    for ctx in _CONTEXT.finditer(data):
        if ctx.group("flow") is not None:
            out.update(hit.end() for hit in _USER.finditer(data, ctx.start("flow"), ctx.end("flow")))
            continue
        indent = len(ctx.group("i"))
        line_start = data.find(b"\n", ctx.end())
        while line_start != -1:  # the lines below `context:` indented deeper than it
            line_start += 1
            line_end = data.find(b"\n", line_start)
            line = data[line_start:len(data) if line_end == -1 else line_end]
            if line.strip():
                depth = len(line) - len(line.lstrip(b" \t"))
                if depth <= indent:
                    break
                hit = _USER.match(data, line_start + depth)
                if hit:
                    out.add(hit.end())
            line_start = line_end
    return out
