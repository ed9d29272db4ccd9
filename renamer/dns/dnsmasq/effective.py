"""What reading a dnsmasq configuration found (`Effective`), and how files are read (`Reader`).

dnsmasq/config.py walks the files; dnsmasq/syntax.py parses their lines.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from renamer.dns.dnsmasq import syntax
from renamer.dns.dnsmasq.leases import DEFAULT_LEASE_FILE
from renamer.dns.dnsmasq.render import SNIPPET
from renamer.dns.dnsmasq.syntax import Directive, HostsEntry
from renamer.dns.transport import Transport

DEFAULT_CONF = "/etc/dnsmasq.conf"  # CONFFILE in dnsmasq's config.h (Linux)
HOSTS_FILE = "/etc/hosts"  # HOSTSFILE
COMMAND_LINE = "<command line>"  # Directive.file of the `options` given to read_effective
_LEASE_KEYS = ("dhcp-leasefile", "dhcp-lease")  # both are dnsmasq's -l; "dhcp-lease-file" is not an option


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
        value = syntax.unquote(found[-1].value) if found else ""
        return value or DEFAULT_LEASE_FILE

    def reads_folder(self, folder: str, name: str | None = None) -> bool:
        """Does dnsmasq load renamer's snippets from `folder` (trailing slashes, `//` and
        relative paths do not matter)?

        True when a conf-dir names the folder and its suffixes let through every name
        renamer writes (renamer-<site>.conf), or - with `name` - that one file name; or
        when a conf-file names a renamer-*.conf file (or `name`) in the folder. An
        exclusion that could hit even one possible renamer name (`.conf`, `-old.conf`)
        makes the answer without `name` False: ask with `name` for one file."""
        target = syntax.key(syntax.resolve(folder, self.cwd))
        for where, spec in self.snippet_dirs:
            if syntax.key(syntax.resolve(where, self.cwd)) != target:
                continue
            required, excluded = syntax.suffixes([syntax.unquote(item) for item in syntax.split_commas(spec)])
            if name is not None:
                if syntax.dir_loads(name, required, excluded):
                    return True
            elif syntax.loads_every_snippet(required, excluded):
                return True
        for directive in self.values("conf-file"):
            path = syntax.unquote(directive.value)
            if not path or path == "-":
                continue
            parent, base = posixpath.split(syntax.key(syntax.resolve(path, self.cwd)))
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
                parsed = syntax.server_spec(syntax.unquote(directive.value))
                if parsed and parsed[1] and any(syntax.covers(p, target) for p in parsed[0]):
                    found.append(directive)
            elif directive.key == "rev-server":
                network, _, upstream = syntax.unquote(directive.value).partition(",")
                if upstream.strip() and any(syntax.covers(z, target) for z in syntax.reverse_zones(network)):
                    found.append(directive)
        return found

