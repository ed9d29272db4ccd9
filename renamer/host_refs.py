"""Where Ansible names an inventory host by its name, outside `hostvars` and `groups`.

`when: inventory_hostname == "pug"`, `inventory_hostname in ['pug', 'pom']`, `delegate_to: pug`,
a play's `hosts: web:pug:!pom`, `ansible-playbook --limit pug` (`--limit=pug`, `-l pug` on a line
naming ansible) each name the inventory host `pug`: after the sweep they must name what the
inventory names, so they follow that host's fate as `hostvars['pug']` does (break-it round 7,
finding 1: a kept host whose plays were rewritten stopped matching it). Each is a `KeyRef` with
`host=True` and the consumer as the first part of its path (`("delegate_to", "pug")`);
renamer/sweep/key_index.py decides it. A pattern part that is a glob or a regex (`pug*`, `~pu.`)
is no host name: the pattern rules see it. Pure: bytes in, spans out.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator

from renamer import lazy_re
from renamer.key_refs import KeyRef

# The consumers, as the first part of a reference's path; `hostvars` and `groups` are key_refs'.
CONSUMERS = frozenset({"inventory_hostname", "delegate_to", "hosts", "limit"})
_NAME = rb"[A-Za-z0-9_][A-Za-z0-9_.-]*"
_COMPARED = lazy_re.compile(rb"\binventory_hostname(?:_short)?[ \t]*(?:==|!=)[ \t]*(?P<q>['\"])(?P<name>"
                       + _NAME + rb")(?P=q)")
_COMPARED_BACK = lazy_re.compile(rb"(?P<q>['\"])(?P<name>" + _NAME
                            + rb")(?P=q)[ \t]*(?:==|!=)[ \t]*inventory_hostname\b")
_IN_LIST = lazy_re.compile(
    rb"\binventory_hostname(?:_short)?[ \t]+(?:not[ \t]+)?in[ \t]*\[(?P<list>[^\]\n]*)\]")
_LISTED = lazy_re.compile(rb"(?P<q>['\"])(?P<name>" + _NAME + rb")(?P=q)")
# A task's `delegate_to:` and a play's `hosts:`: a plain (or quoted) host pattern, no Jinja.
_KEYWORD = lazy_re.compile(rb"^[ \t]*(?:-[ \t]+)?(?P<kw>delegate_to|hosts)[ \t]*:[ \t]*(?P<q>['\"]?)"
                      rb"(?P<value>[A-Za-z0-9_.:,&!*~\[\]-]+)(?P=q)[ \t]*(?:#.*)?$", re.MULTILINE)
_LIMIT = lazy_re.compile(rb"(?:--limit[ \t]*=?|(?<![A-Za-z0-9_-])-l)[ \t]*(?P<q>['\"]?)"
                    rb"(?P<value>[A-Za-z0-9_.:,&!*~\[\]-]+)(?P=q)")
_PART = re.compile(rb"[^:,&!]+")


def might_hold(data: bytes, names: Collection[str]) -> bool:
    """A cheap test first: a consumer's word, and some name."""
    if b"inventory_hostname" not in data and b"delegate_to" not in data and b"hosts" not in data \
            and b"-l" not in data:
        return False
    return any(n.encode() in data for n in names)


def host_refs(data: bytes, names: Collection[str], *, yaml: bool) -> list[KeyRef]:
    """Every name in `names` that a consumer of `data` reads as an inventory host; `yaml`: the
    file is YAML, where `delegate_to:` and `hosts:` are keywords."""
    wanted = {n.encode() for n in names}
    out: dict[int, KeyRef] = {}
    for ref in _found(data, wanted, yaml=yaml):
        out.setdefault(ref.start, ref)
    return [out[start] for start in sorted(out)]


def _found(data: bytes, wanted: set[bytes], *, yaml: bool) -> Iterator[KeyRef]:
    for pattern in (_COMPARED, _COMPARED_BACK):
        for found in pattern.finditer(data):
            if found.group("name") in wanted:
                yield _ref(data, found.start("name"), found.end("name"), "inventory_hostname",
                           found.start(), found.end())
    for found in _IN_LIST.finditer(data):
        for item in _LISTED.finditer(data, found.start("list"), found.end("list")):
            if item.group("name") in wanted:
                yield _ref(data, item.start("name"), item.end("name"), "inventory_hostname",
                           found.start(), found.end())
    if yaml:
        for found in _KEYWORD.finditer(data):
            yield from _pattern(data, found.start("value"), found.end("value"), wanted,
                                found.group("kw").decode(), found.start())
    for found in _LIMIT.finditer(data):
        line_start = data.rfind(b"\n", 0, found.start()) + 1
        line_end = data.find(b"\n", found.end())
        line = data[line_start:len(data) if line_end < 0 else line_end]
        if found.group(0).startswith(b"-l") and b"ansible" not in line:
            continue  # `ls -l pug`: only an ansible command's -l is a limit
        yield from _pattern(data, found.start("value"), found.end("value"), wanted, "limit", found.start())


def _pattern(data: bytes, start: int, end: int, wanted: set[bytes], consumer: str,
             shown_from: int) -> Iterator[KeyRef]:
    """The parts of a host pattern (`web:pug:&prod:!pom`) that are exactly a wanted name."""
    for part in _PART.finditer(data, start, end):
        if part.group(0) in wanted:
            yield _ref(data, part.start(), part.end(), consumer, shown_from, end)


def _ref(data: bytes, start: int, end: int, consumer: str, shown_from: int, shown_to: int) -> KeyRef:
    name = data[start:end].decode()
    return KeyRef(start, end, name, (consumer, name),
                  data[shown_from:shown_to].decode("utf-8", "replace"), True, host=True)
