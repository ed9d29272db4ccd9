"""Every IPv6 spelling on both sides of a network move, end to end (issue 33 item 4).

One file per format (YAML, JSON, nftables, netplan, a BIND zone, an ip6.arpa reverse zone), each
holding the spellings: leading zeros, upper case, `::` anywhere, fully exploded, IPv4-mapped and
embedded, zone IDs, bracketed `[addr]:port`, nibble names, prefixes. The new text keeps the old
text's dress (exploded stays exploded, upper stays upper); the rewritten zones pass
named-checkzone and the rewritten prefixes parse in iproute2 in a namespace of the test's own.
"""

from __future__ import annotations

import ipaddress
import json
import subprocess
from pathlib import Path

from tests.testing.repos import Repo, Run

ALLOW = 'version: 1\ncurrent: ["**"]\n'
CONFIG = ('version: 1\nrenames:\n  networks: {"2001:db8:a::/48": "2001:db8:b::/48", 10.0.48.0/24: 10.0.49.0/24}\n'
          "allowlist: allow.yaml\n")

# (old, new) of each spelling: the text swept, and the text it must become.
SPELLINGS = [
    ("2001:db8:a::10", "2001:db8:b::10"),
    ("2001:0db8:000a::0010", "2001:0db8:000b::0010"),  # leading zeros kept
    ("2001:DB8:A::10", "2001:DB8:B::10"),  # upper case kept
    ("2001:0db8:000a:0000:0000:0000:0000:0010", "2001:0db8:000b:0000:0000:0000:0000:0010"),  # exploded
    ("2001:db8:a:0:0:0:0:10", "2001:db8:b:0:0:0:0:10"),  # no `::`
    ("2001:db8:a:0::10", "2001:db8:b:0::10"),  # `::` in the middle
    ("2001:db8:a:10::", "2001:db8:b:10::"),  # `::` at the end
    ("2001:db8:a::10%eth0", "2001:db8:b::10%eth0"),  # a zone ID
    ("[2001:db8:a::10]:8080", "[2001:db8:b::10]:8080"),  # bracketed, with a port
    ("http://[2001:db8:a::10]:8080/x", "http://[2001:db8:b::10]:8080/x"),
    ("2001:db8:a::/48", "2001:db8:b::/48"),  # prefixes, in every dress
    ("2001:0DB8:000A::/48", "2001:0DB8:000B::/48"),
    ("2001:db8:a:5::/64", "2001:db8:b:5::/64"),
    ("::ffff:10.0.48.4", "::ffff:10.0.49.4"),  # IPv4-mapped, any dress
    ("::FFFF:10.0.48.4", "::FFFF:10.0.49.4"),
    ("::ffff:a00:3004", "::ffff:a00:3104"),
    ("0:0:0:0:0:ffff:10.0.48.4", "0:0:0:0:0:ffff:10.0.49.4"),
    ("0000:0000:0000:0000:0000:ffff:0a00:3004", "0000:0000:0000:0000:0000:ffff:0a00:3104"),
    ("64:ff9b::10.0.48.4", "64:ff9b::10.0.49.4"),  # embedded (NAT64)
    ("[::ffff:10.0.48.4]:53", "[::ffff:10.0.49.4]:53"),
    ("2001:db8:a::192.0.2.1", "2001:db8:b::192.0.2.1"),  # a dotted tail in the moved network: kept dotted
    ("2001:0DB8:000A:0:0:0:192.0.2.1", "2001:0DB8:000B:0:0:0:192.0.2.1"),
]
NIBBLE = ipaddress.ip_address("2001:db8:a::10").reverse_pointer
NEW_NIBBLE = ipaddress.ip_address("2001:db8:b::10").reverse_pointer
NIBBLES = [(NIBBLE, NEW_NIBBLE), (NIBBLE.upper(), NEW_NIBBLE.upper()),
           (NIBBLE[:-8].upper() + "ip6.arpa", NEW_NIBBLE[:-8].upper() + "ip6.arpa")]


def _files(pairs: list[tuple[str, str]], side: int) -> dict[str, str]:
    values = [pair[side] for pair in pairs + NIBBLES]
    plain = [pair[side] for pair in pairs]
    soa = "@ IN SOA ns1.lab.example. admin.lab.example. 1 3600 600 86400 300\n@ IN NS ns1.lab.example.\n"
    return {
        "values.yaml": "".join(f"v{i}: \"{v}\"\n" for i, v in enumerate(values)),
        "values.json": json.dumps({f"v{i}": v for i, v in enumerate(values)}, indent=2) + "\n",
        "rules.nft": "".join(f"ip6 saddr {v} accept\n" for v in plain[:7] + plain[10:13]),
        "netplan.yaml": ("network:\n  version: 2\n  ethernets:\n    eth0:\n      addresses:\n"
                         + "".join(f"        - \"{v}/48\"\n" for v in plain[:7])
                         + f"      routes:\n        - to: \"{plain[10]}\"\n          via: \"{plain[0]}\"\n"),
        "db.lab": ("$TTL 3600\n$ORIGIN lab.example.\n" + soa + "ns1 IN A 192.0.2.1\n"
                   + "".join(f"h{i} IN AAAA {v}\n" for i, v in enumerate(plain[:7]))),
        "db.v6": ("$TTL 3600\n$ORIGIN 8.b.d.0.1.0.0.2.ip6.arpa.\n" + soa
                  + "".join(f"{n}. IN PTR h{i}.lab.example.\n" for i, n in enumerate(p[side] for p in NIBBLES))),
    }


def _checkzone(origin: str, path: Path) -> None:
    done = subprocess.run(["named-checkzone", origin, str(path)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_ipv6_spelling_follows_in_every_format(repo: Repo, run: Run) -> None:
    root = repo(_files(SPELLINGS, 0), config=CONFIG, allowlist=ALLOW)
    _checkzone("lab.example", root / "db.lab")
    _checkzone("8.b.d.0.1.0.0.2.ip6.arpa", root / "db.v6")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    want = _files(SPELLINGS, 1)
    for rel in ("db.lab", "db.v6"):  # the SOA serial goes with the edits
        want[rel] = want[rel].replace(" 1 3600 600 ", " 2 3600 600 ")
    for rel, text in want.items():
        assert (root / rel).read_text() == text, rel
    _checkzone("lab.example", root / "db.lab")
    _checkzone("8.b.d.0.1.0.0.2.ip6.arpa", root / "db.v6")
    checked = run(root, "verify")
    assert checked.exit_code == 0, checked.stdout
    assert "would change 0 files" in run(root, "sweep", "--dry-run").stdout


def test_a_nibble_name_left_unswept_fails_verify(repo: Repo, run: Run) -> None:
    """Before the sweep, verify names the nibble name of a moved address (it said OK before)."""
    root = repo({"ptr.txt": f"{NIBBLE}\n"}, config=CONFIG, allowlist=ALLOW)
    checked = run(root, "verify")
    assert checked.exit_code == 1
    assert f"ptr.txt:1:1: residual: {NIBBLE} -> {NEW_NIBBLE}" in checked.stdout, checked.stdout


def _in_own_network(script: Path) -> str:
    """Run `script` in a network namespace of its own (unshare -rn: loopback only), then list
    its IPv6 addresses and routes as iproute2 reads them."""
    done = subprocess.run(["unshare", "-rn", "sh", "-ec", f". {script}; ip -6 -o addr show dev lo; "
                           "ip -6 route show"], capture_output=True, text=True, check=False, timeout=30)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_rewritten_ipv6_spellings_parse_in_ip(repo: Repo, run: Run) -> None:
    """Exploded, upper-case and zero-padded prefixes and addresses, rewritten in their own dress,
    are still what `ip -6` takes."""
    script = ("ip link set lo up\n"
              "ip -6 route add 2001:0DB8:000A:0005::/64 dev lo\n"
              "ip -6 route add 2001:0db8:000a:0006:0000:0000:0000:0000/64 dev lo\n"
              "ip -6 addr add 2001:DB8:A::10/48 dev lo nodad\n"
              "ip -6 addr add 2001:db8:a:0:0:0:0:11/48 dev lo nodad\n")
    root = repo({"net.sh": script}, config=CONFIG, allowlist=ALLOW)
    before = _in_own_network(root / "net.sh")
    assert "2001:db8:a:5::/64 dev lo" in before and "inet6 2001:db8:a::10/48" in before
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert "ip -6 route add 2001:0DB8:000B:0005::/64 dev lo\n" in (root / "net.sh").read_text()
    after = _in_own_network(root / "net.sh")
    for line in ("2001:db8:b:5::/64 dev lo", "2001:db8:b:6::/64 dev lo", "inet6 2001:db8:b::10/48",
                 "inet6 2001:db8:b::11/48"):
        assert line in after, after
    assert "2001:db8:a:" not in after


def test_reverse_names_in_upper_case_follow_both_families(repo: Repo, run: Run) -> None:
    """DNS names are read in any case: `4.48.0.10.IN-ADDR.ARPA`, the zone `48.0.10.IN-ADDR.ARPA` and an
    upper-case nibble name follow in their own case (left, verify OK, before); one a shrink cannot
    place is refused as in lower case."""
    soa = "@ IN SOA NS1.LAB.EXAMPLE. ADMIN.LAB.EXAMPLE. 1 3600 600 86400 300\n@ IN NS NS1.LAB.EXAMPLE.\n"
    zone = f"$TTL 3600\n$ORIGIN 0.10.IN-ADDR.ARPA.\n{soa}4.48.0.10.IN-ADDR.ARPA. IN PTR H.LAB.EXAMPLE.\n"
    files = {"db.10.0": zone, "named.conf.local": 'zone "48.0.10.IN-ADDR.ARPA" { type master; file "x"; };\n',
             "ptr.txt": f"{NIBBLE.upper()}\n"}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert run(root, "verify").exit_code == 1
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert "4.49.0.10.IN-ADDR.ARPA. IN PTR" in (root / "db.10.0").read_text()
    assert (root / "named.conf.local").read_text() == 'zone "49.0.10.IN-ADDR.ARPA" { type master; file "x"; };\n'
    assert (root / "ptr.txt").read_text() == f"{NEW_NIBBLE.upper()}\n"
    _checkzone("0.10.in-addr.arpa", root / "db.10.0")
    assert run(root, "verify").exit_code == 0


def test_an_upper_case_reverse_name_a_shrink_cannot_place_is_refused(repo: Repo, run: Run) -> None:
    shrink = 'version: 1\nrenames:\n  networks: {10.1.0.0/24: 10.2.0.0/25}\nallowlist: allow.yaml\n'
    root = repo({"ptr.txt": "200.0.1.10.IN-ADDR.ARPA\n"}, config=shrink, allowlist=ALLOW)
    refused = run(root, "sweep", "--commit")
    assert refused.exit_code == 3
    assert "ptr.txt:1: outside the new, smaller network" in refused.stderr, refused.stderr
