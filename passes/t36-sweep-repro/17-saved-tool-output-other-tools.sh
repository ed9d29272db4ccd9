#!/bin/bash
# 17 (sev 1): saved tool output by other tools, the neighbours of t35 finding 14's fix (nmap,
# `terraform plan` text, `PLAY [...]`, an mbox told by their first line). These snapshots say what
# a system held when they were taken and are rewritten: a `pg_dump` (`-- PostgreSQL database
# dump`), a `mysqldump` (`-- MySQL dump 10.13`), an `ldapsearch` result (`# extended LDIF`), a
# `kubectl get -o yaml` export (creationTimestamp, resourceVersion, uid, status), `terraform show
# -json` (format_version + terraform_version: the same tool's plan text is kept, its JSON is not),
# `docker inspect` output, and a switch's running-config saved by RANCID/Oxidized (`! Last
# configuration change at ...`). The dump now holds rows the database never held.
# sweep --commit 0, verify --strict OK. (A `terraform.tfstate` is held, as it should be.)
. "$(dirname "$0")/lib.sh"
mkrepo 17; cfg '{web01: app01}' '{10.0.0.70: 10.0.1.90}'
mkdir -p db k8s ldap docker net tf
printf -- '--\n-- PostgreSQL database dump\n--\n\n-- Dumped from database version 15.4\n\nCOPY public.hosts (name, addr) FROM stdin;\nweb01\t10.0.0.70\n\\.\n' > db/inventory.sql
printf -- "-- MySQL dump 10.13  Distrib 8.0.35, for Linux (x86_64)\n--\n-- Host: localhost    Database: cmdb\nINSERT INTO \`hosts\` VALUES (1,'web01','10.0.0.70');\n" > db/cmdb.sql
printf '# extended LDIF\n#\n# LDAPv3\n# base <dc=lab,dc=example> with scope subtree\n# filter: (objectclass=ipHost)\n#\n\n# web01, hosts, lab.example\ndn: cn=web01,ou=hosts,dc=lab,dc=example\nipHostNumber: 10.0.0.70\n' > ldap/export.ldif
printf 'apiVersion: v1\nkind: Service\nmetadata:\n  creationTimestamp: "2025-03-01T10:00:00Z"\n  resourceVersion: "123456"\n  uid: 6f1c2b1e-1111-2222-3333-444455556666\n  name: web\nspec:\n  externalIPs: [10.0.0.70]\nstatus:\n  loadBalancer: {}\n' > k8s/web-svc-export.yaml
printf '{"format_version":"1.0","terraform_version":"1.7.0","values":{"root_module":{"resources":[{"address":"dns_a_record_set.web","values":{"name":"web01","addresses":["10.0.0.70"]}}]}}}\n' > tf/show.json
printf '[\n    {\n        "Id": "4f66ad9a0b2e",\n        "Created": "2025-03-01T10:00:00.000000000Z",\n        "Config": {"Hostname": "web01"},\n        "NetworkSettings": {"IPAddress": "10.0.0.70"}\n    }\n]\n' > docker/inspect.json
printf '!\n! Last configuration change at 10:00:00 UTC Sat Mar 1 2025 by admin\n!\nversion 15.2\nhostname sw1\n!\ninterface Gi0/1\n description web01\naccess-list 10 permit 10.0.0.70\n' > net/sw1-running.cfg
commit
run_all 2>&1 | grep -E '^(rc|==|verify|diff --git|[-+][^-+])'
