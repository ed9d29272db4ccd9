"""Denies held as YAML data that win over an allow (outside pass round 7, issue 33), pure: read from
the YAML node tree, judged by `except_blocks.covering` through `deny_rules.pair`.

* Ansible's `community.general.ufw` (or `ufw`) tasks, the first task deciding: `rule: deny` with
  `src: 10.0.48.0/25` (`from_ip`, `from`; `dest`/`to_ip`/`to` the other side) before `rule: allow`
  of 10.0.48.0/24 (`direction`, `interface`, `proto`, `port`, `from_port`, `route` as ufw's),
  `src: "{{ item }}"` over the task's `loop:` / `with_items:` list each item in turn; `insert`,
  `delete`, another templated value and a deny under `when:` (it may not run) are not read;
* ingress-nginx's annotations, the denylist checked first: `nginx.ingress.kubernetes.io/
  denylist-source-range` (or `blacklist-`) beside `whitelist-source-range` / `allowlist-source-range`
  in one mapping (an Ingress's annotations, the controller ConfigMap's keys without the prefix);
* AdminNetworkPolicy and BaselineAdminNetworkPolicy (policy.networking.k8s.io): an `egress` rule with
  `action: Deny` (or `Pass`, which hands the traffic to lower tiers) and `to: - networks:` before an
  `Allow` rule of the network, by the policy's `priority` (lower first) then the list's order, every
  AdminNetworkPolicy before the baseline; one `subject`, the deny's `ports` absent or the allow's;
* Cilium (`CiliumNetworkPolicy`, `CiliumClusterwideNetworkPolicy`): an `egressDeny` (`ingressDeny`)
  rule's `toCIDR` / `toCIDRSet` (`fromCIDR` / `fromCIDRSet`) beside an `egress` (`ingress`) rule's,
  the deny winning whatever the order, one `endpointSelector` (`nodeSelector`), the deny's `toPorts`
  absent or the allow's. A `toCIDRSet` entry's own `except` is `except_blocks`'.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import Any

from renamer import lazy_re
from renamer.deny_rules import Entry, Rule, network, pair
from renamer.formats import yaml_rt
from renamer.names import IPNetwork

_UFW_KEYS = ("community.general.ufw", "ufw")
_UFW_SIDES = {"src": b"from", "from_ip": b"from", "from": b"from", "dest": b"to", "to_ip": b"to", "to": b"to"}
_UFW_FIELDS = {"direction", "interface", "if", "proto", "protocol", "port", "to_port", "from_port", "route",
               "interface_in", "interface_out", "name"}
_LOOP_ITEM = lazy_re.compile(r"[ \t]*\{\{-?[ \t]*item[ \t]*-?\}\}[ \t]*")
_UFW_RULES = ("allow", "deny", "reject", "limit")
_CILIUM = {"CiliumNetworkPolicy", "CiliumClusterwideNetworkPolicy"}
_ANP = {"AdminNetworkPolicy": 0, "BaselineAdminNetworkPolicy": 1}


def _kind(node: Any) -> str:
    return type(node).__name__


def _get(node: Any, key: str) -> Any:
    if _kind(node) != "MappingNode":
        return None
    return next((v for k, v in node.value if _kind(k) == "ScalarNode" and k.value == key), None)


def _items(node: Any) -> list[Any]:
    return list(node.value) if _kind(node) == "SequenceNode" else []


def _plain(node: Any) -> object:
    """A node as comparable Python data (for `ports`, selectors)."""
    if node is None:
        return None
    if _kind(node) == "MappingNode":
        return tuple(sorted((str(k.value), repr(_plain(v))) for k, v in node.value))
    if _kind(node) == "SequenceNode":
        return tuple(repr(_plain(v)) for v in node.value)
    return str(node.value)


class _Doc:
    """A YAML file's node trees and the byte offset of each character offset."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.text = data.decode("utf-8", "replace")
        self.ascii = data.isascii()
        try:
            self.docs = yaml_rt.compose_nodes(self.text)
        except ValueError:
            self.docs = []

    def at(self, index: int) -> int:
        return index if self.ascii else len(self.text[:index].encode("utf-8"))

    def nets(self, node: Any) -> list[tuple[int, int, IPNetwork]]:
        """Each network of a scalar (a comma-separated list too) or a list of scalars, with its span."""
        out: list[tuple[int, int, IPNetwork]] = []
        for scalar in _items(node) if _kind(node) == "SequenceNode" else [node]:
            if _kind(scalar) != "ScalarNode" or "{{" in str(scalar.value) or "$" in str(scalar.value):
                continue
            start, end = self.at(scalar.start_mark.index), self.at(scalar.end_mark.index)
            offset = 0
            for word in str(scalar.value).split(","):
                text = word.strip().encode()
                net = network(text) if text else None
                found = self.data.find(text, start + offset, end) if net is not None else -1
                if net is not None and found >= 0:
                    out.append((found, found + len(text), net))
                    offset = found + len(text) - start
        return out


def _walk(node: Any) -> Iterator[Any]:
    """Every mapping under `node`, depth first in document order."""
    if _kind(node) == "MappingNode":
        yield node
        for _, value in node.value:
            yield from _walk(value)
    elif _kind(node) == "SequenceNode":
        for value in node.value:
            yield from _walk(value)


def _ufw(doc: _Doc) -> Iterator[Entry]:
    index = 0
    for root in doc.docs:
        for mapping in _walk(root):
            task = next((v for key in _UFW_KEYS if (v := _get(mapping, key)) is not None), None)
            if task is None or _kind(task) != "MappingNode":
                continue
            index += 1
            rule = _get(task, "rule")
            if rule is None or _kind(rule) != "ScalarNode" or rule.value not in _UFW_RULES \
                    or _get(task, "insert") is not None or _get(task, "delete") is not None:
                continue
            fields: dict[bytes, bytes | frozenset[bytes]] = {b"direction": b"in"}
            sides: list[tuple[bytes, Any]] = []
            for key, value in task.value:
                name = str(key.value)
                if name in _UFW_SIDES:
                    sides.append((_UFW_SIDES[name], value))
                    text = str(value.value) if _kind(value) == "ScalarNode" else "?"
                    fields[_UFW_SIDES[name]] = text.encode()
                elif name in _UFW_FIELDS and _kind(value) == "ScalarNode":
                    fields[name.encode()] = str(value.value).encode()
            action = "permit" if rule.value in ("allow", "limit") else "deny"
            if action == "deny" and _get(mapping, "when") is not None:
                continue  # a deny that may not run: not an exclusion renamer can prove
            items = _items(_get(mapping, "loop") or _get(mapping, "with_items"))
            for side, value in sides:
                if _kind(value) == "ScalarNode" and _LOOP_ITEM.fullmatch(str(value.value)) and items:
                    for k, item in enumerate(items):  # `src: "{{ item }}"` over the task's `loop:`
                        for start, end, net in doc.nets(item):
                            yield Entry(b"ufw", (index, k), action, side, start, end, net, fields)
                    continue
                for start, end, net in doc.nets(value):
                    yield Entry(b"ufw", (index, 0), action, side, start, end, net, fields)


def _nginx(doc: _Doc) -> Iterator[Entry]:
    for root in doc.docs:
        for mapping in _walk(root):
            for key, value in mapping.value:
                name = str(key.value)
                if not name.endswith("-source-range"):
                    continue
                kind = name.rsplit("/", 1)[-1].removesuffix("-source-range")
                if kind not in ("whitelist", "allowlist", "denylist", "blacklist"):
                    continue
                action = "permit" if kind in ("whitelist", "allowlist") else "deny"
                group = b"nginx %d" % mapping.start_mark.index
                for start, end, net in doc.nets(value):
                    yield Entry(group, (0,), action, b"source", start, end, net)


def _anp(doc: _Doc) -> Iterator[Entry]:
    for root in doc.docs:
        tier = _ANP.get(str(getattr(_get(root, "kind"), "value", "")))
        spec = _get(root, "spec")
        if tier is None or spec is None:
            continue
        priority = _get(spec, "priority")
        try:
            rank = int(priority.value) if priority is not None and tier == 0 else 0
        except ValueError:
            continue
        group = repr(_plain(_get(spec, "subject"))).encode()
        for index, rule in enumerate(_items(_get(spec, "egress"))):
            action = str(getattr(_get(rule, "action"), "value", ""))
            if action not in ("Allow", "Deny", "Pass"):
                continue
            fields: dict[bytes, bytes | frozenset[bytes]] = {}
            ports = _get(rule, "ports")
            if ports is not None:
                fields[b"ports"] = repr(_plain(ports)).encode()
            for peer in _items(_get(rule, "to")):
                for start, end, net in doc.nets(_get(peer, "networks")):
                    yield Entry(group, (tier, rank, index), "permit" if action == "Allow" else "deny",
                                b"egress", start, end, net, fields)


def _cilium(doc: _Doc) -> Iterator[Entry]:
    for root in doc.docs:
        if str(getattr(_get(root, "kind"), "value", "")) not in _CILIUM:
            continue
        specs = [_get(root, "spec"), *_items(_get(root, "specs"))]
        for spec in specs:
            if spec is None:
                continue
            selector = _get(spec, "endpointSelector") or _get(spec, "nodeSelector")
            group = repr(_plain(selector)).encode()
            for direction, peers in (("egress", ("toCIDR", "toCIDRSet")),
                                     ("ingress", ("fromCIDR", "fromCIDRSet"))):
                for key, action in ((direction, "permit"), (direction + "Deny", "deny")):
                    for rule in _items(_get(spec, key)):
                        fields: dict[bytes, bytes | frozenset[bytes]] = {}
                        ports = _get(rule, "toPorts")
                        if ports is not None:
                            fields[b"ports"] = repr(_plain(ports)).encode()
                        for entry in _items(_get(rule, peers[0])):
                            for start, end, net in doc.nets(entry):
                                yield Entry(group, (0,), action, direction.encode(), start, end, net, fields)
                        for entry in _items(_get(rule, peers[1])):
                            for start, end, net in doc.nets(_get(entry, "cidr")):
                                yield Entry(group, (0,), action, direction.encode(), start, end, net, fields)


def rules(data: bytes, wanted: Collection[IPNetwork] | None = None) -> Iterator[Rule]:
    """Each allow of a wanted network with the denies that win over it (module doc)."""
    ufw = b"ufw" in data and b"rule:" in data
    nginx = b"-source-range" in data and (b"denylist" in data or b"blacklist" in data)
    anp = b"AdminNetworkPolicy" in data and b"networks" in data
    cilium = b"Deny:" in data and b"CIDR" in data
    if not (ufw or nginx or anp or cilium):
        return
    doc = _Doc(data)
    if ufw:
        yield from pair(list(_ufw(doc)), wanted, "an Ansible ufw task's deny before its allow, the first "
                        "rule deciding", lambda d, p: d.order < p.order)
    if nginx:
        yield from pair(list(_nginx(doc)), wanted, "ingress-nginx's denylist-source-range, checked before "
                        "its allowlist", lambda d, p: True)
    if anp:
        yield from pair(list(_anp(doc)), wanted, "an AdminNetworkPolicy's Deny or Pass before its Allow, "
                        "the priority then the order deciding", lambda d, p: d.order < p.order)
    if cilium:
        yield from pair(list(_cilium(doc)), wanted, "a Cilium egressDeny or ingressDeny, which wins over "
                        "any allow", lambda d, p: True)
