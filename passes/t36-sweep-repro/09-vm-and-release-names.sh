#!/bin/bash
# 09 (sev 1): machine and release names kept by other managers, the neighbours of t35 finding 06's
# fix (Nomad job, Vagrant machine, libvirt domain <name> are held). The same libvirt domain named by
# `virsh start`, an LXD/Incus instance, a Multipass or Lima VM, a VirtualBox VM, a machinectl
# container, an Ansible `community.libvirt.virt` task, and a Helm release (`helm upgrade --install web01`:
# renamed, helm installs a second release beside the old one, whose objects then collide) are
# rewritten. The instance keeps its name in its manager: each command now names nothing, or creates
# a second one. sweep --commit 0, verify --strict 0.
. "$(dirname "$0")/lib.sh"
mkrepo 09; cfg '{web01: app01}' '{10.0.0.70: 10.0.1.90}'
mkdir -p scripts
printf '#!/bin/sh\nvirsh start web01\nvirsh snapshot-create-as web01 pre-upgrade\n' > scripts/virsh.sh
printf '#!/bin/sh\nlxc exec web01 -- apt-get -y upgrade\nincus snapshot create web01 pre\n' > scripts/lxd.sh
printf '#!/bin/sh\nmultipass exec web01 -- uptime\nlimactl start web01\n' > scripts/vm.sh
printf '#!/bin/sh\nVBoxManage startvm web01 --type headless\nmachinectl start web01\n' > scripts/vbox.sh
printf '#!/bin/sh\nhelm upgrade --install web01 ./charts/web -n apps\n' > scripts/deploy.sh
printf -- '- name: start\n  community.libvirt.virt:\n    name: web01\n    state: running\n' > playbook.yml
commit
run_all 2>&1 | grep -E '^(rc|==|diff --git|[-+][^-+])'
