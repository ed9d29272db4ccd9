"""Objects a server keeps under the host's name (t36-sweep findings 06, 07).

Replication slots, subscriptions, MySQL channels and databases named after the host
(`primary_slot_name = 'pug'`, `pg_receivewal -S pug`, `POSTGRES_DB=pug`, a JDBC URL's path,
`FOR CHANNEL 'pug'`), and agent identities a server knows the host by, the neighbours of Puppet's
certname (Salt's minion `id:`, Chef's `node_name`, an Icinga 2 agent's `--cn`, `ipa-getkeytab -p
host/...`, the Zabbix agent's `Hostname=`), were rewritten silently, sweep 0, verify --strict OK.
Each is now a `state-name` residual, the name left as it was, the sweep exits 1 and verify fails;
a database server's host, a bootstrap target or an endpoint's address on the same line still
follows, and the same words where they key nothing still move.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from tests.conftest import Result
from tests.testing.repos import PUG_ALLOW as ALLOW
from tests.testing.repos import PUG_CONFIG as CONFIG

# name: (path, content, the lines held, the file after the sweep or None where it is byte for byte)
CASES: dict[str, tuple[str, str | bytes, set[int], str | None]] = {
    # finding 06: the repro's five, with a host beside that follows
    "pg-primary-slot": ("pg/postgresql.auto.conf", "primary_conninfo = 'host=pug user=replicator'\n"
                        "primary_slot_name = 'pug'\n", {2},
                        "primary_conninfo = 'host=wolf user=replicator'\nprimary_slot_name = 'pug'\n"),
    "pg-receivewal": ("scripts/wal.sh", "#!/bin/sh\npg_receivewal -h pug.ana.lan -S pug -D /srv/wal\n", {2},
                      "#!/bin/sh\npg_receivewal -h wolf.fv.lan -S pug -D /srv/wal\n"),
    "postgres-db-env": ("app/db.env", "POSTGRES_DB=pug\nPOSTGRES_USER=web\n", {1}, None),
    "jdbc-url": ("app/application.properties", "spring.datasource.url=jdbc:postgresql://pug:5432/pug\n", {1},
                 "spring.datasource.url=jdbc:postgresql://wolf:5432/pug\n"),
    "mysql-channel": ("scripts/channel.sql", "CHANGE REPLICATION SOURCE TO SOURCE_HOST='pug' FOR CHANNEL 'pug';\n",
                      {1}, "CHANGE REPLICATION SOURCE TO SOURCE_HOST='wolf' FOR CHANNEL 'pug';\n"),
    # finding 06: the family
    "pg-basebackup-slot": ("standby.sh", "#!/bin/sh\npg_basebackup -h nas -D /var/lib/pg --slot=pug -R\n", {2}, None),
    "pg-slot-sql": ("slots.sql", "SELECT pg_create_physical_replication_slot('pug');\n"
                    "SELECT pg_drop_replication_slot('pug');\n", {1, 2}, None),
    "pg-subscription": ("sub.sql", "CREATE SUBSCRIPTION pug CONNECTION 'host=pug dbname=app' PUBLICATION pub\n"
                        "  WITH (slot_name = 'pug');\nALTER SUBSCRIPTION pug DISABLE;\n", {1, 2, 3},
                        "CREATE SUBSCRIPTION pug CONNECTION 'host=wolf dbname=app' PUBLICATION pub\n"
                        "  WITH (slot_name = 'pug');\nALTER SUBSCRIPTION pug DISABLE;\n"),
    "debezium-slot": ("connect/pg.properties", "database.hostname=nas\nslot.name=pug\n", {2}, None),
    "patroni-slots": ("patroni.yml", "bootstrap:\n  dcs:\n    slots:\n      pug:\n        type: physical\n", {4}, None),
    "mysql-start-replica": ("start.sql", "START REPLICA FOR CHANNEL \"pug\";\n", {1}, None),
    "compose-mysql-database": ("compose.yaml", "services:\n  db:\n    image: mariadb:11\n    environment:\n"
                               "      MYSQL_DATABASE: pug\n      MARIADB_DATABASE: pug\n", {5, 6}, None),
    "wordpress-db-name-crlf": ("wp.env", b"WORDPRESS_DB_HOST=pug\r\nWORDPRESS_DB_NAME=pug\r\nPGDATABASE=pug\r\n",
                               {2, 3}, "WORDPRESS_DB_HOST=wolf\r\nWORDPRESS_DB_NAME=pug\r\nPGDATABASE=pug\r\n"),
    "database-url": ("app/.env", "DATABASE_URL=postgres://app:pw@pug.ana.lan:5432/pug\n", {1},
                     "DATABASE_URL=postgres://app:pw@wolf.fv.lan:5432/pug\n"),
    "mongodb-url": ("app/config.py", "MONGO = 'mongodb://pug:27017/pug'\nENGINE = 'postgresql+psycopg2://u@nas/pug'\n",
                    {1, 2}, "MONGO = 'mongodb://wolf:27017/pug'\nENGINE = 'postgresql+psycopg2://u@nas/pug'\n"),
    "dotnet-connection": ("appsettings.json", '{"ConnectionStrings": {"Main": "Server=pug;Database=pug;'
                          'Trusted_Connection=True"}}\n', {1},
                          '{"ConnectionStrings": {"Main": "Server=wolf;Database=pug;Trusted_Connection=True"}}\n'),
    "libpq-dbname": ("pgpass.sh", "#!/bin/sh\npsql \"host=pug dbname=pug\" -c 'select 1'\n", {2},
                     "#!/bin/sh\npsql \"host=wolf dbname=pug\" -c 'select 1'\n"),
    "psql-d": ("dump.sh", "#!/bin/sh\npg_dump -h pug -d pug -Fc > /srv/dump\nmysql -h nas -D pug < x.sql\n",
               {2, 3}, "#!/bin/sh\npg_dump -h wolf -d pug -Fc > /srv/dump\nmysql -h nas -D pug < x.sql\n"),
    "positional-db": ("restore.sh", "#!/bin/sh\npg_dump -h pug -Fc pug > /srv/backup.dump\ncreatedb -O app pug\n"
                      "mysqldump -u root -p pug > /srv/my.sql\n", {2, 3, 4},
                      "#!/bin/sh\npg_dump -h wolf -Fc pug > /srv/backup.dump\ncreatedb -O app pug\n"
                      "mysqldump -u root -p pug > /srv/my.sql\n"),
    "django-databases": ("app/settings.py", "DATABASES = {\n    'default': {\n        'ENGINE': "
                         "'django.db.backends.postgresql',\n        'NAME': 'pug',\n        'HOST': 'pug.ana.lan',\n"
                         "    }\n}\n", {4}, "DATABASES = {\n    'default': {\n        'ENGINE': "
                         "'django.db.backends.postgresql',\n        'NAME': 'pug',\n        'HOST': 'wolf.fv.lan',\n"
                         "    }\n}\n"),
    "sql-database": ("init.sql", "CREATE DATABASE IF NOT EXISTS pug;\nGRANT ALL ON pug.* TO 'app'@'%';\nUSE pug;\n",
                     {1, 3}, None),  # `pug.*` is a `pattern` residual already
    "psql-connect": ("init.psql", "\\connect pug\nGRANT CONNECT ON DATABASE pug TO app;\n", {1, 2}, None),
    "rails-database-yml": ("config/database.yml", "production:\n  adapter: postgresql\n  host: pug\n"
                           "  database: pug\n", {4},
                           "production:\n  adapter: postgresql\n  host: wolf\n  database: pug\n"),
    "ansible-db-modules": ("db.yml", "- community.postgresql.postgresql_db:\n    name: pug\n"
                           "- community.postgresql.postgresql_slot:\n    name: pug\n    login_host: pug\n"
                           "- community.mysql.mysql_replication:\n    mode: startreplica\n    channel: pug\n",
                           {2, 4, 8}, "- community.postgresql.postgresql_db:\n    name: pug\n"
                           "- community.postgresql.postgresql_slot:\n    name: pug\n    login_host: wolf\n"
                           "- community.mysql.mysql_replication:\n    mode: startreplica\n    channel: pug\n"),
    # finding 07: the repro's, with variants
    "salt-minion-id": ("salt/minion", "master: salt.ana.lan\nid: pug\n", {2}, None),
    "salt-minion-d-bom": ("salt/minion.d/id.conf", b"\xef\xbb\xbfid: pug.ana.lan\n", {1}, None),
    "salt-minion-id-file": ("salt/minion_id", "pug\n", {1}, None),
    "salt-call-and-key": ("salt.sh", "#!/bin/sh\nsalt-call --id=pug state.apply\nsalt-key -a pug -y\n", {2, 3}, None),
    "chef-client-rb": ("chef/client.rb", "node_name 'pug'\nchef_server_url 'https://chef.lan/organizations/lab'\n",
                       {1}, None),
    "chef-vagrant": ("Vagrantfile", "Vagrant.configure('2') do |c|\n  c.vm.provision 'chef_client' do |chef|\n"
                     "    chef.node_name = \"pug\"\n  end\nend\n", {3}, None),
    "knife": ("knife.sh", "#!/bin/sh\nknife node show pug\nknife bootstrap pug.ana.lan -N pug --ssh-user root\n",
              {2, 3}, "#!/bin/sh\nknife node show pug\nknife bootstrap wolf.fv.lan -N pug --ssh-user root\n"),
    "icinga-node-setup": ("icinga/setup.sh", "#!/bin/sh\nicinga2 node setup --cn pug.ana.lan --zone pug.ana.lan "
                          "--parent_host nas\n", {2}, None),
    "icinga-constants-zones": ("icinga2/constants.conf", "const NodeName = \"pug.ana.lan\"\nconst ZoneName = x\n",
                               {1}, None),
    "icinga-endpoint": ("icinga2/zones.conf", "object Endpoint \"pug.ana.lan\" {\n  host = \"pug.ana.lan\"\n}\n",
                        {1}, "object Endpoint \"pug.ana.lan\" {\n  host = \"wolf.fv.lan\"\n}\n"),
    "icinga-zone-members": ("icinga2/zones.d/master/agents.conf",
                            "object Endpoint \"pug.ana.lan\" {\n  host = \"pug.ana.lan\"\n}\n"
                            "object Zone \"pug.ana.lan\" {\n  endpoints = [ \"pug.ana.lan\" ]\n  parent = \"master\"\n}\n"
                            "object Host \"pug\" {\n  address = \"pug.ana.lan\"\n  vars.agent_endpoint = name\n}\n"
                            "object Service \"disk\" {\n  host_name = \"pug\"\n  command_endpoint = \"pug.ana.lan\"\n}\n",
                            {1, 4, 5, 14},
                            "object Endpoint \"pug.ana.lan\" {\n  host = \"wolf.fv.lan\"\n}\n"
                            "object Zone \"pug.ana.lan\" {\n  endpoints = [ \"pug.ana.lan\" ]\n  parent = \"master\"\n}\n"
                            "object Host \"wolf\" {\n  address = \"wolf.fv.lan\"\n  vars.agent_endpoint = name\n}\n"
                            "object Service \"disk\" {\n  host_name = \"wolf\"\n  command_endpoint = \"pug.ana.lan\"\n}\n"),
    "icinga-ansible-objects": ("group_vars/all/icinga.yml",
                               "icinga2_objects:\n  mon.ana.lan:\n    - name: pug.ana.lan\n      type: Endpoint\n"
                               "      host: pug.ana.lan\n    - name: pug.ana.lan\n      type: Zone\n      endpoints:\n"
                               "        - pug.ana.lan\n      parent: main\n", {3, 6, 9},
                               "icinga2_objects:\n  mon.ana.lan:\n    - name: pug.ana.lan\n      type: Endpoint\n"
                               "      host: wolf.fv.lan\n    - name: pug.ana.lan\n      type: Zone\n      endpoints:\n"
                               "        - pug.ana.lan\n      parent: main\n"),
    "repmgr": ("repmgr.conf", "node_id=2\nnode_name='pug'\nconninfo='host=pug user=repmgr dbname=repmgr'\n", {2},
               "node_id=2\nnode_name='pug'\nconninfo='host=wolf user=repmgr dbname=repmgr'\n"),
    "redis-sentinel": ("sentinel.conf", "sentinel monitor pug pug.ana.lan 6379 2\nsentinel failover-timeout pug 6000\n",
                       {1, 2}, "sentinel monitor pug wolf.fv.lan 6379 2\nsentinel failover-timeout pug 6000\n"),
    "ipa-getkeytab": ("krb/keytab.sh", "#!/bin/sh\nipa-getkeytab -s ipa.lan -p host/pug.ana.lan -k /etc/krb5.keytab\n"
                      "kadmin -q 'ktadd -k /etc/krb5.keytab nfs/pug.ana.lan'\n", {2, 3}, None),
    "ad-computer": ("join.sh", "#!/bin/sh\nadcli join --domain=ad.lan --computer-name=pug\n", {2}, None),
    "zabbix-agentd": ("zabbix/zabbix_agentd.conf", "Server=nas\nHostname=pug\n", {2}, None),
    "zabbix-family": ("zbx.yml", "zabbix_agent_hostname: pug\nZBX_HOSTNAME: pug\n", {1, 2}, None),
    "zabbix-sender": ("push.sh", "#!/bin/sh\nzabbix_sender -z nas -s pug -k backup.ok -o 1\n", {2}, None),
    "zabbix-ansible-host": ("zbx-hosts.yml", "- community.zabbix.zabbix_host:\n    host_name: pug\n"
                            "    interfaces:\n      - dns: pug.ana.lan\n", {2},
                            "- community.zabbix.zabbix_host:\n    host_name: pug\n"
                            "    interfaces:\n      - dns: wolf.fv.lan\n"),
    "wazuh": ("ossec.conf", "<ossec_config>\n  <client>\n    <enrollment>\n      <agent_name>pug</agent_name>\n"
              "    </enrollment>\n  </client>\n</ossec_config>\n", {4}, None),
    "wazuh-agent-auth": ("enrol.sh", "#!/bin/sh\n/var/ossec/bin/agent-auth -m nas -A pug\nWAZUH_AGENT_NAME=pug\n",
                         {2, 3}, None),
    "checkmk": ("cmk.sh", "#!/bin/sh\ncmk-agent-ctl register --hostname pug --server nas --site lab\n", {2}, None),
}

# the same words where they key nothing: they move (path, text, after)
MOVES: dict[str, tuple[str, str, str]] = {
    "conninfo-host": ("pg/postgresql.auto.conf", "primary_conninfo = 'host=pug port=5432'\n",
                      "primary_conninfo = 'host=wolf port=5432'\n"),
    "db-host-env": ("app.env", "DB_HOST=pug\nDATABASE_HOST=pug.ana.lan\nPOSTGRES_HOST=pug\n",
                    "DB_HOST=wolf\nDATABASE_HOST=wolf.fv.lan\nPOSTGRES_HOST=wolf\n"),
    "jdbc-host": ("app.properties", "url=jdbc:mysql://pug:3306/app\n", "url=jdbc:mysql://wolf:3306/app\n"),
    "psql-host": ("q.sh", "psql -h pug -d app -c 'select 1'\n", "psql -h wolf -d app -c 'select 1'\n"),
    "yaml-id": ("list.yaml", "items:\n  - id: pug\n", "items:\n  - id: wolf\n"),
    "networkd-hostname": ("lan.network", "[DHCP]\nHostname=pug\n", "[DHCP]\nHostname=wolf\n"),
    "other-cn": ("cert.sh", "step ca certificate --cn pug x.crt x.key\n", "step ca certificate --cn wolf x.crt x.key\n"),
    "path-host": ("copy.sh", "cp -r host/pug backup/\n", "cp -r host/wolf backup/\n"),
    "zabbix-get": ("check.sh", "zabbix_get -s pug -k agent.ping\n", "zabbix_get -s wolf -k agent.ping\n"),
    "web-url": ("links.md", "See https://pug.ana.lan/pug for the page.\n", "See https://wolf.fv.lan/wolf for the page.\n"),
    "module-other-name": ("play.yml", "- ansible.builtin.hostname:\n    name: pug\n",
                          "- ansible.builtin.hostname:\n    name: wolf\n"),
}


def _held(root: Path, run: Callable[..., Result]) -> set[tuple[str, int]]:
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    return {(str(f["path"]), int(f["line"])) for f in found if f.get("reason") == "state-name"}


@pytest.mark.parametrize("case", sorted(CASES))
def test_t36_an_object_a_server_keeps_under_the_name_is_a_residual(
        case: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    path, content, lines, after = CASES[case]
    root = repo({path: content}, config=CONFIG, allowlist=ALLOW)
    before = (root / path).read_bytes()
    assert _held(root, run) == {(path, line) for line in lines}
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert all(f"{path}:{line}:" in done.stdout for line in lines)
    got = (root / path).read_bytes()
    assert got == (before if after is None else after.encode())
    held = [line for n, line in enumerate(got.split(b"\n"), 1) if n in lines]
    assert held and all(b"pug" in line for line in held)  # the held name stays
    assert run(root, "verify").exit_code == 1  # never an OK
    assert run(root, "verify", "--strict").exit_code == 1
    if path.endswith(".sh"):
        subprocess.run(["bash", "-n", str(root / path)], check=True)
    if path.endswith((".yaml", ".yml")):
        yaml.safe_load(got.decode("utf-8-sig"))
    if path.endswith(".json"):
        json.loads(got)
    if path.endswith(".py"):
        compile(got, path, "exec")


@pytest.mark.parametrize("case", sorted(MOVES))
def test_t36_the_same_words_keying_nothing_still_move(case: str, repo: Callable[..., Path],
                                                      run: Callable[..., Result]) -> None:
    path, text, after = MOVES[case]
    root = repo({path: text}, config=CONFIG, allowlist=ALLOW)
    assert _held(root, run) == set()
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / path).read_text() == after
    assert run(root, "verify", "--strict").exit_code == 0


def test_t36_the_note_says_which_object(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"pg.conf": "primary_slot_name = 'pug'\n", "salt/minion": "id: pug\n",
                 "zabbix_agent2.conf": "Hostname=pug\n"}, config=CONFIG, allowlist=ALLOW)
    out = run(root, "verify", "--verbose").stdout
    assert "PostgreSQL replication slot" in out
    assert "Salt minion id" in out
    assert "Zabbix agent's host name" in out
