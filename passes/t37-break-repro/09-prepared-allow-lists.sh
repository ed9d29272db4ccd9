#!/bin/bash
# Finding: the operator prepared the move (best practice): each allow list already admits the new network
# beside the old one. Moving the mail host 192.0.2.25 -> 198.51.100.25 then gives two false residuals per
# list: `access-set` at the old network ("holding a renamed address") and `captured` at the new one ("falls
# under an access rule written for other addresses"), though the same SPF record / mynetworks / nginx
# allow block admitted the old address and admits the new one. Expected: nothing to decide; actual: 6
# residuals, verify fails.
R=${RENAMER:-/work/t37-break/.venv/bin/renamer}
D=/tmp/t37-break/r11; rm -rf $D; mkdir -p $D; cd $D; git init -q; git config user.email t@t; git config user.name t
cat > renamer.yaml <<'Y'
version: 1
renames:
  addresses: {192.0.2.25: 198.51.100.25}
allowlist: allow.yaml
Y
printf 'version: 1\ncurrent: ["**"]\n' > allow.yaml
cat > dns.tf <<'Y'
resource "aws_route53_record" "spf" { records = ["v=spf1 ip4:192.0.2.0/24 ip4:198.51.100.0/24 -all"] }
Y
cat > main.cf <<'Y'
mynetworks = 192.0.2.0/24 198.51.100.0/24
Y
cat > nginx.conf <<'Y'
allow 192.0.2.0/24;
allow 198.51.100.0/24;
deny all;
Y
git add -A; git commit -qm init
$R sweep -v 2>&1 | sed -n "/^Residual/,\$p" | cut -c1-400; $R verify | tail -1
