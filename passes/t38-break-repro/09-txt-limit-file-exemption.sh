#!/bin/bash
# Finding: t37-break 07's fix exempts a WHOLE FILE from the 255-byte TXT-string refusal when the file
# mentions a consumer that splits long values (`cloudflare_record`, `azurerm_dns_txt_record`, or the word
# `octodns` anywhere, a comment included). A Route 53 SPF record beside a Cloudflare resource, or under a
# `# TODO: move these to octodns` comment, is written at 264 bytes in one string: Route 53 rejects it at
# apply (CharacterStringTooLong). The same record alone is refused (control). Expected: refused in all.
R=${RENAMER:-/work/t38-break/.venv/bin/renamer}
D=/tmp/t38-break/r11; rm -rf $D; mkdir -p $D; cd $D; git init -q; git config user.email t@t; git config user.name t
cat > renamer.yaml <<'Y'
version: 1
renames:
  hosts: {mx01.lab.example: mailrelay-primary01.lab.example}
allowlist: allow.yaml
Y
printf 'version: 1\ncurrent: ["**"]\n' > allow.yaml
SPF='v=spf1 a:mx01.lab.example ip4:192.0.2.0/24 ip4:198.51.100.0/24 ip4:203.0.113.0/24 include:_spf.google.com include:spf.protection.outlook.com include:servers.mcsv.net include:mailgun.org include:sendgrid.net include:amazonses.com include:zoho.eu ~all'
rec() { printf 'resource "aws_route53_record" "%s" {\n  zone_id = aws_route53_zone.lab.zone_id\n  name    = "%s"\n  type    = "TXT"\n  ttl     = 300\n  records = ["%s"]\n}\n' "$1" "$2" "$SPF"; }
mkdir -p control mixed comment
rec spf lab.example > control/dns.tf
{ rec spf lab.example; printf '\nresource "cloudflare_record" "www" {\n  zone_id = var.cloudflare_zone_id\n  name    = "www"\n  type    = "CNAME"\n  value   = "lab.example"\n}\n'; } > mixed/dns.tf
{ printf '# TODO: move these to octodns\n'; rec spf lab.example; } > comment/dns.tf
echo "SPF is ${#SPF} bytes before, $(( ${#SPF} + 15 )) after"
git add -A; git commit -qm init
$R sweep --dry-run 2>&1 | grep -E '^  [a-z]+/dns.tf:[0-9]+: name-limit' | cut -c1-90 | sort -u
git rm -rq control; git commit -qm 'drop control'
$R sweep 2>&1 | grep -E '^Summary|name-limit'; echo "sweep rc=${PIPESTATUS[0]} (expected 3)"
for f in mixed/dns.tf comment/dns.tf; do echo "$f: $(grep -o '"v=spf1[^"]*"' $f | tr -d '"' | wc -c | awk '{print $1-1}') bytes in one string"; done
