"""Silent wrong answers of a resized network move that break-it round 20p found (issue 33):
a range split at the old broadcast, a broadcast mapped into a /31 or /32, a share path read as a
length. Each end to end: what the sweep writes, and what verify says of what it leaves.
"""

from __future__ import annotations

from tests.testing.findings import networks_config as _config
from tests.testing.repos import Repo, Run
from tests.testing.said import once

ALLOW = ('version: 1\ncurrent: ["**"]\nrecords:\n'
         '  - {name: notes, paths: ["notes/**"], reason: dated notes}\n')


GROW = _config("10.9.0.0/24: 10.10.0.0/23, 10.0.48.0/29: 10.0.48.0/28")


def test_a_range_ending_at_the_old_broadcast_is_never_split(repo: Repo, run: Run) -> None:
    """finding 4b: one end inside, the other the old broadcast address: both ends are a `range`
    residual, nothing written; the whole network in range form (network..broadcast) moves whole."""
    files = {
        "fw.nft": "define LAN = 10.9.0.100-10.9.0.255\n",
        "fw.sh": "iptables -A INPUT -m iprange --src-range 10.9.0.7-10.9.0.255 -j ACCEPT\n",
        "dnsmasq.conf": "dhcp-range=10.9.0.100,10.9.0.255,12h\n",
        "dhcpd.conf": "range 10.0.48.2 10.0.48.7;\n",  # resized in place: the start stays, the end is the broadcast
        "whole.nft": "define ALL = 10.9.0.0-10.9.0.255\nip saddr 10.0.48.0-10.0.48.7 accept\n",
    }
    root = repo(files, config=GROW, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    for name in ("fw.nft", "fw.sh", "dnsmasq.conf", "dhcpd.conf"):
        assert (root / name).read_text() == files[name], name
    assert (root / "whole.nft").read_text() == ("define ALL = 10.10.0.0-10.10.1.255\n"
                                                "ip saddr 10.0.48.0-10.0.48.15 accept\n")
    checked = run(root, "verify")
    assert checked.exit_code == 1
    out = checked.stdout
    once(out, "fw.nft:1:14: residual (range): 10.9.0.100 -> 10.10.0.100",
         "the range's other end 10.9.0.255 is the broadcast address of 10.9.0.0/24")
    assert "fw.nft:1:25: residual (range): 10.9.0.255 -> 10.10.1.255" in out, out
    assert "fw.sh:1:42: residual (range): 10.9.0.7 -> 10.10.0.7" in out, out
    assert "dnsmasq.conf:1:23: residual (range): 10.9.0.255" in out, out
    assert "dhcpd.conf:1:17: residual (range): 10.0.48.7 -> 10.0.48.15" in out, out
    assert "whole.nft" not in out, out


SMALL = _config("10.0.48.0/30: 10.0.60.0/31, 10.0.50.0/29: 10.0.50.0/32")


def test_a_broadcast_into_a_network_without_one_is_a_residual(repo: Repo, run: Run) -> None:
    """finding 3: a /31 or /32 has no broadcast address: the old one is never written."""
    files = {
        "network/p2p.network": "[Address]\nAddress=10.0.48.1/30\nBroadcast=10.0.48.3\n",
        "cisco.cfg": (" ip broadcast-address 10.0.48.3\n ip broadcast-address 10.0.50.7\n"
                      "peer 10.0.48.3\n"),
    }
    root = repo(files, config=SMALL, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "network/p2p.network").read_text() == "[Address]\nAddress=10.0.60.1/31\nBroadcast=10.0.48.3\n"
    assert (root / "cisco.cfg").read_text() == files["cisco.cfg"]
    out = run(root, "verify").stdout
    once(out, "network/p2p.network:3:11: residual (broadcast): 10.0.48.3", "the broadcast address of 10.0.48.0/30, "
         "which becomes 10.0.60.0/31, a network with no broadcast address")
    assert "cisco.cfg:2:23: residual (broadcast): 10.0.50.7" in out, out
    assert "cisco.cfg:3:6: residual (broadcast): 10.0.48.3" in out, out


def test_a_share_path_after_a_double_slash_is_no_length(repo: Repo, run: Run) -> None:
    """finding 2: `//10.9.0.6/24` is the share `24` of host 10.9.0.6 (cifs, fstab, UNC)."""
    files = {
        "mounts.sh": "mount -t cifs //10.9.0.6/24 /mnt/share\nsmbclient smb://10.9.0.6/24\n",
        "fstab": "//10.9.0.6/24  /mnt/share  cifs  defaults 0 0\n10.9.0.7:/24   /mnt/nfs    nfs   defaults 0 0\n",
        "app.env": "SHARE=//10.9.0.6/24\nNET=10.9.0.0/24\n",
    }
    root = repo(files, config=GROW, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "mounts.sh").read_text() == ("mount -t cifs //10.10.0.6/24 /mnt/share\n"
                                                "smbclient smb://10.10.0.6/24\n")
    assert (root / "fstab").read_text() == ("//10.10.0.6/24  /mnt/share  cifs  defaults 0 0\n"
                                            "10.10.0.7:/24   /mnt/nfs    nfs   defaults 0 0\n")
    assert (root / "app.env").read_text() == "SHARE=//10.10.0.6/24\nNET=10.10.0.0/23\n"
    assert run(root, "verify").exit_code == 0


def test_a_mask_belongs_to_the_address_its_syntax_ties_it_to(repo: Repo, run: Run) -> None:
    """finding 1: `netmask M` after `-net A ... gw G` is A's, not the gateway's; nft's `& M`
    masks the address after it; a line whose mask follows two networks' addresses is a residual."""
    files = {
        "route.sh": ("route add -net 10.5.0.0 gw 10.9.0.1 netmask 255.255.255.0\n"
                     "route add -net 10.6.0.0 gw 10.9.0.1 netmask 255.255.255.0 dev eth1\n"
                     "route add -net 10.9.0.0 gw 10.1.0.1 netmask 255.255.255.0\n"
                     "route add -net 10.9.0.128 netmask 255.255.255.0 gw 10.9.0.1\n"
                     "ip route add 10.7.0.0/24 via 10.9.0.1\n"),
        "fw.nft": ("ip daddr 10.9.0.3 ip saddr & 255.255.255.0 == 192.168.1.0 accept\n"
                   "ip daddr 192.168.1.3 ip saddr & 255.255.255.0 == 10.9.0.0 accept\n"),
        "acl.cfg": ("access-list 10 permit 10.9.0.0 0.0.0.255\n"
                    "pair 10.9.0.4 10.8.0.4 mask 255.255.255.0\n"),
    }
    root = repo(files, config=GROW, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "route.sh").read_text() == (
        "route add -net 10.5.0.0 gw 10.10.0.1 netmask 255.255.255.0\n"
        "route add -net 10.6.0.0 gw 10.10.0.1 netmask 255.255.255.0 dev eth1\n"
        "route add -net 10.10.0.0 gw 10.1.0.1 netmask 255.255.254.0\n"
        "route add -net 10.10.0.128 netmask 255.255.254.0 gw 10.10.0.1\n"
        "ip route add 10.7.0.0/24 via 10.10.0.1\n")
    assert (root / "fw.nft").read_text() == ("ip daddr 10.10.0.3 ip saddr & 255.255.255.0 == 192.168.1.0 accept\n"
                                             "ip daddr 192.168.1.3 ip saddr & 255.255.254.0 == 10.10.0.0 accept\n")
    assert (root / "acl.cfg").read_text() == ("access-list 10 permit 10.10.0.0 0.0.1.255\n"
                                              "pair 10.10.0.4 10.8.0.4 mask 255.255.255.0\n")
    out = done.stdout  # the sweep says it; verify reads the swept file, which names no old address
    assert ("acl.cfg:2:29: 255.255.255.0 (mask: 255.255.255.0 follows addresses of more than one network on "
            "its line (10.9.0.4, 10.8.0.4), and its syntax does not say whose it is") in out, out
    assert "route.sh:" not in out and "fw.nft:" not in out, out


def test_yaml_list_items_are_stanzas_of_their_own(repo: Repo, run: Run) -> None:
    """finding 5: a sibling item's address says nothing of this item's mask or prefix."""
    files = {
        "a.yml": ("vlans:\n  - id: 12\n    address: 10.9.0.1\n    netmask: 255.255.255.0\n"
                  "  - id: 30\n    address: 10.30.0.1\n"),
        "b.yml": ("interfaces:\n  - name: lan\n    address: 10.9.0.1\n    netmask: 255.255.255.0\n"
                  "  - name: wan\n    dhcp: true\n    netmask: 255.255.255.0\n    prefix: 24\n"),
        "c.yml": ("- name: lan\n  address: 10.9.0.5\n  prefix: 24\n"
                  "- name: opt\n  address: 10.31.0.5\n  prefix: 24\n"),
    }
    root = repo(files, config=GROW, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "a.yml").read_text() == files["a.yml"].replace("10.9.0.1\n    netmask: 255.255.255.0",
                                                                   "10.10.0.1\n    netmask: 255.255.254.0")
    assert (root / "b.yml").read_text() == files["b.yml"].replace("10.9.0.1\n    netmask: 255.255.255.0",
                                                                   "10.10.0.1\n    netmask: 255.255.254.0")
    assert (root / "c.yml").read_text() == files["c.yml"].replace("10.9.0.5\n  prefix: 24",
                                                                   "10.10.0.5\n  prefix: 23")
    out = done.stdout
    assert "b.yml:7:14: 255.255.255.0 (mask:" in out, out
    assert "b.yml:8:13: 24 (mask:" in out, out
    assert "a.yml:" not in out.split("Residual")[-1] and "c.yml:" not in out.split("Residual")[-1], out


def test_a_supernet_spelled_with_a_mask_or_wildcard_is_a_residual(repo: Repo, run: Run) -> None:
    """finding 7: `10.9.0.0 255.255.0.0`, `0.0.255.255`, `/255.255.0.0` name a /16 as `10.9.0.0/16`
    does: a `supernet` residual, under a resize and an equal-length move alike; a longer mask (a
    subnet) follows."""
    files = {
        "r.cfg": ("ip route 10.9.0.0 255.255.0.0 Null0\n network 10.9.0.0 0.0.255.255 area 0\n"
                  "access-list 5 permit 10.9.0.0 0.0.255.255\n"
                  "ip route 10.9.0.128 255.255.255.128 10.9.0.1\n"),
        "fw.sh": "iptables -A FORWARD -d 10.9.0.0/255.255.0.0 -j DROP\n",
        "dhcpd.conf": "subnet 10.9.0.0 netmask 255.255.0.0 { }\n",
    }
    for config in (GROW, _config("10.9.0.0/24: 10.10.0.0/24")):
        root = repo(files, config=config, allowlist=ALLOW)
        done = run(root, "sweep", "--commit")
        assert done.exit_code == 1, done.stdout + done.stderr
        assert (root / "fw.sh").read_text() == files["fw.sh"]
        assert (root / "dhcpd.conf").read_text() == files["dhcpd.conf"]
        assert (root / "r.cfg").read_text() == files["r.cfg"].replace(
            "10.9.0.128 255.255.255.128 10.9.0.1", "10.10.0.128 255.255.255.128 10.10.0.1")
        out = run(root, "verify").stdout
        for where in ("r.cfg:1:10", "r.cfg:2:10", "r.cfg:3:22", "fw.sh:1:24", "dhcpd.conf:1:8"):
            assert f"{where}: residual (supernet): 10.9.0.0" in out, (where, out)


def test_a_supernet_a_yaml_stanza_spells_is_a_residual(repo: Repo, run: Run) -> None:
    """finding 7, keys: `network: 10.9.0.0` with `prefix: 16` or `netmask: 255.255.0.0` beside it."""
    files = {"site.yml": ("summary:\n  network: 10.9.0.0\n  netmask: 255.255.0.0\n\n"
                          "summary2:\n  network: 10.9.0.0\n  prefix: 16\n\n"
                          "lan:\n  network: 10.9.0.0\n  prefix: 24\n")}
    root = repo(files, config=GROW, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "site.yml").read_text() == files["site.yml"].replace(
        "lan:\n  network: 10.9.0.0\n  prefix: 24", "lan:\n  network: 10.10.0.0\n  prefix: 23")
    out = run(root, "verify").stdout
    assert "site.yml:2:12: residual (supernet): 10.9.0.0" in out, out
    assert "site.yml:6:12: residual (supernet): 10.9.0.0" in out, out
