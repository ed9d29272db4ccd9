"""Outside pass t33-33, findings 07, 09, 10, 13, 14, 23, end to end on real git repos through the
CLI. Each failed on main before (sweep 0, the file rewritten to one its tool refuses or that
contradicts itself, verify OK; 14: a residual whose reason was false). Kubernetes, AWS, Azure and
Postfix are not installed: their rules are checked in Python (yaml, ipaddress, csv) as each tool
states them (kube-apiserver's 20 host bits, cidrset's 16 bits, AWS /16-/28, ValidateIPBlock);
nftables' own `nft -c` reads the rule of finding 23 inside `unshare -rn` where it can."""

from __future__ import annotations

import csv
import ipaddress
import json
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
import yaml

from tests.testing.repos import Run, make_repo, snapshot

ALLOW = 'version: 1\ncurrent: ["**"]\n'


def _repo(tmp: Path, files: dict[str, str], networks: str) -> Path:
    config = f"version: 1\nrenames:\n  networks: {{{networks}}}\nallowlist: allow.yaml\n"
    return make_repo(Path(tempfile.mkdtemp(dir=tmp)) / "repo", files, config=config, allowlist=ALLOW)


def _refused(run: Run, root: Path, *places: str) -> str:
    before = snapshot(root)
    dry = run(root, "sweep", "--dry-run")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert snapshot(root) == before  # nothing written
    said = dry.stdout + done.stderr
    for place in places:
        assert place in said, (place, said)
    return str(said)


def _written(run: Run, root: Path) -> None:
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 0, checked.stdout + checked.stderr


# -- 07: lengths the consuming tool refuses -------------------------------------------------------

KUBEADM = ("apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\nnetworking:\n"
           "  serviceSubnet: SVC4,SVC6\n  podSubnet: 10.244.0.0/16\n")
K3S = "service-cidr: SVC4,SVC6\n"
KUBESPRAY = "kube_service_addresses: SVC4\nkube_service_addresses_ipv6: SVC6\n"
APISERVER = "spec:\n  containers:\n  - command:\n    - kube-apiserver\n    - --service-cluster-ip-range=SVC4,SVC6\n"
VPC_TF = ('resource "aws_vpc" "main" {\n  cidr_block = "@VPC@"\n}\nresource "aws_subnet" "tiny" {\n'
          '  vpc_id     = aws_vpc.main.id\n  cidr_block = "@SUBNET@"\n}\n'
          'resource "aws_security_group" "sg" {\n  ingress {\n    cidr_blocks = ["@VPC@"]\n  }\n}\n')
MODULE = ('module "vpc" {\n  source  = "terraform-aws-modules/vpc/aws"\n  version = "~> 5.0"\n  cidr    = "@VPC@"\n'
          '  private_subnets = ["@SUBNET@"]\n}\n')
CFN = ("Resources:\n  Vpc:\n    Type: AWS::EC2::VPC\n    Properties:\n      CidrBlock: @VPC@\n"
       "  Route:\n    Type: AWS::EC2::Route\n    Properties:\n      DestinationCidrBlock: @VPC@\n")


def _kube_files(svc4: str, svc6: str) -> dict[str, str]:
    return {name: text.replace("SVC4", svc4).replace("SVC6", svc6)
            for name, text in (("kubeadm.yaml", KUBEADM), ("k3s-config.yaml", K3S),
                               ("group_vars/all/k8s.yml", KUBESPRAY), ("kube-apiserver.yaml", APISERVER))}


@pytest.mark.parametrize(("old4", "new4", "old6", "new6"), [
    ("10.96.0.0/16", "10.96.0.0/11", "fd00:10:96::/112", "fd00:10:96::/100"),  # the finding
    ("10.96.0.0/12", "100.64.0.0/10", "fd00:10:96::/108", "fd00:10:96::/104"),  # at the limit, grown past
])
def test_a_kube_service_cidr_grown_past_twenty_host_bits_refuses(run: Run, tmp_path: Path, old4: str, new4: str,
                                                                old6: str, new6: str) -> None:
    """kubeadm, k3s, kubespray and kube-apiserver's own flag: each network literal refused at its line,
    nothing written (kube-apiserver: the mask must be >= 12, >= 108 for IPv6)."""
    root = _repo(tmp_path, _kube_files(old4, old6), f"{old4}: {new4}, {old6}: {new6}")
    stderr = _refused(run, root, "kubeadm.yaml:4: tool-refuses", "k3s-config.yaml:1: tool-refuses",
                      "group_vars/all/k8s.yml:1: tool-refuses", "group_vars/all/k8s.yml:2: tool-refuses",
                      "kube-apiserver.yaml:5: tool-refuses")
    assert f"{old4} becomes {new4}, of a length kube-apiserver refuses" in stderr
    assert f"{old6} becomes {new6}, of a length kube-apiserver refuses" in stderr
    for net in (new4, new6):  # the rule, as the tool states it
        parsed = ipaddress.ip_network(net)
        assert parsed.max_prefixlen - parsed.prefixlen > 20


def test_a_kube_service_cidr_grown_within_the_limit_is_written_and_a_written_one_fails_verify(
        run: Run, tmp_path: Path) -> None:
    """/16 -> /12 and /112 -> /108 (at the limit): written, verify OK, kubeadm's file the new ranges.
    A file written by main's sweep (/11, /100): verify fails with the refusal."""
    root = _repo(tmp_path, _kube_files("10.96.0.0/16", "fd00:10:96::/112"),
                 "10.96.0.0/16: 10.96.0.0/12, fd00:10:96::/112: fd00:10:96::/108")
    _written(run, root)
    subnet = yaml.safe_load((root / "kubeadm.yaml").read_text())["networking"]["serviceSubnet"]
    assert subnet == "10.96.0.0/12,fd00:10:96::/108"
    assert all(ipaddress.ip_network(n).max_prefixlen - ipaddress.ip_network(n).prefixlen <= 20
               for n in subnet.split(","))
    root = _repo(tmp_path, _kube_files("10.96.0.0/11", "fd00:10:96::/100"),
                 "10.96.0.0/16: 10.96.0.0/11, fd00:10:96::/112: fd00:10:96::/100")
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1, checked.stdout
    assert "kubeadm.yaml:4:18: residual (tool-refuses): 10.96.0.0/11" in checked.stdout, checked.stdout


@pytest.mark.parametrize(("vpc_old", "vpc_new", "sub_old", "sub_new"), [
    ("10.0.0.0/16", "10.0.0.0/14", "10.9.0.0/28", "10.9.0.0/29"),  # the finding: a grow and a shrink
    ("10.0.0.0/20", "10.0.0.0/15", "10.9.0.0/26", "10.9.0.0/30"),  # other lengths past either end
])
def test_an_aws_vpc_or_subnet_outside_16_to_28_refuses(run: Run, tmp_path: Path, vpc_old: str, vpc_new: str,
                                                        sub_old: str, sub_new: str) -> None:
    """Terraform's aws_vpc and aws_subnet, the terraform-aws-modules/vpc module's `cidr` and
    `private_subnets`, and CloudFormation's AWS::EC2::VPC: refused at the
    cidr_block / CidrBlock line; a security group's cidr_blocks and a route's DestinationCidrBlock
    (no such limit) are not what refuses."""
    files = {"vpc.tf": VPC_TF.replace("@VPC@", vpc_old).replace("@SUBNET@", sub_old),
             "stack.yaml": CFN.replace("@VPC@", vpc_old),
             "mod/main.tf": MODULE.replace("@VPC@", vpc_old).replace("@SUBNET@", sub_old)}
    root = _repo(tmp_path, files, f"{vpc_old}: {vpc_new}, {sub_old}: {sub_new}")
    stderr = _refused(run, root, "vpc.tf:2: tool-refuses", "vpc.tf:6: tool-refuses", "stack.yaml:5: tool-refuses",
                      "mod/main.tf:4: tool-refuses", "mod/main.tf:5: tool-refuses")
    assert "vpc.tf:10" not in stderr and "stack.yaml:10" not in stderr
    assert "AWS refuses a VPC or subnet CIDR block outside /16 to /28" in stderr
    for net in (vpc_new, sub_new):
        assert not 16 <= ipaddress.ip_network(net).prefixlen <= 28


def test_an_aws_vpc_resized_within_16_to_28_is_written(run: Run, tmp_path: Path) -> None:
    """/20 -> /16 and a subnet /24 -> /28: written, verify OK, every cidr_block within AWS's range."""
    files = {"vpc.tf": VPC_TF.replace("@VPC@", "10.0.0.0/20").replace("@SUBNET@", "10.9.0.0/24")}
    root = _repo(tmp_path, files, "10.0.0.0/20: 10.0.0.0/16, 10.9.0.0/24: 10.9.0.0/28")
    _written(run, root)
    text = (root / "vpc.tf").read_text()
    assert 'cidr_block = "10.0.0.0/16"' in text and 'cidr_block = "10.9.0.0/28"' in text
    if shutil.which("terraform"):  # terraform's own parser: the file is valid HCL (no provider needed)
        done = subprocess.run(["terraform", "fmt", "-check", "-diff", "-"], input=text, text=True,
                              capture_output=True, check=False)
        assert "Error" not in done.stderr, done.stderr


# -- 10: cidrset's 16 bits between the cluster CIDR and the node mask -------------------------------

KCM = ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: kube-controller-manager\nspec:\n  containers:\n"
       "  - command:\n    - kube-controller-manager\n    - --allocate-node-cidrs=true\n"
       "    - --cluster-cidr=POOL4,POOL6\n    - --node-cidr-mask-size-ipv4=MASK4\n"
       "    - --node-cidr-mask-size-ipv6=MASK6\n")
SPRAY = "kube_pods_subnet_ipv6: POOL6\nkube_network_node_prefix_ipv6: MASK6\n"


@pytest.mark.parametrize(("pool", "new", "mask", "line"), [
    ("fd00:10:244::/56", "fd00:10::/44", 64, 12),  # the finding: 20 bits
    ("10.244.0.0/16", "172.0.0.0/7", 24, 11),  # IPv4: 17 bits
    ("fd00:10:244::/56", "fd00:10:244::/47", 64, 12),  # 17 bits
])
def test_a_pool_grown_more_than_16_bits_above_its_node_mask_refuses(run: Run, tmp_path: Path, pool: str,
                                                                   new: str, mask: int, line: int) -> None:
    """kube-controller-manager's flags and kubespray's keys: refused at the node mask."""
    v4 = ipaddress.ip_network(pool).version == 4
    files = {"kcm.yaml": KCM.replace("POOL4", pool if v4 else "10.244.0.0/16")
             .replace("POOL6", "fd00:10:244::/56" if v4 else pool)
             .replace("MASK4", str(mask) if v4 else "24").replace("MASK6", "64" if v4 else str(mask))}
    if not v4:
        files["group_vars/all/k8s.yml"] = SPRAY.replace("POOL6", pool).replace("MASK6", str(mask))
    root = _repo(tmp_path, files, f"{pool}: {new}")
    places = [f"kcm.yaml:{line}: tool-refuses"] + ([] if v4 else ["group_vars/all/k8s.yml:2: tool-refuses"])
    stderr = _refused(run, root, *places)
    assert "allows at most 16" in stderr
    assert mask - ipaddress.ip_network(new).prefixlen > 16  # cidrset's clusterSubnetMaxDiff


def test_a_pool_grown_to_16_bits_is_written_and_a_written_one_fails_verify(run: Run, tmp_path: Path) -> None:
    """/56 -> /48 under a /64 node mask (16 bits): written, verify OK. A written /44: verify fails."""
    files = {"kcm.yaml": KCM.replace("POOL4", "10.244.0.0/16").replace("POOL6", "fd00:10:244::/56")
             .replace("MASK4", "24").replace("MASK6", "64")}
    root = _repo(tmp_path, files, "fd00:10:244::/56: fd00:10:244::/48")
    _written(run, root)
    assert "--cluster-cidr=10.244.0.0/16,fd00:10:244::/48" in (root / "kcm.yaml").read_text()
    files = {"kcm.yaml": KCM.replace("POOL4", "10.244.0.0/16").replace("POOL6", "fd00:10::/44")
             .replace("MASK4", "24").replace("MASK6", "64")}
    root = _repo(tmp_path, files, "fd00:10:244::/56: fd00:10::/44")
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1, checked.stdout
    assert "kcm.yaml:12:" in checked.stdout and "tool-refuses" in checked.stdout, checked.stdout


# -- 09: an except that moves out of its cidr ---------------------------------------------------------

SITE = ("apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: site-but-lab\nspec:\n"
        "  podSelector: {}\n  policyTypes: [Egress]\n  egress:\n    - to:\n        - ipBlock:\n"
        "            cidr: CIDR\n            except:\n              - EXCEPT\n")


@pytest.mark.parametrize(("cidr", "lab", "new"), [
    ("10.0.0.0/16", "10.0.48.0/24", "172.16.8.0/22"),  # the finding
    ("2001:db8:a::/48", "2001:db8:a:10::/64", "2001:db8:b:20::/60"),  # its IPv6 twin
    ("10.0.0.0/16", "10.0.48.0/23", "10.1.48.0/24"),  # a shrink that leaves the site
])
def test_an_except_that_moves_out_of_its_cidr_refuses(run: Run, tmp_path: Path, cidr: str, lab: str,
                                                      new: str) -> None:
    root = _repo(tmp_path, {"np.yaml": SITE.replace("CIDR", cidr).replace("EXCEPT", lab)}, f"{lab}: {new}")
    stderr = _refused(run, root, f"np.yaml:13: tool-refuses: the exclusion {lab} of {cidr}")
    assert f"moves to {new}, which is not strictly inside {cidr}" in stderr
    assert not ipaddress.ip_network(new).subnet_of(ipaddress.ip_network(cidr))  # type: ignore[arg-type]


def test_an_except_that_moves_inside_its_cidr_is_written_and_a_written_stray_fails_verify(
        run: Run, tmp_path: Path) -> None:
    """The lab moves within the site (/24 -> /22 at 10.0.52.0): written, the except strictly inside
    (ValidateIPBlock holds), verify OK. A file with the except already at 172.16.8.0/22: verify fails."""
    root = _repo(tmp_path, {"np.yaml": SITE.replace("CIDR", "10.0.0.0/16").replace("EXCEPT", "10.0.48.0/24")},
                 "10.0.48.0/24: 10.0.52.0/22")
    _written(run, root)
    block = yaml.safe_load((root / "np.yaml").read_text())["spec"]["egress"][0]["to"][0]["ipBlock"]
    cidr, excepted = ipaddress.ip_network(block["cidr"]), ipaddress.ip_network(block["except"][0])
    assert excepted == ipaddress.ip_network("10.0.52.0/22") and excepted.subnet_of(cidr) and excepted != cidr
    root = _repo(tmp_path, {"np.yaml": SITE.replace("CIDR", "10.0.0.0/16").replace("EXCEPT", "172.16.8.0/22")},
                 "10.0.48.0/24: 172.16.8.0/22")
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1, checked.stdout
    assert "np.yaml:13:17: residual (tool-refuses): 172.16.8.0/22" in checked.stdout, checked.stdout


def test_a_first_match_deny_that_moves_out_is_written(run: Run, tmp_path: Path) -> None:
    """Postfix `!lab, site` (first match): the deny follows the lab to its new place, which it keeps
    out there; not a Kubernetes except, no refusal."""
    root = _repo(tmp_path, {"main.cf": "mynetworks = !10.0.48.0/24, 10.0.0.0/16\n"}, "10.0.48.0/24: 172.16.8.0/22")
    _written(run, root)
    assert (root / "main.cf").read_text() == "mynetworks = !172.16.8.0/22, 10.0.0.0/16\n"


# -- 23: several excepts that together cover the new network -----------------------------------------

NP2 = ("apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: two\nspec:\n"
       "  podSelector: {}\n  ingress:\n  - from:\n    - ipBlock:\n        cidr: CIDR\n        except:\n"
       "        - ONE\n        - TWO\n")


@pytest.mark.parametrize(("old", "new", "one", "two"), [
    ("10.0.48.0/24", "10.0.48.0/25", "10.0.48.0/26", "10.0.48.64/26"),  # the finding
    ("2001:db8:a::/48", "2001:db8:a::/56", "2001:db8:a::/57", "2001:db8:a:80::/57"),  # IPv6
    ("10.0.48.0/23", "10.0.60.0/24", "10.0.48.0/25", "10.0.48.128/25"),  # a shrink with a move
])
def test_excepts_that_together_cover_the_shrunk_network_refuse(run: Run, tmp_path: Path, old: str, new: str,
                                                               one: str, two: str) -> None:
    files = {"np.yaml": NP2.replace("CIDR", old).replace("ONE", one).replace("TWO", two)}
    if ipaddress.ip_network(old).version == 4:
        files["main.cf"] = f"mynetworks = !{one}, !{two}, {old}\n"
        files["acl.conf"] = f"location / {{\n  deny {one};\n  deny {two};\n  allow {old};\n  deny all;\n}}\n"
    root = _repo(tmp_path, files, f"{old}: {new}")
    places = [f"np.yaml:12: tool-refuses: the exclusions {one}, {two} of {old}"]
    if "main.cf" in files:
        places.append(f"main.cf:1: tool-refuses: the exclusions {one}, {two} of {old}")
        places.append(f"acl.conf:2: tool-refuses: the exclusions {one}, {two} of {old}")
    stderr = _refused(run, root, *places)
    assert "would together cover the whole new network" in stderr
    new_net = ipaddress.ip_network(new)
    landed = []
    for text in (one, two):  # where each lands by its offset
        net = ipaddress.ip_network(text)
        offset = int(net.network_address) - int(ipaddress.ip_network(old).network_address)
        landed.append(ipaddress.ip_network(f"{new_net.network_address + offset}/{net.prefixlen}"))
    assert sum(n.num_addresses for n in landed if n.subnet_of(new_net)) == new_net.num_addresses  # type: ignore[arg-type]


def test_excepts_that_leave_part_of_the_network_are_written_and_a_written_cover_fails_verify(
        run: Run, tmp_path: Path) -> None:
    """Two /27s under /24 -> /25 leave half: written, verify OK, the rule admits 64 addresses. A file
    with cidr /25 and two /26 excepts (main's output): verify fails."""
    files = {"np.yaml": NP2.replace("CIDR", "10.0.48.0/24").replace("ONE", "10.0.48.0/27")
             .replace("TWO", "10.0.48.32/27")}
    root = _repo(tmp_path, files, "10.0.48.0/24: 10.0.48.0/25")
    _written(run, root)
    block = yaml.safe_load((root / "np.yaml").read_text())["spec"]["ingress"][0]["from"][0]["ipBlock"]
    cidr = ipaddress.ip_network(block["cidr"])
    assert cidr.num_addresses - sum(ipaddress.ip_network(e).num_addresses for e in block["except"]) == 64
    files = {"np.yaml": NP2.replace("CIDR", "10.0.48.0/25").replace("ONE", "10.0.48.0/26")
             .replace("TWO", "10.0.48.64/26")}
    root = _repo(tmp_path, files, "10.0.48.0/24: 10.0.48.0/25")
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1, checked.stdout
    assert "np.yaml:12:11: residual (tool-refuses): 10.0.48.0/26" in checked.stdout, checked.stdout


def _nft_ok(text: str) -> bool | None:
    """nft -c on `text` inside an unprivileged network namespace; None where that cannot run."""
    if not shutil.which("nft") or not shutil.which("unshare"):
        return None
    with tempfile.NamedTemporaryFile("w", suffix=".nft", delete=False) as handle:
        handle.write(text)
    done = subprocess.run(["unshare", "-rn", "nft", "-c", "-f", handle.name], capture_output=True, text=True,
                          check=False)
    if "Operation not permitted" in done.stderr:
        return None
    return done.returncode == 0


def test_an_nft_rule_whose_excluded_set_covers_the_shrunk_network_refuses(run: Run, tmp_path: Path) -> None:
    """`ip saddr 10.0.48.0/24 ip saddr != { 10.0.48.0/26, 10.0.48.64/26 }` under /24 -> /25: a rule
    nft loads (nft -c) that would match nothing: refused."""
    rule = ("table inet f {\n  chain input {\n    type filter hook input priority 0;\n"
            "    ip saddr 10.0.48.0/24 ip saddr != { 10.0.48.0/26, 10.0.48.64/26 } accept\n  }\n}\n")
    assert _nft_ok(rule) in (True, None)
    root = _repo(tmp_path, {"rules.nft": rule}, "10.0.48.0/24: 10.0.48.0/25")
    _refused(run, root, "rules.nft:4: tool-refuses: the exclusions 10.0.48.0/26, 10.0.48.64/26 of 10.0.48.0/24")


# -- 13: counts the length determines ---------------------------------------------------------------

@pytest.mark.parametrize(("old", "new"), [
    ("10.0.48.0/24", "10.0.60.0/22"),  # the finding
    ("10.0.48.0/29", "10.0.48.0/28"),  # a small grow in place
    ("10.0.48.0/23", "10.0.48.0/24"),  # a shrink
])
def test_size_counts_beside_a_resized_ipv4_network_follow(run: Run, tmp_path: Path, old: str, new: str) -> None:
    """A CSV `usable_hosts` column, YAML `usable_hosts` / `total_addresses`, a Markdown `Hosts`
    column, pretty-printed JSON and an HCL object: rewritten to the new network's counts (Python's); `hosts: 37` (in use) is left,
    and `size` (a disk's as often) is a `tied-length` residual, never written (round 7, q33-counts)."""
    net = ipaddress.ip_network(old)
    addr, length, mask = net.network_address, net.prefixlen, net.netmask
    usable, total = net.num_addresses - 2, net.num_addresses
    files = {"ipam.csv": f"network,prefix_length,netmask,usable_hosts\n{addr},{length},{mask},{usable}\n",
             "subnets.yaml": (f"subnets:\n  - name: lab\n    cidr: {old}\n    usable_hosts: {usable}\n"
                              f"    total_addresses: {total}\n  - name: dmz\n    cidr: {old}\n    hosts: 3\n"),
             "subnets.md": f"| Name | CIDR | Hosts |\n| --- | --- | --- |\n| lab | {old} | {usable} |\n",
             "subnets.json": json.dumps({"lab": {"cidr": old, "usable_hosts": usable, "size": total}}, indent=2),
             "vars.tf": f'lab = {{\n  cidr         = "{old}"\n  usable_hosts = {usable}\n}}\n'}
    root = _repo(tmp_path, files, f"{old}: {new}")
    done = run(root, "sweep", "--commit")  # `size` (a disk's as often): said, never written (round 7)
    assert done.exit_code == 1, done.stdout + done.stderr
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1 and "FAILED: 1 residual" in checked.stdout, checked.stdout
    assert f"subnets.json:5:13: residual (tied-length): {total}" in checked.stdout, checked.stdout
    moved = ipaddress.ip_network(new)
    record = json.loads((root / "subnets.json").read_text())["lab"]
    assert record == {"cidr": new, "usable_hosts": moved.num_addresses - 2, "size": total}  # `size`: left
    assert f"usable_hosts = {moved.num_addresses - 2}\n" in (root / "vars.tf").read_text()
    row = next(csv.DictReader((root / "ipam.csv").read_text().splitlines()))
    assert ipaddress.ip_network(f"{row['network']}/{row['prefix_length']}") == moved
    assert int(row["usable_hosts"]) == moved.num_addresses - 2
    subnets = yaml.safe_load((root / "subnets.yaml").read_text())["subnets"]
    assert subnets[0]["usable_hosts"] == moved.num_addresses - 2
    assert subnets[0]["total_addresses"] == moved.num_addresses
    assert subnets[1]["hosts"] == 3
    assert f"| lab | {new} | {moved.num_addresses - 2} |" in (root / "subnets.md").read_text()


@pytest.mark.parametrize(("old", "new"), [
    ("2001:db8:a::/48", "2001:db8:a::/52"),  # the finding
    ("2001:db8:a::/48", "2001:db8:a::/56"),
    ("2001:db8:a:10::/64", "2001:db8:a:10::/60"),  # a grow
])
def test_subnets_64_beside_a_resized_ipv6_network_follow(run: Run, tmp_path: Path, old: str, new: str) -> None:
    old_64 = 2 ** (64 - ipaddress.ip_network(old).prefixlen)
    root = _repo(tmp_path, {"subnets.yaml": f"site6:\n  cidr: {old}\n  subnets_64: {old_64}\n"}, f"{old}: {new}")
    _written(run, root)
    record = yaml.safe_load((root / "subnets.yaml").read_text())["site6"]
    assert record["subnets_64"] == 2 ** (64 - ipaddress.ip_network(record["cidr"]).prefixlen)


def test_a_written_record_with_the_old_count_fails_verify(run: Run, tmp_path: Path) -> None:
    """The new network beside the old count (main's output): a `tied-length` residual, verify fails."""
    files = {"subnets.yaml": "lab:\n  cidr: 10.0.60.0/22\n  usable_hosts: 254\n",
             "subnets.md": "| Name | CIDR | Hosts |\n| --- | --- | --- |\n| lab | 10.0.60.0/22 | 254 |\n"}
    root = _repo(tmp_path, files, "10.0.48.0/24: 10.0.60.0/22")
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1, checked.stdout
    assert "subnets.yaml:3:17: residual (tied-length): 254" in checked.stdout, checked.stdout
    assert "subnets.md:3:24: residual (tied-length): 254" in checked.stdout, checked.stdout


# -- 14: a column headed `broadcast` ------------------------------------------------------------------

@pytest.mark.parametrize(("old", "new"), [
    ("10.0.48.0/24", "10.0.60.0/22"),  # the finding
    ("10.0.48.0/29", "10.0.48.0/28"),  # in place
    ("10.0.48.0/23", "10.0.48.0/24"),  # a shrink
])
def test_a_broadcast_column_is_read_as_the_key_is(run: Run, tmp_path: Path, old: str, new: str) -> None:
    """CSV `broadcast` and Markdown `Broadcast` columns: the old broadcast address rewritten to the
    new network's, no residual (exit 0), as the YAML `broadcast:` key beside them."""
    net, moved = ipaddress.ip_network(old), ipaddress.ip_network(new)
    files = {"ipam.csv": f"network,prefix_length,broadcast\n{net.network_address},{net.prefixlen},"
                         f"{net.broadcast_address}\n",
             "subnets.md": f"| Name | CIDR | Broadcast |\n| --- | --- | --- |\n| lab | {old} | {net.broadcast_address} |\n",
             "control.yaml": f"lab:\n  cidr: {old}\n  broadcast: {net.broadcast_address}\n"}
    root = _repo(tmp_path, files, f"{old}: {new}")
    dry = run(root, "sweep", "--dry-run", "--strict")
    assert dry.exit_code == 0, dry.stdout + dry.stderr
    _written(run, root)
    row = next(csv.DictReader((root / "ipam.csv").read_text().splitlines()))
    assert ipaddress.ip_address(row["broadcast"]) == moved.broadcast_address
    assert f"| {new} | {moved.broadcast_address} |" in (root / "subnets.md").read_text()
    assert yaml.safe_load((root / "control.yaml").read_text())["lab"]["broadcast"] == str(moved.broadcast_address)


def test_the_old_broadcast_address_under_another_header_stays_a_residual(run: Run, tmp_path: Path) -> None:
    """A column headed `gateway` holding 10.0.48.255: nothing says broadcast, the residual stays."""
    root = _repo(tmp_path, {"ipam.csv": "network,prefix_length,gateway\n10.0.48.0,24,10.0.48.255\n"},
                 "10.0.48.0/24: 10.0.60.0/22")
    dry = run(root, "sweep", "--dry-run", "--strict")
    assert dry.exit_code == 1, dry.stdout + dry.stderr
    assert "its line does not say `broadcast`" in dry.stdout + dry.stderr
