"""dns/resolvers.yaml (or an Ansible inventory it names) -> checked Resolvers."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path, PurePosixPath
from typing import Any

from renamer.dns.ansible_inventory import hosts_of, resolver_entry
from renamer.dns.backend import BACKENDS
from renamer.dns.inventory import (
    API_KEYS,
    BACKEND_NAMES,
    SECRET_KEYS,
    SSH_TARGET,
    UNSAFE,
    Resolver,
    label_problem,
)
from renamer.formats.yaml_source import Problems, check_mapping, kind, load_yaml_file, shown
from renamer.names import parse_address

_RESOLVER_KEYS = {"name", "address", "port", "backend", "target", "snippet_dir", "backup_dir", "test",
                  "reload", "sites", "dhcp", "ssh_config", "sudo", "timeout", "check_layout",
                  "conf_file", "python", "hosts_dir", "manage", "query_log", *API_KEYS}
# Known, to be refused with the reason (the key itself never goes in the inventory), not as unknown.
_REFUSED_KEYS = set(SECRET_KEYS)
# With `manage: false` renamer only asks the resolver over DNS: these keys would say it writes,
# tests or restarts it, so they are refused there rather than silently ignored.
_ASKED_KEYS = {"name", "address", "port", "sites", "timeout", "manage"}


def load_resolvers(path: Path, display: str, site_names: set[str] | None) -> tuple[Resolver, ...]:
    data = load_yaml_file(path, display)
    problems = Problems(display)
    top = check_mapping({} if data is None else data, "", {"resolvers", "from_ansible"}, problems, data,
                        None) or {}
    raw = top.get("resolvers", [] if "from_ansible" in top else None)
    entries: list[tuple[Any, str, Any, Any]] = []  # (entry, its key path, its container, its key there)
    if isinstance(raw, list):
        entries += [(entry, f"resolvers[{i}]", raw, i) for i, entry in enumerate(raw)]
    if "from_ansible" in top:
        entries += _from_ansible(top, path.parent, problems)
    if not isinstance(raw, list) or (not entries and not problems.items):
        problems.add(top, "resolvers" if "resolvers" in top else None, "resolvers",
                     "expected a non-empty list of resolvers (or from_ansible: naming a group with hosts)")
        problems.raise_if_any()
        return ()
    out = []
    seen: dict[str, int] = {}
    endpoints: dict[tuple[str, int], str] = {}
    for i, (entry, keypath, container, at) in enumerate(entries):
        resolver = _resolver(entry, keypath, container, at, site_names, problems)
        if resolver is None:
            continue
        if resolver.name in seen:
            problems.add(container, at, f"{keypath}.name", f"resolver {resolver.name!r} is listed twice")
            continue
        key = (str(resolver.address), resolver.port)
        if key in endpoints:
            problems.add(container, at, f"{keypath}.address",
                         f"{resolver.endpoint} is listed twice (also {endpoints[key]})")
            continue
        seen[resolver.name] = i
        endpoints[key] = resolver.name
        out.append(resolver)
    problems.raise_if_any()
    return own_backup_dirs(out)


def _machine(target: str) -> str:
    """The machine a target reaches (its user left out): two resolvers there share its folders."""
    found = SSH_TARGET.match(target)
    if found is None:
        return target
    return f"{found.group('host').lower()}:{found.group('port') or 22}"


def own_backup_dirs(resolvers: list[Resolver]) -> tuple[Resolver, ...]:
    """Resolvers of one machine that give one backup_dir (several daemons on a host, one folder
    for their backups) each get a folder of their own in it, `<backup_dir>/<name>`: the lock, the
    last apply's record and the pending marker are per resolver, never one resolver's lock taken
    for another's (t24-conf finding 09)."""
    sharing: dict[tuple[str, str], list[str]] = {}
    for resolver in resolvers:
        if resolver.manage and resolver.backup_dir:
            sharing.setdefault((_machine(resolver.target), resolver.backup_dir), []).append(resolver.name)
    out = []
    for resolver in resolvers:
        names = sharing.get((_machine(resolver.target), resolver.backup_dir), [])
        if len(names) > 1:
            resolver = replace(resolver, backup_dir=str(PurePosixPath(resolver.backup_dir, resolver.name)),
                               shared_backup_dir=resolver.backup_dir)
        out.append(resolver)
    return tuple(out)


def _from_ansible(top: dict[str, Any], folder: Path, problems: Problems) -> list[tuple[Any, str, Any, Any]]:
    """`from_ansible: {inventory, group, defaults}`: one entry per host of the group, read with
    Ansible's own inventory loader (dns/ansible_inventory.py), checked as any other entry."""
    spec = check_mapping(top["from_ansible"], "from_ansible", {"inventory", "group", "defaults"}, problems,
                         top, "from_ansible")
    if spec is None:
        return []
    inventory, group, defaults = spec.get("inventory"), spec.get("group"), spec.get("defaults", {})
    wanted = (("inventory", inventory, str), ("group", group, str), ("defaults", defaults, dict))
    for key, value, want in wanted:
        if not isinstance(value, want):
            problems.add(spec, key if key in spec else None, f"from_ansible.{key}",
                         f"expected {'a mapping' if want is dict else 'a string'}, got {shown(value)}")
    if not isinstance(inventory, str) or not isinstance(group, str) or not isinstance(defaults, dict):
        return []
    defaults = {str(k): v for k, v in defaults.items()}
    unknown = sorted(set(defaults) - _RESOLVER_KEYS)
    if unknown:
        problems.add(defaults, unknown[0], f"from_ansible.defaults.{unknown[0]}",
                     f"unknown key (known: {', '.join(sorted(_RESOLVER_KEYS))})")
        return []
    out = []
    for host, values in hosts_of((folder / inventory).resolve(), group, problems.file):
        entry, why = resolver_entry(host, values, defaults)
        keypath = f"from_ansible[{host}]"
        for message in why:
            problems.add(spec, "inventory", keypath, message)
        if not why:
            out.append((entry, keypath, spec, "group"))
    return out


def _resolver(entry: Any, keypath: str, container: Any, at: Any, site_names: set[str] | None,
              problems: Problems) -> Resolver | None:
    if check_mapping(entry, keypath, _RESOLVER_KEYS | _REFUSED_KEYS, problems, container, at) is None:
        return None
    start = len(problems.items)

    def bad(key: str, message: str) -> None:
        problems.add(entry, key if key in entry else None, f"{keypath}.{key}", message)

    manage = entry.get("manage", True)
    if not isinstance(manage, bool):
        bad("manage", f"expected true or false, got {shown(manage)}")
    elif not manage:
        return _asked(entry, site_names, bad, problems, start)

    name, address, port = _endpoint(entry, bad)
    backend = entry.get("backend", BACKEND_NAMES[0])
    if backend not in BACKEND_NAMES:
        bad("backend", f"unsupported backend {shown(entry.get('backend'))} "
                       f"(supported: {', '.join(BACKEND_NAMES)})")
        defaults, unused, api = None, frozenset[str](), None
    else:
        # its own keys (an API backend's api, api_key_file, ...), and the keys it has no use for
        # (the key itself, a file backend's keys on an API backend), each refused with its reason
        api = BACKENDS[backend].check_keys(entry, bad)
        unused = BACKENDS[backend].unused_keys
        conf = entry.get("conf_file")
        defaults = BACKENDS[backend].default_commands(conf if isinstance(conf, str) else None)
    target = entry.get("target", "local")
    if not isinstance(target, str) or not (target == "local" or SSH_TARGET.match(target)):
        bad("target", f"expected local or ssh://user@host[:port], got {shown(target)}")
    folders = {}
    for key in ("snippet_dir", "backup_dir"):
        if key in unused:
            continue  # an API backend's: its snippet_dir is virtual (ApiSettings.folder)
        value = entry.get(key)
        if not isinstance(value, str) or not value.startswith("/") or UNSAFE.search(value) \
                or ".." in PurePosixPath(value).parts:
            bad(key, f"expected an absolute folder path, got {shown(value)}")
        else:
            folders[key] = str(PurePosixPath(value))
    hosts_dir = entry.get("hosts_dir")
    if hosts_dir is not None:
        if not isinstance(hosts_dir, str) or not hosts_dir.startswith("/") or UNSAFE.search(hosts_dir) \
                or ".." in PurePosixPath(hosts_dir).parts:
            bad("hosts_dir", f"expected an absolute folder path, got {shown(hosts_dir)}")
        elif str(PurePosixPath(hosts_dir)) in folders.values():
            bad("hosts_dir", "must be a folder of its own (not snippet_dir or backup_dir)")
        else:
            hosts_dir = str(PurePosixPath(hosts_dir))
    if len(folders) == 2:
        snippet, backup = PurePosixPath(folders["snippet_dir"]), PurePosixPath(folders["backup_dir"])
        if backup == snippet or snippet in backup.parents:
            bad("backup_dir", "must lie outside snippet_dir (dnsmasq would load the backups)")
    if "snippet_dir" in unused and api is not None:
        folders["snippet_dir"] = api.folder
    commands: dict[str, tuple[str, ...]] = {}
    for n, key in enumerate(("test", "reload")):
        if (key not in entry or key in unused) and defaults is not None:
            commands[key] = defaults[n]
            continue
        value = entry.get(key)
        if not isinstance(value, list) or not value or not all(
                isinstance(a, str) and a and not UNSAFE.search(a) for a in value):
            bad(key, "expected a command as a list of arguments, e.g. [systemctl, restart, dnsmasq]")
        else:
            commands[key] = tuple(value)
    sites = _names(entry, "sites", site_names, bad, default=tuple(sorted(site_names or ())))
    dhcp = _names(entry, "dhcp", set(sites) if site_names is not None else None, bad,
                  default=() if "dhcp" in unused else sites)
    ssh_config = entry.get("ssh_config")
    if ssh_config is not None and (not isinstance(ssh_config, str) or UNSAFE.search(ssh_config)):
        bad("ssh_config", f"expected a file path, got {kind(ssh_config)}")
    sudo = entry.get("sudo", False)
    if not isinstance(sudo, bool):
        bad("sudo", f"expected true or false, got {shown(sudo)}")
    conf_file = entry.get("conf_file")
    if conf_file is not None and (not isinstance(conf_file, str) or not conf_file.startswith("/")
                                  or UNSAFE.search(conf_file)):
        bad("conf_file", f"expected an absolute file path, got {shown(conf_file)}")
    python = entry.get("python")
    if python is not None and (not isinstance(python, str) or not python.startswith("/")
                               or UNSAFE.search(python)):
        bad("python", f"expected an absolute file path, got {shown(python)}")
    query_log = entry.get("query_log")
    if query_log is not None and "query_log" not in unused and (
            not isinstance(query_log, str) or not query_log.startswith("/") or UNSAFE.search(query_log)
            or ".." in PurePosixPath(query_log).parts):
        bad("query_log", f"expected an absolute file path, got {shown(query_log)}")
    check_layout = entry.get("check_layout", True)
    if not isinstance(check_layout, bool):
        bad("check_layout", f"expected true or false, got {shown(check_layout)}")
    timeout = entry.get("timeout", 2.0)
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not 0 < timeout <= 60:
        bad("timeout", f"expected seconds between 0 and 60, got {shown(timeout)}")
    if len(problems.items) > start:
        return None
    assert address is not None
    return Resolver(name, address, port, target, folders["snippet_dir"], folders["backup_dir"],
                    commands["test"], commands["reload"], sites, dhcp, ssh_config, sudo, float(timeout),
                    check_layout, conf_file, python, backend, hosts_dir, api=api,
                    query_log=None if query_log is None else str(PurePosixPath(query_log)))


def _endpoint(entry: dict[str, Any], bad: Any) -> tuple[Any, Any, Any]:
    """A resolver's name, address and port, each checked (managed or not, one rule)."""
    name = entry.get("name")
    if label_problem(name, "resolver name"):
        bad("name", label_problem(name, "resolver name") or "")
    address = parse_address(entry["address"]) if isinstance(entry.get("address"), str) else None
    if address is None:
        bad("address", f"invalid address {shown(entry.get('address'))}")
    port = entry.get("port", 53)
    if not isinstance(port, int) or isinstance(port, bool) or not 1 <= port <= 65535:
        bad("port", f"expected a port number 1-65535, got {shown(port)}")
    return name, address, port


def _asked(entry: dict[str, Any], site_names: set[str] | None, bad: Any, problems: Problems,
           start: int) -> Resolver | None:
    """A `manage: false` resolver: only where it answers, for which sites, how long to wait."""
    for key in sorted(set(entry) - _ASKED_KEYS):
        bad(key, "not used with manage: false (renamer never writes, tests or restarts this resolver; "
                 "it only asks it over DNS): remove the key, or set manage: true")
    name, address, port = _endpoint(entry, bad)
    timeout = entry.get("timeout", 2.0)
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not 0 < timeout <= 60:
        bad("timeout", f"expected seconds between 0 and 60, got {shown(timeout)}")
    sites = _names(entry, "sites", site_names, bad, default=tuple(sorted(site_names or ())))
    if len(problems.items) > start:
        return None
    assert address is not None and isinstance(name, str)
    # No target, folders or commands: dns/transport.py refuses to open one for it.
    return Resolver(name, address, port, "unmanaged", "", "", (), (), sites, (), timeout=float(timeout),
                    check_layout=False, manage=False)


def _names(entry: dict[str, Any], key: str, known: set[str] | None, bad: Any,
           default: tuple[str, ...]) -> tuple[str, ...]:
    if key not in entry:
        return default
    value = entry[key]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        bad(key, f"expected a list of site names, got {kind(value)}")
        return ()
    unknown = [v for v in value if known is not None and v not in known]
    if unknown:
        bad(key, f"unknown site {', '.join(map(repr, unknown))} (known: {', '.join(sorted(known or ()))})")
        return ()
    return tuple(dict.fromkeys(value))
