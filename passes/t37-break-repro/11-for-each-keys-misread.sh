#!/bin/bash
# Finding (real repo: adrienkohlbecker/homelab, terraform/dns_fahm_fr.tf + data/network_topology.yml):
# a for_each over a map with STATIC keys (a_box, a_pug) whose VALUES read a YAML file through
# yamldecode(file(...)) makes every moved address and renamed host of that YAML file a `terraform-label`
# residual ("the instance key 10.123.4.10 ... is not renamed: its keys come from file(...)"), and the
# file is left whole: the canonical topology keeps the old network while everything else moves.
R=${RENAMER:-/work/t37-break/.venv/bin/renamer}
D=/tmp/t37-break/r08; rm -rf $D; mkdir -p $D; cd $D; git init -q; git config user.email t@t; git config user.name t
cat > renamer.yaml <<'Y'
version: 1
renames:
  hosts: {pug: wolf}
  networks: {10.123.4.0/24: 10.123.14.0/24}
allowlist: allow.yaml
Y
printf 'version: 1\ncurrent: ["**"]\n' > allow.yaml
mkdir -p data terraform
cat > data/network_topology.yml <<'Y'
vlans:
  iot: { id: 4, cidr: 10.123.4.0/24, gateway: 10.123.4.1 }
hosts:
  box: { physical: 10.123.4.5 }
  pug: { physical: 10.123.4.6 }
devices:
  velux_klf200: { ip: 10.123.4.12 }
Y
cat > terraform/main.tf <<'Y'
locals {
  network = yamldecode(file("${path.module}/../data/network_topology.yml"))
  records = {
    a_box = { type = "A", name = "box.example.org", content = local.network.hosts.box.physical }
    a_pug = { type = "A", name = "pug.example.org", content = local.network.hosts.pug.physical }
  }
}

resource "cloudflare_dns_record" "lan" {
  for_each = local.records
  zone_id  = var.zone_id
  type     = each.value.type
  name     = each.value.name
  content  = each.value.content
  ttl      = 1
}
Y
git add -A; git commit -qm init
$R sweep 2>&1 | grep -E 'terraform-label|^Summary|Why' | cut -c1-260; echo "sweep rc=${PIPESTATUS[0]}"
echo "--- data/network_topology.yml after the sweep (expected: the iot VLAN, its hosts and pug moved; the instance keys a_box/a_pug never change):"
git diff --stat -- data/; cat data/network_topology.yml
