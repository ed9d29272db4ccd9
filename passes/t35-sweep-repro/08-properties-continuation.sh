#!/bin/bash
# 08 (sev 1): a Java .properties value continued with a trailing backslash is read joined
# (java.util.Properties drops the backslash, the newline and the next line's leading blanks):
# `host = web01.lab.\` + `    example` is web01.lab.example. Shell, YAML, TOML, make,
# PowerShell, cmd and Dockerfile continuations are `split` residuals; this one is silent
# (same for an address split `10.0.\` / `0.70`). Also a quoted-printable soft break in a MIME
# file (`web01.lab.exa=` / `mple`). exit 0, verify --strict OK.
. "$(dirname "$0")/lib.sh"
mkrepo 08; cfg '{web01.lab.example: app01.example.net}' '{10.0.0.70: 10.0.1.90}'
mkdir -p src/main/resources mail
printf 'db.url=jdbc:postgresql://db.lab.example/app\napp.upstream.host = web01.lab.\\\n    example\napp.upstream.ip = 10.0.\\\n    0.70\n' > src/main/resources/application.properties
printf 'MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\nYour service moved to web01.lab.exa=\nmple (10.0.0.=\n70).\n' > mail/welcome-template.eml
printf 'HOST=web01.lab.\\\nexample\n' > control.env
commit
run_all
echo "== java.util.Properties reads (python emulation of the continuation rule):"
python3 - <<'PY'
import re
t = open("src/main/resources/application.properties").read()
print(re.sub(r"\\\n[ \t]*", "", t))
PY
