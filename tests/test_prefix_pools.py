"""Pools and lengths tied to a resized network by a key of their own (prefix_pools.py), through the
Matcher: what each rule rewrites, refuses (`tool-refuses`, `outside-prefix`) or leaves as a
`tied-length` residual, before the sweep and in the file a sweep has written (t26-33 findings 05,
06, 11, 20)."""

from __future__ import annotations

import ipaddress

import pytest

from renamer.match import Matcher
from renamer.prefix_moves import OUTSIDE, PrefixMove
from renamer.prefix_pools import TIED, TOOL, delegated_ids, kube_lengths, pool_problem, subnet_ids


def _found(pairs: list[tuple[str, str]], text: str) -> list[tuple[str, str, str | None]]:
    matcher = Matcher(networks=[(ipaddress.ip_network(a), ipaddress.ip_network(b)) for a, b in pairs])
    return [(m.old, m.new, m.refused) for m in matcher.find(text.encode())]


def _move(old: str, new: str) -> PrefixMove:
    return PrefixMove(ipaddress.ip_network(old), ipaddress.ip_network(new))


@pytest.mark.parametrize(("old", "new", "offset", "size", "fits"), [
    ("192.168.1.0/24", "192.168.1.0/25", 100, 150, False),  # .100-.249 in a network ending at .127
    ("192.168.1.0/24", "192.168.1.0/25", 10, 100, True),
    ("192.168.1.0/24", "192.168.1.0/25", 10, 117, True),  # last host .126
    ("192.168.1.0/24", "192.168.1.0/25", 10, 118, False),  # .127: the /25's broadcast address
    ("192.168.1.0/24", "192.168.1.0/25", 100, None, True),  # up to the end: a smaller pool, still one
    ("192.168.1.0/24", "192.168.1.0/25", 127, None, False),
    ("10.0.48.0/23", "10.0.48.0/24", 100, 200, False),
    ("192.168.1.0/24", "10.1.0.0/22", 100, 150, True),  # a grow keeps every offset
    ("192.168.1.0/24", "192.168.1.0/25", 200, 100, True),  # no pool before either: not the move's doing
])
def test_a_pool_by_offset_and_size(old: str, new: str, offset: int, size: int | None, fits: bool) -> None:
    assert (pool_problem(_move(old, new), offset, size, "pool") is None) == fits


SHRINK = [("192.168.1.0/24", "192.168.1.0/25")]


@pytest.mark.parametrize(("text", "found"), [
    # networkd: the pool of the server's address (ServerAddress=, else the first Address=)
    ("[Network]\nAddress=192.168.1.1/24\n[DHCPServer]\nPoolOffset=100\nPoolSize=150\n",
     [("192.168.1.1/24", "192.168.1.1/25", None), ("150", "150", OUTSIDE)]),
    ("[Network]\nAddress=192.168.1.1/24\n[DHCPServer]\nPoolOffset=10\nPoolSize=100\n",
     [("192.168.1.1/24", "192.168.1.1/25", None)]),
    ("[Network]\nAddress=192.168.1.1/24\n[DHCPServer]\nPoolOffset=200\n",
     [("192.168.1.1/24", "192.168.1.1/25", None), ("200", "200", OUTSIDE)]),
    # after the sweep: the file names the new network, the pool still does not fit
    ("[Network]\nAddress=192.168.1.1/25\n[DHCPServer]\nPoolOffset=100\nPoolSize=150\n",
     [("150", "150", OUTSIDE)]),
    # the server's address is another network's: its pool
    ("[Network]\nAddress=192.168.1.1/24\n[DHCPServer]\nServerAddress=10.5.0.1/24\nPoolOffset=100\nPoolSize=150\n",
     [("192.168.1.1/24", "192.168.1.1/25", None)]),
])
def test_networkd_pools(text: str, found: list[tuple[str, str, str | None]]) -> None:
    assert _found(SHRINK, text) == found


KEA6 = ('{"Dhcp6": {"subnet6": [{"subnet": "PREFIX/48",\n'
        '  "pd-pools": [{"prefix": "PREFIX", "prefix-len": LEN, "delegated-len": 56}]}]}}\n')


@pytest.mark.parametrize(("new", "prefix", "length", "refused"), [
    ("2001:db8:a::/60", "2001:db8:a::", "48", TOOL),  # prefix-len 60 > delegated-len 56: Kea refuses
    ("2001:db8:b::/60", "2001:db8:a::", "48", TOOL),
    ("2001:db8:a::/56", "2001:db8:a::", "48", TIED),  # one /56 left of 256
    ("2001:db8:a::/47", "2001:db8:a::", "48", None),  # a grow: 512, followed as a length key
    ("2001:db8:a::/60", "2001:db8:a::", "60", TOOL),  # written already (by hand): still refused by Kea
    ("2001:db8:b::/56", "2001:db8:b::", "48", TIED),  # the prefix written, the length left: still a residual
    ("2001:db8:b::/56", "2001:db8:b::", "56", None),  # both written by hand: nothing to say
])
def test_kea_pd_pools(new: str, prefix: str, length: str, refused: str | None) -> None:
    text = KEA6.replace("PREFIX", prefix).replace("LEN", length)
    found = [f for f in _found([("2001:db8:a::/48", new)], text) if f[0] in ("48", "56", "60")]
    if prefix == str(ipaddress.ip_network(new).network_address) and prefix != "2001:db8:a::":
        # `"subnet": "2001:db8:b::/48"`: the new network declared with the old length, a mask residual
        # of its own (new_host_lengths.dhcp_subnets; t31-33, finding 12)
        assert found[0] == ("48", "48", "mask"), found
        found = found[1:]
    assert [f[2] for f in found] == ([refused] if refused is not None else [None] * len(found))
    if refused is None and found:
        assert found == [("48", "47", None)]


def test_kea_pd_pools_in_yaml() -> None:
    text = ("Dhcp6:\n  subnet6:\n    - subnet: 2001:db8:a::/48\n      pd-pools:\n        - prefix: \"2001:db8:a::\"\n"
            "          prefix-len: 48\n          delegated-len: 56\n")
    assert ("48", "48", TOOL) in _found([("2001:db8:a::/48", "2001:db8:b::/60")], text)


@pytest.mark.parametrize(("new", "refused"), [
    ("2001:db8:b:100::/56", TIED), ("2001:db8:a::/56", TIED), ("2001:db8:b::/60", TOOL)])
def test_a_pd_pool_prefix_is_held_with_its_length(new: str, refused: str) -> None:
    """t36-33 finding 15: the pool's `prefix` is held beside its `prefix-len`, never moved alone."""
    text = KEA6.replace("PREFIX", "2001:db8:a::").replace("LEN", "48")
    found = _found([("2001:db8:a::/48", new)], text)
    assert ("2001:db8:a::", "2001:db8:a::", refused) in found, found
    assert ("48", "48", refused) in found, found


KUBEADM = ("networking:\n  podSubnet: 10.244.0.0/16\n  serviceSubnet: 10.96.0.0/12\ncontrollerManager:\n"
           "  extraArgs:\n    node-cidr-mask-size: \"24\"\n")


@pytest.mark.parametrize(("pairs", "text", "found"), [
    # node mask: shorter than the new cluster CIDR: refused; valid but fewer nodes: the pool is left
    ([("10.244.0.0/16", "10.244.0.0/25")], KUBEADM,
     [("10.244.0.0/16", "10.244.0.0/25", None), ("24", "24", TOOL)]),
    ([("10.244.0.0/16", "10.244.0.0/20")], KUBEADM, [("10.244.0.0/16", "10.244.0.0/16", TIED)]),
    ([("10.244.0.0/16", "10.244.0.0/14")], KUBEADM, [("10.244.0.0/16", "10.244.0.0/14", None)]),
    # the service subnet moved: the node mask is the pod network's, not its
    ([("10.96.0.0/12", "10.96.0.0/16")], KUBEADM, [("10.96.0.0/12", "10.96.0.0/16", None)]),
    # k3s flags on one line
    ([("10.42.0.0/16", "10.42.0.0/24")],
     "k3s server --cluster-cidr=10.42.0.0/16 --kube-controller-manager-arg=node-cidr-mask-size=25\n",
     [("10.42.0.0/16", "10.42.0.0/16", TIED)]),
    # Calico blockSize: refused past the pool, left otherwise (blocks are borrowed as needed)
    ([("10.0.48.0/24", "10.0.48.0/27")], "kind: IPPool\nspec:\n  cidr: 10.0.48.0/24\n  blockSize: 26\n",
     [("10.0.48.0/24", "10.0.48.0/27", None), ("26", "26", TOOL)]),
    ([("10.0.48.0/24", "10.0.48.0/26")], "kind: IPPool\nspec:\n  cidr: 10.0.48.0/24\n  blockSize: 26\n",
     [("10.0.48.0/24", "10.0.48.0/26", None)]),
    ([("fd00:10::/48", "fd00:10::/124")], "kind: IPPool\nspec:\n  cidr: fd00:10::/48\n  blockSize: 122\n",
     [("fd00:10::/48", "fd00:10::/124", None), ("122", "122", TOOL)]),
    # MetalLB aggregationLength, the pool in another document of the file
    ([("10.0.48.0/24", "10.0.48.0/27")],
     "kind: IPAddressPool\nspec:\n  addresses:\n    - 10.0.48.0/24\n---\nkind: BGPAdvertisement\nspec:\n"
     "  aggregationLength: 26\n",
     [("10.0.48.0/24", "10.0.48.0/27", None), ("26", "26", TOOL)]),
    # MetalLB's legacy ConfigMap (v0.12): `aggregation-length` beside the pool's addresses
    ([("10.0.48.0/24", "10.0.48.0/27")],
     "address-pools:\n- name: default\n  protocol: bgp\n  addresses:\n  - 10.0.48.0/24\n  bgp-advertisements:\n"
     "  - aggregation-length: 24\n",
     [("10.0.48.0/24", "10.0.48.0/27", None), ("24", "24", TOOL)]),
    # after the sweep: the pool is the new network, the length still too short
    ([("10.0.48.0/24", "10.0.48.0/27")], "kind: IPPool\nspec:\n  cidr: 10.0.48.0/27\n  blockSize: 26\n",
     [("26", "26", TOOL)]),
])
def test_kubernetes_lengths(pairs: list[tuple[str, str]], text: str,
                            found: list[tuple[str, str, str | None]]) -> None:
    assert _found(pairs, text) == found


MOVE20 = [("10.0.48.0/24", "10.20.0.0/22")]


@pytest.mark.parametrize(("text", "found"), [
    ('{"subnet4": [{"subnet": "10.0.48.0/24", "option-data": [{"name": "subnet-mask", "data": "255.255.255.0"}, '
     '{"code": 28, "data": "10.0.48.255"}]}]}\n',
     [("10.0.48.0/24", "10.20.0.0/22", None), ("255.255.255.0", "255.255.252.0", None),
      ("10.0.48.255", "10.20.3.255", None)]),
    ("subnet4:\n  - subnet: 10.0.48.0/24\n    option-data:\n      - code: 1\n        data: 255.255.255.0\n"
     "      - name: broadcast-address\n        data: 10.0.48.255\n",
     [("10.0.48.0/24", "10.20.0.0/22", None), ("255.255.255.0", "255.255.252.0", None),
      ("10.0.48.255", "10.20.3.255", None)]),
    # another subnet's entry: its own mask, no residual
    ("subnet4:\n  - subnet: 10.0.48.0/24\n  - subnet: 10.1.0.0/24\n    option-data:\n      - name: subnet-mask\n"
     "        data: 255.255.255.0\n",
     [("10.0.48.0/24", "10.20.0.0/22", None)]),
    # an option that is no mask: the mask rule's residual stands
    ("subnet4:\n  - subnet: 10.0.48.0/24\n    option-data:\n      - name: routers\n        data: 255.255.255.0\n",
     [("10.0.48.0/24", "10.20.0.0/22", None), ("255.255.255.0", "255.255.252.0", "mask")]),  # (its new value: f28-said)
])
def test_kea_options_in_the_moved_subnet(text: str, found: list[tuple[str, str, str | None]]) -> None:
    assert _found(MOVE20, text) == found


@pytest.mark.parametrize(("new", "text", "found"), [
    ("2001:db8:a::/60", "subnet6 2001:db8:a::/48 {\n  prefix6 2001:db8:a:: 2001:db8:a:: /56;\n}\n",
     # (and the range's `2001:db8:a:: /56`, read as a /56 network with a blank before the slash
     # (prefix_spellings.py), lies outside the shrunk /60: refused, as it must be)
     [("2001:db8:a::/48", "2001:db8:a::/60", None), ("2001:db8:a::", "2001:db8:a::", "outside-prefix"),
      ("56", "56", TIED)]),
    ("2001:db8:a::/52", "subnet6 2001:db8:a::/48 {\n  prefix6 2001:db8:a:: 2001:db8:a:f00:: /56;\n}\n",
     [("2001:db8:a::/48", "2001:db8:a::/52", None)]),
    # after the sweep: the subnet is the new network, the delegation still wider
    ("2001:db8:a::/60", "subnet6 2001:db8:a::/60 {\n  prefix6 2001:db8:a:: 2001:db8:a:: /56;\n}\n",
     [("2001:db8:a::", "2001:db8:a::", "outside-prefix"), ("56", "56", TIED)]),
])
def test_dhcpd_prefix6(new: str, text: str, found: list[tuple[str, str, str | None]]) -> None:
    assert _found([("2001:db8:a::/48", new)], text) == found


def _kube(old: str, new: str, text: str) -> list[tuple[str, str | None]]:
    move = PrefixMove(ipaddress.ip_network(old), ipaddress.ip_network(new))
    return [(h.old, h.refused) for h in kube_lengths(text.encode(), [move])]


@pytest.mark.parametrize("text", [
    "controllerManager:\n  extraArgs:\n    - name: node-cidr-mask-size\n      value: \"24\"\nnetworking:\n"
    "  podSubnet: 10.244.0.0/16\n",
    "controllerManager:\n  extraArgs:\n  - {value: '24', name: node-cidr-mask-size-ipv4}\nnetworking:\n"
    "  podSubnet: 10.244.0.0/16\n",
    "ExecStart=/usr/bin/kube-controller-manager --cluster-cidr 10.244.0.0/16 --node-cidr-mask-size 24\n",
    "    command:\n    - --cluster-cidr\n    - 10.244.0.0/16\n    - --node-cidr-mask-size\n    - \"24\"\n",
])
def test_round7_a_node_mask_in_any_spelling(text: str) -> None:
    assert _kube("10.244.0.0/16", "10.244.0.0/25", text) == [("24", "tool-refuses")]
    assert _kube("10.244.0.0/16", "10.244.0.0/20", text) == [("10.244.0.0/16", "tied-length")]
    assert _kube("10.244.0.0/16", "10.244.0.0/15", text) == []


def test_round7_flannel_four_subnets_and_its_default() -> None:
    conf = '{"Network": "10.244.0.0/16", "SubnetLen": 24, "Backend": {"Type": "vxlan"}}\n'
    assert _kube("10.244.0.0/16", "10.244.0.0/23", conf) == [("24", "tool-refuses")]
    assert _kube("10.244.0.0/16", "10.244.0.0/22", conf) == [("10.244.0.0/16", "tied-length")]
    bare = '{"Network": "10.244.0.0/16", "Backend": {"Type": "vxlan"}}\n'
    assert _kube("10.244.0.0/16", "10.244.0.0/23", bare) == [("10.244.0.0/16", "tied-length")]
    assert _kube("10.244.0.0/16", "10.244.0.0/29", bare) == [("10.244.0.0/16", "tool-refuses")]
    assert _kube("10.244.0.0/16", "10.244.0.0/15", bare) == []  # the default stays /24, more of them
    assert _kube("10.244.0.0/16", "10.244.0.0/16".replace("244", "245"), bare) == []  # a move, same length


def test_round7_the_default_node_mask_and_calico_blocks() -> None:
    assert _kube("10.42.0.0/16", "10.42.0.0/20", "cluster-cidr: 10.42.0.0/16\n") == [("10.42.0.0/16", "tied-length")]
    assert _kube("10.42.0.0/16", "10.42.0.0/15", "cluster-cidr: 10.42.0.0/16\n") == []
    assert _kube("10.42.0.0/16", "10.42.0.0/20", "kind: KubeProxyConfiguration\nclusterCIDR: 10.42.0.0/16\n") == []
    # a mask set in the file decides instead of the default
    hits = list(kube_lengths(b"cluster-cidr: 10.42.0.0/16\nkube-controller-manager-arg:\n  - node-cidr-mask-size=26\n",
                             [PrefixMove(ipaddress.ip_network("10.42.0.0/16"), ipaddress.ip_network("10.42.0.0/25"))]))
    assert [(h.old, h.refused) for h in hits] == [("10.42.0.0/16", "tied-length")]
    assert "node-cidr-mask-size 26 (line 3)" in str(hits[0].note) and "default" not in str(hits[0].note)
    calico = "spec:\n  cidr: 10.244.0.0/16\n  blockSize: 26\n"
    assert _kube("10.244.0.0/16", "10.244.0.0/22", calico) == []  # fewer blocks: borrowed, no fewer nodes
    assert _kube("10.244.0.0/16", "10.244.0.0/27", calico) == [("26", "tool-refuses")]


AKS_TF = ('resource "azurerm_subnet" "aks" {\n  address_prefixes = ["10.0.48.0/22"]\n}\n'
          'resource "azurerm_kubernetes_cluster" "k" {\n  default_node_pool {\n    node_count     = 3\n'
          '    max_pods       = 30\n    vnet_subnet_id = azurerm_subnet.aks.id\n  }\n  network_profile {\n'
          '    network_plugin = "azure"\n  }\n}\n'
          'resource "azurerm_kubernetes_cluster_node_pool" "user" {\n  max_count      = 10\n  max_pods       = 50\n'
          '  vnet_subnet_id = azurerm_subnet.aks.id\n}\n')


def test_round7_an_aks_node_subnet_too_small_for_its_pools() -> None:
    """(3 + 1) x 31 + (10 + 1) x 51 = 685 addresses: a /22 (1019 usable) holds them, a /23 (507) not."""
    from renamer.prefix_pools import aks_capacity

    def hits(new: str, text: str) -> list[tuple[str, str | None]]:
        move = PrefixMove(ipaddress.ip_network("10.0.48.0/22"), ipaddress.ip_network(new))
        return [(h.old, h.refused) for h in aks_capacity(text.encode(), [move])]

    assert hits("10.0.48.0/23", AKS_TF) == [("10.0.48.0/22", TIED)]
    assert hits("10.0.48.0/21", AKS_TF) == []  # a grow
    assert hits("10.0.48.0/23", AKS_TF.replace("max_count      = 10", "max_count      = 3")) == []  # 4*31+4*51 fits
    overlay = AKS_TF.replace('network_plugin = "azure"', 'network_plugin = "azure"\n    network_plugin_mode = "overlay"')
    assert hits("10.0.48.0/23", overlay) == []  # pods take no node-subnet address
    assert hits("10.0.48.0/23", AKS_TF.replace('"azure"', '"kubenet"')) == []


@pytest.mark.parametrize(("text", "refused"), [
    (b"option ula_prefix '2001:db8:a::/48'\n\toption ip6hint 'f000'\n", True),
    (b"option ula_prefix '2001:db8:a::/48'\n\toption ip6hint 'ff0'\n", False),  # a /52 holds it
    (b"Prefix=2001:db8:a::/48\nSubnetId=0xf002\n", True),
    (b"Prefix=2001:db8:a::/48\nSubnetId=12\n", False),
    (b"Prefix=2001:db8:b::/48\nSubnetId=0xf002\n", False),  # the file names no moved network
])
def test_ipv6_subnet_ids_a_shrink_leaves_outside(text: bytes, refused: bool) -> None:
    """t36-33 finding 17."""
    move = PrefixMove(ipaddress.ip_network("2001:db8:a::/48"), ipaddress.ip_network("2001:db8:a::/52"))
    assert bool(list(subnet_ids(text, [move]))) == refused


@pytest.mark.parametrize(("text", "said"), [
    (b"[DHCPPrefixDelegation]\nUplinkInterface=wan0\nSubnetId=0xf002\n", True),
    (b"[DHCPv6PrefixDelegation]\nSubnetId=f002\n", True),
    (b"config interface 'iot'\n\toption ip6assign '60'\n\toption ip6hint 'f000'\n", True),
    (b"[DHCPPrefixDelegation]\nSubnetId=0xfff\n", False),  # a /52 holds it
    (b"Prefix=2001:db8:a::/48\nSubnetId=0xf002\n", False),  # the prefix is written: subnet_ids' own
    (b"[DHCPPrefixDelegation]\nSubnetId=auto\n", False),
])
def test_a_delegated_subnet_id_a_shrink_may_leave_outside_is_said(text: bytes, said: bool) -> None:
    """t36-33 finding 17, networkd's twin: the prefix is delegated, not written in the file."""
    move = PrefixMove(ipaddress.ip_network("2001:db8:a::/48"), ipaddress.ip_network("2001:db8:a::/52"))
    hits = list(delegated_ids(text, [move]))
    assert [h.refused for h in hits] == ([TIED] if said else [])
    grow = PrefixMove(ipaddress.ip_network("2001:db8:a::/48"), ipaddress.ip_network("2001:db8::/44"))
    assert list(delegated_ids(text, [grow])) == []
