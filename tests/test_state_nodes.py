"""The grammar of a host's name as an identity a tool keeps state under, in the flag, environment
and API spellings state_keys.py's key rules do not read (break-it round 25, finding 02): pure logic;
the CLI behaviour is tests/cli/test_state_nodes.py."""

from __future__ import annotations

import pytest

from renamer import state_keys, state_nodes


def _at(data: bytes, word: bytes, nth: int = 0) -> tuple[int, int]:
    start = -1
    for _ in range(nth + 1):
        start = data.index(word, start + 1)
    return start, start + len(word)


@pytest.mark.parametrize(("rel", "data", "word", "nth", "what"), [
    ("bit.nix", b"''\n  profile1.snapshots.path.host=pug\n''\n", b"pug", 0, "Back In Time"),
    ("bit.conf", b"profile1.snapshots.ssh.host=pug\n", b"pug", 0, None),  # the ssh target: a machine
    ("c.sh", b"exec consul agent -node=pug -join=nas\n", b"pug", 0, "Consul"),
    ("c.sh", b"exec consul agent -node=cat -join=pug\n", b"pug", 0, None),  # the join peer follows
    ("c.sh", b"exec nomad agent -node=pug\n", b"pug", 0, None),  # no consul anywhere
    ("dc.yml", b"image: hashicorp/consul\ncommand: agent -node pug\n", b"pug", 0, "Consul"),
    ("c.env", b"CONSUL_NODE_NAME=pug\n", b"pug", 0, "Consul"),
    ("p.sh", b"pvesh get /nodes/pug/qemu --output-format json\n", b"pug", 0, "Proxmox"),
    ("p.sh", b"curl https://pve:8006/api2/json/nodes/pug/status\n", b"pug", 0, "Proxmox"),
    ("p.sh", b"curl https://docs.example/nodes/pug/\n", b"pug", 0, None),  # no API of Proxmox
    ("p.py", b"from proxmoxer import ProxmoxAPI\nfor vm in api.nodes('pug').qemu.get(): pass\n", b"pug", 0,
     "Proxmox"),
    ("vm.tf", b'resource "proxmox_vm_qemu" "w" {\n  target_node = "pug"\n}\n', b"pug", 0, "Proxmox"),
    ("vm.tf", b'resource "proxmox_virtual_environment_vm" "w" {\n  node_name = "pug"\n}\n', b"pug", 0,
     "Proxmox"),
    ("vm.tf", b'resource "thing" "w" {\n  target_node = "pug"\n}\n', b"pug", 0, None),
    ("p.yml", b"- community.general.proxmox_kvm:\n    node: pug\n    vmid: 1\n", b"pug", 0, "Proxmox"),
    ("p.yml", b"- proxmox_kvm:\n    api_host: pve\n- debug:\n    node: pug\n", b"pug", 0, None),
    ("k.service", b"ExecStart=/usr/local/bin/k3s agent --node-name pug\n", b"pug", 0, "Kubernetes node"),
    ("config.yaml", b"node-name: pug\ntoken: x\n", b"pug", 0, "Kubernetes node"),
    ("k.env", b"K3S_NODE_NAME=pug\nRKE2_NODE_NAME=pug\n", b"pug", 1, "Kubernetes node"),
    ("kubelet.service", b"ExecStart=/usr/bin/kubelet --hostname-override=pug\n", b"pug", 0, "Kubernetes node"),
    ("kubeadm.yaml", b"kind: InitConfiguration\nnodeRegistration:\n  name: pug\n  taints: []\n", b"pug", 0,
     "Kubernetes node"),
    ("kubeadm.yaml", b"kind: ClusterConfiguration\netcd:\n  local:\n    name: pug\n", b"pug", 0, None),
    ("borgmatic.yaml", b'archive_name_format: "pug-{now}"\n', b"pug", 0, "borg archive"),
    ("borgmatic.yaml", b'archive_name_format: "x-{now}"\nmatch_archives: "sh:pug-*"\n', b"pug", 0, "borg archive"),
    ("borgmatic.yaml", b'archive_name_format: "{hostname}-{now}"\nprefix: "pug-"\n', b"pug", 0, "borg archive"),
    ("prune.sh", b"borg prune --keep-daily 7 --glob-archives 'pug-*' ssh://b@nas/./r\n", b"pug", 0,
     "borg archive"),
    ("prune.sh", b"borg prune --keep-daily 7 -a 'x-*' ssh://b@pug/./r\n", b"pug", 0, None),  # the repo's host
])
def test_keyed(rel: str, data: bytes, word: bytes, nth: int, what: str | None) -> None:
    start, end = _at(data, word, nth)
    said = state_keys.keyed(rel, data, start, end)  # through state_keys, as the sweep asks it
    if what is None:
        assert said is None
    else:
        assert state_keys.might_hold(rel, data)
        assert said is not None and what in said
        assert state_nodes.keyed(rel, data, start, end) == said


def test_the_gate_reads_nothing_else() -> None:
    assert not state_nodes.might_hold(b"ssh pug uptime\n")
