#!/bin/bash
# Finding: an address glued to a port by a dot (tcpdump `10.1.3.7.443`, BSD/macOS netstat `10.1.3.7.22`,
# rpcinfo's universal address `10.1.3.7.8.1`, and an underscored inventory alias `nfs_10_1_3_7`) is a near-miss under an address rename but silent under a
# network move: not rewritten, no residual, no near-miss, verify OK. The class of q36-spell ("spellings
# the address side read and the network side did not", t36-33 findings 03 10-14).
R=${RENAMER:-/work/t37-break/.venv/bin/renamer}
D=/tmp/t37-break/r14; rm -rf $D; mkdir -p $D; cd $D; git init -q; git config user.email t@t; git config user.name t
printf 'version: 1\nrenames:\n  networks: {10.1.3.0/24: 10.1.9.0/24}\nallowlist: allow.yaml\n' > renamer.yaml
printf 'version: 1\ncurrent: ["**"]\n' > allow.yaml
cat > runbook.md <<'Y'
# NFS failover runbook
The handshake in tcpdump: `IP 10.1.3.7.443 > 10.1.3.8.51234: Flags [S]`
On the BSD filer: `netstat -an` shows `tcp4 0 0 10.1.3.7.2049 10.1.3.99.50001 ESTABLISHED`
`rpcinfo -p` / rpcbind: `100003 3 tcp 10.1.3.7.8.1 nfs superuser`
The filer itself: 10.1.3.7
Y
printf '[nfs]\nnfs_10_1_3_7 ansible_host=10.1.3.7\n' > hosts.ini
git add -A; git commit -qm init
echo "== network move 10.1.3.0/24 -> 10.1.9.0/24"
$R sweep 2>&1 | grep -E '^Summary|near-miss|Residual'; git diff -U0 | grep '^[-+][^-+]'
$R verify | tail -1
echo "== the same file under an address rename 10.1.3.7 -> 10.1.9.7 (control: near-misses)"
git reset -q --hard; printf 'version: 1\nrenames:\n  addresses: {10.1.3.7: 10.1.9.7}\nallowlist: allow.yaml\n' > renamer.yaml; git commit -qam addr
$R verify 2>&1 | grep -c near-miss
