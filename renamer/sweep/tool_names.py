"""A host word a tool composes with a domain it keeps apart follows only where the name does
(break-it round 8, finding 7; the grammar is renamer/tool_names.py).

`Host pug` + `HostName %h.ana.lan`, compose's `hostname: pug` + `domainname: ana.lan`, dnsmasq's
`dhcp-host=...,pug` + `domain=ana.lan` and a systemd instance `check@pug.service` of a template
holding `%i.ana.lan` each make pug.ana.lan. Where the renames take that name elsewhere than the
rewritten word and the kept domain make (`pug.ana.lan -> wolf.fv.lan` while the tool would build
wolf.ana.lan), the word is a `composed-name` residual, not rewritten (nor the instance's path
renamed), its note naming the composed name; a word already new that builds such a name (a sweep
before this rule) is the same residual, so verify fails until a person decides. Where the
composition makes the new name, the plain rules rewrite the word as ever.
"""

from __future__ import annotations

import fnmatch
import os
import posixpath
import subprocess
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from itertools import chain
from pathlib import Path

from renamer import lazy_re, pihole_names, resolver_flags, tool_names
from renamer.occurrences import Match
from renamer.sweep.content import read_content

REASON = "composed-name"


def _expect(renamed: dict[str, str], news: dict[str, str], word: str, prefix: str,
            suffix: str) -> tuple[str, str, str] | None:
    """(the name the tool made before the sweep, the name it should make, the name it makes after
    it), or None where the renames say nothing of the name it made."""
    source = word if word in renamed else news.get(word, word)
    full = f"{prefix}{source}{suffix}"
    tail = suffix[1:] if suffix.startswith(".") else ""
    if full in renamed:
        expected = renamed[full]
    elif not prefix and source in renamed and tail:
        expected = f"{renamed[source]}.{renamed.get(tail, tail)}"
    else:
        return None
    return full, expected, _made(renamed, source, prefix, suffix)


def _made(renamed: dict[str, str], source: str, prefix: str, suffix: str) -> str:
    """The name the tool makes once the renames are written: the word's, and a domain's too."""
    tail = suffix[1:] if suffix.startswith(".") else ""
    return f"{prefix}{renamed.get(source, source)}{'.' + renamed.get(tail, tail) if tail else suffix}"


def _built(renamed: dict[str, str], news: dict[str, str], word: str, prefix: str,
           suffix: str, others: tuple[str, ...] = ()) -> tuple[str, str, str] | None:
    """(the name the tool made before the sweep, the name it should make, the name it makes after
    it) where those differ, else None. `others`: further suffixes tried in turn (a resolver's
    search list): the name is made where any of them makes it."""
    tried = [_expect(renamed, news, word, prefix, s) for s in (suffix, *others)]
    # The name the renames spell (pug.ana.lan) is the one the list finds, whichever domain comes first.
    first = next((t for t in tried if t is not None and t[0] in renamed), None) or next(
        (t for t in tried if t is not None), None)
    if first is None:
        return None
    source = word if word in renamed else news.get(word, word)
    if any(_made(renamed, source, prefix, s) == first[1] for s in (suffix, *others)):
        return None
    return first


def tool_name_matches(data: bytes, matches: list[Match], hosts: tuple[tuple[str, str], ...]) -> list[Match]:
    """`matches` with each host word a tool composes into a name the sweep would break refused."""
    if not tool_names.might_hold(data):
        return matches
    words = _words(hosts)
    found = chain(tool_names.composed(data, words), pihole_names.composed(data, words))
    return _refused(found, matches, hosts)


def _words(hosts: tuple[tuple[str, str], ...]) -> set[str]:
    """The bare host words, old and new, a tool may compose with a domain."""
    return {w for pair in hosts for w in pair if "." not in w}


def _refused(found_all: Iterable[tool_names.Composed], matches: list[Match],
             hosts: tuple[tuple[str, str], ...]) -> list[Match]:
    """`matches` with each composition in `found_all` whose name the sweep would break refused
    (a residual added where no match stands on the word: it is new already)."""
    renamed = dict(hosts)
    news = {new: old for old, new in hosts}
    out = list(matches)
    added: list[Match] = []
    for found in found_all:
        built = _built(renamed, news, found.word, found.prefix, found.suffix, found.others)
        if built is None:
            continue
        full, expected, after = built
        if found.word in renamed:
            note = (f"`{found.word}` makes {full} with {found.how} (renamed {expected}); rewritten alone it "
                    f"would make {after}, a name that does not exist: rename the pair by hand (or keep the "
                    "line with a keep rule or the inline marker)")
        else:  # a sweep before this rule rewrote the word alone
            note = (f"`{found.word}` makes {after} with {found.how}, a name that does not exist: the host "
                    f"was {full}, renamed {expected}: write the pair by hand")
        inside = [i for i, m in enumerate(out) if m.start < found.end and found.start < m.end]
        if any(out[i].refused is not None or out[i].kept is not None for i in inside):
            continue
        for i in inside:
            out[i] = replace(out[i], refused=REASON, note=note)
        if not inside and not any(a.start == found.start for a in added):
            new = renamed.get(found.word, found.word)
            added.append(Match(found.start, found.end, found.word, new, "host", refused=REASON, note=note))
    if not added and out == matches:
        return matches
    return sorted([*out, *added], key=lambda m: m.start)


def instance_note(root: Path, rel: str, hosts: tuple[tuple[str, str], ...]) -> str | None:
    """Why the systemd instance link `rel` (`wants/check@pug.service -> ../check@.service`) keeps
    its name: its template makes a name from the instance (`%i.ana.lan`) that the rename would
    break; None where it may follow (no template, nothing composed, or the new name made)."""
    base = os.path.basename(rel)
    if "@" not in base:
        return None
    unit, _, rest = base.partition("@")
    instance, dot, kind = rest.rpartition(".")
    if not dot or not instance:
        return None
    path = root / rel
    try:
        target = os.readlink(path)
    except OSError:
        return None
    template = (path.parent / target).resolve() if not os.path.isabs(target) else Path(target)
    if tool_names.template_unit(template.name) != (unit, kind):
        return None
    try:
        resolved = template.relative_to(root.resolve())
        data = (root / resolved).read_bytes()
    except (OSError, ValueError):
        return None
    renamed = dict(hosts)
    news = {new: old for old, new in hosts}
    for _start, _end, suffix in tool_names.template_suffixes(data):
        built = _built(renamed, news, instance, "", suffix)
        if built is not None:
            full, expected, after = built
            return (f"the instance {unit}@{instance}.{kind} of {resolved.as_posix()} makes {full} from "
                    f"`%i{suffix}` (renamed {expected}); renamed alone it would make {after}, a name that "
                    "does not exist: rename the instance and the template's domain by hand")
    return None


class Templates:
    """The repo's systemd template units (`check@.service`) and what each composes from its
    instance (`%i.ana.lan`), listed once (lazily) per scanner, where an instance is named."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._units: dict[str, list[tuple[str, str]]] | None = None  # unit -> (template path, suffix)

    def units(self) -> dict[str, list[tuple[str, str]]]:
        if self._units is None:
            self._units = {}
            kinds = ("service", "socket", "timer", "path", "mount")
            try:
                command = ["git", "-C", str(self.root), "ls-files", "-z", "-co", "--exclude-standard", "--",
                           *(f"*@.{k}" for k in kinds)]
                done = subprocess.run(command, capture_output=True, check=True)
            except (OSError, subprocess.CalledProcessError):
                return self._units
            for rel in sorted(os.fsdecode(p) for p in done.stdout.split(b"\0") if p):
                named = tool_names.template_unit(rel)
                try:
                    data = (self.root / rel).read_bytes()
                except OSError:
                    continue
                if named is not None:
                    for _s, _e, suffix in tool_names.template_suffixes(data):
                        self._units.setdefault(named[0], []).append((rel, suffix))
        return self._units


def instance_matches(data: bytes, matches: list[Match], hosts: tuple[tuple[str, str], ...],
                     templates: Templates) -> list[Match]:
    """`systemctl start check@pug.service` in a script: the instance name of a template that makes
    `%i.ana.lan`, refused where the rename would break that name, as the instance link is."""
    after_at = [i for i, m in enumerate(matches) if data[m.start - 1:m.start] == b"@" and m.refused is None
                and m.kept is None and m.kind == "host"]
    if not after_at or not templates.units():
        return matches
    renamed = dict(hosts)
    news = {new: old for old, new in hosts}
    out = list(matches)
    for i in after_at:
        m = out[i]
        unit = _UNIT_BEFORE.search(data, max(0, m.start - 128), m.start - 1)
        if unit is None or unit.group().decode("utf-8", "replace") not in templates.units():
            continue
        name = unit.group().decode("utf-8", "replace")
        for rel, suffix in templates.units()[name]:
            built = _built(renamed, news, m.old, "", suffix)
            if built is not None:
                full, expected, after = built
                out[i] = replace(m, refused=REASON, note=(
                    f"`{name}@{m.old}` is an instance of {rel}, which makes {full} from `%i{suffix}` "
                    f"(renamed {expected}); renamed alone it would make {after}, a name that does not exist: "
                    "rename the instance and the template's domain by hand"))
                break
    return out


_UNIT_BEFORE = lazy_re.compile(rb"[A-Za-z0-9:_.\\-]+\Z")


def expanded_hosts(root: Path, files: Sequence[str], limit: int,
                   record: Callable[[str], bool] = lambda rel: False) -> tuple[tuple[str, str, str], ...]:
    """(hosts file, domain, configuration) for each of the repo's hosts files that a dnsmasq
    configuration reads with `expand-hosts` (break-it round 9, finding 7): `addn-hosts=` files
    and folders, `hostsdir=` folders, and /etc/hosts unless `no-hosts`, each qualified with the
    configuration's one `domain=`. Read from the paths alone (no subprocess): a configuration is
    a file whose path names dnsmasq (`dnsmasq.conf`, `dnsmasq.d/lab.conf`,
    `roles/dnsmasq/templates/x.j2`) and holds `expand-hosts`; a record (a backup) is none.

    A configuration's files: that file, the `dnsmasq.conf` beside it and the files of the
    `dnsmasq.d` folder beside that (or the folder it is in). Its `/etc` is the folder of that
    `dnsmasq.conf`: `/etc/hosts` is the `hosts` there (a `hosts` elsewhere is another machine's),
    `/etc/x` its `x`; a path not found there is the repo's file (or the files of the folder)
    ending with the most of its components.
    """
    listed = set(files)
    out: dict[str, tuple[str, str]] = {}
    for conf in sorted(rel for rel in files if _may_configure(rel) and not record(rel)):
        data = _read(root, conf, limit)
        if data is None:
            continue
        folder = posixpath.dirname(conf)
        mounts: dict[str, str] = {}
        # flags: `--expand-hosts`, or `-E` on a dnsmasq command line (tool_names.dnsmasq reads both)
        flagged = b"--expand-hosts" in data or (
            b"dnsmasq" in data and any(f.key == b"expand-hosts" for f in resolver_flags.short_flags(data)))
        if "dnsmasq" in conf.lower() and b"expand-hosts" in data and not flagged:
            etc = posixpath.dirname(folder) if posixpath.basename(folder) == "dnsmasq.d" else folder
            snippets = posixpath.join(etc, "dnsmasq.d") + "/"
            group = {conf, posixpath.join(etc, "dnsmasq.conf")} | {
                rel for rel in listed if rel.startswith(snippets) and "/" not in rel[len(snippets):]}
            read = [tool_names.dnsmasq(d) for rel in sorted(group & listed)
                    if (d := _read(root, rel, limit)) is not None]
        elif flagged:  # flags: the container's /etc is no folder here but its mounts
            etc, read = folder, [tool_names.dnsmasq(data)]
            mounts = _mounts(data, folder)
        elif conf.endswith("config/dhcp") and (uci := tool_names.uci_dnsmasq(data)) is not None:
            etc, read = posixpath.dirname(folder), [uci]  # OpenWrt's etc/config/dhcp
        else:
            continue
        if not any(r.expand_hosts for r in read):
            continue
        domains = {d for r in read for d in r.domains}
        if len(domains) != 1:
            continue  # none, or several (per range): which one a name takes cannot be told here
        domain = domains.pop()
        paths = [p for r in read for p in r.addn_hosts]
        if not any(r.no_hosts for r in read) and not mounts and not flagged:
            paths.append("/etc/hosts")
        for path in paths:
            mounted = _mounted(mounts, path, listed, files)
            for rel in mounted if mounted is not None else _resolve(files, listed, etc, path):
                out.setdefault(rel, (domain, conf))
    return tuple((rel, domain, conf) for rel, (domain, conf) in sorted(out.items()))


# Where a configuration may stand (break-it round 14, finding 3): a path naming dnsmasq, and the
# files that start one with flags (compose, a unit, a script) or OpenWrt's etc/config/dhcp.
_COMPOSE_NAME = lazy_re.compile(r"(?:^|[/._-])(?:docker-)?compose(?:\.[^/]*)?\.ya?ml$")


def _may_configure(rel: str) -> bool:
    lower = rel.lower()
    return ("dnsmasq" in lower or bool(_COMPOSE_NAME.search(lower)) or lower.endswith("config/dhcp")
            or lower.endswith((".service", ".sh", ".container")))


_VOLUME = lazy_re.compile(rb"[\s\"'\[,-](?P<source>\.{1,2}/[^:\s\"']*|\.):(?P<target>/[^:\s\"',\]]+)")


def _mounts(data: bytes, folder: str) -> dict[str, str]:
    """A compose file's (or `docker run -v`'s) bind mounts: container path -> repo path."""
    out = {}
    for found in _VOLUME.finditer(data):
        source = posixpath.normpath(posixpath.join(folder, found.group("source").decode("utf-8", "replace")))
        out[found.group("target").decode("utf-8", "replace").rstrip("/")] = "" if source == "." else source
    return out


def _mounted(mounts: dict[str, str], path: str, listed: set[str], files: Sequence[str]) -> list[str] | None:
    """The repo's files a container path stands for through a bind mount, or None (no mount)."""
    path = path.rstrip("/")
    for target, source in sorted(mounts.items(), key=lambda kv: -len(kv[0])):
        if path == target or path.startswith(target + "/"):
            rel = posixpath.normpath(posixpath.join(source, path[len(target):].lstrip("/"))) if source else \
                path[len(target):].lstrip("/")
            if rel in listed:
                return [rel]
            return [f for f in files if f.startswith(rel + "/")]
    return None


def _read(root: Path, rel: str, limit: int) -> bytes | None:
    content = read_content(f"{root}/{rel}", limit)
    return content.data if content is not None and content.kind == "text" else None


def _resolve(files: Sequence[str], listed: set[str], etc: str, path: str) -> list[str]:
    """The repo's files that dnsmasq's `path` (a file, or a folder of them) stands for."""
    parts = [p for p in path.split("/") if p and p != "."]
    if not parts:
        return []
    if path.startswith("/etc/") and len(parts) > 1:
        local = posixpath.join(etc, *parts[1:])
        if local in listed:
            return [local]
        inside = [rel for rel in files if rel.startswith(local + "/")]
        if inside:
            return inside
    if path == "/etc/hosts":
        return []  # only the one beside its configuration: a `hosts` elsewhere is another machine's
    name = parts[-1]

    def common(rel: str) -> int:
        """How many of the path's last components the file (or its folder) ends with; 0: none."""
        held = rel.split("/")
        if held[-1] != name:  # a file of a folder named so: the folder's components
            if name not in held[:-1]:
                return 0
            held = held[:len(held) - 1 - held[-2::-1].index(name)]
        n = 0
        while n < min(len(held), len(parts)) and held[-1 - n] == parts[-1 - n]:
            n += 1
        return n

    scored = [(common(rel), rel) for rel in files]
    best = max((n for n, _ in scored), default=0)
    return [rel for n, rel in scored if n == best] if best else []


def ssh_included(root: Path, files: Sequence[str], limit: int,
                 record: Callable[[str], bool] = lambda rel: False) -> tuple[tuple[str, str], ...]:
    """(ssh config, the config that includes it) for each of the repo's files an ssh config
    reads for every host through `Include` (break-it round 14, finding 1): the including file's
    `Host *` composes the included `Host pug`, and the reverse. A config is a file whose path
    names ssh; a relative pattern (or one under `~/.ssh/`, `/etc/ssh/`) is read from its folder."""
    listed = set(files)
    out: dict[str, str] = {}
    for conf in sorted(rel for rel in files if "ssh" in rel.lower() and not record(rel)):
        data = _read(root, conf, limit)
        if data is None:
            continue
        for _start, _end, patterns in tool_names.ssh_includes(data):
            for included in ssh_included_files(files, listed, conf, patterns):
                if included != conf:
                    out.setdefault(included, conf)
    return tuple(sorted(out.items()))


def ssh_included_files(files: Sequence[str], listed: set[str], conf: str, patterns: list[str]) -> list[str]:
    """The repo's files an `Include` line's patterns name, in ssh's order (each glob sorted)."""
    out = []
    for pattern in patterns:
        for prefix in ("~/.ssh/", "/etc/ssh/"):
            if pattern.startswith(prefix):
                pattern = pattern[len(prefix):]
        if pattern.startswith(("/", "~")):
            continue
        full = posixpath.normpath(posixpath.join(posixpath.dirname(conf), pattern))
        if not any(c in full for c in "*?["):
            out += [full] if full in listed else []
            continue
        depth = full.count("/")
        out += sorted(rel for rel in files if rel.count("/") == depth and fnmatch.fnmatchcase(rel, full))
    return out


def ssh_include_matches(root: Path, data: bytes, rel: str, matches: list[Match],
                        hosts: tuple[tuple[str, str], ...], includes: dict[str, str],
                        limit: int) -> list[Match]:
    """An ssh config's words composed by the text ssh reads with its includes (ssh_included):
    refused where the rename would break the name."""
    includer = includes.get(rel, rel if rel in includes.values() else None)
    if includer is None:
        return matches
    own = data if includer == rel else _read(root, includer, limit)
    if own is None:
        return matches
    parts: list[tuple[str, bytes]] = []
    at = 0
    listed = list(includes)
    for _start, end, patterns in tool_names.ssh_includes(own):
        stop = end + 1 if own[end:end + 1] == b"\n" else end
        parts.append((includer, own[at:stop]))  # the Include line too: each piece where it stands
        if stop == end:
            parts.append(("", b"\n"))
        for included in ssh_included_files(listed, set(listed), includer, patterns):
            if includes.get(included) == includer:
                text = data if included == rel else _read(root, included, limit)
                parts.append((included, text or b""))
                parts.append(("", b"\n"))
        at = stop
    parts.append((includer, own[at:]))
    return _refused(tool_names.ssh_view(_words(hosts), parts, rel), matches, hosts)


def env_file_matches(data: bytes, rel: str, matches: list[Match], hosts: tuple[tuple[str, str], ...],
                     files: dict[str, tuple[tuple[str, ...], str]]) -> list[Match]:
    """An env file's bare values a compose service's search list qualifies (sweep/compose_search.py):
    refused where the rename would break the name the container looks up."""
    read = files.get(rel)
    if read is None:
        return matches
    domains, conf = read
    how = f"`dns_search: {', '.join(domains)}` of the service of {conf} that reads this file (`env_file`)"
    return _refused(tool_names.env_names(data, _words(hosts), domains, how), matches, hosts)


def service_matches(data: bytes, matches: list[Match], hosts: tuple[tuple[str, str], ...],
                    services: Iterable[tuple[str, tuple[str, ...], str]]) -> list[Match]:
    """A compose service's bare values a search list it takes through `extends` qualifies
    (sweep/compose_search.py): refused where the rename would break the name looked up."""
    for service, domains, how in services:
        found = tool_names.service_words(data, service, domains, how, _words(hosts))
        matches = _refused(found, matches, hosts)
    return matches


def hosts_file_matches(data: bytes, rel: str, matches: list[Match], hosts: tuple[tuple[str, str], ...],
                       files: dict[str, tuple[str, str]]) -> list[Match]:
    """A hosts file's bare names that dnsmasq qualifies with its domain (`expand-hosts`, the
    files from expanded_hosts): refused where the rename would break the name it serves."""
    read = files.get(rel)
    if read is None:
        return matches
    domain, conf = read
    how = f"`expand-hosts` and `domain={domain}` of {conf}, which reads this file"
    return _refused(tool_names.hosts_names(data, _words(hosts), domain, how), matches, hosts)


def zone_file_matches(data: bytes, rel: str, matches: list[Match],
                      hosts: tuple[tuple[str, str], ...]) -> list[Match]:
    """An OctoDNS zone file's names (`pug:` in `config/ana.lan.yaml`): refused where the rename
    would publish the new word in the old zone (break-it round 15, finding 1)."""
    if not rel.endswith((".yaml", ".yml")):
        return matches
    zone = tool_names.zone_file(rel, data)
    if zone is None:
        return matches
    return _refused(tool_names.zone_names(data, _words(hosts), zone, rel), matches, hosts)
