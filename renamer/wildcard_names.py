"""Names a wildcard DNS service answers with the address they spell (break-it round 21, finding
32): nip.io, sslip.io, xip.io and traefik.me answer `grafana.10.0.0.70.nip.io`,
`grafana-10-0-0-70.nip.io`, `app.10-0-0-70.sslip.io` and the hex `0a000046.nip.io` with
10.0.0.70. Homelab ingress values use them often; the exact rules see no address there (the dotted
form stands inside a longer name, the others spell none), so under `10.0.0.70 -> 10.0.1.70` each
was a near-miss or nothing and verify said OK while every one still resolved to the old address.

The service decodes the name, so the address is certain: the last four numbers before the
service's domain, joined by dots or by dashes, or eight hex digits ending a label; for sslip.io
also an IPv6 address as a whole label, its colons written as dashes (`fd00--70.sslip.io`). Where
the old address is renamed (or lies in a moved network), the name follows in the same spelling
(`10-0-1-70`, `0a000146` in the hex digits' case, an IPv6 address compressed with dashes); where
the network it lies in is moved to one of another size, which address the host gets is not
certain here: a residual `wildcard-dns`. Pure: bytes in, matches out.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable

from renamer import lazy_re
from renamer.occurrences import Match

REASON = "wildcard-dns"
# The services, and the literals a file holding one of their names holds (any case).
SERVICES = (b"nip.io", b"sslip.io", b"xip.io", b"traefik.me")
# A cloud's private (and public) DNS names spell the address they answer with (t36-33 finding 13):
# AWS `ip-10-0-0-70.ec2.internal`, `ip-10-0-0-70.eu-west-1.compute.internal` (EKS node names),
# the short host name `ip-10-0-0-70`, `ec2-203-0-113-5.compute-1.amazonaws.com`.
CLOUD_LITERALS = (b"ip-", b"IP-", b"ec2-", b"EC2-")
LITERALS = tuple(sorted({*SERVICES, *(s.upper() for s in SERVICES), *CLOUD_LITERALS}))
_SERVICE = rb"\.(?:nip\.io|sslip\.io|xip\.io|traefik\.me)(?![A-Za-z0-9-]|\.[A-Za-z0-9])"
_DOTTED = lazy_re.compile(rb"(?<![0-9])(?P<a>[0-9]{1,3}(?:\.[0-9]{1,3}){3})(?=" + _SERVICE + rb")", re.I)
_DASHED = lazy_re.compile(rb"(?<![0-9])(?P<a>[0-9]{1,3}(?:-[0-9]{1,3}){3})(?=" + _SERVICE + rb")", re.I)
_HEX = lazy_re.compile(rb"(?<![0-9A-Za-z])(?P<a>[0-9A-Fa-f]{8})(?=" + _SERVICE + rb")", re.I)
_CLOUD = lazy_re.compile(
    rb"(?<![0-9A-Za-z_-])(?:ip|ec2)-(?P<a>[0-9]{1,3}(?:-[0-9]{1,3}){3})"
    rb"(?=\.(?:ec2\.internal|(?:[a-z0-9-]+\.)?compute(?:-1)?\.(?:internal|amazonaws\.com))"
    rb"(?![A-Za-z0-9-]|\.[A-Za-z0-9]))", re.I)
# AWS's short host name (`hostname` on the instance, a kubelet's node name): `ip-` and four numbers.
_CLOUD_SHORT = lazy_re.compile(
    rb"(?<![0-9A-Za-z_.-])ip-(?P<a>[0-9]{1,3}(?:-[0-9]{1,3}){3})(?![0-9A-Za-z_-]|\.[0-9A-Za-z])", re.I)
# sslip.io's IPv6 form: a whole label, its colons written as dashes (`fd00--70.sslip.io`, `--1`).
_V6 = lazy_re.compile(rb"(?:(?<=\.)|(?<![0-9A-Za-z.-]))(?P<a>[0-9A-Fa-f-]*-[0-9A-Fa-f-]*)"
                 rb"(?=\.sslip\.io(?![A-Za-z0-9-]|\.[A-Za-z0-9]))", re.I)
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


class WildcardNames:
    """The renamed addresses and moved networks, read out of wildcard DNS names."""

    def __init__(self, addresses: Iterable[tuple[str, str]],
                 networks: Iterable[tuple[ipaddress.IPv4Network | ipaddress.IPv6Network,
                                          ipaddress.IPv4Network | ipaddress.IPv6Network]]) -> None:
        self._renamed: dict[Address, str] = {}
        for old, new in addresses:
            try:
                self._renamed[ipaddress.ip_address(old)] = new
            except ValueError:
                continue
        self._moves = list(networks)
        self.literals = LITERALS if (self._renamed or self._moves) else ()

    def holds_literal(self, data: bytes) -> bool:
        """Does `data` hold one of the literals (the reader's own cheap test, before it is counted)?"""
        return any(literal in data for literal in self.literals)

    def might_hold(self, data: bytes) -> bool:
        """Does `data` hold a wildcard DNS name spelling a renamed address?"""
        return bool(self.literals) and any(s in data for s in self.literals) and bool(self.find(data))

    def find(self, data: bytes) -> list[Match]:
        """Each spelled address that is renamed: followed in its spelling, or refused."""
        if not self.literals or not any(s in data for s in self.literals):
            return []
        out: list[Match] = []
        for pattern, style in ((_DOTTED, "."), (_DASHED, "-"), (_HEX, "hex"), (_V6, "v6"), (_CLOUD, "cloud"),
                               (_CLOUD_SHORT, "cloud")):
            for found in pattern.finditer(data):
                text = found.group("a").decode("ascii")
                try:
                    address: Address = (ipaddress.IPv4Address(int(text, 16)) if style == "hex"
                                        else ipaddress.IPv6Address(text.replace("-", ":")) if style == "v6"
                                        else ipaddress.IPv4Address(text.replace("-", ".")))
                    if style == "cloud" and any(len(o) > 1 and o[0] == "0" for o in text.split("-")):
                        continue  # (a cloud never pads: `ip-10-00-0-70` is some other name)
                except ValueError:
                    continue
                if pattern is _CLOUD_SHORT and address in self._renamed:
                    # a bare `ip-10-250-50-54` naming one renamed address stays a near-miss for a
                    # person (adversarial case 9); only a network move's hosts follow in it (t36-33 13)
                    continue
                new = self._new(address)
                if new is None:
                    continue
                if any(m.start < found.end("a") and found.start("a") < m.end for m in out):
                    continue
                spelled = _spelled(new, "-" if style == "cloud" else style, text)
                if spelled is None and style == "cloud":
                    note = (f"`{text}` in a cloud's host name is {address}, which moves to {new}: the cloud "
                            "names the machine after its address, and which address of the resized network "
                            "the host gets is not certain here")
                    out.append(Match(found.start("a"), found.end("a"), text, new, "address", refused=REASON,
                                     note=note))
                elif spelled is None:
                    note = (f"`{text}` in a wildcard DNS name is {address}, which moves to {new}: the "
                            "service answers the name with the address it spells, and which address of "
                            "the resized network the host gets is not certain here")
                    out.append(Match(found.start(), found.end(), text, new, "address", refused=REASON,
                                     note=note))
                else:
                    out.append(Match(found.start("a"), found.end("a"), text, spelled, "address"))
        return sorted(out, key=lambda m: m.start)

    def _new(self, address: Address) -> str | None:
        if address in self._renamed:
            return self._renamed[address]
        for old, new in self._moves:
            # (a resized move: its hosts' new addresses are the sweep's decision)
            if address.version == old.version and address in old:
                return (str(new.network_address + (int(address) - int(old.network_address)))
                        if old.prefixlen == new.prefixlen else str(new))
        return None


def _spelled(new: str, style: str, text: str) -> str | None:
    """`new` in the spelling of `text`, None where it is no address (a resized network)."""
    try:
        address = ipaddress.ip_address(new)
    except ValueError:
        return None
    if style == "v6":  # compressed where the name was (`fd00--70`), else every group (`fd00-0-...-70`)
        if "--" in text:
            return address.compressed.replace(":", "-")
        return "-".join(group.lstrip("0") or "0" for group in address.exploded.split(":"))
    if style == "hex":
        digits = f"{int(address):08x}"
        return digits.upper() if text.isupper() else digits
    return str(address).replace(".", style)


def wildcard_matches(data: bytes, matches: list[Match], names: WildcardNames) -> list[Match]:
    """`matches` with the wildcard DNS names' addresses (WildcardNames.find) no match covers."""
    found = names.find(data)
    added = [w for w in found if not any(m.start < w.end and w.start < m.end for m in matches)]
    return sorted([*matches, *added], key=lambda m: m.start) if added else matches
