#!/bin/bash
# Finding (seen on onedr0p/home-ops): values that are no secret are masked as secrets in the dry run's
# diff and in verify, so the diff "does not apply as printed": Plex's PLEX_NO_AUTH_NETWORKS (a list of LAN
# networks; `AUTH` in the key), and Windows unattend.xml's `<settings pass="specialize">` (a setup pass name).
R=${RENAMER:-/work/t37-break/.venv/bin/renamer}
D=/tmp/t37-break/r12; rm -rf $D; mkdir -p $D; cd $D; git init -q; git config user.email t@t; git config user.name t
cat > renamer.yaml <<'Y'
version: 1
renames:
  hosts: {web01: app01}
  addresses: {192.168.69.128: 192.168.79.128}
allowlist: allow.yaml
Y
printf 'version: 1\ncurrent: ["**"]\n' > allow.yaml
cat > helmrelease.yaml <<'Y'
env:
  PLEX_ADVERTISE_URL: http://192.168.69.128:32400
  PLEX_NO_AUTH_NETWORKS: 192.168.10.0/24
Y
cat > unattend.xml <<'Y'
<unattend><settings pass="specialize"><component name="Microsoft-Windows-Shell-Setup"><ComputerName>web01</ComputerName></component></settings></unattend>
Y
git add -A; git commit -qm init
$R sweep --dry-run 2>&1 | grep -E '\*\*\*\*|masked'
echo "(expected: no ****: neither a list of networks nor a setup pass name is a secret)"
