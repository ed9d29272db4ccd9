#!/bin/bash
# Finding: the "a list that admits the new network too is no lost admission" reading (t37-break 08/09 fix)
# takes a neighbour that does NOT admit the moved hosts where the rule is: a negated entry before the wide
# one (Postfix `!net`, sshd Match `!net` - the CHANGELOG says a negated !net still leaves the residual),
# another iptables chain or direction (-A FORWARD, -d), another nginx location, another tcp_wrappers daemon,
# another ufw port. Under 192.168.42.0/24 -> 10.20.42.0/24 each loses the moved hosts' admission; no
# wide-set residual, verify --strict OK.
R=${RENAMER:-/work/t38-break/.venv/bin/renamer}
D=/tmp/t38-break/r01; rm -rf $D; mkdir -p $D; cd $D; git init -q; git config user.email t@t; git config user.name t
cat > renamer.yaml <<'Y'
version: 1
renames:
  networks: {192.168.42.0/24: 10.20.42.0/24}
allowlist: allow.yaml
Y
printf 'version: 1\ncurrent: ["**"]\n' > allow.yaml
# control: the fix keeps the residual where a deny stands between (nginx first match)
printf 'location /admin {\n    allow 192.168.0.0/16;\n    deny 10.20.0.0/16;\n    allow 10.0.0.0/8;\n    deny all;\n}\n' > control-nginx.conf
printf 'mynetworks = 127.0.0.0/8 192.168.0.0/16 !10.20.0.0/16 10.0.0.0/8\n' > main.cf
printf 'Match Address 192.168.0.0/16,!10.20.0.0/16,10.0.0.0/8\n    PasswordAuthentication yes\n' > sshd_config
printf 'iptables -A INPUT -s 192.168.0.0/16 -j ACCEPT\niptables -A FORWARD -s 10.0.0.0/8 -j ACCEPT\n' > fw-chain.sh
printf 'iptables -A INPUT -s 192.168.0.0/16 -j ACCEPT\niptables -A INPUT -d 10.0.0.0/8 -j ACCEPT\n' > fw-dir.sh
printf 'location /a { allow 192.168.0.0/16; deny all; }\nlocation /b { allow 10.0.0.0/8; deny all; }\n' > nginx-locs.conf
printf 'sshd: 192.168.\nin.tftpd: 10.\n' > hosts.allow
printf -- '-A INPUT -s 192.168.0.0/16 -j ACCEPT\n-A INPUT -s 10.0.0.0/8 -p tcp --dport 22 -j ACCEPT\n' > rules.v4
printf 'ufw allow from 192.168.0.0/16 to any port 22\nufw allow from 10.0.0.0/8 to any port 80\n' > ufw.sh
git add -A; git commit -qm init
$R sweep 2>&1 | sed -n '/^Residual/,$p' | grep -v '^    '; echo "sweep rc=${PIPESTATUS[0]}"
$R verify --strict | tail -1; echo "verify --strict rc=${PIPESTATUS[0]}"
echo "expected: a wide-set residual on main.cf, sshd_config, fw-chain.sh, fw-dir.sh, nginx-locs.conf, ufw.sh, rules.v4 (each rule no longer admits 10.20.42.0/24); actual: only the two controls (control-nginx.conf, hosts.allow whose daemons differ: flagged)"
