"""Issue 33, round 7 (outside tester), themes 1, 2 and 4, end to end on real git repos through the
CLI: Kubernetes node masks and pools in the spellings the tools take (kubeadm v1beta4's `extraArgs`
list, a flag and its value apart, flannel's four-subnet rule and default SubnetLen,
kube-controller-manager's default mask), and lengths a tool refuses under keys and tools not known
before (OpenShift, AKS, RKE1, eksctl, k0s, Cluster API, GKE, Ansible, Pulumi, CDK, the aws CLI,
Bicep/ARM, Azure's named subnets, lists across lines). Each failed on main before (sweep 0, the file
rewritten to one its tool refuses or whose node count silently fell, verify OK). The tools are not
installed or need a cloud: their rules are checked in Python (yaml, json, ipaddress) as each states
them."""

from __future__ import annotations

import ipaddress
import json
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
    dry = run(root, "sweep", "--dry-run", "--strict")
    assert dry.exit_code == 3, dry.stdout + dry.stderr
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert snapshot(root) == before  # nothing written
    said = dry.stdout + done.stderr
    for place in places:
        assert place in said, (place, said)
    return str(said)


def _residual(run: Run, root: Path, *places: str) -> str:
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    out = run(root, "verify", "--strict")
    assert out.exit_code == 1, out.stdout
    for place in places:
        assert place in out.stdout, (place, out.stdout)
    return str(out.stdout)


# -- theme 1: node masks in every spelling --------------------------------------------------------

V1BETA4 = ("apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\nnetworking:\n"
           "  podSubnet: 10.244.0.0/16\n  serviceSubnet: 10.96.0.0/12\ncontrollerManager:\n  extraArgs:\n"
           "    - name: allocate-node-cidrs\n      value: \"true\"\n    - name: node-cidr-mask-size\n"
           "      value: \"24\"\n")
V1BETA4_FLOW = ("apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\nnetworking:\n"
                "  podSubnet: 10.244.0.0/16\ncontrollerManager:\n  extraArgs:\n"
                "  - {value: \"24\", name: node-cidr-mask-size-ipv4}\n")
SPLIT_ARGS = ("apiVersion: v1\nkind: Pod\nmetadata: {name: kube-controller-manager, namespace: kube-system}\n"
              "spec:\n  containers:\n  - name: kcm\n    command:\n    - kube-controller-manager\n"
              "    - --cluster-cidr\n    - 10.244.0.0/16\n    - --node-cidr-mask-size\n    - \"24\"\n")
DROPIN = ("[Service]\nEnvironment=\"KCM_ARGS=--allocate-node-cidrs=true --cluster-cidr 10.244.0.0/16 "
          "--node-cidr-mask-size 24\"\n")
MASKS = {"v1beta4.yaml": (V1BETA4, 11), "flow.yaml": (V1BETA4_FLOW, 7), "kcm.yaml": (SPLIT_ARGS, 12),
         "kcm.conf": (DROPIN, 2)}


@pytest.mark.parametrize("name", sorted(MASKS))
def test_a_node_mask_in_any_spelling_refuses_a_pool_shorter_than_it(run: Run, tmp_path: Path, name: str) -> None:
    """/16 -> /25: kube-controller-manager refuses a node mask 24 shorter than the cluster CIDR's:
    refused at the mask's line, nothing written. Before: the pool became /25, the mask stayed 24."""
    text, line = MASKS[name]
    root = _repo(tmp_path, {name: text}, "10.244.0.0/16: 10.244.0.0/25")
    _refused(run, root, f"{name}:{line}: tool-refuses: kube-controller-manager's node-cidr-mask-size 24 is tied "
                        "to the pool 10.244.0.0/16, which becomes 10.244.0.0/25")


@pytest.mark.parametrize("name", sorted(MASKS))
def test_a_node_mask_in_any_spelling_makes_a_shrink_a_residual(run: Run, tmp_path: Path, name: str) -> None:
    """/16 -> /20: 16 nodes a /24, not 256: the pool is a tied-length residual, left with its mask."""
    text, _ = MASKS[name]
    root = _repo(tmp_path, {name: text}, "10.244.0.0/16: 10.244.0.0/20")
    _residual(run, root, "residual (tied-length): 10.244.0.0/16", "holds 256 /24 ranges, as 10.244.0.0/20 it "
              "would hold 16, one a node")
    assert (root / name).read_text() == text


def test_a_node_mask_grown_with_its_pool_is_written(run: Run, tmp_path: Path) -> None:
    """/16 -> /15 (a grow): every spelling still valid, written, verify OK; the result parses."""
    root = _repo(tmp_path, {k: v for k, (v, _) in MASKS.items()}, "10.244.0.0/16: 10.244.0.0/15")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert run(root, "verify", "--strict").exit_code == 0
    config = yaml.safe_load((root / "v1beta4.yaml").read_text())
    assert config["networking"]["podSubnet"] == "10.244.0.0/15"
    mask = next(a["value"] for a in config["controllerManager"]["extraArgs"] if a["name"] == "node-cidr-mask-size")
    assert ipaddress.ip_network(config["networking"]["podSubnet"]).prefixlen <= int(mask)


KUBEADM_BARE = ("apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\nnetworking:\n"
                "  podSubnet: 10.244.0.0/16,fd00:10:244::/56\n  serviceSubnet: 10.96.0.0/12\n")
K3S = "cluster-cidr: 10.42.0.0/16\nservice-cidr: 10.43.0.0/16\n"
RKE1 = "nodes: []\nservices:\n  kube-controller:\n    cluster_cidr: 10.42.0.0/16\n"


def test_a_pool_with_the_default_node_mask_is_a_residual(run: Run, tmp_path: Path) -> None:
    """No node-cidr-mask-size in the file: kube-controller-manager's default /24 (/64) stands. /16 ->
    /25 leaves no /24 in the pool, /16 -> /20 16 of them, /56 -> /60 16 /64s: each pool a residual
    naming the default (the mask may be set elsewhere: never a refusal). A kube-proxy clusterCIDR
    allocates nothing: written."""
    root = _repo(tmp_path, {"kubeadm.yaml": KUBEADM_BARE, "k3s.yaml": K3S, "cluster.yml": RKE1},
                 "10.244.0.0/16: 10.244.0.0/25, 10.42.0.0/16: 10.42.0.0/20, fd00:10:244::/56: fd00:10:244::/60")
    out = _residual(run, root, "kubeadm.yaml:4:14: residual (tied-length): 10.244.0.0/16",
                    "kubeadm.yaml:4:28: residual (tied-length): fd00:10:244::/56",
                    "k3s.yaml:1:15: residual (tied-length): 10.42.0.0/16",
                    "cluster.yml:4:19: residual (tied-length): 10.42.0.0/16")
    assert "so kube-controller-manager's default /24 a node stands: no /24 fits in it" in out, out
    assert "default /64 a node stands: it would hold 16 /64 ranges, one a node, where fd00:10:244::/56 holds 256" \
        in out, out
    proxy = ("apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\n"
             "clusterCIDR: 10.42.0.0/16\n")
    root = _repo(tmp_path, {"proxy.yaml": proxy}, "10.42.0.0/16: 10.42.0.0/20")
    assert run(root, "sweep", "--commit").exit_code == 0


FLANNEL = ("kind: ConfigMap\napiVersion: v1\nmetadata: {name: kube-flannel-cfg, namespace: kube-flannel}\n"
           "data:\n  net-conf.json: |\n    {\n      \"Network\": \"10.244.0.0/16\",\n      \"SubnetLen\": 24,\n"
           "      \"IPv6Network\": \"fd00:10:244::/56\",\n      \"IPv6SubnetLen\": 64,\n"
           "      \"Backend\": {\"Type\": \"vxlan\"}\n    }\n")
NET_CONF = '{\n  "Network": "10.244.0.0/16",\n  "Backend": {"Type": "vxlan"}\n}\n'


def test_flannel_refuses_fewer_than_four_subnets(run: Run, tmp_path: Path) -> None:
    """flannel's CheckNetworkConfig: SubnetLen >= the Network's length + 2. /16 -> /23 with SubnetLen 24
    (two /24s), /56 -> /63 with IPv6SubnetLen 64: refused naming the rule. Before: a tied-length
    residual saying the network "would hold 2", a file flannel refuses to start with."""
    root = _repo(tmp_path, {"kube-flannel.yml": FLANNEL},
                 "10.244.0.0/16: 10.244.0.0/23, fd00:10:244::/56: fd00:10:244::/63")
    said = _refused(run, root, "kube-flannel.yml:8: tool-refuses: flannel's SubnetLen 24 is tied to the pool "
                               "10.244.0.0/16, which becomes 10.244.0.0/23",
                    "kube-flannel.yml:10: tool-refuses: flannel's IPv6SubnetLen 64 is tied to the pool "
                    "fd00:10:244::/56, which becomes fd00:10:244::/63")
    assert "\"network must be able to accommodate at least four subnets\"): set it by hand (at least 25)" in said
    conf = json.loads(yaml.safe_load(FLANNEL)["data"]["net-conf.json"])
    assert conf["SubnetLen"] < ipaddress.ip_network("10.244.0.0/23").prefixlen + 2  # the rule it stands for
    # /16 -> /22 leaves four: 64 /24 subnets where there were 256, a residual saying so
    root = _repo(tmp_path, {"kube-flannel.yml": FLANNEL}, "10.244.0.0/16: 10.244.0.0/22")
    _residual(run, root, "kube-flannel.yml:7:19: residual (tied-length): 10.244.0.0/16",
              "flannel's SubnetLen 24 (line 8) is tied to the pool 10.244.0.0/16, which holds 256 /24 subnets, as "
              "10.244.0.0/22 it would hold 4, one a node (flannel leaves the first unused)")


def test_flannel_with_no_subnet_len_takes_a_default_the_length_changes(run: Run, tmp_path: Path) -> None:
    """No SubnetLen: flannel gives each node /24 for a Network of /22 or shorter, else the length + 2,
    and refuses a Network longer than /28. /16 -> /23: each node's subnet would be a /25 (a residual
    saying so); /16 -> /29: refused; /16 -> /15: the default stays /24, written."""
    root = _repo(tmp_path, {"net-conf.json": NET_CONF}, "10.244.0.0/16: 10.244.0.0/23")
    _residual(run, root, "net-conf.json:2:15: residual (tied-length): 10.244.0.0/16",
              "flannel's Network 10.244.0.0/16 sets no SubnetLen, so each node gets flannel's default /24 (256 "
              "of them); as 10.244.0.0/23 the default is /25 (4 of them")
    root = _repo(tmp_path, {"net-conf.json": NET_CONF}, "10.244.0.0/16: 10.244.0.0/29")
    _refused(run, root, "net-conf.json:2: tool-refuses: flannel's Network 10.244.0.0/16 becomes 10.244.0.0/29, "
                        "and flannel refuses a network longer than /28")
    root = _repo(tmp_path, {"net-conf.json": NET_CONF}, "10.244.0.0/16: 10.244.0.0/15")
    assert run(root, "sweep", "--commit").exit_code == 0
    assert json.loads((root / "net-conf.json").read_text())["Network"] == "10.244.0.0/15"


# -- theme 2: lengths a tool refuses, under keys and tools not known before -------------------------

SVC = "10.96.0.0/16: 10.96.0.0/11"
LIMITED = {
    "openshift": ({"install-config.yaml": "apiVersion: v1\nnetworking:\n  networkType: OVNKubernetes\n"
                   "  serviceNetwork:\n  - 10.96.0.0/16\n"}, SVC, "install-config.yaml:5", "kube-apiserver"),
    "aks-terraform": ({"aks.tf": 'resource "azurerm_kubernetes_cluster" "k" {\n  network_profile {\n'
                       '    network_plugin = "azure"\n    service_cidr   = "10.96.0.0/16"\n  }\n}\n'},
                      SVC, "aks.tf:4", "kube-apiserver"),
    "aks-bicep": ({"aks.bicep": "resource aks 'Microsoft.ContainerService/managedClusters@2024-02-01' = {\n"
                   "  properties: {\n    networkProfile: {\n      serviceCidr: '10.96.0.0/16'\n    }\n  }\n}\n"},
                  SVC, "aks.bicep:4", "kube-apiserver"),
    "rke1": ({"cluster.yml": "services:\n  kube-api:\n    service_cluster_ip_range: 10.96.0.0/16\n"}, SVC,
             "cluster.yml:3", "kube-apiserver"),
    "k0s": ({"k0s.yaml": "apiVersion: k0s.k0sproject.io/v1beta1\nkind: ClusterConfig\nspec:\n  network:\n"
             "    serviceCIDR: 10.96.0.0/16\n"}, SVC, "k0s.yaml:5", "kube-apiserver"),
    "cluster-api": ({"cluster.yaml": "apiVersion: cluster.x-k8s.io/v1beta1\nkind: Cluster\nspec:\n"
                     "  clusterNetwork:\n    pods:\n      cidrBlocks: [\"192.168.0.0/16\"]\n    services:\n"
                     "      cidrBlocks:\n        - 10.96.0.0/16\n"}, SVC, "cluster.yaml:9", "kube-apiserver"),
    "eksctl-vpc": ({"cluster.yaml": "apiVersion: eksctl.io/v1alpha5\nkind: ClusterConfig\nvpc:\n"
                    "  cidr: 10.10.0.0/16\n"}, "10.10.0.0/16: 10.10.0.0/15", "cluster.yaml:4", "AWS"),
    "eksctl-service": ({"cluster.yaml": "apiVersion: eksctl.io/v1alpha5\nkind: ClusterConfig\n"
                        "kubernetesNetworkConfig:\n  serviceIPv4CIDR: 172.20.0.0/16\n"},
                       "172.20.0.0/16: 172.20.0.0/25", "cluster.yaml:4", "AWS EKS"),
    "gke": ({"gke.tf": 'resource "google_container_cluster" "c" {\n  private_cluster_config {\n'
             '    master_ipv4_cidr_block = "172.16.0.0/28"\n  }\n}\n'}, "172.16.0.0/28: 172.16.0.0/27",
            "gke.tf:3", "GKE"),
    "ansible-vpc": ({"vpc.yml": "- hosts: localhost\n  tasks:\n    - name: vpc\n      amazon.aws.ec2_vpc_net:\n"
                     "        name: main\n        cidr_block: 10.10.0.0/16\n"}, "10.10.0.0/16: 10.10.0.0/15",
                    "vpc.yml:6", "AWS"),
    "ansible-subnet": ({"subnet.yml": "- hosts: localhost\n  tasks:\n    - ec2_vpc_subnet:\n        vpc_id: v\n"
                        "        cidr: 10.10.1.0/28\n"}, "10.10.1.0/28: 10.10.1.0/29", "subnet.yml:5", "AWS"),
    "ansible-azure": ({"az.yml": "- hosts: localhost\n  tasks:\n    - azure.azcollection.azure_rm_subnet:\n"
                       "        name: app\n        address_prefix_cidr: 10.10.1.0/29\n"},
                      "10.10.1.0/29: 10.10.1.0/30", "az.yml:5", "Azure"),
    "pulumi-yaml": ({"Pulumi.yaml": "name: n\nruntime: yaml\nresources:\n  vpc:\n    type: aws:ec2:Vpc\n"
                     "    properties:\n      cidrBlock: 10.10.0.0/16\n"}, "10.10.0.0/16: 10.10.0.0/15",
                    "Pulumi.yaml:7", "AWS"),
    "pulumi-ts": ({"index.ts": 'import * as aws from "@pulumi/aws";\nconst vpc = new aws.ec2.Vpc("main", {\n'
                   '    cidrBlock: "10.10.0.0/16",\n});\n'}, "10.10.0.0/16: 10.10.0.0/15", "index.ts:3", "AWS"),
    "pulumi-python": ({"__main__.py": 'import pulumi_aws as aws\n\nvpc = aws.ec2.Vpc("main", cidr_block="10.10.0.0/16")\n'},
                      "10.10.0.0/16: 10.10.0.0/15", "__main__.py:3", "AWS"),
    "cdk": ({"stack.ts": "const vpc = new ec2.Vpc(this, 'Vpc', {\n  ipAddresses: ec2.IpAddresses.cidr('10.10.0.0/16'),\n"
             "});\n"}, "10.10.0.0/16: 10.10.0.0/15", "stack.ts:2", "AWS"),
    "aws-cli": ({"mk.sh": "#!/bin/sh\naws ec2 create-vpc \\\n  --cidr-block 10.10.0.0/16\n"},
                "10.10.0.0/16: 10.10.0.0/15", "mk.sh:3", "AWS"),
    "bicep-firewall": ({"net.bicep": "resource vnet 'Microsoft.Network/virtualNetworks@2023-04-01' = {\n"
                        "  name: 'v'\n  properties: {\n    addressSpace: {\n      addressPrefixes: [\n"
                        "        '10.0.0.0/16'\n      ]\n    }\n    subnets: [\n      {\n"
                        "        name: 'AzureFirewallSubnet'\n        properties: {\n"
                        "          addressPrefix: '10.0.1.0/26'\n        }\n      }\n    ]\n  }\n}\n"},
                       "10.0.1.0/26: 10.0.1.0/27", "net.bicep:13", "Azure"),
    "terraform-bastion": ({"b.tf": 'resource "azurerm_subnet" "b" {\n  name             = "AzureBastionSubnet"\n'
                           '  address_prefixes = ["10.0.2.0/26"]\n}\n'}, "10.0.2.0/26: 10.0.2.0/27", "b.tf:3",
                          "Azure"),
    "terraform-list-lines": ({"s.tf": 'resource "azurerm_subnet" "s" {\n  name = "app"\n  address_prefixes = [\n'
                              '    "10.0.3.0/29",\n  ]\n}\n'}, "10.0.3.0/29: 10.0.3.0/30", "s.tf:4", "Azure"),
    "arm-json-lines": ({"azuredeploy.json": '{\n  "resources": [\n    {\n'
                        '      "type": "Microsoft.Network/virtualNetworks/subnets",\n      "name": "v/s",\n'
                        '      "properties": {\n        "addressPrefixes": [\n          "10.0.3.0/29"\n'
                        '        ]\n      }\n    }\n  ]\n}\n'}, "10.0.3.0/29: 10.0.3.0/30", "azuredeploy.json:8",
                       "Azure"),
}


@pytest.mark.parametrize("case", sorted(LIMITED))
def test_a_length_the_tool_refuses_under_a_new_key(run: Run, tmp_path: Path, case: str) -> None:
    files, networks, place, tool = LIMITED[case]
    root = _repo(tmp_path, files, networks)
    _refused(run, root, f"{place}: tool-refuses: ", f"of a length {tool} refuses")


def test_the_same_keys_where_no_such_rule_holds_are_written(run: Run, tmp_path: Path) -> None:
    """A network ACL entry's --cidr-block, a security group's cidr_blocks, a Pulumi security group,
    a `subnets` entry named otherwise at /27, a YAML `cidr:` under no VPC: no rule, written, verify
    OK (each file still parses)."""
    files = {
        "acl.sh": "aws ec2 create-network-acl-entry --network-acl-id a --cidr-block 10.10.0.0/16 --rule-number 1\n",
        "sg.tf": 'resource "aws_security_group" "g" {\n  ingress {\n    cidr_blocks = [\n      "10.10.0.0/16",\n'
                 '    ]\n  }\n}\n',
        "Pulumi.yaml": "name: n\nruntime: yaml\nresources:\n  sg:\n    type: aws:ec2:SecurityGroup\n"
                       "    properties:\n      ingress:\n        - cidrBlocks: [10.10.0.0/16]\n",
        "app.json": '{"subnets": [{"name": "app", "properties": {"addressPrefix": "10.0.1.0/26"}}]}\n',
        "vars.yml": "lab:\n  cidr: 10.10.0.0/16\n",
    }
    root = _repo(tmp_path, files, "10.10.0.0/16: 10.10.0.0/15, 10.0.1.0/26: 10.0.1.0/27")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert run(root, "verify", "--strict").exit_code == 0
    assert json.loads((root / "app.json").read_text())["subnets"][0]["properties"]["addressPrefix"] == "10.0.1.0/27"
    assert yaml.safe_load((root / "vars.yml").read_text())["lab"]["cidr"] == "10.10.0.0/15"


def test_a_written_file_of_a_refused_length_fails_verify(run: Run, tmp_path: Path) -> None:
    """The new network already written by hand (a cutover before renamer): verify does not say OK."""
    files, networks, _, _ = LIMITED["bicep-firewall"]
    written = {k: v.replace("10.0.1.0/26", "10.0.1.0/27") for k, v in files.items()}
    root = _repo(tmp_path, written, networks)
    out = run(root, "verify", "--strict")
    assert out.exit_code != 0, out.stdout
    assert "net.bicep:13" in out.stdout + out.stderr


# -- theme 3: AKS Azure CNI capacity --------------------------------------------------------------

AKS = ('resource "azurerm_subnet" "aks" {\n  name                 = "aks-nodes"\n  virtual_network_name = "vnet"\n'
       '  address_prefixes     = ["10.0.48.0/22"]\n}\n\nresource "azurerm_kubernetes_cluster" "k" {\n'
       '  default_node_pool {\n    name           = "system"\n    node_count     = 3\n    max_pods       = 30\n'
       '    vnet_subnet_id = azurerm_subnet.aks.id\n  }\n  network_profile {\n    network_plugin = "azure"\n'
       '  }\n}\n\nresource "azurerm_kubernetes_cluster_node_pool" "user" {\n  enable_auto_scaling = true\n'
       '  max_count           = 10\n  max_pods            = 50\n  vnet_subnet_id      = azurerm_subnet.aks.id\n}\n')


def test_an_aks_node_subnet_a_shrink_leaves_too_small_is_a_residual(run: Run, tmp_path: Path) -> None:
    """Azure CNI: (3 + 1) x (30 + 1) + (10 + 1) x (50 + 1) = 685 addresses; the /22 holds 1019 after
    Azure's 5, a /23 507: a residual naming the sum, the subnet left. A /21 (a grow): written."""
    root = _repo(tmp_path, {"aks.tf": AKS}, "10.0.48.0/22: 10.0.48.0/23")
    out = _residual(run, root, "aks.tf:4:28: residual (tied-length): 10.0.48.0/22",
                    "(3 + 1) x (30 + 1) + (10 + 1) x (50 + 1) = 685", "10.0.48.0/23 holds 507")
    assert ipaddress.ip_network("10.0.48.0/23").num_addresses - 5 < 685 <= \
        ipaddress.ip_network("10.0.48.0/22").num_addresses - 5, out
    assert (root / "aks.tf").read_text() == AKS
    root = _repo(tmp_path, {"aks.tf": AKS}, "10.0.48.0/22: 10.0.48.0/21")
    assert run(root, "sweep", "--commit").exit_code == 0
    assert '["10.0.48.0/21"]' in (root / "aks.tf").read_text()
