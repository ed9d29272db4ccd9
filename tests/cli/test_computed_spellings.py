"""Computed addresses under a resize in the spellings the reader missed (t29-33 findings 02, 18).

Finding 02: Python and Ansible expressions counting from the end or the size (`max(NET.hosts())`,
`sorted(NET.hosts())[-1]`, netaddr's `IPNetwork(..)[-2]`, a `u""` literal, `NET.supernet(..)`,
`NET[NET.num_addresses - 2]`, `NET[-1] - 1`; Ansible's `ipaddr('range_usable')`, the `ipv4` alias,
a variable inside parentheses) had their network rewritten under `192.168.40.0/24:
192.168.40.0/22`: each value moved (40.254 -> 43.254), sweep 0, verify OK. Finding 18: the same in
Go (go-cidr's `cidr.Host(n, -2)` over `net.ParseCIDR`), JavaScript (netmask's `.last`), Ruby
(`IPAddr.new(..).to_range.to_a[-2]`) and CDK for Terraform's `Fn.cidrhost`/`Fn.cidrsubnet`. Each is
a `composed-address` residual now (the literal inside it kept), refused where a shrink leaves its
value outside, and said again by verify after the sweep. python's ipaddress, terraform's
cidrhost/cidrsubnet (go-cidr underneath) and node compute or parse every file the tests compare.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import jinja2
import pytest
import yaml

from tests.conftest import Result
from tests.testing.findings import networks_config as _config
from tests.testing.findings import reasons as _findings
from tests.testing.terraform import needs_terraform, require_terraform

ALLOW = 'version: 1\ncurrent: ["**"]\n'


GROW = _config("192.168.40.0/24: 192.168.40.0/22")


def _python(root: Path, name: str) -> list[str]:
    made = subprocess.run([sys.executable, name], cwd=root, capture_output=True, text=True, check=True)
    return made.stdout.split()


# --- finding 02: Python ----------------------------------------------------------------------

PY = """\
import ipaddress
NET = ipaddress.ip_network("192.168.40.0/24")
print(max(ipaddress.ip_network("192.168.40.0/24").hosts()))
print(sorted(ipaddress.ip_network("192.168.40.0/24").hosts())[-1])
print(ipaddress.ip_network(u"192.168.40.0/24")[-2])
print(ipaddress.ip_network("192.168.40.0/24").supernet(new_prefix=23))
print(NET[NET.num_addresses - 2])
print(ipaddress.ip_network("192.168.40.0/24")[-1] - 1)
print(list(ipaddress.ip_network("192.168.40.0/24"))[-2])
print(max(NET.hosts()))
print(ipaddress.ip_network("192.168.40.0/24")[5])
print(min(ipaddress.ip_network("192.168.40.0/24").hosts()))
"""


def test_python_spellings_counting_from_the_end_are_residuals_and_python_agrees(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"net.py": PY}, config=GROW, allowlist=ALLOW)
    before = _python(root, "net.py")
    assert before == ["192.168.40.254"] * 3 + ["192.168.40.0/23"] + ["192.168.40.254"] * 4 + [
        "192.168.40.5", "192.168.40.1"]
    expected = [("net.py", n, "composed-address") for n in range(3, 11)]
    assert _findings(root, run) == expected
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    after = _python(root, "net.py")
    # each literal line kept its value; NET's definition followed and its dependents are said
    assert [a for i, a in enumerate(after) if i not in (4, 7)] == [b for i, b in enumerate(before) if i not in (4, 7)]
    assert after[4] == after[7] == "192.168.43.254"
    text = (root / "net.py").read_text()
    assert 'print(ipaddress.ip_network("192.168.40.0/22")[5])' in text  # counts from the start: follows
    assert _findings(root, run) == expected
    shown = run(root, "verify").stdout
    assert "192.168.43.254" in shown and "max(NET.hosts())" in shown


NETADDR = """\
import netaddr
ROUTER = netaddr.IPNetwork("192.168.40.0/24")[-2]
LAST = list(netaddr.IPNetwork("192.168.40.0/24").iter_hosts())[-1]
EDGE = netaddr.IPNetwork("192.168.40.0/24").broadcast - 1
"""


def test_netaddr_networks_counting_from_the_end_are_residuals(repo: Callable[..., Path],
                                                               run: Callable[..., Result]) -> None:
    """netaddr (what ansible.utils computes with) indexes as ipaddress does: IPNetwork(..)[-2] is
    the address before the last; it is not installed here, so its file is only read."""
    root = repo({"gw.py": NETADDR}, config=GROW, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "gw.py").read_text() == NETADDR
    assert _findings(root, run) == [("gw.py", n, "composed-address") for n in (2, 3, 4)]


@pytest.mark.parametrize(("networks", "text", "code", "after"), [
    # /29 -> /28 grow in place: the last host moves from .6 to .14
    pytest.param("10.0.48.0/29: 10.0.48.0/28", 'X = max(ipaddress.ip_network("10.0.48.0/29").hosts())\n', 1,
                 None, id="v4-29-28-max-hosts"),
    # /24 -> /25 shrink in place: the old last host has no place: refused
    pytest.param("192.168.40.0/24: 192.168.40.0/25", 'X = sorted(ipaddress.ip_network("192.168.40.0/24").hosts())[-1]\n',
                 3, None, id="v4-24-25-shrink-refused"),
    # /23 -> /24 shrink elsewhere: supernet() of the new network is another network
    pytest.param("10.0.48.0/23: 10.0.70.0/24", 'X = ipaddress.ip_network("10.0.48.0/23").supernet()\n', 1, None,
                 id="v4-23-24-supernet"),
    # IPv6 /120 -> /116 grow in place, counting from the size
    pytest.param('"2001:db8:a::/120": "2001:db8:a::/116"',
                 'N = ipaddress.ip_network("2001:db8:a::/120")\nX = N[N.num_addresses - 2]\n', 1,
                 'N = ipaddress.ip_network("2001:db8:a::/116")\nX = N[N.num_addresses - 2]\n',
                 id="v6-120-116-num-addresses"),
    # the network through a string constant: `NET = ip_network(LAN)`
    pytest.param("192.168.40.0/24: 192.168.40.0/22",
                 'LAN = "192.168.40.0/24"\nNET = ipaddress.ip_network(LAN)\nX = NET[-2]\n', 1,
                 'LAN = "192.168.40.0/22"\nNET = ipaddress.ip_network(LAN)\nX = NET[-2]\n', id="v4-constant-name"),
    # /24 -> /22: min(hosts()) and NET[5] count from the start: they follow
    pytest.param("192.168.40.0/24: 192.168.40.0/22", 'X = min(ipaddress.ip_network("192.168.40.0/24").hosts())\n', 0,
                 'X = min(ipaddress.ip_network("192.168.40.0/22").hosts())\n', id="v4-min-follows"),
])
def test_python_variants(networks: str, text: str, code: int, after: str | None, repo: Callable[..., Path],
                         run: Callable[..., Result]) -> None:
    source = "import ipaddress\n" + text
    root = repo({"net.py": source}, config=_config(networks), allowlist=ALLOW)
    _python(root, "net.py")  # it runs
    done = run(root, "sweep", "--commit")
    assert done.exit_code == code, done.stdout + done.stderr
    assert (root / "net.py").read_text() == ("import ipaddress\n" + after if after is not None else source)
    _python(root, "net.py")  # and still runs
    if code == 1:
        assert ("net.py", source.count("\n"), "composed-address") in _findings(root, run)


# --- finding 02: Ansible ---------------------------------------------------------------------

PLAY = """\
- hosts: all
  vars:
    dhcp_span: "{{ '192.168.40.0/24' | ansible.utils.ipaddr('range_usable') }}"
    router_v4: "{{ '192.168.40.0/24' | ansible.utils.ipv4('last_usable') }}"
    router_paren: "{{ (lan_cidr | ansible.utils.ipaddr('last_usable')) }}"
    first: "{{ '192.168.40.0/24' | ansible.utils.ipv4('first_usable') }}"
"""


def test_ansible_spellings_counting_from_the_end_are_residuals(repo: Callable[..., Path],
                                                               run: Callable[..., Result]) -> None:
    files = {"group_vars/all.yml": "lan_cidr: 192.168.40.0/24\n", "site.yml": PLAY}
    root = repo(files, config=GROW, allowlist=ALLOW)
    expected = [("site.yml", n, "composed-address") for n in (3, 4, 5)]
    assert _findings(root, run) == expected
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    text = (root / "site.yml").read_text()
    assert text == PLAY.replace("'192.168.40.0/24' | ansible.utils.ipv4('first_usable')",
                                "'192.168.40.0/22' | ansible.utils.ipv4('first_usable')")
    assert (root / "group_vars/all.yml").read_text() == "lan_cidr: 192.168.40.0/22\n"
    assert _findings(root, run) == expected  # line 5 read through the rewritten definition
    shown = run(root, "verify").stdout
    assert "192.168.40.1-192.168.40.254" in shown and "192.168.40.1-192.168.43.254" in shown
    for play in yaml.safe_load(text):
        for value in play["vars"].values():
            jinja2.Environment().parse(value)


# --- finding 18: Go, JavaScript, Ruby, CDK for Terraform -----------------------------------

GO = """\
package main

import (
\t"net"

\t"github.com/apparentlymart/go-cidr/cidr"
)

func gw() net.IP {
\t_, n, _ := net.ParseCIDR("192.168.40.0/24")
\tip, _ := cidr.Host(n, -2)
\tfirst, _ := cidr.Host(n, 1)
\tdmz, _ := cidr.Subnet(n, 2, 1)
\t_ = n.Mask
\t_, _ = first, dmz
\treturn ip
}
"""
JS = """\
const { Netmask } = require("netmask");
const lan = new Netmask("192.168.40.0/24");
module.exports = { router: lan.last, base: lan.base, edge: new Netmask("192.168.40.0/24").last };
"""
RB = """\
require "ipaddr"
require "ipaddress"
ROUTER = IPAddr.new("192.168.40.0/24").to_range.to_a[-2]
BCAST = IPAddr.new("192.168.40.0/24").to_range.last
LAST = IPAddress("192.168.40.0/24").last
"""
CDK_TS = """\
import { Fn } from "cdktf";
const gw = Fn.cidrhost("192.168.40.0/24", -2);
const dmz = Fn.cidrsubnet('192.168.40.0/24', 2, 1);
const one = Fn.cidrhost("192.168.40.0/24", 1);
"""
CDK_PY = 'from cdktf import Fn\ngw = Fn.cidrhost("192.168.40.0/24", -2)\n'


def _console(expression: str, where: Path) -> str:
    where.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([require_terraform(), "console"], input=expression, capture_output=True, text=True,
                          check=True, cwd=where)
    return done.stdout.strip()


@needs_terraform
def test_other_languages_computing_from_the_end_are_residuals_and_terraform_agrees(
        tmp_path: Path, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files = {"gw.go": GO, "net.js": JS, "gw.rb": RB, "main.ts": CDK_TS, "main_cdk.py": CDK_PY}
    root = repo(files, config=GROW, allowlist=ALLOW)
    # what go-cidr computes (terraform's cidrhost and cidrsubnet are go-cidr's Host and Subnet;
    # netmask's .last, IPAddr's to_a[-2] and the gem's .last are the same address)
    assert _console('jsonencode([cidrhost("192.168.40.0/24", -2), cidrhost("192.168.40.0/22", -2), '
                    'cidrsubnet("192.168.40.0/24", 2, 1), cidrsubnet("192.168.40.0/22", 2, 1)])',
                    tmp_path / "console") == (
        '"[\\"192.168.40.254\\",\\"192.168.43.254\\",\\"192.168.40.64/26\\",\\"192.168.41.0/24\\"]"')
    expected = sorted([("gw.go", 11, "composed-address"), ("gw.go", 13, "composed-address"),
                       ("gw.go", 14, "composed-address"), ("net.js", 3, "composed-address"),
                       ("net.js", 3, "composed-address"), ("gw.rb", 3, "composed-address"),
                       ("gw.rb", 5, "composed-address"), ("main.ts", 2, "composed-address"),
                       ("main.ts", 3, "composed-address"), ("main_cdk.py", 2, "composed-address")])
    assert _findings(root, run) == expected
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    # inline literals are kept; a bound one (Go's n, JS' lan) is rewritten and its uses said
    assert (root / "gw.rb").read_text() == RB.replace('BCAST = IPAddr.new("192.168.40.0/24")',
                                                      'BCAST = IPAddr.new("192.168.40.0/22")')  # follows
    assert (root / "main.ts").read_text() == CDK_TS.replace('cidrhost("192.168.40.0/24", 1)',
                                                            'cidrhost("192.168.40.0/22", 1)')
    assert (root / "main_cdk.py").read_text() == CDK_PY
    assert 'net.ParseCIDR("192.168.40.0/22")' in (root / "gw.go").read_text()
    assert 'edge: new Netmask("192.168.40.0/24").last' in (root / "net.js").read_text()
    assert _findings(root, run) == expected  # verify after the sweep still names each
    shown = run(root, "verify").stdout
    assert "`.Mask` of Go's net.IPNet" in shown and "192.168.43.254" in shown
    subprocess.run([shutil.which("node") or "node", "--check", "net.js"], cwd=root, check=True)  # node parses it


@pytest.mark.parametrize(("networks", "name", "text", "code"), [
    # /24 -> /25 shrink in place: go-cidr's last-but-one host has no place in the /25
    pytest.param("192.168.40.0/24: 192.168.40.0/25", "gw.go",
                 '_, n, _ := net.ParseCIDR("192.168.40.0/24")\nip, _ := cidr.Host(n, -2)\n', 3, id="go-shrink"),
    # IPv6 /48 -> /56 shrink: the second /56 of the /48 is outside
    pytest.param('"2001:db8:a::/48": "2001:db8:a::/56"', "gw.go",
                 '_, n, _ := net.ParseCIDR("2001:db8:a::/48")\ns, _ := cidr.Subnet(n, 8, 1)\n', 3, id="go-v6-shrink"),
    # IPv6 /64 -> /60 grow: the range's last address is no broadcast address; it moves
    pytest.param('"2001:db8:a:10::/64": "2001:db8:a:10::/60"', "net.rb",
                 'LAST = IPAddr.new("2001:db8:a:10::/64").to_range.last\n', 1, id="ruby-v6-grow"),
    # /29 -> /28: IPv4's broadcast address follows (the range's end), the last usable does not
    pytest.param("10.0.48.0/29: 10.0.48.0/28", "net.rb",
                 'B = IPAddr.new("10.0.48.0/29").to_range.last\n', 0, id="ruby-broadcast-follows"),
    pytest.param("10.0.48.0/29: 10.0.48.0/28", "net.js",
                 'const l = new Netmask("10.0.48.0/29").last;\n', 1, id="netmask-29-28"),
    # cidr-tools and ip-cidr
    pytest.param("10.0.48.0/24: 10.0.48.0/22", "net.ts",
                 'const e = parseCidr("10.0.48.0/24").end - 1n;\n', 1, id="cidr-tools-end-minus-one"),
    pytest.param("10.0.48.0/24: 10.0.48.0/22", "net.ts",
                 'const a = [...expandCidr("10.0.48.0/24")][254];\n', 0, id="cidr-tools-from-start-follows"),
    pytest.param("10.0.48.0/24: 10.0.48.0/22", "net.js",
                 'const c = new IPCIDR("10.0.48.0/24");\nconst r = c.toArray()[c.toArray().length - 2];\n', 1,
                 id="ip-cidr-from-the-size"),
    pytest.param("10.0.48.0/24: 10.0.48.0/22", "net.rb",
                 'parts = IPAddress::IPv4.new("10.0.48.0/24").split(4)\n', 1, id="ipaddress-gem-split-opaque"),
    # the network through a string constant of the file
    pytest.param("192.168.40.0/24: 192.168.40.0/25", "gw.go",
                 'const lanCIDR = "192.168.40.0/24"\n_, n, _ := net.ParseCIDR(lanCIDR)\nip, _ := cidr.Host(n, -2)\n',
                 3, id="go-const-shrink"),
    pytest.param("192.168.40.0/24: 192.168.40.0/22", "net.ts",
                 "const CIDR: string = '192.168.40.0/24';\nexport const gw = new Netmask(CIDR).last;\n", 1,
                 id="ts-const-grow"),
])
def test_other_language_variants(networks: str, name: str, text: str, code: int, repo: Callable[..., Path],
                                 run: Callable[..., Result]) -> None:
    root = repo({name: text}, config=_config(networks), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == code, done.stdout + done.stderr
    if code == 3:
        assert (root / name).read_text() == text and f"{name}:{text.count(chr(10))}" in done.stdout + done.stderr
    if code == 1:
        assert any(path == name for path, _, reason in _findings(root, run) if reason == "composed-address")


def test_cdktf_fn_cidrhost_making_a_renamed_address_is_a_residual(repo: Callable[..., Path],
                                                                  run: Callable[..., Result]) -> None:
    """An address renamed alone (`10.0.40.11: 10.0.50.21`) that CDK for Terraform computes with
    Terraform's own cidrhost is said as the HCL twin is; a function of another name is not read."""
    config = "version: 1\nrenames:\n  addresses: {10.0.40.11: 10.0.50.21}\nallowlist: allow.yaml\n"
    text = ('import { Fn } from "cdktf";\nconst a = Fn.cidrhost("10.0.40.0/24", 11);\n'
            'const b = Fn.cidrsubnet("10.0.40.0/24", 4, 1);\nconst c = cidrhostx("10.0.40.0/24", 11);\n')
    root = repo({"main.ts": text}, config=config, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "main.ts").read_text() == text
    assert _findings(root, run) == [("main.ts", 2, "composed-address")]


USABLE = """\
last: "{{ ('192.168.40.0/24' | ansible.utils.usable_range)['usable_ips'][-2] }}"
fifth: "{{ ('192.168.40.0/24' | ansible.utils.usable_range).usable_ips[5] }}"
all: "{{ '192.168.40.0/24' | ansible.utils.usable_range }}"
"""


def test_ansible_usable_range_indexed_from_the_end_is_a_residual(repo: Callable[..., Path],
                                                                run: Callable[..., Result]) -> None:
    """usable_range lists every address of the network (its docs: 10.0.0.0 to 10.0.0.15 for a
    /28), so `['usable_ips'][-2]` counts from the end; `[5]` and the whole list follow."""
    root = repo({"vars.yml": USABLE}, config=GROW, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "vars.yml").read_text() == USABLE.replace(
        "('192.168.40.0/24' | ansible.utils.usable_range).usable_ips[5]",
        "('192.168.40.0/22' | ansible.utils.usable_range).usable_ips[5]").replace(
        "all: \"{{ '192.168.40.0/24'", "all: \"{{ '192.168.40.0/22'")
    assert _findings(root, run) == [("vars.yml", 1, "composed-address")]
    for value in yaml.safe_load((root / "vars.yml").read_text()).values():
        jinja2.Environment().parse(value)
