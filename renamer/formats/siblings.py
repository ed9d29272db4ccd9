"""Sibling labels no key parser sees, which a rename can make equal (issue 27 item 7).

A rename that turns `pug` into `wolf` beside a `wolf` already there makes two siblings one
name where the reader wants them apart: nginx refuses a second `upstream wolf`, HAProxy a
second `backend wolf`, Caddy an ambiguous site, BIND a second `zone`, Terraform a second
`resource "a" "wolf"`. The key-by-line check (keylines.py) sees `key:` and `[section]`
lines; these are the other labels, each unique among its siblings:

- a brace block's head, `upstream pug {`, `pug.lab.lan {`, `zone "pug.lan" {`,
  `resource "x" "pug" {`: its siblings are the blocks of the same enclosing block. A head is
  words alone (no parenthesis, operator or `=`: `if (x == "pug") {` is code, not a label);
  a templated head (`{{ }}`, `${ }`) is no label;
- an HAProxy section, an unindented `frontend|backend|listen|... NAME` line;
- an INI inventory's host line: the bare first word of a line under a `[group]`; and across all
  groups, a host is one identity: two names made one is a collision (`_inventory_merge`);
- a Prometheus `job_name` (unique in its file), where the YAML does not parse (a template);
- a Nagios object's own name, `host_name` in `define host {` (`contact_name` in `define contact {`
  ...): a service's `host_name` names the host it runs on, no identity.

An edit set collides when, after it, some label stands more often among its siblings than
before: two names became one. Nothing else is compared, so later edits elsewhere never count.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from renamer import lazy_re

_HAPROXY = lazy_re.compile(
    r"(?P<kw>frontend|backend|listen|peers|resolvers|userlist|mailers|cache|program|ring|"
                      r"http-errors|fcgi-app|log-forward|crt-store)[ \t]+(?P<name>[^\s#]+)")
_JOB = lazy_re.compile(r"[ \t]*(?:-[ \t]+)?job_name[ \t]*:[ \t]*[\"']?(?P<name>[^\s\"'#]+)")
_DEFINE = lazy_re.compile(r"define[ \t]+(?P<type>\w+)")
_FIELD = lazy_re.compile(r"[ \t]+(?P<type>\w+)_name[ \t]+(?P<name>[^\s;#]+)")
_GROUP = lazy_re.compile(r"[ \t]*\[(?P<name>[^\[\]\n]+)\][ \t]*(?:[#;].*)?\Z")
_HOST = lazy_re.compile(r"(?P<name>[A-Za-z0-9_][\w.\-]*)(?:[ \t]+\S+=.*|[ \t]*(?:#.*)?)\Z")
# Spans whose braces are no blocks: templating, interpolation and quoted strings.
_HIDDEN = lazy_re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}|\$\{[^}]*\}|\"(?:[^\"\\\n]|\\.)*\"|'[^'\n]*'")
_QUOTED = lazy_re.compile(r"\"(?:[^\"\\\n]|\\.)*\"|'[^'\n]*'")
_TEMPLATED = lazy_re.compile(r"\{\{|\{%|\$\{")
_COMMENT = lazy_re.compile(r"(?:^|[ \t])(?:#|//).*")
_LABEL = lazy_re.compile(r"[^(){}\[\]=;<>|&!+?`]+")
_KINDS = {"block": "block", "section": "section", "host": "host line", "job": "job_name",
          "object": "Nagios object name", "server_name": "server_name", "server": "HAProxy server",
          "map": "nginx map key", "machine": ".netrc machine", "match": "ssh Match host",
          "ethers": "ethers entry"}
# Entries one reader keys by name among their siblings (break-it round 21, findings 11 and 30):
# an HAProxy section's `server NAME` (unique in its backend), a .netrc `machine NAME` (the first
# wins: curl would send another machine's credentials), ssh's `Match host NAME` (the first value
# obtained wins).
_SERVER = lazy_re.compile(r"[ \t]+server[ \t]+(?P<name>[^\s#]+)[ \t]+\S")
_MACHINE = lazy_re.compile(r"[ \t]*machine[ \t]+(?P<name>\S+)(?:[ \t]+(?:login|password|account)\b|[ \t]*\Z)")
_MATCH = lazy_re.compile(r"[ \t]*Match[ \t]+(?:(?:canonical|final)[ \t]+)?host[ \t]+(?P<name>[^\s,#]+)"
                    r"[ \t]*(?:#.*)?\Z", re.IGNORECASE)
# an /etc/ethers line, `MAC NAME` (NAME a host name or an address): ether-wake, dnsmasq's
# `read-ethers` and getnameinfo's ether_hostton take the first line of a name (break-it round
# 21, finding 11): a rename making two one wakes or leases to the other machine's MAC.
_ETHERS = lazy_re.compile(r"[ \t]*[0-9A-Fa-f]{1,2}(?:[:-][0-9A-Fa-f]{1,2}){5}[ \t]+(?P<name>[^\s#]+)"
                     r"[ \t]*(?:#.*)?\Z")
# an ungrouped INI inventory (one named by ansible.cfg needs no `[group]`): a host line with its vars
_INVENTORY_VARS = lazy_re.compile(r"(?m)^[A-Za-z0-9_][\w.\-]*[ \t]+ansible_\w+=")


@dataclass(frozen=True)
class Label:
    line: int  # 1-based
    scope: tuple[object, ...]  # what the siblings share: the enclosing block, the HAProxy file, a group
    kind: str  # "block", "section", "host", "job" or "object"
    label: str


_OPENER = lazy_re.compile(r"\{\{|\{%|\{#|\$\{|[\"']")


def _hide(line: str) -> str:
    """`line` with each span `_HIDDEN` matches blanked (NULs), left to right as `_HIDDEN.sub`. An
    opener with no closer after it means none of its kind later has one: that kind is no longer
    tried, so a line of 16,000 `{{` is read once, not once an opener (review finding 8)."""
    parts: list[str] = []
    last = pos = 0
    dead: set[str] = set()
    while (opener := _OPENER.search(line, pos)) is not None:
        found = None if opener.group() in dead else _HIDDEN.match(line, opener.start())
        if found is None:
            dead.add(opener.group())
            pos = opener.start() + 1
            continue
        parts += [line[last:found.start()], "\x00" * (found.end() - found.start())]
        last = pos = found.end()
    return "".join(parts) + line[last:]


def labels(text: str) -> list[Label]:
    """Every sibling label of `text`: block heads, HAProxy sections, inventory host lines."""
    out: list[Label] = []
    opened: list[int] = []  # the line of each enclosing block's head (0: an anonymous one)
    group: str | None = None
    section = 0  # the line of the HAProxy section the lines below belong to (0: none)
    defined: tuple[int, str] | None = None  # a Nagios `define TYPE {` block open: its depth and type
    text = text.removeprefix("\ufeff")  # a leading BOM: the first line's head is still a head
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.rstrip("\r")
        stripped = line.strip()
        if not stripped or stripped[0] in "#;" or stripped.startswith("//"):
            continue
        if (found := _JOB.match(line)) is not None:
            out.append(Label(number, ("job_name",), "job", found.group("name")))
            continue
        if not opened and (found := _HAPROXY.match(line)) is not None:
            out.append(Label(number, ("haproxy",), "section", f"{found.group('kw')} {found.group('name')}"))
            section = number
            continue
        if section and not opened and (found := _SERVER.match(line)) is not None:
            out.append(Label(number, ("haproxy-server", section), "server", found.group("name")))
            continue
        if (found := _MACHINE.match(line)) is not None and "machine" in line.split()[:1]:
            out.append(Label(number, ("netrc",), "machine", found.group("name")))
            continue
        if (found := _ETHERS.match(line)) is not None:
            out.append(Label(number, ("ethers",), "ethers", found.group("name").lower()))
            continue
        if (found := _MATCH.match(line)) is not None:
            out.append(Label(number, ("ssh-match",), "match", found.group("name").lower()))
            continue
        if not opened and (found := _GROUP.match(line)) is not None:
            name = found.group("name").strip()
            group = None if name.endswith(":vars") else name
            continue
        if group is not None and not opened and line[:1] not in " \t":
            host = _HOST.match(line)
            if host is not None:
                out.append(Label(number, ("group", group), "host", host.group("name")))
                continue
        found = _FIELD.match(line) if defined is not None and len(opened) == defined[0] else None
        if found is not None and defined is not None and found.group("type") == defined[1]:
            # `host_name` of a host; a service's `host_name` is a reference
            out.append(Label(number, ("nagios", defined[1]), "object", found.group("name")))
            continue
        shown = _COMMENT.sub("", _hide(line))
        start = len(shown) - len(shown.lstrip())
        while shown[start:start + 1] == "}" and opened:  # `} else {`: the block before closes first
            opened.pop()
            shown = shown[:start] + " " + shown[start + 1:]
            start = len(shown) - len(shown.lstrip())
        brace = shown.find("{")
        if brace >= 0:
            head = line[start:brace].strip()
            bare = _QUOTED.sub(" ", head)  # `zone "pug.lan"`, `resource "a" "b"`: quoted labels count
            if (head and _TEMPLATED.search(head) is None and not head.endswith((":", ","))
                    and _LABEL.fullmatch(bare) is not None):
                scope = ("block", opened[-1] if opened else 0)
                out.append(Label(number, scope, "block", " ".join(head.split())))
                nagios = _DEFINE.fullmatch(head)
                defined = (len(opened) + 1, nagios.group("type")) if nagios else None
        depth = shown.count("{") - shown.count("}")
        for _ in range(depth):
            opened.append(number)
        for _ in range(-depth):
            if opened:
                opened.pop()
        if defined is not None and len(opened) < defined[0]:
            defined = None
    return out


_NGINX_COMMENT = lazy_re.compile(r"#[^\n]*")
_STATEMENT = lazy_re.compile(r"[{};]")
_ANY_ADDRESS = lazy_re.compile(r"(?:\*|0\.0\.0\.0):")


def _listen(words: list[str]) -> str:
    """An nginx `listen`'s address and port as one spelling: `80`, `*:80` and `0.0.0.0:80` are one."""
    spec = _ANY_ADDRESS.sub("", words[0]) if words else "80"
    return spec


def _statements(text: str) -> Iterator[tuple[str, list[str], int]]:
    """nginx's statements, comments dropped: (`{`, `;` or `}`, the words before it, the line the
    statement starts on)."""
    text = _NGINX_COMMENT.sub("", text.removeprefix("\ufeff"))
    start = 0
    for found in _STATEMENT.finditer(text):
        statement = text[start:found.start()]
        line = text.count("\n", 0, start + len(statement) - len(statement.lstrip())) + 1
        start = found.end()
        yield found.group(), statement.split(), line


def servers(text: str) -> list[Label]:
    """Each name an nginx `server { }` block answers to (`server_name`), once per `listen` of the
    block (port 80 where none is given): two blocks of one parent answering one name on one
    listen are one server to nginx, which takes the first and ignores the other ("conflicting
    server name"). Labels share a scope by the parent block (0: the top of the file, which a
    config directory's files share) and the listen."""
    if "server_name" not in text:
        return []
    out: list[Label] = []
    stack: list[tuple[str, int, list[tuple[str, int]], list[str]]] = []  # head, line, names, listens
    for mark, words, line in _statements(text):
        if mark == "{":
            stack.append((" ".join(words), line, [], []))
        elif mark == ";":
            if stack and stack[-1][0] == "server" and words:
                if words[0] == "server_name":
                    stack[-1][2].extend((name, line) for name in words[1:])
                elif words[0] == "listen":
                    stack[-1][3].append(_listen(words[1:]))
        elif stack:
            head, _, names, listens = stack.pop()
            if head != "server":
                continue
            parent = stack[-1][1] if stack else 0
            for listen in dict.fromkeys(listens or ["80"]):
                for name, at in dict(reversed(names)).items():  # a name twice in one block is one
                    out.append(Label(at, ("server_name", parent, listen), "server_name", name))
    return out


_MAP = lazy_re.compile(r"map[ \t]")
_MAP_WORDS = frozenset({"default", "hostnames", "volatile", "include"})


def map_keys(text: str) -> list[Label]:
    """Each source value of an nginx `map $a $b { ... }` block: unique in its block (nginx refuses
    a second: `conflicting parameter`, break-it round 21, finding 30)."""
    if "map" not in text or "{" not in text:
        return []
    out: list[Label] = []
    stack: list[tuple[bool, int]] = []  # (a map block, its head's line)
    for mark, words, line in _statements(text):
        if mark == "{":
            stack.append((_MAP.match(" ".join(words)) is not None and len(words) == 3, line))
        elif mark == ";":
            if stack and stack[-1][0] and len(words) == 2 and words[0] not in _MAP_WORDS:
                out.append(Label(line, ("map", stack[-1][1]), "map", words[0].strip("\"'")))
        elif stack:
            stack.pop()
    return out


def collision(before: str, after: str) -> str | None:
    """Where the edited text holds a sibling label twice that the original held once, or None."""
    earlier = labels(before) + servers(before) + map_keys(before)
    old = Counter((label.scope, label.label) for label in earlier)
    was = {label.line: label.label for label in earlier}
    groups: dict[tuple[tuple[object, ...], str], list[Label]] = {}
    for label in labels(after) + servers(after) + map_keys(after):
        groups.setdefault((label.scope, label.label), []).append(label)
    for (scope, name), group in sorted(groups.items(), key=lambda g: g[1][0].line):
        if len(group) > max(old[(scope, name)], 1):
            lines = ", ".join(str(label.line) for label in group)
            standing = next((label.line for label in group if was.get(label.line) == name), group[-1].line)
            kind = _KINDS[group[0].kind]
            return (f"line {standing}: after the rename the {kind} {name!r} would stand twice among its "
                    f"siblings (lines {lines}): a renamed {kind} would collide with an existing one")
    return inventory_collision(before, after)


def inventory_collision(before: str, after: str) -> str | None:
    """`_inventory_merge` of two texts (also asked of an INI file configparser reads, formats/ini.py,
    whose host lines are keys to it): only a text with a `[group]` header is an inventory."""
    if not _GROUPED.search(after) and not _INVENTORY_VARS.search(after):
        return None
    return _inventory_merge(_hosts(before), _hosts(after)) or _host_named_as_group(before, after)


def _groups(text: str) -> dict[str, int]:
    """An INI inventory's group names, each at its first line: `[name]`, `[name:vars]`,
    `[name:children]` headers, and the members of a `:children` section (groups too)."""
    out: dict[str, int] = {}
    for number, raw in enumerate(text.removeprefix("\ufeff").split("\n"), start=1):
        header = _GROUP.match(raw.rstrip("\r"))
        if header is not None:
            out.setdefault(header.group("name").strip().split(":", 1)[0], number)
    for label in _hosts(text):
        if not _host_line(label):  # a `[x:children]` member
            out.setdefault(label.label, label.line)
    return out


def _host_named_as_group(before: str, after: str) -> str | None:
    """A host renamed onto a group's name (t36-sweep, finding 24): Ansible warns "Found both
    group and host with same name" and `hosts: NAME` then targets the group and the host alike;
    the host's host_vars/NAME.yml stands beside group_vars/NAME.yml. Only a clash the edit makes."""
    groups = _groups(after)
    grouped_before = set(_groups(before))
    # a host line that shared its name with a group already (`[pug]` over `pug`, both renamed):
    # the clash was there before the rename, which carries it, not makes it
    had = {label.line for label in _hosts(before) if _host_line(label) and label.label in grouped_before}
    for label in _hosts(after):
        if _host_line(label) and label.label in groups and label.line not in had:
            name = label.label
            return (f"line {label.line}: after the rename the inventory host {name!r} would share its "
                    f"name with the group [{name}] (line {groups[name]}): Ansible reads the name as both "
                    "(\"Found both group and host with same name\"), and `hosts:` naming it targets the "
                    "group's hosts and this one")
    return None


_GROUPED = lazy_re.compile(r"(?m)^[ \t]*\[[^\[\]\n]+\][ \t]*(?:[#;].*)?\r?$")


def is_ini_inventory(text: str) -> bool:
    """Whether `text` is an INI inventory: it has a `[group]` header."""
    return _GROUPED.search(text) is not None


def inventory_hosts(text: str) -> list[tuple[str, int]]:
    """(host, line) of each host line of an INI inventory (`[x:children]` members are groups)."""
    return [(label.label, label.line) for label in _hosts(text) if _host_line(label)]


def _hosts(text: str) -> list[Label]:
    """An inventory's host lines: those under a `[group]`, and the ungrouped ones above the first."""
    out = [label for label in labels(text) if label.kind == "host"]
    for number, raw in enumerate(text.removeprefix("\ufeff").split("\n"), start=1):
        line = raw.rstrip("\r")
        if _GROUP.match(line) is not None:
            break
        host = _HOST.match(line) if line[:1] not in " \t#;" else None
        if host is not None and line.strip():
            out.append(Label(number, ("group", "ungrouped"), "host", host.group("name")))
    return out


def _inventory_merge(earlier: list[Label], later: list[Label]) -> str | None:
    """An INI inventory's host is one identity across all its groups (break-it round 16, #8): `pug`
    under `[web]` renamed onto `wolf` under `[db]` makes two machines one host, and Ansible keeps
    one `ansible_host`. Place by place (an edit moves no line): the lines a host name stands on
    now held two different names then. One host listed in two groups and renamed stays one."""
    was = {label.line: label.label for label in earlier if _host_line(label)}
    now: dict[str, list[int]] = {}
    for label in later:
        if _host_line(label):
            now.setdefault(label.label, []).append(label.line)
    for name, lines in sorted(now.items(), key=lambda item: item[1][0]):
        names = {was.get(line, f"<new line {line}>") for line in lines}
        if len(names) > 1:
            standing = next((line for line in lines if was.get(line) == name), lines[-1])
            listed = ", ".join(str(line) for line in lines)
            return (f"line {standing}: after the rename the inventory host {name!r} would stand for "
                    f"{' and '.join(sorted(repr(n) for n in names))} (lines {listed}): two machines "
                    "would become one host, whatever groups they are in")
    return None


def _host_line(label: Label) -> bool:
    """An inventory host line (not a `[group:children]` member, which names a group)."""
    return label.kind == "host" and not str(label.scope[1]).endswith(":children")
