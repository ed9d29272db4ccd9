"""A network written as an address and a separate mask or wildcard (t32 round 25, finding 03): under
an address rename, one starting at the renamed address (OpenVPN `route A M`, IOS ACL/OSPF wildcards,
`ip route`, `route add -net .. netmask`, Windows `route ADD .. MASK`) and one holding it without
starting at it (an ACL, a pushed route) are `access-set` residuals, nothing of them rewritten, as the
slash spelling is; an interface's own address with its mask follows as before."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

ALLOW = 'version: 1\ncurrent: ["**"]\n'


def _config(old: str, new: str) -> str:
    return f"version: 1\nrenames:\n  addresses: {{{old}: {new}}}\nallowlist: allow.yaml\n"


def _residuals(root: Path, run: Callable[..., Result]) -> list[tuple[str, int, str]]:
    verify = run(root, "verify", "--format", "json")
    return sorted((f["path"], f["line"], f["reason"]) for f in json.loads(verify.stdout)["findings"]
                  if f.get("reason") == "access-set")


def test_a_network_starting_at_the_renamed_address_is_not_rewritten(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files: dict[str, str | bytes] = {
        "hosts": "web01 ansible_host=10.0.0.72\n",
        "server.conf": ('push "route 10.0.0.72 255.255.255.248"\nroute 10.0.0.72 255.255.255.248\n'
                        "# r\xe9seau du labo\n").encode("latin-1"),  # Latin-1
        "ios.cfg": "access-list 10 permit 10.0.0.72 0.0.0.7\r\nip access-list extended MGMT\r\n"
                   " permit ip 10.0.0.72 0.0.0.7 any\r\nrouter ospf 1\r\n network 10.0.0.72 0.0.0.7 area 0\r\n"
                   "ip route 10.0.0.72 255.255.255.248 10.0.0.1\r\n",  # CRLF
        "routes.sh": "#!/bin/sh\nroute add -net 10.0.0.72 netmask 255.255.255.248 gw 10.0.0.1\n"
                     "ip addr add 10.0.0.72/32 dev lo\n",
        "routes.bat": "\ufeffroute ADD 10.0.0.72 MASK 255.255.255.248 10.0.0.1\r\n",  # BOM, CRLF
    }
    root = repo(files, config=_config("10.0.0.72", "10.0.1.92"), allowlist=ALLOW)
    before = {rel: (root / rel).read_bytes() for rel in files}
    assert _residuals(root, run) == [
        ("ios.cfg", 1, "access-set"), ("ios.cfg", 3, "access-set"), ("ios.cfg", 5, "access-set"),
        ("ios.cfg", 6, "access-set"), ("routes.bat", 1, "access-set"), ("routes.sh", 2, "access-set"),
        ("server.conf", 1, "access-set"), ("server.conf", 2, "access-set")]
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr  # written, residuals left
    for rel in ("server.conf", "ios.cfg", "routes.bat"):
        assert (root / rel).read_bytes() == before[rel], rel
    assert (root / "hosts").read_text() == "web01 ansible_host=10.0.1.92\n"
    # the loopback host address (a /32) follows; the route's network stays; the script still parses
    script = (root / "routes.sh").read_text()
    assert "route add -net 10.0.0.72 netmask 255.255.255.248" in script and "10.0.1.92/32" in script
    subprocess.run(["bash", "-n", str(root / "routes.sh")], check=True)
    checked = run(root, "verify")
    assert checked.exit_code == 1 and "ios.cfg:1:" in checked.stdout, checked.stdout


@pytest.mark.parametrize("native", ["0", "1"])
def test_a_network_holding_the_renamed_address_in_a_file_spelling_no_old_value(
        native: str, repo: Callable[..., Path], run: Callable[..., Result],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RENAMER_NATIVE", native)  # the hyperscan first pass and the Python one alike
    files = {"hosts": "web01 ansible_host=10.0.0.70\n",
             "ios.cfg": "access-list 10 permit 10.0.0.64 0.0.0.15\nline vty 0 4\n access-class 10 in\n",
             "server.conf": 'push "route 10.0.0.64 255.255.255.240"\n',
             "ccd/branch": "iroute 10.0.0.64 255.255.255.192\r\n"}
    root = repo(files, config=_config("10.0.0.70", "10.0.1.90"), allowlist=ALLOW)
    assert _residuals(root, run) == [("ccd/branch", 1, "access-set"), ("ios.cfg", 1, "access-set"),
                                     ("server.conf", 1, "access-set")]
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "ios.cfg").read_text() == files["ios.cfg"]
    assert run(root, "verify", "--strict").exit_code == 1


@pytest.mark.parametrize("native", ["0", "1"])
def test_noop_a_host_with_its_mask_and_a_set_holding_both(
        native: str, repo: Callable[..., Path], run: Callable[..., Result],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RENAMER_NATIVE", native)
    files = {"ios.cfg": "interface Gi0/1\n ip address 10.0.0.70 255.255.255.0\n"
                        "access-list 10 permit 10.0.0.70 0.0.0.0\n",  # a host wildcard
             "server.conf": 'push "route 10.0.0.0 255.255.252.0"\n',  # holds the new address too
             "rc.conf": 'ifconfig_em0="inet 10.0.0.70 netmask 255.255.255.0"\n'}
    root = repo(files, config=_config("10.0.0.70", "10.0.1.90"), allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "ios.cfg").read_text() == files["ios.cfg"].replace("10.0.0.70", "10.0.1.90")
    assert (root / "rc.conf").read_text() == files["rc.conf"].replace("10.0.0.70", "10.0.1.90")
    assert (root / "server.conf").read_text() == files["server.conf"]
    subprocess.run(["sh", "-n", str(root / "rc.conf")], check=True)
    assert run(root, "verify", "--strict").exit_code == 0
