"""Old names in another case where a file creates DNS records outside the DNS file list (outside pass
t32, round 25, finding 20).

Zone files, dnsmasq, hosts and Unbound files are read in any case (their names are DNS names). A
record is also created by a command, a resource or a row, whose name DNS then answers for in any
case (RFC 4343):

* the Windows DNS Server cmdlets (`Add-DnsServerResourceRecordA -ZoneName lab.example -Name
  "HERMES"`, `...CName -HostNameAlias`, `...Ptr -PtrDomainName`, `Set-`/`Remove-`), and a DHCP
  reservation's `-Name` (`Add-DhcpServerv4Reservation ... -Name "HERMES.lab.example"`, registered in
  DNS by the server);
* a Terraform record resource's quoted values (`dns_a_record_set { name = "HERMES" }`, the dns
  provider's other `dns_*_record*`, `aws_route53_record`, `google_dns_record_set`, `azurerm_*dns_*_record`,
  `cloudflare_record`, `powerdns_record`, `digitalocean_record`);
* a PowerDNS SQL seed's `INSERT INTO records ...` statement (`'HERMES.lab.example'`).

An old name (short, or an FQDN's first label, or the FQDN) spelled in another case there is the
old record, live: a residual `dns-case`, as a virtual host's name in another case is
(sweep/resolved_case.py): not rewritten (the case the new name takes is the author's), and verify
fails on it instead of saying OK over a near-miss warning. Pure: bytes and matches in, matches out.
"""

from __future__ import annotations

from renamer import lazy_re
from renamer.occurrences import Match
from renamer.sweep.resolved_case import REASON, other_case

_NAME = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
# A DNS or DHCP cmdlet on the line, and the parameter right before the name.
_CMDLET = lazy_re.compile(
    rb"(?i)(?:Add|Set|Remove)-(?:DnsServerResourceRecord\w*|DhcpServerv[46]Reservation)\b")
_PARAM = lazy_re.compile(
    rb"(?i)-(?:Name|HostName|HostNameAlias|AliasName|PtrDomainName|MailExchange|NameServer)"
                    rb"[ \t]+[\"']?\Z")
# A Terraform record resource's head.
_RESOURCE = lazy_re.compile(rb"(?m)^[ \t]*resource[ \t]+\"(?:dns_\w*record\w*|aws_route53_record"
                       rb"|google_dns_record_set|azurerm_(?:private_)?dns_\w*record|cloudflare_record|powerdns_record"
                       rb"|digitalocean_record)\"[ \t]+\"[^\"\n]*\"[ \t]*\{")
_BRACE = lazy_re.compile(rb"[{}]")
_QUOTED_BEFORE = lazy_re.compile(rb"\"[^\"\n]*\Z")
# A PowerDNS records row: the statement it stands in.
_INSERT = lazy_re.compile(rb"(?is)\A\s*INSERT[ \t]+INTO[ \t]+[`\"]?records[`\"]?\b")
_QUOTE_BEFORE = lazy_re.compile(rb"'[^'\n]*\Z")
WORDS = (b"DnsServerResourceRecord", b"DhcpServerv4Reservation", b"DhcpServerv6Reservation", b"resource",
         b"INSERT", b"insert")


def might_hold(data: bytes) -> bool:
    return any(word in data for word in WORDS)


def _bounded(data: bytes, start: int, end: int) -> bool:
    """A whole name or an FQDN's first label: no name byte or dot before, no name byte after."""
    before = data[start - 1] if start > 0 else 0x20
    after = data[end] if end < len(data) else 0x20
    return before not in _NAME and before != 0x2E and after not in _NAME


def _in_resource(data: bytes, at: int) -> bool:
    head = None
    for found in _RESOURCE.finditer(data, 0, at):
        head = found
    if head is None:
        return False
    depth = 0
    for found in _BRACE.finditer(data, head.end() - 1, at):  # the block closes before `at`: outside
        depth += 1 if found.group() == b"{" else -1
        if depth == 0:
            return False
    line_start = data.rfind(b"\n", 0, at) + 1
    return _QUOTED_BEFORE.search(data, line_start, at) is not None


def _in_records_row(data: bytes, at: int) -> bool:
    start = data.rfind(b";", 0, at) + 1
    line_start = data.rfind(b"\n", 0, at) + 1
    return _INSERT.match(data, start) is not None and _QUOTE_BEFORE.search(data, line_start, at) is not None


def _creates(data: bytes, at: int) -> str | None:
    line_start = data.rfind(b"\n", 0, at) + 1
    line_end = data.find(b"\n", at)
    line = data[line_start:line_end if line_end >= 0 else len(data)]
    if _CMDLET.search(line) and _PARAM.search(data, line_start, at):
        return "a Windows DNS or DHCP cmdlet's record name"
    if b"resource" in data and _in_resource(data, at):
        return "a Terraform DNS record resource"
    if _in_records_row(data, at):
        return "a PowerDNS records row"
    return None


def record_case_matches(data: bytes, matches: list[Match], hosts: list[tuple[str, str]]) -> list[Match]:
    """`matches` with each old name spelled in another case where the file creates a DNS record
    added as a residual `dns-case`."""
    added: list[Match] = []
    for at, end, spelled, old, new in other_case(data, hosts):
        if not _bounded(data, at, end) or any(m.start < end and at < m.end for m in [*matches, *added]):
            continue
        where = _creates(data, at)
        if where is None:
            continue
        text = spelled.decode("ascii", "replace")
        note = (f"{text} is {old} (renamed {new}) in another case, where {where} creates a DNS record "
                "that DNS answers for in any case")
        added.append(Match(at, end, text, new, "host", refused=REASON, note=note))
    if not added:
        return matches
    return sorted([*matches, *added], key=lambda m: m.start)
