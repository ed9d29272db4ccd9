"""Layouts where a snippet can never take effect, found before anything is written.

dnsmasq reads a drop-in folder only when its configuration says so, and the
common packagings differ: Debian passes `-7 /etc/dnsmasq.d,...` on the command
line (from /etc/default/dnsmasq), Pi-hole v6 ignores /etc/dnsmasq.d unless
`misc.etc_dnsmasq_d = true`, OpenWrt generates its configuration from UCI and
reads the folder of `option confdir` (default /tmp/dnsmasq.d), a container may
have no conf-dir at all. Written there, a snippet changes nothing while plain
answers may still look right (names added by hand in a UI). The canary proves
it after the fact; this proves it before, and names the setting to change.

`check_layout: false` on a resolver skips this (a layout renamer cannot read);
the canary still guards the apply.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from renamer import lazy_re
from renamer.dns.dnsmasq.config import read_effective
from renamer.dns.dnsmasq.effective import DEFAULT_CONF, HOSTS_FILE, Effective, reader_for
from renamer.dns.dnsmasq.render import PREFIX
from renamer.dns.dnsmasq.syntax import Directive, HostsEntry, bare_mac, dhcp_host_fields, resolve, unquote
from renamer.dns.dnsmasq.syntax import key as syntax_key
from renamer.dns.inventory import Inventory, Resolver
from renamer.dns.transport import Transport, TransportError, real_paths
from renamer.names import IPAddress, parse_address

PIHOLE_TOML = "/etc/pihole/pihole.toml"
OPENWRT_RELEASE = "/etc/openwrt_release"
OPENWRT_DHCP = "/etc/config/dhcp"
DEBIAN_DEFAULTS = "/etc/default/dnsmasq"
DEBIAN_CONFIG_DIR = "/etc/dnsmasq.d,.dpkg-dist,.dpkg-old,.dpkg-new"  # the init script's default
_TOML_SETTING = lazy_re.compile(r"^\s*etc_dnsmasq_d\s*=\s*(true|false)\b", re.MULTILINE)
# Directives that make records: a hand-written one naming an old value keeps it alive.
_RECORD_KEYS = frozenset({"host-record", "address", "cname", "ptr-record", "txt-record", "srv-host",
                          "mx-host", "dhcp-host", "interface-name", "dynamic-host", "caa-record",
                          "naptr-record"})
HandRecord = Directive | HostsEntry  # a hand-written line that makes a record
_UCI_CONFDIR = lazy_re.compile(r"^\s*option\s+confdir\s+['\"]?([^'\"\s]+)", re.MULTILINE)


@dataclass
class Inspection:
    """What reading a resolver's configuration found, before anything is written."""

    problem: str | None = None  # a snippet written to snippet_dir would not take effect
    warnings: list[str] = field(default_factory=list)
    stale: list[HandRecord] = field(default_factory=list)  # hand-written, naming old values


def inspect(inventory: Inventory, resolver: Resolver, transport: Transport) -> Inspection:
    """The layout problem, and in the effective configuration: forwarded authoritative domains
    (local= would hide names only the upstream knows) and hand-written records outside
    renamer's snippets that name an old or retired name or an old address, or clash with
    the inventory (a second cname for an alias stops dnsmasq)."""
    problem, effective, spelling = _layout(resolver, transport)
    found = Inspection(problem)
    if effective is None:
        return found
    if spelling != resolver.snippet_dir:  # dnsmasq reads renamer's files by another spelling: still its own
        resolver = replace(resolver, snippet_dir=spelling)
    for site in inventory.sites:
        if site.name in resolver.sites and site.authoritative:
            for line in effective.forwards(site.domain):
                found.warnings.append(
                    f"{resolver.name}: site {site.name} is authoritative (local=/{site.domain}/), but "
                    f"{line.file}:{line.line} forwards it ({line.key}={line.value}): with both, dnsmasq "
                    "either hides the names only the upstream knows or forwards the names renamer "
                    "retired; set authoritative: false, or drop that line")
    gone = _gone(inventory)
    wide = _domain_wide(inventory, resolver, effective, gone)
    found.stale = stale_records(inventory, resolver, effective, wide)
    nxdomain, local = _nxdomain(effective), _local(inventory, resolver, effective)
    for directive, domains in wide:
        under = sorted(n for n in gone if _answered(n, domains, nxdomain, local))
        shown = f"{directive.file}:{directive.line}: address={directive.value}"
        if under and found.problem is None:
            found.problem = (f"{resolver.name}: {shown} answers every name under {', '.join(domains)}, "
                             f"so {', '.join(under)} can never be gone; renamer does not comment out a line "
                             "that answers names outside the inventory: edit it by hand (or give each "
                             "retired name an `address=/NAME/` line: NXDOMAIN), then apply")
        elif set(_words(directive)) & set(inventory.old_addresses):
            found.warnings.append(f"{resolver.name}: {shown} answers every name under {', '.join(domains)} "
                                  "with an old address; --retire-stale leaves it (it answers names outside "
                                  "the inventory): edit its address by hand")
    return found


def _gone(inventory: Inventory) -> set[str]:
    """The old and retired names, short and fully qualified, lower case."""
    gone = {n.lower() for n in inventory.old_hosts}
    for site in inventory.sites:
        gone |= {n.lower() for name in site.retired for n in (name, site.fqdn(name))}
    return gone


def _words(directive: Directive) -> list[str]:
    return [w.lower().rstrip(".") for w in re.split(r"[,/\s]+", directive.value) if w]


def _under(name: str, domain: str) -> bool:
    return domain == "#" or name == domain or name.endswith("." + domain)


def _domains_without_address(directives: Sequence[Directive]) -> set[str]:
    """The domains of `KEY=/D1/D2/` lines that give no address (nor upstream)."""
    return {p.lower().lstrip("*").strip(".") or "#" for d in directives if d.value.rstrip().endswith("/")
            for p in d.value.strip().strip("/").split("/") if p}


def _nxdomain(effective: Effective) -> set[str]:
    """The domains of `address=/D/` lines without an address: dnsmasq answers NXDOMAIN under D
    (how a retired name is kept gone under a wildcard)."""
    return _domains_without_address(effective.values("address"))


def _local(inventory: Inventory, resolver: Resolver, effective: Effective) -> set[str]:
    """Domains dnsmasq answers from its own records only (NXDOMAIN for any other name): a
    `local=/D/` or `server=/D/` without upstream, and an authoritative site's domain, which
    renamer's snippet makes local."""
    return (_domains_without_address([*effective.values("local"), *effective.values("server")])
            | {s.domain.lower() for s in inventory.sites if s.authoritative and s.name in resolver.sites})


def _answered(name: str, wide: Sequence[str], nxdomain: set[str], local: set[str]) -> bool:
    """Does a domain-wide address= line answer `name`? dnsmasq takes the most specific domain of
    its address=, local= and server= lines; of one domain in both, address= wins over local=."""
    def depth(domains: Sequence[str] | set[str]) -> int:
        return max((0 if d == "#" else d.count(".") + 1 for d in domains if _under(name, d)), default=-1)
    answered = depth(wide)
    return answered >= 0 and answered > depth(nxdomain) and answered >= depth(local)


def _hand(directive: Directive, resolver: Resolver) -> bool:
    """Written by hand: not one of renamer's own snippets."""
    ours = resolver.snippet_dir.rstrip("/") + "/"
    return not (directive.file.startswith(ours) and directive.file[len(ours):].startswith(PREFIX))


def _domain_wide(inventory: Inventory, resolver: Resolver, effective: Effective,
                 gone: set[str]) -> list[tuple[Directive, list[str]]]:
    """Hand-written `address=/D/.../IP` lines where some D is no host the inventory knows (a
    site's domain, a parent, `#`): dnsmasq answers every name under D with IP (a host-record
    still wins for its own name). Commenting one out would make names vanish that renamer has
    never heard of (the services behind a reverse proxy), so --retire-stale leaves them."""
    known = gone | {n.lower() for site in inventory.sites for h in site.hosts
                                for a in (h.name, *h.aliases) for n in (a, site.fqdn(a))}
    out = []
    for directive in effective.values("address"):
        parts = directive.value.strip("/").split("/")
        if len(parts) < 2 or not _hand(directive, resolver):
            continue
        domains = [p.lower().lstrip("*").strip(".") or "#" for p in parts[:-1]]
        if any(d not in known for d in domains):
            out.append((directive, domains))
    return out


def stale_records(inventory: Inventory, resolver: Resolver, effective: Effective,
                  wide: list[tuple[Directive, list[str]]]) -> list[HandRecord]:
    """Records outside renamer's own snippets that keep an old value alive, clash, or give a
    current name of a site this resolver serves a second address (an alias, which renamer
    writes as a CNAME, any address), a current address a second PTR (ptr-record=), or reserve
    (dhcp-host) a MAC or an address that the inventory reserves there. A domain-wide address=
    line is not one of them (`wide`: `_domain_wide`'s)."""
    gone = _gone(inventory)
    old_addresses = set(inventory.old_addresses)
    aliases = {n for site in inventory.sites if site.name in resolver.sites for h in site.hosts
               for a in h.aliases for n in (a, site.fqdn(a))}
    current = {n: {str(a) for a in h.addresses} for site in inventory.sites if site.name in resolver.sites
               for h in site.hosts for n in (h.name, site.fqdn(h.name))}
    pointers = {a.reverse_pointer: site.fqdn(h.name).lower() for site in inventory.sites
                if site.name in resolver.sites for h in site.hosts for a in h.addresses}
    reserved = _reservations(inventory, resolver)
    wide_ids = {id(d) for d, _ in wide}
    out: list[HandRecord] = []
    for directive in effective.directives:
        if (directive.key not in _RECORD_KEYS or not _hand(directive, resolver) or id(directive) in wide_ids
                or (directive.key == "address" and directive.value.rstrip().endswith("/"))):
            continue  # (an address=/NAME/ line keeps NAME gone: NXDOMAIN)
        words = set(_words(directive))
        clash = ((directive.key == "cname" and bool(words & aliases))
                 or (directive.key == "dhcp-host" and _reserves(directive, reserved, current))
                 or bool(set(_names_and_addresses(directive)[0]) & aliases)
                 or (directive.key == "ptr-record" and _second_pointer(directive, pointers)))
        if words & gone or words & old_addresses or clash or _second_address(directive, current):
            out.append(directive)
    own_hosts = None if resolver.hosts_dir is None else posixpath.normpath(resolver.hosts_dir) + "/"
    out += [e for e in effective.hosts
            if (e.address in old_addresses or {n.lower() for n in e.names} & gone
                or any(e.address not in current.get(n.lower().rstrip("."), {e.address}) for n in e.names))
            and not (own_hosts and e.file.startswith(own_hosts)
                     and e.file[len(own_hosts):].startswith(PREFIX))]  # renamer's own hosts files
    return out


_MAC = lazy_re.compile(r"^(?:[0-9a-f]{2}-)?[0-9a-f]{2}(?::[0-9a-f]{2}){5}$")


def _reservations(inventory: Inventory, resolver: Resolver) -> set[str]:
    """The MACs and addresses the inventory's dhcp-host lines reserve on this resolver."""
    return {str(v).lower() for site in inventory.sites if site.name in resolver.dhcp for h in site.hosts
            if h.mac for v in (h.mac, *h.addresses)}


def _reserves(directive: Directive, reserved: set[str], current: dict[str, set[str]]) -> bool:
    """Does a hand-written dhcp-host reserve a MAC or an address that renamer's reserves too, or
    pin an inventory name to another address? dnsmasq refuses two lines for one address
    ("duplicate dhcp-host IP address"), and of two for one MAC hands out whichever it reads
    first: the hand one, in a file that sorts before renamer's, keeps the old address."""
    parts = dhcp_host_fields(directive.value)
    macs = [bare_mac(p) for p in parts if _MAC.match(p)]
    given = [str(a) for p in parts if (a := parse_address(p)) is not None]
    names = [p.rstrip(".") for p in parts if p and parse_address(p) is None and not _MAC.match(p)
             and ":" not in p and not p[:1].isdigit() and p not in ("ignore", "infinite")]
    return (any(v in reserved for v in (*macs, *given))
            or any(n in current and a not in current[n] for n in names for a in given))


def _second_pointer(directive: Directive, pointers: dict[str, str]) -> bool:
    """Does a hand-written ptr-record= give an inventory address a PTR naming another name?
    dnsmasq answers both, renamer's and this one."""
    parts = [p.strip().lower().rstrip(".") for p in directive.value.split(",")]
    return len(parts) > 1 and parts[0] in pointers and parts[1] != pointers[parts[0]]


def _second_address(directive: Directive, current: dict[str, set[str]]) -> bool:
    """Does a hand-written host-record or address= give an inventory name an address the inventory
    does not? dnsmasq then serves both (B-f4: a second address nobody sees until verify)."""
    names, given = _names_and_addresses(directive)
    return any(name in current and str(address) not in current[name] for name in names for address in given)


def _names_and_addresses(record: Directive) -> tuple[list[str], list[IPAddress]]:
    """The names (lower case, no final dot) and addresses of a host-record= or an
    address=/name/.../addr line; nothing for any other key."""
    if record.key == "host-record":
        parts = [p.strip() for p in record.value.split(",")]
        names = [p for p in parts if p and parse_address(p) is None and not p.isdigit()]  # a digit: the TTL
        given = [a for p in parts if (a := parse_address(p)) is not None]
    elif record.key == "address":
        parts = record.value.strip("/").split("/")
        names = parts[:-1]
        given = [a for a in (parse_address(parts[-1]),) if a is not None] if len(parts) > 1 else []
    else:
        return [], []
    return [n.lower().rstrip(".") for n in names if n], given


def record_answers(record: HandRecord) -> list[tuple[str, str, str]]:
    """What dnsmasq answers because of a hand-written record: (name, type, value), the name lower
    case with no final dot, as `dns verify` asks it. host-record= and a hosts line give A or AAAA
    for each name and a PTR naming the first; address=/name/.../addr an A or AAAA alone; a
    ptr-record= its PTR; cname=NAME[,NAME...],TARGET[,TTL] a CNAME for each name (a name renamer
    writes as a CNAME too stops dnsmasq: dns/served.py says so before the apply)."""
    if isinstance(record, Directive) and record.key == "cname":
        parts = [p.strip().lower().rstrip(".") for p in record.value.split(",")]
        if parts and parts[-1].isdigit():
            parts = parts[:-1]  # the TTL
        return [(name, "CNAME", f"{parts[-1]}.") for name in parts[:-1] if name] if len(parts) > 1 else []
    if isinstance(record, HostsEntry):
        given = [a for a in (parse_address(record.address),) if a]
        names, ptr = [n.lower().rstrip(".") for n in record.names if n], True
    elif record.key == "ptr-record":
        parts = [p.strip().lower().rstrip(".") for p in record.value.split(",")]
        return [(parts[0], "PTR", f"{parts[1]}.")] if len(parts) > 1 and parts[1] else []
    else:
        names, given = _names_and_addresses(record)
        ptr = record.key == "host-record"
    out = [(n, "AAAA" if a.version == 6 else "A", str(a)) for n in names for a in given]
    if ptr and names:
        out += [(a.reverse_pointer, "PTR", f"{names[0]}.") for a in given]
    return out


def shown_record(record: HandRecord) -> str:
    if isinstance(record, HostsEntry):
        return f"{record.file}:{record.line}: {record.address} {' '.join(record.names)}"
    return f"{record.file}:{record.line}: {record.key}={record.value}"


def layout_problem(resolver: Resolver, transport: Transport) -> str | None:
    """Why a snippet written to this resolver's `snippet_dir` would not take effect, or None."""
    return _layout(resolver, transport)[0]


def _layout(resolver: Resolver, transport: Transport) -> tuple[str | None, Effective | None, str]:
    """(the problem, the effective configuration, the spelling of snippet_dir dnsmasq reads it by)."""
    folder = resolver.snippet_dir.rstrip("/") or "/"
    where = f"{resolver.name}: snippet_dir {folder}"
    if not transport.run(["test", "-d", folder]).ok:
        why = (f"{where} does not exist; renamer never creates it (a typo would hide the snippet): "
               f"create it and name it in the dnsmasq configuration (conf-dir={folder}/,*.conf)")
        return why, None, folder
    if not resolver.check_layout:
        return None, None, folder
    toml = _read(transport, PIHOLE_TOML)
    if toml is not None:
        setting = _TOML_SETTING.search(toml)
        if setting is None or setting.group(1) != "true":
            why = (f"{where}: Pi-hole v6 ignores /etc/dnsmasq.d unless misc.etc_dnsmasq_d = true in "
                   f"{PIHOLE_TOML} (`pihole-FTL --config misc.etc_dnsmasq_d true`, then restart)")
            return why, None, folder
    if _read(transport, OPENWRT_RELEASE) is not None:
        confdir = _UCI_CONFDIR.search(_read(transport, OPENWRT_DHCP) or "")
        wanted = (confdir.group(1) if confdir else "/tmp/dnsmasq.d").rstrip("/")
        if wanted != folder:
            return (f"{where}: OpenWrt's dnsmasq reads {wanted} (`option confdir` in {OPENWRT_DHCP}), "
                    "not this folder: set snippet_dir to it, or set confdir to this folder"), None, folder
        return None, None, folder  # generated by UCI at start: nothing more to read
    main, extra, options = daemon_files(resolver, transport)
    effective = read_effective(reader_for(transport), main, extra=extra, options=options)
    spelling = folder if effective.reads_folder(folder) else _read_as(effective, folder, transport)
    if spelling is None:
        return (f"{where} is not read by dnsmasq: no conf-dir or conf-file in {main} (or what it "
                f"includes) names it; add `conf-dir={folder}/,*.conf` to {main}"), effective, folder
    if resolver.hosts_dir is not None:
        hosts = posixpath.normpath(resolver.hosts_dir)
        named = [posixpath.normpath(posixpath.join(effective.cwd, unquote(d.value)))
                 for d in effective.values("hostsdir") if d.value]
        if hosts not in named:
            return (f"{resolver.name}: hosts_dir {hosts} is not read by dnsmasq: no hostsdir= in {main} "
                    f"(or what it includes) names it; add `hostsdir={hosts}` to {main}, or drop "
                    "hosts_dir"), effective, spelling
        if not transport.run(["test", "-d", hosts]).ok:
            why = f"{resolver.name}: hosts_dir {hosts} does not exist; renamer never creates it"
            return why, effective, spelling
    return None, effective, spelling


def _read_as(effective: Effective, folder: str, transport: Transport) -> str | None:
    """The spelling by which dnsmasq reads `folder` when it names it otherwise (snippet_dir, or
    the conf-dir, reached through a symlink: the same real path; DNS break-it round 2, finding
    09's class), or None: it does not read it."""
    spellings = [syntax_key(resolve(where, effective.cwd)) for where, _ in effective.snippet_dirs]
    if not spellings:
        return None
    real = real_paths(transport, [folder, *spellings])
    return next((s for s in spellings if real[s] == real[folder] and effective.reads_folder(s)), None)


def reads_ahead(resolver: Resolver) -> tuple[list[str], list[str], list[list[str]]]:
    """(files, folders, read-only commands) that `inspect` is about to read on this resolver,
    for a remote transport to fetch in one round trip: the layout files, the daemon's config
    files, the folders its command line names, snippet_dir. What they include beyond that is
    read when the walk gets there."""
    main, extra, options = _from_argv(resolver.test)
    main = resolver.conf_file or main
    folders = [resolver.snippet_dir]
    folders += [o.split("=", 1)[1].split(",", 1)[0] for o in options if o.startswith("conf-dir=")]
    if main == DEFAULT_CONF:
        folders.append(DEBIAN_CONFIG_DIR.split(",", 1)[0])
    files = [PIHOLE_TOML, OPENWRT_RELEASE, OPENWRT_DHCP, DEBIAN_DEFAULTS, main, *extra, HOSTS_FILE]
    return files, folders, [["test", "-d", resolver.snippet_dir.rstrip("/") or "/"]]


def daemon_files(resolver: Resolver, transport: Transport) -> tuple[str, list[str], list[str]]:
    """(main conf file, more conf files, command-line options) as the daemon reads them: its
    `conf_file`, else as the `test` command reads them; on Debian, the drop-in folder its
    init script passes."""
    main, extra, options = _from_argv(resolver.test)
    if resolver.conf_file is not None:
        main = resolver.conf_file
    defaults = _read(transport, DEBIAN_DEFAULTS)
    if defaults is not None and main == DEFAULT_CONF:
        config_dir = DEBIAN_CONFIG_DIR
        for line in defaults.splitlines():
            if line.strip().startswith("CONFIG_DIR="):
                parts = shlex.split(line.strip().split("=", 1)[1] or "''")
                config_dir = parts[0] if parts else ""
        if config_dir:
            options.append(f"conf-dir={config_dir}")
    return posixpath.normpath(main), extra, options


def _from_argv(test: Sequence[str]) -> tuple[str, list[str], list[str]]:
    main, extra, options = DEFAULT_CONF, list[str](), list[str]()
    args = list(test)
    for i, arg in enumerate(args):
        value = None
        if arg.startswith("--conf-file="):
            value = arg.split("=", 1)[1]
        elif arg in ("-C", "--conf-file") and i + 1 < len(args):
            value = args[i + 1]
        elif arg.startswith("-C") and len(arg) > 2:
            value = arg[2:]
        if value is not None:
            if main == DEFAULT_CONF and not extra:
                main = value
            else:
                extra.append(value)
        if arg.startswith("--conf-dir="):
            options.append("conf-dir=" + arg.split("=", 1)[1])
        elif arg in ("-7", "--conf-dir") and i + 1 < len(args):
            options.append("conf-dir=" + args[i + 1])
    return main, extra, options


def _read(transport: Transport, path: str) -> str | None:
    try:
        data = transport.read(path)
    except (TransportError, OSError):
        return None
    return None if data is None else data.decode("utf-8", "replace")
