#!/bin/bash
# Finding 19 (sev 3): a mask whose tie is certain by structure is left as a `mask` residual:
# a Windows DHCP export (Export-DhcpServer XML) <Scope> holding <ScopeId> and <SubnetMask>, and a
# Salt `network.managed` state whose arguments are a YAML list of one-key maps (- ipaddr: / - netmask:).
# The same pair as sibling keys of one YAML mapping, a Puppet hash or cloud-init follows (control).
. "$(dirname "$0")/lib.sh"
mkrepo /tmp/t36-33/r12 "192.168.40.0/24: 192.168.40.0/22"
cat > dhcp-export.xml <<'X'
<DHCPServer><IPv4><Scopes>
  <Scope>
    <ScopeId>192.168.40.0</ScopeId>
    <Name>LAN</Name>
    <SubnetMask>255.255.255.0</SubnetMask>
    <StartRange>192.168.40.100</StartRange>
    <EndRange>192.168.40.200</EndRange>
  </Scope>
</Scopes></IPv4></DHCPServer>
X
cat > net.sls <<'X'
eth0:
  network.managed:
    - proto: static
    - ipaddr: 192.168.40.2
    - netmask: 255.255.255.0
    - gateway: 192.168.40.1
X
printf 'eth0:\n  ipaddr: 192.168.40.3\n  netmask: 255.255.255.0\n' > control.yml
commit
$R sweep --commit --color never 2>&1 | grep -E '^  [a-z-]+\.(xml|sls|yml):' | cut -c1-160
git --no-pager diff HEAD~1 | grep -E '^[-+]' | grep -v '^+++\|^---'
