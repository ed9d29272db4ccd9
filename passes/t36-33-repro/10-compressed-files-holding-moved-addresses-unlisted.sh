#!/bin/bash
# Finding 10: a compressed current-state file (gzip, zip, an .xlsx IPAM sheet) holding addresses of a
# MOVED NETWORK is not listed as "Skipped, holding old values": sweep 0, `verify --strict` OK.
# Control: the same .gz under `renames.addresses` (192.168.40.5 -> 10.20.0.5) is listed and
# `verify --strict` fails ("1 current-state file skipped unread"), as docs/reliability.md
# (t28 finding 21, sweep/compressed.py) describes.
. "$(dirname "$0")/lib.sh"
mkrepo /tmp/t36-33/r17 "192.168.40.0/24: 10.20.0.0/22"
printf 'nas: 192.168.40.5\n' > old.yml; gzip -c old.yml > backup-cfg.yml.gz; rm old.yml
mkdir -p x/xl; printf '<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>nas</t></si><si><t>192.168.40.5</t></si><si><t>192.168.40.0/24</t></si></sst>' > x/xl/sharedStrings.xml
printf '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>' > 'x/[Content_Types].xml'
(cd x && zip -q -r ../ipam.xlsx .); rm -rf x
printf 'gw: 192.168.40.1\n' > lan.yml
commit
$R sweep --commit --color never 2>&1 | grep -vE 'in-addr'
echo "--- verify --strict:"; $R verify --strict --color never 2>&1 | tail -2
echo "--- control: the same .gz under an address rename"
mkrepo /tmp/t36-33/r17c; sed -i 's/  networks:/  addresses:\n    192.168.40.5: 10.20.0.5/' renamer.yaml
printf 'nas: 192.168.40.5\n' > old.yml; gzip -c old.yml > backup-cfg.yml.gz; rm old.yml; printf 'x: 1\n' > c.yml; commit
$R verify --strict --color never 2>&1 | tail -3
