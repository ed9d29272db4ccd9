"""Prefix lengths the consuming tool refuses outright (outside pass t33-33, finding 07), pure and I/O
free; `prefix_pools.pool_hits` adds these hits to its own.

A resize (`renames.networks` with a length change) can give a network a length its tool never
accepts, whatever else the file says: a Kubernetes service CIDR grown past /12 (/108), an AWS VPC
grown past /16 or a subnet shrunk past /28. `LIMITS` is the table of such rules, one row a tool's
key (or a key inside a resource type) and its family, with the lengths it allows and the rule it
cites. A network literal under such a key that is a resized move's old network whose new length is
outside the row's range (before the sweep), or its new network (a written file), is refused
`tool-refuses` at its file:line: nothing is written, and verify does not say OK.

Keys are read as `KEY: value` / `KEY = value` (the value to its line's end, and a YAML list's `- `
lines under it) and as flags, `--KEY=value` / `--KEY value` (the value to the next blank); a row
with `within` applies only inside that block: a Terraform
`resource "TYPE" "NAME" { }` (its braces), a `module` block whose `source` is the registry module
named (`module:terraform-aws-modules/vpc/aws`: its `cidr` and `*_subnets` inputs), or a
CloudFormation resource whose `Type` is `TYPE` (its YAML mapping by indentation, or its JSON object
by braces).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from renamer.names import IPNetwork
from renamer.prefix_moves import LengthHit, PrefixMove

TOOL = "tool-refuses"  # as prefix_pools.TOOL


@dataclass(frozen=True)
class ToolLimit:
    """One tool's rule on the length of the networks under `keys` (a regex)."""

    tool: str
    keys: bytes
    family: int
    shortest: int  # the shortest length (the largest network) the tool accepts
    longest: int  # the longest length (the smallest network) it accepts
    rule: str  # the tool's own rule, cited
    within: tuple[bytes, ...] = ()  # Terraform resource types / CloudFormation types the key must be in


_KUBE_SERVICE = (rb"serviceSubnets?|service-cidr|service-cluster-ip-range|serviceClusterIPRange"
                 rb"|kube_service_addresses(?:_ipv6)?"
                 # round 7 theme 2: RKE1's cluster.yml, OpenShift's install-config, k0s's ClusterConfig,
                 # AKS (Bicep/ARM `serviceCidr(s)`, azurerm's `service_cidr(s)`): each is handed to
                 # kube-apiserver as --service-cluster-ip-range
                 rb"|service_cluster_ip_range|serviceNetwork|serviceCIDR|serviceCidrs?|service_cidrs?")
_KUBE_RULE = ("kube-apiserver refuses a service CIDR of more than 20 host bits (cmd/kube-apiserver "
              "validateClusterIPFlags, \"specified --service-cluster-ip-range is too large\": the mask "
              "must be >= {shortest})")
_AWS_RULE = ("AWS refuses a VPC or subnet CIDR block outside /16 to /28 (Amazon VPC User Guide, \"VPC "
             "CIDR blocks\": InvalidVpc.Range / InvalidSubnet.Range)")
_EKS_RULE = ("EKS refuses a service_ipv4_cidr outside /12 to /24 (Amazon EKS API, "
             "KubernetesNetworkConfigRequest serviceIpv4Cidr)")
_AZURE_RULE = ("Azure refuses a subnet outside /2 to /29 for IPv4, and an IPv6 subnet that is not a /64 "
               "(Azure Virtual Network FAQ, subnet sizes)")
_GKE_RULE = ("GKE refuses a control plane range that is not a /28 (google_container_cluster "
             "private_cluster_config.master_ipv4_cidr_block \"must be a /28 subnet\"; gcloud "
             "--master-ipv4-cidr)")
_AZURE_NAMED = "Azure refuses the subnet {name} longer than /{longest} ({doc})"
_AWS_TYPES = (b"aws_vpc", b"aws_subnet", b"aws_vpc_ipv4_cidr_block_association",
              b"AWS::EC2::VPC", b"AWS::EC2::Subnet", b"AWS::EC2::VPCCidrBlock",
              # Pulumi YAML's resource types, and its SDKs' and CDK's constructors (`call:`)
              b"aws:ec2:Vpc", b"aws:ec2/vpc:Vpc", b"aws:ec2:Subnet", b"aws:ec2/subnet:Subnet",
              b"aws:ec2:VpcIpv4CidrBlockAssociation", b"call:aws.ec2.Vpc", b"call:aws.ec2.Subnet",
              b"call:ec2.NewVpc", b"call:ec2.NewSubnet", b"call:ec2.Vpc", b"call:ec2.CfnVPC",
              b"call:ec2.CfnSubnet", b"call:ec2.Subnet",
              # Ansible's amazon.aws modules (the task's module mapping), eksctl's `vpc:` (`@`: a word the
              # file must hold), the aws CLI's commands (`cmd:`: the command line)
              b"key:(?:amazon\\.aws\\.)?ec2_vpc_net", b"key:(?:amazon\\.aws\\.)?ec2_vpc_subnet",
              b"key:vpc@eksctl.io",
              b"cmd:aws[ \\t]+ec2[ \\t]+(?:create-vpc|create-subnet|associate-vpc-cidr-block)")
_AZURE_SUBNETS = (b"azurerm_subnet", b"azurerm_virtual_network", b"Microsoft.Network/virtualNetworks/subnets",
                  b"key:subnets", b"key:(?:azure\\.azcollection\\.)?azure_rm_subnet")
_AZURE_KEYS = rb"address_prefix(?:es)?|addressPrefix(?:es)?|address_prefix_cidr|--address-prefixes?"


def _azure_named(name: str, longest: int, doc: str) -> ToolLimit:
    """A subnet Azure requires by name and at least /`longest` (its `name` in the entry around)."""
    return ToolLimit("Azure", _AZURE_KEYS, 4, 2, longest,
                     _AZURE_NAMED.format(name=name, longest=longest, doc=doc), (b"name:" + name.encode(),))


LIMITS: tuple[ToolLimit, ...] = (
    # Kubernetes (kubeadm `serviceSubnet`, k3s/RKE2 `service-cidr`, kube-apiserver's flag, Talos
    # `serviceSubnets`, kubespray `kube_service_addresses`, and the distributions above): maxCIDRBits = 20
    ToolLimit("kube-apiserver", _KUBE_SERVICE, 4, 12, 32, _KUBE_RULE.format(shortest=12)),
    ToolLimit("kube-apiserver", _KUBE_SERVICE, 6, 108, 128, _KUBE_RULE.format(shortest=108)),
    # Cluster API's `clusterNetwork.services.cidrBlocks`
    ToolLimit("kube-apiserver", rb"cidrBlocks", 4, 12, 32, _KUBE_RULE.format(shortest=12),
              (b"key:services@cluster.x-k8s.io",)),
    ToolLimit("kube-apiserver", rb"cidrBlocks", 6, 108, 128, _KUBE_RULE.format(shortest=108),
              (b"key:services@cluster.x-k8s.io",)),
    # AWS: Terraform's aws_vpc / aws_subnet / association `cidr_block`, CloudFormation's `CidrBlock`,
    # Pulumi's `cidrBlock` (`CidrBlock:` in Go), CDK v1's `cidr:`, Ansible's `cidr_block` / `cidr`,
    # eksctl's `vpc.cidr`, the aws CLI's --cidr-block
    ToolLimit("AWS", rb"cidr_block|[Cc]idrBlock|cidr|cidr-block", 4, 16, 28, _AWS_RULE, _AWS_TYPES),
    # CDK v2's `ec2.IpAddresses.cidr('10.0.0.0/16')` (the call is the key)
    ToolLimit("AWS", rb"IpAddresses\.cidr", 4, 16, 28, _AWS_RULE),
    # the terraform-aws-modules/vpc module's inputs, which feed aws_vpc and aws_subnet
    ToolLimit("AWS", rb"cidr|secondary_cidr_blocks"
              rb"|(?:public|private|database|intra|elasticache|redshift|outpost)_subnets",
              4, 16, 28, _AWS_RULE, (b"module:terraform-aws-modules/vpc/aws",)),
    # EKS: Terraform's/the API's service_ipv4_cidr, eksctl's kubernetesNetworkConfig.serviceIPv4CIDR
    ToolLimit("AWS EKS", rb"service_ipv4_cidr|serviceIpv4Cidr|ServiceIpv4Cidr|serviceIPv4CIDR", 4, 12, 24,
              _EKS_RULE),
    # GKE: the private control plane's range, exactly a /28
    ToolLimit("GKE", rb"master_ipv4_cidr_block|masterIpv4CidrBlock|master-ipv4-cidr", 4, 28, 28, _GKE_RULE),
    # Azure: azurerm_subnet's `address_prefixes` (and a virtual network's inline `subnet {}`), ARM's and
    # Bicep's `addressPrefix(es)` of a subnet (its own resource, or an entry of a VNet's `subnets`),
    # Ansible's azure_rm_subnet `address_prefix_cidr`, `az network vnet subnet create --address-prefixes`
    ToolLimit("Azure", _AZURE_KEYS, 4, 2, 29, _AZURE_RULE, (*_AZURE_SUBNETS,
              b"cmd:az[ \\t]+network[ \\t]+vnet[ \\t]+subnet[ \\t]+(?:create|update)")),
    ToolLimit("Azure", _AZURE_KEYS, 6, 64, 64, _AZURE_RULE, _AZURE_SUBNETS),
    # the subnets Azure's services require by name
    _azure_named("AzureFirewallSubnet", 26, "Azure Firewall FAQ, \"Why does Azure Firewall need a /26 "
                 "subnet size?\""),
    _azure_named("AzureFirewallManagementSubnet", 26, "Azure Firewall forced tunneling, \"a /26 subnet\""),
    _azure_named("AzureBastionSubnet", 26, "Azure Bastion configuration settings, \"subnet size /26 or "
                 "larger\""),
    _azure_named("RouteServerSubnet", 27, "Azure Route Server, \"a subnet of /27 or larger\""),
)

_NET = re.compile(rb"(?<![0-9A-Za-z.:])((?:[0-9]{1,3}\.){3}[0-9]{1,3}|[0-9A-Fa-f]*:[0-9A-Fa-f:.]*)"
                  rb"/([0-9]{1,3})(?![0-9])")
_LIST_LINES = 20  # a key's YAML list: the lines after it, at most
_REACH = 20000  # bytes, at most, of one resource block


def _network(text: bytes) -> IPNetwork | None:
    try:
        return ipaddress.ip_network(text.decode("ascii"), strict=False)
    except ValueError:
        return None


def _line_of(data: bytes, pos: int) -> tuple[int, int]:
    end = data.find(b"\n", pos)
    return data.rfind(b"\n", 0, pos) + 1, len(data) if end < 0 else end


def _indent(text: bytes) -> int:
    return len(text) - len(text.lstrip(b" \t"))


def _value_end(data: bytes, key_start: int, after: int) -> int:
    """The end of a key's value: its line, and the `- ` list lines under it (YAML), or a bracketed
    list across lines (HCL, JSON, Bicep: `[` to its `]`)."""
    opened = re.compile(rb"[ \t]*(?:\r?\n[ \t]*)?([\[(])").match(data, after)
    if opened is not None:
        return _braces(data, opened.start(1), opened.group(1), _CLOSE[opened.group(1)])
    line_start, stop = _line_of(data, key_start)
    own = _indent(data[line_start:key_start])
    for _ in range(_LIST_LINES):
        if stop >= len(data):
            break
        nxt_end = _line_of(data, stop + 1)[1]
        nxt = data[stop + 1:nxt_end]
        if not nxt.lstrip().startswith(b"-") or _indent(nxt) < own:
            break
        stop = nxt_end
    return max(stop, after)


_CLOSE = {b"[": b"]", b"(": b")", b"{": b"}"}


def _braces(data: bytes, at: int, opening: bytes = b"{", closing: bytes = b"}") -> int:
    """The end of the `{ }` block (or `[ ]`, `( )`) opening at `at` (strings skipped), or the reach's end."""
    depth, pos, quoted = 0, at, b""
    limit = min(len(data), at + _REACH)
    while pos < limit:
        char = data[pos:pos + 1]
        if quoted:
            if char == b"\\":
                pos += 1
            elif char == quoted:
                quoted = b""
        elif char in (b'"', b"'") and (char == b'"' or opening != b"{"):
            quoted = char  # single quotes: Bicep's and Python's strings (a brace block's are HCL/JSON)
        elif char == opening:
            depth += 1
        elif char == closing:
            depth -= 1
            if depth == 0:
                return pos + 1
        pos += 1
    return limit


def _yaml_block(data: bytes, line_start: int, line_end: int, column: int) -> tuple[int, int]:
    """The YAML mapping around a line: the lines above and below indented at least `column`."""
    begin = line_start
    while begin > 0:
        prev = data.rfind(b"\n", 0, begin - 1) + 1
        text = data[prev:begin - 1]
        if text.strip() and _indent(text) < column:
            break
        begin = prev
    end = line_end
    while end < len(data):
        nxt_end = _line_of(data, end + 1)[1]
        text = data[end + 1:nxt_end]
        if text.strip() and _indent(text) < column:
            break
        end = nxt_end
    return begin, end


def _enclosing(data: bytes, pos: int) -> tuple[int, int] | None:
    """The innermost `{ }` around `pos` (within the reach), or None."""
    depth = 0
    for x in reversed(list(re.finditer(rb'"(?:[^"\\\n]|\\.)*"|[{}]', data[max(0, pos - _REACH):pos]))):
        if x.group() == b"}":
            depth += 1
        elif x.group() == b"{":
            if depth == 0:
                at = max(0, pos - _REACH) + x.start()
                return at, _braces(data, at)
            depth -= 1
    return None


def _special(data: bytes, spec: bytes) -> list[tuple[int, int]]:
    """The spans a `within` entry of another kind names (round 7 theme 2): `call:NAME` the arguments
    of a call (Pulumi's and CDK's constructors), `key:KEY` a key's value (a bracket, or the YAML block
    under it; `@WORD`: only in a file holding WORD), `cmd:REGEX` a command line with its `\\`
    continuations, `name:NAME` the entry whose `name` is NAME (its braces, or its YAML mapping)."""
    kind, _, what = spec.partition(b":")
    what, _, marker = what.partition(b"@")
    if marker and marker not in data:
        return []
    out = []
    if kind == b"call":
        for x in re.finditer(rb"(?<![A-Za-z0-9_])" + re.escape(what) + rb"[ \t]*\(", data):
            out.append((x.end() - 1, _braces(data, x.end() - 1, b"(", b")")))
    elif kind == b"key":
        for x in re.finditer(rb"(?<![A-Za-z0-9_.-])[\"']?(?:" + what + rb")[\"']?[ \t]*[:=][ \t]*", data):
            nxt = data[x.end():x.end() + 1]
            if nxt in (b"[", b"{"):
                out.append((x.end(), _braces(data, x.end(), nxt, _CLOSE[nxt])))
                continue
            line_start, line_end = _line_of(data, x.start())
            if data[x.end():line_end].strip() and not data[x.end():line_end].lstrip().startswith(b"#"):
                continue  # a scalar: no block
            column = x.start() - line_start + 1
            below = _line_of(data, line_end + 1)[1]
            out.append((line_end, _yaml_block(data, line_end + 1, below, column)[1]))
    elif kind == b"cmd":
        for x in re.finditer(rb"(?<![A-Za-z0-9_-])(?:" + what + rb")(?![A-Za-z0-9_-])", data):
            end = _line_of(data, x.start())[1]
            while data[:end].rstrip(b"\r").endswith(b"\\") and end < len(data):
                end = _line_of(data, end + 1)[1]
            out.append((x.start(), end))
    elif kind == b"name":
        for x in re.finditer(rb"(?<![A-Za-z0-9_])[\"']?name[\"']?[ \t]*[:=][ \t]*[\"']" + re.escape(what) +
                             rb"[\"']|(?<![A-Za-z0-9_])name:[ \t]*" + re.escape(what) + rb"[ \t]*$",
                             data, re.MULTILINE):
            braced = _enclosing(data, x.start())
            line_start, line_end = _line_of(data, x.start())
            if braced is not None:
                out.append(braced)
            else:  # YAML: the mapping of the `name:` key (Ansible's azure_rm_subnet)
                lead = data[line_start:x.start()]
                column = len(lead) if lead.strip(b" \t-") == b"" else _indent(lead)
                out.append(_yaml_block(data, line_start, line_end, column))
    return out


def _blocks(data: bytes, types: tuple[bytes, ...]) -> list[tuple[int, int]]:
    """The spans of the resources of `types`: Terraform blocks, CloudFormation/ARM resources,
    Bicep's `resource NAME 'TYPE@VERSION' = {`, and `_special`'s kinds."""
    out = []
    for spec in (t for t in types if re.match(rb"(?:call|key|cmd|name):", t)):
        out += _special(data, spec)
    types = tuple(t for t in types if not re.match(rb"(?:call|key|cmd|name):", t))
    for source in (t[len(b"module:"):] for t in types if t.startswith(b"module:")):
        for x in re.finditer(rb'(?m)^[ \t]*module[ \t]+"[^"\n]*"[ \t]*\{', data):
            span = (x.end() - 1, _braces(data, x.end() - 1))
            found = re.search(rb'(?m)^[ \t]*source[ \t]*=[ \t]*"([^"\n]*)"', data[span[0]:span[1]])
            if found is not None and found.group(1).split(b"?")[0].split(b"//")[0].endswith(source):
                out.append(span)
    types = tuple(t for t in types if not t.startswith(b"module:"))
    if not types:
        return out
    names = b"|".join(re.escape(t) for t in types)
    for x in re.finditer(rb'(?m)^[ \t]*resource[ \t]+"(?:' + names + rb')"[ \t]+"[^"\n]*"[ \t]*\{', data):
        out.append((x.end() - 1, _braces(data, x.end() - 1)))
    for x in re.finditer(rb"(?m)^[ \t]*resource[ \t]+[A-Za-z0-9_]+[ \t]+'(?:" + names +
                         rb")@[^'\n]*'[ \t]*(?:existing[ \t]*)?=[ \t]*\{", data):  # Bicep
        out.append((x.end() - 1, _braces(data, x.end() - 1)))
    typed = re.compile(rb'["\']?(?:Type|type)["\']?[ \t]*:[ \t]*["\']?(?:' + names +
                       rb')["\']?(?=[ \t]*[,}\r\n])')
    for x in typed.finditer(data):
        opened = data.rfind(b"{", 0, x.start())
        line_start, line_end = _line_of(data, x.start())
        if data[line_start:x.start()].strip() in (b"", b"-"):  # YAML: the mapping by indentation
            out.append(_yaml_block(data, line_start, line_end, x.start() - line_start))
        elif opened >= 0:  # JSON: the object around `"Type"`
            out.append((opened, _braces(data, opened)))
    return out


def limit_hits(data: bytes, moves: Sequence[PrefixMove]) -> Iterator[LengthHit]:
    """Each network literal under a `LIMITS` key whose move gives it a length the tool refuses."""
    resized = [m for m in moves if m.resized]
    if not resized:
        return
    seen: set[int] = set()
    for row in LIMITS:
        if not any(m.old.version == row.family and not row.shortest <= m.new.prefixlen <= row.longest
                   for m in resized):
            continue
        key = re.compile(rb"(?<![A-Za-z0-9_-])(?:--(?:" + row.keys + rb")(?:=|[ \t]+)|[\"']?(?:" + row.keys +
                         rb")[\"']?[ \t]*(?::|=(?![=>~]))|(?:" + row.keys + rb")(?=[ \t]*\())")
        # `--service-cidr 10.96.0.0/16` too, and a call as the key (CDK's `IpAddresses.cidr(...)`)
        spans = _blocks(data, row.within) if row.within else [(0, len(data))]
        for start, end in spans:
            for x in key.finditer(data, start, end):
                stop = min(end, _value_end(data, x.start(), x.end()))
                if x.group().startswith(b"--"):  # a flag's value: to the next blank
                    blank = re.compile(rb"[\s\"']").search(data, x.end(), stop)
                    stop = blank.start() if blank is not None else stop
                for n in _NET.finditer(data, x.end(), stop):
                    net = _network(n.group())
                    if net is None or net.version != row.family or n.start() in seen:
                        continue
                    for move in resized:
                        if net.version != move.old.version or net not in (move.old, move.new):
                            continue
                        if row.shortest <= move.new.prefixlen <= row.longest:
                            continue
                        seen.add(n.start())
                        text = n.group().decode("ascii")
                        state = ("becomes" if net == move.old and net != move.new else
                                 "is the new network of the move from")
                        other = move.new if state == "becomes" else move.old
                        yield LengthHit(n.start(), n.end(), text, text, TOOL,
                                        f"{text} {state} {other}, of a length {row.tool} refuses: "
                                        f"{row.rule}: choose a new network of /{row.shortest} to "
                                        f"/{row.longest}, or decide the file by hand")
                        break
