"""DNS records held as data: an owner written relative to a zone that the same file names
(break-it round 21, findings 14 and 26). The grammar; sweep/data_records.py decides.

A zone file says its records' owners against `$ORIGIN` (formats/zone_names.py reads those). These
files say the same in their own dress, owner, type and value in one mapping or one resource:

* a role's zone list (the bind9 role of ricsanfre/pi-cluster, many like it): a mapping naming its
  zone (`name:`, `zone:`, `domain:`, `origin:`) beside a list of records, each a mapping with a
  `type:` and an owner (`label:`, `name:`, `owner:`, `record:`, `host:`, `hostname:`); the
  zone's `serial:` beside it, a number a secondary compares;
* an octoDNS zone file, `config/lab.example.yaml`: its top-level keys are owners in the zone its
  file name says (`'70':` in `config/0.0.10.in-addr.arpa.yaml`);
* an Ansible task's module arguments, `zone:` beside `record:` (nsupdate,
  community.general.nsupdate), or beside `name:` where a `type:` says it is a record;
* anything renamer/zone_records.py reads (DNSControl, Terraform record resources of other
  providers, pdnsutil/knotc/samba-tool/ipa command lines, dhcpd scopes, NixOS), and Terraform's
  hashicorp/dns resources (`zone = "0.0.10.in-addr.arpa."`, `name = "70"`; tool_names.py).

Each owner is given with its span, its zone (None where the zone is named but not written where
it can be read: `name: "{{ dns_domain }}"`), where the zone comes from, whether a YAML owner is a
bare scalar (`12.0` is a float to YAML: a new label must read back the same), the record's type
where one is written, and the span of the zone's serial where its mapping holds one. Pure: bytes in,
values out.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from renamer import lazy_re, tool_names, zone_records
from renamer.formats import yaml_rt

# A record's type as these files write it: a `type:` whose value is an RR type.
_RR_TYPE = lazy_re.compile(rb"(?m)(?:^|[{,\s])[\"']?type[\"']?[ \t]*:[ \t]*[\"']?"
                      rb"(?:A|AAAA|PTR|CNAME|MX|TXT|SRV|NS|CAA|DNAME|ALIAS|HINFO|NAPTR|SSHFP|TLSA)"
                      rb"[\"']?[ \t]*(?:[,}#\r\n]|$)")
# One of these stands in every YAML file `holds_records` accepts (the first pass's literals).
# (JSON writes the key quoted: `"type": "A"`.)
LITERALS = tuple(b"type" + sep + quote + rtype for sep in (b": ", b":", b'": ', b'":')
                 for quote in (b"", b'"', b"'")
                 for rtype in (b"A", b"CNAME", b"PTR", b"MX", b"TXT", b"SRV", b"NS"))
# Records held as JSON are read as the YAML ones (JSON is YAML's flow style): an octoDNS-shaped
# zone file `config/lab.example.json`, a zone list exported as JSON (round 21, findings 14/26's rest).
_DATA = (".yml", ".yaml", ".json")
_JSON_ZONE_NAME = lazy_re.compile(r"(?:^|/)(?P<zone>[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)\.json$")
_ZONE_KEYS = ("zone", "zone_name", "domain", "origin", "name")
_OWNER_KEYS = ("label", "name", "owner", "record", "host", "hostname", "record_name")
_TASK_OWNER_KEYS = ("record", "record_name")  # beside `zone:` without a `type:`
_DOMAIN = lazy_re.compile(r"[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)+\.?")


@dataclass(frozen=True)
class Owner:
    """The owner at [start, end) (`text` as written; `@` or empty: the zone's apex), relative to
    `zone` (no final dot, lower case; None: the zone is named by `named` but cannot be read)."""

    start: int
    end: int
    text: str
    zone: str | None
    named: str
    how: str
    bare: bool = False  # a plain YAML scalar: its text is read as a number where it looks like one
    rtype: str = ""  # the record's type, where the record says it
    serial: tuple[int, int] | None = None  # the digits of its zone's `serial:` in the same mapping
    zone_span: tuple[int, int] | None = None  # that zone's whole mapping


def holds_records(data: bytes) -> bool:
    """Whether `data` may hold a YAML record with a type (`type: A`): the first pass's question,
    where the file's name is not asked (an octoDNS zone file holding no old value any more)."""
    return any(word in data for word in LITERALS) and _RR_TYPE.search(data) is not None


def might_hold(rel: str, data: bytes) -> bool:
    """Whether `data` may hold a record written as data (the cheap question before any parse)."""
    if rel.endswith(_DATA):  # (the literal first: the regex tries every line start)
        return b"type" in data and _RR_TYPE.search(data) is not None
    return (b'"dns_' in data and rel.endswith(".tf")) or zone_records.might_hold(data)


def owners(rel: str, data: bytes) -> list[Owner]:
    """Every owner of a record held as data in the file `rel`, in file order, each span once."""
    if not might_hold(rel, data):
        return []
    found: dict[int, Owner] = {}
    if rel.endswith(_DATA):
        for owner in _yaml(rel, data):
            found.setdefault(owner.start, owner)
    else:
        for start, end, word, zone in tool_names.relative_names(rel, data):
            how = f"the `zone` of the same record ({zone})"
            found.setdefault(start, Owner(start, end, word, _zone(zone), zone, how))
        for relative in zone_records.relatives(data, rel, _ANY):
            found.setdefault(relative.start, Owner(relative.start, relative.end, relative.word,
                                                    _zone(relative.zone) if relative.zone else None,
                                                    relative.named, relative.how))
    return [found[at] for at in sorted(found)]


class _Anything:
    """Every word: zone_records.py's readers asked for each relative name they find."""

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and bool(word)

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0


_ANY = _Anything()


def _zone(text: str) -> str | None:
    text = text.strip()
    if "{{" in text or "$" in text or _DOMAIN.fullmatch(text) is None:
        return None
    return text.rstrip(".").lower()


# YAML ----------------------------------------------------------------------------------------

def _yaml(rel: str, data: bytes) -> Iterator[Owner]:
    text = data.decode("utf-8", "replace")
    try:
        docs = yaml_rt.compose_nodes(text)
    except ValueError:
        return
    at = _Offsets(text, data)
    octo = tool_names.zone_file(rel, data) if not rel.endswith(".json") else _json_zone_file(rel)
    for doc in docs:
        if octo is not None and _kind(doc) == "MappingNode":
            yield from _octodns(doc, octo, at, rel)
        yield from _walk(doc, at)


def _json_zone_file(rel: str) -> str | None:
    """The zone a JSON zone file named for it holds (`config/lab.example.json`); its top-level keys
    are owners where their value is a record with a `type` (_octodns asks)."""
    found = _JSON_ZONE_NAME.search(rel)
    return found.group("zone") if found is not None else None


class _Offsets:
    """Character offsets of the decoded text as byte offsets of the file."""

    def __init__(self, text: str, data: bytes) -> None:
        self.ascii = data.isascii()
        self.text = text

    def __call__(self, index: int) -> int:
        return index if self.ascii else len(self.text[:index].encode("utf-8"))


def _kind(node: Any) -> str:
    return type(node).__name__


def _value(node: Any, key: str) -> Any:
    if _kind(node) != "MappingNode":
        return None
    return next((v for k, v in node.value if _kind(k) == "ScalarNode" and k.value == key), None)


def _scalar_span(node: Any, at: _Offsets) -> tuple[int, int, bool] | None:
    """The span of a scalar's text (inside its quotes), and whether it is bare; None where the
    text is not its value as written (an escape, a folded or multi-line scalar)."""
    if _kind(node) != "ScalarNode":
        return None
    start, end = node.start_mark.index, node.end_mark.index
    written = at.text[start:end]
    if node.style in ('"', "'"):
        written = written[1:-1]
        start, end = start + 1, end - 1
    elif node.style:
        return None
    if written != str(node.value):
        return None
    return at(start), at(end), not node.style


def _serial(mapping: Any, at: _Offsets) -> tuple[int, int] | None:
    node = _value(mapping, "serial")
    span = _scalar_span(node, at) if node is not None else None
    if span is None or not str(node.value).isdigit():
        return None
    return span[0], span[1]


def _octodns(doc: Any, zone: str, at: _Offsets, rel: str) -> Iterator[Owner]:
    """An octoDNS zone file's owners: its top-level keys, a record (`type:`) or a list of them."""
    for key, value in doc.value:
        records = value.value if _kind(value) == "SequenceNode" else [value]
        types = [str(t.value) for r in records if _kind(t := _value(r, "type")) == "ScalarNode"]
        span = _scalar_span(key, at)
        if not types or span is None:
            continue
        yield Owner(span[0], span[1], str(key.value), zone.lower().rstrip("."), zone,
                    f"the zone of {rel} (an octoDNS zone file: its keys are owners in {zone})", span[2],
                    types[0].upper())


def _walk(doc: Any, at: _Offsets) -> Iterator[Owner]:
    for node in yaml_rt.mappings(doc):
        yield from _zone_mapping(node, at)
        yield from _task(node, at)


def _zone_key(mapping: Any) -> tuple[str, Any] | None:
    """The key naming a mapping's zone, and its node (the first of `_ZONE_KEYS` with a scalar)."""
    for key in _ZONE_KEYS:
        node = _value(mapping, key)
        if _kind(node) == "ScalarNode":
            return key, node
    return None


def _zone_mapping(mapping: Any, at: _Offsets) -> Iterator[Owner]:
    """A zone's mapping holding a list of records: each record's owner, relative to the zone."""
    named = _zone_key(mapping)
    if named is None:
        return
    key, node = named
    ztext = str(node.value)
    zone = _zone(ztext)
    if zone is None and "{{" not in ztext and "$" not in ztext:
        return  # `name: web` of something that is no zone
    serial = _serial(mapping, at)
    whole = (at(mapping.start_mark.index), at(mapping.end_mark.index)) if serial is not None else None
    for list_key, records in mapping.value:
        if _kind(records) != "SequenceNode":
            continue
        for record in records.value:
            rtype = _value(record, "type")
            if _kind(rtype) != "ScalarNode":
                continue
            owner = next((n for k in _OWNER_KEYS if (n := _value(record, k)) is not None), None)
            span = _scalar_span(owner, at) if owner is not None else None
            if span is None or owner is None:
                continue
            how = (f"`{key}: {ztext}` of the zone whose `{list_key.value}:` lists this record "
                   "(its owner is a name in that zone)")
            yield Owner(span[0], span[1], str(owner.value), zone, ztext, how, span[2],
                        str(rtype.value).upper(), serial, whole)


def _task(mapping: Any, at: _Offsets) -> Iterator[Owner]:
    """A module's arguments, `zone:` beside `record:` (or beside `name:` with a record `type:`)."""
    zone_node = _value(mapping, "zone") or _value(mapping, "zone_name")
    if _kind(zone_node) != "ScalarNode":
        return
    ztext = str(zone_node.value)
    zone = _zone(ztext)
    if zone is None and "{{" not in ztext and "$" not in ztext:
        return
    rtype = _value(mapping, "type")
    keys = _TASK_OWNER_KEYS + (("name",) if _kind(rtype) == "ScalarNode" else ())
    for key in keys:
        owner = _value(mapping, key)
        span = _scalar_span(owner, at) if owner is not None else None
        if span is not None:
            how = f"`zone: {ztext}` of the same task (`{key}:` is a name in that zone)"
            shown = str(rtype.value).upper() if rtype is not None and _kind(rtype) == "ScalarNode" else ""
            yield Owner(span[0], span[1], str(owner.value), zone, ztext, how, span[2], shown)
            return
