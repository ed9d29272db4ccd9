#!/bin/bash
# 23 (sev 2): `renamer init` leaves out, without a word, every file under a folder named `dns/`
# (renamer's own DNS inventory defaults to `dns/`; configuration.md: "never swept as text"). Real case:
# ChristianLempa/homelab keeps its DNS A records as Terraform in dns/dns-prod-1/terraform/; init on
# `srv-prod-2=app-prod-1, 10.20.0.3=10.20.0.30` said "Old values found in 5 files" (8 hold them),
# listed no unclassified file, and the proposal's dry run rewrote the inventory, Prometheus and
# Proxmox but not the DNS records. The allowlist it writes says "Files listed at the end are
# unclassified" and lists none. verify then fails on them as unclassified, so they are not lost, but
# init's count and proposal are wrong, and nothing says that dns/ is taken for renamer's inventory
# (this repo has no resolvers.yaml there).
. "$(dirname "$0")/lib.sh"
mkrepo 23
mkdir -p dns/zones edge inventory
printf '$ORIGIN lab.example.\n@ IN SOA ns1 hostmaster 2025030101 3600 600 86400 300\nweb01 IN A 10.0.0.70\n' > dns/zones/db.lab.example
printf 'resource "dns_a_record_set" "web" {\n  zone = "lab.example."\n  name = "web01"\n  addresses = ["10.0.0.70"]\n}\n' > dns/records.tf
printf 'http:\n  routers:\n    grafana:\n      rule: "Host(`grafana.web01.lab.example`)"\n' > edge/traefik.yml
printf 'web01 ansible_host=10.0.0.70\n' > inventory/hosts.ini
commit
echo "== git grep: files holding an old value"; git grep -l -E 'web01|10\.0\.0\.70' | cat
echo "== renamer init"; renamer --color never init --from web01=app01 --from 10.0.0.70=10.0.1.90 2>&1
sed -n '/^current:/,/^records/p' allowlists/*.yaml
commit cfg
echo "== sweep --dry-run"; renamer --color never sweep --dry-run 2>&1 | grep -E '^(diff --git|Summary|Unclassified|  [a-z])'

# Part 2: init does not see composed addresses either, which verify then finds unclassified
# (geerlingguy/pi-cluster: `{{ ipv4_subnet_prefix }}.{{ ip_host_octet }}` in
# tasks/networking/static-networking.yml; notthebee/infra: `{{ networks.app.base }}.228/24` in
# roles/system/templates/netplan.yaml). init said "Old values found in 2 files" / "in 1 file".
mkrepo 23b
mkdir -p group_vars roles/net/templates
printf 'lan_prefix: "10.0.0"\n' > group_vars/all.yml
printf 'web01 host_octet=70\n' > hosts.ini
printf 'network:\n  ethernets:\n    eth0:\n      addresses: ["{{ lan_prefix }}.{{ host_octet }}/24"]\n' > roles/net/templates/netplan.yaml.j2
printf 'db01 10.0.0.70\n' > known.txt
commit
echo "== renamer init (part 2)"; renamer --color never init --from 10.0.0.70=10.0.1.90 2>&1 | grep -E 'found|Current'
commit cfg
echo "== verify (part 2)"; renamer --color never verify 2>&1 | grep -E 'unclassified|verify:' | cut -c1-200
