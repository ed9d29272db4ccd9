"""named_objects.py on text (outside pass round 7, issue 33): a deny through a named address object
before the permit of the object holding the network; the exclusion's place is the definition."""

from __future__ import annotations

import ipaddress

from renamer import named_objects


def _rules(text: str) -> list[tuple[list[str], list[str]]]:
    data = text.encode()
    wanted = {ipaddress.ip_network("10.0.48.0/24"), ipaddress.ip_network("2001:db8:a::/48")}
    return [([str(n) for n in inc], [data[s:e].decode() for s, e, _ in exc])
            for inc, exc, _ in named_objects.rules(data, wanted)]


ASA = ("object network PRINTERS\n subnet 10.0.48.0 255.255.255.128\nobject-group network INSIDE\n"
       " network-object 10.0.48.0 255.255.255.0\n network-object host 10.0.50.1\n"
       "object-group network ALL_IN\n group-object INSIDE\n"
       "access-list OUT extended deny ip object PRINTERS any\n"
       "access-list OUT extended permit ip object-group ALL_IN any\n")


def test_asa_objects_and_groups() -> None:
    assert _rules(ASA) == [(["10.0.48.0/24"], ["10.0.48.0 255.255.255.128"])]
    assert _rules(ASA.replace("deny ip object PRINTERS any", "deny tcp object PRINTERS any eq 22")) == []
    assert _rules(ASA.replace("access-list OUT extended permit", "access-list IN extended permit")) == []
    inline = ASA.replace("permit ip object-group ALL_IN any", "permit ip 10.0.48.0 255.255.255.0 any")
    assert _rules(inline) == [(["10.0.48.0/24"], ["10.0.48.0 255.255.255.128"])]
    v6 = ("object network P6\n subnet 2001:db8:a::/56\nobject network L6\n subnet 2001:db8:a::/48\n"
          "access-list V6 extended deny ip object P6 any6\naccess-list V6 extended permit ip object L6 any6\n")
    assert _rules(v6) == [(["2001:db8:a::/48"], ["2001:db8:a::/56"])]


FORTI = ('config firewall address\n    edit "p"\n        set subnet 10.0.48.0/25\n    next\n'
         '    edit "l"\n        set subnet 10.0.48.0 255.255.255.0\n    next\nend\n'
         'config firewall addrgrp\n    edit "g"\n        set member "l" "x"\n    next\nend\n'
         'config firewall policy\n    edit 9\n        set srcaddr "p"\n        set dstaddr "all"\n    next\n'
         '    edit 2\n        set srcaddr "g"\n        set dstaddr "all"\n        set action accept\n'
         '        set service "HTTPS"\n    next\nend\n')


def test_fortigate_policies_in_their_order_default_deny() -> None:
    assert _rules(FORTI) == [(["10.0.48.0/24"], ["10.0.48.0/25"])]  # edit 9 first, no action: deny
    assert _rules(FORTI.replace('set dstaddr "all"\n    next\n', 'set dstaddr "all"\n        set status '
                                'disable\n    next\n', 1)) == []
    assert _rules(FORTI.replace('edit 9\n', 'edit 9\n        set service "SSH"\n')) == []


JUNOS = ("set security address-book global address p 10.0.48.0/25\n"
         "set security zones security-zone trust address-book address l 10.0.48.0/24\n"
         "set security policies from-zone trust to-zone untrust policy a match source-address p\n"
         "set security policies from-zone trust to-zone untrust policy a then deny\n"
         "set security policies from-zone trust to-zone untrust policy b match source-address l\n"
         "set security policies from-zone trust to-zone untrust policy b match application junos-ssh\n"
         "set security policies from-zone trust to-zone untrust policy b then permit\n")


def test_junos_address_book_policies() -> None:
    assert _rules(JUNOS) == [(["10.0.48.0/24"], ["10.0.48.0/25"])]
    other_pair = JUNOS.replace("policy b match source-address l", "policy b match source-address l").replace(
        "from-zone trust to-zone untrust policy a", "from-zone dmz to-zone untrust policy a")
    assert _rules(other_pair) == []
    ssh_only = JUNOS.replace("policy a then deny", "policy a match application junos-http\n"
                             "set security policies from-zone trust to-zone untrust policy a then deny")
    assert _rules(ssh_only) == []


PF = ("<pfsense>\n  <aliases>\n    <alias>\n      <name>PRINTERS</name>\n      <type>network</type>\n"
      "      <address>10.0.48.0/25</address>\n    </alias>\n    <alias>\n      <name>LAN_NET</name>\n"
      "      <type>network</type>\n      <address>10.0.48.0/24 10.0.50.0/24</address>\n    </alias>\n"
      "  </aliases>\n  <filter>\n    <rule>\n      <type>block</type>\n      <interface>lan</interface>\n"
      "      <source><address>PRINTERS</address></source>\n      <destination><any/></destination>\n"
      "    </rule>\n    <rule>\n      <type>pass</type>\n      <interface>lan</interface>\n"
      "      <source><address>LAN_NET</address></source>\n      <destination><any/></destination>\n"
      "    </rule>\n  </filter>\n</pfsense>\n")


def test_pfsense_aliases_in_filter_rules() -> None:
    assert _rules(PF) == [(["10.0.48.0/24"], ["10.0.48.0/25"])]
    assert _rules(PF.replace("<type>block</type>", "<type>block</type>\n      <disabled/>")) == []
    assert _rules(PF.replace("<interface>lan</interface>", "<interface>opt1</interface>", 1)) == []
    ssh = PF.replace("<destination><any/></destination>\n    </rule>\n    <rule>",
                     "<destination><any/><port>22</port></destination>\n    </rule>\n    <rule>", 1)
    assert _rules(ssh) == []  # a block of ssh alone
