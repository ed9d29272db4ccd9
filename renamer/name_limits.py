"""Names over the limit of the place they land in (issue 27 item 16, B-12; break-it round 23, #14).

A new host name valid as a DNS label (63) can still be too long where the file puts it: a NetBIOS
name and a Windows computer name hold 15 characters (Samba and Windows refuse or cut a longer
one), a Linux interface name 15 (IFNAMSIZ less its NUL: networkd ignores the .netdev, `ip link`
fails "name too long"). The value a renamed occurrence sits in is read whole at each such place,
with every old value inside it replaced; over the limit, each occurrence there is refused
`name-limit`, which refuses the sweep before its first write (sweep/refusals.py), file:line and
the reason, and leaves a residual that verify fails on. A value that stays within the limit is
rewritten as usual: no word.

The places (each its own syntax, so no other file's `Name=` or `name` is read):

* NetBIOS (15): smb.conf `netbios name =` and each of `netbios aliases =`;
* Windows computer names (15): an unattend file's `<ComputerName>`, PowerShell's
  `Rename-Computer`/`Add-Computer` `-NewName`, `netdom renamecomputer ... /newname:`; a
  `computer_name`/`computerName` key (Terraform azurerm, vSphere `windows_options`, ARM, Bicep,
  Vagrant) in a file about a Windows machine, DSC's `Computer ID { Name = }`, Ansible
  `win_hostname`'s `name` and `win_domain_membership`'s `hostname` (t31 round 24, finding 15);
* interface names (15): a systemd `.netdev`/`.link` file's `Name=`, netplan's `set-name:`, a
  NetworkManager keyfile's `interface-name=`, ifupdown's `iface NAME inet`/`auto NAME`, `ip link
  add [name] NAME` and `ip link set DEV name NAME`;
* DNS (zone_limits.py; t36 finding 05): each character-string of a TXT/SPF record in zone-file
  syntax (255 bytes: BIND refuses the whole zone), an SPF/DKIM/DMARC value written as one string
  anywhere (refused only where it fitted before: some providers split a longer one), a zone file's
  names (a label 63, a name 253).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace

from renamer import lazy_re
from renamer import zone_limits as _dns
from renamer.occurrences import Match

LIMIT = "name-limit"
HINT = ("a new name longer than the place it lands in holds (a NetBIOS or Windows computer name, a Linux "
        "interface name: 15 characters; a TXT record's string: 255 bytes; a DNS label 63, a name 253): the "
        "consumer refuses or cuts it; the sweep is refused, nothing "
        "written: choose a shorter new name, or write a short name there by hand and keep the line with "
        "a keep rule")

_NETBIOS = "a NetBIOS name holds 15 (Samba, Windows)"
_WINDOWS = "a Windows computer name holds 15 (its NetBIOS name)"
_IFNAME = "a Linux interface name holds 15 (IFNAMSIZ)"


@dataclass(frozen=True)
class _Place:
    pattern: re.Pattern[bytes]
    limit: int
    why: str
    suffixes: tuple[str, ...] = ()  # only in files whose name ends so (empty: any file)
    words: bool = False  # the value is a list of names, each one limited
    needs: re.Pattern[bytes] | None = None  # only in files where this stands (a Windows machine's)
    # t36 finding 05: a place read by a function of its own (a TXT record's character-strings), the
    # value's length as its consumer counts it (escapes, the longest label), and whether only a
    # value that fitted before is refused (a TXT value some providers split themselves)
    finder: Callable[[bytes], Iterator[tuple[int, int]]] | None = None
    measure: Callable[[bytes], int] = len
    grown: bool = False
    unit: str = "characters"
    # a file whose consumer takes a longer value (splits it itself, or only documents it): no limit
    unless: Callable[[str, bytes], bool] | None = None


_NEVER = re.compile(rb"(?!)")  # a place read by a finder of its own
_VALUE = rb"(?P<value>[A-Za-z0-9_.$@{}%-]+)"
# A file about a Windows machine: where a `computer_name` key holds a NetBIOS name (15).
_WINDOWS_FILE = lazy_re.compile(rb"(?i)windows|win_|winrm|Microsoft\.Compute/virtualMachines")
_PLACES = (
    _Place(re.compile(rb"(?im)^[ \t]*netbios[ \t]+name[ \t]*=[ \t]*" + _VALUE), 15, _NETBIOS),
    _Place(re.compile(rb"(?im)^[ \t]*netbios[ \t]+aliases[ \t]*=(?P<value>[^\r\n#;]*)"), 15, _NETBIOS,
           words=True),
    _Place(re.compile(rb"(?i)<ComputerName>[ \t]*" + _VALUE + rb"[ \t]*</ComputerName>"), 15, _WINDOWS),
    _Place(re.compile(rb"(?i)\b(?:Rename|Add)-Computer\b[^\r\n;|]*?-NewName[ \t:]+[\"']?" + _VALUE), 15,
           _WINDOWS),
    _Place(re.compile(rb"(?i)\bnetdom(?:\.exe)?[ \t]+renamecomputer\b[^\r\n]*?/newname:[\"']?" + _VALUE), 15,
           _WINDOWS),
    # t31 round 24, finding 15: a Windows computer name keyed in a provisioning tool's own syntax:
    # Terraform azurerm `computer_name` and vSphere `windows_options { computer_name }`, ARM/Bicep
    # `computerName`, Vagrant `vm.computer_name`, in a file about a Windows machine (a Linux VM's
    # `computer_name` holds 64); DSC's `Computer ID { Name = }`; Ansible `win_hostname`'s `name` and
    # `win_domain_membership`'s `hostname`.
    _Place(re.compile(rb"(?i)(?<![\w-])[\"']?computer[_-]?name[\"']?[ \t]*[:=][ \t]*[\"']?" + _VALUE), 15,
           _WINDOWS, needs=_WINDOWS_FILE),
    _Place(re.compile(rb"(?i)(?<![\w-])Computer[ \t]+[\w$-]+[ \t\r\n]*\{[^{}]*?(?<![\w-])Name[ \t]*=[ \t]*"
                      rb"[\"']?" + _VALUE), 15, _WINDOWS, (".ps1", ".psm1", ".psd1")),
    _Place(re.compile(rb"(?m)win_hostname:[ \t]*\r?\n(?:[ \t]+[\w.]+:[^\r\n]*\r?\n)*?[ \t]+name:[ \t]*[\"']?"
                      + _VALUE), 15, _WINDOWS),
    _Place(re.compile(rb"(?m)win_hostname:[ \t]+(?:[^\r\n]*[ \t])?name=[\"']?" + _VALUE), 15, _WINDOWS),
    _Place(re.compile(rb"(?m)win_domain_membership:[ \t]*\r?\n(?:[ \t]+[\w.]+:[^\r\n]*\r?\n)*?[ \t]+hostname:"
                      rb"[ \t]*[\"']?" + _VALUE), 15, _WINDOWS),
    _Place(re.compile(rb"(?m)^[ \t]*Name[ \t]*=[ \t]*" + _VALUE), 15, _IFNAME, (".netdev", ".link")),
    _Place(re.compile(rb"(?m)^[ \t]*set-name[ \t]*:[ \t]*[\"']?" + _VALUE), 15, _IFNAME),
    _Place(re.compile(rb"(?m)^[ \t]*interface-name[ \t]*=[ \t]*" + _VALUE), 15, _IFNAME),
    _Place(re.compile(rb"(?m)^[ \t]*iface[ \t]+" + _VALUE + rb"[ \t]+inet6?[ \t]"), 15, _IFNAME),
    _Place(re.compile(rb"(?m)^[ \t]*(?:auto|allow-hotplug)[ \t]+(?P<value>[^\r\n#]*)"), 15, _IFNAME,
           ("interfaces",), words=True),
    _Place(re.compile(rb"\bip[ \t]+link[ \t]+add[ \t]+(?:link[ \t]+\S+[ \t]+)?(?:name[ \t]+)?" + _VALUE), 15,
           _IFNAME),
    _Place(re.compile(rb"\bip[ \t]+link[ \t]+set[ \t]+(?:dev[ \t]+)?\S+[ \t]+name[ \t]+" + _VALUE), 15,
           _IFNAME),
    # t36 finding 05: a TXT record's character-string holds 255 bytes (RFC 1035 3.3: BIND refuses
    # the whole zone); an SPF/DKIM/DMARC value written as one string elsewhere (Terraform, octoDNS,
    # an nsupdate script) refused only where it fitted before; a zone's name: a label 63, a name 253
    _Place(_NEVER, 255, "a TXT character-string holds 255 bytes (RFC 1035 3.3): named-checkzone and BIND "
           "refuse the whole zone", finder=_dns.txt_strings, measure=_dns.string_length,
           unit="bytes in one TXT string"),
    _Place(_NEVER, 255, "a TXT record's string holds 255 bytes (RFC 1035 3.3; Route 53, BIND and others "
           "refuse a longer one)", finder=_dns.mail_values, measure=_dns.string_length, grown=True,
           unit="bytes in one TXT string", unless=lambda rel, data: _splits_itself(rel, data)),
    _Place(_NEVER, 63, "a DNS label holds 63 bytes (RFC 1035 2.3.4): the zone does not load",
           finder=_dns.zone_names, measure=_dns.longest_label, grown=True,
           unit="bytes in one of its labels"),
    _Place(_NEVER, 253, "a DNS name holds 253 bytes (RFC 1035 2.3.4): the zone does not load",
           finder=_dns.zone_names, measure=_dns.name_length, grown=True, unit="bytes"),
)
# Cheap: a file holding none of these words holds no limited place. Searched in lower-cased
# bytes, each word's first letter first (its `\b` checked behind it): a pattern that opens with a
# literal lets `re` skip to that letter, where `(?i)` or a leading `\b` made it try every byte
# (issue 30: 0.9 ms a file of a homelab repo, 0.1 ms so).
_WORDS = lazy_re.compile(rb"netbios|computer[_-]?name|-computer|renamecomputer"
                    rb"|name(?<!\wname)[ \t]*=|set-name|win_hostname|win_domain_membership"
                    rb"|interface-name|iface(?<!\wiface)\b|auto(?<!\wauto)\b|allow-hotplug|ip[ \t]+link"
                    rb"|txt|spf|v=dkim1|v=dmarc1|v=stsv1|v=tlsrptv1|v=bimi1")
_WORD = lazy_re.compile(rb"[^\s,]+")


_SHOWN = 72  # a longer value is shown by its head and tail
_ABOVE = 4  # lines above a match a limited place's word may stand on


def might_hold(data: bytes, matches: Sequence[Match] | None = None) -> bool:
    """Can `data` hold a limited place? With `matches`: one holding an open match, asked on the
    lines those stand on and the few above them only (a place's word may open a block the value
    stands in: `- win_hostname:` over `name: fs01`, a DSC `Computer X {` over `Name = ..`), so a file
    with a few matches is not searched whole (issue 30: 0.4 ms a file, half the files of a homelab
    repo)."""
    if matches is None:
        return _WORDS.search(data.lower()) is not None or _dns.is_zone(data)
    if _dns.is_zone(data):  # a zone's names: each label 63, the name 253 (t36 finding 05)
        return True
    searched: set[int] = set()  # the lines' starts
    for m in matches:
        start = data.rfind(b"\n", 0, m.start) + 1
        if m.refused is not None or m.kept is not None or start in searched:
            continue
        searched.add(start)
        for _ in range(_ABOVE):
            if start == 0:
                break
            start = data.rfind(b"\n", 0, start - 1) + 1
        end = data.find(b"\n", m.end)
        if _WORDS.search(data[start:len(data) if end < 0 else end].lower()) is not None:
            return True
    return False


def limited(rel: str, data: bytes, matches: list[Match]) -> list[Match]:
    """`matches` with each rewritable occurrence whose landing place's value, renamed, would be
    over that place's limit refused `name-limit`, with a note saying the new value, its length and
    the limit."""
    open_ = [m for m in matches if m.refused is None and m.kept is None]
    if not open_:
        return matches
    held: dict[int, str] = {}
    for start, end, place in _values(rel, data):
        inside = [m for m in open_ if start <= m.start and m.end <= end]
        if not inside:
            continue
        new = _renamed(data, start, end, inside)
        size = place.measure(new.encode("utf-8"))
        if size > place.limit and not (place.grown and place.measure(data[start:end]) > place.limit):
            shown = new if len(new) <= _SHOWN else f"{new[:_SHOWN - 20]}...{new[-16:]}"  # 255-byte SPF
            note = f"{shown} would be {size} {place.unit} here; {place.why}"
            for m in inside:
                held.setdefault(id(m), note)  # the first place's word: a zone's TXT before any SPF value
    return [replace(m, refused=LIMIT, note=held[id(m)]) if id(m) in held else m for m in matches]


# Consumers of an SPF/DKIM value that split a long one into 255-byte strings themselves
# (t37-break, finding 07: the sweep refused, exit 3, where none of them would): octoDNS (its
# `_ChunkedValuesMixin`), Cloudflare's API (2,048 bytes), Azure DNS (1,024); and documentation,
# which nothing loads. Route 53, Google Cloud DNS, nsupdate and zone files keep the limit.
_SPLITTERS = lazy_re.compile(rb"(?i)cloudflare_(?:dns_)?record|azurerm_dns_txt_record"
                             rb"|Microsoft\.Network/dnsZones|octodns")
_OCTODNS_RECORD = lazy_re.compile(rb"(?m)^[ \t]*-?[ \t]*type:[ \t]*['\"]?(?:TXT|SPF)['\"]?[ \t]*$")
_ANSIBLE_DNS = lazy_re.compile(rb"(?m)route53|^[ \t]*(?:record|zone|hosted_zone_id):")
_DOCUMENTS = (".md", ".markdown", ".rst", ".adoc", ".asciidoc", ".org", ".txt", ".html", ".htm")


def _splits_itself(rel: str, data: bytes) -> bool:
    name = rel.rsplit("/", 1)[-1].lower()
    if name.endswith(_DOCUMENTS) or name.startswith(("readme", "notes")) or "octodns" in rel.lower():
        return True
    if _SPLITTERS.search(data) is not None:
        return True
    return (name.endswith((".yaml", ".yml")) and _OCTODNS_RECORD.search(data) is not None
            and _ANSIBLE_DNS.search(data) is None)


def _values(rel: str, data: bytes) -> Iterator[tuple[int, int, _Place]]:
    """(start, end, place) of each limited value of the file (each name of a list apart)."""
    name = rel.rsplit("/", 1)[-1]
    for place in _PLACES:
        if place.suffixes and not name.endswith(place.suffixes):
            continue
        if place.needs is not None and place.needs.search(data) is None:
            continue
        if place.unless is not None and place.unless(rel, data):
            continue
        if place.finder is not None:
            for start, end in place.finder(data):
                yield start, end, place
            continue
        for x in place.pattern.finditer(data):
            if not place.words:
                yield x.start("value"), x.end("value"), place
                continue
            for word in _WORD.finditer(x.group("value")):
                yield x.start("value") + word.start(), x.start("value") + word.end(), place


def _renamed(data: bytes, start: int, end: int, inside: list[Match]) -> str:
    """The value between `start` and `end` with each occurrence inside replaced by its new value."""
    out, at = [], start
    for m in sorted(inside, key=lambda m: m.start):
        out += [data[at:m.start].decode("utf-8", "replace"), m.new]
        at = m.end
    out.append(data[at:end].decode("utf-8", "replace"))
    return "".join(out)
