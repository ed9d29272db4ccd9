#!/bin/bash
# Finding 06: a Terraform for_each key that is a moved network's CIDR
# (`for_each = toset(["192.168.40.0/24", ...])`, `terraform_data.subnet["192.168.40.0/24"]`) is
# rewritten with its references but no `moved` block is written: `terraform plan` then destroys the
# old instance and creates a new one (for an aws_subnet: a subnet replaced). An old ADDRESS as a
# key gets a `moved` block (docs/matching.md "Terraform for_each instance keys": "An old address is
# a key as well"); a network's CIDR does not.
. "$(dirname "$0")/lib.sh"
mkrepo /tmp/t36-33/r20 "192.168.40.0/24: 10.20.0.0/22"
cat > main.tf <<'X'
resource "terraform_data" "subnet" {
  for_each = toset(["192.168.40.0/24", "10.99.0.0/24"])
  input    = each.key
}
output "lan" { value = terraform_data.subnet["192.168.40.0/24"].output }
X
printf '.terraform/\n*.tfstate*\n.terraform.lock.hcl\n' > .gitignore
commit
if command -v terraform >/dev/null; then terraform init -input=false >/dev/null 2>&1; terraform apply -auto-approve -input=false -no-color >/dev/null 2>&1; fi
$R sweep --commit --color never 2>&1 | grep -vE 'in-addr'
git --no-pager show --stat HEAD | tail -3
if command -v terraform >/dev/null; then terraform plan -input=false -no-color 2>&1 | grep -E 'destroy|create|has moved|Plan:'; fi
