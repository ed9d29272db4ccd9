"""Exclusions and first-match order in host services, resolvers and IDS (issue 33, the outside pass's
round 7), end to end on real git repos through the CLI. Each shrink case failed on main before: sweep
0, the rule rewritten to admit nothing of its network (a peer that routes nothing, an acl whose `!`
takes all, a view no client reaches), verify OK. named-checkconf and unbound-checkconf read the files
themselves; WireGuard, NFS, pam_access, xinetd, lighttpd, Tomcat, PowerDNS, Suricata, Snort, Postfix,
Exim and HAProxy are not installed: their rules are checked in Python by each tool's documented rule
(the most specific match, the first match, deny before allow)."""

from __future__ import annotations

import ipaddress
import re
import subprocess
from pathlib import Path

from tests.cli.test_exclusions_t33 import _kept, _refuses, _repo, _written
from tests.testing.repos import Run

HOSTS = {
    "wg0.conf": ("[Interface]\nAddress = 10.99.0.1/24\nListenPort = 51820\n\n[Peer]\n# the site\n"
                 "PublicKey = AAAA\nAllowedIPs = NET4, NET6\n\n[Peer]\n# the printers' box\nPublicKey = BBBB\n"
                 "AllowedIPs = EXC4\nAllowedIPs = EXC6\n"),
    "exports": "/srv/share  EXC4(ro,root_squash) NET4(rw,no_root_squash)\n/srv/v6 \\\n    EXC6(ro) \\\n    NET6(rw)\n",
    "security/access.conf": "# printers may not log in\n-:ALL:EXC4\n+:ALL:NET4\n-:ALL:EXC6\n+:ALL:NET6\n-:ALL:ALL\n",
    "xinetd.d/tftp": ("service tftp\n{\n    socket_type = dgram\n    only_from   = NET4 NET6\n    no_access   = EXC4\n"
                      "    no_access  += EXC6\n    server      = /usr/sbin/in.tftpd\n}\n"),
    "lighttpd.conf": ('$HTTP["remoteip"] == "NET4" {\n    $HTTP["remoteip"] != "EXC4" {\n'
                      '        dir-listing.activate = "enable"\n    }\n}\n'
                      '$HTTP["remoteip"] == "EXC6" {\n    url.access-deny = ( "" )\n}\n'
                      'else $HTTP["remoteip"] == "NET6" {\n    dir-listing.activate = "enable"\n}\n'),
    "conf/server.xml": ('<Server>\n  <Context path="/admin">\n    <Valve className="org.apache.catalina.valves.'
                        'RemoteCIDRValve"\n           allow="NET4, NET6"\n           deny="EXC4, EXC6"/>\n'
                        '  </Context>\n</Server>\n'),
}
HOST_LINES = {"wg0.conf": (13, 14), "exports": (1, 3), "security/access.conf": (2, 4), "xinetd.d/tftp": (5, 6),
              "lighttpd.conf": (2, 6), "conf/server.xml": (5, 5)}

RESOLVERS = {
    "unbound.conf": ("server:\n    interface: 0.0.0.0\n    access-control: NET4 allow\n"
                     "    access-control: EXC4 refuse\n    access-control: NET6 allow\n"
                     "    access-control: EXC6 deny\n"),
    "recursor.conf": "local-address=0.0.0.0\nallow-from=NET4,!EXC4,NET6,!EXC6\n",
    "recursor.yml": "incoming:\n  allow_from:\n  - NET4\n  - '!EXC4'\nwebservice:\n  allow_from: ['NET6', '!EXC6']\n",
    "suricata.yaml": ('%YAML 1.1\n---\nvars:\n  address-groups:\n    HOME_NET: "[NET4,!EXC4,NET6,!EXC6]"\n'
                      '    EXTERNAL_NET: "!$HOME_NET"\n'),
    "snort.conf": "ipvar HOME_NET [NET4,!EXC4]\nipvar LAB6 [NET6,!EXC6]\n",
}
RESOLVER_LINES = {"unbound.conf": (4, 6), "recursor.conf": (2, 2), "recursor.yml": (4, 6), "suricata.yaml": (5, 5),
                  "snort.conf": (1, 2)}

LISTS = {
    "named.conf": ('acl printers {\n    EXC4;\n    EXC6;\n};\nacl lan {\n    !printers;\n    NET4;\n    NET6;\n};\n'
                   'options {\n    directory "/var/cache/bind";\n    allow-query {\n        !EXC4;\n'
                   '        !EXC6;\n        NET4;\n        NET6;\n    };\n    allow-recursion { lan; };\n};\n'),
    "views.conf": ('view "printers" {\n    match-clients {\n        EXC4;\n        EXC6;\n    };\n'
                   '    recursion no;\n};\nview "lan" {\n    match-clients { NET4; NET6; };\n    recursion yes;\n};\n'),
    "postfix/main.cf": "myhostname = mx.example.net\nmynetworks = 127.0.0.0/8,\n    !EXC4\n    NET4,\n    [::1]/128\n",
    "exim4.conf": "hostlist relay_from_hosts = 127.0.0.1 : \\\n    !EXC6 : \\\n    NET6\n",
    "haproxy.cfg": ("frontend web\n    bind :80\n    acl printers src EXC4\n    use_backend printers if printers\n"
                    "    use_backend v6printers if { src EXC6 }\n    use_backend lan if { src NET4 NET6 }\n"
                    "    default_backend other\n"),
}
LIST_LINES = {"named.conf": (14, 15), "views.conf": (3, 4), "postfix/main.cf": (3, 0), "exim4.conf": (0, 2),
              "haproxy.cfg": (3, 5)}
# the acl `printers` the `!printers;` element names: its networks stand at the acl's definition
ACL_LINES = {"named.conf": (2, 3)}


def test_host_services_exclusions_a_shrink_makes_cover_the_network_refuse(run: Run, tmp_path: Path) -> None:
    """WireGuard peers (the most specific AllowedIPs), NFS exports (the first entry of the line, options
    differing; `\\` continued), pam_access (`-` before `+`), xinetd (`no_access` beside `only_from`),
    lighttpd (`!=` inside `==`, an `else` chain), Tomcat's RemoteCIDRValve (deny first) under each
    shrink: refused at the exclusion, nothing written."""
    _refuses(run, tmp_path, HOSTS, HOST_LINES)


def test_resolver_and_ids_exclusions_a_shrink_makes_cover_the_network_refuse(run: Run, tmp_path: Path) -> None:
    """Unbound's `access-control` (longest match), PowerDNS's netmask groups (recursor.conf and
    recursor 5's YAML, block and flow lists), Suricata's and Snort's address variables: refused."""
    _refuses(run, tmp_path, RESOLVERS, RESOLVER_LINES)


def test_multi_line_lists_views_and_backends_a_shrink_makes_cover_the_network_refuse(run: Run,
                                                                                     tmp_path: Path) -> None:
    """BIND address match lists over several lines (a `!` element, an acl named with `!`), BIND views
    (the first view's match-clients), Postfix's continued `mynetworks` and Exim's `\\` lines, HAProxy's
    `use_backend` order (an ACL, an inline `{ src }`): refused, at the acl's definition for `!printers`."""
    _refuses(run, tmp_path, LISTS, {**LIST_LINES, **ACL_LINES})


def test_the_files_main_wrote_fail_verify(run: Run, tmp_path: Path) -> None:
    """The files main's sweep wrote (the network and its exclusion both the new /25): verify fails at
    each exclusion."""
    # Unbound ignores a second entry of one netblock ("duplicate acl address ignored"): the first, the
    # allow, stands where the refuse was
    _written(run, tmp_path, {**HOSTS, **RESOLVERS}, {**HOST_LINES, **RESOLVER_LINES, "unbound.conf": (3, 5)})
    _written(run, tmp_path, LISTS, {**LIST_LINES, **ACL_LINES})


def _most_specific(entries: list[tuple[str, str]], address: str) -> str | None:
    at = ipaddress.ip_address(address)
    found = [(ipaddress.ip_network(net), value) for net, value in entries
             if ipaddress.ip_network(net).version == at.version and at in ipaddress.ip_network(net)]
    return max(found, key=lambda f: f[0].prefixlen)[1] if found else None


def _first(entries: list[tuple[str, bool]], address: str) -> bool | None:
    at = ipaddress.ip_address(address)
    for net, admits in entries:
        network = ipaddress.ip_network(net)
        if network.version == at.version and at in network:
            return admits
    return None


def test_a_grow_follows_and_the_tools_read_the_new_rules(run: Run, tmp_path: Path) -> None:
    """Under a grow (and a shrink leaving the exclusion inside) every file is written, exit 0, verify
    OK; named-checkconf and unbound-checkconf accept the written files, and each tool's rule gives an
    address of the new network outside the exclusion to the network's side, one inside to the
    exclusion's."""
    files = {**HOSTS, **RESOLVERS, **LISTS}
    for root, (_, new4, exc4, _, new6, exc6) in _kept(run, tmp_path, files):
        n4, x4, n6, x6 = (ipaddress.ip_network(n) for n in (new4, exc4, new6, exc6))
        out4, out6 = str(n4[-2]), str(n6[-2])
        in4, in6 = str(x4[1]), str(x6[1])
        assert ipaddress.ip_address(out4) not in x4 and ipaddress.ip_address(out6) not in x6
        subprocess.run(["named-checkconf", str(root / "named.conf")], check=True)
        subprocess.run(["named-checkconf", str(root / "views.conf")], check=True)
        unbound = root / "unbound.conf"
        unbound.write_text(unbound.read_text().replace("server:\n", "server:\n    chroot: \"\"\n    "
                                                       "username: \"\"\n    directory: \"" + str(root) + "\"\n"))
        subprocess.run(["unbound-checkconf", str(unbound)], check=True, capture_output=True)
        # unbound: the most specific netblock
        rows = re.findall(r"access-control: (\S+) (\S+)", unbound.read_text())
        assert [_most_specific(rows, a) for a in (out4, in4, out6, in6)] == ["allow", "refuse", "allow", "deny"]
        # WireGuard: the peer of the most specific entry
        peers = [(net, str(k)) for k, block in enumerate((root / "wg0.conf").read_text().split("[Peer]")[1:])
                 for line in block.splitlines() if line.startswith("AllowedIPs")
                 for net in line.split("=", 1)[1].replace(" ", "").split(",")]
        assert [_most_specific(peers, a) for a in (out4, in4, out6, in6)] == ["0", "1", "0", "1"]
        # pam_access and BIND's allow-query: the first match
        pam = [(line.split(":", 2)[2], line[0] == "+") for line in
               (root / "security/access.conf").read_text().splitlines() if line[:1] in "+-" and "/" in line]
        assert [_first(pam, a) for a in (out4, in4, out6, in6)] == [True, False, True, False]
        query = (root / "named.conf").read_text().split("allow-query {")[1].split("}")[0]
        elements = [(e.strip().lstrip("!"), not e.strip().startswith("!")) for e in query.split(";") if e.strip()]
        assert [_first(elements, a) for a in (out4, in4, out6, in6)] == [True, False, True, False]
        assert f"HOME_NET: \"[{new4},!{exc4},{new6},!{exc6}]\"" in (root / "suricata.yaml").read_text()
        assert f"allow-from={new4},!{exc4},{new6},!{exc6}" in (root / "recursor.conf").read_text()
        assert f'allow="{new4}, {new6}"' in (root / "conf/server.xml").read_text()


def test_rules_that_exclude_nothing_of_the_network_are_not_refused(run: Run, tmp_path: Path) -> None:
    """No refusal where no entry takes the network out: one peer's own two entries, exports of the
    same options, a `-` line for one user before `+:ALL`, two unbound entries of one action, a BIND
    `!` element after the network (dead, the first match), an earlier view's `!` element and other network, one
    `use_backend` for both conditions."""
    files = {"wg0.conf": "[Peer]\nPublicKey = AAAA\nAllowedIPs = 10.0.48.0/24, 10.0.48.0/25\n",
             "exports": "/srv 10.0.48.0/25(rw) 10.0.48.0/24(rw)\n",
             "access.conf": "-:root:10.0.48.0/25\n+:ALL:10.0.48.0/24\n",
             "unbound.conf": "server:\n    access-control: 10.0.48.0/24 allow\n    access-control: 10.0.48.0/25 allow\n",
             "named.conf": "acl lan {\n    10.0.48.0/24;\n    !10.0.48.0/25;\n};\n",
             "views.conf": ('view "guests" {\n    match-clients { 192.168.9.0/24; !10.0.48.0/25; };\n};\n'
                            'view "lan" {\n    match-clients { 10.0.48.0/24; };\n};\n'),
             "haproxy.cfg": ("frontend f\n    use_backend lan if { src 10.0.48.0/25 }\n"
                             "    use_backend lan if { src 10.0.48.0/24 }\n")}
    root = _repo(tmp_path, files, "10.0.48.0/24: 10.0.48.0/25")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert "AllowedIPs = 10.0.48.0/25, 10.0.48.0/25" in (root / "wg0.conf").read_text()
    assert run(root, "verify", "--strict").exit_code == 0


def _around(*left_out: str) -> str:
    """AllowedIPs as a calculator computes them: everything less the networks left out."""
    out: list[str] = []
    for family in ("0.0.0.0/0", "::/0"):
        rest = [ipaddress.ip_network(family)]
        for net in (ipaddress.ip_network(n) for n in left_out):
            if net.version != rest[0].version:
                continue
            rest = [part for r in rest for part in ((r,) if not r.overlaps(net) else r.address_exclude(net))]
        out += [str(n) for n in sorted(rest)]
    return ", ".join(out)


def _routes_to_peer(text: str, address: str) -> bool:
    line = next(row for row in text.splitlines() if row.startswith("AllowedIPs"))
    at = ipaddress.ip_address(address)
    return any(at in ipaddress.ip_network(n) for n in line.split("=", 1)[1].replace(" ", "").split(",")
               if ipaddress.ip_network(n).version == at.version)


def test_an_allowed_ips_list_computed_around_the_network_is_a_residual_where_the_new_one_lands_in_it(
        run: Run, tmp_path: Path) -> None:
    """A road warrior's `AllowedIPs` computed to leave the LAN out (everything less 10.0.48.0/24 and
    2001:db8:a::/48), in a file naming nothing of the LAN: under a move elsewhere (the same length or
    not) the new network lies inside one of its entries, so the peer would take the LAN's traffic.
    Each is a `supernet` residual at that entry (the sweep exits 1, verify fails after),
    nothing of the list written; recomputed around the new network, verify passes."""
    laptop = (f"[Interface]\nAddress = 10.99.0.2/32\nPrivateKey = x\n\n[Peer]\nPublicKey = AAAA\n"
              f"AllowedIPs = {_around('10.0.48.0/24', '2001:db8:a::/48')}\nEndpoint = vpn.example.net:51820\n")
    for moves, new4, new6, entry4, entry6 in (
            ("10.0.48.0/24: 10.9.0.0/24, 2001:db8:a::/48: 2001:db8:1::/48", "10.9.0.0/24", "2001:db8:1::/48",
             "10.8.0.0/13", "2001:db8::/45"),
            ("10.0.48.0/24: 172.16.8.0/22, 2001:db8:a::/48: 2001:db8:a::/47", "172.16.8.0/22", "2001:db8:a::/47",
             "128.0.0.0/1", "2001:db8:b::/48")):
        root = _repo(tmp_path, {"wg/laptop.conf": laptop}, moves)
        assert _routes_to_peer(laptop, str(ipaddress.ip_network(new4)[5]))  # the trap: the peer takes it
        dry = run(root, "sweep", "--dry-run", "--strict")
        assert dry.exit_code == 1, dry.stdout + dry.stderr
        for entry in (entry4, entry6):
            assert "wg/laptop.conf:7:" in dry.stdout and f"{entry} (supernet: this AllowedIPs list leaves" \
                in dry.stdout, (entry, dry.stdout)
        assert run(root, "sweep", "--commit").exit_code == 1  # left for a decision
        assert (root / "wg/laptop.conf").read_text() == laptop
        checked = run(root, "verify", "--strict")
        assert checked.exit_code == 1 and "residual (supernet)" in checked.stdout, checked.stdout
        # recomputed by hand around the new networks: nothing left
        fixed = laptop.replace(_around("10.0.48.0/24", "2001:db8:a::/48"), _around(new4, new6))
        assert not _routes_to_peer(fixed, str(ipaddress.ip_network(new4)[5]))
        (root / "wg/laptop.conf").write_text(fixed)
        assert run(root, "verify", "--strict").exit_code == 0


def test_an_allowed_ips_list_not_computed_around_the_network_is_left(run: Run, tmp_path: Path) -> None:
    """A list that names the network (it moves with it), one that never held its sibling (a site's
    own /16 beside it: no calculator's output), and a move the list does not reach: nothing said."""
    files = {"a.conf": "[Peer]\nAllowedIPs = 10.0.48.0/24, 10.8.0.0/13\n",
             "b.conf": "[Peer]\nAllowedIPs = 10.9.0.0/16\n",
             "c.conf": f"[Peer]\nAllowedIPs = {_around('10.0.48.0/24')}\n"}
    root = _repo(tmp_path, {n: t for n, t in files.items() if n != "c.conf"}, "10.0.48.0/24: 10.9.0.0/24")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0 and "supernet" not in done.stdout, done.stdout
    root = _repo(tmp_path, {"c.conf": files["c.conf"]}, "10.0.48.0/24: 10.0.48.0/25")  # a shrink in place
    assert run(root, "sweep", "--dry-run", "--strict").exit_code == 0
