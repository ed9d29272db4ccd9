#!/bin/bash
# 25 (sev 2): for_each over a YAML/JSON file read by `yamldecode(file(...))`: the host name is the
# instance key (right: a `terraform-label` residual, no moved block can be written for it). But the
# address, a VALUE under that key (`web01: {ip: 10.0.0.70}`), is reported as "the instance key
# 10.0.0.70 of proxmox_vm_qemu.vm ... rename it by hand with a `moved` block (from =
# proxmox_vm_qemu.vm["10.0.0.70"], to = proxmox_vm_qemu.vm["10.0.1.90"])": there is no such
# instance, the advice is wrong (terraform would reject that moved block, or the operator wonders
# why an IP is a key), and the address is left unrewritten. The same value in a .tfvars map
# (`web01 = { ip = "10.0.0.70" }`) is rewritten, as it should be.
. "$(dirname "$0")/lib.sh"
mkrepo 25; cfg '{web01: app01}' '{10.0.0.70: 10.0.1.90}'
mkdir -p b
cat > b/main.tf <<'EOT'
locals {
  hosts = yamldecode(file("${path.module}/hosts.yaml"))
}
resource "proxmox_vm_qemu" "vm" {
  for_each  = local.hosts
  name      = each.key
  ipconfig0 = "ip=${each.value.ip}/24"
}
EOT
printf 'web01:\n  ip: 10.0.0.70\ndb01:\n  ip: 10.0.0.80\n' > b/hosts.yaml
commit
renamer --color never verify 2>&1 | grep -A1 'hosts.yaml:2' | cut -c1-520
