#!/bin/bash
# Finding: t37-break 15's fix shows an address list under a secret-sounding key only where the key has a
# "place word" (network, hosts, ip, allowed...). Addresses under other everyday keys with `auth`/`password`/
# `key` in them stay masked on both sides of the dry run's diff, the change hidden and the diff not
# applying as printed: RADIUS/LDAP auth servers (while the bare `AUTH_SERVER=` is shown), an auth
# gateway, an auth service's listen address `IP:PORT`, a quoted list, an IPv6 address, PASSWORD_SERVER.
R=${RENAMER:-/work/t38-break/.venv/bin/renamer}
D=/tmp/t38-break/r05; rm -rf $D; mkdir -p $D; cd $D; git init -q; git config user.email t@t; git config user.name t
cat > renamer.yaml <<'Y'
version: 1
renames:
  addresses: {10.0.0.5: 10.0.9.5, "fd00::5": "fd00::9:5"}
allowlist: allow.yaml
Y
printf 'version: 1\ncurrent: ["**"]\n' > allow.yaml
cat > auth.env <<'Y'
AUTH_SERVER=10.0.0.5
LDAP_AUTH_SERVER=10.0.0.5
RADIUS_AUTH_SERVER=10.0.0.5
AUTH_GATEWAY=10.0.0.5
AUTH_LISTEN=10.0.0.5:9091
AUTH_IPV6=fd00::5
PASSWORD_SERVER=10.0.0.5
Y
printf 'auth_addr = ["10.0.0.5", "10.0.0.6"]\n' > auth.tf
git add -A; git commit -qm init
$R sweep --dry-run --color never 2>&1 | grep '^[-+][^-+]'
$R sweep --dry-run --color never 2>/dev/null | sed -n '/^diff --git/,/^Summary/p' | grep -v '^Summary' > /tmp/t38-break/r05.diff
git apply --check /tmp/t38-break/r05.diff && echo "diff applies" || echo "the printed diff does not apply"
echo; echo "expected: every -/+ line shows the old and new address (only AUTH_SERVER= does)"
