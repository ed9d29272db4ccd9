"""Objects a server keeps under the host's name, asked by state_keys.keyed (t36-sweep findings 06, 07):
renamed in the text, the object on the server does not move, and the line then names one that does
not exist.

- database objects: a PostgreSQL replication slot (`primary_slot_name`, `pg_receivewal -S`,
  `pg_create_physical_replication_slot('NAME')`, a subscription's `slot_name`, Debezium's
  `slot.name`), a subscription or publication (`CREATE|ALTER|DROP SUBSCRIPTION NAME`, `PUBLICATION
  NAME`), a MySQL replication channel (`FOR CHANNEL 'NAME'`), a database named after the host (a
  database URL's path, `jdbc:postgresql://db:5432/NAME`, while its host follows; `POSTGRES_DB`,
  `MYSQL_DATABASE`, `PGDATABASE`, `dbname=`, `Database=`/`Initial Catalog=`, `database:`; `psql
  -d`, `mysql -D`; `CREATE DATABASE`, `USE`, `\\c`, `GRANT ... ON DATABASE`, MySQL `ON NAME.*`; an
  Ansible `postgresql_db`/`mysql_db`/`postgresql_slot`/... task's `name:`/`db:`, `mysql_replication`'s
  `channel:`);
- agent identities a server knows the host by: Salt's minion `id:` (and `minion_id`, `salt-call
  --id`, `salt-key -a NAME`), Chef's `node_name` (client.rb, knife.rb, Vagrant's `chef.node_name`),
  `knife node|client show|delete|... NAME`, `knife bootstrap -N`, an Icinga 2 agent's `--cn`, its
  `NodeName` constant and `object Endpoint "NAME"`, a Kerberos service principal (`ipa-getkeytab -p
  host/NAME`, `ktutil`, `kadmin ktadd`), an Active Directory computer account (`adcli join
  --computer-name`, `realm join --computer-name`, Samba's `netbios name` beside a realm), the Zabbix
  agent's `Hostname=` (`ZBX_HOSTNAME`, `zabbix_agent_hostname`, `zabbix_sender -s`, an Ansible
  `zabbix_host`'s `host_name:`), a Wazuh/OSSEC agent's name (`agent-auth -A`, `WAZUH_AGENT_NAME`,
  `<agent_name>`), a Checkmk agent's `cmk-agent-ctl register --hostname`.

A database server's host in the same line (the URL's host part, `-h`, `SOURCE_HOST=`) is a machine
and follows. Each is read by its tool's grammar, gated by words of the tool. Pure: bytes in, a short
description of what keys state out.
"""

from __future__ import annotations

import re

from renamer import lazy_re
from renamer.state_nodes import parent_key

# Words one of which a file holding such a name spells (a cheap gate before any line is read).
LITERALS = (b"slot", b"SLOT", b"SUBSCRIPTION", b"subscription", b"PUBLICATION", b"publication", b"CHANNEL",
            b"channel", b"DB", b"db", b"DATABASE", b"atabase", b"SCHEMA", b"schema", b"Catalog", b"USE ",
            b"use ", b"\\c", b"principal", b"sasl", b"kinit", b"kadmin", b"ktutil",
            b"://", b"minion", b"salt", b"node_name", b"knife", b"--cn", b"NodeName", b"Endpoint",
            b"keytab", b"ktadd", b"computer-name", b"netbios", b"Hostname", b"ZBX_", b"zabbix",
            b"agent-auth", b"AGENT_NAME", b"agent_name", b"cmk-agent-ctl", b"pg_", b"psql", b"mysql",
            b"mariadb", b"mongo", b"vacuumdb", b"reindexdb", b"clusterdb", b"mydumper", b"myloader",
            b"sentinel", b"SENTINEL", b"repmgr", b"endpoint", b"Zone", b"createdb", b"dropdb", b"pgbench",
            b"NAME")

_V = rb"[\"'`]?(?P<v>[A-Za-z0-9][A-Za-z0-9._-]*)"  # a flag's or key's value, quoted or not
_SLOT = ("a PostgreSQL replication slot (the primary keeps it, and the WAL it holds back, under the name: "
         "a renamed standby asks for a slot that does not exist)")
_SUB = "a PostgreSQL subscription or publication (the server keeps it, and its origin, under the name)"
_CHANNEL = "a MySQL replication channel (its relay log and applied position are kept under the name)"
_DB = "a database named after the host (the server keeps the data under the name; no client creates it anew)"
_SALT = "a Salt minion id (the master has accepted the minion's key as `minions/NAME`)"
_CHEF = "a Chef node and client name (the node object, the client and its key stay under the name)"
_ICINGA = ("an Icinga 2 endpoint or zone name (the node's certificate CN: its parent and peers know it, and "
           "sync its config, by the name)")
_KRB = "a Kerberos principal (the KDC and the host's keytab hold its key under the name)"
_AD = "an Active Directory computer account (the domain keeps the machine's trust under the name)"
_ZABBIX = ("a Zabbix agent's host name (the server's host object and its history are under the name: "
           "\"host [NEW] not found\" and monitoring stops)")
_WAZUH = "a Wazuh or OSSEC agent's name (the manager's `client.keys` registers the agent under it)"
_CMK = "a Checkmk agent's registration (the site knows the host by the name)"
_REPMGR = "a repmgr node name (the cluster's `repmgr.nodes` metadata knows the node by it)"
_SENTINEL = ("a Redis Sentinel master name (the sentinels keep the master's state under it, and clients ask "
             "for the master by it)")
_ICINGA_WORDS = (b"icinga", b"object endpoint", b"object zone", b"command_endpoint")

_PG_TOOLS = (b"pg_receivewal", b"pg_recvlogical", b"pg_basebackup", b"pg_receivexlog")
# A database client run on the line (a command word, not an image's or a path's part), and its flag
# naming the database.
_DB_CLIENT = lazy_re.compile(rb"(?:^|[\s;|&(`'\"/])(?:psql|pg_dump|pg_restore|pgbench|vacuumdb|reindexdb"
                             rb"|clusterdb|pg_isready|mysql|mariadb|mysqldump|mariadb-dump|mysqlcheck|mysqlpump"
                             rb"|mongosh|mongo|mongodump|mongorestore|mydumper|myloader)(?=[ \t])")
# A database client whose first positional argument names the database (`pg_dump -h db01 web01`,
# `createdb web01`, `mysqldump -u root web01 > x.sql`), and the flags of each family that take a value.
_POS_CLIENT = lazy_re.compile(rb"(?:^|[\s;|&(`'\"/])(?P<tool>createdb|dropdb|pg_dump|psql|vacuumdb|reindexdb"
                              rb"|clusterdb|pgbench|mysql|mysqldump|mariadb|mariadb-dump|mysqlcheck|mysqlshow)"
                              rb"(?=[ \t])")
_PG_VALUED = frozenset((b"-h -p -U -f -F -j -n -N -t -T -Z -c -v -o -L -P -E -O -l -D -S -d -s -R --host "
                        b"--port --username --file --format --jobs --schema --exclude-schema --table "
                        b"--exclude-table --compress --command --set --variable --output --log-file --pset "
                        b"--encoding --owner --locale --tablespace --template --maintenance-db --superuser "
                        b"--role --dbname").split())
_MY_VALUED = frozenset((b"-h -P -u -S -e -D -r -C -W -w -b -A --host --port --user --socket --execute "
                        b"--database --result-file --protocol --default-character-set --tables-prefix "
                        b"--where").split())
_TOKEN = lazy_re.compile(rb"[\"']?(?P<v>[^\s\"']+)[\"']?")
_DB_FLAG = lazy_re.compile(rb"(?:^|[\s\"'\[,])(?:-d|-D|--dbname|--database|--db)(?:[= ]+|(?=[\"']))" + _V)
_KRB_WORDS = (b"kinit", b"ktutil", b"kadmin", b"ipa-getkeytab", b"ipa ", b"k5start", b"keytab", b"principal",
              b"krb5", b"kerberos", b"sasl", b"gssapi", b"kvno", b"msktutil", b"addprinc", b"ktadd")
_USED = rb"[`\"]?(?P<v>[A-Za-z0-9][A-Za-z0-9_-]*)[`\"]?[ \t]*;"  # SQL's `USE NAME;`
_SQL_NAME = rb"(?i:IF\s+(?:NOT\s+)?EXISTS\s+)?[\"'`]?(?P<v>[A-Za-z0-9][A-Za-z0-9_.-]*)"

_Rule = tuple[re.Pattern[bytes], str, tuple[bytes, ...] | None, bool]


def _rule(pattern: bytes, what: str, words: tuple[bytes, ...] | None = None, whole: bool = False) -> _Rule:
    return lazy_re.compile(pattern), what, words, whole


_NAME = rb"(?P<v>[A-Za-z0-9][A-Za-z0-9_.-]*)"
_SLOT_FN = rb"\bpg_(?:create_physical|create_logical|drop|copy_physical|copy_logical)_replication_slot"
_UPPER_DB = (rb"(?<![A-Za-z0-9])(?:(?:[A-Z][A-Z0-9_]*_)?(?:DB_NAME|DBNAME|DATABASE_NAME|DATABASE)"
             rb"|DB_NAME|PGDATABASE|(?:POSTGRES|POSTGRESQL|PG|MYSQL|MARIADB|MONGO|MONGODB|INFLUXDB|CLICKHOUSE|COUCHDB"
             rb"|DOCKER_INFLUXDB_INIT)_DB)[\"']?[ \t]*[=:][ \t]*")
_LOWER_DB = (rb"(?:^|[\s\"'{,;(:])(?:(?:[a-z0-9_]*_)?(?:database|dbname|db_name|database_name)"
             rb"|databaseName|Database|DatabaseName|Initial Catalog|initial catalog"
             rb"|(?:postgres|postgresql|pg|mysql|mariadb|mongo|mongodb|influxdb)_db)"
             rb"[\"']?[ \t]*(?:=>|[=:])[ \t]*")
_KNIFE = (rb"\bknife\s+(?:node|client)\s+(?:show|edit|delete|bulk delete|run_list\s+(?:add|remove|set)"
          rb"|environment\s+set|policy\s+set|attribute\s+\w+|key\s+\w+)\s+(?:-\S+\s+)*")
_PRINCIPAL = (rb"(?<![\w/.-])(?:host|HOST|HTTP|http|nfs|cifs|ldap|imap|smtp|postgres|RestrictedKrbHost"
              rb"|ftp|sip|xmpp)/(?P<v>[A-Za-z0-9][A-Za-z0-9.-]*[A-Za-z0-9])(?![\w/])")
_SALT_KEY = rb"(?:^|\s)(?:-a|-d|-r|-f|-p|-A|--accept|--delete|--reject|--finger|--print)[= ]+[\"']?"
_CHEF_WORDS = (b"chef", b"knife", b"client.rb", b"solo.rb", b"validation_client_name")

# (line regex, what keys state, words one of which the line, the file's name or (where the flag is
# True) the file must hold, or None): the `v` group is the name.
_RULES: tuple[_Rule, ...] = (
    # database objects (finding 06)
    _rule(rb"\bprimary_slot_name[\"'\]]*[ \t]*[=:][ \t]*" + _V, _SLOT),
    _rule(rb"(?:^|[\s\"'\[,])(?:-S|--slot)(?:[= ]+|(?=[A-Za-z0-9\"']))" + _V, _SLOT, _PG_TOOLS),
    _rule(_SLOT_FN + rb"[ \t]*\([ \t]*'" + _NAME, _SLOT),
    _rule(rb"\bpg_replication_slot_advance[ \t]*\([ \t]*'" + _NAME, _SLOT),
    _rule(rb"\bslot[._]name[\"']?[ \t]*[=:][ \t]*" + _V, _SLOT),
    _rule(rb"(?i:\b(?:CREATE|ALTER|DROP)\s+(?:SUBSCRIPTION|PUBLICATION)\s+)" + _SQL_NAME, _SUB),
    _rule(rb"(?i:\bPUBLICATION\s+)" + _SQL_NAME, _SUB, (b"subscription",)),
    _rule(rb"(?i:\bFOR\s+CHANNEL\s+)" + _V, _CHANNEL),
    _rule(rb"(?i:\b(?:CREATE|DROP|ALTER)\s+(?:DATABASE|SCHEMA)\s+)" + _SQL_NAME, _DB),
    _rule(rb"(?i:\bON\s+DATABASE\s+)" + _SQL_NAME, _DB),
    _rule(rb"(?i:\bON\s+)[`'\"]?(?P<v>[A-Za-z0-9][A-Za-z0-9_-]*)[`'\"]?\.\*", _DB, (b"grant", b"revoke")),
    _rule(rb"^[ \t]*USE\s+" + _USED, _DB),
    _rule(rb"(?i:^[ \t]*use\s+)" + _USED, _DB, (b".sql", b"mysql", b"mariadb")),
    _rule(rb"^[ \t]*\\c(?:onnect)?[ \t]+" + _V, _DB),
    _rule(_UPPER_DB + _V, _DB),
    _rule(_LOWER_DB + _V, _DB),
    _rule(rb"[\"']NAME[\"'][ \t]*:[ \t]*" + _V, _DB, (b"django.db.backends",), True),  # Django's DATABASES
    # agent identities (finding 07)
    _rule(rb"(?:^|\s)--id[= ]+" + _V, _SALT, (b"salt-call", b"salt-minion", b"salt-proxy")),
    _rule(_SALT_KEY + _NAME, _SALT, (b"salt-key",)),
    _rule(rb"(?:^|[\s.])node_name[\"']?[ \t]*(?:[=:][ \t]*|[ \t](?=[ \t]*[\"']))[ \t]*" + _V, _CHEF,
          _CHEF_WORDS, True),
    _rule(_KNIFE + _V, _CHEF),
    _rule(rb"(?:^|\s)(?:-N|--node-name)[= ]+" + _V, _CHEF, (b"knife", b"chef-client", b"chef-solo")),
    _rule(rb"(?:^|\s)--(?:cn|zone)[= ]+" + _V, _ICINGA, (b"icinga",), True),
    _rule(rb"\bNodeName[ \t]*=[ \t]*" + _V, _ICINGA, (b"icinga", b"zonename", b"constants.conf"), True),
    _rule(rb"\bobject[ \t]+(?:Endpoint|Zone)[ \t]+\"" + _NAME, _ICINGA),
    _rule(rb"^[ \t]*(?:command_endpoint|zone)[ \t]*=[ \t]*\"" + _NAME, _ICINGA, _ICINGA_WORDS, True),
    _rule(rb"\bnode_name[ \t]*=[ \t]*" + _V, _REPMGR, (b"repmgr",), True),
    _rule(rb"(?i:^[ \t]*sentinel[ \t]+(?:monitor|down-after-milliseconds|failover-timeout|parallel-syncs"
          rb"|auth-pass|auth-user|config-epoch|leader-epoch|known-replica|known-slave|known-sentinel|notification-script"
          rb"|client-reconfig-script|master-reboot-down-after-period)[ \t]+)" + _V, _SENTINEL),
    _rule(rb"(?i:\bsentinel[ \t]+(?:get-master-addr-by-name|get-primary-addr-by-name|failover|reset|master"
          rb"|primary|replicas|slaves|sentinels|remove|ckquorum|flushconfig)[ \t]+)" + _V, _SENTINEL,
          (b"redis-cli", b"sentinel")),
    _rule(_PRINCIPAL, _KRB, _KRB_WORDS),
    _rule(rb"--computer-name[= ]+" + _V, _AD),
    _rule(rb"(?i:^[ \t]*netbios[ \t]+name[ \t]*=[ \t]*)" + _V, _AD, (b"realm",), True),
    _rule(rb"^[ \t]*Hostname[ \t]*=[ \t]*" + _V, _ZABBIX, (b"zabbix", b"serveractive"), True),
    _rule(rb"\bZBX_HOSTNAME[\"']?[ \t]*[=:][ \t]*" + _V, _ZABBIX),
    _rule(rb"(?i:\bzabbix_agent2?_hostname)[\"']?[ \t]*[=:][ \t]*" + _V, _ZABBIX),
    _rule(rb"(?:^|\s)(?:-s|--host)[= ]+" + _V, _ZABBIX, (b"zabbix_sender",)),
    _rule(rb"(?:^|\s)-A[= ]+" + _V, _WAZUH, (b"agent-auth",)),
    _rule(rb"\b(?:WAZUH|wazuh)_(?:AGENT|agent)_(?:NAME|name)[\"']?[ \t]*[=:][ \t]*" + _V, _WAZUH),
    _rule(rb"<agent_name>[ \t]*" + _NAME, _WAZUH),
    _rule(rb"(?:^|\s)(?:-H|--hostname)[= ]+" + _V, _CMK, (b"cmk-agent-ctl",)),
)

# A database URL's path names the database: `postgres://user@db:5432/NAME`, `jdbc:mysql://db/NAME`,
# `jdbc:oracle:thin:@//db:1521/NAME` (the host part is a machine and follows).
_URL = lazy_re.compile(
    rb"(?<![A-Za-z0-9])(?i:(?:jdbc:)?(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|sqlserver|cockroachdb|clickhouse|"
    rb"timescaledb|redshift|oracle:thin:@|mysqlx|(?:postgres(?:ql)?|mysql|mariadb|mssql|oracle)\+[a-z0-9]+)"
    rb"(?::[a-z]+)*:?//)[^/\s\"'<>]*/(?P<v>[A-Za-z0-9][A-Za-z0-9_.-]*)")
_ENDPOINTS = lazy_re.compile(rb"\bendpoints[ \t]*=[ \t]*\[(?P<list>[^\]]*)")
# A YAML key under an Ansible module that names a database object, by the module.
_MODULE_KEY = lazy_re.compile(rb"^(?:\xef\xbb\xbf)?[ \t]*(?:-[ \t]+)?(?P<key>name|db|login_db|channel"
                              rb"|host_name|id|object_name)[ \t]*:[ \t]*" + _V)
_DB_MODULES = {b"postgresql_db": _DB, b"mysql_db": _DB, b"postgresql_slot": _SLOT,
               b"postgresql_subscription": _SUB, b"postgresql_publication": _SUB,
               b"mysql_replication": _CHANNEL, b"zabbix_host": _ZABBIX, b"icinga_endpoint": _ICINGA,
               b"icinga_zone": _ICINGA}
_BARE_KEY = lazy_re.compile(rb"^[ \t]*[\"']?(?P<v>[A-Za-z0-9][A-Za-z0-9_.-]*)[\"']?[ \t]*:[ \t]*(?:#.*)?$")
_LIST_ITEM = lazy_re.compile(rb"^[ \t]*-[ \t]+[\"']?(?P<v>[A-Za-z0-9][A-Za-z0-9_.-]*)[\"']?[ \t]*(?:#.*)?$")
_ICINGA_TYPE = lazy_re.compile(rb"(?m)^[ \t]*(?:-[ \t]+)?type[ \t]*:[ \t]*[\"']?(?:Endpoint|Zone)[\"']?"
                               rb"[ \t]*$")
_TOP_ID = lazy_re.compile(rb"^(?:\xef\xbb\xbf)?id[ \t]*:[ \t]*" + _V)
_MASTER = lazy_re.compile(rb"(?m)^(?:master|master_port|file_client|pki_dir|minion_id_caching)[ \t]*:")


def might_hold(rel: str, data: bytes) -> bool:
    """Cheap: might `data` (of the file `rel`) spell one of the names this module reads?"""
    return any(word in data for word in LITERALS) or _minion_file(rel)


def _minion_file(rel: str) -> bool:
    """Is `rel` a Salt minion's config (`minion`, `minion.d/*.conf`) or its cached `minion_id`?"""
    low = "/" + rel.lower()
    return low.endswith(("/minion", "/minion_id")) or "/minion.d/" in low


def keyed(rel: str, data: bytes, start: int, end: int) -> str | None:
    """What keys state at `data[start:end]` (an old name found there), in words, or None."""
    head = data.rfind(b"\n", 0, start) + 1
    tail = data.find(b"\n", start)
    line = data[head:len(data) if tail < 0 else tail].rstrip(b"\r")
    low_line, name, low = line.lower(), rel.rsplit("/", 1)[-1].lower(), None
    if name == "minion_id" and data.strip() == line.strip():  # Salt's cached minion id: the file is the name
        return _SALT
    at, to = start - head, end - head  # the name's span in the line
    for pattern, what, words, whole in _RULES:
        if not any(hit.start("v") <= at and to <= hit.end("v") for hit in pattern.finditer(line)):
            continue
        if words is None or any(w in low_line or w.decode() in name for w in words):
            return what
        if whole:
            low = data.lower() if low is None else low
            if any(w in low for w in words):
                return what
    if any(hit.start("v") <= at and to <= hit.end("v") for hit in _URL.finditer(line)):
        return _DB
    if _positional(line, at, to):
        return _DB
    client = _DB_CLIENT.search(line) if b"-d" in line or b"-D" in line else None
    if client is not None and any(hit.start("v") <= at and to <= hit.end("v")
                                  for hit in _DB_FLAG.finditer(line, client.end())):
        return _DB
    for hit in _ENDPOINTS.finditer(line):  # an Icinga 2 zone's members: `endpoints = [ "NAME" ]`
        if (hit.start("list") <= at and to <= hit.end("list") and line.count(b'"', hit.start("list"), at) % 2
                and any(w in (data.lower() if low is None else low) for w in _ICINGA_WORDS)):
            return _ICINGA
    return _structured(rel, data, start, end, head, line)


def _positional(line: bytes, at: int, to: int) -> bool:
    """Is `line[at:to]` the first positional argument of a database client (its database)?"""
    client = _POS_CLIENT.search(line, 0, at)
    if client is None:
        return False
    valued = _MY_VALUED if client.group("tool").startswith((b"my", b"maria")) else _PG_VALUED
    skip = False
    for token in _TOKEN.finditer(line, client.end()):
        word = token.group("v")
        if word[:1] in (b"|", b">", b"<", b";", b"&", b"#", b"$", b"`") or word[:2] == b"2>":
            return False  # the command ends, or a variable's value is not read
        if skip:
            skip = False
            continue
        if word.startswith(b"-"):
            skip = b"=" not in word and word in valued
            continue
        return token.start("v") == at and token.end("v") == to and b"=" not in word and b"/" not in word
    return False


def _structured(rel: str, data: bytes, start: int, end: int, head: int, line: bytes) -> str | None:
    """A name under a key its file's structure gives meaning to: Salt's minion `id:`, Patroni's
    permanent `slots:`, an Ansible database or Zabbix module's `name:`/`db:`/`channel:`/`host_name:`."""
    m = _TOP_ID.match(line)
    if (m is not None and m.start("v") + head <= start and end <= m.end("v") + head
            and (_minion_file(rel) or _MASTER.search(data) is not None)):
        return _SALT
    m = _BARE_KEY.match(line)
    if (m is not None and m.start("v") + head <= start and end <= m.end("v") + head
            and parent_key(data, head) == b"slots"):
        return _SLOT  # Patroni's permanent slots: `slots: {NAME: {type: physical}}`
    m = _LIST_ITEM.match(line)
    if (m is not None and m.start("v") + head <= start and end <= m.end("v") + head
            and parent_key(data, head) == b"endpoints" and any(w in data.lower() for w in _ICINGA_WORDS)):
        return _ICINGA  # an Icinga 2 zone's `endpoints:` in YAML (the Ansible collections)
    m = _MODULE_KEY.match(line)
    if m is None or not (m.start("v") + head <= start and end <= m.end("v") + head):
        return None
    parent = parent_key(data, head)
    typed = b"Endpoint" in data or b"Zone" in data
    if m.group("key") == b"name" and (
            (parent in (b"endpoint", b"zone") and b"icinga" in data.lower())
            or (typed and _ICINGA_TYPE.search(_mapping(data, head)) is not None)):
        return _ICINGA  # `- name: NAME` beside `type: Endpoint`, `endpoint: {name: NAME}`
    if parent is None:
        return None
    if m.group("key") == b"id":
        return _SALT if parent == b"minion" else None
    module = parent.rsplit(b".", 1)[-1]
    what = _DB_MODULES.get(module)
    if what is None:
        return None
    key = m.group("key")
    if module == b"mysql_replication":
        return what if key == b"channel" else None
    if module == b"zabbix_host":
        return what if key == b"host_name" else None
    if module in (b"icinga_endpoint", b"icinga_zone"):
        return what if key == b"object_name" else None
    return what if key in (b"name", b"db", b"login_db") else None


def _mapping(data: bytes, head: int) -> bytes:
    """The lines of the YAML mapping the line at `head` stands in (its siblings, a list item whole)."""
    stop = data.find(b"\n", head)
    line = data[head:len(data) if stop < 0 else stop]
    key = re.match(rb"[ \t]*(?:-[ \t]+)?", line)
    col = key.end() if key is not None else 0
    lines = data.split(b"\n")
    at = data.count(b"\n", 0, head)
    first = at
    if not line.lstrip(b" \t").startswith(b"-"):
        while first > 0:
            text = lines[first - 1]
            lead = len(text) - len(text.lstrip(b" \t"))
            if text.strip() and lead < col:
                first -= 1 if text.lstrip(b" \t").startswith(b"-") and lead + 2 == col else 0
                break
            first -= 1
    last = at + 1
    while last < len(lines):
        text = lines[last]
        if text.strip() and len(text) - len(text.lstrip(b" \t")) < col:
            break
        last += 1
    return b"\n".join(lines[first:last])


