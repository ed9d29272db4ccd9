"""Names a tool composes from a host word and a domain it keeps apart (break-it round 8, finding 7).

ssh's `Host pug` with `HostName %h.ana.lan` connects to pug.ana.lan (`%h`, `%n`: the host as
given, which the Host line names); a compose service's `hostname: pug` with `domainname: ana.lan`
is pug.ana.lan inside its container; dnsmasq's `dhcp-host=...,pug` with `domain=ana.lan` gives the
lease pug.ana.lan; systemd's template `check@.service` with `%i.ana.lan` (`%I`) makes pug.ana.lan
for its instance `check@pug.service`. No byte spells pug.ana.lan, so the plain rules rewrite the
host word alone, and where the rename moves the host to another domain (`pug.ana.lan ->
wolf.fv.lan`) the tool then builds wolf.ana.lan, a name that does not exist. This module is the
grammar: each (host word, what the tool adds around it) pair of a file. Whether it breaks is
sweep/tool_names.py's. Pure: bytes in, spans out.

Round 9 (finding 7) adds the same composition through ssh's `Match host pug` / `Match
originalhost pug` blocks, through `%h`/`%n` in ProxyCommand, ProxyJump, LocalCommand,
RemoteCommand and KnownHostsCommand (`-W %h.ana.lan:%p`: `%h` is the host word where the block
sets no HostName, `%n` always), compose's `dns_search: ana.lan` (a bare `DB=pug` of the service
resolves as pug.ana.lan) and a hosts file dnsmasq reads (`addn-hosts=`, /etc/hosts) whose bare
names `expand-hosts` qualifies with `domain=`.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class Composed:
    """The host word at [start, end) that a tool composes into `prefix + word + suffix`; `how`
    says where the rest comes from (for the note)."""

    start: int
    end: int
    word: str
    prefix: str
    suffix: str
    how: str
    # Other suffixes the tool tries in turn (a resolver's search list after `suffix`): where one of
    # them makes the renamed name, the word may follow.
    others: tuple[str, ...] = ()


_SSH_BLOCK = re.compile(rb"^(?:\xef\xbb\xbf)?[ \t]*"  # a leading BOM: still the first block
                        rb"(?P<kw>Host|Match)(?:[ \t]*=[ \t]*|[ \t]+)(?P<rest>[^\r\n]*)",
                        re.MULTILINE | re.IGNORECASE)
_WORD = re.compile(rb"[^\s,#\"']+")
_COMPOSE_KEY = re.compile(rb"^(?P<indent>[ \t]*)(?P<key>hostname|domainname)[ \t]*:[ \t]*[\"']?"
                          rb"(?P<value>[A-Za-z0-9._-]+)[\"']?[ \t]*(?:#[^\n]*)?$", re.MULTILINE)
_DNSMASQ_DOMAIN = re.compile(rb"^[ \t]*domain[ \t]*=[ \t]*(?P<value>[A-Za-z0-9._-]+)", re.MULTILINE)
_DNSMASQ_HOST = re.compile(rb"^[ \t]*dhcp-host[ \t]*=(?P<value>[^\r\n#]*)", re.MULTILINE)
_SYSTEMD_TOKEN = re.compile(rb"%[iI](?P<suffix>\.[A-Za-z0-9][A-Za-z0-9.-]*[A-Za-z0-9])")
_TEMPLATE = re.compile(r"(?:^|/)(?P<unit>[A-Za-z0-9:_.\\-]+)@\.(?P<type>service|socket|timer|path|mount)$")


# One of these stands in every file `might_hold` accepts (the scan's prefilter words).
LITERALS = (b"%h", b"%n", b"domainname", b"dhcp-host", b"dns_search", b"dnsConfig")


def might_hold(data: bytes) -> bool:
    return any(word in data for word in LITERALS)


def composed(data: bytes, words: Collection[str]) -> Iterator[Composed]:
    """Every host word in `words` that ssh, compose or dnsmasq composes with a kept domain."""
    yield from _ssh(data, words)
    yield from _compose(data, words)
    yield from _compose_search(data, words)
    yield from _dnsmasq(data, words)


_SSH_KEY = re.compile(rb"^[ \t]*(?P<key>HostName|ProxyCommand|ProxyJump|LocalCommand|RemoteCommand|"
                      rb"KnownHostsCommand)(?:[ \t]*=[ \t]*|[ \t]+)(?P<value>[^\r\n]*)",
                      re.MULTILINE | re.IGNORECASE)
_SSH_TOKEN = re.compile(rb"(?<![%A-Za-z0-9_.-])(?P<prefix>[A-Za-z0-9_.-]*)(?<!%)%(?P<token>[hn])"
                        rb"(?P<suffix>[A-Za-z0-9_.-]*)")
_MATCH_CRITERION = re.compile(rb"\S+")
_MATCH_EXEC = re.compile(rb"(?:^|[ \t])exec[ \t]+(?P<value>\"[^\"]*\"|\S+)", re.IGNORECASE)


def _ssh_words(block: re.Match[bytes]) -> Iterator[re.Match[bytes]]:
    """The host words a `Host` line names, or a `Match` line's `host`/`originalhost` patterns
    (`Match host pug,rex user x`); never a negated (`!pug`) or wildcard pattern."""
    start, end = block.start("rest"), block.end("rest")
    if block.group("kw").lower() == b"host":
        yield from _WORD.finditer(block.string, start, end)
        return
    criteria = list(_MATCH_CRITERION.finditer(block.string, start, end))
    for i, criterion in enumerate(criteria[:-1]):
        if criterion.group().startswith(b"#"):
            return
        if criterion.group().lower() in (b"host", b"originalhost"):
            yield from _WORD.finditer(block.string, criteria[i + 1].start(), criteria[i + 1].end())


def _ssh(data: bytes, words: Collection[str]) -> Iterator[Composed]:
    if b"%h" not in data and b"%n" not in data:
        return
    blocks = list(_SSH_BLOCK.finditer(data))
    for i, block in enumerate(blocks):
        end = blocks[i + 1].start() if i + 1 < len(blocks) else len(data)
        keys = [(k.group("key"), k.group("value")) for k in _SSH_KEY.finditer(data, block.end(), end)]
        sets_name = any(k.lower() == b"hostname" for k, _ in keys)
        if block.group("kw").lower() == b"match":  # `exec "nc -z %h.ana.lan 22"`: before HostName applies
            keys += [(b"Match exec", e.group("value")) for e in _MATCH_EXEC.finditer(block.group("rest"))]
        if not keys:
            continue
        named = [w for w in _ssh_words(block) if w.group().decode("utf-8", "replace") in words]
        if not named:
            continue
        kw = block.group("kw").decode("utf-8", "replace")
        for key, value in keys:
            for prefix, suffix, how in _ssh_compositions(key, value, sets_name and key != b"Match exec"):
                for word in named:
                    yield Composed(word.start(), word.end(), word.group().decode("utf-8", "replace"), prefix,
                                   suffix, f"{how} in its `{kw}` block")


def _ssh_compositions(key: bytes, raw: bytes, sets_name: bool) -> Iterator[tuple[str, str, str]]:
    """(prefix, suffix, how) of each name a keyword's value builds around the host word."""
    name = key.lower()
    value = raw.decode("utf-8", "replace")
    if name == b"hostname":
        value = value.split("#")[0].strip().strip("\"'")
        tokens = re.findall(r"%[hn]", value)
        if len(tokens) != 1 or "%" in value.replace(tokens[0], "") or any(c.isspace() for c in value):
            return  # one token, the rest literal: the composition is certain
        prefix, suffix = value.split(tokens[0])
        yield prefix, suffix, f"`HostName {value}`"
        return
    shown = f"`{key.decode('utf-8', 'replace')} {value.strip()}`"
    for token in _SSH_TOKEN.finditer(raw):
        if token.group("token") == b"h" and sets_name:
            continue  # `%h` is the HostName the block sets, which its own line composes
        prefix = token.group("prefix").decode("utf-8", "replace")
        suffix = token.group("suffix").decode("utf-8", "replace").rstrip(".")
        if prefix or suffix:  # `-W %h:%p` names the host itself, which follows
            yield prefix, suffix, shown


def _compose(data: bytes, words: Collection[str]) -> Iterator[Composed]:
    if b"domainname" not in data:
        return
    keys = list(_COMPOSE_KEY.finditer(data))
    for host in (k for k in keys if k.group("key") == b"hostname"):
        word = host.group("value").decode("utf-8", "replace")
        if word not in words:
            continue
        indent = host.group("indent")
        for domain in (k for k in keys if k.group("key") == b"domainname" and k.group("indent") == indent):
            first, last = sorted((host.start(), domain.start()))
            between = data[first:last].split(b"\n")[1:]
            if any(line.strip() and len(line) - len(line.lstrip()) < len(indent) for line in between):
                continue  # another service's
            value = domain.group("value").decode("utf-8", "replace")
            yield Composed(host.start("value"), host.end("value"), word, "", f".{value}",
                           f"`domainname: {value}` of the same service")


_SEARCH = re.compile(rb"^(?P<indent>[ \t]*)(?P<key>dns_search|searches)[ \t]*:[ \t]*(?P<value>[^\r\n#]*)",
                     re.MULTILINE)
_SEARCH_ITEM = re.compile(rb"[ \t]*-[ \t]*[\"']?(?P<value>[A-Za-z0-9._-]+)")
_DOMAIN = re.compile(r"[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)+")
_LINE_KEY = re.compile(rb"[ \t]*(?:-[ \t]*)?(?P<key>[A-Za-z0-9_.-]+)[ \t]*:(?:[ \t]|$)")
# Keys whose words name no host the container looks up: an image, its own names, its resolvers,
# names it defines, a node's, a path's, a key's.
_NOT_LOOKED_UP = frozenset({
    b"image", b"container_name", b"hostname", b"domainname", b"dns", b"dns_search", b"extra_hosts",
    b"networks", b"volumes", b"build", b"labels", b"env_file", b"depends_on", b"links", b"profiles",
    b"secrets", b"configs", b"name", b"nodeName", b"serviceAccountName", b"subdomain", b"dnsConfig",
    b"dnsPolicy", b"hostAliases", b"nodeSelector", b"affinity", b"tolerations", b"volumeMounts",
    b"imagePullSecrets", b"mountPath", b"subPath", b"claimName", b"secretName", b"key", b"path",
    b"annotations",
})


def _indent(line: bytes) -> int:
    return len(line) - len(line.lstrip(b" \t"))


def _search_domains(lines: list[bytes], row: int, value: bytes) -> tuple[list[str], set[int]]:
    """The domains of a search list (`[a.lan, b.lan]`, `a.lan`, or a block list below `row`) and
    the rows it takes."""
    if value:
        items = value.strip(b"[] \t").split(b",")
        return [d.strip(b" \t\"'").decode("utf-8", "replace") for d in items], {row}
    domains, rows = [], {row}
    for later in range(row + 1, len(lines)):
        if not lines[later].strip():
            continue
        item = _SEARCH_ITEM.match(lines[later])
        if item is None or _indent(lines[later]) < _indent(lines[row]):
            break
        domains.append(item.group("value").decode("utf-8", "replace"))
        rows.add(later)
    return domains, rows


def _parent(lines: list[bytes], row: int) -> int | None:
    """The row of the mapping key that `row` is under: the nearest row above it less indented."""
    indent = _indent(lines[row])
    for r in range(row - 1, -1, -1):
        if lines[r].strip() and not lines[r].lstrip().startswith(b"#") and _indent(lines[r]) < indent:
            return r
    return None


def _compose_search(data: bytes, words: Collection[str]) -> Iterator[Composed]:
    """A bare host word of a compose service whose `dns_search` lists domains, or of a Kubernetes
    pod whose `dnsConfig.searches` does: the resolver tries `pug.ana.lan` (then each next domain)
    before `pug` itself."""
    if b"dns_search" not in data and b"dnsConfig" not in data:
        return
    lines = data.split(b"\n")
    offsets = [0]
    for line in lines[:-1]:
        offsets.append(offsets[-1] + len(line) + 1)
    for found in _SEARCH.finditer(data):
        row = data.count(b"\n", 0, found.start())
        domains, search_rows = _search_domains(lines, row, found.group("value").strip())
        domains = [d for d in domains if d]
        if not domains or not all(_DOMAIN.fullmatch(d) for d in domains):
            continue  # none, or a variable: nothing certain to compose
        scope = _parent(lines, row)
        if found.group("key") == b"searches":  # a pod's `dnsConfig:`, its spec the scope
            parent = _LINE_KEY.match(lines[scope]) if scope is not None else None
            if scope is None or parent is None or parent.group("key") != b"dnsConfig":
                continue
            scope = _parent(lines, scope)
            what = f"`dnsConfig.searches: {', '.join(domains)}` of the same pod"
        else:
            what = f"`dns_search: {', '.join(domains)}` of the same service"
        if scope is None:
            continue
        top = _indent(lines[scope])
        # A compose service's name is its own host on the project network, no search needed.
        names = {m.group("key").decode("utf-8", "replace") for line in lines
                 if _indent(line) == top and (m := _LINE_KEY.match(line)) is not None}
        skip_below: int | None = None  # the column of a key whose values name no looked-up host
        for r in range(scope + 1, len(lines)):
            line = lines[r]
            if not line.strip() or line.lstrip().startswith(b"#"):
                continue
            if _indent(line) <= top:
                break
            if skip_below is not None and _indent(line) > skip_below:
                continue
            skip_below = None
            key = _LINE_KEY.match(line)
            if key is not None and key.group("key") in _NOT_LOOKED_UP:
                skip_below = key.start("key")
                continue
            if r in search_rows:
                continue
            for word in _BARE.finditer(line, key.end() if key is not None else 0):
                text = word.group().decode("utf-8", "replace")
                if text in words and text not in names:
                    start = offsets[r] + word.start()
                    yield Composed(start, start + len(word.group()), text, "", f".{domains[0]}", what,
                                   tuple(f".{d}" for d in domains[1:]))


# A bare name: no name byte or dot-and-label on either side (`pug.ana.lan` is no bare `pug`).
_BARE = re.compile(rb"(?<![A-Za-z0-9_.-])[A-Za-z0-9_-]+(?![A-Za-z0-9_-]|\.[A-Za-z0-9])")


def _dnsmasq(data: bytes, words: Collection[str]) -> Iterator[Composed]:
    if b"dhcp-host" not in data:
        return
    domains = [d.group("value").decode() for d in _DNSMASQ_DOMAIN.finditer(data)]
    if len(set(domains)) != 1:
        return  # none, or several (per range): which one a lease takes cannot be told here
    for host in _DNSMASQ_HOST.finditer(data):
        pos = host.start("value")
        for field in host.group("value").split(b","):
            text = field.strip().decode("utf-8", "replace")
            if text in words:
                start = pos + field.index(field.strip())
                yield Composed(start, start + len(field.strip()), text, "", f".{domains[0]}",
                               f"`domain={domains[0]}` of the same file")
            pos += len(field) + 1


@dataclass(frozen=True)
class Dnsmasq:
    """What one dnsmasq configuration file says about the hosts files it reads."""

    expand_hosts: bool
    no_hosts: bool
    domains: tuple[str, ...]  # each `domain=` value (a range's too)
    addn_hosts: tuple[str, ...]  # each `addn-hosts=` path (a file or a folder), each `hostsdir=` folder


_DNSMASQ_LINE = re.compile(rb"^[ \t]*(?P<key>expand-hosts|no-hosts|addn-hosts|hostsdir|domain)"
                           rb"[ \t]*(?:=[ \t]*(?P<value>[^\r\n#]*))?[ \t]*(?:#[^\n]*)?$", re.MULTILINE)


def dnsmasq(data: bytes) -> Dnsmasq:
    """The `expand-hosts`, `no-hosts`, `domain=`, `addn-hosts=` and `hostsdir=` lines of a dnsmasq file."""
    expand = no_hosts = False
    domains: list[str] = []
    addn: list[str] = []
    for found in _DNSMASQ_LINE.finditer(data):
        key = found.group("key")
        value = (found.group("value") or b"").strip().decode("utf-8", "replace")
        if key == b"expand-hosts":
            expand = True
        elif key == b"no-hosts":
            no_hosts = True
        elif key == b"domain" and value:
            domains.append(value.split(",")[0].strip())
        elif key in (b"addn-hosts", b"hostsdir") and value:
            addn.append(value)
    return Dnsmasq(expand, no_hosts, tuple(domains), tuple(addn))


_HOSTS_LINE = re.compile(rb"^[ \t]*(?P<address>[0-9A-Fa-f:.]+(?:%[A-Za-z0-9]+)?)[ \t]+(?P<names>[^\r\n#]*)",
                         re.MULTILINE)
_NAME = re.compile(rb"[^ \t]+")


def hosts_names(data: bytes, words: Collection[str], domain: str, how: str) -> Iterator[Composed]:
    """Each bare host word of a hosts file's lines (`10.0.40.11 pug`) that dnsmasq's
    `expand-hosts` qualifies with `domain` (a dotted name it serves as written)."""
    for line in _HOSTS_LINE.finditer(data):
        try:
            ipaddress.ip_address(line.group("address").decode().split("%")[0])
        except ValueError:
            continue  # no hosts line: an inventory, a comment
        for name in _NAME.finditer(data, line.start("names"), line.end("names")):
            text = name.group().decode("utf-8", "replace")
            if text in words:
                yield Composed(name.start(), name.end(), text, "", f".{domain}", how)


def template_unit(rel: str) -> tuple[str, str] | None:
    """(`check`, `service`) for a systemd template unit `.../check@.service`, else None."""
    found = _TEMPLATE.search(rel)
    return (found.group("unit"), found.group("type")) if found is not None else None


def template_suffixes(data: bytes) -> Iterator[tuple[int, int, str]]:
    """Each `%i.ana.lan` (`%I`) of a template unit: the span and the literal after the token."""
    for found in _SYSTEMD_TOKEN.finditer(data):
        yield found.start(), found.end(), found.group("suffix").decode("utf-8", "replace")


def instances(paths: Collection[str], unit: str, kind: str) -> list[tuple[str, str]]:
    """The instances of template `unit@.kind` the repo's paths name: (path, instance)."""
    pattern = re.compile(r"(?:^|/)" + re.escape(unit) + r"@(?P<instance>[^/@]+)\." + re.escape(kind) + r"$")
    return [(p, m.group("instance")) for p in paths if (m := pattern.search(p)) is not None]
