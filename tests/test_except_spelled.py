"""except_spelled: the included and excluded networks each grammar reads (pure logic; the CLI tests
in tests/cli/test_exclusions_t33.py run them end to end)."""

from __future__ import annotations

import ipaddress

from renamer.except_spelled import network, rules


def _read(text: str) -> list[tuple[list[str], list[str]]]:
    data = text.encode()
    out = []
    for included, excluded, _ in rules(data):
        out.append((sorted(str(n) for n in included), [data[s:e].decode() for s, e, _ in excluded]))
    return sorted(out)


def test_networks_as_the_tools_write_them() -> None:
    assert network(b"10.0.48.0/255.255.255.128") == ipaddress.ip_network("10.0.48.0/25")
    assert network(b"[2001:db8:a::]/56") == ipaddress.ip_network("2001:db8:a::/56")
    assert network(b"10.0.48.0/33") is None


def test_sshd_a_negated_entry_anywhere_excludes() -> None:
    assert _read("Match Address !10.0.48.0/25,10.0.48.0/24\n") == [(["10.0.48.0/24"], ["10.0.48.0/25"])]
    assert _read('from="10.0.48.0/24,!10.0.48.0/25" ssh-ed25519 AAAA\n') == [(["10.0.48.0/24"], ["10.0.48.0/25"])]
    assert _read("Match Address 10.0.48.0/24\nMatch User !root\n") == []


def test_except_lists_read_the_client_field_up_to_the_next_except() -> None:
    assert _read("ALL EXCEPT in.fingerd: 10.0.48.0/24 EXCEPT 10.0.48.0/25 EXCEPT 10.0.48.1/32\n") == \
        [(["10.0.48.0/24"], ["10.0.48.0/25"])]
    assert _read("sshd: [2001:db8:a::]/48 EXCEPT [2001:db8:a::]/56 : spawn echo 10.9.0.0/16\n") == \
        [(["2001:db8:a::/48"], ["[2001:db8:a::]/56"])]
    assert _read("sshd: ALL EXCEPT 10.0.48.0/25\n") == []  # nothing of a network included


def test_geo_the_longest_match_with_another_value() -> None:
    text = "geo $lan {\n  default 0;\n  10.0.48.0/24 1;\n  10.0.48.0/25 0;\n  10.0.48.128/25 1;\n}\n"
    assert _read(text) == [(["10.0.48.0/24"], ["10.0.48.0/25"])]
    assert _read("geo $x {\n  ranges;\n  10.0.48.0-10.0.48.255 1;\n}\n") == []


def test_squid_and_haproxy_a_deny_of_one_acl_before_the_allow() -> None:
    squid = ("acl lan src 10.0.48.0/24\nacl p src 10.0.48.0/25\nacl t time 00:00-06:00\n"
             "http_access deny p\nhttp_access deny p t\nhttp_access allow lan\n")
    assert _read(squid) == [(["10.0.48.0/24"], ["10.0.48.0/25"])]
    after = "acl lan src 10.0.48.0/24\nacl p src 10.0.48.0/25\nhttp_access allow lan\nhttp_access deny p\n"
    assert _read(after) == []
    haproxy = ("frontend a\n  acl lan src 10.0.48.0/24\n  acl p src 10.0.48.0/25\n  http-request deny if p\n"
               "backend b\n  acl p src 10.0.48.0/25\n  http-request allow if lan || p\n")
    assert _read(haproxy) == []  # another section's allow, an `||`


def test_haproxy_an_earlier_use_backend_of_another_backend() -> None:
    """The first `use_backend` whose condition holds picks the backend (issue 33, round 7)."""
    inline = ("frontend f\n  use_backend p if { src 10.0.48.0/25 }\n  use_backend lan if { src 10.0.48.0/24 }\n"
              "  default_backend other\n")
    assert _read(inline) == [(["10.0.48.0/24"], ["10.0.48.0/25"])]
    named = ("frontend f\n  acl p src 10.0.48.0/25\n  acl lan src 10.0.48.0/24\n  use_backend p if p\n"
             "  use_backend lan if lan\n")
    assert _read(named) == [(["10.0.48.0/24"], ["10.0.48.0/25"])]
    assert _read(named.replace("use_backend p if p", "use_backend lan if p")) == []  # the same backend
    assert _read(named.replace("if p\n", "unless p\n")) == []  # `unless`: not the network
    assert _read(named.replace("use_backend p if p", "use_backend p if p || lan")) == []
    later = ("frontend f\n  use_backend lan if { src 10.0.48.0/24 }\n  use_backend p if { src 10.0.48.0/25 }\n")
    assert _read(later) == [(["10.0.48.0/25"], ["10.0.48.0/24"])]  # the wider first: it takes the /25's


def test_first_match_tables() -> None:
    assert _read("10.0.48.0/25 REJECT\n10.0.48.0/24 OK\n10.0.48.0/26 DUNNO\n") == [(["10.0.48.0/24"], ["10.0.48.0/25"])]
    hba = "host db1 all 10.0.48.0/25 reject\nhost db2 all 10.0.48.0/24 md5\nhost db1 all 10.0.48.0/24 md5\n"
    assert _read(hba) == [(["10.0.48.0/24"], ["10.0.48.0/25"])]


def test_caddy_apache22_envoy() -> None:
    caddy = "@a {\n  remote_ip 10.0.48.0/24\n  not remote_ip 10.0.48.0/25\n}\n@b {\n  remote_ip 10.9.0.0/16\n}\n"
    assert _read(caddy) == [(["10.0.48.0/24"], ["10.0.48.0/25"])]
    apache = ("<Directory /a>\n Order Deny,Allow\n Allow from 10.0.48.0/24\n Deny from 10.0.48.0/25\n</Directory>\n"
              "<Directory /b>\n Order Allow,Deny\n Allow from 10.0.49.0/24\n Deny from 10.0.49.0/25\n</Directory>\n")
    assert _read(apache) == [(["10.0.49.0/24"], ["10.0.49.0/25"])]
    envoy = ("- and_ids:\n    ids:\n    - direct_remote_ip: {address_prefix: 10.0.48.0, prefix_len: 24}\n"
             "    - not_id: {direct_remote_ip: {address_prefix: 10.0.48.0, prefix_len: 25}}\n"
             "- not_id: {direct_remote_ip: {address_prefix: 10.0.48.0, prefix_len: 26}}\n")
    assert _read(envoy) == [(["10.0.48.0/24"], ["10.0.48.0"])]


def test_varnish_vcl_acls_negated_entries() -> None:
    text = ('acl office +log {\n    "localhost";\n    "10.0.48.0"/24;\n    ! "10.0.48.0" / 25;\n'
            '    !"10.0.48.5";\n}\nacl other {\n    "10.0.60.0"/24;\n}\n')
    assert _read(text) == [(["10.0.48.0/24"], ["10.0.48.0", "10.0.48.5"])]
    assert _read('acl purge {\n    "10.0.48.0"/24;\n}\n') == []  # nothing negated
    assert _read("acl lan src 10.0.48.0/24\nhttp_access allow lan\n") == []  # Squid's, not VCL's
