"""renamer/data_records.py: the owners of DNS records held as data, with their zones (pure)."""

from __future__ import annotations

import pytest

from renamer.data_records import owners

ROLE = b"""\
bind9_zones:
  - name: "{{ dns_domain }}"
    serial: 2024102002
    rrs:
      - label: node2
        type: A
        rdata: 10.0.0.12
  - name: 0.10.in-addr.arpa
    serial: 2024102001
    rrs:
      - {label: '12.0', type: PTR, rdata: x.}
"""


def spans(rel: str, data: bytes) -> list[tuple[str, str | None, str, bool, str]]:
    return [(data[o.start:o.end].decode(), o.zone, o.text, o.bare, o.rtype) for o in owners(rel, data)]


def test_a_roles_zone_list_gives_each_owner_its_zone_and_serial() -> None:
    found = owners("host_vars/ns.yml", ROLE)
    assert [(ROLE[o.start:o.end], o.zone, o.named, o.bare, o.rtype) for o in found] == [
        (b"node2", None, "{{ dns_domain }}", True, "A"), (b"12.0", "0.10.in-addr.arpa", "0.10.in-addr.arpa", False,
                                                          "PTR")]
    assert [ROLE[s:e] for s, e in (o.serial for o in found if o.serial)] == [b"2024102002", b"2024102001"]
    first, second = (o.zone_span for o in found)
    assert first is not None and second is not None and first[1] <= second[0]


def test_an_octodns_zone_file_is_named_for_its_zone() -> None:
    data = b"'70':\n  type: PTR\n  value: web01.lab.example.\n'':\n  - type: A\n    value: 10.0.0.1\n"
    assert spans("config/0.0.10.in-addr.arpa.yaml", data) == [("70", "0.0.10.in-addr.arpa", "70", False, "PTR"),
                                                             ("", "0.0.10.in-addr.arpa", "", False, "A")]


def test_an_nsupdate_task_and_terraform_dns_resources() -> None:
    task = b"- community.general.nsupdate:\n    zone: Lab.Example.\n    record: web01\n    value: 10.0.0.70\n"
    assert spans("t.yml", task) == []  # no record type written: not asked (might_hold)
    task = task.replace(b"    value", b"    type: A\n    value")
    assert spans("t.yml", task) == [("web01", "lab.example", "web01", True, "A")]
    tf = b'resource "dns_ptr_record" "p" {\n  zone = "0.0.10.in-addr.arpa."\n  name = "70"\n  ptr = "x."\n}\n'
    assert spans("dns.tf", tf) == [("70", "0.0.10.in-addr.arpa", "70", False, "")]


def test_non_ascii_text_gives_byte_spans() -> None:
    data = "# zone for café\n- zone: lab.example\n  record: web01\n  type: A\n".encode()
    (owner,) = owners("t.yml", data)
    assert data[owner.start:owner.end] == b"web01"


@pytest.mark.parametrize("rel, data", [
    ("svc.yaml", b"spec:\n  type: ClusterIP\n  name: web01\n"),  # a Service's type is no RR type
    ("a.yml", b"- name: web\n  rrs: [{label: x}]\n"),  # no type
    ("a.yml", b"zone: us-east-1a\nrecord: x\ntype: A\n"),  # a zone that is no DNS zone
    ("a.yml", b"key: [unclosed\ntype: A\n"),  # no YAML
    ("notes.txt", b"type: A\n"),
])
def test_noop_what_holds_no_record(rel: str, data: bytes) -> None:
    assert owners(rel, data) == []


def test_records_held_as_json_are_read_as_the_yaml_ones() -> None:
    """Round 21, findings 14 and 26's rest: a zone list and an octoDNS-shaped zone file in JSON."""
    role = b'{"zones": [{"name": "0.10.in-addr.arpa", "serial": 7, "rrs": [{"label": "12.0", "type": "PTR"}]}]}'
    [found] = owners("vars/ns.json", role)
    assert (role[found.start:found.end], found.zone, found.bare, found.rtype) == (b"12.0", "0.10.in-addr.arpa",
                                                                                  False, "PTR")
    assert found.serial is not None and role[found.serial[0]:found.serial[1]] == b"7"
    octo = b'{\n  "70": {"type": "PTR", "value": "web01.lab.example."}\n}\n'
    assert spans("config/0.0.10.in-addr.arpa.json", octo) == [("70", "0.0.10.in-addr.arpa", "70", False, "PTR")]
    assert owners("config/0.0.10.in-addr.arpa.json", b'{"70": {"kind": "vm"}}') == []
