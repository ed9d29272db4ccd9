"""Neighbours of merged fixes an outside pass found still silent (t37-break, findings 04 and 06).

Each test builds a real git repo moving a network, runs `verify`, `sweep --commit` and `verify`
through the CLI, and reads the files after: a four-part version in any of its usual dresses is a
`version` residual, never renumbered (04); an address of the moved network glued to a port by a
dot, or spelled with `_` or `-`, is a near-miss under a network move as under an address rename
(06), never "verify: OK" with nothing said.
"""

from __future__ import annotations

import json

import pytest

from tests.testing.findings import networks_config as _config
from tests.testing.repos import Repo, Run

ALLOW = 'version: 1\ncurrent: ["**"]\n'

# --- finding 04: four-part versions in the dresses the first fix did not read -------------------

VERSIONS = {
    "agent.rc": 'BEGIN\n  BLOCK "040904b0"\n  BEGIN\n    VALUE "FileVersion", "10.0.0.12"\n'
                '    VALUE "ProductVersion", "10.0.0.13"\n  END\nEND\n',
    "PKGBUILD": "pkgname=contoso-agent\npkgver=10.0.0.14\npkgrel=1\n",
    "Gemfile": "source 'https://rubygems.org'\ngem 'contoso-agent', '10.0.0.15'\ngem \"b\", \">= 1\", \"10.0.0.16\"\n",
    "tool.gemspec": 'spec.add_dependency "contoso-agent", "10.0.0.17"\n'
                    "spec.add_development_dependency('x', '10.0.0.18')\n",
    "compose.yaml": "services:\n  agent:\n    image: registry.lab/contoso/agent:10.0.0.19\n",
    "values.yaml": "image:\n  repository: contoso/agent\n  tag: 10.0.0.20\n",
    "Dockerfile": "FROM contoso/base:10.0.0.21\n",
}
ADDRESSES = {  # beside them, addresses that look alike: each follows the move
    "compose.override.yaml": 'services:\n  agent:\n    extra_hosts:\n      - "db:10.0.0.5"\n'
                             "    image: 10.0.0.6:5000/agent:1.0\n",
    "run.sh": "docker run --add-host db:10.0.0.7 agent:1.0\n",
    "gems.yml": "gem_server: 10.0.0.8\n",
}


@pytest.mark.parametrize("networks", ["10.0.0.0/24: 10.0.9.0/24", "10.0.0.0/24: 10.8.0.0/22"])
def test_a_version_in_its_neighbour_dresses_is_a_residual_never_renumbered(
        repo: Repo, run: Run, networks: str) -> None:
    root = repo({**VERSIONS, **ADDRESSES}, config=_config(networks), allowlist=ALLOW)
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    versions = {(f["path"], f["old"]) for f in found if f["reason"] == "version"}
    assert versions == {(path, f"10.0.0.{n}") for path, n in [
        ("agent.rc", 12), ("agent.rc", 13), ("PKGBUILD", 14), ("Gemfile", 15), ("Gemfile", 16),
        ("tool.gemspec", 17), ("tool.gemspec", 18), ("compose.yaml", 19), ("values.yaml", 20),
        ("Dockerfile", 21)]}, found
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout  # residuals stand
    for path, text in VERSIONS.items():
        assert (root / path).read_text() == text, path
    new = "10.0.9." if "10.0.9.0" in networks else "10.8.0."
    assert (root / "compose.override.yaml").read_text() == (
        f'services:\n  agent:\n    extra_hosts:\n      - "db:{new}5"\n    image: {new}6:5000/agent:1.0\n')
    assert (root / "run.sh").read_text() == f"docker run --add-host db:{new}7 agent:1.0\n"
    assert (root / "gems.yml").read_text() == f"gem_server: {new}8\n"
    assert run(root, "verify").exit_code == 1


# --- finding 06: an address glued to a port by a dot, or spelled with other separators -----------

RUNBOOK = ("# NFS failover\n"
           "tcpdump: `IP 10.1.3.7.443 > 10.1.3.8.51234: Flags [S]`\n"
           "netstat: `tcp4 0 0 10.1.3.7.2049 10.1.3.99.50001 ESTABLISHED`\n"
           "rpcbind: `100003 3 tcp 10.1.3.7.8.1 nfs superuser`\n"
           "The filer itself: 10.1.3.7\n")
INVENTORY = "[nfs]\nnfs_10_1_3_7 ansible_host=10.1.3.7\nnfs-10-1-3-8 ansible_host=10.1.3.8\n"


def _near(run: Run, root: object) -> set[tuple[object, object, object]]:
    checked = json.loads(run(root, "verify", "--format", "json").stdout)
    return {(m["path"], m["text"], m["why"]) for m in checked["near_misses"]}


@pytest.mark.parametrize("networks", ["10.1.3.0/24: 10.1.9.0/24", "10.1.0.0/16: 10.2.0.0/16",
                                      "10.1.0.0/22: 10.1.8.0/22"])
def test_an_address_glued_to_a_port_is_a_near_miss_under_a_network_move(
        repo: Repo, run: Run, networks: str) -> None:
    root = repo({"runbook.md": RUNBOOK, "hosts.ini": INVENTORY}, config=_config(networks), allowlist=ALLOW)
    expected = {("runbook.md", "10.1.3.7", "part-of-name"), ("runbook.md", "10.1.3.8", "part-of-name"),
                ("runbook.md", "10.1.3.99", "part-of-name"), ("hosts.ini", "10_1_3_7", "separator"),
                ("hosts.ini", "10-1-3-8", "separator")}
    assert _near(run, root) == expected
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout
    # the plain addresses followed; the glued spellings stand, still said
    assert "The filer itself: 10.1.3.7" not in (root / "runbook.md").read_text()
    assert _near(run, root) == expected
    checked = run(root, "verify")
    assert "7 near-misses" in checked.stdout, checked.stdout  # each said, two per tcpdump line


def test_a_glued_address_outside_the_moved_network_is_not_said(repo: Repo, run: Run) -> None:
    """Not octet-aligned: 10.1.4.7 lies outside 10.1.0.0/22 though its first two octets match; an
    octet over 255 is no address; an address standing alone was rewritten, no near-miss."""
    files = {"notes.md": "IP 10.1.4.7.443 > 10.1.2.999.80\nIP 10.1.2.7.443\n",
             "only.ini": "[nfs]\nnfs_10_1_2_7\n"}
    root = repo(files, config=_config("10.1.0.0/22: 10.1.8.0/22"), allowlist=ALLOW)
    assert _near(run, root) == {("notes.md", "10.1.2.7", "part-of-name"), ("only.ini", "10_1_2_7", "separator")}


# --- t38-break finding 08: the family's next members ---------------------------------------------

PINS = {
    "Gemfile.lock": "GEM\n  specs:\n    agent (10.0.0.12)\n\nDEPENDENCIES\n  agent (= 10.0.0.12)\n",
    "Berksfile": "source 'https://supermarket.chef.io'\ncookbook 'agent', '= 10.0.0.12'\n",
    "metadata.rb": "name 'site'\ndepends 'agent', '= 10.0.0.12'\n",
    "Cargo.toml": '[package]\nname = "site"\n\n[dependencies]\nagent = "10.0.0.12"\n',
    "conanfile.txt": "[requires]\nagent/10.0.0.12\n",
    "setup.sh": "apt-get install -y agent=10.0.0.12\ndnf install -y agent-10.0.0.12-1.el9\n"
                "npm install agent@10.0.0.12\ngem install agent -v 10.0.0.12\n",
    "tasks.yml": "- name: agent\n  apt:\n    name: agent=10.0.0.12\n",
    "init.pp": "package { 'agent':\n  ensure => '10.0.0.12',\n}\n",
    "vars.tf": 'variable "agent_version" {\n  default = "10.0.0.12"\n}\n',
}


def test_package_pins_and_locks_are_versions_never_renumbered(repo: Repo, run: Run) -> None:
    files = {**PINS, "ntp.conf": "server 10.0.0.7\n", "proxy.sh": "npm install --registry http://ops@10.0.0.8/ x\n"}
    root = repo(files, config=_config("10.0.0.0/24: 10.0.9.0/24"), allowlist=ALLOW)
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert {f["path"] for f in found if f["reason"] == "version"} == set(PINS), found
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout
    for path, text in PINS.items():
        assert (root / path).read_text() == text, path
    assert (root / "ntp.conf").read_text() == "server 10.0.9.7\n"
    assert (root / "proxy.sh").read_text() == "npm install --registry http://ops@10.0.9.8/ x\n"
