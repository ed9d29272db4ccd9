#!/bin/bash
# 13 (sev 1): lines folded by a leading space (RFC 2849 LDIF, RFC 5545 iCalendar, RFC 6350
# vCard; MIME headers too): the reader deletes the line break and the one blank, so
# `ipHostNumber: 10.0.0.7` + `\n 0` IS 10.0.0.70 and `http://web01.lab.ex` + `\n ample/` IS the old
# FQDN. The sweep reads the physical lines: nothing matched, nothing said. sweep 0, verify --strict
# OK, and `ldapadd` of this file still publishes the old address and name. (The backslash
# continuations of YAML, TOML, shell, .properties and systemd are a `split` residual; this
# continuation by a leading space is not read at all.)
. "$(dirname "$0")/lib.sh"
mkrepo 13; cfg '{web01.lab.example: webapp01.prod.example}' '{10.0.0.70: 10.0.1.190}'
mkdir -p ldap cal
printf 'dn: cn=web,ou=hosts,dc=lab,dc=example\nobjectClass: ipHost\ncn: web\nipHostNumber: 10.0.0.7\n 0\nlabeledURI: http://web01.lab.ex\n ample/ the web front end\n' > ldap/hosts.ldif
printf 'BEGIN:VCALENDAR\nBEGIN:VEVENT\nSUMMARY:patch night\nLOCATION:ssh://web01.la\n b.example\nEND:VEVENT\nEND:VCALENDAR\n' > cal/on-call.ics
printf 'BEGIN:VCARD\nVERSION:3.0\nFN:web team\nURL:https://web01.lab.exam\n ple/contact\nEND:VCARD\n' > cal/team.vcf
printf 'web01.lab.example 10.0.0.70\n' > hosts.txt
commit
python3 - <<'PY'
import re
t=open('ldap/hosts.ldif').read(); print('LDIF as a reader unfolds it:', re.sub(r'\n ', '', t).splitlines()[3:5])
PY
run_all 2>&1 | grep -E '^(rc|==|diff --git|verify|[-+][^-+])'
