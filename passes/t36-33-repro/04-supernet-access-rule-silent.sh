#!/bin/bash
# Finding 04: an access rule naming a WIDER network that holds the moved one (nginx `allow 192.168.0.0/16`,
# Postfix mynetworks, Apache `Require ip 192.168.0.0/16` / `Require ip 192.168`, hosts.allow `192.168.`)
# is silent when the move leaves it (192.168.40.0/24 -> 10.20.0.0/22): the moved hosts are refused after
# the sweep, verify OK. Control: the same supernet spelled from the old network's own address
# (allow 192.168.40.0/16 style, i.e. 10.80.0.0/16 under 10.80.0.0/24 -> 10.90.0.0/24) IS a residual.
. "$(dirname "$0")/lib.sh"
mkrepo /tmp/t36-33/r01 "192.168.40.0/24: 10.20.0.0/22"
cat > nginx.conf <<'X'
location /admin {
    allow 192.168.0.0/16;
    deny all;
    proxy_pass http://192.168.40.10:8080;
}
X
printf 'mynetworks = 127.0.0.0/8 192.168.0.0/16\nrelayhost = [192.168.40.25]\n' > main.cf
printf '<Location /admin>\n  Require ip 192.168.0.0/16\n  Require ip 192.168\n</Location>\n' > apache.conf
printf 'sshd: 127.0.0.1, 192.168.\n' > hosts.allow
printf 'trusted_proxies:\n  - 192.168.0.0/16\nupstream: 192.168.40.10\n' > traefik.yml
commit
$R sweep --commit --color never 2>&1 | grep -vE 'in-addr'
echo "--- verify:"; $R verify --color never 2>&1 | tail -3
echo "--- control: a /16 spelled from the old network's address is a residual"
mkrepo /tmp/t36-33/r01c "10.80.0.0/24: 10.90.0.0/24"
printf 'allow 10.80.0.0/16;\nallow 10.0.0.0/12;\nproxy_pass http://10.80.0.5;\n' > nginx.conf; commit
$R sweep --dry-run --color never 2>&1 | grep -E 'nginx.conf:|Residual'
