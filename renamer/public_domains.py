"""A short host name followed into a domain the repo does not show as its own (break-it round 23,
findings 17 and 18).

`web01: app01` carries `web01.lab` to `app01.lab` (configuration.md): the short name's FQDNs
follow it. Under `debian -> srv01` that rule made chrony's `pool debian.pool.ntp.org` the NXDOMAIN
`srv01.pool.ntp.org`, and under `grafana -> metrics` `https://grafana.github.io/helm-charts`
became `metrics.github.io` and `https://grafana.com/grafana/dashboards/1860` became
`https://metrics.com/metrics/...`: another organisation's names. Now a short name followed by a
domain is decided by that domain:

* under a private-use or unknown top-level label (`lab`, `lan`, `home.arpa`, `example`,
  `internal`, anything not in PUBLIC_TLDS), or under a domain the renames show to be the repo's
  own (an FQDN rename's domain and its parents: `web01.mycorp.com: ...` owns `mycorp.com`): it
  follows, as before;
* the name as the registrable label of a public suffix (`proxmox.com`, `grafana.github.io`,
  `debian.pool.ntp.org`, `nas.co.uk`): another organisation's domain, no host of the repo: kept
  `public-domain`, and the path of a URL on it (`/grafana/dashboards`) with it;
* deeper under a public domain the repo does not show as its own (`web01.mycorp.de`): it may be
  the lab's real domain or someone else's; a residual `public-domain`, never a silent rewrite
  (name the domain's FQDN in the renames to follow it).

Round 24 (findings 04, 21, 29): the TLD list decides only bare names. The host of a URL
(`https://ntfy.sh/topic`, `https://linkding.link/`) is a domain whatever its top-level label:
a top-level label of URL_TLDS (`.sh`, `.link`, `.video`, left out of PUBLIC_TLDS for bare names) is
public there too. A top-level label no list knows still follows (a lab's `.homelab`, a Kubernetes
namespace in `http://pug.db:5432`): a known gap, docs/reliability.md.
A URL's path on a public host the repo does not own (`http://deb.debian.org/debian`,
`https://download.proxmox.com/debian/pve`) is that server's namespace: kept. And a public suffix
is nobody's own: `docs.mycorp.co.uk` owns `mycorp.co.uk`, never `co.uk` (is_suffix).

Pure: bytes and names in, decisions out.
"""

from __future__ import annotations

from collections.abc import Iterable

from renamer import lazy_re

KEPT = "public-domain"
# Top-level labels a lab's private names never end in: generic and country TLDs in wide use on the
# public internet. Left out on purpose where they read as a file's extension (`.sh`, `.md`, `.pl`,
# `.py`, `.rs`, `.so`, `.pm`, `.mk`, `.ai`, `.in`, `.ps`, `.cc`, `.ml`, `.do`, `.am`, `.im`, `.ac`):
# `web01.sh` is a script named after the host.
PUBLIC_TLDS = frozenset({
    "com", "org", "net", "io", "dev", "app", "cloud", "info", "biz", "xyz", "online", "site", "tech", "page",
    "eu", "de", "uk", "fr", "nl", "us", "ca", "au", "ch", "at", "be", "se", "no", "dk", "fi", "cz", "es",
    "it", "jp", "cn", "ru", "br", "nz", "ie", "co", "gg", "tv", "me", "edu", "gov"})
# Of those, the ones a lab's own spelling may also end in (an environment suffix `web01.dev`, a
# macOS bundle `Grafana.app`, `pug.me`): the name right under one is a residual, never kept silently.
WEAK = frozenset({"dev", "app", "me", "it", "no", "co", "tv", "gg", "page", "site", "online", "tech", "cloud",
                  "xyz", "info", "biz", "edu", "gov", "eu", "us"})
# Public suffixes of two or more labels under which a name is the registrable one (each a domain
# whose owner hands out names to others: the public suffix list's and the NTP pool's vendor zones).
SHARED = frozenset({
    "co.uk", "org.uk", "ac.uk", "com.au", "net.au", "org.au", "co.jp", "co.nz", "com.br",
    "github.io", "gitlab.io", "githubusercontent.com", "pages.dev", "netlify.app", "vercel.app",
    "herokuapp.com", "readthedocs.io", "pool.ntp.org", "blogspot.com", "appspot.com",
    "azurewebsites.net", "cloudfront.net", "web.app", "firebaseapp.com"})
# Top-level labels of the public internet left out of PUBLIC_TLDS because a bare `NAME.sh` reads as a
# file, or because they are rarer: after `scheme://` each is a domain (round 24, finding 04).
URL_TLDS = frozenset({
    "sh", "md", "pl", "py", "rs", "so", "pm", "ai", "in", "ps", "cc", "ml", "do", "am", "im", "ac", "link",
    "video", "pet", "network", "zone", "run", "social", "space", "world", "live", "news", "blog", "club",
    "store", "shop", "tools", "host", "website", "software", "systems", "digital", "email", "one", "top",
    "fun", "studio", "media", "games", "design", "codes", "cool", "win", "ninja", "rocks", "today",
    "company", "services", "solutions", "community", "chat", "land", "cafe", "fyi", "wiki", "to", "ly",
    "fm", "is", "ws", "li", "lu", "pt", "gr", "hu", "ro", "sk", "si", "hr", "lt", "lv", "ee", "ua",
    "tw", "hk", "sg", "kr", "za", "mx", "ar", "cl", "tr", "il", "ir", "id", "my", "th", "vn", "ph", "pk",
    "academy", "monster", "icu", "vip", "pro", "mobi", "name", "travel", "photo",
    "photos", "pics", "pictures", "guru", "expert", "works", "party", "date", "review", "download"})
# Second labels under a country code that its registry hands out (`co.uk`, `com.br`, `or.jp`).
_SECOND_LEVEL = frozenset({"co", "com", "org", "net", "ac", "gov", "edu", "ne", "or", "go", "gv", "nom",
                           "ltd", "plc", "me", "gen", "info", "biz", "mil", "sch", "nic"})
# RFC 2606's documentation domains: no organisation's names, as a lab's placeholders they follow.
RESERVED = frozenset({"example.com", "example.net", "example.org"})
_TAIL = lazy_re.compile(rb"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+\.?(?![A-Za-z0-9_-])")
_URL_HEAD = lazy_re.compile(rb"[A-Za-z][A-Za-z0-9+.-]{0,20}://([^/\s\"'<>?#]+)")
_BARE_HEAD = lazy_re.compile(rb"(?<![A-Za-z0-9_.@/:$%-])((?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,})(?=/[A-Za-z0-9])")


def own_domains(hosts: Iterable[tuple[str, str]]) -> frozenset[str]:
    """The domains the renames show to be the repo's own: each FQDN's domain (old and new) and
    its parents of two labels or more."""
    out: set[str] = set()
    for pair in hosts:
        for name in pair:
            labels = name.rstrip(".").lower().split(".")[1:]
            # a public suffix is nobody's own (round 24, finding 29): `mycorp.co.uk`, never `co.uk`
            while labels and not is_suffix(".".join(labels)) \
                    and (len(labels) >= 2 or labels[0] not in PUBLIC_TLDS):
                out.add(".".join(labels))
                labels = labels[1:]
    return frozenset(out)


def is_suffix(domain: str) -> bool:
    """Is `domain` (lower case, no trailing dot) a public suffix, under which others register
    names: a public top-level label, a shared suffix (`github.io`), or a registry's second level
    under a country code (`co.uk`, `com.au`, `co.za`, `or.jp`)?"""
    labels = domain.split(".")
    if len(labels) == 1:
        return domain in PUBLIC_TLDS or domain in URL_TLDS
    if domain in SHARED:
        return True
    return len(labels) == 2 and labels[0] in _SECOND_LEVEL and len(labels[1]) == 2 and labels[1].isalpha()


def domain_after(data: bytes, end: int) -> str:
    """The domain written after a name ending at `end` (`.pool.ntp.org`), or ""."""
    tail = _TAIL.match(data, end)
    return tail.group().decode("ascii", "replace") if tail else ""


def decide(data: bytes, end: int, own: frozenset[str], *, in_url: bool = False) -> str | None:
    """What the domain after a short name ending at `end` makes of it: "kept" (another
    organisation's registrable name), "residual" (under a public domain the repo does not show as
    its own) or None (follow: no domain, a private one, or the repo's own). `in_url`: the name is
    a URL's host, a domain whatever its top-level label (round 24, finding 04)."""
    tail = _TAIL.match(data, end)
    if tail is None:
        return None
    domain = tail.group()[1:].rstrip(b".").decode("ascii", "replace").lower()
    labels = domain.split(".")
    if labels[-1] not in PUBLIC_TLDS and (not in_url or labels[-1] not in URL_TLDS):
        return None  # a TLD no list knows follows: a lab's, a Kubernetes namespace (`pug.db:5432`)
    if _owned(domain, own):
        return None
    if len(labels) == 1 and domain not in WEAK and (domain in PUBLIC_TLDS or domain in URL_TLDS):
        return "kept"
    if len(labels) > 1 and is_suffix(domain):
        return "kept"
    return "residual"


def _owned(domain: str, own: frozenset[str]) -> bool:
    return any(domain == o or domain.endswith("." + o) for o in (*own, *RESERVED))


def host_decision(data: bytes, span: tuple[int, int], own: frozenset[str]) -> str | None:
    """What a URL's host (`span`, from url_host) makes of a name in that URL's path (round 24,
    finding 21): "kept" where the host is public and not the repo's own (`deb.debian.org`: that
    server's namespace), None (follow) for a private, own, reserved or unknown host, an address
    or a single label."""
    host = data[span[0]:span[1]].rpartition(b"@")[2]
    if host.startswith(b"["):
        return None  # an IPv6 literal
    host = host.partition(b":")[0].rstrip(b".").lower()
    text = host.decode("ascii", "replace")
    labels = text.split(".")
    if len(labels) < 2 or all(label.isdigit() for label in labels) or _owned(text, own):
        return None
    top = labels[-1]
    return "kept" if top in PUBLIC_TLDS or top in URL_TLDS else None


# A bare domain in a host's place (outside round 25, finding 06): the value of a key naming a server,
# or a network command's argument; there a URL_TLDS label (`ntfy.sh`, `ollama.ai`) is a domain too.
_SERVER_KEY = lazy_re.compile(rb"(?i)(?:^(?:\xef\xbb\xbf)?|[\s{,\"'])[\"']?(?:[A-Za-z0-9_]*[_.-])?"
                         rb"(?:upstream|server|servers|host|hostname"
                         rb"|url|uri|endpoint|address|addr|domain|remote|proxy|base_url|baseurl|api_url"
                         rb"|registry|mirror|origin)[\"']?[ \t]*(?:[:=]|=>)[ \t]*[\"'\[]?[ \t]*\Z")
_NET_COMMAND = lazy_re.compile(rb"(?:^|[\s;&|(`$])(?:curl|wget|ping|ping6|ssh|nc|ncat|telnet|http|https|xh"
                          rb"|traceroute|mtr|dig|host|nslookup|openssl[ \t]+s_client)"
                          rb"(?:[ \t]+(?:-[^\s]*|\"[^\"\n]*\"|'[^'\n]*'|[^\s\"'-][^\s]*))*?[ \t]+[\"']?\Z")


def in_host_place(data: bytes, start: int, end: int) -> bool:
    """Does the name at data[start:end] begin a domain in a host's place though no scheme comes
    before it: a path follows the domain (`ntfy.sh/mytopic`, `ollama.ai/library/llama3`: no file
    name), it is the value of a key naming a server (`upstream: ntfy.sh`), or a network command's
    argument (`curl -d "..." ntfy.sh`)?"""
    tail = _TAIL.match(data, end)
    if tail is None:
        return False
    after = data[tail.end():tail.end() + 2]
    if after[:1] == b"/" and after[1:2].isalnum():
        return True
    line = data.rfind(b"\n", 0, start) + 1
    before = data[max(line, start - 200):start]
    return _SERVER_KEY.search(before) is not None or _NET_COMMAND.search(before) is not None


def url_host(data: bytes, start: int) -> tuple[int, int] | None:
    """(start, end) of the host of the URL whose host or path holds `start`, or None. A URL
    without a scheme counts where its host ends in a public top-level label and a path follows
    (a Go module path `code.gitea.io/sdk/gitea`, `deb.debian.org/debian`)."""
    line = data.rfind(b"\n", 0, start) + 1
    stop = data.find(b"\n", start)
    for head in (_URL_HEAD, _BARE_HEAD):
        for m in head.finditer(data, max(line, start - 2000), len(data) if stop < 0 else stop):
            if m.start() > start:
                break
            if head is _BARE_HEAD and m.group(1).rpartition(b".")[2].lower().decode() not in PUBLIC_TLDS:
                continue
            token_end = m.end()
            ends = b" \t\r\n\"'<>`" if head is _URL_HEAD else b" \t\r\n\"'<>`=,;()[]{}"
            while token_end < len(data) and data[token_end:token_end + 1] not in ends:
                token_end += 1
            if m.start(1) <= start < token_end:
                return m.span(1)
    return None
