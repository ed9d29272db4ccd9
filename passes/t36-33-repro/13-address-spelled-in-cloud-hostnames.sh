#!/bin/bash
# Finding 13: a host name that spells a moved address with dashes, as the clouds derive their
# private DNS names (AWS ip-A-B-C-D.ec2.internal / REGION.compute.internal, also k8s node names of
# EKS, and GCP/Azure-style "ip-" names), is neither rewritten nor said after the network moves;
# the same dashed address under sslip.io IS a `wildcard-dns` residual (control).
. "$(dirname "$0")/lib.sh"
mkrepo /tmp/t36-33/r06 "192.168.40.0/24: 10.20.0.0/22"
cat > nodes.yml <<'X'
workers:
  - name: ip-192-168-40-5.ec2.internal
    address: 192.168.40.5
  - name: ip-192-168-40-6.eu-west-1.compute.internal
    address: 192.168.40.6
X
printf 'Host bastion\n  HostName ip-192-168-40-7.ec2.internal\n' > ssh_config
printf 'kubectl drain ip-192-168-40-5.ec2.internal --ignore-daemonsets\n' > drain.sh
printf 'url: https://app.192-168-40-9.sslip.io\n' > control.yml
commit
$R sweep --commit --color never 2>&1 | grep -E '^  [a-z_]+\.(yml|sh)|^  ssh|Summary|committed' | cut -c1-160
echo "--- verify:"; $R verify --color never 2>&1 | grep -E '^[a-z_]+[.a-z]*:[0-9]|verify:' | cut -c1-120
git --no-pager diff HEAD~1 -- nodes.yml | grep '^[-+][^-+]'
