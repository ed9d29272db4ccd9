"""Firewall rules ordered by a number (outside pass t33-33, finding 18), pure: the rule with the
lowest number that matches decides, so a deny of part of a network numbered before the allow of the
whole is an exclusion, judged by `except_blocks.covering` as `except_lines` judges iptables.

* AWS network ACLs: `aws_network_acl_rule` (`rule_number`, `rule_action`, `cidr_block` /
  `ipv6_cidr_block`, `egress`, `network_acl_id`), the inline `ingress { rule_no action cidr_block }`
  blocks of `aws_network_acl`, CloudFormation's `AWS::EC2::NetworkAclEntry` (`RuleNumber`,
  `RuleAction`, `CidrBlock`, `Egress`, `NetworkAclId`) in YAML or JSON;
* Azure network security rules: `azurerm_network_security_rule` and inline `security_rule` blocks
  (`priority`, `access`, `direction`, `source_address_prefix(es)`, `destination_address_prefix(es)`),
  ARM templates' `securityRules` (`priority`, `access`, `sourceAddressPrefix`, ...);
* GCP firewall rules: `google_compute_firewall` (`priority`, a `deny { }` or `allow { }` block,
  `source_ranges`, `destination_ranges`, `direction`, `network`; at one priority a deny wins) and
  firewall policy rules (`action = "deny"`, `src_ip_ranges`).

A record is the innermost block holding the number: an HCL or JSON `{ }`, a YAML flow mapping, or a
YAML block mapping's keys at the number's column. Rules pair within one list (the ACL or security
group named, the direction) and one side (the key the network stands in); a deny counts only where
each of its other fields (protocol, ports, the other side's addresses) is the allow's or matches all
(`-1`, `*`, `all`, `any`, `0.0.0.0/0`). OCI security lists and AWS security groups hold no deny.
"""

from __future__ import annotations

import bisect
import ipaddress
import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass

from renamer import lazy_re
from renamer.names import IPNetwork

Rule = tuple[list[IPNetwork], list[tuple[int, int, IPNetwork]], str]

_ORDER = lazy_re.compile(rb"(?:^|(?<=[\s{,]))[\"']?"
                    rb"(rule_number|rule_no|priority|RuleNumber|Priority|ruleNumber)[\"']?"
                    rb"[ \t]*(=(?![=>])|:)[ \t]*[\"']?([0-9]{1,6})(?![0-9])", re.M)
_KEY = re.compile(rb"(?:^|(?<=[\s{,]))(?:-[ \t]+)?[\"']?([A-Za-z_][A-Za-z0-9_]*)[\"']?[ \t]*"
                  rb"(?:=(?![=>])|:(?!:))[ \t]*", re.M)
_NET = re.compile(rb"(?<![0-9A-Za-z.:])(?:(?:[0-9]{1,3}\.){3}[0-9]{1,3}|[0-9A-Fa-f]*:[0-9A-Fa-f:.]*)"
                  rb"/[0-9]{1,3}(?![0-9])")
_ACTION_KEYS = {"ruleaction", "action", "access"}
_ACTION_WORDS = {b"deny": "deny", b"allow": "permit", b"permit": "permit", b"accept": "permit"}
_SCOPE_KEYS = {"networkaclid", "networksecuritygroupname", "network", "firewallpolicy", "policyid"}
_DIRECTION_KEYS = {"egress", "direction"}
_NETWORK_KEYS = {"cidrblock", "ipv6cidrblock", "sourceaddressprefix", "sourceaddressprefixes",
                 "destinationaddressprefix", "destinationaddressprefixes", "sourceranges",
                 "destinationranges", "srcipranges", "destipranges"}
_FIELD_KEYS = {"protocol", "fromport", "toport", "portrange", "sourceportrange", "sourceportranges",
               "destinationportrange", "destinationportranges", "ports", "icmptype", "icmpcode",
               "layer4configs",
               "sourcetags", "targettags", "sourceserviceaccounts", "targetserviceaccounts",
               "sourceapplicationsecuritygroupids", "destinationapplicationsecuritygroupids"}
_PORT_KEYS = {"fromport", "toport", "portrange", "sourceportrange", "destinationportrange", "ports",
              "sourceportranges", "destinationportranges"}
_WILD = {b"-1", b"*", b"all", b"any", b"0.0.0.0/0", b"::/0", b"internet", b"", b"[]", b"['*']", b'["*"]'}
_INLINE = (b"ingress", b"egress", b"security_rule")  # HCL's inline rule blocks, their kind a list of its own
_MOST = 60  # lines of a YAML record, at most


def _norm(key: bytes) -> str:
    return key.decode("ascii").replace("_", "").lower()


def _network(text: bytes) -> IPNetwork | None:
    try:
        return ipaddress.ip_network(text.decode("ascii"), strict=False)
    except ValueError:
        return None


class _Brackets:
    """The file's `{ }` and `[ ]` pairs, read once: the innermost one around a position, where one
    closes (quotes not read: a bracket inside a string counts)."""

    def __init__(self, data: bytes) -> None:
        self.opens: list[int] = []
        self.closes: list[int] = []
        self.parents: list[int] = []
        stack: list[int] = []
        for x in re.finditer(rb"[{}\[\]]", data):
            if x.group() in (b"{", b"["):
                self.parents.append(stack[-1] if stack else -1)
                stack.append(len(self.opens))
                self.opens.append(x.start())
                self.closes.append(len(data))
            elif stack:
                self.closes[stack.pop()] = x.start()

    def enclosing(self, pos: int) -> int | None:
        """The offset of the bracket that opens the innermost pair around `pos`."""
        index = bisect.bisect_left(self.opens, pos) - 1
        while index >= 0 and self.closes[index] < pos:
            index = self.parents[index]
        return self.opens[index] if index >= 0 else None

    def closing(self, at: int) -> int:
        index = bisect.bisect_left(self.opens, at)
        return self.closes[index] if index < len(self.opens) and self.opens[index] == at else at


def _yaml_record(data: bytes, line_start: int, column: int) -> tuple[int, int]:
    """The YAML block mapping holding the key at `column` on the line at `line_start`."""
    def indent(text: bytes) -> int:
        return len(text) - len(text.lstrip(b" \t-")) if text.lstrip().startswith(b"- ") else \
            len(text) - len(text.lstrip(b" \t"))

    begin = line_start
    for _ in range(_MOST):
        if begin == 0:
            break
        prev = data.rfind(b"\n", 0, begin - 1) + 1
        text = data[prev:begin - 1]
        if text.strip() and indent(text) < column:
            break
        begin = prev
        if text.lstrip().startswith(b"- ") and indent(text) == column:
            break  # the item's first key
    end = data.find(b"\n", line_start)
    end = len(data) if end < 0 else end
    for _ in range(_MOST):
        if end >= len(data):
            break
        nxt = data.find(b"\n", end + 1)
        nxt = len(data) if nxt < 0 else nxt
        text = data[end + 1:nxt]
        item = text.lstrip().startswith(b"- ") and indent(text) == column
        if text.strip() and (indent(text) < column or item):
            break
        end = nxt
    return begin, end


@dataclass(frozen=True)
class _Record:
    group: bytes
    order: int
    action: str
    nets: dict[str, list[tuple[int, int, IPNetwork]]]
    fields: dict[str, bytes]


def _value(data: bytes, at: int, end: int, brackets: _Brackets) -> tuple[int, int]:
    """The span of a key's value starting at `at`: a bracketed list to its bracket, else to the line's end,
    a `,` or `}`."""
    if data[at:at + 1] == b"[":
        return at, min(end, brackets.closing(at) + 1)
    stop = re.compile(rb"[,}\r\n]|[ \t]+#").search(data, at, end)
    return at, stop.start() if stop else end


def _record(data: bytes, found: re.Match[bytes], brackets: _Brackets) -> _Record | None:
    line_start = data.rfind(b"\n", 0, found.start()) + 1
    head = data[line_start:found.start()]
    braced = found.group(2) == b"=" or data[found.start():found.start() + 1] == b'"' or b"{" in head
    if braced:
        opened = brackets.enclosing(found.start())
        if opened is None:
            return None
        start, end = opened + 1, brackets.closing(opened)
        parent = brackets.enclosing(opened)
        words = data[data.rfind(b"\n", 0, opened) + 1:opened].split()
        header = words[0] if words else b""
        if header.strip(b"\"'").lower().startswith(b"properties") and parent is not None:
            parent = brackets.enclosing(parent)  # ARM/CloudFormation: the rule's object, then its list
        place = b"file"
        if parent is not None and (header in _INLINE
                                   or data[parent:parent + 1] == b"["):
            place = b"%d" % parent  # the resource or list the rule is in
        scope = place + (b" " + header if header in _INLINE else b"")  # a rule's own name is no list
    else:
        column = len(head) - len(head.lstrip(b" \t-")) if head.lstrip().startswith(b"-") else len(head)
        start, end = _yaml_record(data, line_start, column)
        scope = b"file"
    fields: dict[str, bytes] = {}
    nets: dict[str, list[tuple[int, int, IPNetwork]]] = {}
    action = None
    for key in _KEY.finditer(data, start, end):
        name = _norm(key.group(1))
        vstart, vend = _value(data, key.end(), end, brackets)
        value = data[vstart:vend].strip().strip(b"\"'").strip()
        if name in _ACTION_KEYS:
            action = _ACTION_WORDS.get(value.lower())
        elif name in _SCOPE_KEYS or name in _DIRECTION_KEYS:
            scope += b" " + name.encode() + b"=" + value.lower()
        elif name in _NETWORK_KEYS:
            side = name.removesuffix("es") if name.endswith("prefixes") else name
            found_nets = [(x.start(), x.end(), net) for x in _NET.finditer(data, vstart, vend)
                          if (net := _network(x.group())) is not None]
            nets.setdefault(side, []).extend(found_nets)
            fields[side] = value.lower()
        elif name in _FIELD_KEYS:
            fields[name] = value.lower()
    for block in re.finditer(rb"(?m)^[ \t]*(deny|allow|denied|allowed)[ \t]*(?:\{|:)", data[start:end]):
        action = "deny" if block.group(1).startswith(b"deny") else "permit"  # GCP's block, or list
    if action is None:
        return None
    return _Record(scope, int(found.group(3)), action, nets, fields)


def _broader(deny: _Record, permit: _Record, side: str) -> bool:
    every_protocol = deny.fields.get("protocol") == b"-1"  # AWS: ports mean nothing with `-1`
    for name, value in deny.fields.items():
        if name == side or value in _WILD or (every_protocol and name in _PORT_KEYS):
            continue
        if permit.fields.get(name) != value:
            return False
    return True


def rules(data: bytes, wanted: Collection[IPNetwork] | None = None) -> Iterator[Rule]:
    """Each deny with the allows numbered after it of its list it would except from (module doc)."""
    if not re.search(rb"(?i)deny", data):
        return
    brackets = _Brackets(data)
    records = [r for x in _ORDER.finditer(data) if (r := _record(data, x, brackets)) is not None]
    permits = [p for p in records if p.action == "permit"
               and (wanted is None or any(n in wanted for nets in p.nets.values() for _, _, n in nets))]
    for deny in records:
        if deny.action != "deny":
            continue
        for side, denied in deny.nets.items():
            included = list(dict.fromkeys(net for p in permits
                                          if p.group == deny.group and p.order >= deny.order
                                          and _broader(deny, p, side) for _, _, net in p.nets.get(side, [])))
            if included:
                what = "a deny numbered before its allow, the lowest number deciding"
                yield included, denied, what
