"""Container image references and the software folders they name (break-it round 9, finding 10).

`image: pihole/pihole:2024.07.0` names a registry repository, not a host: a host renamed
`pihole -> dns1` made it `dns1/dns1`, an image that does not exist. Only an image reference's
registry part (its first component, when a `/` follows it and it holds a `.` or a `:` or is
`localhost`: `pug.lab.lan:5000/app`) can name a host; the repository path, the tag and the digest
are kept (`image`). Read from compose, Kubernetes and Nomad `image:`/`image =`, Helm
`repository:`, a Dockerfile's `FROM` and `docker|podman pull|push|run|create IMAGE`.

A software's own folder: where the same file names the old host as software (a repository path
component of an image) or the name is a well-known package's, the name as a component of an
absolute path (`/etc/pihole/`, `/var/lib/grafana`) is the software's folder, most likely not
the machine's: a residual `software-path`, never a silent rewrite. Pure: bytes in, spans out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from renamer import lazy_re

_TOKEN = rb"""["']?(?P<ref>[A-Za-z0-9$][A-Za-z0-9._/:@+${}-]*)"""
_KEYED = lazy_re.compile(rb"""(?im)(?:^[ \t]*(?:-[ \t]+)?|[{,][ \t]*)["']?(?:image|repository)["']?"""
                    rb"[ \t]*[:=][ \t]*" + _TOKEN)
_FROM = lazy_re.compile(rb"(?im)^[ \t]*FROM[ \t]+(?:--\S+[ \t]+)*" + _TOKEN)
_TOOL = rb"\b(?:docker|podman|nerdctl)[ \t]+"
_PULL = lazy_re.compile(_TOOL + rb"(?:image[ \t]+)?(?:pull|push)[ \t]+(?:-\S+[ \t]+)*" + _TOKEN)
_RUN = lazy_re.compile(_TOOL + rb"(?:container[ \t]+)?(?:run|create)[ \t]+(?P<rest>[^\n]*)")
# `docker run` options that take no value: any other option's next word is its value.
_FLAGS = frozenset({b"-d", b"-i", b"-t", b"-it", b"-ti", b"-dit", b"-itd", b"-P", b"--rm",
                    b"--detach", b"--interactive", b"--tty", b"--privileged", b"--init", b"--read-only",
                    b"-q", b"--quiet"})
# Software whose own folders (/etc/NAME, /var/lib/NAME) hosts are often named after.
WELL_KNOWN = frozenset({
    "pihole", "adguard", "adguardhome", "unbound", "dnsmasq", "bind", "named", "coredns", "grafana",
    "prometheus", "alertmanager", "loki", "influxdb", "telegraf", "nginx", "traefik", "caddy", "haproxy",
    "postgres", "postgresql", "mysql", "mariadb", "redis", "mongodb", "minio", "gitea", "gitlab", "jenkins",
    "nextcloud", "jellyfin", "plex", "homeassistant", "mosquitto", "zigbee2mqtt", "nodered", "portainer",
    "vault", "consul", "nomad", "wireguard", "openvpn", "samba", "syncthing", "elasticsearch", "kibana",
    "rabbitmq", "kafka", "zookeeper", "etcd", "docker", "k3s", "netdata", "uptime-kuma", "vaultwarden",
})
_PATH_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._/-${}")


HINTS = (b"image", b"epository", b"FROM", b"from", b"docker", b"podman", b"nerdctl")


@dataclass(frozen=True)
class ImageRef:
    start: int  # the reference's first byte
    repository: int  # where its repository path starts (after `registry/`), `start` if none
    end: int


def image_refs(data: bytes) -> list[ImageRef]:
    """Every image reference of `data` (see the module's note)."""
    if not any(word in data for word in HINTS):
        return []
    out: list[ImageRef] = []
    lowered = data.lower()
    # Every reference lies within one line that holds its keyword: the regexes run on those lines
    # only (over a whole compose file, the multiline patterns cost 1 ms a file; issue 30).
    for regex, haystack, words in ((_KEYED, lowered, (b"image", b"repository")), (_FROM, lowered, (b"from",)),
                                   (_PULL, data, _TOOLS), (_RUN, data, _TOOLS)):
        add = _add_run if regex is _RUN else _add_keyed
        for start, end in _lines_with(data, haystack, words):
            for hit in regex.finditer(data, start, end):
                add(data, hit, out)
    return sorted(out, key=lambda r: r.start)


_TOOLS = (b"docker", b"podman", b"nerdctl")


def _lines_with(data: bytes, haystack: bytes, words: tuple[bytes, ...]) -> list[tuple[int, int]]:
    """(start, end) of each line of `data` where `haystack` (data or data lower-cased) holds a word."""
    spans: set[tuple[int, int]] = set()
    for word in words:
        at = haystack.find(word)
        while at != -1:
            start = data.rfind(b"\n", 0, at) + 1
            end = data.find(b"\n", at)
            end = len(data) if end == -1 else end
            spans.add((start, end))
            at = haystack.find(word, end)
    return sorted(spans)


def _add_keyed(data: bytes, hit: re.Match[bytes], out: list[ImageRef]) -> None:
    start, end = hit.start("ref"), hit.end("ref")
    scheme = data.find(b"://", start, end)
    if scheme != -1:  # a chart repository's URL (`https://charts.pug.lan`) is no image
        if data[start:scheme].lower() not in (b"oci", b"docker"):
            return
        start = scheme + 3
    out.append(_parse(data, start, end))


def _add_run(data: bytes, hit: re.Match[bytes], out: list[ImageRef]) -> None:
    first = _run_image(data, hit.start("rest"), hit.end("rest"))
    if first is not None:
        last = first
        while last < len(data) and data[last] not in b" \t\r\n\"';|&)":
            last += 1
        out.append(_parse(data, first, last))


def _run_image(data: bytes, start: int, end: int) -> int | None:
    """The offset of `docker run`'s image: its first word that is no option nor an option's value."""
    pos, value_next = start, False
    for word in re.finditer(rb"\S+", data[start:end]):
        text = word.group()
        at = pos + word.start()
        if value_next:
            value_next = False
            continue
        if text.startswith(b"-"):
            value_next = b"=" not in text and text not in _FLAGS
            continue
        if text.startswith((b"/", b".", b"~", b"\\")) or b"=" in text:
            return None
        return at + (1 if text[:1] in (b'"', b"'") else 0)
    return None


def _parse(data: bytes, start: int, end: int) -> ImageRef:
    ref = data[start:end].rstrip(b",;")
    end = start + len(ref)
    first, slash, _ = ref.partition(b"/")
    registry = slash and (b"." in first or b":" in first or first == b"localhost")
    return ImageRef(start, start + len(first) + 1 if registry else start, end)


def in_repository(refs: list[ImageRef], start: int, end: int) -> bool:
    """Does start:end lie in an image reference's repository path, tag or digest (not its registry)?"""
    return any(r.repository <= start and end <= r.end for r in refs)


def in_tag(refs: list[ImageRef], data: bytes, start: int, end: int) -> bool:
    """Is start:end an image reference's whole tag (after the `:` that follows its repository
    path; a registry's `host:5000/` port is before the repository, never a tag)?"""
    return any(r.repository < start and end <= r.end and data[start - 1:start] == b":"
               and b"/" not in data[start:r.end] and data[end:r.end][:1] in (b"", b"@")
               for r in refs)


def software_names(data: bytes, refs: list[ImageRef]) -> set[str]:
    """The lower-cased words of every image's repository path (`pihole/pihole:tag` -> {pihole})."""
    out: set[str] = set()
    for r in refs:
        path = data[r.repository:r.end].split(b"@")[0]
        for part in path.split(b"/"):
            name = part.split(b":")[0].decode("ascii", "replace").lower()
            if name:
                out.add(name)
    return out


def in_absolute_path(data: bytes, start: int, end: int) -> bool:
    """Is start:end a whole component of an absolute path (`/etc/pihole/`, `/var/lib/pihole`), not
    a URL's host (`http://pihole/`) nor a relative path's (`./etc-pihole`, `host_vars/pihole/`)?"""
    if data[start - 1:start] != b"/":
        return False
    if end < len(data) and data[end] in _PATH_BYTES and data[end] != ord("/"):
        return False  # `/etc/pihole.d`: another word's start
    left = start
    while left > 0 and data[left - 1] in _PATH_BYTES:
        left -= 1
    run = data[left:start]
    if not run.startswith(b"/") or run.startswith(b"//"):
        return False
    before = data[left - 1:left] if left else b""
    return not (before.isalnum() or before in (b"@",))
