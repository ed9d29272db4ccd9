"""Per-node and per-subnet lengths tied to a pool a resize makes too small (t32-33 findings 05, 06, 17,
18), end to end on real git repos: kubespray's `kube_network_node_prefix` (prefix_pools._KUBE), Docker's
`default-address-pools` `size`, swarm's `--default-addr-pool-mask-length`, OpenShift's `hostPrefix`,
Talos's `podSubnets` with `node-cidr-mask-size`, Pulumi awsx and AWS CDK `cidrMask` (tied_lengths.py).

Before: each pool was rewritten and its length left, sweep 0, verify OK (a pool shorter than one
unit). Now a length the new pool cannot hold once refuses the sweep (exit 3, nothing written, the
file and line named); a shrink that leaves fewer units is a `tied-length` residual on the pool
(exit 1, the pool left with its length), and verify says so; a grow follows with no word. None of
these tools is installed: their documented rule (units = 2 ** (length - pool length), at least one)
is checked in Python on what is written, parsed with yaml/json.
"""

from __future__ import annotations

import ipaddress
import json
import re
import tempfile
from pathlib import Path

import pytest
import yaml

from tests.testing.repos import Run, make_repo, snapshot

ALLOW = 'version: 1\ncurrent: ["**"]\n'


def _repo(tmp: Path, files: dict[str, str], networks: str) -> Path:
    config = f"version: 1\nrenames:\n  networks: {{{networks}}}\nallowlist: allow.yaml\n"
    return make_repo(Path(tempfile.mkdtemp(dir=tmp)) / "repo", files, config=config, allowlist=ALLOW)


def _units(pool: str, length: int) -> int:
    net = ipaddress.ip_network(pool, strict=False)
    return 2 ** (length - net.prefixlen) if length >= net.prefixlen else 0


def _refused(run: Run, root: Path, wanted: list[str]) -> str:
    before = snapshot(root)
    dry = run(root, "sweep", "--dry-run", "--strict")
    assert dry.exit_code == 3, dry.stdout + dry.stderr
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert snapshot(root) == before
    for text in wanted:
        assert text in done.stderr, (text, done.stderr)
    assert "Traceback" not in done.stderr
    verify = run(root, "verify", "--strict")
    assert verify.exit_code == 1, verify.stdout  # never OK on a repo the sweep refused
    return done.stderr


# -- 05: kubespray's inventory (the layout of inventory/sample/group_vars/k8s_cluster/k8s-cluster.yml) --

KUBESPRAY = """\
kube_service_addresses: 10.233.0.0/18

# internal network. When used, it will assign IP
# addresses from this range to individual pods.
kube_pods_subnet: 10.233.64.0/18

# internal network node size allocation (optional).
kube_network_node_prefix: 24
# Example: up to 128 nodes:
#  - kube_network_node_prefix: 25

kube_service_addresses_ipv6: fd85:ee78:d8a6:8607::1000/116
kube_pods_subnet_ipv6: fd85:ee78:d8a6:8607::1:0000/112
kube_network_node_prefix_ipv6: 120
"""
K8S = "inventory/group_vars/k8s_cluster/k8s-cluster.yml"


def _kubespray_nodes(root: Path) -> dict[str, int]:
    """kubespray's validate_inventory: 2 ** (kube_network_node_prefix - the pool's length) nodes."""
    v = yaml.safe_load((root / K8S).read_text())
    return {"v4": _units(v["kube_pods_subnet"], v["kube_network_node_prefix"]),
            "v6": _units(v["kube_pods_subnet_ipv6"], v["kube_network_node_prefix_ipv6"])}


@pytest.mark.parametrize("networks, lines", [
    pytest.param("10.233.64.0/18: 10.233.64.0/25, fd85:ee78:d8a6:8607::1:0/112: fd85:ee78:d8a6:8607::1:0/121",
                 [8, 14], id="repro-18-25-112-121"),
    pytest.param("10.233.64.0/18: 10.233.64.0/28", [8], id="v4-only-18-28"),
    pytest.param("fd85:ee78:d8a6:8607::1:0/112: fd85:ee78:d8a6:8607::1:0/124", [14], id="v6-only-112-124"),
])
def test_kubespray_node_prefix_a_shrink_passes_refuses(run: Run, tmp_path: Path, networks: str,
                                                        lines: list[int]) -> None:
    root = _repo(tmp_path, {K8S: KUBESPRAY}, networks)
    err = _refused(run, root, [f"{K8S}:{n}: tool-refuses: kubespray's kube_network_node_prefix" for n in lines])
    assert "set it by hand" in err
    assert f"{K8S}:10:" not in err  # the commented-out example is read by no tool


def test_kubespray_node_prefix_a_shrink_leaves_valid_is_a_residual_and_a_grow_follows(run: Run,
                                                                                       tmp_path: Path) -> None:
    root = _repo(tmp_path, {K8S: KUBESPRAY}, "10.233.64.0/18: 10.233.64.0/20")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / K8S).read_text() == KUBESPRAY  # the pool left with its node prefix
    out = run(root, "verify", "--strict")
    assert out.exit_code == 1
    assert (f"{K8S}:5:19: residual (tied-length): 10.233.64.0/18") in out.stdout, out.stdout
    assert "kube_network_node_prefix 24 (line 8) is tied to the pool 10.233.64.0/18, which holds 64 /24 ranges, " \
           "as 10.233.64.0/20 it would hold 16" in out.stdout, out.stdout
    assert "(line 10)" not in out.stdout  # never the comment's 25
    root = _repo(tmp_path, {K8S: KUBESPRAY}, "10.233.64.0/18: 10.240.0.0/16")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert "kube_pods_subnet: 10.240.0.0/16\n" in (root / K8S).read_text()
    assert _kubespray_nodes(root) == {"v4": 256, "v6": 256}
    assert run(root, "verify", "--strict").exit_code == 0


# -- 06: Docker's default-address-pools --------------------------------------------------------------

DAEMON = ('{\n  "default-address-pools": [\n    {"base": "10.0.48.0/20", "size": 24},\n'
          '    {"base": "2001:db8:a::/48", "size": 64}\n  ]\n}\n')
DAEMON_VARS = ("docker_daemon_options:\n  default-address-pools:\n    - base: 10.0.48.0/20\n      size: 24\n"
               "    - base: 10.9.0.0/16\n      size: 24\n")
DOCKERD = "ExecStart=/usr/bin/dockerd --default-address-pool base=10.0.48.0/20,size=24\n"


def test_docker_pool_size_a_shrink_passes_refuses(run: Run, tmp_path: Path) -> None:
    files = {"daemon.json": DAEMON, "group_vars/all.yml": DAEMON_VARS, "docker.service": DOCKERD}
    root = _repo(tmp_path, files, "10.0.48.0/20: 10.0.48.0/27")
    err = _refused(run, root, ["daemon.json:3: tool-refuses: Docker's default-address-pools size 24 is tied to the "
                               "pool 10.0.48.0/20, which becomes 10.0.48.0/27: no /24 fits in a /27",
                               "group_vars/all.yml:4: tool-refuses: Docker's default-address-pools size 24",
                               "docker.service:1: tool-refuses: Docker's default-address-pools size 24"])
    assert "group_vars/all.yml:6" not in err  # the second pool's size is its own base's (10.9.0.0/16)


def test_docker_pool_size_a_shrink_leaves_valid_is_a_residual(run: Run, tmp_path: Path) -> None:
    """The repro's IPv6 pool: /48 -> /60 under size 64 carves 16 /64s, not 65536."""
    root = _repo(tmp_path, {"daemon.json": DAEMON}, "2001:db8:a::/48: 2001:db8:a::/60, 10.0.48.0/20: 10.0.48.0/22")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    pools = json.loads((root / "daemon.json").read_text())["default-address-pools"]
    assert pools == [{"base": "10.0.48.0/20", "size": 24}, {"base": "2001:db8:a::/48", "size": 64}]
    out = run(root, "verify", "--strict").stdout
    assert "daemon.json:3:15: residual (tied-length): 10.0.48.0/20" in out, out
    assert "daemon.json:4:15: residual (tied-length): 2001:db8:a::/48" in out, out
    assert "which holds 65536 /64 units, as 2001:db8:a::/60 it would hold 16" in out, out


def test_docker_pool_size_follows_a_grow_and_ignores_other_objects(run: Run, tmp_path: Path) -> None:
    other = '{"networks": [{"cidr": "10.0.48.0/20"}, {"base": "10.9.0.0/16", "size": 24}]}\n'
    root = _repo(tmp_path, {"daemon.json": DAEMON, "other.json": other}, "10.0.48.0/20: 10.1.0.0/19")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    pools = json.loads((root / "daemon.json").read_text())["default-address-pools"]
    assert pools[0] == {"base": "10.1.0.0/19", "size": 24} and _units(pools[0]["base"], 24) == 32
    assert json.loads((root / "other.json").read_text())["networks"][0] == {"cidr": "10.1.0.0/19"}
    assert run(root, "verify", "--strict").exit_code == 0


# -- 17: OpenShift hostPrefix, Talos podSubnets + node-cidr-mask-size, docker swarm mask length -------

INSTALL_CONFIG = ("apiVersion: v1\nmetadata:\n  name: ocp\nnetworking:\n  clusterNetwork:\n  - cidr: 10.128.0.0/14\n"
                  "    hostPrefix: 23\n  machineNetwork:\n  - cidr: 10.0.0.0/16\n  networkType: OVNKubernetes\n")
TALOS = ("cluster:\n  network:\n    podSubnets:\n      - 10.128.0.0/14\n  controllerManager:\n    extraArgs:\n"
         "      node-cidr-mask-size: \"24\"\n")
SWARM = "docker swarm init --default-addr-pool 10.0.48.0/20 --default-addr-pool-mask-length 24\n"


def test_per_node_lengths_a_shrink_passes_refuse(run: Run, tmp_path: Path) -> None:
    files = {"install-config.yaml": INSTALL_CONFIG, "talos.yaml": TALOS, "swarm.sh": SWARM}
    root = _repo(tmp_path, files, "10.128.0.0/14: 10.128.0.0/25, 10.0.48.0/20: 10.0.48.0/27")
    _refused(run, root, ["install-config.yaml:7: tool-refuses: OpenShift's clusterNetwork hostPrefix 23 is tied "
                         "to the pool 10.128.0.0/14, which becomes 10.128.0.0/25",
                         "talos.yaml:7: tool-refuses: kube-controller-manager's node-cidr-mask-size 24 is tied to "
                         "the pool 10.128.0.0/14",
                         "swarm.sh:1: tool-refuses: docker swarm's --default-addr-pool-mask-length 24 is tied to "
                         "the pool 10.0.48.0/20, which becomes 10.0.48.0/27"])


def test_per_node_lengths_a_shrink_leaves_valid_are_residuals(run: Run, tmp_path: Path) -> None:
    """/14 -> /16 under hostPrefix 23: 128 node subnets, was 512; the machine network's cidr is no pool of it."""
    files = {"install-config.yaml": INSTALL_CONFIG, "talos.yaml": TALOS, "swarm.sh": SWARM}
    root = _repo(tmp_path, files, "10.128.0.0/14: 10.128.0.0/16, 10.0.48.0/20: 10.0.48.0/22")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    for name, text in files.items():
        assert (root / name).read_text() == text, name
    out = run(root, "verify", "--strict").stdout
    assert "install-config.yaml:6:11: residual (tied-length): 10.128.0.0/14" in out, out
    assert "hostPrefix 23 (line 7) is tied to the pool 10.128.0.0/14, which holds 512 /23 units, as " \
           "10.128.0.0/16 it would hold 128" in out, out
    assert "talos.yaml:4:9: residual (tied-length): 10.128.0.0/14" in out, out
    assert "swarm.sh:1:39: residual (tied-length): 10.0.48.0/20" in out, out
    net = yaml.safe_load((root / "install-config.yaml").read_text())["networking"]
    assert net["machineNetwork"] == [{"cidr": "10.0.0.0/16"}]


def test_per_node_lengths_follow_a_grow(run: Run, tmp_path: Path) -> None:
    files = {"install-config.yaml": INSTALL_CONFIG, "talos.yaml": TALOS, "swarm.sh": SWARM}
    root = _repo(tmp_path, files, "10.128.0.0/14: 10.128.0.0/13, 10.0.48.0/20: 10.1.0.0/19")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    cluster = yaml.safe_load((root / "install-config.yaml").read_text())["networking"]["clusterNetwork"][0]
    assert cluster == {"cidr": "10.128.0.0/13", "hostPrefix": 23} and _units(cluster["cidr"], 23) == 1024
    talos = yaml.safe_load((root / "talos.yaml").read_text())["cluster"]
    assert talos["network"]["podSubnets"] == ["10.128.0.0/13"]
    assert "--default-addr-pool 10.1.0.0/19 --default-addr-pool-mask-length 24" in (root / "swarm.sh").read_text()
    assert run(root, "verify", "--strict").exit_code == 0


# -- 18: Pulumi awsx and AWS CDK subnet masks inside the VPC's block ----------------------------------

AWSX = ('import * as awsx from "@pulumi/awsx";\nconst vpc = new awsx.ec2.Vpc("lan", {\n    cidrBlock: "10.0.48.0/24",\n'
        "    numberOfAvailabilityZones: 2,\n    subnetSpecs: [{ type: awsx.ec2.SubnetType.Public, cidrMask: 26 }],\n});\n")
CDK = ('from aws_cdk import aws_ec2 as ec2\nvpc = ec2.Vpc(self, "Lan",\n'
       '    ip_addresses=ec2.IpAddresses.cidr("10.0.48.0/24"),\n    max_azs=2,\n'
       '    subnet_configuration=[ec2.SubnetConfiguration(name="pub", subnet_type=ec2.SubnetType.PUBLIC, '
       'cidr_mask=26)])\n')
PULUMI_YAML = ("resources:\n  vpc:\n    type: awsx:ec2:Vpc\n    properties:\n      cidrBlock: 10.0.48.0/24\n"
               "      subnetSpecs:\n        - type: Public\n          cidrMask: 26\n")


def test_vpc_subnet_masks_a_shrink_passes_refuse(run: Run, tmp_path: Path) -> None:
    files = {"index.ts": AWSX, "app.py": CDK, "Pulumi.yaml": PULUMI_YAML}
    root = _repo(tmp_path, files, "10.0.48.0/24: 10.0.48.0/27")
    _refused(run, root, [f"{name}:{line}: tool-refuses: the VPC's subnet cidrMask (Pulumi awsx, AWS CDK) 26 is tied "
                         "to the pool 10.0.48.0/24, which becomes 10.0.48.0/27: no /26 fits in a /27"
                         for name, line in (("index.ts", 5), ("app.py", 5), ("Pulumi.yaml", 8))])


def test_vpc_subnet_masks_a_shrink_leaves_valid_are_residuals_and_a_grow_follows(run: Run, tmp_path: Path) -> None:
    files = {"index.ts": AWSX, "app.py": CDK, "Pulumi.yaml": PULUMI_YAML}
    root = _repo(tmp_path, files, "10.0.48.0/24: 10.0.48.0/25")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    for name, text in files.items():
        assert (root / name).read_text() == text
    out = run(root, "verify", "--strict").stdout
    for where in ("index.ts:3:17", "app.py:3:40", "Pulumi.yaml:5:18"):
        assert f"{where}: residual (tied-length): 10.0.48.0/24" in out, out
    assert "which holds 4 /26 units, as 10.0.48.0/25 it would hold 2" in out
    root = _repo(tmp_path, files, "10.0.48.0/24: 10.0.48.0/23")
    assert run(root, "sweep", "--commit").exit_code == 0
    for name in files:
        block = re.search(r"10\.0\.48\.0/(\d+)", (root / name).read_text())
        assert block is not None and block.group(1) == "23" and _units(block.group(), 26) == 8, name
    assert run(root, "verify", "--strict").exit_code == 0


# -- the class: other spellings of a per-node length beside its pool ----------------------------------

OTHERS = {
    "antrea.yaml": "nodeIPAM:\n  enableNodeIPAM: true\n  clusterCIDRs: [\"10.0.48.0/20\"]\n  nodeCIDRMaskSizeIPv4: 24\n",
    "rke2.yaml": "cluster-cidr: 10.0.48.0/20\nkube-controller-manager-arg:\n  - \"node-cidr-mask-size=24\"\n",
    "cdk.ts": ("const vpc = new ec2.Vpc(this, 'Lan', {\n  ipAddresses: ec2.IpAddresses.cidr('10.0.48.0/20'),\n"
               "  subnetConfiguration: [\n    { name: 'pub', subnetType: ec2.SubnetType.PUBLIC, cidrMask: 24 },\n  ],\n});\n"),
    "clustercidr.yaml": ("apiVersion: networking.k8s.io/v1alpha1\nkind: ClusterCIDR\nmetadata:\n  name: pods\nspec:\n"
                         "  perNodeHostBits: 8\n  ipv4: 10.0.48.0/20\n"),
}


def test_other_spellings_of_a_per_node_length(run: Run, tmp_path: Path) -> None:
    """Antrea's nodeCIDRMaskSizeIPv4 beside clusterCIDRs, RKE2's controller-manager argument, CDK in
    TypeScript, and a ClusterCIDR's perNodeHostBits (8 host bits: a /24 a node) under /20 -> /27:
    refused; under /20 -> /22 residuals (4 /24s instead of 16)."""
    root = _repo(tmp_path, OTHERS, "10.0.48.0/20: 10.0.48.0/27")
    err = _refused(run, root, ["antrea.yaml:4: tool-refuses: kube-controller-manager's node-cidr-mask-size 24",
                               "rke2.yaml:3: tool-refuses: kube-controller-manager's node-cidr-mask-size 24",
                               "cdk.ts:4: tool-refuses: the VPC's subnet cidrMask (Pulumi awsx, AWS CDK) 24",
                               "clustercidr.yaml:6: tool-refuses: Kubernetes ClusterCIDR's perNodeHostBits 8 (a /24 "
                               "per node), the length 24 is tied to the pool 10.0.48.0/20"])
    assert "set it by hand (at most 5)" in err
    root = _repo(tmp_path, OTHERS, "10.0.48.0/20: 10.0.48.0/22")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    for name, text in OTHERS.items():
        assert (root / name).read_text() == text, name
    out = run(root, "verify", "--strict").stdout
    for where in ("antrea.yaml:3:19", "rke2.yaml:1:15", "cdk.ts:2:38", "clustercidr.yaml:7:9"):
        assert f"{where}: residual (tied-length): 10.0.48.0/20" in out, (where, out)
    spec = yaml.safe_load((root / "clustercidr.yaml").read_text())["spec"]
    assert _units(spec["ipv4"], 32 - spec["perNodeHostBits"]) == 16  # left as it was: 16 nodes


# -- t33-33 01: netlab's addressing pools (ipspace/netlab tests/topology/input/addressing-lan.yml) -----

NETLAB = """\
addressing:
  lan:
    ipv4:
    ipv6: 2001:db8:1::/48
  loopback.prefix: 30               # Check non-default loopback prefix length
  dualstack:
    ipv4: 172.17.0.0/16
    prefix: 25
    ipv6: 2001:db8:3::/48
    prefix6: 56
  short:
    ipv4: 172.18.0.0/16
    prefix: 28
    allocation: sequential
links:
- name: Link with static dual-stack prefix
  prefix:
    ipv4: 172.42.32.0/22
"""


def _netlab_links(root: Path) -> dict[str, int]:
    """netlab's create_pool_generators: `subnets(new_prefix=prefix)` of each pool (0: netlab's check fails)."""
    pools = yaml.safe_load((root / "topology.yml").read_text())["addressing"]
    return {name: _units(pools[name]["ipv4"], pools[name]["prefix"]) for name in ("dualstack", "short")}


def test_netlab_pool_prefix_a_shrink_passes_refuses(run: Run, tmp_path: Path) -> None:
    root = _repo(tmp_path, {"topology.yml": NETLAB},
                 "172.17.0.0/16: 172.17.0.0/26, 172.18.0.0/16: 172.18.0.0/30, 2001:db8:3::/48: 2001:db8:3::/60")
    err = _refused(run, root, ["topology.yml:8: tool-refuses: netlab's addressing pool prefix 25 is tied to the pool "
                               "172.17.0.0/16, which becomes 172.17.0.0/26: no /25 fits in a /26",
                               "topology.yml:13: tool-refuses: netlab's addressing pool prefix 28",
                               "topology.yml:10: tool-refuses: netlab's addressing pool prefix6 56 is tied to the "
                               "pool 2001:db8:3::/48, which becomes 2001:db8:3::/60"])
    assert "topology.yml:5" not in err  # the dotted loopback.prefix names no pool of these


def test_netlab_pool_prefix_fewer_links_is_a_residual_and_a_grow_follows(run: Run, tmp_path: Path) -> None:
    """/16 -> /23 under prefix 25: 4 link subnets instead of 512; a grow to a /15: 1024, with no word."""
    root = _repo(tmp_path, {"topology.yml": NETLAB}, "172.17.0.0/16: 172.17.0.0/23")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "topology.yml").read_text() == NETLAB
    out = run(root, "verify", "--strict")
    assert out.exit_code == 1
    assert "topology.yml:7:11: residual (tied-length): 172.17.0.0/16 [addressing.dualstack.ipv4]: netlab's " \
           "addressing pool prefix 25 (line 8) " \
           "is tied to the pool 172.17.0.0/16, which holds 512 /25 units, as 172.17.0.0/23 it would hold 4" \
           in out.stdout, out.stdout
    root = _repo(tmp_path, {"topology.yml": NETLAB}, "172.17.0.0/16: 172.20.0.0/15, 172.18.0.0/16: 172.22.0.0/16")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert _netlab_links(root) == {"dualstack": 1024, "short": 4096}
    assert "ipv4: 172.42.32.0/22" in (root / "topology.yml").read_text()
    assert run(root, "verify", "--strict").exit_code == 0


# -- t33-33 04: OpenStack subnet pools, Cilium multi-pool, AWS VPC IPAM --------------------------------

SUBNETPOOL_TF = """\
resource "openstack_networking_subnetpool_v2" "lan" {
  name              = "lan"
  prefixes          = ["10.0.48.0/24"]
  default_prefixlen = 28
  min_prefixlen     = 28
  max_prefixlen     = 30
}
resource "openstack_networking_subnetpool_v2" "lan6" {
  name              = "lan6"
  ip_version        = 6
  prefixes          = ["2001:db8:a::/48"]
  default_prefixlen = 56
  min_prefixlen     = 56
}
"""
IPAM = """\
resource "aws_vpc_ipam_pool" "lan" {
  address_family                    = "ipv4"
  ipam_scope_id                     = aws_vpc_ipam.main.private_default_scope_id
  allocation_default_netmask_length = 28
  allocation_min_netmask_length     = 28
}
resource "aws_vpc_ipam_pool_cidr" "lan" {
  ipam_pool_id = aws_vpc_ipam_pool.lan.id
  cidr         = "10.0.48.0/24"
}
"""
POOLS_SH = "openstack subnet pool create --pool-prefix 10.0.48.0/24 --default-prefix-length 28 lan\n"
MULTIPOOL = """\
apiVersion: cilium.io/v2alpha1
kind: CiliumPodIPPool
metadata:
  name: lan
spec:
  ipv4:
    cidrs:
      - 10.0.48.0/24
    maskSize: 28
  ipv6:
    cidrs:
      - 2001:db8:a::/48
    maskSize: 56
"""
CFN_IPAM = """\
Resources:
  LanPool:
    Type: AWS::EC2::IPAMPool
    Properties:
      AddressFamily: ipv4
      AllocationDefaultNetmaskLength: 28
      ProvisionedCidrs:
        - Cidr: 10.0.48.0/24
"""
ALLOCATORS = {"subnetpool.tf": SUBNETPOOL_TF, "ipam.tf": IPAM, "pools.sh": POOLS_SH, "multipool.yaml": MULTIPOOL,
              "ipam.yaml": CFN_IPAM}


def test_allocator_lengths_a_shrink_passes_refuses(run: Run, tmp_path: Path) -> None:
    """The repro's /24 -> /29 and /48 -> /60: every pool shorter than one allocation."""
    root = _repo(tmp_path, ALLOCATORS, "10.0.48.0/24: 10.0.48.0/29, 2001:db8:a::/48: 2001:db8:a::/60")
    err = _refused(run, root, [
        "subnetpool.tf:4: tool-refuses: the OpenStack subnet pool's prefix length 28 is tied to the pool "
        "10.0.48.0/24, which becomes 10.0.48.0/29: no /28 fits in a /29",
        "subnetpool.tf:5: tool-refuses:", "subnetpool.tf:12: tool-refuses:", "subnetpool.tf:13: tool-refuses:",
        "pools.sh:1: tool-refuses: the OpenStack subnet pool's prefix length 28",
        "ipam.tf:4: tool-refuses: the AWS VPC IPAM pool's allocation netmask length 28 is tied to the pool "
        "10.0.48.0/24", "ipam.tf:5: tool-refuses:",
        "ipam.yaml:6: tool-refuses: the AWS VPC IPAM pool's allocation netmask length 28",
        "multipool.yaml:9: tool-refuses: Cilium's CiliumPodIPPool maskSize 28 is tied to the pool 10.0.48.0/24",
        "multipool.yaml:13: tool-refuses: Cilium's CiliumPodIPPool maskSize 56 is tied to the pool 2001:db8:a::/48, "
        "which becomes 2001:db8:a::/60: no /56 fits in a /60"])
    assert "subnetpool.tf:6" not in err  # max_prefixlen is a bound, no allocation's length


def test_allocator_lengths_fewer_are_residuals_and_a_grow_follows(run: Run, tmp_path: Path) -> None:
    """/24 -> /26 under 28: 4 allocations, were 16 (and /48 -> /52 under 56: 16, were 256); a grow
    (/24 -> /22, /48 -> /44) follows and each pool still holds its allocations."""
    root = _repo(tmp_path, ALLOCATORS, "10.0.48.0/24: 10.0.48.0/26, 2001:db8:a::/48: 2001:db8:a::/52")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    for name, text in ALLOCATORS.items():
        assert (root / name).read_text() == text, name
    out = run(root, "verify", "--strict").stdout
    for where in ("subnetpool.tf:3:25", "subnetpool.tf:11:25", "ipam.tf:9:19", "pools.sh:1:44",
                  "multipool.yaml:8:9", "multipool.yaml:12:9", "ipam.yaml:8:17"):
        assert f"{where}: residual (tied-length):" in out, (where, out)
    assert "which holds 16 /28 units, as 10.0.48.0/26 it would hold 4" in out
    root = _repo(tmp_path, ALLOCATORS, "10.0.48.0/24: 10.0.48.0/22, 2001:db8:a::/48: 2001:db8:10::/44")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    spec = yaml.safe_load((root / "multipool.yaml").read_text())["spec"]
    assert _units(spec["ipv4"]["cidrs"][0], spec["ipv4"]["maskSize"]) == 64
    assert _units(spec["ipv6"]["cidrs"][0], spec["ipv6"]["maskSize"]) == 4096
    assert 'cidr         = "10.0.48.0/22"' in (root / "ipam.tf").read_text()
    assert "--pool-prefix 10.0.48.0/22 --default-prefix-length 28" in (root / "pools.sh").read_text()
    assert run(root, "verify", "--strict").exit_code == 0
