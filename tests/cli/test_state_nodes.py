"""A host's name as an identity a tool keeps state under, in spellings state_keys.py's key rules did
not read (break-it round 25, finding 02).

Back In Time's `snapshots.path.host` (real repo xerhaxs/nixos), Consul's `-node=` and
`CONSUL_NODE_NAME`, a Proxmox node in the API's path, Telmate's `target_node`, bpg's `node_name`, an
Ansible proxmox module's `node:`, a Kubernetes node's name (k3s/RKE2 `node-name`, `--node-name`,
`K3S_NODE_NAME`, kubelet `--hostname-override`, kubeadm `nodeRegistration.name`) and borg archive
prefixes (borgmatic `archive_name_format`, `match_archives`, `borg prune --glob-archives`) were
rewritten silently, sweep 0, verify --strict OK. Each is now a `state-name` residual, the file byte
for byte as it was, the sweep exits 1 and verify fails; the same words where they key nothing (the
join peer, the ssh target, a repository's machine, a docs URL) still move.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from tests.conftest import Result
from tests.testing.repos import PUG_ALLOW as ALLOW
from tests.testing.repos import PUG_CONFIG as CONFIG

# name: (path, content, the lines held)
CASES: dict[str, tuple[str, str | bytes, set[int]]] = {
    "backintime-nix": ("hosts/web/backintime.nix", "{ environment.etc.\"backintime/config\".text = ''\n"
                       "    profile1.snapshots.path=/mnt/bck\n    profile1.snapshots.path.host=pug\n"
                       "    profile1.snapshots.path.user=root\n  ''; }\n", {3}),
    "backintime-config-latin1": ("backintime/config", b"# sauvegard\xe9\nprofile2.snapshots.path.host=pug\n"
                                 b"profile2.snapshots.ssh.host=nas\n", {2}),
    "consul-flag": ("consul.sh", "#!/bin/sh\nexec consul agent -server -node=pug -data-dir=/opt/consul\n", {2}),
    "consul-compose": ("compose.yaml", "services:\n  consul:\n    image: hashicorp/consul:1.18\n"
                       "    command: agent -node pug -retry-join nas\n", {4}),
    "consul-env-crlf": ("node.env", b"CONSUL_NODE_NAME=pug\r\nK3S_NODE_NAME=pug\r\n", {1, 2}),
    "pvesh-path": ("pve.sh", "#!/bin/sh\npvesh get /nodes/pug/qemu --output-format json\n", {2}),
    "pve-api-curl": ("pve.sh", "#!/bin/sh\ncurl -s https://pve:8006/api2/json/nodes/pug/status\n", {2}),
    "proxmoxer": ("inventory.py", "from proxmoxer import ProxmoxAPI\napi = ProxmoxAPI('pve')\n"
                  "vms = api.nodes('pug').qemu.get()\n", {3}),
    "telmate-bpg": ("vm.tf", 'resource "proxmox_vm_qemu" "web" {\n  target_node = "pug"\n}\n'
                    'resource "proxmox_virtual_environment_vm" "db" {\n  node_name = "pug"\n}\n', {2, 5}),
    "ansible-proxmox-kvm": ("pve.yml", "- hosts: localhost\n  tasks:\n    - community.general.proxmox_kvm:\n"
                            "        node: pug\n        vmid: 100\n", {4}),
    "k3s-flag": ("k3s.service", "[Service]\nExecStart=/usr/local/bin/k3s server --node-name pug --cluster-init\n",
                 {2}),
    "rke2-config-bom": ("rke2/config.yaml", b"\xef\xbb\xbfnode-name: pug\ntoken: x\n", {1}),
    "kubelet-override": ("kubelet.service", "[Service]\nExecStart=/usr/bin/kubelet --hostname-override=pug\n", {2}),
    "kubeadm": ("kubeadm.yaml", "apiVersion: kubeadm.k8s.io/v1beta3\nkind: JoinConfiguration\nnodeRegistration:\n"
                "  name: pug\n", {4}),
    "borgmatic-format": ("borgmatic.yaml", "repositories:\n  - path: ssh://backup@nas/./repo\n"
                         "archive_name_format: \"pug-{now}\"\nprefix: \"pug-\"\nkeep_daily: 7\n", {3, 4}),
    "borg-prune-prefix": ("prune.sh", "#!/bin/sh\nborg prune --keep-daily 7 --prefix pug- ssh://b@nas/./r\n",
                        {2}),
}

# the same words where they key nothing: they move
MOVES: dict[str, tuple[str, str, str]] = {
    "consul-join": ("consul.sh", "exec consul agent -node=cat -retry-join=pug\n",
                    "exec consul agent -node=cat -retry-join=wolf\n"),
    "backintime-ssh-host": ("backintime/config", "profile1.snapshots.ssh.host=pug\n",
                            "profile1.snapshots.ssh.host=wolf\n"),
    "borg-repo-host": ("prune.sh", "borg prune --keep-daily 7 ssh://b@pug.ana.lan/./r\n",
                       "borg prune --keep-daily 7 ssh://b@wolf.fv.lan/./r\n"),
    "docs-url": ("links.md", "See https://wiki.ana.lan/nodes/pug/ for the rack.\n",
                 "See https://wiki.ana.lan/nodes/wolf/ for the rack.\n"),
    "other-module-node": ("play.yml", "- debug:\n    node: pug\n", "- debug:\n    node: wolf\n"),
}


def _held(root: Path, run: Callable[..., Result]) -> set[tuple[str, int]]:
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    return {(str(f["path"]), int(f["line"])) for f in found if f.get("reason") == "state-name"}


@pytest.mark.parametrize("case", sorted(CASES))
def test_round25_a_node_identity_a_tool_keeps_state_under_is_a_residual(
        case: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    path, content, lines = CASES[case]
    root = repo({path: content}, config=CONFIG, allowlist=ALLOW)
    before = (root / path).read_bytes()
    assert _held(root, run) == {(path, line) for line in lines}
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert all(f"{path}:{line}:" in done.stdout for line in lines)
    assert (root / path).read_bytes() == before  # nothing of the file rewritten
    assert run(root, "verify").exit_code == 1  # never an OK
    assert run(root, "verify", "--strict").exit_code == 1
    if path.endswith(".sh"):
        subprocess.run(["bash", "-n", str(root / path)], check=True)
    if path.endswith((".yaml", ".yml")):
        yaml.safe_load(before.decode("utf-8-sig"))
    if path.endswith(".py"):
        compile(before, path, "exec")


@pytest.mark.parametrize("case", sorted(MOVES))
def test_round25_the_same_words_keying_nothing_still_move(case: str, repo: Callable[..., Path],
                                                          run: Callable[..., Result]) -> None:
    path, text, after = MOVES[case]
    root = repo({path: text}, config=CONFIG, allowlist=ALLOW)
    assert _held(root, run) == set()
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / path).read_text() == after
    assert run(root, "verify", "--strict").exit_code == 0


def test_round25_the_note_says_which_tool(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"backintime/config": "profile1.snapshots.path.host=pug\n",
                 "borgmatic.yaml": "archive_name_format: \"pug-{now}\"\n"}, config=CONFIG, allowlist=ALLOW)
    out = run(root, "verify").stdout
    assert "Back In Time's snapshot host" in out
    assert "borg archive name prefix" in out
