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

from collections.abc import Sequence

from renamer.dns.dnsmasq import syntax
from renamer.dns.dnsmasq.effective import (
    COMMAND_LINE,
    DEFAULT_CONF,
    HOSTS_FILE,
    Effective,
    Reader,
    reader_for,
)
from renamer.dns.dnsmasq.syntax import Directive
from renamer.dns.transport import Transport
from renamer.errors import RenamerError, one_line

MAX_DEPTH = 20
MAX_FILES = 1000
MAX_BYTES = 10 * 1024 * 1024
_ONCE = {"dhcp-leasefile": "dhcp-leasefile", "dhcp-lease": "dhcp-leasefile", "servers-file": "servers-file"}
_SERVERS_FILE_KEYS = ("server", "rev-server")  # read_file(..., LOPT_REV_SERV) refuses every other option


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
        return syntax.resolve(path, self.cwd)

    # config files

    def conf_file(self, path: str, origin: str, *, in_dir: bool = False) -> None:
        if self.stopped:
            return
        where = self.resolve(path)
        key = syntax.key(where)
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
        text = syntax.strip_comment(raw)
        if text is None:
            self.problem(f"{path}:{number}: missing closing \" (dnsmasq refuses the line)")
            return
        if not text:
            return
        key, _, value = text.partition("=")
        key, value = key.strip(syntax.SPACE), value.strip(syntax.SPACE)
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
            path = syntax.unquote(directive.value)
            if path == "-":
                self.problem(f"{origin}: conf-file=- reads dnsmasq's standard input: not known here")
            elif path:
                self.conf_file(path, origin)
        elif key == "conf-dir":
            self.conf_dir(directive, origin)
        elif key == "conf-script":
            self.problem(f"{origin}: conf-script output is not known here (the script is not run)")
        elif key == "addn-hosts" and directive.value:
            self.addn_hosts.append((syntax.unquote(directive.value), origin))
        elif key == "hostsdir" and directive.value:
            self.hostsdirs.append((syntax.unquote(directive.value), origin))
        elif key == "servers-file" and directive.value:
            self.servers_files.append((syntax.unquote(directive.value), origin))

    def conf_dir(self, directive: Directive, origin: str) -> None:
        raw = syntax.split_commas(directive.value)
        folder = syntax.unquote(raw[0]) if raw else ""
        if not folder:
            return  # dnsmasq: no directory, nothing read
        self.effective.snippet_dirs.append((folder, ",".join(raw[1:])))
        if self.stopped:
            return
        required, excluded = syntax.suffixes([syntax.unquote(item) for item in raw[1:]])
        where = self.resolve(folder)
        names = self.listing(where)
        if names is None:
            self.problem(f"{origin}: cannot access directory {where} (dnsmasq refuses to start)")
            return
        for name in sorted(n for n in names if syntax.dir_loads(n, required, excluded)):
            self.conf_file(syntax.join(where, name), origin, in_dir=True)

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
        entries, problems = syntax.hosts_entries(path, data)
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
            entries, problems = syntax.hosts_entries(where, data)
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
        for name in sorted(n for n in names if not syntax.always_skipped(n)):
            if self.stopped:
                return
            self.hosts_file(syntax.join(where, name), origin, in_dir=True)


# line and value syntax

