#!/bin/bash
# A Terraform computation in a file that names no literal address is never read under a resize
# (seen on randomcoww/homelab): config_env.tf (symlinked into each module folder) defines
# `service = { network = "192.168.208.0", cidr = 24, vips = { k8s-gateway = 33, minio = 34 } }` and
# merges `prefix = "${network.network}/${network.cidr}"`, `vips = {for s, n in ...: s => cidrhost(prefix, n)}`;
# other files compute `cidrhost(local.networks.service.prefix, host.netnum)`. Under the shrink
# 192.168.208.0/24 -> 192.168.208.0/27 the sweep rewrites `cidr = 24` to 27 and says nothing: vips 33, 34
# no longer fit a /27 (hosts 1-30): `terraform plan` fails on cidrhost, renamer said OK.
R=${RENAMER:-/work/main/.venv/bin/renamer}
D=/tmp/p38/computed; rm -rf $D; mkdir -p $D/mod; cd $D; git init -q; git config user.email t@t; git config user.name t
cat > config_env.tf <<'X'
locals {
  networks = {
    for key, network in {
      service = {
        network = "192.168.208.0"
        cidr    = 24
        vips = {
          apiserver   = 2
          k8s-gateway = 33
          minio       = 34
        }
      }
      lan = {
        network = "192.168.192.0"
        cidr    = 24
      }
    } :
    key => merge(network, {
      prefix = "${network.network}/${network.cidr}"
      vips = {
        for service, netnum in lookup(network, "vips", {}) :
        service => cidrhost("${network.network}/${network.cidr}", netnum)
      }
    })
  }
}
X
ln -s ../config_env.tf mod/config_env.tf
cat > mod/gateway.tf <<'X'
locals {
  gateway_ip = cidrhost(local.networks.service.prefix, 40)
  lan_ip     = cidrhost(local.networks.lan.prefix, 40)
}
X
printf 'version: 1\nrenames:\n  networks: {192.168.208.0/24: 192.168.208.0/27}\nallowlist: allow.yaml\n' > renamer.yaml
printf 'version: 1\ncurrent: ["**"]\n' > allow.yaml
git add -A; git commit -qm init
$R sweep --dry-run --color never 2>&1 | grep -v '^ \|^@@\|^diff\|^---\|^+++'
$R verify 2>&1 | tail -1
echo "expected: vips k8s-gateway=33, minio=34 and mod/gateway.tf's cidrhost(..., 40) over the service network refused or said (outside the /27); lan's cidrhost untouched"
