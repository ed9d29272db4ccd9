"""Prefix renumbering, outside pass t29-33: lengths the resize did not read, each end to end on a
real git repo (each failed on main: the address moved, the length stayed, sweep 0, verify OK).

03. Proxmox VE SDN subnet ids carry the length after a dash (`subnet: lab-10.0.48.0-24`).
04. pfSense/OPNsense virtual IPs keep the length in `<subnet_bits>` beside `<subnet>ADDRESS`.
13. Length keys named with a tail (`mask_bits`, `cidr_len`, `cidr_suffix`, `netbits`, `plen`), a
    weak tail paired by its own name (Terraform `lab_bits` beside `lab_network`, `LAN_LEN` beside
    `LAN_NET`) or standing alone beside an address key (shell `LEN=24` beside `NET=`).
15. A length after a slash in another dress: JSON's `\\/24`, a URL's `%2F24`, phpIPAM's
    `/cidr/A/24/`.
17. One-line JSON's `"prefix6"` beside `"ip"` and `"ip6"`; upper-case .env pairs (`LAN_PREFIX` beside
    `LAN_NETWORK`).
22. `=>` hashes: Puppet, PHP, Perl, Ruby.

Where the tool that reads the file is here, it reads the result (terraform console, sh, sed, perl);
Python's ipaddress, json, tomllib, configparser, xml.etree and urllib read the rest.
"""

from __future__ import annotations

import configparser
import ipaddress
import json
import re
import shutil
import subprocess
import tomllib
import urllib.parse
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml

from tests.testing.findings import networks_config as _config
from tests.testing.repos import Repo, Run

ALLOW = 'version: 1\ncurrent: ["**"]\n'


def _swept(root: Path, run: Run) -> None:
    """The sweep writes with exit 0, verify says OK, and a second sweep finds nothing."""
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    checked = run(root, "verify")
    assert checked.exit_code == 0, checked.stdout
    again = run(root, "sweep", "--dry-run")
    assert again.exit_code == 0 and "would change 0 files" in again.stdout, again.stdout


def _tool(name: str) -> str:
    found = shutil.which(name)
    assert found is not None, f"{name} is not installed (the test reads the result with it)"
    return found


# -- 03: Proxmox VE SDN subnet ids ---------------------------------------------------------------

SUBNETS = """subnet: lab-{v4}-{v4len}
\tvnet vlab
\tgateway {gw}
\tsnat 1

subnet: lab6-{v6}-{v6len}
\tvnet vlab
"""


@pytest.mark.parametrize(("v4old", "v4new", "v6old", "v6new"), [
    pytest.param("10.0.48.0/24", "10.0.60.0/22", "2001:db8:a:10::/64", "2001:db8:b:20::/60", id="repro-grow-elsewhere"),
    pytest.param("10.0.48.0/29", "10.0.48.0/28", "2001:db8:a::/48", "2001:db8:c::/56", id="29-28-in-place-48-56"),
    pytest.param("10.1.0.0/23", "10.1.0.0/24", "2001:db8:a:10::/64", "2001:db8:a:10::/60", id="shrink-in-place"),
])
def test_a_proxmox_subnet_id_follows_the_length(v4old: str, v4new: str, v6old: str, v6new: str,
                                                repo: Repo, run: Run) -> None:
    """The id `ZONE-ADDRESS-LENGTH` is the subnet's CIDR (Proxmox's SDN subnet plugin reads it so):
    its length follows, in subnets.cfg and wherever the id is named (an API call)."""
    def ids(v4: str, v6: str) -> dict[str, str]:
        a, b = ipaddress.ip_network(v4), ipaddress.ip_network(v6)
        return {"v4": str(a.network_address), "v4len": str(a.prefixlen), "gw": str(a.network_address + 1),
                "v6": str(b.network_address), "v6len": str(b.prefixlen)}
    old, new = ids(v4old, v6old), ids(v4new, v6new)
    api = "curl -X DELETE https://pve:8006/api2/json/cluster/sdn/vnets/vlab/subnets/lab-{v4}-{v4len}\n"
    root = repo({"etc/pve/sdn/subnets.cfg": SUBNETS.format(**old), "ops/drop.sh": api.format(**old)},
                config=_config(f'"{v4old}": "{v4new}", "{v6old}": "{v6new}"'), allowlist=ALLOW)
    _swept(root, run)
    text = (root / "etc/pve/sdn/subnets.cfg").read_text()
    assert text == SUBNETS.format(**new)
    read = [ipaddress.ip_network(f"{a}/{n}") for a, n in re.findall(r"^subnet: [a-z0-9]+-(.+)-(\d+)$", text, re.M)]
    assert read == [ipaddress.ip_network(v4new), ipaddress.ip_network(v6new)]
    assert (root / "ops/drop.sh").read_text() == api.format(**new)


def test_an_id_of_a_subnet_and_a_range_keep_their_numbers(repo: Repo, run: Run) -> None:
    """A subnet id of its own longer length (`z4-10.2.0.128-25`) keeps it, as `/25` does; an address
    then `-24` that is no network address of a /24, or with no id before it, is a range of last
    octets (`10.2.0.0-24`: .0 to .24), which follows by its offsets, the tail kept."""
    text = "subnet: z4-10.2.0.128-25\n\tvnet v4\n\nrange 10.2.0.0-24\nhost z-10.2.0.5-24\n"
    root = repo({"subnets.cfg": text}, config=_config('"10.2.0.0/24": "10.3.0.0/22"'), allowlist=ALLOW)
    _swept(root, run)
    assert (root / "subnets.cfg").read_text() == text.replace("10.2.0.", "10.3.0.")


# -- 04: pfSense / OPNsense virtual IPs ----------------------------------------------------------

CONFIG_XML = """<?xml version="1.0"?>
<pfsense>
  <interfaces>
    <lan>
      <if>igb1</if>
      <ipaddr>{lan}</ipaddr>
      <subnet>{lanlen}</subnet>
    </lan>
  </interfaces>
  <virtualip>
    <vip>
      <mode>carp</mode>
      <subnet>{vip}</subnet>
      <subnet_bits>{lanlen}</subnet_bits>
    </vip>
    <vip>
      <mode>ipalias</mode>
      <subnet>{vip6}</subnet>
      <subnet_bits>{v6len}</subnet_bits>
    </vip>
    <vip>
      <mode>ipalias</mode>
      <subnet>203.0.113.9</subnet>
      <subnet_bits>{lanlen}</subnet_bits>
    </vip>
  </virtualip>
</pfsense>
"""


@pytest.mark.parametrize(("v4old", "v4new", "v6old", "v6new"), [
    pytest.param("10.0.48.0/24", "10.0.60.0/22", "2001:db8:a:10::/64", "2001:db8:b:20::/60", id="repro-grow-elsewhere"),
    pytest.param("10.0.48.0/29", "10.0.48.0/28", "2001:db8:a::/48", "2001:db8:a::/56", id="29-28-48-56-in-place"),
    pytest.param("10.0.48.0/23", "10.0.48.0/24", "2001:db8:a:10::/60", "2001:db8:c::/64", id="shrink"),
])
def test_a_virtual_ip_length_follows_its_address(v4old: str, v4new: str, v6old: str, v6new: str,
                                                 repo: Repo, run: Run) -> None:
    """`<subnet>ADDRESS</subnet>` beside `<subnet_bits>N</subnet_bits>` (a CARP VIP, an IP alias):
    the length follows as the interface's `<subnet>` does; a VIP of another network keeps its own."""
    def values(v4: str, v6: str) -> dict[str, str]:
        a, b = ipaddress.ip_network(v4), ipaddress.ip_network(v6)
        return {"lan": str(a.network_address + 2), "vip": str(a.network_address + 1), "lanlen": str(a.prefixlen),
                "vip6": str(b.network_address + 1), "v6len": str(b.prefixlen)}
    old = values(v4old, v6old)
    root = repo({"config.xml": CONFIG_XML.format(**old)},
                config=_config(f'"{v4old}": "{v4new}", "{v6old}": "{v6new}"'), allowlist=ALLOW)
    _swept(root, run)
    tree = ET.parse(root / "config.xml").getroot()
    lan = tree.find("interfaces/lan")
    assert lan is not None
    networks = [ipaddress.ip_interface(f"{v.findtext('subnet')}/{v.findtext('subnet_bits')}").network
                for v in tree.iter("vip")]
    expected = [ipaddress.ip_network(v4new), ipaddress.ip_network(v6new),
                ipaddress.ip_network(f"203.0.113.9/{ipaddress.ip_network(v4old).prefixlen}", strict=False)]
    assert networks == expected
    assert ipaddress.ip_interface(f"{lan.findtext('ipaddr')}/{lan.findtext('subnet')}").network == expected[0]


# -- 13: length keys with a tail, weak tails paired by name ---------------------------------------

KEYS = ["mask_bits", "maskbits", "cidr_bits", "netbits", "net_bits", "netmask_bits", "network_bits",
        "subnet_bits", "cidr_len", "cidr_suffix", "plen", "prefixlen", "prefix_length", "masklen"]


@pytest.mark.parametrize(("old", "new"), [
    pytest.param("10.0.48.0/24", "10.0.60.0/22", id="repro-24-22"),
    pytest.param("10.0.48.0/23", "10.0.48.0/24", id="shrink-23-24-in-place"),
    pytest.param("2001:db8:a::/48", "2001:db8:b::/56", id="ipv6-48-56"),
])
def test_a_length_key_with_a_tail_follows(old: str, new: str, repo: Repo, run: Run) -> None:
    """Each key beside the moved network's only address key, in YAML; in one-line JSON, INI, TOML and
    HCL too: every one reads the new network after the sweep."""
    net = ipaddress.ip_network(old)
    address, length = str(net.network_address), net.prefixlen
    stanzas = "".join(f"{k.replace('_', '-')}:\n  network: \"{address}\"\n  {k}: {length}\n\n" for k in KEYS)
    root = repo({
        "nets.yaml": stanzas,
        "lan.json": f'{{"lan": {{"network": "{address}", "mask_bits": {length}}}}}\n',
        "lan.ini": f"[lan]\nnetwork={address}\ncidr_len={length}\n",
        "lan.toml": f'[lan]\nnetwork = "{address}"\nnetmask_bits = {length}\n',
        "main.tf": f'resource "x" "lan" {{\n  subnet      = "{address}"\n  subnet_bits = {length}\n}}\n',
    }, config=_config(f'"{old}": "{new}"'), allowlist=ALLOW)
    _swept(root, run)
    want = ipaddress.ip_network(new)
    for name, stanza in yaml.safe_load((root / "nets.yaml").read_text()).items():
        key = next(k for k in stanza if k != "network")
        assert ipaddress.ip_network(f"{stanza['network']}/{stanza[key]}") == want, name
    lan = json.loads((root / "lan.json").read_text())["lan"]
    assert ipaddress.ip_network(f"{lan['network']}/{lan['mask_bits']}") == want
    ini = configparser.ConfigParser()
    ini.read(root / "lan.ini")
    assert ipaddress.ip_network(f"{ini['lan']['network']}/{ini['lan']['cidr_len']}") == want
    toml = tomllib.loads((root / "lan.toml").read_text())["lan"]
    assert ipaddress.ip_network(f"{toml['network']}/{toml['netmask_bits']}") == want
    assert f"subnet_bits = {want.prefixlen}\n" in (root / "main.tf").read_text()


def test_terraform_bits_follow_the_network_of_their_name(repo: Repo, run: Run, tmp_path: Path) -> None:
    """`lab_bits = 24` beside `lab_network = "10.0.48.0"` (the repro): terraform console reads the
    moved /22."""
    tf = ('locals {\n  lab_network = "10.0.48.0"\n  lab_bits    = 24\n  wan_network = "192.0.2.0"\n'
          '  wan_bits    = 24\n}\noutput "lab" { value = "${local.lab_network}/${local.lab_bits}" }\n')
    root = repo({"lab.tf": tf}, config=_config('"10.0.48.0/24": "10.0.60.0/22"'), allowlist=ALLOW)
    _swept(root, run)
    assert "lab_bits    = 22\n" in (root / "lab.tf").read_text()
    assert "wan_bits    = 24\n" in (root / "lab.tf").read_text()  # another network's
    work = tmp_path / "tf"
    work.mkdir()
    shutil.copy(root / "lab.tf", work / "lab.tf")
    done = subprocess.run([_tool("terraform"), "console"], cwd=work, input='"${local.lab_network}/${local.lab_bits}"\n',
                          capture_output=True, text=True, check=False, timeout=120,
                          env={"TF_IN_AUTOMATION": "1", "PATH": "/usr/bin:/bin:/usr/local/bin",
                               "HOME": str(tmp_path), "CHECKPOINT_DISABLE": "1"})
    assert done.returncode == 0, done.stderr
    assert ipaddress.ip_network(done.stdout.strip().strip('"')) == ipaddress.ip_network("10.0.60.0/22")


def test_a_shell_length_variable_follows(repo: Repo, run: Run) -> None:
    """`NET=10.0.48.0` / `LEN=24` / `ip route add "$NET/$LEN"` and systemd's `Environment=LAN_NET=...
    LAN_LEN=24`: sh runs the new route."""
    script = '#!/bin/sh\nNET=10.0.48.0\nLEN=24\nip route add "$NET/$LEN" dev eth1\n'
    unit = "[Service]\nEnvironment=LAN_NET=10.0.48.0 LAN_LEN=24\n"
    root = repo({"up.sh": script, "lan.service": unit}, config=_config('"10.0.48.0/24": "10.0.60.0/22"'),
                allowlist=ALLOW)
    _swept(root, run)
    done = subprocess.run(["sh", "-c", 'ip() { echo "$@"; }; . ./up.sh'], cwd=root, capture_output=True,
                          text=True, check=True, timeout=30)
    assert done.stdout == "route add 10.0.60.0/22 dev eth1\n"
    assert (root / "lan.service").read_text() == "[Service]\nEnvironment=LAN_NET=10.0.60.0 LAN_LEN=22\n"


def test_a_weak_key_nothing_ties_is_left_unsaid(repo: Repo, run: Run) -> None:
    """`max_len`, `key_bits`, a bare `LEN` beside a gateway only: such names count other things, so
    no rewrite and no residual (the sweep exits 0); a strong key beside them still follows."""
    text = "network: 10.0.48.0\nprefix: 24\n\nbuffer:\n  max_len: 24\n  key_bits: 24\n"
    env = "GATEWAY=10.0.48.1\nLEN=24\n"
    root = repo({"a.yaml": text, "b.env": env}, config=_config('"10.0.48.0/24": "10.0.60.0/22"'), allowlist=ALLOW)
    _swept(root, run)
    assert (root / "a.yaml").read_text() == text.replace("10.0.48.0", "10.0.60.0").replace("prefix: 24", "prefix: 22")
    assert (root / "b.env").read_text() == "GATEWAY=10.0.60.1\nLEN=24\n"


# -- 15: a length after a slash in another dress ---------------------------------------------------

@pytest.mark.parametrize(("old", "new"), [
    pytest.param("10.0.48.0/24", "10.0.60.0/22", id="repro-24-22"),
    pytest.param("10.0.48.0/29", "10.0.48.0/28", id="29-28-in-place"),
    pytest.param("10.0.48.0/23", "10.0.48.0/24", id="shrink-23-24"),
])
def test_a_length_in_json_url_and_rest_dress_follows(old: str, new: str, repo: Repo, run: Run) -> None:
    """`"A\\/24"` (JSON's escaped solidus), `A%2F24` and `A%2f24` in a URL's path and query, phpIPAM's
    `/subnets/cidr/A/24/`: each reads the new network; a URL host in escaped dress keeps its path."""
    net = ipaddress.ip_network(old)
    a, n = str(net.network_address), net.prefixlen
    export = f'{{"subnet": "{a}\\/{n}", "url": "http:\\/\\/{net.network_address + 3}\\/{n}"}}\n'
    urls = (f"subnet_api: https://ipam.example.com/api/app/subnets/cidr/{a}/{n}/\n"
            f'hosts_api: "http://api/v1/subnets/{a}%2F{n}/hosts"\n'
            f'lower: "http://api/v1/subnets/{a}%2f{n}?x=1"\n'
            f'search: "https://netbox/ipam/prefixes/?q={a}%2F{n}"\n')
    root = repo({"export.json": export, "urls.yaml": urls}, config=_config(f'"{old}": "{new}"'), allowlist=ALLOW)
    _swept(root, run)
    want = ipaddress.ip_network(new)
    data = json.loads((root / "export.json").read_text())
    assert ipaddress.ip_network(data["subnet"]) == want
    assert urllib.parse.urlsplit(data["url"]).path == f"/{n}"  # a path, left
    read = yaml.safe_load((root / "urls.yaml").read_text())
    assert ipaddress.ip_network(read["subnet_api"].rstrip("/").split("/cidr/")[1]) == want
    assert ipaddress.ip_network(urllib.parse.unquote(read["hosts_api"].split("/")[-2])) == want
    assert ipaddress.ip_network(urllib.parse.unquote(urllib.parse.urlsplit(read["lower"]).path.split("/")[-1])) == want
    assert ipaddress.ip_network(urllib.parse.parse_qs(urllib.parse.urlsplit(read["search"]).query)["q"][0]) == want


def test_ipv6_in_json_dress_and_sed_follow(repo: Repo, run: Run) -> None:
    """`"2001:db8:a:10::\\/64"` under a grow in place to /60 (left whole before), and sed's `\\/`
    between its delimiters: sed substitutes the new network."""
    root = repo({"export.json": '{"v6": "2001:db8:a:10::\\/64", "v4": "10.0.48.0\\/24"}\n',
                 "fix.sh": "sed -e 's/10.0.48.0\\/24/lan/'\n"},
                config=_config('"2001:db8:a:10::/64": "2001:db8:a:10::/60", "10.0.48.0/24": "10.0.60.0/22"'),
                allowlist=ALLOW)
    _swept(root, run)
    data = json.loads((root / "export.json").read_text())
    assert (ipaddress.ip_network(data["v6"]), ipaddress.ip_network(data["v4"])) == (
        ipaddress.ip_network("2001:db8:a:10::/60"), ipaddress.ip_network("10.0.60.0/22"))
    command = (root / "fix.sh").read_text().split("'")[1]
    done = subprocess.run([_tool("sed"), "-e", command], input="10.0.60.0/22\n", capture_output=True, text=True,
                          check=True, timeout=30)
    assert done.stdout == "lan\n"


def test_a_path_after_an_address_stays_a_path(repo: Repo, run: Run) -> None:
    """`cp 10.0.48.5/24/x` is a path, and `/24/` after a segment that is not `cidr` or `search` too."""
    text = "cp 10.0.48.5/24/x\nget https://h/api/hosts/10.0.48.0/24/\n"
    root = repo({"notes.sh": text}, config=_config('"10.0.48.0/24": "10.0.60.0/22"'), allowlist=ALLOW)
    _swept(root, run)
    assert (root / "notes.sh").read_text() == text.replace("10.0.48.", "10.0.60.")


# -- 17: one-line JSON keys by family, upper-case .env pairs -------------------------------------

@pytest.mark.parametrize(("moves", "line", "expected"), [
    pytest.param('"192.168.1.0/24": "10.9.8.0/23", "2001:db8:a:10::/64": "2001:db8:b:20::/60"',
                 '{"lan": {"ip": "192.168.1.1", "prefix": 24, "ip6": "2001:db8:a:10::1", "prefix6": 64}}\n',
                 '{"lan": {"ip": "10.9.8.1", "prefix": 23, "ip6": "2001:db8:b:20::1", "prefix6": 60}}\n',
                 id="repro"),
    pytest.param('"10.0.48.0/29": "10.0.48.0/28", "2001:db8:a::/48": "2001:db8:b::/56"',
                 '{"ip6": "2001:db8:a::5", "prefix6": 48, "ip": "10.0.48.3", "prefix": 29}\n',
                 '{"ip6": "2001:db8:b::5", "prefix6": 56, "ip": "10.0.48.3", "prefix": 28}\n',
                 id="v6-first-29-28-48-56"),
    pytest.param('"10.0.48.0/29": "10.0.48.0/28", "2001:db8:a::/48": "2001:db8:b::/56"',
                 'lan: {address6: "2001:db8:a::5", prefix6: 48, address: 10.0.48.3, netmask: 255.255.255.248}\n',
                 'lan: {address6: "2001:db8:b::5", prefix6: 56, address: 10.0.48.3, netmask: 255.255.255.240}\n',
                 id="flow-yaml"),
])
def test_a_flow_line_length_is_of_its_family(moves: str, line: str, expected: str, repo: Repo, run: Run) -> None:
    root = repo({"lan.json": line}, config=_config(moves), allowlist=ALLOW)
    _swept(root, run)
    assert (root / "lan.json").read_text() == expected
    read = yaml.safe_load((root / "lan.json").read_text())  # JSON is YAML: the values as a reader sees them
    keys = read.get("lan", read)
    pairs = [("ip", "prefix"), ("ip6", "prefix6"), ("address6", "prefix6"), ("address", "netmask")]
    networks = {ipaddress.ip_interface(f"{keys[a]}/{keys[n]}").network for a, n in pairs if a in keys}
    moved = {ipaddress.ip_network(x) for x in re.findall(r'"[^"]+": "([^"]+)"', moves)}
    assert networks <= moved and len(networks) == 2, networks


def test_upper_case_env_pairs_follow(repo: Repo, run: Run) -> None:
    """`LAN_PREFIX` and `LAN_NETMASK` beside `LAN_NETWORK` (the repro: two `mask` residuals, exit 1),
    `SUBNET_MASK` beside `SUBNET`, `LAN_PREFIX6` beside `LAN_ADDRESS6` of another move."""
    env = ("LAN_NETWORK=10.0.48.0\nLAN_PREFIX=24\nLAN_NETMASK=255.255.255.0\n\nSUBNET=10.0.48.0\n"
           "SUBNET_MASK=255.255.255.0\n\nLAN_ADDRESS6=2001:db8:a::1\nLAN_PREFIX6=48\n")
    root = repo({".env": env}, config=_config('"10.0.48.0/24": "10.0.60.0/22", "2001:db8:a::/48": "2001:db8:b::/56"'),
                allowlist=ALLOW)
    _swept(root, run)
    values = dict(line.split("=", 1) for line in (root / ".env").read_text().split("\n") if "=" in line)
    assert ipaddress.ip_network(f"{values['LAN_NETWORK']}/{values['LAN_PREFIX']}") == ipaddress.ip_network("10.0.60.0/22")
    assert ipaddress.ip_network(f"{values['LAN_NETWORK']}/{values['LAN_NETMASK']}") == ipaddress.ip_network("10.0.60.0/22")
    assert ipaddress.ip_network(f"{values['SUBNET']}/{values['SUBNET_MASK']}") == ipaddress.ip_network("10.0.60.0/22")
    assert ipaddress.ip_interface(f"{values['LAN_ADDRESS6']}/{values['LAN_PREFIX6']}").network == \
        ipaddress.ip_network("2001:db8:b::/56")


# -- 22: `=>` hashes -----------------------------------------------------------------------------

@pytest.mark.parametrize(("old", "new"), [
    pytest.param("10.0.48.0/24", "10.0.60.0/22", id="repro-24-22"),
    pytest.param("10.0.48.0/23", "10.0.48.0/24", id="shrink-23-24"),
    pytest.param("10.0.48.0/29", "10.0.50.0/28", id="29-28-elsewhere"),
])
def test_lengths_in_arrow_hashes_follow(old: str, new: str, repo: Repo, run: Run) -> None:
    """Puppet, PHP, Perl (run), Ruby with strings and symbols: each length and mask follows."""
    net, to = ipaddress.ip_network(old), ipaddress.ip_network(new)
    a, n, m = net.network_address, net.prefixlen, net.netmask
    files = {
        "site.pp": f"network::interface {{ 'eth0':\n  ipaddress => '{a + 5}',\n  netmask   => '{m}',\n"
                   f"  prefix    => {n},\n}}\n",
        "lan.php": f"<?php\n$lan = ['network' => '{a}', 'prefix' => {n}];\n",
        "lan.pl": f'my %lan = (network => "{a}", prefixlen => {n});\nprint "$lan{{network}}/$lan{{prefixlen}}\\n";\n',
        "lan.rb": f"lan = {{ \"network\" => \"{a}\", \"prefix\" => {n} }}\nsym = {{ :network => '{a}', "
                  f":prefix => {n}, :netmask => '{m}' }}\n",
    }
    root = repo(files, config=_config(f'"{old}": "{new}"'), allowlist=ALLOW)
    _swept(root, run)
    done = subprocess.run([_tool("perl"), "lan.pl"], cwd=root, capture_output=True, text=True, check=True, timeout=30)
    assert ipaddress.ip_network(done.stdout.strip()) == to
    b = to.network_address
    assert (root / "site.pp").read_text() == (f"network::interface {{ 'eth0':\n  ipaddress => '{b + 5}',\n"
                                              f"  netmask   => '{to.netmask}',\n  prefix    => {to.prefixlen},\n}}\n")
    assert (root / "lan.php").read_text() == f"<?php\n$lan = ['network' => '{b}', 'prefix' => {to.prefixlen}];\n"
    assert (root / "lan.rb").read_text() == (f"lan = {{ \"network\" => \"{b}\", \"prefix\" => {to.prefixlen} }}\n"
                                             f"sym = {{ :network => '{b}', :prefix => {to.prefixlen}, "
                                             f":netmask => '{to.netmask}' }}\n")
