#!/bin/bash
# Finding 01: in a one-line JSON or HCL object, a dotted mask that belongs to ANOTHER network of the
# same object (a static route's destination) follows the moved gateway written before it:
# {"gateway": "192.168.40.1", "mask": "255.255.255.0", "dest": "10.99.0.0"} becomes mask
# 255.255.252.0 under 192.168.40.0/24 -> /22: the route now covers 10.99.0.0/22. Sweep 0, verify OK.
# The same object in YAML flow style, or with an integer length, is left (right).
. "$(dirname "$0")/lib.sh"
mkrepo /tmp/t36-33/r03 "192.168.40.0/24: 192.168.40.0/22"
printf '[{"gateway": "192.168.40.1", "mask": "255.255.255.0", "dest": "10.99.0.0"}]\n' > routes.json
printf 'routes = [{ gateway = "192.168.40.1", mask = "255.255.255.0", dest = "10.99.0.0" }]\n' > routes.tf
printf 'routes: [{gateway: 192.168.40.1, netmask: 255.255.255.0, dest: 10.99.0.0}]\n' > control-flow.yml
printf 'lan: 192.168.40.0/24\n' > lan.yml
commit
$R sweep --commit --color never 2>&1 | grep -vE 'in-addr'
echo "--- verify:"; $R verify --color never 2>&1 | tail -1
python3 -c "import json,ipaddress;r=json.load(open('routes.json'))[0];print('route now:',ipaddress.ip_network(r['dest']+'/'+r['mask']))"
