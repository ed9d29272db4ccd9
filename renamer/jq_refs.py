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

from renamer.key_refs import KeyRef

_COMMAND = re.compile(rb"""(?<![\w./-])(?:jq|gojq|jaq|yq)(?=[ \t])[^|;&\n'"]{0,256}?"""
                      rb"""(?:'(?P<single>\.[^'\n]*)'|"(?P<double>\.[^"\n]*)")""")
_STEP = re.compile(rb"""\.(?P<name>[A-Za-z_][A-Za-z0-9_-]*)|\.?"(?P<quoted>[^"\\\n]*)"|\.?\[[ \t]*"""
                   rb"""(?:"(?P<sub>[^"\\\n]*)"|(?P<index>\d*))[ \t]*\]"""
                   rb"""|\.?\[[ \t]*'(?P<single>[^'\\\n]*)'[ \t]*\]""")


def might_hold(data: bytes) -> bool:
    return b"jq" in data or b"yq" in data


def jq_refs(data: bytes, names: Collection[str]) -> list[KeyRef]:
    """Each old name in a jq/yq filter's path, at its path from the document's root."""
    wanted = {n.encode() for n in names}
    out: list[KeyRef] = []
    for command in _COMMAND.finditer(data):
        quote = "single" if command.group("single") is not None else "double"
        pos, end = command.start(quote), command.end(quote)
        parts: list[str] = []
        while pos < end and (step := _STEP.match(data, pos, end)) is not None:
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
    return out
