"""Issue 33, outside pass round 4 (t31-33) findings 04, 05, 21, end to end on real git repos: a
length range written apart from FRR's ge/le (GoBGP, RouterOS), a non-contiguous Cisco wildcard,
an anonymous nft map whose keys a grow makes overlap. What the sweep refuses (exit 3, nothing
written) or leaves (exit 1), what it writes, verify after; nft -c in `unshare -rn` on what nft reads;
the wildcard's meaning with Cisco's rule in Python (no IOS here); GoBGP and RouterOS are not
installed: their documented rule (a range's low end below the prefix's length is refused by GoBGP,
never matched by RouterOS) stands in.
"""

from __future__ import annotations

import ipaddress
import shutil
import subprocess
import tempfile
from pathlib import Path

from tests.testing.repos import Run, make_repo, snapshot
from tests.testing.said import once

ALLOW = 'version: 1\ncurrent: ["**"]\n'


def _repo(tmp: Path, files: dict[str, str], networks: str) -> Path:
    config = f"version: 1\nrenames:\n  networks: {{{networks}}}\nallowlist: allow.yaml\n"
    return make_repo(Path(tempfile.mkdtemp(dir=tmp)) / "repo", files, config=config, allowlist=ALLOW)


# -- 04 ---------------------------------------------------------------------------------------------

GOBGP = ('[[defined-sets.prefix-sets]]\n  prefix-set-name = "lan"\n  [[defined-sets.prefix-sets.prefix-list]]\n'
         '    ip-prefix = "10.0.48.0/24"\n    masklength-range = "25..28"\n')
GOBGP_ALL = GOBGP.replace("25..28", "24..32")
ROS6 = "/routing filter add chain=bgp-in prefix=10.0.48.0/24 prefix-length=25-28 action=accept\n"
ROS7 = '/routing filter rule add chain=bgp-in rule="if (dst in 10.0.48.0/24 && dst-len in 25-28) { accept }"\n'
ROS7_CMP = ('/routing filter rule add chain=bgp-in rule="if (dst in 10.0.48.0/24 && dst-len>=25 && dst-len<=28) '
            '{ accept }"\n')


def test_length_ranges_a_shrink_passes_refuse_the_sweep(run: Run, tmp_path: Path) -> None:
    """t31-33 04: under /24 -> /26 (and IPv6 /48 -> /56) the low end 25 lies below the new length:
    GoBGP rejects the prefix set, RouterOS never matches. Before: rewritten to /26 with 25-28 kept,
    sweep 0, verify OK."""
    files = {"gobgp.toml": GOBGP, "ros6.rsc": ROS6, "ros7.rsc": ROS7,
             "v6.yaml": "prefix-list:\n  - ip-prefix: 2001:db8:a::/48\n    masklength-range: 49..64\n"}
    root = _repo(tmp_path, files, '10.0.48.0/24: 10.0.48.0/26, "2001:db8:a::/48": "2001:db8:a::/56"')
    before = snapshot(root)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert snapshot(root) == before
    err = done.stderr
    assert "gobgp.toml:4: tool-refuses: `10.0.48.0/24`: its masklength-range 25..28 are prefix lengths" in err, err
    assert "ros6.rsc:1: tool-refuses: `10.0.48.0/24`: its prefix-length=25-28" in err, err
    assert "ros7.rsc:1: tool-refuses: `10.0.48.0/24`: its dst-len in 25-28" in err, err
    assert "v6.yaml:2: tool-refuses: `2001:db8:a::/48`: its masklength-range 49..64" in err, err


def test_length_ranges_under_a_grow_are_residuals_and_every_prefix_inside_follows(run: Run, tmp_path: Path) -> None:
    """t31-33 04 under /24 -> /22: 25..28 now leaves out the /22, /23, /24 routes: a tied-length
    residual (exit 1, nothing of the entry rewritten, verify fails); `24..32` (every prefix inside)
    follows to `22..32`, and verify passes on it."""
    files = {"gobgp.toml": GOBGP, "ros6.rsc": ROS6, "ros7.rsc": ROS7_CMP}
    root = _repo(tmp_path, files, "10.0.48.0/24: 10.0.60.0/22")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    for name, text in files.items():
        assert (root / name).read_text() == text, name
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1
    for name in files:
        assert f"{name}:" in checked.stdout and "tied-length" in checked.stdout, checked.stdout
    root = _repo(tmp_path, {"gobgp.toml": GOBGP_ALL}, "10.0.48.0/24: 10.0.60.0/22")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "gobgp.toml").read_text() == GOBGP_ALL.replace("10.0.48.0/24", "10.0.60.0/22").replace(
        "24..32", "22..32")
    assert run(root, "verify", "--strict").exit_code == 0


# -- 05 ---------------------------------------------------------------------------------------------

IOS = ("access-list 110 permit ip 10.0.48.0 0.0.0.254 any\nip access-list extended EVEN\n"
       " permit ip 10.0.48.1 0.0.0.254 any\naccess-list 111 permit ip 10.0.48.0 0.0.0.255 any\n")


def _matches(base: str, wildcard: str, address: str) -> bool:
    b, w, a = (int(ipaddress.IPv4Address(v)) for v in (base, wildcard, address))
    return (a & ~w) == (b & ~w)


def test_a_pattern_wildcard_follows_a_grow_and_a_shrink_reaching_out_refuses(run: Run, tmp_path: Path) -> None:
    """t31-33 05: `10.0.48.0 0.0.0.254` (every even host) under /24 -> /22 becomes `10.0.60.0
    0.0.3.254`, every even host of the /22 (before: 0.0.0.254 kept, a quarter of it, sweep 0,
    verify OK); under /24 -> /25 the same rule matched .128-.254 too: refused."""
    root = _repo(tmp_path, {"ios.cfg": IOS}, "10.0.48.0/24: 10.0.60.0/22")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    text = (root / "ios.cfg").read_text()
    assert text == ("access-list 110 permit ip 10.0.60.0 0.0.3.254 any\nip access-list extended EVEN\n"
                    " permit ip 10.0.60.1 0.0.3.254 any\naccess-list 111 permit ip 10.0.60.0 0.0.3.255 any\n")
    new = ipaddress.IPv4Network("10.0.60.0/22")
    evens = {a for a in new if _matches("10.0.60.0", "0.0.3.254", str(a))}
    assert evens == {a for a in new if int(a) % 2 == 0}
    assert not _matches("10.0.60.0", "0.0.3.254", "10.0.64.2")
    assert run(root, "verify", "--strict").exit_code == 0
    # /29 -> /28 in place: 0.0.0.6 (even hosts of the /29) -> 0.0.0.14
    root = _repo(tmp_path, {"acl.cfg": "access-list 5 permit 10.0.48.0 0.0.0.6\n"}, "10.0.48.0/29: 10.0.48.0/28")
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "acl.cfg").read_text() == "access-list 5 permit 10.0.48.0 0.0.0.14\n"
    root = _repo(tmp_path, {"ios.cfg": IOS}, "10.0.48.0/24: 10.0.48.0/25")
    before = snapshot(root)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert snapshot(root) == before
    assert "ios.cfg:1: outside the new, smaller network: the wildcard 0.0.0.254 frees bits" in done.stderr, done.stderr
    assert "ios.cfg:3: outside the new, smaller network: the wildcard 0.0.0.254" in done.stderr, done.stderr


# -- 21 ---------------------------------------------------------------------------------------------

VMAP = ("table inet f {\n  chain input {\n    type filter hook input priority 0; policy accept;\n"
        "    ip saddr vmap { 10.0.48.0/24 : accept, 10.0.49.0/24 : drop }\n  }\n}\n")


def _nft_loads(path: Path) -> subprocess.CompletedProcess[str]:
    nft = shutil.which("nft") or "/usr/sbin/nft"
    return subprocess.run(["unshare", "-rn", nft, "-c", "-f", str(path)], capture_output=True, text=True,
                          check=False)


def test_an_anonymous_map_a_grow_makes_overlap_refuses(run: Run, tmp_path: Path) -> None:
    """t31-33 21: before, the vmap was written `10.0.48.0/23 : accept, 10.0.49.0/24 : drop`, exit 0,
    and nft refused the file (conflicting intervals specified). Variants: IPv6 /64 -> /60, a vmap
    under /24 -> /22 (refused); an anonymous set (nft merges it: written, loads)."""
    files = {"fw.nft": VMAP,
             "v6.nft": VMAP.replace("ip saddr", "ip6 saddr").replace("10.0.48.0/24", "2001:db8:a::/64")
             .replace("10.0.49.0/24", "2001:db8:a:1::/64"),
             "wide.nft": VMAP.replace("10.0.48.0/24", "10.0.52.0/24").replace("10.0.49.0/24", "10.0.54.0/24")}
    root = _repo(tmp_path, files, '10.0.48.0/24: 10.0.48.0/23, 10.0.52.0/24: 10.0.52.0/22, '
                 '"2001:db8:a::/64": "2001:db8:a::/60"')
    for name in files:
        assert _nft_loads(root / name).returncode == 0, name
    before = snapshot(root)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert snapshot(root) == before
    err = done.stderr
    assert ("fw.nft:4: tool-refuses: 10.0.48.0/24 is an element of the anonymous map at line 4, and as "
            "10.0.48.0/23 it would overlap 10.0.49.0/24") in err, err
    assert "v6.nft:4: tool-refuses: 2001:db8:a::/64 is an element of the anonymous map" in err, err
    assert "wide.nft:4: tool-refuses: 10.0.52.0/24 is an element of the anonymous map" in err, err
    plain = VMAP.replace("vmap { 10.0.48.0/24 : accept, 10.0.49.0/24 : drop }", "{ 10.0.48.0/24, 10.0.49.0/24 } accept")
    root = _repo(tmp_path, {"fw.nft": plain}, "10.0.48.0/24: 10.0.48.0/23")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert "{ 10.0.48.0/23, 10.0.49.0/24 }" in (root / "fw.nft").read_text()
    loaded = _nft_loads(root / "fw.nft")
    assert loaded.returncode == 0, loaded.stderr


def test_verify_fails_on_an_anonymous_map_a_grow_has_made_overlap(run: Run, tmp_path: Path) -> None:
    """t31-33 21 after the fact: the written vmap nft refuses fails verify --strict."""
    root = _repo(tmp_path, {"fw.nft": VMAP.replace("10.0.48.0/24 :", "10.0.48.0/23 :")}, "10.0.48.0/24: 10.0.48.0/23")
    assert _nft_loads(root / "fw.nft").returncode == 1
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1, checked.stdout
    assert "fw.nft:4:" in checked.stdout and "tool-refuses" in checked.stdout, checked.stdout


# -- 01 ---------------------------------------------------------------------------------------------


def test_a_range_of_last_octets_a_shrink_leaves_outside_refuses(run: Run, tmp_path: Path) -> None:
    """t31-33 01: `10.0.48.100-200` (prose, nmap's target) under `/24 -> /25` in place: before, no
    word (the first end stays where it is), --dry-run --strict 0, while `10.0.48.100 - 10.0.48.200`
    was refused. Variant: /24 -> /26 over `10.0.48.10-100`; `10.0.48.10-50` fits and is left."""
    files = {"notes.md": "The DHCP pool is 10.0.48.100-200 (leases).\n", "scan.sh": "nmap -sn 10.0.48.100-200\n",
             "fits.sh": "nmap -sn 10.0.48.10-50\n"}
    root = _repo(tmp_path, files, "10.0.48.0/24: 10.0.48.0/25")
    before = snapshot(root)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert snapshot(root) == before
    assert ("notes.md:1: outside the new, smaller network: `10.0.48.100-200`: the range's other end, 10.0.48.200 "
            "lies 200 addresses into 10.0.48.0/24, and 10.0.48.0/25 holds 128") in done.stderr, done.stderr
    assert "scan.sh:1: outside the new, smaller network" in done.stderr, done.stderr
    assert "fits.sh" not in done.stderr
    assert ipaddress.IPv4Address("10.0.48.200") not in ipaddress.IPv4Network("10.0.48.0/25")
    root = _repo(tmp_path, {"scan.sh": "nmap -sn 10.0.48.10-100\n", "fits.sh": "nmap -sn 10.0.48.10-50\n"},
                 "10.0.48.0/24: 10.0.48.0/26")
    done = run(root, "sweep", "--dry-run", "--strict")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert "scan.sh:1: outside the new, smaller network" in done.stderr and "fits.sh" not in done.stderr


def test_the_whole_network_as_a_range_of_last_octets_follows_whole(run: Run, tmp_path: Path) -> None:
    """t31-33 01: `10.0.48.0-255` under `/24 -> /22` became `10.0.60.0-255` (a /24) while the long
    spelling grew to `10.0.60.0-10.0.63.255`. Variants: in place /24 -> /23, /29 -> /28, a shrink
    /24 -> /25 (short: `10.0.48.0-127`); verify passes after."""
    files = {"notes.md": "LAN (all of it): 10.0.48.0-255\ncontrol: 10.0.48.0-10.0.48.255\n"}
    root = _repo(tmp_path, files, "10.0.48.0/24: 10.0.60.0/22")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "notes.md").read_text() == "LAN (all of it): 10.0.60.0-10.0.63.255\ncontrol: 10.0.60.0-10.0.63.255\n"
    assert run(root, "verify", "--strict").exit_code == 0
    for networks, old, new in (("10.0.48.0/24: 10.0.48.0/23", "10.0.48.0-255", "10.0.48.0-10.0.49.255"),
                               ("10.0.48.0/29: 10.0.48.0/28", "10.0.48.0-7", "10.0.48.0-15"),
                               ("10.0.48.0/24: 10.0.48.0/25", "10.0.48.0-255", "10.0.48.0-127")):
        root = _repo(tmp_path, {"scan.sh": f"nmap -sn {old}\n"}, networks)
        done = run(root, "sweep", "--commit")
        assert done.exit_code == 0, networks + done.stdout + done.stderr
        assert (root / "scan.sh").read_text() == f"nmap -sn {new}\n", networks
        first, _, last = new.partition("-")
        last = last if "." in last else f"{first.rsplit('.', 1)[0]}.{last}"
        net = ipaddress.IPv4Network(networks.split(": ")[1])
        assert (ipaddress.IPv4Address(first), ipaddress.IPv4Address(last)) == (net.network_address,
                                                                               net.broadcast_address)


# -- 06 ---------------------------------------------------------------------------------------------


def test_an_ospf_area_range_follows_and_pf_binat_to_names_the_map(run: Run, tmp_path: Path) -> None:
    """t31-33 06: `area 0 range 10.0.48.0 255.255.255.0` gave two `range` residuals calling the mask
    "the range's other end" (exit 1) while `summary-address` beside it followed; pf's `binat-to`
    target was a range's other end. Now the area range follows as network and mask (a /22 whose
    mask Python agrees with), and the pf rule is a `tied-length` residual naming the 1:1 map.
    Variant: /24 -> /25 in place (the mask narrows, the network stays)."""
    ios = "router ospf 1\n area 0 range 10.0.48.0 255.255.255.0\n summary-address 10.0.48.0 255.255.255.0\n"
    root = _repo(tmp_path, {"ios.cfg": ios}, "10.0.48.0/24: 10.0.60.0/22")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    text = (root / "ios.cfg").read_text()
    assert text == ("router ospf 1\n area 0 range 10.0.60.0 255.255.252.0\n"
                    " summary-address 10.0.60.0 255.255.252.0\n")
    assert ipaddress.IPv4Network("10.0.60.0/255.255.252.0") == ipaddress.IPv4Network("10.0.60.0/22")
    assert run(root, "verify", "--strict").exit_code == 0
    root = _repo(tmp_path, {"ios.cfg": ios}, "10.0.48.0/24: 10.0.48.0/25")
    assert run(root, "sweep", "--commit").exit_code == 0
    assert " area 0 range 10.0.48.0 255.255.255.128\n" in (root / "ios.cfg").read_text()
    pf = "pass out on egress from 10.0.48.0/24 to any binat-to 198.51.100.0/24\n"
    root = _repo(tmp_path, {"pf.conf": pf}, "10.0.48.0/24: 10.0.60.0/22")
    done = run(root, "sweep", "--dry-run", "--strict")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert "pf.conf:1:25: 10.0.48.0/24 (tied-length: a 1:1 network map" in done.stdout, done.stdout
    assert "(range:" not in done.stdout, done.stdout


# -- 25 ---------------------------------------------------------------------------------------------


def test_octets_a_loop_makes_outside_the_shrunk_network_refuse(run: Run, tmp_path: Path) -> None:
    """t31-33 25: Python `range(150, 160)`, shell `$(seq 150 160)` and `{150..160}`, Jinja's loop
    over `10.0.48.` under /24 -> /25 were `composed-address`/`pattern` residuals (exit 1) while the
    Terraform twin was refused: now refused too, nothing written; a loop inside the /25 (10-20)
    stays the residual it was."""
    files = {"gen.py": 'for i in range(150, 160):\n    print(f"10.0.48.{i}")\n',
             "scan.sh": "for i in $(seq 150 160); do ping -c1 10.0.48.$i; done\nfor i in {150..160}; do echo 10.0.48.$i; done\n",
             "hosts.j2": "{% for i in range(150, 160) %}host{{ i }} 10.0.48.{{ i }}\n{% endfor %}\n"}
    root = _repo(tmp_path, files, "10.0.48.0/24: 10.0.48.0/25")
    before = snapshot(root)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert snapshot(root) == before
    err = done.stderr
    assert ("gen.py:2: outside the new, smaller network: `10.0.48.{i}` makes 10.0.48.150 (for i in range(150, 160)): "
            "10.0.48.150 lies 150 addresses into 10.0.48.0/24") in err, err
    for where in ("scan.sh:1:", "scan.sh:2:", "hosts.j2:1:"):
        assert f"{where} outside the new, smaller network" in err, err
    assert ipaddress.IPv4Address("10.0.48.150") not in ipaddress.IPv4Network("10.0.48.0/25")
    inside = {"gen.py": files["gen.py"].replace("150, 160", "10, 20")}
    root = _repo(tmp_path, inside, "10.0.48.0/24: 10.0.48.0/25")
    done = run(root, "sweep", "--dry-run", "--strict")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert "gen.py:2" in done.stdout and "outside the new" not in done.stderr


# -- 11 ---------------------------------------------------------------------------------------------

NET_MD = ("# Networks\n- LAN: 10.0.48.0 (/24), gateway 10.0.48.1\n- LAN: 10.0.48.0, prefix /24\n"
          "- LAN: 10.0.48.0 with a /24 mask\n- LAN6: 2001:db8:a:10:: (/64)\n")
IPCALC_MD = ("```\nAddress:   10.0.48.0\nNetmask:   255.255.255.0 = 24   11111111.11111111.11111111. 00000000\n"
             "Network:   10.0.48.0/24\nHostMin:   10.0.48.1\nHostMax:   10.0.48.254\nBroadcast: 10.0.48.255\n"
             "Hosts/Net: 254\n```\n")


def test_a_length_near_its_address_and_pasted_ipcalc_output(run: Run, tmp_path: Path) -> None:
    """t31-33 11: `10.0.48.0 (/24)`, `2001:db8:a:10:: (/64)` kept the old length beside the new
    address, `, prefix /24` and `with a /24 mask` too, and a pasted ipcalc block became
    self-contradictory (`Netmask: 255.255.252.0 = 24`, `HostMax: 10.0.60.254`); sweep 0, verify OK.
    Now the bracketed lengths follow (/22, /60), the worded ones are `mask` residuals (exit 1, and
    verify keeps failing after), and the ipcalc block is left whole as residuals."""
    root = _repo(tmp_path, {"net.md": NET_MD, "ipcalc.md": IPCALC_MD},
                 '10.0.48.0/24: 10.0.60.0/22, "2001:db8:a:10::/64": "2001:db8:b:20::/60"')
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "net.md").read_text() == (
        "# Networks\n- LAN: 10.0.60.0 (/22), gateway 10.0.60.1\n- LAN: 10.0.60.0, prefix /24\n"
        "- LAN: 10.0.60.0 with a /24 mask\n- LAN6: 2001:db8:b:20:: (/60)\n")
    assert (root / "ipcalc.md").read_text() == IPCALC_MD
    assert ipaddress.ip_network("2001:db8:b:20::/60").prefixlen == 60
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1, checked.stdout
    assert "net.md:3:27: residual (mask): 24" in checked.stdout, checked.stdout
    assert "net.md:4:26: residual (mask): 24" in checked.stdout, checked.stdout
    once(checked.stdout, "ipcalc.md:5:12: residual (mask): 10.0.48.1", "ipcalc's output for 10.0.48.0/24")
