#!/bin/bash
# 06 (sev 1): objects a database server keeps under the host's name. A physical replication slot
# on the primary (`primary_slot_name = 'web01'`, `pg_receivewal -S web01`, a `slot:` in Patroni's
# permanent slots): renamed, the standby asks for slot "app01", which does not exist ("replication
# slot "app01" does not exist", replication stops; the old slot keeps WAL until the disk fills).
# A database named after the host (`POSTGRES_DB=web01`: the image creates it only on the first
# start; `psql -d web01`, a JDBC URL's path): renamed, every client asks for a database that does
# not exist. MySQL's replication channel and a Postgres subscription name likewise.
# All rewritten; sweep --commit 0, verify --strict 0.
. "$(dirname "$0")/lib.sh"
mkrepo 06; cfg '{web01: app01}' '{10.0.0.70: 10.0.1.90}'
mkdir -p pg scripts app
printf "primary_conninfo = 'host=db01 user=replicator'\nprimary_slot_name = 'web01'\n" > pg/postgresql.auto.conf
printf '#!/bin/sh\npg_receivewal -h db01 -S web01 -D /srv/wal\n' > scripts/wal.sh
printf 'POSTGRES_DB=web01\nPOSTGRES_USER=web\n' > app/db.env
printf 'spring.datasource.url=jdbc:postgresql://db01:5432/web01\n' > app/application.properties
printf "CHANGE REPLICATION SOURCE TO SOURCE_HOST='db01' FOR CHANNEL 'web01';\n" > scripts/channel.sql
commit
run_all 2>&1 | grep -E '^(rc|==|diff --git|[-+][^-+])'
