#!/bin/bash
# Finding: after a correct sweep of an Ansible INI inventory where the renamed host is a member of two
# groups (everyday: [nodes] and [storage]), `verify --strict` fails with a collision that says "two
# machines would become one host" and names internal placeholders ('nfs-renamer0.1', 'nfs-renamer0.2').
# One machine, listed twice, was renamed. Found on geerlingguy/turing-pi-2-cluster (turing-node-3.local
# is in [nodes] and [storage]). Also at 71042ff3~1: older than the t36-sweep 24 fix in the same module
# (formats/siblings.py), which did not touch it.
R=${RENAMER:-/work/t38-break/.venv/bin/renamer}
D=/tmp/t38-break/r15; rm -rf $D; mkdir -p $D; cd $D; git init -q; git config user.email t@t; git config user.name t
printf 'version: 1\nrenames:\n  hosts: {node-3: nfs}\nallowlist: allow.yaml\n' > renamer.yaml
printf 'version: 1\ncurrent: ["**"]\n' > allow.yaml
printf '[nodes]\nnode-2\nnode-3\n\n[storage]\nnode-3\n' > hosts.ini
git add -A; git commit -qm init
$R sweep 2>&1 | grep -E '^Summary|collision'; echo "sweep rc=${PIPESTATUS[0]}"
cat hosts.ini
$R verify --strict 2>&1; echo "verify --strict rc=$? (expected 0: one host in two groups)"
