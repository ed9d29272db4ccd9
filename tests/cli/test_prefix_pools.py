"""Pools, bounds and sets tied to a resized network by a key the resize does not rewrite (t26-33
findings 05, 06, 08, 10, 11, 20), end to end on real git repos: what the sweep refuses (exit 3,
nothing written) or leaves as a residual (exit 1), what it rewrites, what verify says after, and
where the tool that reads the file is here, that tool's verdict on what was written (nft -c in
`unshare -rn`, FRR's vtysh in `unshare -n`); Kea's, Calico's, MetalLB's and kube-controller-manager's
rules, whose binaries are not installed, in Python.
"""

from __future__ import annotations

import ipaddress
import json
import shutil
import subprocess
import tempfile
from pathlib import Path

import yaml

from tests.testing.findings import networks_config as _config
from tests.testing.repos import Run, make_repo, snapshot

ALLOW = 'version: 1\ncurrent: ["**"]\n'


def _repo(tmp: Path, files: dict[str, str], networks: str) -> Path:
    """A fresh repo of its own under `tmp` (one test may build several)."""
    return make_repo(Path(tempfile.mkdtemp(dir=tmp)) / "repo", files, config=_config(networks), allowlist=ALLOW)


def _unchanged(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        assert (root / name).read_text() == text, name


# -- 05: DHCP pools as an offset and a size ---------------------------------------------------------

UCI_NETWORK = ("config interface 'lan'\n\toption proto 'static'\n\toption ipaddr '192.168.1.1'\n"
               "\toption netmask '255.255.255.0'\n")
UCI_DHCP = "config dhcp 'lan'\n\toption interface 'lan'\n\toption start '100'\n\toption limit '150'\n"
NETWORKD = "[Network]\nAddress=192.168.1.1/24\nDHCPServer=yes\n\n[DHCPServer]\nPoolOffset=100\nPoolSize=150\n"


def test_an_offset_pool_a_shrink_cannot_hold_refuses_the_sweep(run: Run, tmp_path: Path) -> None:
    """finding 05: OpenWrt's start/limit (in the dhcp file, the address in the network file) and
    networkd's PoolOffset=/PoolSize= under /24 -> /25: a pool .100-.249 in a network ending at .127.
    Before: the mask and the length were rewritten, the pools left, sweep 0, verify OK."""
    files = {"router/network": UCI_NETWORK, "router/dhcp": UCI_DHCP, "lan.network": NETWORKD}
    root = _repo(tmp_path, files, "192.168.1.0/24: 192.168.1.0/25")
    before = snapshot(root)
    dry = run(root, "sweep", "--dry-run", "--strict")
    assert dry.exit_code == 3, dry.stdout + dry.stderr
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert snapshot(root) == before
    err = done.stderr
    assert "router/dhcp:4: outside the new, smaller network: option start '100', option limit '150': the DHCP " \
           "pool 192.168.1.100-192.168.1.249 of 192.168.1.0/24" in err, err
    assert "interface 'lan' of router/network" in err, err
    assert "lan.network:7: outside the new, smaller network: PoolOffset=100 PoolSize=150" in err, err
    checked = run(root, "verify")
    assert checked.exit_code == 1
    assert "router/dhcp:4:16: residual (outside-prefix): 150" in checked.stdout, checked.stdout
    assert "lan.network:7:10: residual (outside-prefix): 150" in checked.stdout, checked.stdout


def test_offset_pools_that_fit_or_grow_follow(run: Run, tmp_path: Path) -> None:
    """Variants: a /23 -> /25 shrink with OpenWrt's defaults (100, 150: no start nor limit) and an
    `ipaddr 'A/LEN'` interface is refused on the `interface` line; a pool that fits the shrink
    (.10-.109 of a /25) and any grow (/24 -> /22) leave the pool as it is and the sweep writes."""
    shrink = {"network": "config interface 'lan'\n\toption ipaddr '10.0.48.1/23'\n",
              "dhcp": "config dhcp 'lan'\n\toption interface 'lan'\n"}
    root = _repo(tmp_path, shrink, "10.0.48.0/23: 10.0.48.0/25")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert "dhcp:2: outside the new, smaller network: option start '100', option limit '150' (OpenWrt's " \
           "defaults)" in done.stderr, done.stderr
    _unchanged(root, shrink)
    fits = {"network": UCI_NETWORK, "dhcp": UCI_DHCP.replace("'100'", "'10'").replace("'150'", "'100'"),
            "lan.network": NETWORKD.replace("=100", "=10").replace("=150", "=100"),
            "other/lan.network": "[Network]\nAddress=192.168.1.1/24\n[DHCPServer]\nServerAddress=10.5.0.1/24\n"
                                 "PoolOffset=100\nPoolSize=150\n"}
    root = _repo(tmp_path, fits, "192.168.1.0/24: 192.168.1.0/25")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "network").read_text() == UCI_NETWORK.replace("255.255.255.0", "255.255.255.128")
    assert (root / "dhcp").read_text() == fits["dhcp"]
    assert "PoolOffset=10\nPoolSize=100" in (root / "lan.network").read_text()
    assert run(root, "verify").exit_code == 0
    grow = {"network": UCI_NETWORK, "dhcp": UCI_DHCP, "lan.network": NETWORKD}
    root = _repo(tmp_path, grow, "192.168.1.0/24: 10.1.0.0/22")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert "Address=10.1.0.1/22" in (root / "lan.network").read_text()
    assert "option netmask '255.255.252.0'" in (root / "network").read_text()
    assert (root / "dhcp").read_text() == UCI_DHCP


# -- 06: Kea pd-pools -------------------------------------------------------------------------------

KEA6 = ('{"Dhcp6": {"subnet6": [{"id": 1, "subnet": "2001:db8:a::/48",\n'
        '  "pd-pools": [{"prefix": "2001:db8:a::", "prefix-len": 48, "delegated-len": 56}]}]}}\n')


def _kea_pd_valid(text: str) -> bool:
    """Kea's rule for a pd-pool: delegated-len >= prefix-len, the prefix a network of prefix-len."""
    for subnet in json.loads(text)["Dhcp6"]["subnet6"]:
        for pool in subnet["pd-pools"]:
            ipaddress.IPv6Network(f"{pool['prefix']}/{pool['prefix-len']}")
            if pool["delegated-len"] < pool["prefix-len"]:
                return False
    return True


def test_a_pd_pool_past_its_delegated_length_refuses_the_sweep(run: Run, tmp_path: Path) -> None:
    """finding 06: /48 -> /60 would write prefix-len 60 beside delegated-len 56 (Kea refuses it):
    refused, nothing written; /48 -> /56 leaves one /56 of 256 to delegate: a `tied-length` residual; a grow
    to /47 follows (512 delegations) and stays valid."""
    root = _repo(tmp_path, {"kea6.json": KEA6}, '"2001:db8:a::/48": "2001:db8:a::/60"')
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert ("kea6.json:2: tool-refuses: the pd-pool 2001:db8:a::/48 delegating /56 prefixes would become "
            "2001:db8:a::/60: Kea refuses a pd-pool whose delegated-len (56) is shorter than its prefix-len (60)"
            ) in done.stderr, done.stderr
    assert (root / "kea6.json").read_text() == KEA6
    root = _repo(tmp_path, {"kea6.json": KEA6}, '"2001:db8:a::/48": "2001:db8:b::/56"')
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    checked = run(root, "verify")
    assert checked.exit_code == 1
    assert "kea6.json:2:57: residual (tied-length): 48" in checked.stdout, checked.stdout
    assert ("the pd-pool 2001:db8:a::/48 delegates 256 /56 prefixes, as 2001:db8:b::/56 it would delegate 1"
            in checked.stdout), checked.stdout
    root = _repo(tmp_path, {"kea6.json": KEA6}, '"2001:db8:a::/48": "2001:db8:a::/47"')
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    written = (root / "kea6.json").read_text()
    assert '"prefix-len": 47, "delegated-len": 56' in written
    assert _kea_pd_valid(written)


KEA6_LINES = ('{\n  "Dhcp6": {\n    "subnet6": [\n      {\n        "id": 1,\n        "subnet": "2001:db8:a::/48",\n'
              '        "pd-pools": [\n          {\n            "prefix": "2001:db8:a::",\n'
              '            "prefix-len": 48,\n            "delegated-len": 64\n          }\n        ]\n'
              '      }\n    ]\n  }\n}\n')
KEA6_YAML = ("kea_subnets:\n  - id: 1\n    subnet: 2001:db8:a::/48\n    pd_pools:\n"
             '      - prefix: "2001:db8:a::"\n        prefix_len: 48\n        delegated_len: 64\n')


def test_a_pd_pool_over_the_whole_prefix_is_never_written_half_moved(run: Run, tmp_path: Path) -> None:
    """t36-33 finding 15: under a shrink to another place, a pd-pool over the whole old prefix had its
    `prefix` moved and its `prefix-len` kept (`2001:db8:b:100::/48`, host bits set, reaching 255 /56s
    that are not the site's). Now both halves are held together, each a `tied-length` residual: the
    pool as written stays a network Kea loads (read back here), on one line, over many lines, and
    in a YAML vars file (`prefix_len`, `delegated_len`); a second sweep changes nothing more."""
    files = {"kea6.json": KEA6.replace('"delegated-len": 56', '"delegated-len": 64'),
             "kea6-lines.json": KEA6_LINES, "group_vars/dhcp.yml": KEA6_YAML}
    root = _repo(tmp_path, files, '"2001:db8:a::/48": "2001:db8:b:100::/56"')
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    for name in ("kea6.json", "kea6-lines.json"):
        written = (root / name).read_text()
        assert '"subnet": "2001:db8:b:100::/56"' in written, written
        pools = [p for s in json.loads(written)["Dhcp6"]["subnet6"] for p in s["pd-pools"]]
        assert pools == [{"prefix": "2001:db8:a::", "prefix-len": 48, "delegated-len": 64}], name
        assert _kea_pd_valid(written)
    vars_ = yaml.safe_load((root / "group_vars/dhcp.yml").read_text())["kea_subnets"][0]
    assert vars_["subnet"] == "2001:db8:b:100::/56", vars_
    assert (vars_["pd_pools"][0]["prefix"], vars_["pd_pools"][0]["prefix_len"]) == ("2001:db8:a::", 48), vars_
    checked = run(root, "verify")
    assert checked.exit_code == 1, checked.stdout
    for where in ("kea6.json:2:28: residual (tied-length): 2001:db8:a::",
                  "kea6.json:2:57: residual (tied-length): 48",
                  "kea6-lines.json:9:24: residual (tied-length): 2001:db8:a::",
                  "kea6-lines.json:10:27: residual (tied-length): 48",
                  "group_vars/dhcp.yml:5:18: residual (tied-length): 2001:db8:a::",
                  "group_vars/dhcp.yml:6:21: residual (tied-length): 48"):
        assert where in checked.stdout, (where, checked.stdout)
    assert "decide prefix, prefix-len and delegated-len together by hand" in checked.stdout
    before = snapshot(root)
    again = run(root, "sweep", "--commit")
    assert again.exit_code == 1, again.stdout + again.stderr
    assert snapshot(root) == before


# -- 08: a grow that makes two elements of one interval set overlap ---------------------------------

SET_V4 = "table inet f {\n  set lans { type ipv4_addr; flags interval; elements = { 10.0.48.0/24, 10.0.49.0/24 } }\n}\n"
SET_V6 = ("table inet f {\n  set v6 {\n    type ipv6_addr\n    flags interval\n"
          "    elements = { 2001:db8:a::/64,\n                 2001:db8:a:1::/64 }\n  }\n}\n")


def _nft_loads(path: Path) -> subprocess.CompletedProcess[str]:
    nft = shutil.which("nft") or "/usr/sbin/nft"
    return subprocess.run(["unshare", "-rn", nft, "-c", "-f", str(path)], capture_output=True, text=True,
                          check=False)


def test_a_grow_swallowing_a_sibling_in_an_interval_set_refuses(run: Run, tmp_path: Path) -> None:
    """finding 08: nft refuses a set whose elements overlap; before, the sweep wrote
    `{ 10.0.48.0/23, 10.0.49.0/24 }`, --strict 0, verify --strict OK. Variants: IPv6 /64 -> /60 over
    a multi-line set (refused), a /24 -> /22 swallowing a range element (refused), `auto-merge` (nft
    merges: written, and nft loads it), a shrink (/23 -> /24: written, loads), an `add element`
    command beside the set's declaration (refused)."""
    files = {"fw.nft": SET_V4, "v6.nft": SET_V6,
             "range.nft": SET_V4.replace("10.0.48.0/24, 10.0.49.0/24", "10.0.52.0/24, 10.0.53.10-10.0.53.20"),
             "add.nft": SET_V4.replace("10.0.48.0/24, 10.0.49.0/24", "10.0.49.0/24")
             + "add element inet f lans { 10.0.48.0/24 }\n"}
    root = _repo(tmp_path, files, '10.0.48.0/24: 10.0.48.0/23, 10.0.52.0/24: 10.0.52.0/22, '
                 '"2001:db8:a::/64": "2001:db8:a::/60"')
    for name in files:
        assert _nft_loads(root / name).returncode == 0, name
    done = run(root, "sweep", "--commit", "--strict")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert ("fw.nft:2: tool-refuses: 10.0.48.0/24 is an element of the interval set `lans`, and as 10.0.48.0/23 "
            "it would overlap 10.0.49.0/24 beside it: nft refuses") in done.stderr, done.stderr
    assert "v6.nft:5: tool-refuses: 2001:db8:a::/64 is an element of the interval set `v6`" in done.stderr
    assert "range.nft:2: tool-refuses: 10.0.52.0/24 is an element of the interval set `lans`, and as " \
           "10.0.52.0/22 it would overlap 10.0.53.10-10.0.53.20" in done.stderr, done.stderr
    assert "add.nft:4: tool-refuses: 10.0.48.0/24 is an element of the interval set `lans`" in done.stderr
    _unchanged(root, files)
    merged = {"fw.nft": SET_V4.replace("flags interval;", "flags interval; auto-merge;"),
              "shrink.nft": SET_V4.replace("10.0.48.0/24, 10.0.49.0/24", "10.0.60.0/23, 10.0.62.0/24")}
    root = _repo(tmp_path, merged, "10.0.48.0/24: 10.0.48.0/23, 10.0.60.0/23: 10.0.60.0/24")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert "{ 10.0.48.0/23, 10.0.49.0/24 }" in (root / "fw.nft").read_text()
    assert "{ 10.0.60.0/24, 10.0.62.0/24 }" in (root / "shrink.nft").read_text()
    for name in merged:
        loaded = _nft_loads(root / name)
        assert loaded.returncode == 0, loaded.stderr


def test_verify_fails_on_a_set_a_grow_has_made_overlap(run: Run, tmp_path: Path) -> None:
    """finding 08, after the fact: a repo holding the grown set (written by an older sweep, or by
    hand) fails `verify` and `verify --strict` with the element, where nft refuses the file."""
    files = {"fw.nft": SET_V4.replace("10.0.48.0/24,", "10.0.48.0/23,")}
    root = _repo(tmp_path, files, "10.0.48.0/24: 10.0.48.0/23")
    assert _nft_loads(root / "fw.nft").returncode == 1
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1, checked.stdout
    assert "fw.nft:2:59: residual (tool-refuses): 10.0.48.0/23" in checked.stdout, checked.stdout


# -- 10: prefix-list bounds ---------------------------------------------------------------------------

def _frr_accepts(line: str, tmp: Path) -> subprocess.CompletedProcess[str]:
    """FRR's own verdict on a prefix-list line: zebra and vtysh in a network namespace of their own."""
    script = tmp / "frr.sh"
    sock = Path(tempfile.mkdtemp(prefix="frr-", dir="/tmp"))  # zebra runs as frr: a folder it reaches
    sock.chmod(0o777)
    script.write_text(
        "#!/bin/sh\n"
        f"/usr/lib/frr/zebra -d -f /dev/null -z {sock}/zserv.api -i {sock}/zebra.pid --vty_socket {sock} "
        "-A 127.0.0.1 -P 0 2>/dev/null\n"
        "sleep 1\n"
        f"vtysh --vty_socket {sock} -c 'configure terminal' -c \"$1\" 2>&1; rc=$?\n"
        f"kill \"$(cat {sock}/zebra.pid)\"\n"
        "exit $rc\n")
    script.chmod(0o755)
    try:
        return subprocess.run(["unshare", "-n", str(script), line], capture_output=True, text=True, check=False,
                              timeout=60)
    finally:
        shutil.rmtree(sock, ignore_errors=True)


def test_prefix_list_bounds_a_resize_passes_refuse_and_others_are_residuals(run: Run, tmp_path: Path) -> None:
    """finding 10: `permit 10.0.48.0/24 ge 25 le 28` under /24 -> /26 would become a line FRR refuses
    (ge 25 < 26): refused. Under /24 -> /22 FRR would load it but it selects other prefixes: a
    `tied-length` residual over the whole entry, the network left with its bounds. `le 32` alone means every prefix
    inside at any length: the network follows, and FRR loads the result. JunOS, VyOS and IPv6 variants."""
    files = {"frr.conf": "ip prefix-list LAN seq 5 permit 10.0.48.0/24 ge 25 le 28\n",
             "junos.conf": "route-filter 10.0.48.0/24 prefix-length-range /25-/28;\n",
             "vyos.sh": ("set policy prefix-list LAN rule 5 ge '25'\n"
                         "set policy prefix-list LAN rule 5 prefix '10.0.48.0/24'\n")}
    root = _repo(tmp_path, files, "10.0.48.0/24: 10.0.60.0/26")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert ("frr.conf:1: tool-refuses: `10.0.48.0/24 ge 25 le 28`: ge and le are prefix lengths of their own, "
            "and 10.0.60.0/26's length 26 passes /25") in done.stderr, done.stderr
    assert "junos.conf:1: tool-refuses: `10.0.48.0/24 prefix-length-range /25-/28`" in done.stderr
    assert "vyos.sh:2: tool-refuses: `10.0.48.0/24`: its rule's ge 25 are prefix lengths" in done.stderr
    _unchanged(root, files)
    grow = {"frr.conf": files["frr.conf"] + "ip prefix-list ALL seq 5 permit 10.0.48.0/24 le 32\n",
            "v6.conf": "ipv6 prefix-list V6 seq 5 permit 2001:db8:a::/48 ge 56 le 64\n"}
    root = _repo(tmp_path, grow, '10.0.48.0/24: 10.0.48.0/22, "2001:db8:a::/48": "2001:db8:a::/47"')
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    written = (root / "frr.conf").read_text().splitlines()
    assert written == ["ip prefix-list LAN seq 5 permit 10.0.48.0/24 ge 25 le 28",
                       "ip prefix-list ALL seq 5 permit 10.0.48.0/22 le 32"]
    out = run(root, "verify").stdout
    assert ("frr.conf:1:33: residual (tied-length): 10.0.48.0/24 ge 25 le 28: `10.0.48.0/24 "
            "ge 25 le 28`: ge and le are lengths of their own, not counted from the network's, and 10.0.48.0/24 "
            "becomes 10.0.48.0/22: the entry would "
            "select other prefixes than it did (the same distance from the new length: ge 23 le 26)") in out, out
    assert "v6.conf:1:34: residual (tied-length): 2001:db8:a::/48 ge 56 le 64" in out, out
    loaded = _frr_accepts(written[1], tmp_path)
    assert loaded.returncode == 0, loaded.stdout + loaded.stderr
    refused = _frr_accepts("ip prefix-list LAN seq 5 permit 10.0.60.0/26 ge 25 le 28", tmp_path)
    assert refused.returncode != 0 and "Invalid prefix range" in refused.stdout, refused.stdout


# -- 11: Kubernetes lengths tied to a pool ------------------------------------------------------------

KUBEADM = ("apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\nnetworking:\n  podSubnet: 10.244.0.0/16\n"
           "  serviceSubnet: 10.96.0.0/12\ncontrollerManager:\n  extraArgs:\n    node-cidr-mask-size: \"24\"\n")
CALICO = "apiVersion: projectcalico.org/v3\nkind: IPPool\nmetadata: {name: pool}\nspec:\n  cidr: 10.0.48.0/24\n  blockSize: 26\n"
METALLB = ("apiVersion: metallb.io/v1beta1\nkind: IPAddressPool\nmetadata: {name: lan}\nspec:\n  addresses: "
           "[\"10.0.48.0/24\"]\n---\napiVersion: metallb.io/v1beta1\nkind: BGPAdvertisement\nmetadata: {name: lan}\n"
           "spec:\n  ipAddressPools: [lan]\n  aggregationLength: 24\n")


def _kube_valid(root: Path) -> dict[str, bool]:
    """Each project's documented rule on the files as they stand."""
    calico = yaml.safe_load((root / "calico.yaml").read_text())["spec"]
    pool, adv = yaml.safe_load_all((root / "metallb.yaml").read_text())
    kubeadm = yaml.safe_load((root / "kubeadm.yaml").read_text())
    pods = ipaddress.ip_network(kubeadm["networking"]["podSubnet"])
    return {"calico": ipaddress.ip_network(calico["cidr"]).prefixlen <= calico["blockSize"],
            "metallb": adv["spec"]["aggregationLength"] >= ipaddress.ip_network(pool["spec"]["addresses"][0]).prefixlen,
            "kubeadm": int(kubeadm["controllerManager"]["extraArgs"]["node-cidr-mask-size"]) >= pods.prefixlen}


def test_kubernetes_lengths_tied_to_a_pool(run: Run, tmp_path: Path) -> None:
    """finding 11: under /24 -> /27 and /16 -> /24 Calico's blockSize 26 and MetalLB's aggregationLength
    24 would be shorter than their pools (each project refuses it): refused, nothing written. Under
    /16 -> /20 the node mask 24 stays valid but gives 16 nodes a range, not 256: a `tied-length`
    residual on the pool, left with its mask.
    A grow (/24 -> /22) keeps every one valid: written, no word."""
    files = {"kubeadm.yaml": KUBEADM, "calico.yaml": CALICO, "metallb.yaml": METALLB}
    root = _repo(tmp_path, files, "10.244.0.0/16: 10.244.0.0/24, 10.0.48.0/24: 10.0.48.0/27")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert "calico.yaml:6: tool-refuses: Calico's IPPool blockSize 26 is tied to the pool 10.0.48.0/24, which " \
           "becomes 10.0.48.0/27" in done.stderr, done.stderr
    assert "metallb.yaml:12: tool-refuses: MetalLB's BGPAdvertisement aggregationLength 24" in done.stderr
    _unchanged(root, files)
    root = _repo(tmp_path, files, "10.244.0.0/16: 10.244.0.0/20, 10.0.48.0/24: 10.0.48.0/22")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "calico.yaml").read_text() == CALICO.replace("/24", "/22")
    assert (root / "metallb.yaml").read_text() == METALLB.replace("/24", "/22")
    assert all(_kube_valid(root).values()), _kube_valid(root)
    out = run(root, "verify").stdout
    assert "kubeadm.yaml:4:14: residual (tied-length): 10.244.0.0/16" in out, out
    assert ("kube-controller-manager's node-cidr-mask-size 24 (line 8) is tied to the pool 10.244.0.0/16, which "
            "holds 256 /24 ranges, as 10.244.0.0/20 it would hold 16, one a node") in out, out
    assert "podSubnet: 10.244.0.0/16" in (root / "kubeadm.yaml").read_text()  # left with its mask


# -- 20: Kea option-data in the moved subnet's entry --------------------------------------------------

KEA_YAML = ("Dhcp4:\n  subnet4:\n    - id: 1\n      subnet: 10.0.48.0/24\n      option-data:\n"
            "        - name: subnet-mask\n          data: 255.255.255.0\n        - name: broadcast-address\n"
            "          data: 10.0.48.255\n    - id: 2\n      subnet: 10.1.0.0/24\n      option-data:\n"
            "        - name: subnet-mask\n          data: 255.255.255.0\n")
KEA_JSON = ('{\n  "Dhcp4": {\n    "subnet4": [\n      {\n        "subnet": "10.0.48.0/24",\n'
            '        "option-data": [\n          { "code": 1, "data": "255.255.255.0" },\n'
            '          { "code": 28, "data": "10.0.48.255" }\n        ]\n      }\n    ]\n  }\n}\n')


def test_kea_subnet_mask_and_broadcast_options_follow_their_subnet(run: Run, tmp_path: Path) -> None:
    """finding 20: `subnet-mask` (name, or code 1) and `broadcast-address` (code 28) in the option-data
    of the subnet4 entry whose `subnet` is the moved network follow it (10.0.48.0/24 -> 10.20.0.0/22),
    YAML and JSON, however the name and the data are laid out; another subnet's mask stays.
    Before: `mask` and `broadcast` residuals, sweep 1."""
    files = {"kea.yaml": KEA_YAML, "kea.json": KEA_JSON}
    root = _repo(tmp_path, files, "10.0.48.0/24: 10.20.0.0/22")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    written = yaml.safe_load((root / "kea.yaml").read_text())["Dhcp4"]["subnet4"]
    assert written[0]["subnet"] == "10.20.0.0/22"
    assert [o["data"] for o in written[0]["option-data"]] == ["255.255.252.0", "10.20.3.255"]
    assert written[1]["option-data"][0]["data"] == "255.255.255.0"
    subnet = json.loads((root / "kea.json").read_text())["Dhcp4"]["subnet4"][0]
    net = ipaddress.ip_network(subnet["subnet"])
    assert [o["data"] for o in subnet["option-data"]] == [str(net.netmask), str(net.broadcast_address)]
    checked = run(root, "verify")
    assert checked.exit_code == 0, checked.stdout


def test_an_ipv6_subnet_id_a_shrink_leaves_outside_refuses(run: Run, tmp_path: Path) -> None:
    """t36-33 finding 17: OpenWrt `option ip6hint 'f000'` beside `ula_prefix` and networkd `SubnetId=0xf002`
    in a file naming the prefix, under 2001:db8:a::/48 -> /52 (IDs up to fff): refused, nothing
    written; an ID the /52 holds (`f00`) is no refusal."""
    uci = ("config globals 'globals'\n\toption ula_prefix '2001:db8:a::/48'\n\nconfig interface 'iot'\n"
           "\toption proto 'static'\n\toption ip6assign '60'\n\toption ip6hint 'f000'\n")
    networkd = ("[Network]\nDHCPPrefixDelegation=yes\n\n[IPv6Prefix]\nPrefix=2001:db8:a::/48\n\n"
                "[DHCPPrefixDelegation]\nSubnetId=0xf002\n")
    root = _repo(tmp_path, {"network": uci, "10-lan.network": networkd}, '"2001:db8:a::/48": "2001:db8:a::/52"')
    before = snapshot(root)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert snapshot(root) == before
    assert ("network:7: outside the new, smaller network: the subnet ID f000 picks a /64 of 2001:db8:a::/48, "
            "and 2001:db8:a::/52 has IDs up to fff only") in done.stderr, done.stderr
    assert "10-lan.network:8: outside the new, smaller network: the subnet ID f002" in done.stderr, done.stderr
    root = _repo(tmp_path, {"network": uci.replace("'f000'", "'f00'")}, '"2001:db8:a::/48": "2001:db8:a::/52"')
    done = run(root, "sweep", "--commit")
    assert done.exit_code in (0, 1), done.stdout + done.stderr
    assert "subnet ID" not in done.stdout + done.stderr
