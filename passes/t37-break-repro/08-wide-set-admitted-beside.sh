#!/bin/bash
# Finding: a wide network the move leaves is a `wide-set` residual ("after the sweep it no longer admits the
# moved hosts; add the new network beside it") even where the same list, the next entry or the next rule
# already admits the new network: the everyday "all private ranges" allow lists (Postfix mynetworks,
# nginx allow, sshd Match Address, Traefik trustedIPs, Samba hosts allow, iptables) holding 10.0.0.0/8
# beside 192.168.0.0/16, under a move 192.168.42.0/24 -> 10.20.42.0/24. Expected: no residual (the new
# network stays admitted); actual: 7 residuals, verify fails.
R=${RENAMER:-/work/t37-break/.venv/bin/renamer}
D=/tmp/t37-break/r10; rm -rf $D; mkdir -p $D; cd $D; git init -q; git config user.email t@t; git config user.name t
cat > renamer.yaml <<'Y'
version: 1
renames:
  networks: {192.168.42.0/24: 10.20.42.0/24}
allowlist: allow.yaml
Y
printf 'version: 1\ncurrent: ["**"]\n' > allow.yaml
cat > main.cf <<'Y'
mynetworks = 127.0.0.0/8 192.168.0.0/16 10.0.0.0/8
Y
cat > nginx.conf <<'Y'
location /admin {
    allow 192.168.0.0/16;
    allow 10.0.0.0/8;
    deny all;
}
Y
cat > nginx2.conf <<'Y'
location /admin {
    allow 192.168.0.0/16;
    allow 172.16.0.0/12;
    allow 10.0.0.0/8;
    deny all;
}
Y
cat > sshd_config <<'Y'
Match Address 192.168.0.0/16,10.0.0.0/8
    PasswordAuthentication yes
Y
cat > traefik.yml <<'Y'
entryPoints:
  web:
    forwardedHeaders:
      trustedIPs:
        - 192.168.0.0/16
        - 10.0.0.0/8
Y
cat > smb.conf <<'Y'
[global]
hosts allow = 192.168. 10. 127.
Y
cat > iptables.rules <<'Y'
-A INPUT -s 192.168.0.0/16 -j ACCEPT
-A INPUT -s 10.0.0.0/8 -j ACCEPT
Y
git add -A; git commit -qm init
$R sweep 2>&1 | sed -n "/^Residual/,\$p" | cut -c1-200; $R verify | tail -1
