"""Exclusions a shrink makes cover their whole network (t32-33 findings 01, 02, 21), end to end on
real git repos through the CLI. Each failed on main before: sweep 0, the rule rewritten to admit
nothing of the network, verify OK. Kubernetes, Calico, Istio and JunOS are not installed: their
rules are checked in Python (yaml, ipaddress); nftables' own `nft -c` reads the files it is given."""

from __future__ import annotations

import ipaddress
import json
import re
import subprocess
import tempfile
from pathlib import Path

import yaml

from tests.testing.repos import Run, make_repo, snapshot

ALLOW = 'version: 1\ncurrent: ["**"]\n'


def _repo(tmp: Path, files: dict[str, str], networks: str) -> Path:
    config = f"version: 1\nrenames:\n  networks: {{{networks}}}\nallowlist: allow.yaml\n"
    return make_repo(Path(tempfile.mkdtemp(dir=tmp)) / "repo", files, config=config, allowlist=ALLOW)


def _admitted(included: str, excluded: str) -> int:
    net, less = ipaddress.ip_network(included), ipaddress.ip_network(excluded)
    return net.num_addresses - (less.num_addresses if less.subnet_of(net) else 0)  # type: ignore[arg-type]


# -- 01: an indentless `except:` list (kubernetes.io's own style) -----------------------------------

NETPOL = ("apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: lan\nspec:\n"
          "  podSelector: {}\n  ingress:\n  - from:\n    - ipBlock:\n        cidr: CIDR\n        except:\n"
          "        - EXCEPT\n        - 10.9.0.0/29\n")
# the except key first, its list indentless, the cidr after it
FIRST = "- ipBlock:\n    except:\n    - EXCEPT\n    cidr: CIDR\n"


def test_an_indentless_except_list_a_shrink_makes_cover_its_cidr_refuses(run: Run, tmp_path: Path) -> None:
    """/24 -> /25 in place with except /25 (the finding), /23 -> /24 with /24, a shrink with a move
    (except /25 lands on 10.0.60.0/25), IPv6 /48 -> /56 with /56: refused at the except's line,
    nothing written."""
    for old, new, excepted in (("10.0.48.0/24", "10.0.48.0/25", "10.0.48.0/25"),
                               ("10.0.48.0/23", "10.0.48.0/24", "10.0.48.0/24"),
                               ("10.0.48.0/24", "10.0.60.0/25", "10.0.48.0/25"),
                               ("2001:db8:a::/48", "2001:db8:a::/56", "2001:db8:a::/56")):
        files = {name: text.replace("CIDR", old).replace("EXCEPT", excepted)
                 for name, text in (("np.yaml", NETPOL), ("first.yaml", FIRST))}
        root = _repo(tmp_path, files, f"{old}: {new}")
        before = snapshot(root)
        done = run(root, "sweep", "--commit")
        assert done.exit_code == 3, (old, new, done.stdout + done.stderr)
        assert snapshot(root) == before
        assert f"np.yaml:12: tool-refuses: the except entry {excepted} of the cidr {old}" in done.stderr, done.stderr
        assert f"first.yaml:3: tool-refuses: the except entry {excepted}" in done.stderr, done.stderr


def test_an_indentless_except_left_inside_follows_and_a_written_one_fails_verify(run: Run, tmp_path: Path) -> None:
    """Except /26 under /24 -> /25 in place (strictly inside) and a grow /24 -> /22: written, exit 0,
    an ipBlock Kubernetes accepts. A file written by main's sweep (cidr 10.0.48.0/25, except
    10.0.48.0/25, indentless): verify fails with the refusal."""
    for old, new, excepted in (("10.0.48.0/24", "10.0.48.0/25", "10.0.48.0/26"),
                               ("10.0.48.0/24", "10.0.48.0/22", "10.0.48.0/25")):
        root = _repo(tmp_path, {"np.yaml": NETPOL.replace("CIDR", old).replace("EXCEPT", excepted)},
                     f"{old}: {new}")
        done = run(root, "sweep", "--commit")
        assert done.exit_code == 0, done.stdout + done.stderr
        block = yaml.safe_load((root / "np.yaml").read_text())["spec"]["ingress"][0]["from"][0]["ipBlock"]
        assert block["cidr"] == new
        cidr = ipaddress.ip_network(block["cidr"])
        assert ipaddress.ip_network(block["except"][0]).subnet_of(cidr)  # type: ignore[arg-type]
        assert _admitted(block["cidr"], block["except"][0]) > 0
        assert run(root, "verify", "--strict").exit_code == 0
    written = NETPOL.replace("CIDR", "10.0.48.0/25").replace("EXCEPT", "10.0.48.0/25")
    root = _repo(tmp_path, {"np.yaml": written}, "10.0.48.0/24: 10.0.48.0/25")
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1, checked.stdout
    assert "np.yaml:12:11: residual (tool-refuses): 10.0.48.0/25" in checked.stdout, checked.stdout


TF = ('resource "kubernetes_network_policy" "lan" {\n  metadata {\n    name = "lan"\n  }\n  spec {\n'
      '    pod_selector {}\n    ingress {\n      from {\n        ip_block {\n          cidr   = "CIDR"\n'
      '          except = ["EXCEPT"]\n        }\n      }\n    }\n    policy_types = ["Ingress"]\n  }\n}\n')


def test_the_terraform_kubernetes_provider_s_ip_block_refuses_too(run: Run, tmp_path: Path) -> None:
    """HCL's `ip_block { cidr = ..., except = [...] }` (`=` for `:`) under /24 -> /25 in place:
    refused; under a grow written, the except kept strictly inside (ipaddress)."""
    files = {"np.tf": TF.replace("CIDR", "10.0.48.0/24").replace("EXCEPT", "10.0.48.0/25")}
    root = _repo(tmp_path, files, "10.0.48.0/24: 10.0.48.0/25")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert "np.tf:11: tool-refuses: the except entry 10.0.48.0/25 of the cidr 10.0.48.0/24" in done.stderr
    root = _repo(tmp_path, files, "10.0.48.0/24: 10.0.48.0/22")
    assert run(root, "sweep", "--commit").exit_code == 0
    text = (root / "np.tf").read_text()
    cidr = re.search(r'cidr   = "([^"]+)"', text)
    excepted = re.search(r'except = \["([^"]+)"\]', text)
    assert cidr is not None and excepted is not None and cidr.group(1) == "10.0.48.0/22"
    assert _admitted(cidr.group(1), excepted.group(1)) == 1024 - 128


# -- 02: Calico notNets, Istio notIpBlocks / notRemoteIpBlocks ---------------------------------------

CALICO = ("apiVersion: projectcalico.org/v3\nkind: GlobalNetworkPolicy\nmetadata:\n  name: lan\nspec:\n"
          "  ingress:\n    - action: Allow\n      source:\n        nets: [NET, 10.9.0.0/16]\n"
          "        notNets: [NOT]\n    - action: Allow\n      destination:\n        nets:\n        - NET\n"
          "        notNets:\n        - NOT\n")
ISTIO = ("apiVersion: security.istio.io/v1\nkind: AuthorizationPolicy\nmetadata:\n  name: lan\nspec:\n"
         "  action: ALLOW\n  rules:\n  - from:\n    - source:\n        ipBlocks: [\"NET\"]\n"
         "        notIpBlocks: [\"NOT\"]\n    - source:\n        notRemoteIpBlocks:\n          - NOT\n"
         "        remoteIpBlocks:\n          - NET\n")


def _calico_istio(net: str, excluded: str) -> dict[str, str]:
    return {name: text.replace("NET", net).replace("NOT", excluded)
            for name, text in (("gnp.yaml", CALICO), ("authz.yaml", ISTIO))}


def test_not_nets_and_not_ip_blocks_a_shrink_makes_cover_their_nets_refuse(run: Run, tmp_path: Path) -> None:
    """Calico `nets` + `notNets` (flow and indentless block lists) and Istio `ipBlocks` +
    `notIpBlocks`, `remoteIpBlocks` + `notRemoteIpBlocks` under /24 -> /25 in place, /23 -> /24,
    IPv6 /48 -> /56 and /24 -> 10.0.60.0/25: each exclusion would be the whole new network (the rule
    admits nothing of it where it admitted the addresses the shrink leaves out): refused, nothing
    written."""
    for old, new, excluded in (("10.0.48.0/24", "10.0.48.0/25", "10.0.48.0/25"),
                               ("10.0.48.0/23", "10.0.48.0/24", "10.0.48.0/24"),
                               ("2001:db8:a::/48", "2001:db8:a::/56", "2001:db8:a::/56"),
                               ("10.0.48.0/24", "10.0.60.0/25", "10.0.48.0/25")):
        root = _repo(tmp_path, _calico_istio(old, excluded), f"{old}: {new}")
        before = snapshot(root)
        done = run(root, "sweep", "--commit")
        assert done.exit_code == 3, (old, new, done.stdout + done.stderr)
        assert snapshot(root) == before
        for where, key in (("gnp.yaml:10", "notNets of nets"), ("gnp.yaml:16", "notNets of nets"),
                           ("authz.yaml:11", "notIpBlocks of ipBlocks"),
                           ("authz.yaml:14", "notRemoteIpBlocks of remoteIpBlocks")):
            assert f"{where}: tool-refuses: the exclusion {excluded} of {old} ({key})" in done.stderr, \
                (where, done.stderr)


def test_not_nets_left_inside_follow_and_written_ones_fail_verify(run: Run, tmp_path: Path) -> None:
    """notNets /26 under /24 -> /25 in place, and a grow /24 -> /22 with /25: written, exit 0, every
    rule still admits part of its network. Files written by main's sweep (nets == notNets at the
    new /25): verify fails."""
    for old, new, excluded in (("10.0.48.0/24", "10.0.48.0/25", "10.0.48.0/26"),
                               ("10.0.48.0/24", "10.0.48.0/22", "10.0.48.0/25")):
        root = _repo(tmp_path, _calico_istio(old, excluded), f"{old}: {new}")
        done = run(root, "sweep", "--commit")
        assert done.exit_code == 0, done.stdout + done.stderr
        gnp = yaml.safe_load((root / "gnp.yaml").read_text())
        for rule in gnp["spec"]["ingress"]:
            side = rule.get("source") or rule["destination"]
            assert side["nets"][0] == new
            assert _admitted(side["nets"][0], side["notNets"][0]) > 0
        authz = yaml.safe_load((root / "authz.yaml").read_text())["spec"]["rules"][0]["from"]
        assert _admitted(authz[0]["source"]["ipBlocks"][0], authz[0]["source"]["notIpBlocks"][0]) > 0
        assert run(root, "verify", "--strict").exit_code == 0
    root = _repo(tmp_path, _calico_istio("10.0.48.0/25", "10.0.48.0/25"), "10.0.48.0/24: 10.0.48.0/25")
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1, checked.stdout
    for where in ("gnp.yaml:10:19", "gnp.yaml:16:11", "authz.yaml:11:24", "authz.yaml:14:13"):
        assert f"{where}: residual (tool-refuses): 10.0.48.0/25" in checked.stdout, (where, checked.stdout)


IAM = {"Version": "2012-10-17", "Statement": [{
    "Effect": "Allow", "Action": "s3:GetObject", "Resource": "*",
    "Condition": {"IpAddress": {"aws:SourceIp": ["NET", "10.9.0.0/16"]}, "NotIpAddress": {"aws:SourceIp": "NOT"}}}]}


def test_an_iam_not_ip_address_a_shrink_makes_cover_its_network_refuses(run: Run, tmp_path: Path) -> None:
    """AWS IAM `NotIpAddress` beside `IpAddress` in one Condition (both must hold) under /24 -> /25
    in place: refused; under a grow (/24 -> /22) written and the policy still admits part of the
    network (json, ipaddress); a file written so fails verify."""
    def policy(net: str, excluded: str) -> str:
        return json.dumps(IAM, indent=2).replace("NET", net).replace("NOT", excluded) + "\n"
    root = _repo(tmp_path, {"policy.json": policy("10.0.48.0/24", "10.0.48.0/25")}, "10.0.48.0/24: 10.0.48.0/25")
    before = snapshot(root)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert snapshot(root) == before
    assert "policy.json:16: tool-refuses: the exclusion 10.0.48.0/25 of 10.0.48.0/24 (NotIpAddress of IpAddress)" \
        in done.stderr, done.stderr
    root = _repo(tmp_path, {"policy.json": policy("10.0.48.0/24", "10.0.48.0/25")}, "10.0.48.0/24: 10.0.48.0/22")
    assert run(root, "sweep", "--commit").exit_code == 0
    condition = json.loads((root / "policy.json").read_text())["Statement"][0]["Condition"]
    assert condition["IpAddress"]["aws:SourceIp"][0] == "10.0.48.0/22"
    assert _admitted(condition["IpAddress"]["aws:SourceIp"][0], condition["NotIpAddress"]["aws:SourceIp"]) == 896
    root = _repo(tmp_path, {"policy.json": policy("10.0.48.0/25", "10.0.48.0/25")}, "10.0.48.0/24: 10.0.48.0/25")
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1
    assert "policy.json:16:" in checked.stdout and "residual (tool-refuses): 10.0.48.0/25" in checked.stdout


# -- 21: JunOS `except`, ipset `nomatch`, nftables `!=`, pf `!` ---------------------------------------

JUNOS = ("firewall {\n    family inet {\n        filter LAN-IN {\n            term lan {\n                from {\n"
         "                    source-address {\n                        NET;\n                        NOT except;\n"
         "                    }\n                }\n                then accept;\n            }\n        }\n    }\n}\n")
JUNOS_SET = ("set firewall family inet filter LAN2 term lan from source-address NET\n"
             "set firewall family inet filter LAN2 term lan from source-address NOT except\n"
             "set firewall family inet filter LAN2 term lan then accept\n")
IPSET = "create lan hash:net\nadd lan NET\nadd lan NOT nomatch\n"
NFT = ("table inet f {\n  chain input {\n    type filter hook input priority 0;\n"
       "    ip saddr NET ip saddr != NOT accept\n    ip saddr { NET, 10.9.0.0/16 } ip saddr != { NOT } accept\n"
       "  }\n}\n")
PF = "table <lan> const { NET !NOT }\npass in from <lan>\n"


def _rules(net: str, excluded: str) -> dict[str, str]:
    return {name: text.replace("NET", net).replace("NOT", excluded)
            for name, text in (("junos.conf", JUNOS), ("junos-set.conf", JUNOS_SET), ("lan.ipset", IPSET),
                               ("f.nft", NFT), ("pf.conf", PF))}


def _nft_reads(path: Path) -> None:
    checked = subprocess.run(["unshare", "-rn", "nft", "-c", "-f", str(path)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr


def test_exclusions_in_a_rule_s_own_syntax_a_shrink_makes_cover_the_network_refuse(run: Run,
                                                                                    tmp_path: Path) -> None:
    """JunOS `E except;` in the address list's block and as a set command, ipset's `nomatch`,
    nftables' `ip saddr != E` (and a set), pf's `!E` under /24 -> /25 in place, /23 -> /24 and
    /24 -> 10.0.60.0/25: refused at each exclusion, nothing written (nft -c read the file before)."""
    for old, new, excluded in (("10.0.48.0/24", "10.0.48.0/25", "10.0.48.0/25"),
                               ("10.0.48.0/23", "10.0.48.0/24", "10.0.48.0/24"),
                               ("10.0.48.0/24", "10.0.60.0/25", "10.0.48.0/25")):
        root = _repo(tmp_path, _rules(old, excluded), f"{old}: {new}")
        _nft_reads(root / "f.nft")
        before = snapshot(root)
        done = run(root, "sweep", "--commit")
        assert done.exit_code == 3, (old, new, done.stdout + done.stderr)
        assert snapshot(root) == before
        for where in ("junos.conf:8", "junos-set.conf:2", "lan.ipset:3", "f.nft:4", "f.nft:5", "pf.conf:1"):
            assert f"{where}: tool-refuses: the exclusion {excluded} of {old}" in done.stderr, (where, done.stderr)


def test_ipv6_nft_exclusion_refuses_and_a_grow_keeps_the_rule(run: Run, tmp_path: Path) -> None:
    """`ip6 saddr A ip6 saddr != E` under /48 -> /56 in place: refused. Under a grow (/24 -> /22,
    /64 -> /60) every exclusion keeps its own length and is written beside the grown network:
    exit 0, nft -c reads the result, the rule admits the grown network less the exclusion;
    another selector's `!=` (daddr) is no exclusion of saddr's network."""
    v6 = ("table inet f {\n  chain input {\n    type filter hook input priority 0;\n"
          "    ip6 saddr 2001:db8:a::/48 ip6 saddr != 2001:db8:a::/56 accept\n  }\n}\n")
    root = _repo(tmp_path, {"f.nft": v6}, "2001:db8:a::/48: 2001:db8:a::/56")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert "f.nft:4: tool-refuses: the exclusion 2001:db8:a::/56 of 2001:db8:a::/48" in done.stderr
    files = _rules("10.0.48.0/24", "10.0.48.0/25")
    files["v6.nft"] = v6.replace("2001:db8:a::/48", "2001:db8:a:10::/64").replace("2001:db8:a::/56",
                                                                                  "2001:db8:a:10::/68")
    files["daddr.nft"] = NFT.replace("ip saddr !=", "ip daddr !=").replace("NET", "10.0.48.0/24") \
        .replace("NOT", "10.0.48.0/25")
    root = _repo(tmp_path, files, "10.0.48.0/24: 10.0.48.0/22, 2001:db8:a:10::/64: 2001:db8:a:10::/60")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    text = (root / "f.nft").read_text()
    assert "ip saddr 10.0.48.0/22 ip saddr != 10.0.48.0/25 accept" in text, text
    assert "ip6 saddr 2001:db8:a:10::/60 ip6 saddr != 2001:db8:a:10::/68" in (root / "v6.nft").read_text()
    for name in ("f.nft", "v6.nft", "daddr.nft"):
        _nft_reads(root / name)
    assert _admitted("10.0.48.0/22", "10.0.48.0/25") == 1024 - 128
    assert "10.0.48.0/22;\n                        10.0.48.0/25 except;" in (root / "junos.conf").read_text()
    assert run(root, "verify", "--strict").exit_code == 0
    # a shrink: the daddr rule's `!=` names another selector than saddr's network: no refusal of it
    root = _repo(tmp_path, {"daddr.nft": files["daddr.nft"]}, "10.0.48.0/24: 10.0.48.0/25")
    done = run(root, "sweep", "--commit")
    assert "daddr.nft:4: tool-refuses" not in done.stderr, done.stderr


NAMED = ("table inet f {\n  set lan {\n    type ipv4_addr\n    flags interval\n    elements = { NET, 10.9.0.0/16 }\n"
         "  }\n  set half {\n    type ipv4_addr\n    flags interval\n    elements = {\n      NOT,\n    }\n  }\n"
         "  chain input {\n    type filter hook input priority 0;\n    ip saddr @lan ip saddr != @half accept\n"
         "  }\n}\n")


def test_nft_named_sets_refuse_and_follow_a_grow(run: Run, tmp_path: Path) -> None:
    """`ip saddr @lan ip saddr != @half` with both sets defined in the file: under /24 -> /25 in
    place refused at the element of `half`; under a grow written, nft -c reads it."""
    files = {"f.nft": NAMED.replace("NET", "10.0.48.0/24").replace("NOT", "10.0.48.0/25")}
    root = _repo(tmp_path, files, "10.0.48.0/24: 10.0.48.0/25")
    _nft_reads(root / "f.nft")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert "f.nft:11: tool-refuses: the exclusion 10.0.48.0/25 of 10.0.48.0/24 (nftables `ip saddr !=`)" \
        in done.stderr, done.stderr
    root = _repo(tmp_path, files, "10.0.48.0/24: 10.0.48.0/22")
    assert run(root, "sweep", "--commit").exit_code == 0
    assert "elements = { 10.0.48.0/22, 10.9.0.0/16 }" in (root / "f.nft").read_text()
    _nft_reads(root / "f.nft")


def test_written_exclusions_fail_verify(run: Run, tmp_path: Path) -> None:
    """Files main's sweep wrote (the network and its exclusion both 10.0.48.0/25): verify fails at
    each exclusion."""
    root = _repo(tmp_path, _rules("10.0.48.0/25", "10.0.48.0/25"), "10.0.48.0/24: 10.0.48.0/25")
    _nft_reads(root / "f.nft")
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1, checked.stdout
    for where in ("junos.conf:8:25", "junos-set.conf:2:67", "lan.ipset:3:9", "f.nft:4:39", "pf.conf:1:35"):
        assert f"{where}: residual (tool-refuses): 10.0.48.0/25" in checked.stdout, (where, checked.stdout)


NGINX = "server {\n    listen 80;\n    location / {\n        deny NOT;\n        allow NET;\n        deny all;\n    }\n}\n"
IPT = "*filter\n:INPUT DROP [0:0]\n-A INPUT -s NOT -j DROP\n-A INPUT -s NET -j ACCEPT\nCOMMIT\n"
APACHE = ("<Location /admin>\n    <RequireAll>\n        Require ip NET\n        Require not ip NOT\n"
          "    </RequireAll>\n</Location>\n")


def _first_match(rules: list[tuple[str, str]], address: str) -> bool:
    """nginx's and iptables' rule: the first rule whose network holds the address decides."""
    return next((verdict == "allow" for verdict, net in rules
                 if ipaddress.ip_address(address) in ipaddress.ip_network(net)), False)


def test_a_deny_before_the_allow_a_shrink_makes_cover_the_network_refuses(run: Run, tmp_path: Path) -> None:
    """Postfix's `mynetworks = ..., !E, N`, nginx's `deny E;` before `allow N;` in one block,
    iptables' `-s E -j DROP` before `-s N -j ACCEPT` in one chain and Apache's `Require not ip E`
    beside `Require ip N` in a <RequireAll>, under /24 -> /25 in place (IPv6 /48 -> /56 for
    iptables): each admitted the addresses the shrink leaves out and would admit nothing: refused,
    nothing written. Under a grow (/24 -> /22) written, and the first-match rules still admit the
    grown network less the deny (checked in Python: Postfix, nginx, iptables and Apache are not
    installed; Postfix not checked beyond the text)."""
    files = {name: text.replace("NET", "10.0.48.0/24").replace("NOT", "10.0.48.0/25")
             for name, text in (("site.conf", NGINX), ("rules.v4", IPT), ("admin.conf", APACHE))}
    files["main.cf"] = "myhostname = mx\nmynetworks = 127.0.0.0/8, !10.0.48.0/25, 10.0.48.0/24\n"
    files["rules.v6"] = IPT.replace("NET", "2001:db8:a::/48").replace("NOT", "2001:db8:a::/56")
    root = _repo(tmp_path, files, "10.0.48.0/24: 10.0.48.0/25, 2001:db8:a::/48: 2001:db8:a::/56")
    before = snapshot(root)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert snapshot(root) == before
    for where in ("site.conf:4: tool-refuses: the exclusion 10.0.48.0/25 of 10.0.48.0/24 (nginx's",
                  "rules.v4:3: tool-refuses: the exclusion 10.0.48.0/25 of 10.0.48.0/24 (iptables'",
                  "rules.v6:3: tool-refuses: the exclusion 2001:db8:a::/56 of 2001:db8:a::/48 (iptables'",
                  "admin.conf:4: tool-refuses: the exclusion 10.0.48.0/25 of 10.0.48.0/24 (Apache's",
                  "main.cf:2: tool-refuses: the exclusion 10.0.48.0/25 of 10.0.48.0/24 (a `!` entry"):
        assert where in done.stderr, (where, done.stderr)
    del files["rules.v6"]
    root = _repo(tmp_path, files, "10.0.48.0/24: 10.0.48.0/22")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    text = (root / "site.conf").read_text()
    assert "deny 10.0.48.0/25;\n        allow 10.0.48.0/22;" in text, text
    rules = [("deny", "10.0.48.0/25"), ("allow", "10.0.48.0/22")]
    assert not _first_match(rules, "10.0.48.5") and _first_match(rules, "10.0.48.200")
    assert _first_match(rules, "10.0.51.7")
    assert "-A INPUT -s 10.0.48.0/25 -j DROP\n-A INPUT -s 10.0.48.0/22 -j ACCEPT" in (root / "rules.v4").read_text()
    assert "Require ip 10.0.48.0/22\n        Require not ip 10.0.48.0/25" in (root / "admin.conf").read_text()
    assert "mynetworks = 127.0.0.0/8, !10.0.48.0/25, 10.0.48.0/22\n" in (root / "main.cf").read_text()
    assert run(root, "verify", "--strict").exit_code == 0
