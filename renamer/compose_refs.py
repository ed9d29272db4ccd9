"""A docker compose file's service names, where the file reads them (break-it round 8, finding 4).

A compose service's name is an identity within its project: `depends_on: [pug]`, `links:
["pug:db"]`, `extends: {service: pug}`, `network_mode: service:pug`, `volumes_from: [pug]` name
the service, and `http://pug:80` reaches it by its name on the project's network. Each bare
word `pug` in a compose file (not an image, a build context, a container or host name, which
name other things) is a reference to the key `services.pug`, decided by that key's fate in the
compose files of the same folder (renamer/sweep/key_index.py): renamed, it follows; kept (a
`# renamer: keep` on the service), it is kept with it; else a `key-reference` residual. Pure:
bytes in, spans out.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection

from renamer import lazy_re
from renamer.key_refs import KeyRef

_COMPOSE = lazy_re.compile(r"(?:^|/)(?:docker-)?compose(?:[.-][^/]*)?\.ya?ml$")
# The values that name something else than a service of the file.
_OTHER = lazy_re.compile(rb"^(?:\xef\xbb\xbf)?"  # a leading BOM
                    rb"[ \t]*(?:-[ \t]*)?(?:image|build|context|dockerfile|container_name|hostname|"
                    rb"domainname|name|labels)[ \t]*:", re.MULTILINE)
_LINE = lazy_re.compile(rb"[^\n]*")


def is_compose(rel: str) -> bool:
    return _COMPOSE.search(rel) is not None


def compose_refs(data: bytes, names: Collection[str]) -> list[KeyRef]:
    """Every bare old service name of `data` (a compose file) as a reference to `services.NAME`."""
    if b"services" not in data:
        return []
    out: list[KeyRef] = []
    for name in names:
        word = re.compile(rb"(?<![A-Za-z0-9_.@$-])(?<![^/]/)" + re.escape(name.encode())
                          + rb"(?![A-Za-z0-9_-])(?!\.[A-Za-z0-9])")
        for found in word.finditer(data):
            start = data.rfind(b"\n", 0, found.start()) + 1
            line = _LINE.match(data, start)
            assert line is not None
            if _OTHER.match(line.group()) is not None:
                continue
            text = line.group().strip().decode("utf-8", "replace")
            out.append(KeyRef(found.start(), found.end(), name, ("services", name), text, True, local=True))
    return sorted(out, key=lambda r: r.start)


# A compose file's `env_file:` (a path, or a list of paths or of `path:` entries).
_ENV_FILE = lazy_re.compile(r"^(?P<indent>[ \t]*)env_file[ \t]*:[ \t]*(?P<value>[^\n#]*)", re.MULTILINE)
_ENV_ITEM = lazy_re.compile(r"""^[ \t]*-[ \t]*(?:path[ \t]*:[ \t]*)?["']?(?P<path>[^"'\s#]+)""")
_ENV_LINE = lazy_re.compile(rb"^[ \t]*(?:export[ \t]+)?[A-Za-z_][A-Za-z0-9_]*[ \t]*=(?P<value>[^\n]*)",
                       re.MULTILINE)


def env_files(text: str) -> list[str]:
    """The paths (as written) a compose file's services read their environment from (break-it
    round 9, finding 3): `env_file: .env`, `env_file: [a.env]`, a list of them."""
    out: list[str] = []
    for found in _ENV_FILE.finditer(text):
        value = found.group("value").strip()
        if value.startswith("["):
            out.extend(p.strip().strip("'\"") for p in value.strip("[]").split(",") if p.strip())
        elif value:
            out.append(value.strip("'\""))
        else:
            for line in text[found.end():].split("\n")[1:]:
                item = _ENV_ITEM.match(line)
                if item is None:
                    if line.strip().startswith(("required", "format")) or not line.strip():
                        continue
                    break
                out.append(item.group("path"))
    return out


# A bind mount's source, short syntax: `- ./nginx.conf:/etc/nginx/nginx.conf:ro`, in a flow list too.
_MOUNT = lazy_re.compile(
    r"""(?:^[ \t]*-[ \t]*|[\[,][ \t]*)["']?(?P<path>\.{1,2}/[^:"'\s,\]]+):/""", re.MULTILINE)
# Where a mounted configuration file names a host: `http://pug:5432`, `pug:5432`, `//pug/`.
_MOUNTED_LINE = lazy_re.compile(rb"[^\n]+")


def mounted_files(text: str) -> list[str]:
    """The relative paths (as written) a compose file bind-mounts into its services' containers."""
    return [m.group("path") for m in _MOUNT.finditer(text)]


@functools.lru_cache(maxsize=256)
def _word(name: bytes, mounted: bool) -> re.Pattern[bytes]:
    """`name` as a host in an env file's value (or, `mounted`, after `//` or before `:PORT`). The
    name comes first and the lookbehinds after it, over the name's own width: a pattern that starts
    with a literal is searched for that literal, one that starts with a lookbehind tries every byte
    (issue 30: a homelab repo's env files took seconds)."""
    n = re.escape(name)
    if mounted:
        return re.compile(n + rb"(?<=//" + n + rb")(?![A-Za-z0-9_.-])"
                          rb"|" + n + rb"(?<![A-Za-z0-9_.@$/-]" + n + rb")(?=:\d)")
    return re.compile(n + rb"(?<![A-Za-z0-9_.@$-]" + n + rb")(?<![^/]/" + n + rb")"
                      rb"(?![A-Za-z0-9_-])(?!\.[A-Za-z0-9])")


def env_refs(data: bytes, names: Collection[str], project: str, *, mounted: bool = False) -> list[KeyRef]:
    """Each old service name standing as a value's host in an env file the compose file `project`
    gives its services (`DB_HOST=pug`, `URL=http://pug:80`): a reference to `services.NAME` there;
    in a file it bind-mounts (`mounted`), a name with a port or after `//` only (`proxy_pass
    http://pug:5432`): a bare word there may name anything (an nginx upstream, a user)."""
    out: list[KeyRef] = []
    for name in names:
        if name.encode() not in data:
            continue
        word = _word(name.encode(), mounted)
        # From each hit to its line (a file has few hits and many lines): in a `NAME=` line's value,
        # or (mounted) on any line.
        for found in word.finditer(data):
            start = data.rfind(b"\n", 0, found.start()) + 1
            line = (_MOUNTED_LINE if mounted else _ENV_LINE).match(data, start)
            value = "value" if not mounted else 0
            if line is None or not line.start(value) <= found.start() < line.end(value):
                continue
            text = line.group().strip().decode("utf-8", "replace")
            out.append(KeyRef(found.start(), found.end(), name, ("services", name), text, True,
                              local=True, project=project))
    return sorted(out, key=lambda r: r.start)
