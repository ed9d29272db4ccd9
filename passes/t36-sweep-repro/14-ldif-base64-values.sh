#!/bin/bash
# 14 (sev 1): an LDIF value after `::` is base64 by the format (RFC 2849; ldapsearch writes any
# value with a non-ASCII byte, a leading space or a trailing one so, and many tools always do).
# `labeledURI:: aHR0cDovL3dlYjAxLmxhYi5leGFtcGxlLw==` is `http://web01.lab.example/`. The sweep
# does not decode it (it decodes base64 in Kubernetes Secrets' data): silent, verify --strict OK.
. "$(dirname "$0")/lib.sh"
mkrepo 14; cfg '{web01.lab.example: webapp01.prod.example}' '{10.0.0.70: 10.0.1.190}'
mkdir -p ldap
V=$(printf 'http://web01.lab.example/ ' | base64 -w0); A=$(printf ' 10.0.0.70' | base64 -w0)
printf 'dn: cn=web,ou=hosts,dc=lab,dc=example\nobjectClass: ipHost\ncn: web\nlabeledURI:: %s\nipHostNumber:: %s\n' "$V" "$A" > ldap/hosts.ldif
printf 'web01.lab.example 10.0.0.70\n' > hosts.txt
commit
echo "decoded: $(grep labeledURI ldap/hosts.ldif | cut -d' ' -f2 | base64 -d) | $(grep ipHostNumber ldap/hosts.ldif | cut -d' ' -f2 | base64 -d)"
run_all 2>&1 | grep -E '^(rc|==|diff --git|verify|[-+][^-+])'
