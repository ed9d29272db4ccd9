#!/bin/bash
# 07 (sev 1): identities a server keeps under the host's name, the neighbours of the Puppet
# certname the fix holds. Kerberos: `kinit -k` and sssd are held, but `ipa-getkeytab -p
# host/web01.lab.example` (the same principal) is rewritten: the KDC and the host's keytab hold the
# old principal, so the renamed line asks for a principal with no key. Also: Salt's minion id (`id:` in
# /etc/salt/minion, the accepted key in the master is pki/master/minions/web01), Chef's `node_name`
# (client.rb: the node and client objects and the client key are under the old name), an Icinga 2
# agent's `--cn` (its certificate, like Puppet's), the Zabbix agent's `Hostname=` (the server's host
# object: "host [app01] not found", monitoring stops).
# All rewritten; sweep --commit 0, verify --strict 0.
. "$(dirname "$0")/lib.sh"
mkrepo 07; cfg '{web01: app01, web01.lab.example: app01.lab.example}' '{10.0.0.70: 10.0.1.90}'
mkdir -p salt chef krb zabbix icinga
printf 'master: salt.lab.example\nid: web01\n' > salt/minion
printf "node_name 'web01'\nchef_server_url 'https://chef.lab.example/organizations/lab'\nclient_key '/etc/chef/client.pem'\n" > chef/client.rb
printf '#!/bin/sh\nkinit -k host/web01.lab.example@LAB.EXAMPLE\nipa-getkeytab -s ipa.lab.example -p host/web01.lab.example -k /etc/krb5.keytab\n' > krb/keytab.sh
printf '[domain/lab]\nldap_sasl_authid = host/web01.lab.example@LAB.EXAMPLE\n' > krb/sssd.conf
printf 'Server=zbx.lab.example\nHostname=web01\n' > zabbix/zabbix_agentd.conf
printf '#!/bin/sh\nicinga2 node setup --cn web01.lab.example --zone web01.lab.example --parent_host icinga.lab.example\n' > icinga/setup.sh
commit
run_all 2>&1 | grep -E '^(rc|==|diff --git|[-+][^-+])'
