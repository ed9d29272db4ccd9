"""A machine's resolver search list, from the files that set it.

With `search ana.lan` in /etc/resolv.conf, a bare `pug` that a program on that machine looks up
(`ssh admin@pug`, `DB_HOST=pug`) resolves as pug.ana.lan. The same list is set by
systemd-resolved (`Domains=` in resolved.conf and in a networkd `.network` file; a `~domain` only
routes), netplan (`nameservers: {search: [...]}`), NetworkManager (`dns-search=`), dhclient
(`supersede domain-search "ana.lan";`, `domain-name`) and cloud-init (`manage_resolv_conf: true`
with `resolv_conf: {searchdomains: [...], domain: ...}`). Which files are such a configuration is
told by the path first (no file is read for it that is not one), then by a literal in the text.
Pure: a path and bytes in, the domains out.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Collection, Iterator

from renamer import lazy_re
from renamer.tool_names import Composed

_DOMAIN = lazy_re.compile(r"[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)+\.?")
_RESOLV = lazy_re.compile(rb"^[ \t]*(?P<key>search|domain)[ \t]+(?P<value>[^\r\n#;]*)", re.MULTILINE)
_SYSTEMD = lazy_re.compile(rb"^[ \t]*Domains[ \t]*=(?P<value>[^\r\n#;]*)", re.MULTILINE)
_NM = lazy_re.compile(rb"^[ \t]*dns-search[ \t]*=(?P<value>[^\r\n#]*)", re.MULTILINE)
_DHCLIENT = lazy_re.compile(rb"(?:^|[;\s])(?:supersede|prepend|append|default)[ \t]+"
                       rb"(?P<key>domain-search|domain-name)[ \t]+(?P<value>[^;]*);")
_QUOTED = lazy_re.compile(rb"\"(?P<value>[^\"]*)\"")
_NETPLAN_SEARCH = lazy_re.compile(
    rb"^(?P<indent>[ \t]*)search[ \t]*:[ \t]*(?P<value>[^\r\n#]*)", re.MULTILINE)
_CLOUD_SEARCH = lazy_re.compile(rb"^(?P<indent>[ \t]*)(?P<key>searchdomains|domain)[ \t]*:[ \t]*"
                           rb"(?P<value>[^\r\n#]*)", re.MULTILINE)
_ITEM = lazy_re.compile(rb"^(?P<indent>[ \t]*)-[ \t]*[\"']?(?P<value>[^\"'\r\n#]*)")


def kind(rel: str) -> str | None:
    """Which configuration `rel`'s path says it may be, or None (the cheap test: no read)."""
    lower = rel.lower()
    base = posixpath.basename(lower)
    for suffix in (".j2", ".tmpl", ".tpl", ".erb"):
        base = base.removesuffix(suffix)
    if base == "resolv.conf":
        return "resolv"
    if base == "resolved.conf" or ("resolved.conf.d/" in lower and base.endswith(".conf")) \
            or base.endswith(".network"):
        return "systemd"
    if "netplan" in lower and base.endswith((".yaml", ".yml")):
        return "netplan"
    if base.endswith(".nmconnection") or ("networkmanager" in lower and base.endswith(".conf")):
        return "nm"
    if base == "dhclient.conf":
        return "dhclient"
    if "cloud" in lower or "user-data" in lower or "user_data" in lower:
        return "cloud"
    return None


def search_list(rel: str, data: bytes) -> tuple[str, ...]:
    """The search domains `rel` sets for its machine, in order; () where none (or a value that
    is no literal domain: a template's variable)."""
    how = kind(rel)
    domains: list[bytes] = []
    if how == "resolv" and (b"search" in data or b"domain" in data):
        found = list(_RESOLV.finditer(data))
        if found:  # the last `search` or `domain` line is the one the resolver keeps
            domains = found[-1].group("value").split()
    elif how == "systemd" and b"Domains" in data:
        for line in _SYSTEMD.finditer(data):
            values = line.group("value").split()
            domains = [] if not values else domains + [v for v in values if not v.startswith(b"~")]
    elif how == "nm" and b"dns-search" in data:
        for line in _NM.finditer(data):
            domains += [v for v in re.split(rb"[;,\s]+", line.group("value")) if v]
    elif how == "dhclient" and b"domain-" in data:
        for line in _DHCLIENT.finditer(re.sub(rb"#[^\n]*", b"", data)):  # a comment is no statement
            values = [q.group("value") for q in _QUOTED.finditer(line.group("value"))]
            domains += [d for v in values for d in v.split()]
    elif how == "netplan" and b"search" in data and b"nameservers" in data:
        domains = _yaml_lists(data, _NETPLAN_SEARCH)
    elif how == "cloud" and b"manage_resolv_conf" in data and re.search(
            rb"(?m)^[ \t]*manage_resolv_conf[ \t]*:[ \t]*(?:true|True|yes)[ \t]*(?:#.*)?$", data):
        domains = _yaml_lists(data, _CLOUD_SEARCH)
    text = tuple(dict.fromkeys(d.decode("utf-8", "replace").rstrip(".") for d in domains))
    return text if text and all(_DOMAIN.fullmatch(d) for d in text) else ()


def _yaml_lists(data: bytes, key: re.Pattern[bytes]) -> list[bytes]:
    """The items of each `key:` list (flow `[a, b]`, a scalar, or a block list below it)."""
    out: list[bytes] = []
    lines = data.split(b"\n")
    for found in key.finditer(data):
        value = found.group("value").strip()
        if value:
            out += [v.strip(b" \t\"'") for v in value.strip(b"[]").split(b",") if v.strip(b" \t\"'")]
            continue
        row = data.count(b"\n", 0, found.start())
        for line in lines[row + 1:]:
            item = _ITEM.match(line)
            if not line.strip():
                continue
            if item is None or len(item.group("indent")) < len(found.group("indent")):
                break
            out.append(item.group("value").strip())
    return out


def machine(rel: str) -> str:
    """The folder of the machine a configuration file configures: the one holding its `etc`
    (`hosts/pug/etc/resolv.conf` -> `hosts/pug`), else its own folder."""
    parts = rel.split("/")
    if "etc" in parts[:-1]:
        at = len(parts) - 1 - parts[-2::-1].index("etc") - 1
        return "/".join(parts[:at])
    return posixpath.dirname(rel)


# A bare name (tool_names._BARE), a path's component aside: `/pug/`, `pug/x` (a URL's `//pug` is a host).
_BARE = lazy_re.compile(rb"(?<![A-Za-z0-9_.-])[A-Za-z0-9_-]+(?![A-Za-z0-9_-]|\.[A-Za-z0-9])")
_HOSTS_LINE = lazy_re.compile(rb"[ \t]*[0-9A-Fa-f:.]*[:.][0-9A-Fa-f:.]*[ \t]")


def looked_up(data: bytes, words: Collection[str], domains: tuple[str, ...], how: str) -> Iterator[Composed]:
    """Each bare host word of `data` a program of the machine would look up through its search
    list: all but a path's component and a hosts line's names (`10.0.40.11 pug` defines `pug`,
    which /etc/hosts answers as written)."""
    for word in _BARE.finditer(data):
        text = word.group().decode("utf-8", "replace")
        if text not in words:
            continue
        before, after = data[max(0, word.start() - 2):word.start()], data[word.end():word.end() + 1]
        if after == b"/" or (before.endswith(b"/") and before != b"//"):
            continue
        line = data.rfind(b"\n", 0, word.start()) + 1
        if _HOSTS_LINE.match(data, line) is not None:
            continue
        yield Composed(word.start(), word.end(), text, "", f".{domains[0]}", how,
                       tuple(f".{d}" for d in domains[1:]))
