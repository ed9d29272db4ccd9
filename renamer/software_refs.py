"""A host named after its software, followed into the software's own names (break-it round 24,
findings 04, 11, 22, 24, 25).

`nginx -> proxy01`, `postgres -> db01`, `traefik -> proxy01`, `vault -> secrets`: the short name is
also the software's, and the sweep followed it into names that are no host's:

* a URL scheme (`postgres://app@postgres:5432/app`, `redis+tls://`): kept `scheme` (the host after
  `://` still follows);
* an npm scope (`npm install @grafana/ui`, `"@grafana/ui": "^10"`), and a code module named after it
  (a Go import `"code.gitea.io/sdk/gitea"` and its qualifier `gitea.NewClient(`, a Python
  `import grafana` and `grafana.Client`): kept `package`;
* a Kubernetes API group (`apiVersion: grafana.integreatly.org/v1beta1`, `apiGroup:`,
  `apiGroups: [...]`): the CRD's name, kept `api-group`;
* a label or annotation key (`traefik.enable=true`, `homepage.group: Media`,
  `nginx.ingress.kubernetes.io/rewrite-target:` under `labels:`/`annotations:`, `--label`, a
  Dockerfile `LABEL`): the software's configuration namespace, kept `label-key` (the value still
  follows: `homepage.href=http://homepage:3000/`);
* a package, a service, a system user or group: the `name:` of Ansible's package and service
  modules (`apt`, `package`, `dnf`, `yum`, `apk`, `pip`, `service`, `systemd`, `user`, `group`),
  `owner:`/`group:`/`become_user:`, nginx's and php-fpm's `user`, systemd `User=`/`Group=`, the
  user and database columns of pg_hba.conf, a systemd unit `vault.service`: kept `software`;
* the software's command (`nginx -t`, `vault token create`, `sudo vault kv get`): the first word
  of a command (a shell script's line, `command:`/`shell:`/`RUN`/`ExecStart=`, after `&&`, `|`,
  `;`, `$(`, `sudo`) followed by an option or a sub-command: kept `software`;
* a software's name (image_refs.WELL_KNOWN, or an image's of the file) as a container's or a port's
  name inside a Kubernetes object (`containers: - name: grafana`, which an
  operator merges its own container by; `ports: - name:`, a ServiceMonitor's `port: grafana`, a
  Service's `targetPort:`): names inside the object, no host; kept `container-port`;
* a common noun in prose (`perhaps from a vault`, `the hashicorp vault`): after `a`/`an` or a
  vendor's name: kept `prose-noun`.

Pure: bytes and names in, spans out.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from renamer import image_refs, lazy_re

SCHEME = "scheme"
PACKAGE = "package"
API_GROUP = "api-group"
LABEL_KEY = "label-key"
SOFTWARE = "software"
NOUN = "prose-noun"
INSIDE = "container-port"

_MODULES = (rb"(?P<fq>ansible\.builtin\.|community\.general\.|ansible\.posix\.)?"
            rb"(?:apt|package|dnf|yum|apk|pacman|zypper|pip|homebrew|snap|service|systemd|systemd_service"
            rb"|user|group)")
_VENDORS = (rb"hashicorp|grafana[ \t]+labs|elastic|apache|oracle|microsoft|docker|influxdata"
            rb"|traefik[ \t]+labs|canonical|redis[ \t]+labs|mongodb[ \t]+inc\.?|gitlab[ \t]+inc\.?")
_SUDO = rb"(?:sudo(?:[ \t]+-[A-Za-z]+(?:[ \t]+[A-Za-z0-9_-]+)?)*[ \t]+|exec[ \t]+)"
# what follows a command: an option or a lower-case sub-command (`-t`, `token create`)
_ARGS = rb"(?=[ \t]+(?:-{1,2}[A-Za-z]|[a-z][a-z-]*(?:[ \t]|\r?$)))"
_VALUE_END = rb"(?=[\"']?(?:[ \t]*(?:[,}\]#\r\n]|$)))"


@functools.lru_cache(maxsize=64)
def _regexes(names: frozenset[str]) -> tuple[tuple[re.Pattern[bytes], str, str], ...]:
    alt = b"(?:" + b"|".join(re.escape(n.encode()) for n in sorted(names, key=len, reverse=True)) + b")"
    name = rb"(?P<n>" + alt + rb")"
    word = rb"(?<![A-Za-z0-9_.@/-])" + name
    return (
        (re.compile(word + rb"(?=(?:\+[A-Za-z0-9.-]+)?://)", re.I), SCHEME, "a URL scheme (`NAME://`)"),
        (re.compile(rb"(?<![A-Za-z0-9_.@/-])@" + name + rb"(?=/[a-z0-9][a-z0-9._-]*)"), PACKAGE,
         "an npm scope (`@NAME/`): the registry's namespace"),
        (re.compile(rb"(?m)^[ \t]*(?:-[ \t]+)?[\"']?(?:apiVersion|apiGroup)[\"']?[ \t]*:[ \t]*[\"']?"
                    rb"(?:[A-Za-z0-9-]+\.)*" + name + rb"(?=[A-Za-z0-9.-]*(?:/|[\"']?[ \t]*(?:#|\r?$)))"),
         API_GROUP, "a Kubernetes API group (a CRD's name)"),
        (re.compile(rb"(?m)^[ \t]*(?:User=|Group=|(?:user|group|listen\.owner|listen\.group"
                    rb"|cache_effective_user|cache_effective_group|remote_user|become_user)[ \t]*[ =:][ \t]*)"
                    rb"[\"']?"
                    + name + rb"(?=[\"']?[ \t]*(?:;|\r?$|#)|[ \t]+" + alt + rb"[ \t]*;)"),
         SOFTWARE, "a system user (`user NAME;`, `User=`)"),
        (re.compile(rb"(?m)^[ \t]*user[ \t]+[A-Za-z0-9_-]+[ \t]+" + name + rb"(?=[ \t]*;)"),
         SOFTWARE, "a system group (nginx's `user USER NAME;`)"),
        (re.compile(rb"(?m)(?:^|[{,][ \t]*|[ \t])[\"']?(?:owner|group|become_user)[\"']?[ \t]*[:=]"
                    rb"[ \t]*[\"']?" + name + _VALUE_END),
         SOFTWARE, "a system user or group (`owner:`, `group:`)"),
        (re.compile(word + rb"(?=\.(?:service|socket|timer|target|path)(?![A-Za-z0-9_.-]))"), SOFTWARE,
         "a systemd unit (`NAME.service`)"),
        (re.compile(rb"(?m)(?:(?:^[ \t]*(?:-[ \t]+)?(?:(?:ansible\.builtin\.)?(?:command|shell|raw|cmd)"
                    rb"|Exec(?:Start|StartPre|StartPost|Reload|Stop)|RUN|CMD|ENTRYPOINT|script)[ \t]*[:=]?"
                    rb"[ \t]*[\"'\[]?[ \t]*|(?:&&|\|\||;|\$\()[ \t]*|^[ \t]*\$[ \t]+)" + _SUDO + rb"?"
                    rb"|\bsudo(?:[ \t]+-[A-Za-z]+(?:[ \t]+[A-Za-z0-9_-]+)?)*[ \t]+)"
                    + name + _ARGS), SOFTWARE, "the software's command (`NAME` as a command's first word)"),
        (re.compile(rb"(?<![A-Za-z0-9_-])(?:systemctl(?:[ \t]+-\S+)*[ \t]+(?:start|stop|restart|reload|enable"
                    rb"|disable|status|is-active|mask|unmask|try-restart|reload-or-restart)"
                    rb"|journalctl[ \t]+-u|apt(?:-get)?(?:[ \t]+-\S+)*[ \t]+(?:install|remove|purge)"
                    rb"|dnf[ \t]+install"
                    rb"|yum[ \t]+install|apk[ \t]+add|brew[ \t]+install|pacman[ \t]+-S|pip3?[ \t]+install"
                    rb"|snap[ \t]+install)(?:[ \t]+-\S+|[ \t]+[A-Za-z0-9_.+-]+)*?[ \t]+" + name
                    + rb"(?=(?:\.service)?(?![A-Za-z0-9_.:@/-]))"),
         SOFTWARE, "a package or a service unit of a package manager's or systemctl's command"),
        # `service NAME restart`: the unit is the command's first argument (its options before it);
        # in prose the words after "service" are no unit ("a systemd service directly on NAME")
        (re.compile(rb"(?m)(?<![A-Za-z0-9_-])service(?:[ \t]+-\S+)*[ \t]+" + name
                    + rb"(?=(?:\.service)?(?:[ \t]+[a-z-]+)?[ \t]*(?:[;&|)\"'`#]|\r?$))"),
         SOFTWARE, "a service unit of the `service` command"),
        # a dashboard's icon for the software: Glance's `icon: di:grafana`, Homepage's `icon:
        # grafana.png`, `si-grafana`, `gethomepage.dev/icon:`, Dashy's `hl-grafana`, an icon set's URL
        # ending `/grafana.svg`: the icon set's name for the software, not the host (the lead's trial
        # on zwolsman/homelab: `glance/icon: di:grafana` became `di:dash01`, an icon Glance lacks)
        (re.compile(rb"(?i)(?<![\w.-])(?:[\w.-]+/)?icon(?:_?url)?[\"']?[ \t]*[:=][ \t]*[\"']?"
                    rb"(?:[^\s\"'#,}]*/)?(?:(?:di|si|sh|mdi|hl|fa[bsr]?)[:-])?" + name
                    + rb"(?=(?:\.(?:png|svg|webp|ico))?[\"']?[ \t]*(?:[,}#]|\r?$))", re.M),
         SOFTWARE, "a dashboard icon's name for the software (`icon: di:NAME`, `NAME.png`)"),
        (re.compile(rb"(?m)^[ \t]*(?:-[ \t]+)?[\"']?apiGroups[\"']?[ \t]*:[ \t]*\[[^\]\n]*?[\"' ,\[]"
                    rb"(?:[A-Za-z0-9-]+\.)*" + name + rb"(?=\.[A-Za-z0-9.-]+[\"']?[ \t]*[,\]])"),
         API_GROUP, "a Kubernetes API group (a CRD's name)"),
        (re.compile(rb"(?<![A-Za-z0-9_-])(?:[Aa]n?|(?i:" + _VENDORS + rb"))[ \t]+" + name
                    + rb"(?![A-Za-z0-9_.:;/@-])"), NOUN,
         "a common noun or a vendor's product in prose (`a NAME`, `hashicorp NAME`)"),
    )


_SHELL_LINE = lazy_re.compile(rb"(?m)^[ \t]*" + _SUDO + rb"?")
_MODULE = lazy_re.compile(rb"(?m)^(?P<i>[ \t]*)(?:-[ \t]+)?" + _MODULES + rb"[ \t]*:[ \t]*(?P<rest>[^\n]*)")
# words of an Ansible task file: a module named without its collection counts only in one
_TASK_HINTS = (b"tasks:", b"hosts:", b"handlers:", b"become:", b"notify:", b"register:", b"when:",
               b"state: present", b"state: started", b"ansible")
_NAME_VALUE = lazy_re.compile(
    rb"(?<![A-Za-z0-9_.-])[\"']?name[\"']?[ \t]*[:=][ \t]*(?P<v>\[[^\]\n]*\]|[^,}\s#]+)")
_ITEM = lazy_re.compile(rb"[A-Za-z0-9_.+-]+")
_PG_HBA = lazy_re.compile(rb"(?m)^[ \t]*(?:local|host|hostssl|hostnossl|hostgssenc|hostnogssenc)[ \t]+"
                     rb"(?P<db>\S+)[ \t]+(?P<user>\S+)[ \t]+(?:\S+[ \t]+){0,2}"
                     rb"(?:trust|reject|md5|password|scram-sha-256|gss|sspi|ident|peer|pam|ldap|radius|cert)\b")


def _may_hold(data: bytes, reason: str, known: frozenset[str]) -> bool:
    """Can a search of `reason` find anything in `data`: its literal is there (`://`, `@`, an API
    group's key), or for the software rows, a known software's name is asked."""
    if reason in (SOFTWARE, NOUN):
        return bool(known)
    if reason == SCHEME:
        return b"://" in data
    if reason == PACKAGE:
        return b"@" in data
    if reason == API_GROUP:
        return b"apiGroup" in data or b"apiVersion" in data
    return True


def spans(data: bytes, names: Iterable[str]) -> list[tuple[int, int, str, str]]:
    """(start, end, reason, why) of each place in `data` where one of `names` (the old short
    names) is the software's own name (module docstring). A shell script (a `#!...sh` first line):
    each line's first word is a command too; pg_hba.conf's rows (a type, a database, a user, an
    address, a method): the database and user columns."""
    wanted = frozenset(n.lower() for n in names if n and "." not in n)
    if not wanted:
        return []
    lowered = data.lower()
    wanted = frozenset(n for n in wanted if n.encode() in lowered)
    if not wanted:
        return []
    # An account, a command, a unit or a noun named like a host is the software's only where the
    # name is a known software's (image_refs.WELL_KNOWN): `owner: ana-ml2`, `User=studio`, `dig A
    # pug` are the host's own (its account: the `account` rule; its name) and follow as before
    known = frozenset(n for n in wanted if n in image_refs.WELL_KNOWN)
    out: list[tuple[int, int, str, str]] = []
    for regex, reason, why in _regexes(wanted):
        if not _may_hold(data, reason, known):  # (issue 30: each search is a pass over the file)
            continue
        for hit in regex.finditer(data):
            found = hit.group("n").decode("ascii", "replace").lower()
            if reason in (SOFTWARE, NOUN) and found not in known:
                continue
            if reason in (SOFTWARE, NOUN) and _host_position(data, hit.start("n")):
                continue  # `systemctl -H NAME`, `pip --trusted-host NAME`, `dig A NAME`: the host's
            if found in wanted:
                said = why.replace("NAME", hit.group("n").decode())
                out.append((hit.start("n"), hit.end("n"), reason, said))
    out += _label_keys(data, wanted)
    out += _imports(data, wanted)
    out += _kube_parts(data, wanted)
    out += _modules(data, wanted)
    first = data[:data.find(b"\n")] if b"\n" in data else data
    if first.startswith(b"#!") and first.rstrip().endswith(b"sh"):
        out += _shell_commands(data, wanted)
    out += _pg_hba(data, wanted)
    return out


# options whose value is a host or a machine (systemctl/journalctl `-H`/`-M`, pip `--trusted-host`)
_HOST_OPTION = lazy_re.compile(
    rb"(?:^|[ \t])(?:-H|-M|--host|--machine|--trusted-host|--proxy|--server|--hostname"
                          rb"|--remote|--target)[ \t]+\Z")
# a DNS query's record type before the name: `dig +short A NAME`, `host -t A NAME`, `nslookup
# -type=A NAME`, `Resolve-DnsName -Type A NAME`, `drill A NAME` (t32 finding 18: no article)
_RECORD_TYPE = lazy_re.compile(rb"(?:^|[ \t])(?:a|an|A|An|AN)[ \t]+\Z")
_RESOLVER_COMMAND = lazy_re.compile(rb"(?i)(?:^|[^A-Za-z0-9_-])(?:dig|kdig|drill|delv|host|nslookup"
                               rb"|resolve-dnsname|getent[ \t]+(?:hosts|ahosts)|resolvectl[ \t]+query)"
                               rb"(?=[ \t])")


def _host_position(data: bytes, start: int) -> bool:
    """Does the name at `start` stand where a command takes a host: the value of a host or
    machine option, or the name a DNS query asks after its record type?"""
    line = data.rfind(b"\n", 0, start) + 1
    before = data[max(line, start - 120):start]
    if _HOST_OPTION.search(before):
        return True
    if re.search(rb"(?:-type=|-querytype=|-q=|--type=|-t=)[Aa][Nn]?[ \t]+\Z", before):
        return True
    if _RECORD_TYPE.search(before) is None:
        return False
    if re.search(rb"(?:^|[ \t])(?:-t|-q|--type|-Type|-RecordType)[ \t]+[Aa][Nn]?[ \t]+\Z", before):
        return True
    if before.rstrip()[-1:] in (b"A", b"N"):  # `dig +short A NAME`: upper case is a record type
        return _RESOLVER_COMMAND.search(before) is not None
    # lower case (`dig a NAME`) only where the command stands as a command, not the English "host"
    return _COMMAND_AT.search(before) is not None


# a resolver command where a command stands: a line's start, after `$ `, a separator, a quote or a key
_COMMAND_AT = lazy_re.compile(rb"(?i)(?:^|\$[ \t]|[;&|(`\"':=][ \t]*|\bsudo[ \t]+)[ \t]*"
                         rb"(?:dig|kdig|drill|delv|host|nslookup|resolve-dnsname)[ \t]")


def _shell_commands(data: bytes, wanted: frozenset[str]) -> list[tuple[int, int, str, str]]:
    out = []
    for line in _SHELL_LINE.finditer(data):
        word = re.match(rb"([A-Za-z0-9_-]+)(?=[ \t]+(?:-{1,2}[A-Za-z]|[a-z][a-z-]*(?:[ \t]|\r?$)))",
                        data[line.end():line.end() + 80])
        if word and word.group(1).decode().lower() in wanted:
            start = line.end()
            out.append((start, start + len(word.group(1)), SOFTWARE,
                        f"the software's command (`{word.group(1).decode()} ...` in a shell script)"))
    return out


def _modules(data: bytes, wanted: frozenset[str]) -> list[tuple[int, int, str, str]]:
    """The `name:` of Ansible's package, service and user modules: a package, a unit, a user."""
    out: list[tuple[int, int, str, str]] = []
    tasks = b"apiVersion" not in data and any(hint in data for hint in _TASK_HINTS)
    if not tasks and b"ansible." not in data and b"community.general." not in data:
        return out  # a module counts only in a task file or named with its collection (issue 30)
    for mod in _MODULE.finditer(data):
        if not mod.group("fq") and not tasks:
            continue  # `service:` of an Ingress backend, `user:` of a compose service: no module
        if not _task_key(data, mod.start(), len(mod.group("i"))):
            continue  # `vars: {user: {name: hermes}}`: a variable named `user`, no module (t32 finding 01)
        indent = len(mod.group("i"))
        start, end = mod.start("rest"), mod.end("rest")
        if not data[start:end].strip() or data[start:end].strip().startswith(b"#"):
            end = block_end(data, end, indent)  # a block below: the lines indented deeper
        for value in _NAME_VALUE.finditer(data, start, end):
            for item in _ITEM.finditer(data, value.start("v"), value.end("v")):
                if item.group().decode("ascii", "replace").lower() in wanted:
                    out.append((item.start(), item.end(), SOFTWARE,
                                f"a package, a service or a user (`name: {item.group().decode()}` of "
                                f"an Ansible module)"))
    return out


def _task_key(data: bytes, line: int, indent: int) -> bool:
    """Is the key on the line at `line` (indented `indent`) a task's: a list item itself
    (`- user:`), or a key beside the item's first (`- name: x` above it at `indent - 2`)? Under
    `vars:` or any other mapping key it is a variable's name, not a module."""
    if data[line + indent:line + indent + 1] == b"-":
        return True
    pos, lines = line, 0
    while pos > 0 and lines < 60:  # a task's keys are few: a hostile file is read in linear time
        lines += 1
        start = data.rfind(b"\n", 0, pos - 1) + 1
        above = data[start:pos].rstrip(b"\r\n")
        pos = start
        if not above.strip() or above.lstrip().startswith(b"#"):
            continue
        depth = len(above) - len(above.lstrip(b" \t"))
        if depth < indent:
            item = above.lstrip()
            return item[:1] == b"-" and depth + len(item) - len(item[1:].lstrip(b" \t")) == indent
        if depth == indent and above.lstrip()[:1] == b"-":
            return False  # a list's item at this column: no key of a task
    return False


def block_end(data: bytes, pos: int, indent: int, *, dash: bool = False) -> int:
    """Where the block of lines after `pos` indented deeper than `indent` ends (`dash`: a list
    item at the same indentation belongs to it, as YAML allows under a key)."""
    while pos < len(data):
        nxt = data.find(b"\n", pos + 1)
        nxt = len(data) if nxt == -1 else nxt
        line = data[pos + 1:nxt]
        if line.strip():
            depth = len(line) - len(line.lstrip(b" \t"))
            if depth < indent or (depth == indent and not (dash and line.lstrip().startswith(b"-"))):
                return pos
        pos = nxt
    return pos


_LABELS = lazy_re.compile(
    rb"(?m)^(?P<i>[ \t]*)(?:-[ \t]+)?[\"']?(?:labels|annotations)[\"']?[ \t]*:[ \t]*\r?$")
_LABEL_FLAG = lazy_re.compile(
    rb"(?m)(?:--label|-l)[ =][\"']?(?P<k>[A-Za-z0-9._/-]+)=|^LABEL[ \t]+(?P<d>[^\n]*)")
_ENTRY = lazy_re.compile(rb"(?m)^[ \t]*(?:-[ \t]+)?[\"']?(?P<k>[A-Za-z0-9][A-Za-z0-9._/-]*)[\"']?[ \t]*[=:]")


def _label_keys(data: bytes, wanted: frozenset[str]) -> list[tuple[int, int, str, str]]:
    """A label's or annotation's key (never its value) under `labels:`/`annotations:`, in
    `--label KEY=`, in a Dockerfile's `LABEL KEY=`."""
    keys: list[tuple[int, int]] = []
    # (issue 30: each search is a pass over the file; each needs its word)
    for block in _LABELS.finditer(data) if b"labels" in data or b"annotations" in data else ():
        stop = block_end(data, block.end(), len(block.group("i")), dash=True)
        keys += [entry.span("k") for entry in _ENTRY.finditer(data, block.end(), stop)]
    for flag in _LABEL_FLAG.finditer(data) if b"-l" in data or b"LABEL" in data else ():
        if flag.group("k") is not None:
            keys.append(flag.span("k"))
        else:
            for pair in re.finditer(rb"(?:^|[ \t])[\"']?([A-Za-z0-9._/-]+)=", flag.group("d")):
                keys.append((flag.start("d") + pair.start(1), flag.start("d") + pair.end(1)))
    out = []
    for start, end in keys:
        if not any(c in data[start:end] for c in b"./"):
            continue  # a bare key (`pug=db`) is no namespace: two such keys may collide (sibling_collisions)
        for part in re.finditer(rb"[A-Za-z0-9_-]+", data[start:end]):
            if part.group().decode().lower() in wanted:
                out.append((start + part.start(), start + part.end(), LABEL_KEY,
                            f"a label's key (`{data[start:end].decode('ascii', 'replace')}`): the software's "
                            f"configuration namespace"))
    return out


_PARTS = lazy_re.compile(rb"(?m)^(?P<i>[ \t]*)(?:-[ \t]+)?(?:containers|initContainers|ephemeralContainers"
                    rb"|ports)[ \t]*:[ \t]*\r?$")
_ITEM_NAME = lazy_re.compile(rb"(?m)^(?P<i>[ \t]*)-[ \t]+name[ \t]*:[ \t]*[\"']?(?P<v>[A-Za-z0-9_.-]+)[\"']?"
                        rb"[ \t]*\r?$")
_PORT_REF = lazy_re.compile(rb"(?m)^[ \t]*(?:-[ \t]+)?(?:port|targetPort)[ \t]*:[ \t]*[\"']?"
                       rb"(?P<v>[A-Za-z][A-Za-z0-9-]*)[\"']?[ \t]*(?:#[^\n]*)?\r?$")


def _kube_parts(data: bytes, wanted: frozenset[str]) -> list[tuple[int, int, str, str]]:
    """A container's or a port's name (an item's `name:` of `containers:`/`ports:`) and a port
    named by `port:`/`targetPort:` in a Kubernetes manifest (a document with `apiVersion` or
    `kind`), where the name is a software's."""
    if b"apiVersion" not in data and b"kind:" not in data:
        return []
    # a container named after the host follows it (`- name: pug` beside `image: nginx`); one named
    # after its software (a well-known package's name, or an image of this file's) is the software's
    wanted = frozenset(n for n in wanted if n in image_refs.WELL_KNOWN
                       or n in image_refs.software_names(data, image_refs.image_refs(data)))
    if not wanted:
        return []
    out = []
    for block in _PARTS.finditer(data):
        stop = block_end(data, block.end(), len(block.group("i")), dash=True)
        column: int | None = None
        for item in _ITEM_NAME.finditer(data, block.end(), stop):
            column = len(item.group("i")) if column is None else column
            if len(item.group("i")) == column and item.group("v").decode().lower() in wanted:
                out.append((item.start("v"), item.end("v"), INSIDE,
                            "a container's or a port's name inside a Kubernetes object"))
    for ref in _PORT_REF.finditer(data):
        if ref.group("v").decode().lower() in wanted:
            out.append((ref.start("v"), ref.end("v"), INSIDE, "a port's name (`port:`, `targetPort:`)"))
    return out


_GO_IMPORT = lazy_re.compile(rb'(?m)^[ \t]*(?:import[ \t]+)?(?:[A-Za-z_][A-Za-z0-9_]*[ \t]+)?'
                        rb'"[^"\n]*/(?P<n>[A-Za-z0-9_-]+)"[ \t]*\r?$')
_PY_IMPORT = lazy_re.compile(rb"(?m)^[ \t]*(?:import[ \t]+(?P<a>[A-Za-z0-9_]+)"
                        rb"|from[ \t]+(?P<b>[A-Za-z0-9_]+)[ .])")


def _imports(data: bytes, wanted: frozenset[str]) -> list[tuple[int, int, str, str]]:
    """A code module named after the software (a Go import `"code.gitea.io/sdk/gitea"`, a Python
    `import grafana_api`): the module's qualifier `gitea.NewClient(` and the import itself."""
    imported: set[bytes] = set()
    out: list[tuple[int, int, str, str]] = []
    if b"import" not in data:
        return out  # Go's and Python's imports all say it (`from x import y` too)
    for m in _GO_IMPORT.finditer(data):
        if m.group("n").decode("ascii", "replace").lower() in wanted:
            imported.add(m.group("n"))
    for m in _PY_IMPORT.finditer(data):
        group = "a" if m.group("a") else "b"
        if m.group(group).decode("ascii", "replace").lower() in wanted:
            imported.add(m.group(group))
            out.append((m.start(group), m.end(group), PACKAGE, "an imported code module's name"))
    for name in imported:
        for use in re.finditer(rb"(?<![A-Za-z0-9_.\"'/-])" + re.escape(name) + rb"(?=\.[A-Za-z_])", data):
            out.append((use.start(), use.end(), PACKAGE,
                        f"the qualifier of an imported code module (`{name.decode()}.`), not a host"))
    return out


def _pg_hba(data: bytes, wanted: frozenset[str]) -> list[tuple[int, int, str, str]]:
    out = []
    for row in _PG_HBA.finditer(data):
        for group in ("db", "user"):
            for item in _ITEM.finditer(data, row.start(group), row.end(group)):
                if item.group().decode("ascii", "replace").lower() in wanted:
                    out.append((item.start(), item.end(), SOFTWARE,
                                f"a database or role of pg_hba.conf (`{item.group().decode()}`)"))
    return out
