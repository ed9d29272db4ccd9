#!/bin/bash
# 14 (sev 1): saved tool output and dated ledgers are records, but `init` proposes them current
# and the sweep rewrites them: an nmap XML scan (with its start time), a saved `terraform plan`
# output, an mbox of alert mail, and a maintenance ledger CSV whose every row starts with a
# date before the cutover (a dated record per row, which `dated.sections` cannot express).
# After the sweep the 2025 scan "found" app01 at 10.0.1.90. exit 0, verify --strict OK.
. "$(dirname "$0")/lib.sh"
mkrepo 14
mkdir -p scans ledger plans
printf '[web]\nweb01 ansible_host=10.0.0.70\n' > hosts.ini
printf '<?xml version="1.0"?>\n<nmaprun scanner="nmap" args="nmap -sV 10.0.0.0/24" start="1740823200" startstr="Sat Mar  1 10:00:00 2025">\n<host><address addr="10.0.0.70" addrtype="ipv4"/><hostnames><hostname name="web01" type="PTR"/></hostnames></host>\n</nmaprun>\n' > scans/nmap-lab.xml
printf 'date,host,ip,action\n2025-03-01,web01,10.0.0.70,kernel upgrade\n2025-04-12,web01,10.0.0.70,disk swap\n' > ledger/maintenance.csv
printf 'Terraform will perform the following actions:\n\n  # libvirt_domain.web will be created\n  + resource "libvirt_domain" "web" {\n      + name = "web01"\n      + addresses = ["10.0.0.70"]\n    }\n\nPlan: 1 to add, 0 to change, 0 to destroy.\n' > plans/plan-output.txt
printf 'From ops@example.org Sat Mar  1 10:00:00 2025\nFrom: ops@example.org\nSubject: web01 down\nDate: Sat, 01 Mar 2025 10:00:00 +0000\n\nweb01 (10.0.0.70) is not answering.\n' > ops.mbox
commit
echo "== renamer init"; renamer --color never init --from web01=app01 --from 10.0.0.70=10.0.1.90
commit cfg
run_all
