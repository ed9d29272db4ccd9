"""DNS records held as data: the owner follows the record's name or address, or says why not
(break-it round 21, findings 14 and 26; the grammar is renamer/data_records.py).

A record in a role's zone list, an octoDNS zone file, an nsupdate task or a Terraform dns
resource writes its owner relative to a zone the same file names. The sweep rewrites the record's
data (an address, a PTR target) by its spelling, and the owner did not spell the old value:
`web01` in zone lab.example is web01.lab.example, `12.0` in zone 0.10.in-addr.arpa is the reverse
name of 10.0.0.12. So each owner is read whole against its zone:

* a forward owner that makes an old FQDN follows its rename where the new name lies in the same
  zone (written relative, as it was); a new name in another zone is a residual `zone-owner` (the
  record moves to that zone by hand);
* a reverse owner that makes an old address's reverse name follows the address where the new one
  lies in the same reverse zone (`12.0` -> `42.0`); in another zone it is a residual
  `reverse-owner`. A bare YAML owner whose new text YAML would read as another number than it
  spells (`42.10` is the float 42.1) is a residual too: quote it by hand;
* where the zone is named but cannot be read (`name: "{{ dns_domain }}"`), an owner that spells
  an old FQDN's leading labels while the rename changes them, or a PTR owner that spells an old
  address's leading reverse labels, or the last octets of an address in a moved IPv4 network, is
  a residual `record-owner`: what it means cannot be told.

An owner a match already stands on (a renamed short name, `label: node2`) is left to the rules
that decided it. `with_serials` bumps the `serial:` of a zone mapping whose records the sweep
changes, as a zone file's SOA serial is (a secondary transfers a zone only when it grows).
"""

from __future__ import annotations

import datetime as dt
import ipaddress

from renamer import data_records, lazy_re
from renamer.formats.zone import bumped_serial
from renamer.match import Matcher
from renamer.occurrences import Match
from renamer.sweep.model import Edit

_REVERSE = "reverse-owner"
_UNREAD = "record-owner"
_V4 = ".in-addr.arpa"
_V6 = ".ip6.arpa"
_NUMBER = lazy_re.compile(r"[-+]?(?:[0-9][0-9_]*)?\.?[0-9]+(?:[eE][-+]?[0-9]+)?")


def might_hold(rel: str, data: bytes) -> bool:
    return data_records.might_hold(rel, data)


def record_owner_matches(data: bytes, rel: str, matches: list[Match], matcher: Matcher) -> list[Match]:
    """`matches` with each owner of a record held as data decided by its meaning: a match added
    that rewrites it, or a refused one saying why it cannot be."""
    found = data_records.owners(rel, data)
    if not found:
        return matches
    hosts = {old.lower().rstrip("."): new.rstrip(".") for old, new in matcher.hosts}
    added: list[Match] = []
    for owner in found:
        if any(m.start < owner.end and owner.start < m.end for m in matches):
            continue  # a renamed short name, an address: decided by the rules that matched it
        decided = _decided(owner, hosts, matcher)
        if decided is not None:
            added.append(decided)
    if not added:
        return matches
    return sorted([*matches, *added], key=lambda m: m.start)


def _decided(owner: data_records.Owner, hosts: dict[str, str], matcher: Matcher) -> Match | None:
    text = owner.text.rstrip(".") if not owner.text.endswith("..") else owner.text
    if owner.zone is None:
        return _unread(owner, hosts, matcher)
    absolute = owner.zone if text in ("", "@") else f"{text}.{owner.zone}".lower()
    if absolute.endswith((_V4, _V6)):
        return _reverse(owner, absolute, matcher)
    new = hosts.get(absolute)
    if new is None or text in ("", "@"):
        return None
    zone = owner.zone
    if new.lower().endswith("." + zone):
        relative = new[:len(new) - len(zone) - 1]
        return Match(owner.start, owner.end, owner.text, relative, "host",
                     note=f"{owner.text} is {absolute} ({owner.how})")
    note = f"`{owner.text}` is {absolute} ({owner.how}), renamed {new}, which lies outside the zone {zone}"
    return Match(owner.start, owner.end, owner.text, new, "host", refused="zone-owner", note=note)


def _address(reverse: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address a full reverse name spells, else None (a classless or partial name)."""
    if reverse.endswith(_V4):
        labels = reverse[:-len(_V4)].split(".")
        if len(labels) != 4 or not all(label.isdigit() and label == str(int(label)) and int(label) < 256
                                       for label in labels):
            return None
        return ipaddress.IPv4Address(".".join(reversed(labels)))
    labels = reverse[:-len(_V6)].split(".")
    if len(labels) != 32 or not all(len(label) == 1 and label in "0123456789abcdef" for label in labels):
        return None
    return ipaddress.IPv6Address(int("".join(reversed(labels)), 16))


def _renamed(address: str, matcher: Matcher) -> str | None:
    """What the renames make of `address` (an address rename or a network move), else None."""
    for found in matcher.find(address.encode("ascii")):
        whole = found.start == 0 and found.end == len(address)
        if whole and found.kind in ("address", "network") and found.refused is None:
            return found.new
    return None


def _reverse(owner: data_records.Owner, absolute: str, matcher: Matcher) -> Match | None:
    address = _address(absolute)
    if address is None:
        return None
    new = _renamed(str(address), matcher)
    if new is None:
        return None
    pointer = ipaddress.ip_address(new).reverse_pointer.lower()
    zone = owner.zone or ""
    shown = f"`{owner.text}` in zone {zone} is the reverse name of {address} ({owner.how}), renamed {new}"
    if not pointer.endswith("." + zone):
        note = f"{shown}, whose reverse name {pointer} lies outside the zone {zone}"
        return Match(owner.start, owner.end, owner.text, pointer, "reverse", refused=_REVERSE, note=note)
    relative = pointer[:len(pointer) - len(zone) - 1]
    if owner.bare and _NUMBER.fullmatch(relative) and _misread(relative):
        note = (f"{shown}; its new owner `{relative}` written bare would be read by YAML as the number "
                f"{float(relative)!r}: write it quoted (`'{relative}'`) by hand")
        return Match(owner.start, owner.end, owner.text, relative, "reverse", refused=_REVERSE, note=note)
    return Match(owner.start, owner.end, owner.text, relative, "reverse", note=shown)


def _misread(text: str) -> bool:
    """Whether a bare YAML scalar `text` reads back as a number spelled otherwise (`42.10`)."""
    try:
        value = float(text)
    except ValueError:
        return False
    if text.isdigit():
        return str(int(text)) != text  # `042` is an octal or a decimal 42, never the text
    return repr(value) != text


def _unread(owner: data_records.Owner, hosts: dict[str, str], matcher: Matcher) -> Match | None:
    """An owner of a zone that cannot be read: a residual where it may spell an old name or an old
    address's reverse name relatively, and the rename changes what it spells."""
    text = owner.text.lower().rstrip(".")
    if not text or text == "@":
        return None
    for old, new in hosts.items():
        labels, new_labels = old.split("."), new.lower().split(".")
        size = len(text.split("."))
        if len(labels) > size and labels[:size] == text.split(".") and new_labels[:size] != labels[:size]:
            note = (f"`{owner.text}` is an owner relative to a zone that cannot be read here "
                    f"(`{owner.named}`, {owner.how}): where the zone is {'.'.join(labels[size:])}, this is "
                    f"{old}, renamed {new}; rename the owner with its zone in mind by hand (or keep it "
                    "with a keep rule or the inline marker)")
            return Match(owner.start, owner.end, owner.text, new, "host", refused=_UNREAD, note=note)
    if owner.rtype != "PTR" or not all(part.isdigit() for part in text.split(".")):
        return None
    for old, new in matcher.addresses:
        if ":" in old:
            continue
        reversed_labels = list(reversed(old.split(".")))
        size = len(text.split("."))
        if size < 4 and reversed_labels[:size] == text.split("."):
            note = (f"`{owner.text}` is a PTR owner relative to a reverse zone that cannot be read here "
                    f"(`{owner.named}`, {owner.how}): it may be the reverse name of {old}, renamed {new}; "
                    "rename the owner by hand (or keep it with a keep rule or the inline marker)")
            return Match(owner.start, owner.end, owner.text, new, "reverse", refused=_UNREAD, note=note)
    moved = _in_moved_network(text, matcher)
    if moved is not None:
        old_address, old_net, new_net = moved
        note = (f"`{owner.text}` is a PTR owner relative to a reverse zone that cannot be read here "
                f"(`{owner.named}`, {owner.how}): it may be the reverse name of {old_address} in the moved "
                f"network {old_net} (now {new_net}), whose reverse zone moves too; rename the owner and "
                "its zone by hand (or keep it with a keep rule or the inline marker)")
        return Match(owner.start, owner.end, owner.text, str(new_net), "reverse", refused=_UNREAD, note=note)
    return None


def _in_moved_network(text: str, matcher: Matcher) -> tuple[str, ipaddress.IPv4Network,
                                                              ipaddress.IPv4Network] | None:
    """A moved IPv4 network holding an address whose last octets the owner's labels spell (`12.0`:
    x.x.0.12), where the move changes the address: (that address, the old and the new network)."""
    octets = list(reversed(text.split(".")))
    if not 1 <= len(octets) < 4 or any(not o.isdigit() or int(o) > 255 for o in octets):
        return None
    for old_net, new_net in matcher.networks:
        if not isinstance(old_net, ipaddress.IPv4Network) or not isinstance(new_net, ipaddress.IPv4Network):
            continue
        head = str(old_net.network_address).split(".")[:4 - len(octets)]
        address = ipaddress.IPv4Address(".".join([*head, *octets]))
        if address in old_net and new_net.network_address != old_net.network_address:
            return str(address), old_net, new_net
    return None


def with_serials(rel: str, data: bytes, edits: list[Edit], today: dt.date | None = None) -> list[Edit]:
    """The edits, plus the `serial:` of each zone mapping whose records they change, bumped."""
    if not edits or b"serial" not in data or not rel.endswith((".yml", ".yaml", ".json")):
        return edits
    zones: set[tuple[tuple[int, int], tuple[int, int]]] = set()
    for owner in data_records.owners(rel, data):
        if owner.serial is not None and owner.zone_span is not None:
            zones.add((owner.serial, owner.zone_span))
    added: list[Edit] = []
    for (start, end), (first, last) in sorted(zones):
        if any(e.start < end and start < e.end for e in edits):
            continue  # never: a serial holds no name or address
        if not any(first <= e.start < last for e in edits):
            continue
        try:
            new = bumped_serial(data[start:end].decode("ascii"), today or dt.date.today())
        except (ValueError, UnicodeDecodeError):
            continue
        added.append(Edit(start, end, new.encode("ascii")))
    if not added:
        return edits
    return sorted([*edits, *added], key=lambda e: e.start)
