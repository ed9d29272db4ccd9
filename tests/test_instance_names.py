"""instance_names: which words of a manager's command or Ansible task name the instance it keeps
(pure logic; the CLI: tests/cli/test_tool_names_t36.py)."""

from __future__ import annotations

import pytest

from renamer import instance_names


def held(text: str) -> list[str]:
    data = text.encode()
    return [data[s:e].decode() for s, e, _ in instance_names.spans(data)]


@pytest.mark.parametrize(("text", "span"), [
    # the given cases (t36-sweep finding 09)
    ("virsh start web01\n", "web01"),
    ("virsh snapshot-create-as web01 pre-upgrade\n", "web01"),
    ("lxc exec web01 -- apt-get -y upgrade\n", "web01"),
    ("incus snapshot create web01 pre\n", "web01"),
    ("multipass exec web01 -- uptime\n", "web01"),
    ("limactl start web01\n", "web01"),
    ("VBoxManage startvm web01 --type headless\n", "web01"),
    ("machinectl start web01\n", "web01"),
    ("helm upgrade --install web01 ./charts/web -n apps\n", "web01"),
    ("- name: start\n  community.libvirt.virt:\n    name: web01\n    state: running\n", "web01"),
    # variants: global flags, valued flags, naming flags, copy verbs, other managers, other modules
    ("virsh -c qemu+ssh://kvm1/system shutdown --mode acpi web01\n", "web01"),
    ("virsh --connect qemu:///system dominfo web01\n", "web01"),
    ("virt-install --name web01 --ram 2048 --disk path=/x.qcow2,size=20\n", "web01"),
    ("virt-customize -d web01 --run-command 'apt-get update'\n", "web01"),
    ("virt-viewer --connect qemu:///system web01\n", "web01"),
    ("virt-xml web01 --edit --memory 2048\n", "web01"),
    ("lxc-attach -n web01 -- ls /\n", "web01"),
    ("lxc --project infra config set web01 limits.cpu 2\n", "web01"),
    ("lxc file push files/motd web01/etc/motd\n", "web01/etc/motd"),
    ("lxc launch images:debian/12 web01\n", "web01"),
    ("multipass launch 22.04 --name web01 --cpus 2\n", "web01"),
    ("multipass transfer web01:/etc/hosts ./hosts\n", "web01:/etc/hosts"),
    ("vboxmanage modifyvm web01 --memory 2048\n", "web01"),
    ("VBoxManage guestproperty get web01 /VirtualBox/GuestInfo/Net/0/V4/IP\n", "web01"),
    ("machinectl shell root@web01\n", "root@web01"),
    ("systemd-nspawn -M web01 -b\n", "web01"),
    ("systemctl enable --now systemd-nspawn@web01.service\n", "web01"),
    ("prlctl exec web01 uptime\n", "web01"),
    ("podman machine start web01\n", "web01"),
    ("docker-machine create -d virtualbox web01\n", "web01"),
    ("helm -n apps upgrade web01 bitnami/nginx -f values.yaml\n", "web01"),
    ("helm uninstall web01 --namespace apps\n", "web01"),
    ("helm get values web01 -o yaml\n", "web01"),
    ("- kubernetes.core.helm:\n    name: web01\n    chart_ref: bitnami/nginx\n    release_namespace: web\n", "web01"),
    ("- community.general.lxd_container:\n    name: web01\n    state: started\n", "web01"),
    ("- community.general.proxmox:\n    hostname: web01\n    node: pve1\n", "web01"),
    ("- community.general.proxmox_kvm:\n    name: web01\n    node: pve1\n", "web01"),
    ('resource "libvirt_domain" "vm" {\n  name   = "web01"\n  memory = 2048\n}\n', "web01"),
    ('resource "helm_release" "r" {\n  name  = "web01"\n  chart = "nginx"\n}\n', "web01"),
    ('resource "lxd_instance" "c" {\n  name  = "web01"\n  image = "images:debian/12"\n}\n', "web01"),
    ("k3d cluster create web01 --servers 1\n", "web01"),
    ("kind create cluster --name web01 --config kind.yaml\n", "web01"),
    ("- virt: name=web01 command=start\n", "web01"),
    ("- virt:\n    name: web01\n    command: destroy\n", "web01"),
])
def test_the_instance_is_spanned(text: str, span: str) -> None:
    assert span in held(text), held(text)


@pytest.mark.parametrize("text", [
    "virsh migrate --live vm1 qemu+ssh://web01/system\n",  # the target hypervisor is a host
    "virsh -c qemu+ssh://web01/system start vm1\n",
    "virsh define vms/web01.xml\n",  # a file of the repo
    "lxc exec vm1 -- ping web01\n",  # the command after `--`
    "chamber exec vm1 -- ./run web01\n",
    "limactl start ./web01.yaml\n",
    "helm upgrade --install web ./charts/web01 -f values/web01.yaml\n",
    "helm install --generate-name web01/nginx\n",  # a repository's chart, not a release
    "- community.docker.docker_container:\n    name: web01\n    image: nginx\n",  # keys nothing (as `docker run --name`)
    'resource "libvirt_domain" "vm" {\n  name = "vm1"\n  network_interface {\n    hostname = "web01"\n'
    '    name = "web01"\n  }\n}\n',  # a nested block's name
    'resource "helm_release" "r" {\n  name = "web"\n  set {\n    name  = "host"\n    value = "web01"\n  }\n}\n',
    "- kubernetes.core.helm:\n    name: web\n    chart_ref: x\n    values:\n      name: web01\n",
    "spec:\n  source:\n    helm:\n      values: |\n        name: web01\n",  # Argo CD's helm: key
    "# the lxc host web01 runs the containers\nping web01\n",
    "ssh web01 virsh list --all\n",
    "virt-customize -a disk.img --install web01\n",  # a package (found on techno-tim/launchpad's shape)
    "systemd-nspawn -M vm1 -D /var/lib/machines/vm1 web01\n",  # the command run inside
])
def test_the_hosts_own_name_is_not(text: str) -> None:
    assert not any("web01" in s for s in held(text)), held(text)


def test_a_note_names_the_manager_and_ends_with_the_store_advice() -> None:
    from renamer import state_names, store_names
    found = store_names.spans("d.sh", b"helm upgrade --install web01 ./chart\nvirsh start web01\n")
    notes = [note for _, _, note in found]
    assert any("Helm release" in n for n in notes) and any("libvirt domain" in n for n in notes), notes
    assert all(n.endswith(store_names.DONE) and state_names.hint(n) == store_names.HINT for n in notes)
