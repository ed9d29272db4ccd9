"""The grammar of objects a server keeps under the host's name (t36-sweep findings 06, 07): database
objects and agent identities, asked through state_keys.keyed as the sweep asks it; pure logic. The
CLI behaviour is tests/cli/test_state_objects.py."""

from __future__ import annotations

import pytest

from renamer import state_keys, state_objects


def _at(data: bytes, word: bytes, nth: int = 0) -> tuple[int, int]:
    start = -1
    for _ in range(nth + 1):
        start = data.index(word, start + 1)
    return start, start + len(word)


@pytest.mark.parametrize(("rel", "data", "word", "nth", "what"), [
    # finding 06: database objects
    ("pg.conf", b"primary_slot_name = 'pug'\n", b"pug", 0, "replication slot"),
    ("pg.conf", b"primary_conninfo = 'host=pug user=r'\n", b"pug", 0, None),
    ("attributes/default.rb", b"default['patroni']['standby_cluster']['primary_slot_name'] = 'pug'\n", b"pug", 0,
     "replication slot"),  # the primary: a machine
    ("w.sh", b"pg_receivewal -h pug -S pug -D /srv\n", b"pug", 1, "replication slot"),
    ("w.sh", b"pg_receivewal -h pug -S pug -D /srv\n", b"pug", 0, None),
    ("w.sh", b"pg_recvlogical --slot=pug --start -f -\n", b"pug", 0, "replication slot"),
    ("w.sh", b"rsync -S pug:/srv .\n", b"pug", 0, None),  # -S of another tool
    ("s.sql", b"SELECT pg_create_logical_replication_slot('pug', 'pgoutput');\n", b"pug", 0, "replication slot"),
    ("s.sql", b"CREATE SUBSCRIPTION s CONNECTION 'host=nas' PUBLICATION p WITH (slot_name = 'pug');\n", b"pug", 0,
     "replication slot"),
    ("s.sql", b"create subscription if not exists pug connection 'host=nas' publication pub;\n", b"pug", 0,
     "subscription"),
    ("s.sql", b"CREATE PUBLICATION pug FOR ALL TABLES;\n", b"pug", 0, "subscription"),
    ("dbz.properties", b"slot.name=pug\n", b"pug", 0, "replication slot"),
    ("patroni.yml", b"bootstrap:\n  dcs:\n    slots:\n      pug:\n        type: physical\n", b"pug", 0,
     "replication slot"),
    ("hosts.yml", b"all:\n  hosts:\n    pug:\n      ansible_host: x\n", b"pug", 0, None),  # not under slots:
    ("c.sql", b"STOP REPLICA FOR CHANNEL 'pug';\n", b"pug", 0, "replication channel"),
    ("c.sql", b"CHANGE MASTER TO MASTER_HOST='pug' FOR CHANNEL 'c1';\n", b"pug", 0, None),
    ("db.env", b"POSTGRES_DB=pug\n", b"pug", 0, "database"),
    ("db.env", b"POSTGRES_HOST=pug\n", b"pug", 0, None),
    ("db.env", b"MONGO_INITDB_DATABASE=pug\n", b"pug", 0, "database"),
    ("db.env", b"INFLUXDB_DB=pug\n", b"pug", 0, "database"),
    ("db.env", b"PRIMARY_DB=pug\n", b"pug", 0, None),  # a name ending in _DB of no known server: a machine
    ("db.env", b"DB_HOST=pug\nDB_NAME=pug\n", b"pug", 1, "database"),
    ("db.env", b"DB_HOST=pug\nDB_NAME=pug\n", b"pug", 0, None),
    ("a.properties", b"url=jdbc:postgresql://pug:5432/pug\n", b"pug", 1, "database"),
    ("a.properties", b"url=jdbc:postgresql://pug:5432/pug\n", b"pug", 0, None),
    ("a.properties", b"url=jdbc:mysql:loadbalance://nas,pug/pug?x=1\n", b"pug", 1, "database"),
    ("a.properties", b"url=jdbc:oracle:thin:@//nas:1521/pug\n", b"pug", 0, "database"),
    ("a.properties", b"url=jdbc:sqlserver://nas:1433;databaseName=pug\n", b"pug", 0, "database"),
    ("a.py", b"E = 'mysql+pymysql://u:p@nas/pug'\n", b"pug", 0, "database"),
    ("a.py", b"U = 'https://nas/pug'\n", b"pug", 0, None),  # a web URL's path
    ("a.json", b'{"cs": "Server=nas;Initial Catalog=pug;"}\n', b"pug", 0, "database"),
    ("a.rb", b"ActiveRecord::Base.establish_connection(adapter: 'pg', :database => 'pug')\n", b"pug", 0, "database"),
    ("q.sh", b"psql -h nas --dbname=pug -c 'select 1'\n", b"pug", 0, "database"),
    ("q.sh", b"mongosh --host nas --db pug\n", b"pug", 0, "database"),
    ("settings.py", b"DATABASES = {'default': {'ENGINE': 'django.db.backends.postgresql',\n"
                    b"    'NAME': 'pug', 'HOST': 'pug'}}\n", b"pug", 0, "database"),
    ("settings.py", b"DATABASES = {'default': {'ENGINE': 'django.db.backends.postgresql',\n"
                    b"    'NAME': 'pug', 'HOST': 'pug'}}\n", b"pug", 1, None),
    ("a.py", b"X = {'NAME': 'pug'}\n", b"pug", 0, None),  # no Django database here
    ("q.sh", b"ls -d pug\n", b"pug", 0, None),  # -d of another tool
    ("q.sh", b"pg_dump -h pug -U app -Fc pug > /srv/pug.dump\n", b"pug", 1, "database"),
    ("q.sh", b"pg_dump -h pug -U app -Fc pug > /srv/pug.dump\n", b"pug", 0, None),
    ("q.sh", b"createdb -O app pug\n", b"pug", 0, "database"),
    ("q.sh", b"createdb -O pug app\n", b"pug", 0, None),  # the owner
    ("q.sh", b"mysqldump -u root -p pug users > /srv/x.sql\n", b"pug", 0, "database"),  # mysql's -p: no value
    ("q.sh", b"psql -h nas app pug\n", b"pug", 0, None),  # the second positional: a user
    ("q.sh", b"psql -f pug.sql app\n", b"pug", 0, None),
    ("q.sh", b"ssh pug psql app\n", b"pug", 0, None),  # the machine it runs on
    ("q.sh", b"docker run -d pug/mysql:8\n", b"pug", 0, None),  # mysql is an image's part, -d docker's
    ("q.sh", b"ssh nas mysql -D pug -e 'select 1'\n", b"pug", 0, "database"),
    ("lib.rs", b"use pug;\n", b"pug", 0, None),  # Rust's use
    ("init.sql", b"use pug;\n", b"pug", 0, "database"),
    ("i.sql", b"DROP SCHEMA pug CASCADE;\n", b"pug", 0, "database"),
    ("i.sql", b"  use `pug`;\n", b"pug", 0, "database"),
    ("d.yml", b"- postgresql_db:\n    name: pug\n", b"pug", 0, "database"),
    ("d.yml", b"- community.postgresql.postgresql_user:\n    name: pug\n", b"pug", 0, None),  # a role
    ("d.yml", b"- community.mysql.mysql_replication:\n    primary_host: pug\n", b"pug", 0, None),
    # finding 07: agent identities
    ("salt/minion", b"id: pug\n", b"pug", 0, "Salt minion id"),
    ("etc/minion.d/x.conf", b"id: pug\n", b"pug", 0, "Salt minion id"),
    ("conf/minion.yaml", b"master: salt\nid: pug\n", b"pug", 0, "Salt minion id"),
    ("conf/list.yaml", b"id: pug\n", b"pug", 0, None),
    ("pillar/salt.sls", b"salt:\n  minion:\n    id: pug\n", b"pug", 0, "Salt minion id"),
    ("salt/minion_id", b"pug\n", b"pug", 0, "Salt minion id"),
    ("k.sh", b"salt-key --accept=pug -y\n", b"pug", 0, "Salt minion id"),
    ("client.rb", b"node_name  \"pug\"\n", b"pug", 0, "Chef node"),
    ("x.rb", b"node_name 'pug'\n", b"pug", 0, None),  # no Chef anywhere
    ("k.sh", b"knife client delete pug -y\n", b"pug", 0, "Chef node"),
    ("k.sh", b"knife node run_list add pug 'role[web]'\n", b"pug", 0, "Chef node"),
    ("k.sh", b"knife bootstrap pug -N pug\n", b"pug", 1, "Chef node"),
    ("k.sh", b"knife bootstrap pug -N pug\n", b"pug", 0, None),  # the machine it bootstraps
    ("k.sh", b"k3s agent --node-name pug\n", b"pug", 0, "Kubernetes node"),  # state_nodes still answers
    ("i.sh", b"icinga2 pki new-cert --cn pug --key k --cert c\n", b"pug", 0, "Icinga 2"),
    ("i.sh", b"icinga2 node setup --cn x --endpoint pug --parent_host pug\n", b"pug", 1, None),  # the parent
    ("constants.conf", b"const NodeName = \"pug\"\n", b"pug", 0, "Icinga 2"),
    ("slurm.conf", b"NodeName=pug CPUs=4\n", b"pug", 0, None),
    ("zones.conf", b"object Endpoint \"pug\" {\n  host = \"pug\"\n}\n", b"pug", 0, "Icinga 2"),
    ("zones.conf", b"object Endpoint \"pug\" {\n  host = \"pug\"\n}\n", b"pug", 1, None),
    ("zones.conf", b"object Zone \"pug\" {\n  endpoints = [ \"nas\", \"pug\" ]\n}\n", b"pug", 0, "Icinga 2"),
    ("zones.conf", b"object Zone \"pug\" {\n  endpoints = [ \"nas\", \"pug\" ]\n}\n", b"pug", 1, "Icinga 2"),
    ("hosts.conf", b"object Host \"pug\" {\n  command_endpoint = \"pug\"\n}\n", b"pug", 1, "Icinga 2"),
    ("objects.yml", b"icinga2_objects:\n  mon.lan:\n    - name: pug\n      type: Endpoint\n    - name: pug\n"
                    b"      type: Zone\n      endpoints:\n        - pug\n      parent: main\n", b"pug", 0, "Icinga 2"),
    ("objects.yml", b"icinga2_objects:\n  mon.lan:\n    - name: pug\n      type: Endpoint\n    - name: pug\n"
                    b"      type: Zone\n      endpoints:\n        - pug\n      parent: main\n", b"pug", 1, "Icinga 2"),
    ("objects.yml", b"icinga2_objects:\n  mon.lan:\n    - name: pug\n      type: Endpoint\n    - name: pug\n"
                    b"      type: Zone\n      endpoints:\n        - pug\n      parent: main\n", b"pug", 2, "Icinga 2"),
    ("objects.yml", b"icinga2_objects:\n  mon.lan:\n    - name: pug\n      type: Host\n      address: pug\n"
                    b"    - name: x\n      type: Endpoint\n", b"pug", 0, None),  # a Host object follows
    ("agent.yml", b"icinga_agent_endpoints:\n  - endpoint:\n      name: \"pug\"\n      host: \"pug\"\n", b"pug", 0,
     "Icinga 2"),
    ("agent.yml", b"icinga_agent_endpoints:\n  - endpoint:\n      name: \"pug\"\n      host: \"pug\"\n", b"pug", 1,
     None),
    ("director.yml", b"- t_systems_mms.icinga_director.icinga_endpoint:\n    object_name: pug\n    host: pug\n",
     b"pug", 0, "Icinga 2"),
    ("k8s.yml", b"kind: ServiceMonitor\nspec:\n  endpoints:\n    - pug\n", b"pug", 0, None),
    ("backend.tf", b"endpoints = [\"pug:2379\"]\n", b"pug", 0, None),  # etcd's endpoints: machines
    ("repmgr.conf", b"node_id=2\nnode_name='pug'\nconninfo='host=pug user=repmgr'\n", b"pug", 0, "repmgr"),
    ("repmgr.conf", b"node_id=2\nnode_name='pug'\nconninfo='host=pug user=repmgr'\n", b"pug", 1, None),
    ("sentinel.conf", b"sentinel monitor pug 10.0.0.5 6379 2\nsentinel down-after-milliseconds pug 5000\n", b"pug",
     1, "Sentinel"),
    ("sentinel.conf", b"sentinel monitor mymaster pug 6379 2\n", b"pug", 0, None),  # the master's host
    ("s.sh", b"redis-cli -h nas -p 26379 SENTINEL get-master-addr-by-name pug\n", b"pug", 0, "Sentinel"),
    ("k.sh", b"ktutil -k /etc/krb5.keytab add -p HTTP/pug.lan -e aes256\n", b"pug.lan", 0, "Kerberos"),
    ("k.sh", b"cp -r host/pug /srv\n", b"pug", 0, None),
    ("j.sh", b"realm join --computer-name=pug ad.lan\n", b"pug", 0, "Active Directory"),
    ("smb.conf", b"[global]\n  realm = AD.LAN\n  netbios name = pug\n", b"pug", 0, "Active Directory"),
    ("smb.conf", b"[global]\n  workgroup = X\n  netbios name = pug\n", b"pug", 0, None),  # no domain
    ("zabbix_agent2.conf", b"Hostname=pug\n", b"pug", 0, "Zabbix"),
    ("a.conf", b"ServerActive=nas\nHostname=pug\n", b"pug", 0, "Zabbix"),
    ("lan.network", b"[DHCP]\nHostname=pug\n", b"pug", 0, None),
    ("s.sh", b"zabbix_sender -z nas --host pug -k k -o 1\n", b"pug", 0, "Zabbix"),
    ("defaults/main.yml", b"zabbix_agent_Hostname: \"pug\"\nZABBIX_AGENT_HOSTNAME=pug\n", b"pug", 1, "Zabbix"),
    ("s.sh", b"zabbix_get -s pug -k agent.ping\n", b"pug", 0, None),
    ("ossec.conf", b"<agent_name>pug</agent_name>\n", b"pug", 0, "Wazuh"),
    ("c.sh", b"cmk-agent-ctl register -H pug -s nas -i lab\n", b"pug", 0, "Checkmk"),
])
def test_keyed(rel: str, data: bytes, word: bytes, nth: int, what: str | None) -> None:
    start, end = _at(data, word, nth)
    said = state_keys.keyed(rel, data, start, end)  # through state_keys, as the sweep asks it
    if what is None:
        assert said is None
    else:
        assert state_keys.might_hold(rel, data)
        assert said is not None and what in said


def test_the_gate_reads_nothing_else() -> None:
    assert not state_objects.might_hold("notes/a.txt", b"ssh pug uptime\n")
    assert state_objects.might_hold("etc/salt/minion.d/id.conf", b"id: pug\n")
    assert state_objects.keyed("notes/a.txt", b"ssh pug uptime\n", 4, 7) is None
