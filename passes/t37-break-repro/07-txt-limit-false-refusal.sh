#!/bin/bash
# Finding: a one-string SPF value that a rename grows past 255 bytes refuses the whole sweep (exit 3,
# name-limit) in every file, also where the consumer splits long TXT values itself or never reads DNS:
# octoDNS (record/chunked.py CHUNK_SIZE=255 splits on output), Cloudflare's cloudflare_record content
# (up to 2048), Azure's azurerm_dns_txt_record (up to 1024, split by the service), and a README that
# documents the record. Only aws_route53_record (the control) really needs the split.
R=${RENAMER:-/work/t37-break/.venv/bin/renamer}
D=/tmp/t37-break/r04; rm -rf $D; mkdir -p $D; cd $D; git init -q; git config user.email t@t; git config user.name t
cat > renamer.yaml <<'Y'
version: 1
renames:
  hosts: {mx1.example.com: outbound-relay-primary.mail.example.com}
allowlist: allow.yaml
Y
printf 'version: 1\ncurrent: ["**"]\n' > allow.yaml
SPF="v=spf1 a:mx1.example.com $(printf 'include:_spf%02d.example.net ' $(seq 1 6))ip4:192.0.2.0/24 ip4:198.51.100.0/24 ip4:203.0.113.0/24 -all"
echo "SPF is ${#SPF} bytes before, $(( ${#SPF} + 24 )) after"
mkdir -p octodns
printf "'':\n  - type: TXT\n    value: %s\n" "$SPF" > octodns/example.com.yaml
printf 'resource "cloudflare_record" "spf" {\n  zone_id = var.zone_id\n  name    = "@"\n  type    = "TXT"\n  content = "%s"\n}\n' "$SPF" > cf.tf
printf 'resource "azurerm_dns_txt_record" "spf" {\n  name = "@"\n  zone_name = "example.com"\n  resource_group_name = "dns"\n  ttl = 300\n  record {\n    value = "%s"\n  }\n}\n' "$SPF" > az.tf
printf '# Mail\n\nOur SPF record (published by octoDNS):\n\n`%s`\n' "$SPF" > README.md
git add -A; git commit -qm init
$R sweep; echo "sweep rc=$? (expected 0: none of these consumers refuses a 271-byte value)"
git status --short | head
