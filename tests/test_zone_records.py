"""The grammar of names written relative to a zone (renamer/zone_records.py, break-it round 16 #5)."""

from __future__ import annotations

from renamer import zone_records

WORDS = {"pug", "rex"}


def _zones(data: bytes, rel: str) -> list[tuple[str, str | None]]:
    return [(data[r.start:r.end].decode(), r.zone) for r in zone_records.relatives(data, rel, WORDS)]


def test_dhcpd_the_innermost_scope_setting_a_domain_wins() -> None:
    data = (b'option domain-name "ana.lan";\n'
            b'subnet 10.0.50.0 netmask 255.255.255.0 {\n  option domain-name "fv.lan";\n  host pug { }\n}\n'
            b'host rex {\n  option domain-name "lab.lan";\n}\n'
            b'group { host pug { ddns-hostname "rex"; } }\n')
    assert _zones(data, "dhcpd.conf") == [("pug", "fv.lan"), ("rex", "lab.lan"), ("pug", "ana.lan"),
                                          ("rex", "ana.lan")]


def test_an_ansible_zone_reads_only_its_own_mapping() -> None:
    data = (b"- nsupdate:\n    zone: ana.lan\n    record: pug\n"
            b"- other:\n    record: rex\n"
            b"- nsupdate:\n    record: rex\n    zone: fv.lan\n")
    assert _zones(data, "play.yml") == [("pug", "ana.lan"), ("rex", "fv.lan")]


def test_terraform_references_resolve_in_the_module() -> None:
    other = b'data "aws_route53_zone" "z" {\n  name = "ana.lan."\n}\nlocals {\n  zone = "fv.lan"\n}\n'
    assert zone_records.resolve("data.aws_route53_zone.z.zone_id", [b"", other]) == "ana.lan"
    assert zone_records.resolve("local.zone", [other]) == "fv.lan"
    assert zone_records.resolve("var.zone", [other]) is None
    assert zone_records.resolve("aws_route53_zone.z.zone_id", [other]) is None


def test_no_shape_no_candidate() -> None:
    assert not zone_records.might_hold(b"services:\n  app:\n    environment:\n      timezone: Europe/Berlin\n")
    assert zone_records.might_hold(b"- nsupdate: {zone: ana.lan, record: pug}\n")


def test_a_dns_tool_s_command_line_gives_its_zone_and_relative_name() -> None:
    from renamer.zone_records import relatives

    data = (b"pdnsutil add-record ana.lan pug A 1.2.3.4\nsamba-tool dns add dc1 ana.lan pug A 1.2.3.4\n"
            b"Set-DnsServerResourceRecord -Name \"pug\" -ZoneName ana.lan.\nknotc zone-set $Z pug A 1.2.3.4\n"
            b"pdnsutil add-record ana.lan rex A 1.2.3.4  # pug\n")
    found = [(data[f.start:f.end], f.zone) for f in relatives(data, "x.sh", {"pug"})]
    assert found == [(b"pug", "ana.lan"), (b"pug", "ana.lan"), (b"pug", "ana.lan"), (b"pug", None)]
