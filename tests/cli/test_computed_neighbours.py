"""A neighbour Terraform computes, and DNS inventory hosts, where a moved network lands (t31-33
finding 09, what k32-maps left; g31-gaps33), end to end on real git repos.

Under `10.0.48.0/24: 10.0.60.0/22` a literal `10.0.60.5` or `10.0.61.5` in a file was a collision
(k32-maps), but `cidrsubnet("10.0.0.0/16", 8, 61)` (10.0.61.0/24 to terraform) and an inventory
host at 10.0.60.5 were not: sweep and `verify --strict` passed them. Each is a collision now,
naming the value, the expression that computes it (or the host) and the move, before the sweep
and after it; the move's own values, the new network computed whole and a network holding it are
none.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.testing.findings import networks_config as _config
from tests.testing.repos import Repo, Run
from tests.testing.terraform import applied_outputs

ALLOW = 'version: 1\ncurrent: ["**"]\n'


def _collisions(run: Run, root: Path) -> list[tuple[str, str]]:
    done = run(root, "sweep", "--dry-run", "--format", "json")
    return sorted((str(c["path"]), str(c["value"])) for c in json.loads(done.stdout)["collisions"])


MAIN_TF = """\
variable "site" {
  default = "10.0.0.0/16"
}
locals {
  guest   = cidrsubnet("10.0.0.0/16", 8, 61)
  camera  = cidrhost(var.site, 15365)
  iot     = cidrsubnets("10.0.0.0/16", 8, 8)
  lan     = cidrsubnet("10.0.0.0/16", 6, 15)
  printer = cidrhost("10.0.48.0/24", 7)
  guest6  = cidrsubnet("2001:db8::/32", 16, 12)
  lab6    = cidrsubnet("2001:db8::/32", 32, 786434)
}
output "guest" { value = local.guest }
output "camera" { value = local.camera }
output "iot" { value = local.iot }
output "lan" { value = local.lan }
output "printer" { value = local.printer }
output "guest6" { value = local.guest6 }
output "lab6" { value = local.lab6 }
"""
NETS_PY = 'import ipaddress\nSPARE = ipaddress.ip_network("10.0.0.0/16")[15877]\nprint(SPARE)\n'
SITE = ("site: lab\ndomain: lab.lan\nnetwork: [10.0.0.0/16, 2001:db8::/32]\nhosts:\n"
        "  - {name: printer, address: 10.0.60.5}\n  - {name: cam, address: 10.0.61.5}\n"
        "  - {name: p6, address: '2001:db8:c:42::5'}\n  - {name: far, address: 10.0.70.5}\n")
FILES = {"main.tf": MAIN_TF, "nets.py": NETS_PY, "hosts.txt": "10.0.48.7 nas\n2001:db8:a:100::7 nas6\n",
         "dns/sites/lab.yaml": SITE}
NETWORKS = '10.0.48.0/24: 10.0.60.0/22, "2001:db8:a:100::/56": "2001:db8:c::/48"'
EXPECTED = sorted([
    ("main.tf", "10.0.61.0/24"),  # cidrsubnet: in the grown part
    ("main.tf", "10.0.60.5"),  # cidrhost over var.site's default: where the old network lands
    ("main.tf", "2001:db8:c:2::/64"),  # IPv6: where the old /56 lands
    ("nets.py", "10.0.62.5"),  # Python ipaddress
    ("dns/sites/lab.yaml", "10.0.60.5"), ("dns/sites/lab.yaml", "10.0.61.5"),
    ("dns/sites/lab.yaml", "2001:db8:c:42::5"),
])


def test_computed_neighbours_and_inventory_hosts_in_the_new_network_are_collisions(
        repo: Repo, run: Run, tmp_path: Path) -> None:
    root = repo(FILES, config=_config(NETWORKS), allowlist=ALLOW)
    # what terraform and python themselves make of the expressions
    outputs = applied_outputs(root, tmp_path)
    assert (outputs["guest"], outputs["camera"], outputs["lab6"]) == ("10.0.61.0/24", "10.0.60.5", "2001:db8:c:2::/64")
    assert outputs["iot"] == ["10.0.0.0/24", "10.0.1.0/24"] and outputs["lan"] == "10.0.60.0/22"
    assert (outputs["printer"], outputs["guest6"]) == ("10.0.48.7", "2001:db8:c::/48")
    ran = subprocess.run([sys.executable, str(root / "nets.py")], capture_output=True, text=True, check=True)
    assert ran.stdout == "10.0.62.5\n"
    # not: the move's own (cidrhost over the old network), the new networks computed whole, iot
    assert _collisions(run, root) == EXPECTED
    dry = run(root, "sweep", "--dry-run", "--strict")
    assert dry.exit_code == 1, dry.stdout + dry.stderr
    assert ("main.tf:5:13: warning: collision: 10.0.61.0/24 is already here, inside 10.0.60.0/22, which 10.0.48.0/24 "
            "grows into, outside 10.0.60.0-10.0.60.255 where 10.0.48.0/24 lands; `cidrsubnet(\"10.0.0.0/16\", 8, 61)` "
            "computes it from 10.0.0.0/16") in dry.stdout
    assert ("dns/sites/lab.yaml [hosts[printer]]: warning: collision: 10.0.60.5 is already here, inside 10.0.60.0/22, "
            "where 10.0.48.0/24 lands (10.0.60.0-10.0.60.255), and no address of 10.0.48.0/24 moves onto it") in dry.stdout
    assert "10.0.70.5" not in dry.stdout
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "hosts.txt").read_text() == "10.0.60.7 nas\n2001:db8:c::7 nas6\n"
    assert 'printer = cidrhost("10.0.60.0/22", 7)' in (root / "main.tf").read_text()
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1, checked.stdout
    assert "main.tf:5:13: error: collision: 10.0.61.0/24" in checked.stdout
    assert "nets.py:2:9: error: collision: 10.0.62.5" in checked.stdout
    assert "dns/sites/lab.yaml [hosts[p6]]: error: collision: 2001:db8:c:42::5" in checked.stdout
    # the expression the move rewrote (`cidrhost("10.0.60.0/22", 7)`) is its own, after the sweep too
    data = json.loads(run(root, "verify", "--format", "json").stdout)
    assert sorted((c["path"], c["value"]) for c in data["collisions"]) == EXPECTED


@pytest.mark.parametrize(("networks", "host", "site", "value"), [
    pytest.param("10.0.48.0/24: 10.0.60.0/24", "10.0.48.3", "10.0.60.5", "10.0.60.5", id="equal-length"),
    pytest.param("10.0.48.0/29: 10.0.70.0/28", "10.0.48.3", "10.0.70.4", "10.0.70.4", id="grow-29-28"),
    pytest.param("10.0.48.0/23: 10.0.70.0/24", "10.0.48.3", "10.0.70.200", "10.0.70.200", id="shrink-23-24"),
    pytest.param('"2001:db8:a:10::/64": "2001:db8:b:20::/60"', "2001:db8:a:10::3", "2001:db8:b:20::9",
                 "2001:db8:b:20::9", id="v6"),
])
def test_an_inventory_host_where_a_move_of_any_length_lands(repo: Repo, run: Run, networks: str, host: str,
                                                            site: str, value: str) -> None:
    text = ("site: lab\ndomain: lab.lan\nnetwork: [10.0.0.0/8, 2001:db8::/32]\nhosts:\n"
            f"  - {{name: cam, address: '{site}'}}\n")
    root = repo({"hosts.txt": f"{host} nas\n", "dns/sites/lab.yaml": text}, config=_config(networks),
                allowlist=ALLOW)
    assert _collisions(run, root) == [("dns/sites/lab.yaml", value)]
    assert run(root, "sweep", "--dry-run", "--strict").exit_code == 1


def test_an_inventory_host_the_move_gave_its_new_address_is_none_after_the_sweep(repo: Repo, run: Run) -> None:
    site = "site: lab\ndomain: lab.lan\nnetwork: 10.0.0.0/8\nhosts:\n  - {name: nas, address: 10.0.48.7}\n"
    root = repo({"hosts.txt": "10.0.48.7 nas\n", "dns/sites/lab.yaml": site},
                config=_config("10.0.48.0/24: 10.0.60.0/22"), allowlist=ALLOW)
    assert _collisions(run, root) == []
    assert run(root, "sweep", "--commit").exit_code == 0
    (root / "dns" / "sites" / "lab.yaml").write_text(site.replace("10.0.48.7", "10.0.60.7"))
    subprocess.run(["git", "-C", str(root), "commit", "-qam", "inventory: nas at its new address"], check=True)
    assert run(root, "verify", "--strict").exit_code == 0


def test_a_computed_network_elsewhere_is_none_and_one_holding_the_new_one_is_a_collision(repo: Repo,
                                                                                          run: Run) -> None:
    # b (10.0.56.0/21) is a network in use that the moved one lands inside and never overlapped the
    # old one: a collision since t36-33 finding 05 (a VLAN /20, a pod CIDR); a and c are elsewhere
    tf = ('locals {\n  a = cidrsubnet("10.0.0.0/16", 8, 70)\n  b = cidrsubnet("10.0.0.0/16", 5, 7)  # 10.0.56.0/21: holds the new network\n'
          '  c = cidrhost("10.0.0.0/16", 1)\n}\n')
    root = repo({"main.tf": tf, "hosts.txt": "10.0.48.7 nas\n"}, config=_config("10.0.48.0/24: 10.0.60.0/22"),
                allowlist=ALLOW)
    assert _collisions(run, root) == [("main.tf", "10.0.56.0/21")]
    assert run(root, "sweep", "--dry-run", "--strict").exit_code == 1


def test_ansible_and_python_neighbours_a_grow_in_place_swallows(repo: Repo, run: Run) -> None:
    files = {
        "group_vars/all.yml": ("iot_net: \"{{ '10.0.0.0/16' | ansible.utils.ipsubnet(24, 49) }}\"\n"
                               "cam: \"{{ '10.0.0.0/16' | ansible.utils.nthhost(12805) }}\"\n"),
        "nets.py": ('import ipaddress\nDMZ = list(ipaddress.ip_network("10.0.0.0/16").subnets(new_prefix=24))[50]\n'
                    "print(DMZ)\n"),
        "hosts.txt": "10.0.48.7 nas\n",
    }
    root = repo(files, config=_config("10.0.48.0/24: 10.0.48.0/22"), allowlist=ALLOW)
    ran = subprocess.run([sys.executable, str(root / "nets.py")], capture_output=True, text=True, check=True)
    assert ran.stdout == "10.0.50.0/24\n"  # python's own value; 12805 = 50 * 256 + 5: 10.0.50.5
    assert _collisions(run, root) == [("group_vars/all.yml", "10.0.49.0/24"), ("group_vars/all.yml", "10.0.50.5"),
                                      ("nets.py", "10.0.50.0/24")]
    assert run(root, "sweep", "--dry-run", "--strict").exit_code == 1
    assert run(root, "sweep", "--commit").exit_code == 0
    assert run(root, "verify", "--strict").exit_code == 1
