"""The search lists a container's bare values are looked up through, read across files.

Break-it round 14 (finding 4): a compose service's `env_file` beside its `dns_search`. Issue 27
adds the same list reached through more of compose's grammar and `docker run`: a service that
`extends` another (in the same file or another) takes its `dns_search` (and its `env_file`); a file
a compose file names under `include:` is a compose file whatever its name; `docker run
--dns-search ana.lan --env-file app.env` reads app.env through the list. Listed once by the plan
from the paths and the compose files (a record's are none), as compose loads them.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from renamer import tool_names
from renamer.formats.yaml_source import parse_yaml_text
from renamer.sweep.tool_names import _COMPOSE_NAME, _read

EnvFiles = tuple[tuple[str, tuple[str, ...], str], ...]
# (compose file, service, the domains it takes, where they come from)
Services = tuple[tuple[str, str, tuple[str, ...], str], ...]
_SCRIPTS = (".sh", ".bash", ".service", ".container", "makefile", ".mk", "justfile")


class _Composes:
    """The repo's compose files, each read and parsed once."""

    def __init__(self, root: Path, listed: set[str], limit: int) -> None:
        self.root, self.listed, self.limit = root, listed, limit
        self.raw: dict[str, bytes | None] = {}
        self.docs: dict[str, Any] = {}

    def data(self, rel: str) -> bytes | None:
        if rel not in self.raw:
            self.raw[rel] = _read(self.root, rel, self.limit) if rel in self.listed else None
        return self.raw[rel]

    def services(self, rel: str) -> dict[str, Any]:
        if rel not in self.docs:
            data = self.data(rel)
            self.docs[rel] = parse_yaml_text(data.decode("utf-8", "replace"), pure=True) if data else None
        document = self.docs[rel]
        services = document.get("services") if isinstance(document, dict) else None
        if not isinstance(services, dict):
            return {}
        return {str(k): v for k, v in services.items() if isinstance(v, dict)}

    def includes(self, rel: str) -> list[str]:
        """The files `rel`'s top-level `include:` names (a path, a list, `- path:` entries)."""
        data = self.data(rel)
        if data is None or b"include" not in data:
            return []
        self.services(rel)
        document = self.docs.get(rel)
        entries = document.get("include") if isinstance(document, dict) else None
        out = []
        for entry in entries if isinstance(entries, list) else []:
            paths = entry.get("path") if isinstance(entry, dict) else entry
            for path in [paths] if isinstance(paths, str) else paths if isinstance(paths, list) else []:
                if isinstance(path, str):
                    out.append(posixpath.normpath(posixpath.join(posixpath.dirname(rel), path)))
        return out


def _env_paths(conf: str, service: dict[str, Any]) -> list[str]:
    env = service.get("env_file")
    paths = [env] if isinstance(env, str) else env if isinstance(env, list) else []
    out = []
    for path in paths:
        path = path.get("path") if isinstance(path, dict) else path
        if isinstance(path, str):
            out.append(posixpath.normpath(posixpath.join(posixpath.dirname(conf), path)))
    return out


def _base(composes: _Composes, conf: str, service: dict[str, Any], depth: int = 0,
          ) -> tuple[tuple[str, ...], str, str, list[str]]:
    """What a service takes from the service it `extends` (and so on): (the `dns_search`
    domains, the base's file, its name, the env files the chain reads); ((), ...) for none."""
    extends = service.get("extends")
    if depth > 8 or extends is None:
        return (), "", "", []
    if isinstance(extends, str):
        file, name = conf, extends
    elif isinstance(extends, dict) and isinstance(extends.get("service"), str):
        other = extends.get("file")
        file = conf if not isinstance(other, str) else posixpath.normpath(
            posixpath.join(posixpath.dirname(conf), other))
        name = extends["service"]
    else:
        return (), "", "", []
    base = composes.services(file).get(name)
    if base is None:
        return (), "", "", []
    domains = tool_names.search_domains(base.get("dns_search"))
    env = _env_paths(file, base)
    if domains or base.get("dns_search") is not None:
        return domains, file, name, env
    inherited, where, whose, more = _base(composes, file, base, depth + 1)
    return inherited, where, whose, env + more


def compose_searches(root: Path, files: Sequence[str], limit: int,
                     record: Callable[[str], bool] = lambda rel: False) -> tuple[EnvFiles, Services]:
    """(env files a service with a search list reads, services that take their list from the
    service they extend) of the repo's compose files, those they include, and its scripts."""
    listed = set(files)
    composes = _Composes(root, listed, limit)
    queue = sorted(rel for rel in files if _COMPOSE_NAME.search(rel.lower()) and not record(rel))
    seen: list[str] = []
    while queue:
        conf = queue.pop(0)
        if conf in seen or record(conf):
            continue
        seen.append(conf)
        queue += composes.includes(conf)
    env_out: dict[str, tuple[tuple[str, ...], str]] = {}
    services_out: list[tuple[str, str, tuple[str, ...], str]] = []
    for conf in seen:
        data = composes.data(conf)
        if data is None or (b"dns_search" not in data and b"extends" not in data):
            continue
        for name, service in composes.services(conf).items():
            domains = tool_names.search_domains(service.get("dns_search"))
            env = _env_paths(conf, service)
            if not domains and service.get("dns_search") is None and "extends" in service:
                domains, where, whose, more = _base(composes, conf, service)
                env += more
                if domains:
                    how = f"`dns_search: {', '.join(domains)}` of service {whose} of {where} (`extends`)"
                    services_out.append((conf, name, domains, how))
            for rel in env if domains else []:
                if rel in listed:
                    env_out.setdefault(rel, (domains, conf))
    for rel in files:  # `docker run --dns-search ana.lan --env-file app.env`
        if not rel.lower().endswith(_SCRIPTS) or record(rel):
            continue
        data = _read(root, rel, limit)
        for path, domains in tool_names.docker_run_env_files(data) if data else ():
            env_rel = posixpath.normpath(posixpath.join(posixpath.dirname(rel), path))
            if env_rel in listed:
                env_out.setdefault(env_rel, (domains, rel))
    return (tuple((rel, domains, conf) for rel, (domains, conf) in sorted(env_out.items())),
            tuple(services_out))
