"""Exclusions in other tools' grammars and through variables (t33-33 findings 02, 17, 20, 21), end to
end on real git repos through the CLI. Each shrink case failed on main before: sweep 0, the rule
rewritten to admit nothing of its network, verify OK. sshd (`sshd -T`) and nftables (`nft -c`, `nft
list` in `unshare -rn`) read the files themselves; Samba, TCP wrappers, nginx, Squid, HAProxy,
Postfix, PostgreSQL, Caddy, Apache and Envoy are not installed: their rules are checked in Python
(ipaddress, json, yaml) by each tool's documented rule (first match, longest match, Deny wins)."""

from __future__ import annotations

import ipaddress
import json
import subprocess
import tempfile
from pathlib import Path

import pytest
import yaml

from tests.testing.repos import Run, make_repo, snapshot
from tests.testing.sshd import config_test

ALLOW = 'version: 1\ncurrent: ["**"]\n'

# (old, new, excluded) for IPv4 and IPv6: a shrink in place, a shrink of /23 and of /64, a shrink with a move
SHRINKS = (
    ("10.0.48.0/24", "10.0.48.0/25", "10.0.48.0/25", "2001:db8:a::/48", "2001:db8:a::/56", "2001:db8:a::/56"),
    ("10.0.48.0/23", "10.0.48.0/24", "10.0.48.0/24", "2001:db8:a:10::/64", "2001:db8:a:10::/68",
     "2001:db8:a:10::/66"),
    ("10.0.48.0/24", "10.0.60.0/25", "10.0.48.0/25", "2001:db8:a::/48", "2001:db8:b::/56", "2001:db8:a::/56"),
)
# grows (/24 -> /22, /29 -> /28, /64 -> /60, /48 -> /47) and a shrink that leaves the exclusion inside
KEPT = (
    ("10.0.48.0/24", "10.0.48.0/22", "10.0.48.0/25", "2001:db8:a:10::/64", "2001:db8:a:10::/60",
     "2001:db8:a:10::/65"),
    ("10.0.48.0/29", "10.0.48.0/28", "10.0.48.0/30", "2001:db8:a::/48", "2001:db8:a::/47", "2001:db8:a::/56"),
    ("10.0.48.0/23", "10.0.48.0/24", "10.0.48.0/25", "2001:db8:a::/48", "2001:db8:a::/56", "2001:db8:a::/60"),
)


def _repo(tmp: Path, files: dict[str, str], networks: str) -> Path:
    config = f"version: 1\nrenames:\n  networks: {{{networks}}}\nallowlist: allow.yaml\n"
    return make_repo(Path(tempfile.mkdtemp(dir=tmp)) / "repo", files, config=config, allowlist=ALLOW)


def _fill(templates: dict[str, str], net4: str, exc4: str, net6: str, exc6: str) -> dict[str, str]:
    """Each template with NET4/EXC4/NET6/EXC6, MASK4/XMASK4 (`A/M.M.M.M`), BR6/XBR6 (`[A]/N`)."""
    n4, x4, n6, x6 = (ipaddress.ip_network(n) for n in (net4, exc4, net6, exc6))
    words = {"MASK4": f"{n4.network_address}/{n4.netmask}", "XMASK4": f"{x4.network_address}/{x4.netmask}",
             "BR6": f"[{n6.network_address}]/{n6.prefixlen}", "XBR6": f"[{x6.network_address}]/{x6.prefixlen}",
             "NET4": net4, "EXC4": exc4, "NET6": net6, "EXC6": exc6,
             "ADDR4": str(n4.network_address), "LEN4": str(n4.prefixlen),
             "XADDR4": str(x4.network_address), "XLEN4": str(x4.prefixlen),
             "ADDR6": str(n6.network_address), "LEN6": str(n6.prefixlen),
             "XADDR6": str(x6.network_address), "XLEN6": str(x6.prefixlen)}
    out = {}
    for name, text in templates.items():
        for word, value in sorted(words.items(), key=lambda w: -len(w[0])):
            text = text.replace(word, value)
        out[name] = text
    return out


def _refuses(run: Run, tmp: Path, templates: dict[str, str], where: dict[str, tuple[int, int]]) -> None:
    """Every shrink refused at each file:line (IPv4, IPv6), nothing written."""
    for old4, new4, exc4, old6, new6, exc6 in SHRINKS:
        root = _repo(tmp, _fill(templates, old4, exc4, old6, exc6), f"{old4}: {new4}, {old6}: {new6}")
        before = snapshot(root)
        dry = run(root, "sweep", "--dry-run", "--strict")
        assert dry.exit_code == 3, dry.stdout + dry.stderr
        done = run(root, "sweep", "--commit")
        assert done.exit_code == 3, (old4, new4, done.stdout + done.stderr)
        assert snapshot(root) == before
        for name, (line4, line6) in where.items():
            if line4:
                assert f"{name}:{line4}: tool-refuses: the exclusion " in done.stderr, (name, done.stderr)
                assert f" of {old4} (" in done.stderr
            if line6:
                assert f"{name}:{line6}: tool-refuses: the exclusion " in done.stderr, (name, done.stderr)
                assert f" of {old6} (" in done.stderr


def _kept(run: Run, tmp: Path, templates: dict[str, str]) -> list[tuple[Path, tuple[str, ...]]]:
    """Every grow, and a shrink that leaves the exclusion inside: written, exit 0, verify OK."""
    out = []
    for case in KEPT:
        old4, new4, exc4, old6, new6, exc6 = case
        root = _repo(tmp, _fill(templates, old4, exc4, old6, exc6), f"{old4}: {new4}, {old6}: {new6}")
        done = run(root, "sweep", "--commit")
        assert done.exit_code == 0, (case, done.stdout + done.stderr)
        assert run(root, "verify", "--strict").exit_code == 0, case
        out.append((root, case))
    return out


def _written(run: Run, tmp: Path, templates: dict[str, str], where: dict[str, tuple[int, int]]) -> None:
    """Files main's sweep wrote (the network and its exclusion both the new one): verify fails at each."""
    files = _fill(templates, "10.0.48.0/25", "10.0.48.0/25", "2001:db8:a::/56", "2001:db8:a::/56")
    root = _repo(tmp, files, "10.0.48.0/24: 10.0.48.0/25, 2001:db8:a::/48: 2001:db8:a::/56")
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1, checked.stdout
    for name, (line4, line6) in where.items():
        for line in (line4, line6):
            if line:
                assert f"{name}:{line}:" in checked.stdout and "residual (tool-refuses)" in checked.stdout, \
                    (name, line, checked.stdout)


# -- 02: sshd, hosts_access, Samba, nginx geo, Squid, HAProxy ----------------------------------------

GRAMMARS = {
    "sshd_config": ("PasswordAuthentication no\nMatch Address NET4,!EXC4\n    PasswordAuthentication yes\n"
                    "Match LocalAddress NET6,!EXC6\n    PasswordAuthentication yes\n"),
    "authorized_keys": 'from="NET4,!EXC4" ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKL u@h\n',
    "smb.conf": "[global]\n   hosts allow = NET4 EXCEPT EXC4\n   hosts deny = NET6, 10.9.0.0/16 EXCEPT EXC6\n",
    "hosts.allow": "sshd: MASK4 EXCEPT XMASK4\nALL EXCEPT in.fingerd: BR6 EXCEPT XBR6 : spawn /bin/true\n",
    "geo.conf": "geo $remote_addr $lan {\n    default 0;\n    NET4 1;\n    EXC4 0;\n    NET6 1;\n    EXC6 0;\n}\n",
    "squid.conf": ("acl lan src NET4\nacl lan src NET6\nacl printers src EXC4 EXC6\n"
                   "http_access deny printers\nhttp_access allow lan\nhttp_access deny all\n"),
    "haproxy.cfg": ("frontend web\n    bind :80\n    acl lan src NET4 NET6\n    acl printers src EXC4\n"
                    "    http-request deny if printers\n    tcp-request connection reject if { src EXC6 }\n"
                    "    http-request allow if lan\n    tcp-request connection accept if lan\n"),
}
GRAMMAR_LINES = {"sshd_config": (2, 4), "authorized_keys": (1, 0), "smb.conf": (2, 3), "hosts.allow": (1, 2),
                 "geo.conf": (4, 6), "squid.conf": (3, 3), "haproxy.cfg": (4, 6)}


def test_exclusions_in_other_tools_grammars_a_shrink_makes_cover_the_network_refuse(run: Run,
                                                                                    tmp_path: Path) -> None:
    """Finding 02: sshd `Match Address A,!E` (`LocalAddress`, authorized_keys `from=`), Samba and
    TCP wrappers' `EXCEPT` (dotted masks, bracketed IPv6), nginx `geo`, Squid and HAProxy named
    ACLs (and an inline `{ src E }`) under each shrink: refused at the exclusion, nothing written."""
    _refuses(run, tmp_path, GRAMMARS, GRAMMAR_LINES)


def _sshd_password(config: Path, key: Path, address: str) -> str:
    settings = config_test(config, key, f"addr={address},user=u,host=h,laddr={address},lport=22")
    return next(line.split()[1] for line in settings.splitlines() if line.startswith("passwordauthentication"))


def _first(rows: list[tuple[str, ...]], address: str) -> str | None:
    """The verdict of the first row whose network holds `address` (cidr_table(5): the first match wins)."""
    at = ipaddress.ip_address(address)
    for net, verdict in rows:
        network = ipaddress.ip_network(net.replace("[", "").replace("]", ""))
        if network.version == at.version and at in network:
            return verdict
    return None


def test_other_tools_exclusions_follow_a_grow_and_sshd_reads_them(run: Run, tmp_path: Path) -> None:
    """Under a grow (and a shrink leaving the exclusion inside) each rule is written beside the new
    network: sshd -T gives password authentication to an address of the new network outside the
    exclusion and not to one inside it; nginx geo's longest match and the first matches of Squid
    and TCP wrappers' lists still admit the new network less the exclusion."""
    key = tmp_path / "hostkey"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    for root, (_, new4, exc4, _, new6, exc6) in _kept(run, tmp_path, GRAMMARS):
        text = (root / "sshd_config").read_text()
        assert f"Match Address {new4},!{exc4}" in text and f"Match LocalAddress {new6},!{exc6}" in text, text
        n4, x4, n6, x6 = (ipaddress.ip_network(n) for n in (new4, exc4, new6, exc6))
        outside4, outside6 = str(n4.broadcast_address), str(n6.broadcast_address)
        assert ipaddress.ip_address(outside4) not in x4 and ipaddress.ip_address(outside6) not in x6
        assert _sshd_password(root / "sshd_config", key, outside4) == "yes"
        assert _sshd_password(root / "sshd_config", key, outside6) == "yes"
        assert _sshd_password(root / "sshd_config", key, str(x4.network_address)) == "no"
        assert _sshd_password(root / "sshd_config", key, str(x6.network_address)) == "no"
        # nginx geo: the longest match
        entries = [line.strip().rstrip(";").split() for line in (root / "geo.conf").read_text().splitlines()[2:6]]
        best = max((ipaddress.ip_network(net) for net, _ in entries
                    if ipaddress.ip_network(net).version == 4 and ipaddress.ip_address(outside4)
                    in ipaddress.ip_network(net)), key=lambda n: n.prefixlen)
        assert dict(entries)[str(best)] == "1"
        assert f"hosts allow = {new4} EXCEPT {exc4}" in (root / "smb.conf").read_text()
        assert f"acl lan src {new4}" in (root / "squid.conf").read_text()


def test_other_tools_exclusions_written_by_main_fail_verify(run: Run, tmp_path: Path) -> None:
    """The files main's sweep wrote (`Match Address A/25,!A/25`, `A/25 EXCEPT A/25`, ...): verify fails."""
    _written(run, tmp_path, GRAMMARS, GRAMMAR_LINES)


def test_rules_that_exclude_nothing_of_the_network_are_not_refused(run: Run, tmp_path: Path) -> None:
    """No refusal where the rule does not take the network out: a geo entry of the same value, a
    Squid deny of two ACLs ANDed, an allow before the deny (first match), Postfix `!` after the
    network, a `deny` with no allow after it in HAProxy."""
    files = {"geo.conf": "geo $lan {\n    10.0.48.0/24 1;\n    10.0.48.0/25 1;\n}\n",
             "squid.conf": ("acl lan src 10.0.48.0/24\nacl printers src 10.0.48.0/25\nacl night time 00:00-06:00\n"
                            "http_access deny printers night\nhttp_access allow lan\n"),
             "client.cidr": "10.0.48.0/24 OK\n10.0.48.0/25 REJECT\n",
             "main.cf": "mynetworks = [2001:db8:a::]/48, ![2001:db8:a::]/56\n",
             "haproxy.cfg": "backend b\n    acl lan src 10.0.48.0/24\n    http-request deny if lan\n"}
    root = _repo(tmp_path, files, "10.0.48.0/24: 10.0.48.0/25, 2001:db8:a::/48: 2001:db8:a::/56")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert "10.0.48.0/25 1;\n    10.0.48.0/25 1;" in (root / "geo.conf").read_text()


# -- 17: through variables -----------------------------------------------------------------------

VARIABLES = {
    "fw.nft": ("define LAN = NET4\ndefine PRINTERS = EXC4\ndefine LAN6 = NET6\ndefine IOT6 = EXC6\n"
               "table inet f {\n  chain input {\n    type filter hook input priority 0; policy drop;\n"
               "    ip saddr $LAN ip saddr != $PRINTERS accept\n    ip6 saddr $LAN6 ip6 saddr != $IOT6 accept\n"
               "  }\n}\n"),
    "pf.conf": 'lan = "NET4"\nprinters = "EXC4"\nlan6 = "NET6"\niot6 = "EXC6"\n'
               "pass in from { $lan !$printers }\ntable <trusted> { $lan6 !$iot6 }\n",
    "fw.sh": ("#!/bin/sh\nexport LAN=NET4\nPRN='EXC4'\nLAN6=\"NET6\"\n"
              'iptables -A INPUT -s "$PRN" -j DROP\niptables -A INPUT -s ${LAN} -j ACCEPT\n'
              "ip6tables -A INPUT -s EXC6 -j REJECT\nip6tables -A INPUT -s $LAN6 -j ACCEPT\n"),
}
VARIABLE_LINES = {"fw.nft": (2, 4), "pf.conf": (2, 4), "fw.sh": (3, 7)}


def _nft(path: Path, *commands: str) -> str:
    script = f"nft -c -f {path}" if not commands else " && ".join((f"nft -f {path}", *commands))
    done = subprocess.run(["unshare", "-rn", "sh", "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_exclusions_through_variables_a_shrink_makes_cover_the_network_refuse(run: Run, tmp_path: Path) -> None:
    """Finding 17: nftables `define`s, pf macros and shell variables before iptables (`$X`, `${X}`,
    `"$X"`, quoted values, `export`) under each shrink: refused at the excluded network's definition
    (or the literal rule), nothing written; nft -c reads the file before."""
    for old4, _, exc4, old6, _, exc6 in SHRINKS:
        before = tmp_path / "before.nft"
        before.write_text(_fill(VARIABLES, old4, exc4, old6, exc6)["fw.nft"])
        _nft(before)
    _refuses(run, tmp_path, VARIABLES, VARIABLE_LINES)


def test_exclusions_through_variables_follow_a_grow_and_nft_reads_them(run: Run, tmp_path: Path) -> None:
    """Under a grow the `define` of the network is written and the exclusion's kept: nft lists the
    rule as the grown network less the exclusion."""
    for root, (_, new4, exc4, _, new6, exc6) in _kept(run, tmp_path, VARIABLES):
        listed = _nft(root / "fw.nft", "nft list chain inet f input")
        assert f"ip saddr {new4} ip saddr != {exc4} accept" in listed, listed
        assert f"ip6 saddr {new6} ip6 saddr != {exc6} accept" in listed, listed
        assert f'lan = "{new4}"' in (root / "pf.conf").read_text()


def test_a_name_defined_twice_is_not_read_through(run: Run, tmp_path: Path) -> None:
    """A shell variable assigned twice (which value a line sees depends on the order): not expanded,
    so no refusal is made up from it; the literal twin beside it is refused."""
    files = {"a.sh": "PRN=10.0.48.0/25\nPRN=10.9.0.0/25\niptables -A INPUT -s $PRN -j DROP\n"
                     "iptables -A INPUT -s 10.0.48.0/24 -j ACCEPT\n"}
    root = _repo(tmp_path, files, "10.0.48.0/24: 10.0.48.0/22")
    assert run(root, "sweep", "--commit").exit_code == 0


# -- 20: Postfix bracketed IPv6, cidr tables, pg_hba --------------------------------------------------

POSTFIX = {
    "main.cf": ("mynetworks = 127.0.0.0/8, [::1]/128, !XBR6, BR6\n"
                "smtpd_client_restrictions = check_client_access cidr:/etc/postfix/client.cidr\n"),
    "client.cidr": "# first match\nEXC4 REJECT printers may not send\nNET4 OK\nXBR6 550 5.7.1 no\nBR6 PERMIT\n",
    "pg_hba.conf": ("# TYPE DATABASE USER ADDRESS METHOD\nhost all all EXC4 reject\nhostssl app app NET4 scram-sha-256\n"
                    "host all all EXC6 reject\nhost all all NET6 md5\n"),
}
POSTFIX_LINES = {"main.cf": (0, 1), "client.cidr": (2, 4), "pg_hba.conf": (2, 4)}


def test_postfix_ipv6_and_first_match_tables_a_shrink_makes_cover_the_network_refuse(run: Run,
                                                                                      tmp_path: Path) -> None:
    """Finding 20: mynetworks' bracketed IPv6 `![A]/56, [A]/48`, a cidr: table's `E REJECT` (a 5xx
    code too) before `A OK`, pg_hba.conf's `reject` line before the network's: refused."""
    _refuses(run, tmp_path, POSTFIX, POSTFIX_LINES)


def test_postfix_tables_follow_a_grow_and_their_first_match_admits_the_new_network(run: Run,
                                                                                    tmp_path: Path) -> None:
    """Under a grow the tables' first match for the new network's last address is the allow."""
    for root, (_, new4, _, _, new6, _) in _kept(run, tmp_path, POSTFIX):
        rows = [tuple(line.split()[:2]) for line in (root / "client.cidr").read_text().splitlines()[1:]]
        assert _first(rows, str(ipaddress.ip_network(new4).broadcast_address)) == "OK"  # type: ignore[arg-type]
        assert _first(rows, str(ipaddress.ip_network(new6).broadcast_address)) == "PERMIT"  # type: ignore[arg-type]


def test_postfix_tables_written_by_main_fail_verify(run: Run, tmp_path: Path) -> None:
    _written(run, tmp_path, POSTFIX, POSTFIX_LINES)


# -- 21: Caddy, Apache 2.2, Envoy RBAC --------------------------------------------------------------

PROXIES = {
    "Caddyfile": ("example.com {\n\t@lan {\n\t\tremote_ip NET4 NET6\n\t\tnot remote_ip EXC4\n"
                  "\t\tnot {\n\t\t\tclient_ip EXC6\n\t\t}\n\t}\n\trespond @lan \"hi\"\n}\n"),
    "old.conf": ("<Directory /srv>\n  Order Allow,Deny\n  Allow from MASK4 NET6\n  Deny from XMASK4\n"
                 "  Deny from EXC6\n</Directory>\n"),
    "envoy.yaml": ("rbac:\n  rules:\n    policies:\n      lan:\n        permissions: [{any: true}]\n"
                   "        principals:\n          - and_ids:\n              ids:\n"
                   "                - direct_remote_ip: {address_prefix: ADDR4, prefix_len: LEN4}\n"
                   "                - not_id: {direct_remote_ip: {address_prefix: XADDR4, prefix_len: XLEN4}}\n"
                   "          - and_ids:\n              ids:\n"
                   "                - remote_ip: {address_prefix: \"ADDR6\", prefix_len: LEN6}\n"
                   "                - not_id: {remote_ip: {address_prefix: \"XADDR6\", prefix_len: XLEN6}}\n"),
    "envoy.json": json.dumps({"and_ids": {"ids": [
        {"source_ip": {"address_prefix": "ADDR4", "prefix_len": 99}},
        {"not_id": {"source_ip": {"address_prefix": "XADDR4", "prefix_len": 98}}}]}})
    .replace("99", "LEN4").replace("98", "XLEN4"),
}
PROXY_LINES = {"Caddyfile": (4, 6), "old.conf": (4, 5), "envoy.yaml": (10, 14), "envoy.json": (1, 0)}
# block style: a length on a line of its own, which the sweep leaves a `mask` residual under a grow
ENVOY_BLOCK = ("principals:\n- and_ids:\n    ids:\n    - source_ip:\n        address_prefix: ADDR6\n"
               "        prefix_len: LEN6\n    - not_id:\n        source_ip:\n          address_prefix: XADDR6\n"
               "          prefix_len: XLEN6\n")


def test_caddy_apache22_and_envoy_exclusions_a_shrink_makes_cover_the_network_refuse(run: Run,
                                                                                      tmp_path: Path) -> None:
    """Finding 21: Caddy's `not remote_ip` (and a `not { client_ip }` block) in the matcher, Apache
    2.2's `Deny from` under `Order Allow,Deny` (dotted masks), Envoy RBAC `not_id` in `and_ids`
    (flow and block YAML, JSON): refused at the exclusion."""
    block_json = json.dumps(json.loads(PROXIES["envoy.json"].replace("XLEN4", "1").replace("LEN4", "0")),
                            indent=1).replace(": 0", ": LEN4").replace(": 1", ": XLEN4")
    _refuses(run, tmp_path, {**PROXIES, "block.yaml": ENVOY_BLOCK, "block.json": block_json},
             {**PROXY_LINES, "block.yaml": (0, 9), "block.json": (13, 0)})


def _envoy_admits(ids: list[dict[str, dict[str, object]]], key: str) -> int:
    inc = ids[0][key]
    exc = ids[1]["not_id"][key]
    assert isinstance(inc, dict) and isinstance(exc, dict)
    net = ipaddress.ip_network(f"{inc['address_prefix']}/{inc['prefix_len']}")
    less = ipaddress.ip_network(f"{exc['address_prefix']}/{exc['prefix_len']}")
    return net.num_addresses - (less.num_addresses if less.subnet_of(net) else 0)  # type: ignore[arg-type]


def test_caddy_apache22_and_envoy_exclusions_follow_a_grow(run: Run, tmp_path: Path) -> None:
    """Under a grow the Envoy principals still admit addresses (the length pair read by Python), the
    Caddy matcher keeps its `not` of the exclusion beside the new network."""
    for root, (_, new4, exc4, _, _, _) in _kept(run, tmp_path, PROXIES):
        policy = yaml.safe_load((root / "envoy.yaml").read_text())["rbac"]["rules"]["policies"]["lan"]
        assert _envoy_admits(policy["principals"][0]["and_ids"]["ids"], "direct_remote_ip") > 0
        assert _envoy_admits(policy["principals"][1]["and_ids"]["ids"], "remote_ip") > 0
        assert _envoy_admits(json.loads((root / "envoy.json").read_text())["and_ids"]["ids"], "source_ip") > 0
        caddy = (root / "Caddyfile").read_text()
        assert f"remote_ip {new4} " in caddy and f"not remote_ip {exc4}" in caddy, caddy


def test_caddy_apache22_and_envoy_written_by_main_fail_verify(run: Run, tmp_path: Path) -> None:
    _written(run, tmp_path, PROXIES, PROXY_LINES)


@pytest.mark.parametrize("order", ["Deny,Allow", "Allow,Deny"])
def test_apache22_order_decides(run: Run, tmp_path: Path, order: str) -> None:
    """Under `Order Deny,Allow` an Allow wins: the Deny of part of the network takes nothing out of it."""
    files = {".htaccess": f"Order {order}\nAllow from 10.0.48.0/24\nDeny from 10.0.48.0/25\n"}
    root = _repo(tmp_path, files, "10.0.48.0/24: 10.0.48.0/25")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == (3 if order == "Allow,Deny" else 0), done.stdout + done.stderr


def test_exclusions_through_variables_written_by_main_fail_verify(run: Run, tmp_path: Path) -> None:
    """`define LAN = A/25` beside `define PRINTERS = A/25` (main's sweep wrote the first): verify fails
    at the exclusion's definition."""
    _written(run, tmp_path, VARIABLES, VARIABLE_LINES)
