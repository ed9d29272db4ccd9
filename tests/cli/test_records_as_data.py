"""DNS records held as data (break-it round 21, findings 14 and 26): a record's owner written
relative to a zone the same file names follows the record's name or address, or is a residual
saying why not; a zone's `serial:` beside its records is bumped. Real git repos through the CLI;
the bind9 role's zone list is rendered as its template does and read back by named-checkzone."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import jinja2
import pytest
from ruamel.yaml import YAML

from renamer.formats.zone import bumped_serial
from tests.testing.repos import git, snapshot
from tests.testing.zones import loaded

ALLOW = "version: 1\ncurrent: ['**']\n"


def config(hosts: str, addresses: str = "{}") -> str:
    return f"version: 1\nrenames:\n  hosts: {hosts}\n  addresses: {addresses}\nallowlist: allow.yaml\n"


# ricsanfre/pi-cluster's host_vars for its bind9 role (ansible/host_vars/node1.yml), cut down.
PI_CLUSTER = """\
dns_domain: homelab.lan
bind9_zones:
  - name: "{{ dns_domain }}"
    type: primary
    serial: 2024102002
    rrs:
      - label: node2
        type: A
        rdata: 10.0.0.12
      - label: node3
        type: A
        rdata: 10.0.0.13
  - name: 0.10.in-addr.arpa
    type: primary
    serial: 2024102001
    rrs:
      - label: 12.0
        type: PTR
        rdata: "node2.{{ dns_domain }}."
      - label: 13.0
        type: PTR
        rdata: "node3.{{ dns_domain }}."
"""
# The role's zone template, as bind9 roles write it: one line per record of the list.
ZONE_TEMPLATE = """\
$ORIGIN {{ zone.name }}.
$TTL 300
@ IN SOA ns1.{{ dns_domain }}. admin.{{ dns_domain }}. {{ zone.serial }} 3600 600 86400 300
@ IN NS ns1.{{ dns_domain }}.
{% if not zone.name.endswith(".arpa") %}ns1 IN A 10.0.0.1
{% endif %}{% for rr in zone.rrs %}{{ rr.label }} IN {{ rr.type }} {{ rr.rdata }}
{% endfor %}"""


def rendered(root: Path, tmp_path: Path) -> dict[str, list[tuple[str, str, str]]]:
    """Each zone of the role's vars file rendered by its template and read back by BIND."""
    data = YAML(typ="safe").load((root / "ansible/host_vars/node1.yml").read_text())
    env = jinja2.Environment(undefined=jinja2.StrictUndefined)
    out = {}
    for zone in data["bind9_zones"]:
        name = env.from_string(str(zone["name"])).render(dns_domain=data["dns_domain"])
        rrs = [{**rr, "rdata": env.from_string(str(rr["rdata"])).render(dns_domain=data["dns_domain"])}
               for rr in zone["rrs"]]
        text = env.from_string(ZONE_TEMPLATE).render(zone={**zone, "name": name, "rrs": rrs},
                                                     dns_domain=data["dns_domain"])
        path = tmp_path / f"db.{name}"
        path.write_text(text)
        out[name] = [r for r in loaded(path, name) if r[1] != "NS" and not r[0].startswith("ns1.")]
    return out


def test_the_bind9_roles_ptr_owner_follows_its_address_and_both_serials_grow(repo, run, tmp_path: Path) -> None:
    root = repo({"ansible/host_vars/node1.yml": PI_CLUSTER},
                config=config("{node2: cp1}", "{10.0.0.12: 10.0.0.42}"), allowlist=ALLOW)
    assert rendered(root, tmp_path)["0.10.in-addr.arpa"][0] == ("12.0.0.10.in-addr.arpa.", "PTR",
                                                                 "node2.homelab.lan.")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    zones = rendered(root, tmp_path)
    assert zones["homelab.lan"] == [("cp1.homelab.lan.", "A", "10.0.0.42"), ("node3.homelab.lan.", "A", "10.0.0.13")]
    # BIND serves the PTR of the new address, naming the new host; 10.0.0.12 has none any more
    assert zones["0.10.in-addr.arpa"] == [("13.0.0.10.in-addr.arpa.", "PTR", "node3.homelab.lan."),
                                          ("42.0.0.10.in-addr.arpa.", "PTR", "cp1.homelab.lan.")]
    data = YAML(typ="safe").load((root / "ansible/host_vars/node1.yml").read_text())
    today = dt.date.today()
    assert [z["serial"] for z in data["bind9_zones"]] == [int(bumped_serial("2024102002", today)),
                                                          int(bumped_serial("2024102001", today))]
    assert run(root, "verify", "--strict").exit_code == 0
    again = run(root, "sweep", "--dry-run")
    assert "would change 0 files" in again.stdout


def test_a_zone_whose_records_do_not_change_keeps_its_serial(repo, run) -> None:
    text = PI_CLUSTER + ("  - name: 1.10.in-addr.arpa\n    type: primary\n    serial: 7\n    rrs:\n"
                         "      - label: 5.0\n        type: PTR\n        rdata: gw.homelab.lan.\n")
    root = repo({"ansible/host_vars/node1.yml": text}, config=config("{node9: cp9}", "{10.0.0.13: 10.0.0.43}"),
                allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    data = YAML(typ="safe").load((root / "ansible/host_vars/node1.yml").read_text())
    today = dt.date.today()
    assert [z["serial"] for z in data["bind9_zones"]] == [int(bumped_serial("2024102002", today)),
                                                          int(bumped_serial("2024102001", today)), 7]
    assert [rr["label"] for rr in data["bind9_zones"][1]["rrs"]] == [12.0, 43.0]


OCTO = {
    "octodns.yaml": "providers:\n  config: {class: octodns.provider.yaml.YamlProvider, directory: ./config}\n",
    "config/lab.example.yaml": "web01:\n  type: A\n  value: 10.0.0.70\nweb02:\n  type: A\n  value: 10.0.0.80\n",
    "config/0.0.10.in-addr.arpa.yaml": "'70':\n  type: PTR\n  value: web01.lab.example.\n",
}
NSUPDATE = ("- community.general.nsupdate:\n    zone: lab.example\n    record: web01\n    type: A\n"
            "    value: 10.0.0.70\n- community.general.nsupdate:\n    zone: 0.0.10.in-addr.arpa\n"
            "    record: \"70\"\n    type: PTR\n    value: web01.lab.example.\n")
TERRAFORM = ('resource "dns_a_record_set" "w" {\n  zone      = "lab.example."\n  name      = "web01"\n'
             '  addresses = ["10.0.0.70"]\n}\nresource "dns_ptr_record" "p" {\n  zone = "0.0.10.in-addr.arpa."\n'
             '  name = "70"\n  ptr  = "web01.lab.example."\n}\n')


def test_owners_relative_to_a_zone_follow_within_their_zone(repo, run) -> None:
    """Finding 26 where every new name stays in its zone: octoDNS, nsupdate, Terraform's dns."""
    root = repo({**OCTO, "nsupdate.yml": NSUPDATE, "dns.tf": TERRAFORM},
                config=config("{web01.lab.example: app01.lab.example}", "{10.0.0.70: 10.0.0.71}"), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    octo = YAML(typ="safe").load((root / "config/lab.example.yaml").read_text())
    assert octo == {"app01": {"type": "A", "value": "10.0.0.71"}, "web02": {"type": "A", "value": "10.0.0.80"}}
    reverse = YAML(typ="safe").load((root / "config/0.0.10.in-addr.arpa.yaml").read_text())
    assert reverse == {"71": {"type": "PTR", "value": "app01.lab.example."}}
    tasks = YAML(typ="safe").load((root / "nsupdate.yml").read_text())
    assert [t["community.general.nsupdate"]["record"] for t in tasks] == ["app01", "71"]
    text = (root / "dns.tf").read_text()
    assert 'name      = "app01"' in text and 'name = "71"' in text and 'ptr  = "app01.lab.example."' in text
    assert run(root, "verify", "--strict").exit_code == 0


def test_a_ptr_owner_whose_address_leaves_its_zone_is_a_residual_before_and_after(repo, run) -> None:
    """Finding 26: 10.0.1.70 lies in 1.0.10.in-addr.arpa; the `70` of 0.0.10 cannot follow there."""
    root = repo({**OCTO, "nsupdate.yml": NSUPDATE, "dns.tf": TERRAFORM},
                config=config("{web01.lab.example: app01.lab.example}", "{10.0.0.70: 10.0.1.70}"), allowlist=ALLOW)
    dry = run(root, "verify", "--format", "json")
    assert dry.exit_code == 1
    found = {(r["path"], r["line"], r["reason"]) for r in json.loads(dry.stdout)["findings"]
             if r["reason"] is not None}
    assert found == {("config/0.0.10.in-addr.arpa.yaml", 1, "reverse-owner"), ("nsupdate.yml", 8, "reverse-owner"),
                     ("dns.tf", 8, "reverse-owner")}
    assert run(root, "sweep", "--commit").exit_code == 1  # the rest written, the owners left
    assert YAML(typ="safe").load((root / "config/lab.example.yaml").read_text())["app01"]["value"] == "10.0.1.70"
    verify = run(root, "verify")
    assert verify.exit_code == 1  # no old value is spelled any more; the owners still are 10.0.0.70's
    for place in ("config/0.0.10.in-addr.arpa.yaml:1:2: residual (reverse-owner)",
                  "nsupdate.yml:8:14: residual (reverse-owner)", "dns.tf:8:11: residual (reverse-owner)"):
        assert place in verify.stdout
    assert "lies outside the zone 0.0.10.in-addr.arpa" in verify.stdout


def test_a_forward_owner_whose_new_name_leaves_its_zone_is_a_residual(repo, run) -> None:
    root = repo({"config/lab.example.yaml": OCTO["config/lab.example.yaml"], "nsupdate.yml": NSUPDATE},
                config=config("{web01.lab.example: app01.other.example}"), allowlist=ALLOW)
    before = snapshot(root)
    dry = run(root, "verify", "--format", "json")
    residual = [(r["path"], r["line"], r["reason"]) for r in json.loads(dry.stdout)["findings"]
                if r["reason"] is not None]
    assert sorted(residual) == [("config/lab.example.yaml", 1, "zone-owner"), ("nsupdate.yml", 3, "zone-owner")]
    assert snapshot(root) == before


def test_an_owner_of_a_zone_that_cannot_be_read_is_a_residual(repo, run) -> None:
    """`name: "{{ dns_domain }}"`: `web01` may be web01.lab.example; with only the FQDN renamed,
    nothing spells an old value at the owner, and nothing may pass silently."""
    text = ("zones:\n  - name: \"{{ dns_domain }}\"\n    rrs:\n      - {label: web01, type: A, rdata: 10.0.0.70}\n"
            "  - name: \"{{ reverse_zone }}\"\n    rrs:\n      - {label: '70', type: PTR, rdata: x.}\n")
    root = repo({"vars.yml": text},
                config=config("{web01.lab.example: app01.lab.example}", "{10.0.0.70: 10.0.1.70}"), allowlist=ALLOW)
    dry = run(root, "verify", "--format", "json")
    residual = [(r["line"], r["old"], r["reason"]) for r in json.loads(dry.stdout)["findings"]
                if r["reason"] is not None]
    assert residual == [(4, "web01", "record-owner"), (7, "70", "record-owner")]
    assert run(root, "sweep", "--commit").exit_code == 1
    assert "rdata: 10.0.1.70" in (root / "vars.yml").read_text()
    assert run(root, "verify").exit_code == 1


def test_a_ptr_owner_of_a_zone_that_cannot_be_read_is_a_residual_under_a_network_move(repo, run) -> None:
    """The Known gap left by round 21's findings 14/26: under a network move (no address renamed),
    `label: 12.0` of a zone named by a template may be 10.0.0.12's reverse name, moving with its
    zone: a residual, as under an address rename; owners outside the network stay quiet."""
    text = ("zones:\n  - name: \"{{ reverse_zone }}\"\n    rrs:\n"
            "      - {label: '12.0', type: PTR, rdata: node2.lab.example.}\n"
            "      - {label: '12.5', type: PTR, rdata: node5.lab.example.}\n"
            "      - {label: node2, type: A, rdata: 10.0.0.12}\n")
    conf = "version: 1\nrenames:\n  networks: {10.0.0.0/24: 10.0.9.0/24}\nallowlist: allow.yaml\n"
    root = repo({"vars.yml": text}, config=conf, allowlist=ALLOW)
    data = json.loads(run(root, "verify", "--format", "json").stdout)
    residual = [(r["line"], r["old"], r["reason"]) for r in data["findings"] if r["reason"] is not None]
    assert residual == [(4, "12.0", "record-owner")], data["findings"]
    [found] = [r for r in data["findings"] if r["reason"] == "record-owner"]
    assert "10.0.0.12 in the moved network 10.0.0.0/24" in found["note"]
    assert run(root, "sweep", "--commit").exit_code == 1
    after = (root / "vars.yml").read_text()
    assert "rdata: 10.0.9.12" in after and "label: '12.0'" in after  # the data moved, the owner left for a decision
    assert run(root, "verify").exit_code == 1


def test_a_new_bare_owner_yaml_would_read_as_another_number_is_a_residual(repo, run) -> None:
    """`label: 12.0` made `1.10` would be the float 1.1 to YAML: the role would render `1.1`."""
    root = repo({"ansible/host_vars/node1.yml": PI_CLUSTER},
                config=config("{x9: y9}", "{10.0.0.12: 10.0.10.1}"), allowlist=ALLOW)
    dry = run(root, "verify", "--format", "json")
    residual = [(r["line"], r["reason"], r["note"]) for r in json.loads(dry.stdout)["findings"]
                if r["reason"] is not None]
    assert len(residual) == 1 and residual[0][:2] == (17, "reverse-owner")
    assert "would be read by YAML as the number 1.1" in residual[0][2]


@pytest.mark.parametrize("files", [
    # an owner that makes no old name, a record in a zone no rename touches, a k8s Service's `type:`
    {"config/lab.example.yaml": "web011:\n  type: A\n  value: 10.0.0.9\n"},
    {"config/other.example.yaml": "web01:\n  type: A\n  value: 10.0.0.70\n"},
    {"svc.yaml": "apiVersion: v1\nkind: Service\nmetadata: {name: web01}\nspec:\n  type: ClusterIP\n"},
    {"config/0.0.10.in-addr.arpa.yaml": "'69':\n  type: PTR\n  value: web01.lab.example.\n"},
], ids=["no-old-name", "another-zone", "kube-service", "another-reverse-owner"])
def test_noop_owners_that_name_no_old_value_stay(repo, run, files: dict[str, str]) -> None:
    root = repo(files, config=config("{web01.lab.example: app01.lab.example}", "{10.0.0.70: 10.0.0.71}"),
                allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    for rel, text in files.items():
        assert (root / rel).read_text() == text.replace("10.0.0.70", "10.0.0.71").replace(
            "web01.lab.example", "app01.lab.example")
    assert git(root, "status", "--porcelain") == ""


def test_a_network_move_moves_every_ptr_owner_of_the_role_inside_its_zone(repo, run, tmp_path: Path) -> None:
    conf = "version: 1\nrenames:\n  networks:\n    10.0.0.0/24: 10.0.1.0/24\nallowlist: allow.yaml\n"
    root = repo({"ansible/host_vars/node1.yml": PI_CLUSTER}, config=conf, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    zones = rendered(root, tmp_path)
    assert zones["0.10.in-addr.arpa"] == [("12.1.0.10.in-addr.arpa.", "PTR", "node2.homelab.lan."),
                                          ("13.1.0.10.in-addr.arpa.", "PTR", "node3.homelab.lan.")]
    assert zones["homelab.lan"] == [("node2.homelab.lan.", "A", "10.0.1.12"), ("node3.homelab.lan.", "A", "10.0.1.13")]
    assert run(root, "verify", "--strict").exit_code == 0


# Records held as JSON (round 21, findings 14 and 26's rest): the same shapes, read as data.
JSON_ZONES = """\
{
  "dns_domain": "homelab.lan",
  "bind9_zones": [
    {"name": "homelab.lan", "type": "primary", "serial": 2024102002,
     "rrs": [{"label": "node2", "type": "A", "rdata": "10.0.0.12"},
             {"label": "node3", "type": "A", "rdata": "10.0.0.13"}]},
    {"name": "0.10.in-addr.arpa", "type": "primary", "serial": 2024102001,
     "rrs": [{"label": "12.0", "type": "PTR", "rdata": "node2.homelab.lan."},
             {"label": "13.0", "type": "PTR", "rdata": "node3.homelab.lan."}]}
  ]
}
"""
OCTO_JSON = {
    "config/lab.example.json": '{\n  "web01": {"type": "A", "value": "10.0.0.70"},\n'
                               '  "web02": {"type": "A", "value": "10.0.0.80"}\n}\n',
    "config/0.0.10.in-addr.arpa.json": '{"70": {"type": "PTR", "value": "web01.lab.example."}}\n',
}


def test_a_zone_list_held_as_json_moves_its_ptr_owner_and_bumps_its_serials(repo, run, tmp_path: Path) -> None:
    root = repo({"ansible/host_vars/node1.json": JSON_ZONES},
                config=config("{node2: cp1}", "{10.0.0.12: 10.0.0.42}"), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    data = json.loads((root / "ansible/host_vars/node1.json").read_text())  # still JSON
    assert [rr["label"] for rr in data["bind9_zones"][1]["rrs"]] == ["42.0", "13.0"]
    today = dt.date.today()
    assert [z["serial"] for z in data["bind9_zones"]] == [int(bumped_serial("2024102002", today)),
                                                          int(bumped_serial("2024102001", today))]
    # What BIND serves from it, rendered by the role's template: the new address's PTR, the new host.
    (root / "ansible/host_vars/node1.yml").write_text((root / "ansible/host_vars/node1.json").read_text())
    zones = rendered(root, tmp_path)
    assert zones["0.10.in-addr.arpa"] == [("13.0.0.10.in-addr.arpa.", "PTR", "node3.homelab.lan."),
                                          ("42.0.0.10.in-addr.arpa.", "PTR", "cp1.homelab.lan.")]
    (root / "ansible/host_vars/node1.yml").unlink()
    assert run(root, "verify", "--strict").exit_code == 0


def test_an_octodns_shaped_json_zone_file_moves_its_owners_or_says_why_not(repo, run) -> None:
    root = repo(dict(OCTO_JSON), config=config("{web01.lab.example: app01.lab.example}", "{10.0.0.70: 10.0.1.70}"),
                allowlist=ALLOW)
    found = {(r["path"], r["line"], r["reason"]) for r in json.loads(run(root, "verify", "--format", "json").stdout)
             ["findings"] if r["reason"] is not None}
    assert found == {("config/0.0.10.in-addr.arpa.json", 1, "reverse-owner")}
    assert run(root, "sweep", "--commit").exit_code == 1  # the PTR owner cannot follow into 1.0.10
    assert json.loads((root / "config/lab.example.json").read_text()) == {
        "app01": {"type": "A", "value": "10.0.1.70"}, "web02": {"type": "A", "value": "10.0.0.80"}}
    verify = run(root, "verify")
    assert verify.exit_code == 1 and "config/0.0.10.in-addr.arpa.json:1:3: residual (reverse-owner)" in verify.stdout


def test_noop_json_that_holds_no_record_is_no_zone(repo, run) -> None:
    text = '{"name": "lab.example", "hosts": [{"name": "web01", "kind": "A"}]}\n'
    root = repo({"inventory.json": text, "config/lab.example.json": '{"web01": {"kind": "vm"}}\n'},
                config=config("{web01.lab.example: app01.lab.example}"), allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "inventory.json").read_text() == text
    assert (root / "config/lab.example.json").read_text() == '{"web01": {"kind": "vm"}}\n'
