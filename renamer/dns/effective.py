"""A dnsmasq resolver's whole effective configuration, read the way dnsmasq itself reads it.

renamer writes its snippets (renamer-<site>.conf) into a resolver's snippet_dir, but
dnsmasq reads far more than that folder, and renamer has to see all of it to:

- prove the resolver reads the snippet folder at all: some conf-dir names the folder
  with a filter that loads renamer-*.conf (`Effective.reads_folder`);
- find hand-written records outside renamer's snippets: host-record, address, cname,
  dhcp-host... lines in any other file, and the names in /etc/hosts, addn-hosts files
  and hostsdir folders (`Effective.directives`, `Effective.hosts`);
- find domains sent to an upstream server (`server=/fv.lan/10.0.0.1`), where the
  resolver would not answer from renamer's records (`Effective.forwards`);
- find the DHCP lease file (`Effective.lease_file`, then `parse_leases`).

What dnsmasq reads, in order (dnsmasq 2.90, src/option.c read_opts/one_file/read_file,
src/cache.c cache_reload/read_hostsfile, src/inotify.c set_dynamic_inotify):

1. The command line: options are applied in order as they are parsed, so a
   `--conf-dir` given there is read at once; the second and later `-C FILE` are read
   at once too. Debian's service starts dnsmasq with `-7 $CONFIG_DIR` from
   /etc/default/dnsmasq (default `/etc/dnsmasq.d,.dpkg-dist,.dpkg-old,.dpkg-new`):
   on a stock Debian resolver the drop-in folder is named there, not in any file.
   `read_effective(options=..., extra=...)` take those.
2. The main file: the first `-C FILE`, else /etc/dnsmasq.conf (missing is fine for
   dnsmasq only in that default case; here it is always reported as a problem).
3. Inside any config file, `conf-file=` and `conf-dir=` are read at the line that
   names them, depth first. A file already read (dnsmasq compares device and inode;
   here the normalised path) is skipped silently, which also ends include loops.
   Relative paths are opened from dnsmasq's working directory at start-up (systemd:
   "/"), NOT from the including file's folder (checked with dnsmasq 2.90).
4. conf-dir=<dir>[,<suffix>...]: names ending in `~`, starting with `.`, or starting
   and ending with `#` are always skipped; a suffix written `*.conf` is required (any
   one of the required suffixes), a suffix without `*` excludes; a lone `*` does
   nothing; a suffix only matches a longer name; only regular files are read; files
   are read sorted by name (strcmp). A missing folder makes dnsmasq refuse to start.
5. After all config: /etc/hosts unless `no-hosts`, each `addn-hosts=` (a file, or a
   folder read in alphabetical order with the same always-skipped names), each
   `hostsdir=` folder, and the `servers-file=` (server= and rev-server= lines only).

Config lines are parsed as dnsmasq's read_file does: whitespace is trimmed (so CRLF
is fine); `#` starts a comment at the start of a line AND after whitespace anywhere
outside double quotes (`no-resolv # why` is `no-resolv`), but not glued to a value
(`port=5353#x` keeps the `#`, and dnsmasq rejects it); `key=value` allows spaces
around `=`; a bare `key` has value "". Values are kept as written (quotes included);
paths are unquoted, with dnsmasq's backslash escapes inside quotes, before use.
Hosts files: the first field is an IPv4 or IPv6 address, the rest are names, and `#`
starts a comment anywhere.

Reading is bounded: nesting of at most 20 files, at most 1000 files and 10 MiB in
all; bad content or an unreadable file never raises, it becomes a line in
`Effective.problems`. Only files are read and folders listed, through a `Reader`
(`reader_for` adapts a renamer Transport, local or ssh); no command of its own.
"""

from __future__ import annotations

import ipaddress
import posixpath
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from renamer.dns.transport import SNIPPET, Transport
from renamer.errors import RenamerError, one_line

DEFAULT_CONF = "/etc/dnsmasq.conf"  # CONFFILE in dnsmasq's config.h (Linux)
HOSTS_FILE = "/etc/hosts"  # HOSTSFILE
DEFAULT_LEASE_FILE = "/var/lib/misc/dnsmasq.leases"  # LEASEFILE, as `dnsmasq --help` prints it
COMMAND_LINE = "<command line>"  # Directive.file of the `options` given to read_effective
MAX_DEPTH = 20
MAX_FILES = 1000
MAX_BYTES = 10 * 1024 * 1024

_SPACE = " \t\n\r\v\f"  # C isspace() in the C locale
_LEASE_KEYS = ("dhcp-leasefile", "dhcp-lease")  # both are dnsmasq's -l; "dhcp-lease-file" is not an option
_ONCE = {"dhcp-leasefile": "dhcp-leasefile", "dhcp-lease": "dhcp-leasefile", "servers-file": "servers-file"}
_SERVERS_FILE_KEYS = ("server", "rev-server")  # read_file(..., LOPT_REV_SERV) refuses every other option
_ESCAPES = {"t": "\t", "n": "\n", "b": "\b", "r": "\r", "e": "\033", '"': '"', "\\": "\\"}
_HOSTS_SPLIT = re.compile(r"[ \t\r\v\f]+")
_SNIPPET_HEAD = re.compile(r"[a-z0-9_-]+")  # what can stand before ".conf" in a renamer-<site>.conf name


@dataclass(frozen=True)
class Directive:
    file: str
    line: int  # 1-based
    key: str  # the long option name: conf-dir, host-record, server, no-resolv...
    value: str  # as written after `=` (quotes kept), trimmed; "" for a bare option


@dataclass(frozen=True)
class HostsEntry:
    file: str
    line: int
    address: str
    names: tuple[str, ...]


@dataclass(frozen=True)
class Lease:
    line: int
    expiry: int  # epoch seconds (or the lease length on HAVE_BROKEN_RTC builds)
    mac: str  # "" for a DHCPv6 lease: that field holds the IAID there
    address: str
    hostname: str  # "" where dnsmasq wrote *
    client_id: str  # "" where dnsmasq wrote *


@runtime_checkable
class Reader(Protocol):
    """What reading a configuration needs: file contents and folder listings."""

    def read(self, path: str) -> bytes | None:
        """The file's bytes, or None when there is no such file."""

    def list_dir(self, folder: str) -> list[str] | None:
        """The entry names in `folder` (any order, no . or ..), or None if it is not a readable folder."""


class TransportReader:
    """A Reader over a renamer Transport: files through `read`, listings through `ls -1A`.

    The folder is given with a trailing slash, so a plain file is refused (ENOTDIR)
    rather than listed as itself; over ssh the command runs with the resolver's sudo.
    """

    def __init__(self, transport: Transport) -> None:
        self.transport = transport

    def read(self, path: str) -> bytes | None:
        return self.transport.read(path)

    def list_dir(self, folder: str) -> list[str] | None:
        if not folder:
            return None
        result = self.transport.run(["ls", "-1A", "--", folder.rstrip("/") + "/"])
        if not result.ok:
            return None
        return [name for name in result.stdout.decode("utf-8", "replace").split("\n") if name]


def reader_for(transport: Transport) -> Reader:
    return TransportReader(transport)


@dataclass
class Effective:
    directives: list[Directive] = field(default_factory=list)
    hosts: list[HostsEntry] = field(default_factory=list)
    files: list[str] = field(default_factory=list)  # every file read, in read order
    snippet_dirs: list[tuple[str, str]] = field(default_factory=list)  # (conf-dir folder, raw suffix spec)
    problems: list[str] = field(default_factory=list)
    cwd: str = "/"  # dnsmasq's working directory, for relative paths

    def values(self, key: str) -> list[Directive]:
        return [d for d in self.directives if d.key == key]

    def lease_file(self) -> str:
        """Where leases are written: the last dhcp-leasefile= (alias dhcp-lease=), else the default.

        A bare `dhcp-leasefile` sets dnsmasq's default again. dnsmasq refuses a second
        one in config files (reported as a problem when reading)."""
        found = [d for d in self.directives if d.key in _LEASE_KEYS]
        value = _unquote(found[-1].value) if found else ""
        return value or DEFAULT_LEASE_FILE

    def reads_folder(self, folder: str, name: str | None = None) -> bool:
        """Does dnsmasq load renamer's snippets from `folder` (trailing slashes, `//` and
        relative paths do not matter)?

        True when a conf-dir names the folder and its suffixes let through every name
        renamer writes (renamer-<site>.conf), or - with `name` - that one file name; or
        when a conf-file names a renamer-*.conf file (or `name`) in the folder. An
        exclusion that could hit even one possible renamer name (`.conf`, `-old.conf`)
        makes the answer without `name` False: ask with `name` for one file."""
        target = _key(_resolve(folder, self.cwd))
        for where, spec in self.snippet_dirs:
            if _key(_resolve(where, self.cwd)) != target:
                continue
            required, excluded = _suffixes([_unquote(item) for item in _split_commas(spec)])
            if name is not None:
                if _dir_loads(name, required, excluded):
                    return True
            elif _loads_every_snippet(required, excluded):
                return True
        for directive in self.values("conf-file"):
            path = _unquote(directive.value)
            if not path or path == "-":
                continue
            parent, base = posixpath.split(_key(_resolve(path, self.cwd)))
            if parent == target and (base == name if name is not None else SNIPPET.fullmatch(base)):
                return True
        return False

    def forwards(self, domain: str) -> list[Directive]:
        """The server=/local=/rev-server= lines that send `domain`, or a name under it, to an
        upstream server.

        `server=/d/` and `local=/d/` (no upstream: answer locally, never forward) are NOT
        forwards, nor is rev-server without a server; `server=/d/#` ("use the standard
        servers") and `local=/d/10.0.0.1` (--local is a synonym of --server) are. A line
        for a parent domain (`server=/lan/...` for fv.lan) is not listed: a more specific
        local=/fv.lan/ (as renamer's snippet writes) wins over it in dnsmasq; neither are
        lines without a domain (the default upstreams). Wildcards: `*fv.lan` and
        `*.x.fv.lan` count, `*v.lan` (a parent-like pattern) does not; a leading `.` is
        ignored, as dnsmasq does."""
        target = domain.strip().rstrip(".").lower()
        if not target:
            return []
        found = []
        for directive in self.directives:
            if directive.key in ("server", "local"):
                parsed = _server_spec(_unquote(directive.value))
                if parsed and parsed[1] and any(_covers(p, target) for p in parsed[0]):
                    found.append(directive)
            elif directive.key == "rev-server":
                network, _, upstream = _unquote(directive.value).partition(",")
                if upstream.strip() and any(_covers(z, target) for z in _reverse_zones(network)):
                    found.append(directive)
        return found


def read_effective(transport: Reader | Transport, main: str = DEFAULT_CONF, *, extra: Sequence[str] = (),
                   options: Sequence[str] = (), cwd: str = "/", max_files: int = MAX_FILES,
                   max_bytes: int = MAX_BYTES) -> Effective:
    """Read everything dnsmasq started with `-C main -C extra...` and `options` would read.

    `transport`: a Reader, or a renamer Transport (adapted with `reader_for`).
    `extra`: the second and later `-C` files of the daemon's command line, which dnsmasq
    reads while parsing its command line, so before `main`. `options`: the daemon's
    other command-line options as long names without `--` (`conf-dir=/etc/dnsmasq.d,.bak`),
    applied first. `cwd`: dnsmasq's working directory at start-up, for relative paths.
    """
    reader = transport if isinstance(transport, Reader) else reader_for(transport)
    walk = _Walk(reader, cwd, max_files, max_bytes)
    for number, option in enumerate(options, 1):
        walk.line(COMMAND_LINE, number, option.removeprefix("--"), servers_only=False)
    for path in extra:
        walk.conf_file(path, f"{COMMAND_LINE}: -C")
    walk.conf_file(main, f"{COMMAND_LINE}: main config")
    walk.after_config()
    return walk.effective


def parse_leases(data: bytes) -> list[Lease]:
    """The leases in a dnsmasq lease file (src/lease.c lease_update_file / read_leases).

    IPv4: `<expiry> <mac> <ip> <hostname or *> <client-id or *>`; the `duid <server duid>`
    line, then IPv6: `<expiry> <[T]iaid> <ip6> <hostname or *> <client-id or *>`. As in
    read_leases, a line is IPv6 by its address, not by its position; `vendorclass` and
    `agent-info` extra lines and malformed lines are skipped."""
    leases = []
    for number, raw in enumerate(data.decode("utf-8", "replace").split("\n"), 1):
        fields = raw.split()
        if len(fields) < 5 or fields[0] in ("duid", "vendorclass", "agent-info"):
            continue
        expiry, second, address, hostname, client_id = fields[:5]
        try:
            version = ipaddress.ip_address(address).version
            seconds = int(expiry)
        except ValueError:
            continue
        leases.append(Lease(number, seconds, second if version == 4 else "", address,
                            "" if hostname == "*" else hostname, "" if client_id == "*" else client_id))
    return leases


class _Walk:
    """One reading of a configuration: the state dnsmasq keeps while it reads."""

    def __init__(self, reader: Reader, cwd: str, max_files: int, max_bytes: int) -> None:
        self.reader, self.cwd = reader, cwd or "/"
        self.max_files, self.max_bytes = max_files, max_bytes
        self.effective = Effective(cwd=self.cwd)
        self.seen: set[str] = set()  # config files read (normalised): dnsmasq reads each once
        self.stack: list[str] = []  # the include chain now being read
        self.total = 0
        self.stopped = False
        self.once: dict[str, str] = {}
        self.addn_hosts: list[tuple[str, str]] = []  # (path, where it was named)
        self.hostsdirs: list[tuple[str, str]] = []
        self.servers_files: list[tuple[str, str]] = []

    def problem(self, text: str) -> None:
        self.effective.problems.append(one_line(text))

    def stop(self, text: str) -> None:
        self.problem(text)
        self.stopped = True

    def fetch(self, path: str) -> tuple[bytes | None, str]:
        """(data, "") or (None, why); after a limit is hit, (None, "") for everything."""
        if self.stopped:
            return None, ""
        if len(self.effective.files) >= self.max_files:
            self.stop(f"{path}: not read: more than {self.max_files} files to read; reading stopped")
            return None, ""
        try:
            data = self.reader.read(path)
        except (RenamerError, OSError, ValueError) as exc:
            return None, str(exc)
        if data is None:
            return None, "no such file"
        if self.total + len(data) > self.max_bytes:
            self.stop(f"{path}: not read: more than {self.max_bytes} bytes in all; reading stopped")
            return None, ""
        self.total += len(data)
        self.effective.files.append(path)
        return data, ""

    def listing(self, folder: str) -> list[str] | None:
        try:
            return self.reader.list_dir(folder)
        except (RenamerError, OSError, ValueError):
            return None

    def resolve(self, path: str) -> str:
        return _resolve(path, self.cwd)

    # config files

    def conf_file(self, path: str, origin: str, *, in_dir: bool = False) -> None:
        if self.stopped:
            return
        where = self.resolve(path)
        key = _key(where)
        if key in self.stack:
            chain = " -> ".join([*self.stack[self.stack.index(key):], key])
            self.problem(f"{origin}: include loop {chain}: dnsmasq reads a file only once, so the loop ends")
            return
        if key in self.seen:
            return  # dnsmasq skips a file it has read already, silently
        if len(self.stack) >= MAX_DEPTH:
            self.problem(f"{origin}: {where}: not read: more than {MAX_DEPTH} nested config files")
            return
        data, why = self.fetch(where)
        if data is None:
            if not self.stopped and not (in_dir and self.listing(where) is not None):
                self.problem(f"{origin}: cannot read {where}: {why} (dnsmasq refuses to start)")
            return  # in a conf-dir, a folder is skipped as dnsmasq skips what is not a regular file
        self.seen.add(key)
        self.stack.append(key)
        try:
            self.parse(where, data, servers_only=False)
        finally:
            self.stack.pop()

    def parse(self, path: str, data: bytes, *, servers_only: bool) -> None:
        for number, raw in enumerate(data.decode("utf-8", "replace").split("\n"), 1):
            if self.stopped:
                return
            self.line(path, number, raw, servers_only=servers_only)

    def line(self, path: str, number: int, raw: str, *, servers_only: bool) -> None:
        text = _strip_comment(raw)
        if text is None:
            self.problem(f"{path}:{number}: missing closing \" (dnsmasq refuses the line)")
            return
        if not text:
            return
        key, _, value = text.partition("=")
        key, value = key.strip(_SPACE), value.strip(_SPACE)
        if not key:
            self.problem(f"{path}:{number}: no option name before '=' (dnsmasq: bad option)")
            return
        if servers_only and key not in _SERVERS_FILE_KEYS:
            self.problem(f"{path}:{number}: {key}: only server= and rev-server= count in a servers-file "
                         f"(dnsmasq ignores the line)")
            return
        directive = Directive(path, number, key, value)
        self.effective.directives.append(directive)
        self.follow(directive)

    def follow(self, directive: Directive) -> None:
        origin = f"{directive.file}:{directive.line}"
        key = directive.key
        group = _ONCE.get(key)
        if group is not None and directive.file != COMMAND_LINE:
            if group in self.once:
                self.problem(f"{origin}: {key} given again (first at {self.once[group]}): dnsmasq refuses "
                             f"to start (illegal repeated keyword)")
            else:
                self.once[group] = origin
        if key == "conf-file":
            path = _unquote(directive.value)
            if path == "-":
                self.problem(f"{origin}: conf-file=- reads dnsmasq's standard input: not known here")
            elif path:
                self.conf_file(path, origin)
        elif key == "conf-dir":
            self.conf_dir(directive, origin)
        elif key == "conf-script":
            self.problem(f"{origin}: conf-script output is not known here (the script is not run)")
        elif key == "addn-hosts" and directive.value:
            self.addn_hosts.append((_unquote(directive.value), origin))
        elif key == "hostsdir" and directive.value:
            self.hostsdirs.append((_unquote(directive.value), origin))
        elif key == "servers-file" and directive.value:
            self.servers_files.append((_unquote(directive.value), origin))

    def conf_dir(self, directive: Directive, origin: str) -> None:
        raw = _split_commas(directive.value)
        folder = _unquote(raw[0]) if raw else ""
        if not folder:
            return  # dnsmasq: no directory, nothing read
        self.effective.snippet_dirs.append((folder, ",".join(raw[1:])))
        if self.stopped:
            return
        required, excluded = _suffixes([_unquote(item) for item in raw[1:]])
        where = self.resolve(folder)
        names = self.listing(where)
        if names is None:
            self.problem(f"{origin}: cannot access directory {where} (dnsmasq refuses to start)")
            return
        for name in sorted(n for n in names if _dir_loads(n, required, excluded)):
            self.conf_file(_join(where, name), origin, in_dir=True)

    # after the config: hosts files and the servers-file

    def after_config(self) -> None:
        for path, origin in self.servers_files:
            self.servers_file(path, origin)
        if not self.effective.values("no-hosts"):
            self.hosts_file(HOSTS_FILE, "/etc/hosts (no no-hosts)")
        for path, origin in self.addn_hosts:
            self.addn_hosts_path(path, origin)
        for path, origin in self.hostsdirs:
            self.hosts_folder(path, origin, "bad dynamic directory")

    def servers_file(self, path: str, origin: str) -> None:
        where = self.resolve(path)
        data, why = self.fetch(where)
        if data is None:
            if not self.stopped:
                self.problem(f"{origin}: cannot read servers-file {where}: {why}")
            return
        self.parse(where, data, servers_only=True)

    def hosts_file(self, path: str, origin: str, *, in_dir: bool = False) -> None:
        data, why = self.fetch(path)
        if data is None:
            if not self.stopped and not (in_dir and self.listing(path) is not None):
                self.problem(f"{origin}: failed to load names from {path}: {why}")
            return
        entries, problems = _hosts_entries(path, data)
        self.effective.hosts.extend(entries)
        for problem in problems:
            self.problem(problem)

    def addn_hosts_path(self, path: str, origin: str) -> None:
        """A file, or a folder of hosts files (src/option.c expand_filelist)."""
        if self.stopped:
            return
        where = self.resolve(path)
        data, why = self.fetch(where)
        if data is not None:
            entries, problems = _hosts_entries(where, data)
            self.effective.hosts.extend(entries)
            for problem in problems:
                self.problem(problem)
        elif not self.stopped:
            if self.listing(where) is None:
                self.problem(f"{origin}: failed to load names from {where}: {why}")
            else:
                self.hosts_folder(path, origin, "cannot access directory")

    def hosts_folder(self, path: str, origin: str, failure: str) -> None:
        if self.stopped:
            return
        where = self.resolve(path)
        names = self.listing(where)
        if names is None:
            self.problem(f"{origin}: {failure} {where}")
            return
        for name in sorted(n for n in names if not _always_skipped(n)):
            if self.stopped:
                return
            self.hosts_file(_join(where, name), origin, in_dir=True)


# line and value syntax

def _strip_comment(raw: str) -> str | None:
    """The line without its comment, trimmed; None for an unclosed quote (src/option.c read_file).

    `#` is a comment at the start of the line or after whitespace, never inside double
    quotes. As in dnsmasq, a closing quote does not count as whitespace or text: the
    character after it is judged by what came before the quote."""
    out: list[str] = []
    white = True
    i, size = 0, len(raw)
    while i < size:
        char = raw[i]
        if char == '"':
            j = i + 1
            while j < size and raw[j] != '"':
                j += 2 if raw[j] == "\\" and j + 1 < size and raw[j + 1] in _ESCAPES else 1
            if j >= size:
                return None
            out.append(raw[i:j + 1])
            i = j + 1
            continue
        if char in _SPACE:
            white = True
        elif white and char == "#":
            break
        else:
            white = False
        out.append(char)
        i += 1
    return "".join(out).strip(_SPACE)


def _unquote(text: str) -> str:
    """What dnsmasq makes of a quoted value: quotes removed, escapes applied inside them."""
    if '"' not in text:
        return text
    out: list[str] = []
    quoted = False
    i = 0
    while i < len(text):
        char = text[i]
        if char == '"':
            quoted = not quoted
        elif quoted and char == "\\" and i + 1 < len(text) and text[i + 1] in _ESCAPES:
            out.append(_ESCAPES[text[i + 1]])
            i += 1
        else:
            out.append(char)
        i += 1
    return "".join(out)


def _split_commas(value: str) -> list[str]:
    """Comma-separated items, trimmed, a comma inside quotes kept (dnsmasq's split())."""
    items: list[str] = []
    current: list[str] = []
    quoted = False
    i = 0
    while i < len(value):
        char = value[i]
        if quoted and char == "\\" and i + 1 < len(value) and value[i + 1] in _ESCAPES:
            current.append(value[i:i + 2])
            i += 2
            continue
        if char == '"':
            quoted = not quoted
        if char == "," and not quoted:
            items.append("".join(current).strip(_SPACE))
            current = []
        else:
            current.append(char)
        i += 1
    items.append("".join(current).strip(_SPACE))
    return items if any(items) else []


def _resolve(path: str, cwd: str) -> str:
    return path if path.startswith("/") else posixpath.join(cwd or "/", path)


def _key(path: str) -> str:
    """A path for comparison: no repeated or trailing slash, no `.`/`..` steps."""
    return posixpath.normpath(re.sub("/+", "/", path))


def _join(folder: str, name: str) -> str:
    return folder.rstrip("/") + "/" + name


# conf-dir filters

def _always_skipped(name: str) -> bool:
    """Emacs backups and dotfiles, skipped in every folder dnsmasq reads (file_filter)."""
    return (not name or name.endswith("~") or name.startswith(".")
            or (name.startswith("#") and name.endswith("#")))


def _suffixes(items: Sequence[str]) -> tuple[list[str], list[str]]:
    """(required, excluded) suffixes of a conf-dir: `*.conf` is required, `.bak` excluded, `*` nothing."""
    required = [item[1:] for item in items if item.startswith("*") and len(item) > 1]
    excluded = [item for item in items if item and not item.startswith("*")]
    return required, excluded


def _ends(name: str, suffix: str) -> bool:
    return len(name) > len(suffix) and name.endswith(suffix)  # dnsmasq: len > ls && strcmp(...) == 0


def _dir_loads(name: str, required: Sequence[str], excluded: Sequence[str]) -> bool:
    if _always_skipped(name):
        return False
    if required and not any(_ends(name, suffix) for suffix in required):
        return False
    return not any(_ends(name, suffix) for suffix in excluded)


def _loads_every_snippet(required: Sequence[str], excluded: Sequence[str]) -> bool:
    """Would the filters load every renamer-<site>.conf name renamer can write?"""
    if required and not any(".conf".endswith(suffix) for suffix in required):
        return False
    return not any(_may_end_snippet(suffix) for suffix in excluded)


def _may_end_snippet(suffix: str) -> bool:
    """Could some renamer-<site>.conf name end with `suffix`? (Conservative: yes when unsure.)"""
    if ".conf".endswith(suffix):
        return True
    return suffix.endswith(".conf") and _SNIPPET_HEAD.fullmatch(suffix[:-5]) is not None


# server=, local=, rev-server=

def _server_spec(value: str) -> tuple[list[str], str] | None:
    """(domain patterns, upstream) of `/d1/d2/upstream`; None for a line without domains."""
    if not value.startswith("/"):
        return None
    body = value[1:]
    cut = body.rfind("/")
    if cut < 0:
        return None
    return body[:cut].split("/"), body[cut + 1:].strip(_SPACE)


def _covers(pattern: str, target: str) -> bool:
    """Does a server= domain pattern match `target` or a name under it?"""
    core = pattern.strip(_SPACE).lower().rstrip(".")
    core = core.removeprefix("*").lstrip(".")
    return bool(core) and (core == target or core.endswith("." + target))


def _reverse_zones(spec: str) -> list[str]:
    """The in-addr.arpa / ip6.arpa domains dnsmasq makes of `<address>[/<prefix>]` (domain_rev4/6):
    a prefix between octet (nibble) boundaries becomes every zone at the next boundary."""
    address, _, length = spec.strip(_SPACE).partition("/")
    try:
        ip = ipaddress.ip_address(address)
        prefix = int(length) if length.strip() else ip.max_prefixlen
        if not 1 <= prefix <= ip.max_prefixlen:
            return []
        network = ipaddress.ip_network(f"{ip}/{prefix}", strict=False)
    except ValueError:
        return []
    unit = 8 if ip.version == 4 else 4
    aligned = -(-prefix // unit) * unit
    starts = [network.network_address] if aligned == prefix else [
        n.network_address for n in network.subnets(new_prefix=aligned)]
    keep = aligned // unit + 2  # the address labels plus in-addr.arpa / ip6.arpa
    return [".".join(start.reverse_pointer.split(".")[-keep:]) for start in starts]


# hosts files

def _hosts_entries(path: str, data: bytes) -> tuple[list[HostsEntry], list[str]]:
    """Entries of a hosts file (src/cache.c read_hostsfile): `#` starts a comment anywhere."""
    entries: list[HostsEntry] = []
    problems: list[str] = []
    for number, raw in enumerate(data.decode("utf-8", "replace").split("\n"), 1):
        fields = [f for f in _HOSTS_SPLIT.split(raw.split("#", 1)[0]) if f]
        if not fields:
            continue
        if not _is_address(fields[0]):
            problems.append(f"{path}:{number}: bad address {fields[0]!r} (dnsmasq skips the line)")
        elif len(fields) > 1:
            entries.append(HostsEntry(path, number, fields[0], tuple(fields[1:])))
    return entries, problems


def _is_address(text: str) -> bool:
    """inet_pton(AF_INET) or inet_pton(AF_INET6): no scope id, no leading zeros in IPv4."""
    if "%" in text:
        return False
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True
