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

import bisect
import ipaddress
import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass

from renamer import lazy_re, resolver_flags
from renamer.loop_values import bracket_end


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


_SSH_BLOCK = lazy_re.compile(rb"^(?:\xef\xbb\xbf)?[ \t]*"  # a leading BOM: still the first block
                        rb"(?P<kw>Host|Match)(?:[ \t]*=[ \t]*|[ \t]+)(?P<rest>[^\r\n]*)",
                        re.MULTILINE | re.IGNORECASE)
_WORD = lazy_re.compile(rb"[^\s,#\"']+")
_COMPOSE_KEY = lazy_re.compile(rb"^(?P<indent>[ \t]*)(?P<key>hostname|domainname)[ \t]*:[ \t]*[\"']?"
                          rb"(?P<value>[A-Za-z0-9._-]+)[\"']?[ \t]*(?:#[^\n]*)?$", re.MULTILINE)
_DNSMASQ_DOMAIN = lazy_re.compile(rb"^[ \t]*domain[ \t]*=[ \t]*(?P<value>[A-Za-z0-9._-]+)", re.MULTILINE)
_DNSMASQ_HOST = lazy_re.compile(rb"^[ \t]*dhcp-host[ \t]*=(?P<value>[^\r\n#]*)", re.MULTILINE)
_SYSTEMD_TOKEN = lazy_re.compile(rb"%[iI](?P<suffix>\.[A-Za-z0-9][A-Za-z0-9.-]*[A-Za-z0-9])")
_TEMPLATE = lazy_re.compile(
    r"(?:^|/)(?P<unit>[A-Za-z0-9:_.\\-]+)@\.(?P<type>service|socket|timer|path|mount)$")


# One of these stands in every file `might_hold` accepts (the scan's prefilter words).
LITERALS = (b"%h", b"%n", b"domainname", b"dhcp-host", b"dns_search", b"dnsConfig", b"anonicalDomains",
            b"anonicaldomains", b"config dnsmasq", b"expand-hosts", b"--dns-search", b"dns {", b'"dns_',
            b"dnsmasq",  # its short flags (resolver_flags.py)
            b"DNSSearch",  # a Podman Quadlet unit's
            b"expandHosts", b"FTLCONF_", b"[dhcp]")  # the last three: pihole_names.LITERALS


def might_hold(data: bytes) -> bool:
    return any(word in data for word in LITERALS)


def composed(data: bytes, words: Collection[str]) -> Iterator[Composed]:
    """Every host word in `words` that ssh, compose or dnsmasq composes with a kept domain."""
    yield from _ssh(data, words)
    yield from _ssh_generators(data, words)
    yield from _compose(data, words)
    yield from _compose_search(data, words)
    yield from _docker_run_search(data, words)
    yield from _quadlet_search(data, words)
    yield from _nomad_search(data, words)
    yield from _dnsmasq(data, words)
    yield from _dns_records(data, words)


_SSH_KEY = lazy_re.compile(rb"^[ \t]*(?P<key>HostName|ProxyCommand|ProxyJump|LocalCommand|RemoteCommand|"
                      rb"KnownHostsCommand)(?:[ \t]*=[ \t]*|[ \t]+)(?P<value>[^\r\n]*)",
                      re.MULTILINE | re.IGNORECASE)
_SSH_TOKEN = lazy_re.compile(rb"(?<![%A-Za-z0-9_.-])(?P<prefix>[A-Za-z0-9_.-]*)(?<!%)%(?P<token>[hn])"
                        rb"(?P<suffix>[A-Za-z0-9_.-]*)")
_MATCH_CRITERION = lazy_re.compile(rb"\S+")
_MATCH_EXEC = lazy_re.compile(rb"(?:^|[ \t])exec[ \t]+(?P<value>\"[^\"]*\"|\S+)", re.IGNORECASE)


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
    canonical = b"anonicalDomains" in data or b"anonicaldomains" in data
    if b"%h" not in data and b"%n" not in data and not canonical:
        return
    blocks = list(_SSH_BLOCK.finditer(data))
    seen: set[tuple[int, str, str]] = set()
    for found in _ssh_blocks(data, blocks, words):
        seen.add((found.start, found.prefix, found.suffix))
        yield found
    yield from (c for c in _ssh_chains(data, blocks, words) if (c.start, c.prefix, c.suffix) not in seen)


_SSH_INCLUDE = lazy_re.compile(rb"^[ \t]*Include(?:[ \t]*=[ \t]*|[ \t]+)(?P<value>[^\r\n#]*)",
                          re.MULTILINE | re.IGNORECASE)


def ssh_includes(data: bytes) -> list[tuple[int, int, list[str]]]:
    """Each `Include` line ssh reads for every host: (start, end, its patterns), where it stands
    before any block or in a `Host *` / `Match all` block (one inside another block applies only
    where that block does, and is left)."""
    if b"nclude" not in data:
        return []
    blocks = list(_SSH_BLOCK.finditer(data))
    out = []
    for found in _SSH_INCLUDE.finditer(data):
        block = next((b for b in reversed(blocks) if b.start() < found.start()), None)
        rest = block.group("rest").split(b"#")[0].split() if block is not None else []
        if block is None or rest in ([b"*"], [b"all"]) or [r.lower() for r in rest] == [b"all"]:
            out.append((found.start(), found.end(), [p.decode("utf-8", "replace")
                                                     for p in found.group("value").split()]))
    return out


def ssh_view(words: Collection[str], parts: list[tuple[str, bytes]], rel: str) -> Iterator[Composed]:
    """The compositions of `rel`'s words in the text ssh reads: `parts` in order, the including
    file's pieces and each included file in its place (break-it round 14: a `Host *` block in
    one file composes the `Host pug` of a file it includes, or that includes it)."""
    view = b"".join(data for _, data in parts)
    starts, at = [], 0
    for name, data in parts:
        starts.append((at, at + len(data), name))
        at += len(data)
    for found in _ssh(view, words):
        for start, end, name in starts:
            if name == rel and start <= found.start < end:
                shift = _piece_offset(parts, starts, start) - start
                how = found.how.replace("of the same ssh config", "of the ssh config with its `Include`s")
                yield Composed(found.start + shift, found.end + shift, found.word, found.prefix, found.suffix,
                               how, found.others)


def _piece_offset(parts: list[tuple[str, bytes]], starts: list[tuple[int, int, str]], start: int) -> int:
    """Where a piece of a file starts in that file: the bytes of its earlier pieces."""
    index = next(i for i, (s, _e, _n) in enumerate(starts) if s == start)
    name = parts[index][0]
    return sum(len(data) for other, data in parts[:index] if other == name)


def _ssh_blocks(data: bytes, blocks: list[re.Match[bytes]], words: Collection[str]) -> Iterator[Composed]:
    """Each block's own keywords composing the words it names (round 8, round 9)."""
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


# The keywords whose first value (over every block that applies, in file order) composes a name.
_SSH_FIRST = lazy_re.compile(rb"^[ \t]*(?P<key>HostName|ProxyCommand|ProxyJump|LocalCommand|RemoteCommand|"
                        rb"KnownHostsCommand|CanonicalizeHostname|CanonicalDomains)(?:[ \t]*=[ \t]*|[ \t]+)"
                        rb"(?P<value>[^\r\n]*)", re.MULTILINE | re.IGNORECASE)
_JUMP_TARGET = lazy_re.compile(rb"(?:^|,)[ \t]*(?:ssh://)?(?:[^@\s,]+@)?(?P<host>[^:@\s,]+)(?::[0-9]+)?")


def _ssh_pattern(pattern: bytes) -> re.Pattern[bytes]:
    return re.compile(re.escape(pattern).replace(rb"\*", rb".*").replace(rb"\?", rb".") + rb"\Z",
                      re.IGNORECASE)


def _pattern_matches(pattern: bytes, word: bytes) -> bool:
    if b"*" not in pattern and b"?" not in pattern:  # most are a name: no regex (nor its cache) needed
        return pattern.lower() == word.lower()
    return _ssh_pattern(pattern).match(word) is not None


def _patterns_match(patterns: list[bytes], word: bytes) -> bool:
    """ssh's pattern list: one positive pattern matching and no negated one."""
    matched = False
    for pattern in patterns:
        if pattern.startswith(b"!"):
            if _pattern_matches(pattern[1:], word):
                return False
        elif _pattern_matches(pattern, word):
            matched = True
    return matched


def _applies(block: re.Match[bytes], word: bytes) -> bool:
    """Does this `Host`/`Match` block certainly apply to the host word (`Host *`, `Host pug`,
    `Match all`, `Match host p*`)? A criterion ssh decides elsewhere (`user`, `exec`,
    `canonical`) makes it uncertain: no."""
    rest = block.group("rest").split(b"#")[0]
    if block.group("kw").lower() == b"host":
        return _patterns_match([w.group() for w in _WORD.finditer(rest)], word)
    criteria = rest.split()
    if [c.lower() for c in criteria] == [b"all"]:
        return True
    if not criteria or len(criteria) % 2:
        return False
    for name, value in zip(criteria[::2], criteria[1::2], strict=True):
        if name.lower() not in (b"host", b"originalhost") or not _patterns_match(value.split(b","), word):
            return False
    return True


def _ssh_chains(data: bytes, blocks: list[re.Match[bytes]], words: Collection[str]) -> Iterator[Composed]:
    """Break-it round 14 (finding 1): ssh takes each keyword's first value over every block that
    applies to the host, in file order, so `Host pug` with no HostName and a `Host *` (or `Match
    all`) block's `HostName %h.ana.lan`, before or after it, connects to pug.ana.lan, and
    `CanonicalizeHostname yes` with `CanonicalDomains ana.lan` tries pug.ana.lan first. Each host
    word a `Host` or `Match host` pattern names, or a `ProxyJump` target (which ssh reaches
    through the same file), is composed from those first values."""
    spans: list[tuple[int, int, bytes]] = []  # where each word stands: its patterns, its jump targets
    for block in blocks:
        spans += [(w.start(), w.end(), w.group()) for w in _ssh_words(block)]
    for key in _SSH_KEY.finditer(data):
        if key.group("key").lower() == b"proxyjump":
            value = key.group("value").split(b"#")[0]
            for target in _JUMP_TARGET.finditer(value):
                start = key.start("value") + target.start("host")
                spans.append((start, start + len(target.group("host")), target.group("host")))
    spans = [s for s in spans if s[2].decode("utf-8", "replace") in words]
    if not spans:
        return
    starts = [b.start() for b in blocks]
    ends = [*starts[1:], len(data)]
    for word in dict.fromkeys(s[2] for s in spans):
        chain = [(0, starts[0] if starts else len(data))]  # the lines before any block apply to all
        chain += [(b.end(), end) for b, end in zip(blocks, ends, strict=True) if _applies(b, word)]
        spelled: dict[bytes, tuple[bytes, bytes]] = {}  # keyword -> (as written, its first value)
        for start, end in chain:
            for line in _SSH_FIRST.finditer(data, start, end):
                spelled.setdefault(line.group("key").lower(), (line.group("key"), line.group("value")))
        first = {k: v for k, (_, v) in spelled.items()}
        found: list[tuple[str, str, str, tuple[str, ...]]] = []
        sets_name = b"hostname" in first
        for keyword in (b"hostname", b"proxycommand", b"proxyjump", b"localcommand", b"remotecommand",
                        b"knownhostscommand"):
            if keyword in spelled:
                for prefix, suffix, how in _ssh_compositions(*spelled[keyword], sets_name):
                    found.append((prefix, suffix, how, ()))
        canonicalize = first.get(b"canonicalizehostname", b"no").split(b"#")[0].strip().lower()
        hostname = first.get(b"hostname", b"%h").split(b"#")[0].strip().strip(b"\"'")
        proxied = any(k in first and not first[k].strip().lower().startswith(b"none")
                      for k in (b"proxycommand", b"proxyjump"))
        canonicalized = canonicalize == b"always" or (canonicalize == b"yes" and not proxied)
        if canonicalized and hostname in (b"%h", b"%n"):
            domains = [d.decode("utf-8", "replace").rstrip(".")
                       for d in first.get(b"canonicaldomains", b"").split(b"#")[0].split()]
            if domains and all(_DOMAIN.fullmatch(d) for d in domains):
                found.append(("", f".{domains[0]}", f"`CanonicalDomains {' '.join(domains)}`",
                              tuple(f".{d}" for d in domains[1:])))
        for start, end, _w in (s for s in spans if s[2] == word):
            text = word.decode("utf-8", "replace")
            for prefix, suffix, how, others in found:
                yield Composed(start, end, text, prefix, suffix, f"{how} of the same ssh config", others)


_HM_BLOCKS = lazy_re.compile(rb"matchBlocks(?P<dot>\.)?")
_NIX_ENTRY = lazy_re.compile(rb"(?P<name>[A-Za-z0-9_*-]+|\"[^\"\r\n]*\")[ \t]*(?P<dot>\.)?")
_NIX_STRING_ATTR = lazy_re.compile(rb"(?<![A-Za-z0-9_.-])(?P<key>host|hostname|proxyCommand|proxyJump)"
                              rb"[ \t]*=[ \t]*"
                              rb"\"(?P<value>[^\"\r\n]*)\"[ \t]*;")
_NIX_OPEN = lazy_re.compile(rb"[ \t]*=[ \t\r\n]*\{")
_HM_KEYS = {b"hostname": b"HostName", b"proxycommand": b"ProxyCommand", b"proxyjump": b"ProxyJump"}


def _closing(data: bytes, start: int) -> int:
    """The index after the brace that closes the one at `start` (strings skipped), or len(data)."""
    return bracket_end(data, start, b"{")


def _hm_blocks(data: bytes) -> Iterator[tuple[re.Match[bytes], bytes, int]]:
    """home-manager's `programs.ssh.matchBlocks`: each entry's name (a match of `_NIX_ENTRY`) and
    its attribute text (`pug = { hostname = "%h.ana.lan"; }`, `matchBlocks.pug.hostname = ...;`) and
    where that text starts in `data` (-1: rebuilt)."""
    for found in _HM_BLOCKS.finditer(data):
        if found.group("dot"):  # `matchBlocks.pug = {...};` / `matchBlocks.pug.hostname = "...";`
            entry = _NIX_ENTRY.match(data, found.end())
            if entry is None:
                continue
            if entry.group("dot"):
                end = data.find(b";", entry.end())
                yield entry, b" " + data[entry.end():end + 1 if end >= 0 else len(data)], -1
            elif (opened := _NIX_OPEN.match(data, entry.end())) is not None:
                yield entry, data[opened.end() - 1:_closing(data, opened.end() - 1)], opened.end() - 1
            continue
        brace = data.find(b"{", found.end())
        if brace < 0 or data[found.end():brace].strip(b" \t=\r\n"):
            continue
        body_end = _closing(data, brace)
        i = brace + 1
        while i < body_end - 1:
            entry = _NIX_ENTRY.match(data, i)
            if entry is None or entry.group("dot"):
                i = i + 1 if entry is None else entry.end()
                continue
            after = data[entry.end():body_end].lstrip()
            skip = entry.end() + (body_end - entry.end() - len(after))
            inner = data.find(b"{", skip)
            if after.startswith(b"=") and inner >= 0 and b";" not in data[skip:inner]:
                close = _closing(data, inner)
                yield entry, data[inner:close], inner
                i = close
            else:
                i = entry.end()


def _ssh_generators(data: bytes, words: Collection[str]) -> Iterator[Composed]:
    """Break-it round 14 (finding 2): generators that write `Host pug` + `HostName %h.ana.lan`:
    home-manager's `programs.ssh.matchBlocks.pug = { hostname = "%h.ana.lan"; }` (a `"*"` entry's
    `hostname` applying to an entry that sets none) and Ansible's `community.general.ssh_config`
    (`host: pug` beside `hostname: "%h.ana.lan"`)."""
    if b"%h" not in data and b"%n" not in data:
        return
    if b"matchBlocks" in data:
        entries = list(_hm_blocks(data))
        every: list[tuple[bytes, bytes]] = []  # the `"*"` entry's keys
        parsed: list[tuple[re.Match[bytes], dict[bytes, re.Match[bytes]], int]] = []
        for entry, body, offset in entries:
            attrs = {a.group("key").lower(): a for a in _NIX_STRING_ATTR.finditer(body)}
            if entry.group("name").strip(b'"') == b"*":
                every = [(k, a.group("value")) for k, a in attrs.items() if k in _HM_KEYS]
            parsed.append((entry, attrs, offset))
        for entry, attrs, offset in parsed:
            spans: list[tuple[int, bytes]] = []
            if b"host" in attrs:  # `host = "pug rex";`: the Host line's patterns instead of the entry's name
                if offset < 0:
                    continue
                host = attrs[b"host"]
                spans = [(offset + w.start(), w.group())
                         for w in _WORD.finditer(host.string, host.start("value"), host.end("value"))]
            else:
                name = entry.group("name")
                base = entry.start("name") + (1 if name.startswith(b'"') else 0)
                spans = [(base + w.start(), w.group()) for w in _WORD.finditer(name.strip(b'"'))]
            keys = [(k, a.group("value")) for k, a in attrs.items() if k in _HM_KEYS]
            keys += [kv for kv in every if kv[0] not in attrs]
            sets_name = any(k == b"hostname" for k, _ in keys)
            for start, word in spans:
                text = word.decode("utf-8", "replace")
                if text not in words:
                    continue
                for key, value in keys:
                    for prefix, suffix, how in _ssh_compositions(_HM_KEYS[key], value, sets_name):
                        yield Composed(start, start + len(word), text, prefix, suffix,
                                       f"{how} of home-manager's matchBlocks")
    if b"ssh_config" in data:
        yield from _ansible_ssh_config(data, words)


_ANSIBLE_SSH = lazy_re.compile(rb"^(?P<indent>[ \t]*)(?:-[ \t]+)?(?:community\.general\.)?ssh_config"
                          rb"[ \t]*:[ \t]*$",
                          re.MULTILINE)
_YAML_ARG = lazy_re.compile(rb"^(?P<indent>[ \t]*)(?P<key>host|hostname|proxycommand|proxyjump)[ \t]*:[ \t]*"
                       rb"(?P<q>[\"']?)(?P<value>[^\"'\r\n#]*)(?P=q)[ \t]*(?:#[^\n]*)?$", re.MULTILINE)


_ANSIBLE_SSH_FLOW = lazy_re.compile(
    rb"(?:community\.general\.)?ssh_config[ \t]*:[ \t]*\{(?P<body>[^}\r\n]*)\}")
_FLOW_ARG = lazy_re.compile(rb"(?:^|[{,])[ \t]*(?P<key>host|hostname|proxycommand|proxyjump)[ \t]*:[ \t]*"
                       rb"(?P<q>[\"']?)(?P<value>[^,\"'}]*)(?P=q)")


def _ansible_ssh_config(data: bytes, words: Collection[str]) -> Iterator[Composed]:
    """Ansible's `community.general.ssh_config` task: `host: pug` and `hostname: "%h.ana.lan"`
    (or `proxycommand`, `proxyjump`) among one task's arguments, a block or a flow mapping."""
    for flow in _ANSIBLE_SSH_FLOW.finditer(data):
        args = list(_FLOW_ARG.finditer(data, flow.start("body") - 1, flow.end("body")))
        yield from _ansible_args({a.group("key"): a for a in args}, words)
    for module in _ANSIBLE_SSH.finditer(data):
        indent = len(module.group("indent"))
        end = len(data)
        for line in re.finditer(rb"^([ \t]*)\S[^\n]*$", data[module.end():], re.MULTILINE):
            if len(line.group(1)) <= indent:
                end = module.end() + line.start()
                break
        args = list(_YAML_ARG.finditer(data, module.end(), end))
        if not args or len({a.group("indent") for a in args}) != 1:
            continue
        yield from _ansible_args({a.group("key"): a for a in args}, words)


def _ansible_args(values: dict[bytes, re.Match[bytes]], words: Collection[str]) -> Iterator[Composed]:
    host = values.get(b"host")
    if host is not None:
        keys = [(k, values[k].group("value")) for k in (b"hostname", b"proxycommand", b"proxyjump")
                if k in values]
        sets_name = b"hostname" in values
        for word in _WORD.finditer(host.string, host.start("value"), host.end("value")):
            text = word.group().decode("utf-8", "replace")
            if text not in words:
                continue
            for key, value in keys:
                for prefix, suffix, how in _ssh_compositions(_HM_KEYS[key], value, sets_name):
                    yield Composed(word.start(), word.end(), text, prefix, suffix,
                                   f"{how} of the same `ssh_config` task")


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
        yield prefix, suffix.rstrip("."), f"`HostName {value}`"  # `%h.ana.lan.`: absolute, the same name
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


_SEARCH = lazy_re.compile(
    rb"^(?P<indent>[ \t]*)(?P<key>dns_search|searches)[ \t]*:[ \t]*(?P<value>[^\r\n#]*)",
                     re.MULTILINE)
_SEARCH_ITEM = lazy_re.compile(rb"[ \t]*-[ \t]*[\"']?(?P<value>[A-Za-z0-9._-]+)")
_DOMAIN = lazy_re.compile(r"[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)+")
_LINE_KEY = lazy_re.compile(rb"[ \t]*(?:-[ \t]*)?(?P<key>[A-Za-z0-9_.-]+)[ \t]*:(?:[ \t]|$)")
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


_ANCHOR = lazy_re.compile(rb"&(?P<name>[A-Za-z0-9_-]+)")
_ANCHOR_FLOW = lazy_re.compile(rb"&(?P<name>[A-Za-z0-9_-]+)[ \t]*\{[^}\r\n]*?(?<![A-Za-z0-9_])dns_search"
                          rb"[ \t]*:[ \t]*"
                          rb"(?P<value>\[[^\]\r\n]*\]|[^,}\s]+)")
_MERGE = lazy_re.compile(rb"^[ \t]*<<[ \t]*:[ \t]*(?P<refs>\*[A-Za-z0-9_-]+|\[[^\]\r\n]*\])", re.MULTILINE)
_CONFIGMAP_REF = lazy_re.compile(rb"configMap(?:Key)?Ref[ \t]*:[ \t]*(?:\{[^}\r\n]*?name[ \t]*:[ \t]*"
                            rb"[\"']?(?P<flow>[A-Za-z0-9._-]+)|$)", re.MULTILINE)


def _compose_search(data: bytes, words: Collection[str]) -> Iterator[Composed]:
    """A bare host word of a compose service whose `dns_search` lists domains, or of a Kubernetes
    pod whose `dnsConfig.searches` does: the resolver tries `pug.ana.lan` (then each next domain)
    before `pug` itself. Break-it round 14 (finding 4): a `dns_search` a service merges from an
    anchor (`<<: *dns`), and a ConfigMap of the same file a pod reads (`envFrom: configMapRef`,
    `configMapKeyRef`)."""
    if b"dns_search" not in data and b"dnsConfig" not in data:
        return
    lines = data.split(b"\n")
    offsets = [0]
    for line in lines[:-1]:
        offsets.append(offsets[-1] + len(line) + 1)
    anchors: dict[bytes, list[str]] = {}  # an anchor whose mapping sets `dns_search`
    for flow in _ANCHOR_FLOW.finditer(data):
        anchors[flow.group("name")] = [d.strip(b" \t\"'").decode("utf-8", "replace")
                                       for d in flow.group("value").strip(b"[]").split(b",")]
    keys_at: dict[int, set[str]] = {}  # each indent's mapping keys: a compose service's name is no lookup
    for line in lines:
        if (m := _LINE_KEY.match(line)) is not None:
            keys_at.setdefault(_indent(line), set()).add(m.group("key").decode("utf-8", "replace"))
    for found in _SEARCH.finditer(data):
        row = bisect.bisect_right(offsets, found.start()) - 1
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
            if scope is not None and (anchor := _ANCHOR.search(lines[scope])) is not None:
                anchors[anchor.group("name")] = domains
        if scope is None:
            continue
        yield from _searched(data, lines, offsets, scope, search_rows, domains, what, words, keys_at)
    for merge in _MERGE.finditer(data):
        row = bisect.bisect_right(offsets, merge.start()) - 1
        refs = [r.strip(b" \t*") for r in merge.group("refs").strip(b"[]").split(b",")]
        domains = next((anchors[r] for r in refs if r in anchors), [])
        scope = _parent(lines, row)
        if domains and all(_DOMAIN.fullmatch(d) for d in domains) and scope is not None:
            what = f"`dns_search: {', '.join(domains)}` the same service merges (`<<:`)"
            yield from _searched(data, lines, offsets, scope, {row}, domains, what, words, keys_at)


_SERVICES = lazy_re.compile(rb"^services[ \t]*:[ \t]*(?:#[^\n]*)?\r?$", re.MULTILINE)


def service_words(data: bytes, service: str, domains: tuple[str, ...], what: str,
                  words: Collection[str]) -> Iterator[Composed]:
    """The bare words of compose service `service` (its keys below `services:`) that a search
    list it takes from elsewhere qualifies: a service it `extends` sets `dns_search`."""
    top = _SERVICES.search(data)
    if top is None:
        return
    lines = data.split(b"\n")
    offsets = [0]
    for line in lines[:-1]:
        offsets.append(offsets[-1] + len(line) + 1)
    row = data.count(b"\n", 0, top.start())
    keys_at: dict[int, set[str]] = {}
    for line in lines:
        if (m := _LINE_KEY.match(line)) is not None:
            keys_at.setdefault(_indent(line), set()).add(m.group("key").decode("utf-8", "replace"))
    indent: int | None = None
    for r in range(row + 1, len(lines)):
        line = lines[r]
        if not line.strip() or line.lstrip().startswith(b"#"):
            continue
        if _indent(line) == 0:
            return
        indent = _indent(line) if indent is None else indent
        key = _LINE_KEY.match(line)
        if _indent(line) == indent and key is not None and key.group("key").decode("utf-8", "replace").strip(
                "\"'") == service:
            yield from _searched(data, lines, offsets, r, set(), list(domains), what, words, keys_at)
            return


def _searched(data: bytes, lines: list[bytes], offsets: list[int], scope: int, search_rows: set[int],
              domains: list[str], what: str, words: Collection[str],
              keys_at: dict[int, set[str]]) -> Iterator[Composed]:
    """The bare words below `scope` (a service, a pod spec) a search list qualifies, and those of
    a ConfigMap of the same file the pod reads."""
    top = _indent(lines[scope])
    # A compose service's name is its own host on the project network, no search needed.
    names = keys_at.get(top, set())
    skip_below: int | None = None  # the column of a key whose values name no looked-up host
    maps: set[bytes] = set()  # the ConfigMaps the pod reads
    for r in range(scope + 1, len(lines)):
        line = lines[r]
        if not line.strip() or line.lstrip().startswith(b"#"):
            continue
        if _indent(line) <= top:
            break
        ref = _CONFIGMAP_REF.search(line) if b"onfigMap" in line else None
        if ref is not None:
            named = ref.group("flow") or _child_name(lines, r)
            if named:
                maps.add(named)
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
    for name in sorted(maps):
        yield from _configmap_words(data, lines, offsets, name, domains, what, words)


def _child_name(lines: list[bytes], row: int) -> bytes | None:
    """The `name:` under a block `configMapRef:` line."""
    for later in lines[row + 1:row + 4]:
        if _indent(later) <= _indent(lines[row]):
            return None
        found = re.match(rb"[ \t]*name[ \t]*:[ \t]*[\"']?(?P<name>[A-Za-z0-9._-]+)", later)
        if found is not None:
            return found.group("name")
    return None


def _configmap_words(data: bytes, lines: list[bytes], offsets: list[int], name: bytes, domains: list[str],
                     what: str, words: Collection[str]) -> Iterator[Composed]:
    """The bare words of the `data:` values of this file's ConfigMap `name`."""
    starts = [0] + [r + 1 for r, line in enumerate(lines) if line.rstrip() == b"---"]
    ends = [s - 1 for s in starts[1:]] + [len(lines)]
    for first, last in zip(starts, ends, strict=True):
        document = lines[first:last]
        if not any(re.match(rb"kind[ \t]*:[ \t]*ConfigMap[ \t]*$", line.rstrip()) for line in document):
            continue
        named = re.compile(rb"[ \t]+name[ \t]*:[ \t]*[\"']?" + re.escape(name) + rb"[\"']?[ \t]*$")
        if not any(named.match(line.rstrip()) for line in document):
            continue
        inside = False
        for r in range(first, last):
            line = lines[r]
            if not line.startswith((b" ", b"\t")) and line.strip():
                inside = line.startswith(b"data:")
                continue
            key = _LINE_KEY.match(line)
            if not inside or key is None:
                continue
            for word in _BARE.finditer(line, key.end()):
                text = word.group().decode("utf-8", "replace")
                if text in words:
                    start = offsets[r] + word.start()
                    yield Composed(start, start + len(word.group()), text, "", f".{domains[0]}",
                                   f"{what}, which reads ConfigMap {name.decode('utf-8', 'replace')}",
                                   tuple(f".{d}" for d in domains[1:]))


_DOCKER_RUN = lazy_re.compile(rb"(?:docker|podman)[ \t]+(?:container[ \t]+)?(?:run|create)[ \t]"
                         rb"(?:[^\r\n\\]|\\\r?\n|\\.)*")
_DNS_SEARCH_FLAG = lazy_re.compile(rb"--dns-search(?:=|[ \t]+)[\"']?(?P<value>[A-Za-z0-9._-]+)")
_ENV_FLAG = lazy_re.compile(rb"(?:^|[ \t])(?:-e|--env)(?:=|[ \t]+)[\"']?[A-Za-z_][A-Za-z0-9_]*="
                       rb"(?P<value>[^\s\"']*)")


def _docker_run_search(data: bytes, words: Collection[str]) -> Iterator[Composed]:
    """Break-it round 14 (finding 5): `docker run --dns-search ana.lan -e DB_HOST=pug`: compose's
    `dns_search` as a flag, over the same command's `-e`/`--env` values (continued lines too)."""
    if b"--dns-search" not in data:
        return
    for command in _DOCKER_RUN.finditer(data):
        domains = [d.group("value").decode("utf-8", "replace")
                   for d in _DNS_SEARCH_FLAG.finditer(data, command.start(), command.end())]
        if not domains or not all(_DOMAIN.fullmatch(d) for d in domains):
            continue
        what = f"`--dns-search {' --dns-search '.join(domains)}` of the same command"
        for env in _ENV_FLAG.finditer(data, command.start(), command.end()):
            yield from _bare_words(data, env.start("value"), env.end("value"), words, domains, what)


_ENV_FILE_FLAG = lazy_re.compile(rb"(?:^|[ \t])--env-file(?:=|[ \t]+)[\"']?(?P<path>[^\s\"']+)")


_QUADLET_SEARCH = lazy_re.compile(rb"^[ \t]*DNSSearch[ \t]*=[ \t]*(?P<value>[^\r\n#]*)", re.MULTILINE)
_QUADLET_ENV = lazy_re.compile(rb"^[ \t]*Environment[ \t]*=(?P<value>[^\r\n]*)", re.MULTILINE)
_QUADLET_ENV_FILE = lazy_re.compile(rb"^[ \t]*EnvironmentFile[ \t]*=[ \t]*-?(?P<path>[^\s#]+)", re.MULTILINE)
_QUADLET_PAIR = lazy_re.compile(rb"\"[A-Za-z_][A-Za-z0-9_]*=(?P<q>[^\"]*)\""
                           rb"|[A-Za-z_][A-Za-z0-9_]*=(?P<v>[^\s\"]*)")


def _quadlet_domains(data: bytes) -> list[str]:
    """A Podman Quadlet `.container` unit's `DNSSearch=` domains (each line one or more), in order."""
    return [d.decode("utf-8", "replace") for found in _QUADLET_SEARCH.finditer(data)
            for d in found.group("value").split()]


def _quadlet_search(data: bytes, words: Collection[str]) -> Iterator[Composed]:
    """A Podman Quadlet unit's `DNSSearch=ana.lan` over its `Environment=DB_HOST=pug` values:
    compose's `dns_search` in systemd's grammar."""
    if b"DNSSearch" not in data or b"Environment" not in data:
        return
    domains = _quadlet_domains(data)
    if not domains or not all(_DOMAIN.fullmatch(d) for d in domains):
        return
    what = f"`DNSSearch={' '.join(domains)}` of the same unit"
    for line in _QUADLET_ENV.finditer(data):
        for pair in _QUADLET_PAIR.finditer(data, line.start("value"), line.end("value")):
            group = "q" if pair.group("q") is not None else "v"
            yield from _bare_words(data, pair.start(group), pair.end(group), words, domains, what)


def docker_run_env_files(data: bytes) -> Iterator[tuple[str, tuple[str, ...]]]:
    """(path, search domains) of each `--env-file` of a `docker run` (podman) that sets
    `--dns-search`, and each `EnvironmentFile=` of a Quadlet unit with `DNSSearch=`: the
    container looks the file's bare values up through the list."""
    if b"DNSSearch" in data and b"EnvironmentFile" in data:
        domains = tuple(_quadlet_domains(data))
        if domains and all(_DOMAIN.fullmatch(d) for d in domains):
            for found in _QUADLET_ENV_FILE.finditer(data):
                yield found.group("path").decode("utf-8", "replace"), domains
    if b"--dns-search" not in data or b"--env-file" not in data:
        return
    for command in _DOCKER_RUN.finditer(data):
        domains = tuple(d.group("value").decode("utf-8", "replace")
                        for d in _DNS_SEARCH_FLAG.finditer(data, command.start(), command.end()))
        if not domains or not all(_DOMAIN.fullmatch(d) for d in domains):
            continue
        for found in _ENV_FILE_FLAG.finditer(data, command.start(), command.end()):
            yield found.group("path").decode("utf-8", "replace"), domains


_NOMAD_DNS = lazy_re.compile(rb"(?<![A-Za-z0-9_])dns[ \t]*\{")
_NOMAD_SEARCHES = lazy_re.compile(rb"(?<![A-Za-z0-9_])searches[ \t]*=[ \t]*\[(?P<value>[^\]]*)\]")
_NOMAD_GROUP = lazy_re.compile(rb"(?<![A-Za-z0-9_])(?P<kind>group|job)[ \t]+\"[^\"\r\n]*\"[ \t]*\{")
_NOMAD_ENV = lazy_re.compile(rb"(?<![A-Za-z0-9_])env[ \t]*\{")
_NOMAD_VALUE = lazy_re.compile(rb"=[ \t]*\"(?P<value>[^\"\r\n]*)\"")


def _nomad_search(data: bytes, words: Collection[str]) -> Iterator[Composed]:
    """Break-it round 14 (finding 5): a Nomad group's `network { dns { searches = [...] } }` over
    the values of its tasks' `env { }` blocks."""
    if b"searches" not in data or b"dns" not in data:
        return
    groups = [(g.start(), _closing(data, g.end() - 1)) for g in _NOMAD_GROUP.finditer(data)
              if g.group("kind") == b"group"]
    for dns in _NOMAD_DNS.finditer(data):
        end = _closing(data, dns.end() - 1)
        searches = _NOMAD_SEARCHES.search(data, dns.end(), end)
        if searches is None:
            continue
        domains = [d.strip(b" \t\r\n\"").decode("utf-8", "replace")
                   for d in searches.group("value").split(b",")]
        domains = [d for d in domains if d]
        if not domains or not all(_DOMAIN.fullmatch(d) for d in domains):
            continue
        scope = next(((start, stop) for start, stop in groups if start < dns.start() < stop), None)
        if scope is None:
            continue
        what = f"`dns {{ searches = [{', '.join(domains)}] }}` of the same group"
        for env in _NOMAD_ENV.finditer(data, scope[0], scope[1]):
            for value in _NOMAD_VALUE.finditer(data, env.end(), _closing(data, env.end() - 1)):
                yield from _bare_words(data, value.start("value"), value.end("value"), words, domains, what)


def _bare_words(data: bytes, start: int, end: int, words: Collection[str], domains: list[str],
                what: str) -> Iterator[Composed]:
    """Each host word standing bare in data[start:end], composed with the first search domain (the
    others tried in turn)."""
    for word in _BARE.finditer(data, start, end):
        text = word.group().decode("utf-8", "replace")
        if text in words:
            yield Composed(word.start(), word.end(), text, "", f".{domains[0]}", what,
                           tuple(f".{d}" for d in domains[1:]))


# A bare name: no name byte or dot-and-label on either side (`pug.ana.lan` is no bare `pug`).
_BARE = lazy_re.compile(rb"(?<![A-Za-z0-9_.-])[A-Za-z0-9_-]+(?![A-Za-z0-9_-]|\.[A-Za-z0-9])")


# dnsmasq's options as command-line flags (break-it round 14, finding 3): a compose `command:`,
# `docker run`, an ExecStart. A value after `=` or a blank; never the short forms (`-s`, `-E`).
_FLAG = lazy_re.compile(rb"(?<![A-Za-z0-9_-])--(?:(?P<key>expand-hosts|no-hosts)(?![A-Za-z0-9_-])|"
                   rb"(?P<vkey>addn-hosts|hostsdir|domain|dhcp-host)(?:=|[ \t]+)(?P<value>[^\s\"',\]\\]+"
                   rb"(?:,[^\s\"'\]\\]+)*))")


def _dnsmasq(data: bytes, words: Collection[str]) -> Iterator[Composed]:
    yield from _uci(data, words)
    yield from _nix_dnsmasq(data, words)
    short = resolver_flags.short_flags(data)  # `-s ana.lan -G aa:bb:cc:dd:ee:ff,pug`
    if b"dhcp-host" not in data and not any(f.key == b"dhcp-host" for f in short):
        return
    domains = [d.group("value").decode() for d in _DNSMASQ_DOMAIN.finditer(data)]
    flags = list(_FLAG.finditer(data)) if b"--d" in data else []
    domains += [f.group("value").split(b",")[0].decode("utf-8", "replace") for f in flags
                if f.group("vkey") == b"domain"]
    domains += [f.value.split(b",")[0].decode("utf-8", "replace") for f in short if f.key == b"domain"]
    if len(set(domains)) != 1:
        return  # none, or several (per range): which one a lease takes cannot be told here
    hosts = [(h.start("value"), h.group("value")) for h in _DNSMASQ_HOST.finditer(data)]
    hosts += [(f.start("value"), f.group("value")) for f in flags if f.group("vkey") == b"dhcp-host"]
    hosts += [(f.start, f.value) for f in short if f.key == b"dhcp-host"]
    for pos, value in hosts:
        for field in value.split(b","):
            text = field.strip().decode("utf-8", "replace")
            if text in words:
                start = pos + field.index(field.strip())
                yield Composed(start, start + len(field.strip()), text, "", f".{domains[0]}",
                               f"`domain={domains[0]}` of the same file")
            pos += len(field) + 1


_UCI_SECTION = lazy_re.compile(rb"^[ \t]*config[ \t]+(?P<type>[A-Za-z0-9_]+)[^\r\n]*$", re.MULTILINE)
_UCI_OPTION = lazy_re.compile(rb"^[ \t]*(?P<kind>option|list)[ \t]+(?P<key>[A-Za-z0-9_]+)[ \t]+"
                         rb"(?P<q>[\"']?)(?P<value>[^\"'\r\n]*)(?P=q)[ \t]*$", re.MULTILINE)


def _uci_sections(data: bytes) -> list[tuple[bytes, list[re.Match[bytes]]]]:
    """OpenWrt UCI's sections: (type, its `option`/`list` lines)."""
    sections = list(_UCI_SECTION.finditer(data))
    out = []
    for i, section in enumerate(sections):
        end = sections[i + 1].start() if i + 1 < len(sections) else len(data)
        out.append((section.group("type"), list(_UCI_OPTION.finditer(data, section.end(), end))))
    return out


def uci_dnsmasq(data: bytes) -> Dnsmasq | None:
    """What OpenWrt's `/etc/config/dhcp` says of its dnsmasq: `option domain`, `option
    expandhosts '1'`, `option nohosts '1'`, `option`/`list addnhosts`; None without a `config
    dnsmasq` section."""
    found = False
    expand = no_hosts = False
    domains: list[str] = []
    addn: list[str] = []
    for kind, options in _uci_sections(data):
        if kind != b"dnsmasq":
            continue
        found = True
        for option in options:
            key, value = option.group("key"), option.group("value").strip().decode("utf-8", "replace")
            if key == b"domain" and value:
                domains.append(value)
            elif key == b"expandhosts":
                expand = value in ("1", "on", "true", "yes", "enabled")
            elif key == b"nohosts":
                no_hosts = value in ("1", "on", "true", "yes", "enabled")
            elif key == b"addnhosts" and value:
                addn += value.split()
    return Dnsmasq(expand, no_hosts, tuple(domains), tuple(addn)) if found else None


def _uci(data: bytes, words: Collection[str]) -> Iterator[Composed]:
    """OpenWrt's `/etc/config/dhcp`: a `config host` section's `option name` is a dhcp-host
    name, which dnsmasq serves with the `config dnsmasq` section's one `option domain`; a `config
    domain` section's is a hosts line, qualified where `option expandhosts '1'`."""
    if b"config dnsmasq" not in data:
        return
    read = uci_dnsmasq(data)
    if read is None or len(set(read.domains)) != 1:
        return
    domain = read.domains[0]
    for kind, options in _uci_sections(data):
        if kind == b"host" or (kind == b"domain" and read.expand_hosts):
            how = (f"`option domain '{domain}'` of the same file" if kind == b"host" else
                   f"`option expandhosts` and `option domain '{domain}'` of the same file")
            for option in options:
                if option.group("key") == b"name":
                    for name in _NAME.finditer(data, option.start("value"), option.end("value")):
                        text = name.group().decode("utf-8", "replace")
                        if text in words:
                            yield Composed(name.start(), name.end(), text, "", f".{domain}", how)


_NIX_DOMAIN = lazy_re.compile(rb"(?:(?<=[\s{;])|(?<=settings\.))domain[ \t]*=[ \t]*"
                         rb"\"(?P<value>[^\"\r\n]*)\"[ \t]*;")
_NIX_DHCP_HOST = lazy_re.compile(rb"(?<![A-Za-z0-9_-])(?:settings\.)?\"?dhcp-host\"?[ \t]*=[ \t]*"
                            rb"(?P<value>\[[^\]]*\]|\"[^\"]*\")")
_NIX_EXPAND = lazy_re.compile(rb"\"?expand-hosts\"?[ \t]*=[ \t]*true")
_NIX_HOSTS = lazy_re.compile(
    rb"networking\.hosts[ \t]*=[ \t]*\{|networking\.hosts\.\"[^\"]*\"[ \t]*=[ \t]*\[")
_NIX_STRING = lazy_re.compile(rb"\"(?P<value>[^\"\r\n]*)\"")


def _nix_dnsmasq(data: bytes, words: Collection[str]) -> Iterator[Composed]:
    """NixOS's `services.dnsmasq.settings` with one `domain`: each `dhcp-host` name (a lease's
    name takes the domain); with `expand-hosts = true`, each name of the same file's
    `networking.hosts` (the /etc/hosts dnsmasq reads) too."""
    if b"dnsmasq" not in data or b"domain" not in data:
        return
    domains = {d.group("value") for d in _NIX_DOMAIN.finditer(data)}
    if len(domains) != 1:
        return
    domain = domains.pop().decode("utf-8", "replace")
    if not _DOMAIN.fullmatch(domain):
        return
    for host in _NIX_DHCP_HOST.finditer(data):
        for string in _NIX_STRING.finditer(data, host.start("value"), host.end("value")):
            pos = string.start("value")
            for field in string.group("value").split(b","):
                text = field.strip().decode("utf-8", "replace")
                if text in words:
                    start = pos + field.index(field.strip())
                    yield Composed(start, start + len(field.strip()), text, "", f".{domain}",
                                   f"`domain = \"{domain}\"` of the same dnsmasq settings")
                pos += len(field) + 1
    if not _NIX_EXPAND.search(data):
        return
    for hosts in _NIX_HOSTS.finditer(data):
        opened = hosts.group().endswith(b"{")
        end = _closing(data, hosts.end() - 1) if opened else data.find(b"]", hosts.end())
        for lst in re.finditer(rb"\[(?P<body>[^\]]*)\]", data[hosts.start():end + 1]):
            base = hosts.start() + lst.start("body")
            for string in _NIX_STRING.finditer(lst.group("body")):
                text = string.group("value").decode("utf-8", "replace")
                if text in words:
                    yield Composed(base + string.start("value"), base + string.end("value"), text, "",
                                   f".{domain}",
                                   f"`expand-hosts` and `domain = \"{domain}\"` of the same file")


@dataclass(frozen=True)
class Dnsmasq:
    """What one dnsmasq configuration file says about the hosts files it reads."""

    expand_hosts: bool
    no_hosts: bool
    domains: tuple[str, ...]  # each `domain=` value (a range's too)
    addn_hosts: tuple[str, ...]  # each `addn-hosts=` path (a file or a folder), each `hostsdir=` folder


_DNSMASQ_LINE = lazy_re.compile(rb"^[ \t]*(?P<key>expand-hosts|no-hosts|addn-hosts|hostsdir|domain)"
                           rb"[ \t]*(?:=[ \t]*(?P<value>[^\r\n#]*))?[ \t]*(?:#[^\n]*)?$", re.MULTILINE)


def dnsmasq(data: bytes) -> Dnsmasq:
    """The `expand-hosts`, `no-hosts`, `domain=`, `addn-hosts=` and `hostsdir=` lines of a dnsmasq file."""
    expand = no_hosts = False
    domains: list[str] = []
    addn: list[str] = []
    lines = [(f.group("key"), f.group("value")) for f in _DNSMASQ_LINE.finditer(data)]
    if b"--" in data:  # command-line flags (a compose `command:`, an ExecStart)
        lines += [(f.group("key") or f.group("vkey"), f.group("value")) for f in _FLAG.finditer(data)]
    lines += [(f.key, f.value) for f in resolver_flags.short_flags(data)]  # `-s ana.lan -E`
    for key, raw in lines:
        value = (raw or b"").strip().decode("utf-8", "replace")
        if key == b"expand-hosts":
            expand = True
        elif key == b"no-hosts":
            no_hosts = True
        elif key == b"domain" and value:
            domains.append(value.split(",")[0].strip())
        elif key in (b"addn-hosts", b"hostsdir") and value:
            addn.append(value)
    return Dnsmasq(expand, no_hosts, tuple(domains), tuple(addn))


_HOSTS_LINE = lazy_re.compile(
    rb"^[ \t]*(?P<address>[0-9A-Fa-f:.]+(?:%[A-Za-z0-9]+)?)[ \t]+(?P<names>[^\r\n#]*)",
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


_ENV_LINE = lazy_re.compile(
    rb"^[ \t]*(?:export[ \t]+)?[A-Za-z_][A-Za-z0-9_.-]*[ \t]*=[ \t]*(?P<value>[^\r\n#]*)",
                       re.MULTILINE)


def env_names(data: bytes, words: Collection[str], domains: tuple[str, ...], how: str) -> Iterator[Composed]:
    """Each bare host word of an env file's values (`DB_HOST=pug`) that a search list qualifies
    (break-it round 14, finding 4: a compose service's `env_file` beside its `dns_search`)."""
    for line in _ENV_LINE.finditer(data):
        for word in _BARE.finditer(data, line.start("value"), line.end("value")):
            text = word.group().decode("utf-8", "replace")
            if text in words:
                yield Composed(word.start(), word.end(), text, "", f".{domains[0]}", how,
                               tuple(f".{d}" for d in domains[1:]))


def search_domains(value: object) -> tuple[str, ...]:
    """A compose `dns_search` value's domains (a string or a list), or () where one is no
    literal domain (a variable)."""
    items = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    domains = tuple(str(d).strip() for d in items)
    return domains if domains and all(_DOMAIN.fullmatch(d) for d in domains) else ()


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


# A DNS record written as its zone and a name relative to it (break-it round 15, finding 1):
# Terraform's hashicorp/dns resources (`zone = "ana.lan."`, `name = "pug"` in one block) and an
# OctoDNS zone file (`config/ana.lan.yaml`, whose top-level keys are names in that zone).
_DNS_RESOURCE = lazy_re.compile(rb'resource[ \t]+"dns_[a-z_]+"[ \t]+"[^"\r\n]*"[ \t]*\{')
_HCL_STRING = lazy_re.compile(rb'^[ \t]*(?P<key>zone|name)[ \t]*=[ \t]*"(?P<value>[^"\r\n]*)"', re.MULTILINE)
_ZONE_NAME = lazy_re.compile(r"(?:^|/)(?P<zone>[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)\.ya?ml$")
_TOP_KEY = lazy_re.compile(rb"^(?P<q>['\"]?)(?P<key>[A-Za-z0-9_*-][A-Za-z0-9_.*-]*)(?P=q)[ \t]*:[ \t]*"
                      rb"(?:#[^\n]*)?\r?$", re.MULTILINE)


def _dns_records(data: bytes, words: Collection[str]) -> Iterator[Composed]:
    if b'"dns_' not in data:
        return
    for block in _DNS_RESOURCE.finditer(data):
        body = data[block.end() - 1:_closing(data, block.end() - 1)]
        values = {m.group("key"): m for m in _HCL_STRING.finditer(body)}
        zone, name = values.get(b"zone"), values.get(b"name")
        if zone is None or name is None:
            continue
        word = name.group("value").decode("utf-8", "replace")
        if word not in words:
            continue
        domain = zone.group("value").decode("utf-8", "replace").rstrip(".")
        at = block.end() - 1 + name.start("value")
        yield Composed(at, at + len(name.group("value")), word, "", f".{domain}",
                       f'`zone = "{zone.group("value").decode("utf-8", "replace")}"` of the same record')


def relative_names(rel: str, data: bytes) -> list[tuple[int, int, str, str]]:
    """The names written relative to a zone that the file gives (start, end, name, zone): a
    Terraform hashicorp/dns record's `name` beside a literal `zone`, an OctoDNS zone file's
    top-level keys (`'*.pug'`, `_acme-challenge.pug`). Where a name lies under a renamed host
    (`*.pug` in zone ana.lan.), sweep/subdomains.py reads it as the same name written whole."""
    out = []
    if b'"dns_' in data:
        for block in _DNS_RESOURCE.finditer(data):
            body = data[block.end() - 1:_closing(data, block.end() - 1)]
            values = {m.group("key"): m for m in _HCL_STRING.finditer(body)}
            zone, name = values.get(b"zone"), values.get(b"name")
            if zone is None or name is None or not _DOMAIN.fullmatch(
                    zone.group("value").decode("utf-8", "replace").rstrip(".")):
                continue
            at = block.end() - 1 + name.start("value")
            out.append((at, at + len(name.group("value")), name.group("value").decode("utf-8", "replace"),
                        zone.group("value").decode("utf-8", "replace").rstrip(".")))
    if rel.endswith((".yaml", ".yml")):
        octo = zone_file(rel, data)
        if octo is not None:
            out += [(key.start("key"), key.end("key"), key.group("key").decode("utf-8", "replace"), octo)
                    for key in _TOP_KEY.finditer(data)]
    return out


def zone_file(rel: str, data: bytes) -> str | None:
    """The zone an OctoDNS zone file (`config/ana.lan.yaml`: records under their relative names,
    each with a `type:`) holds the names of; None for any other file."""
    found = _ZONE_NAME.search(rel)
    if found is None or not re.search(rb"(?m)^[ \t]+-?[ \t]*type[ \t]*:[ \t]*[A-Z]", data):
        return None
    return found.group("zone")


def zone_names(data: bytes, words: Collection[str], zone: str, rel: str) -> Iterator[Composed]:
    """The top-level keys of an OctoDNS zone file: names relative to its zone."""
    for key in _TOP_KEY.finditer(data):
        word = key.group("key").decode("utf-8", "replace")
        if word in words:
            yield Composed(key.start("key"), key.end("key"), word, "", f".{zone}",
                           f"the zone of {rel} (an OctoDNS zone file: its keys are names in {zone})")
