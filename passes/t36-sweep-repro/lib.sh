# Shared helpers for the t36-sweep reproductions. Source it; then call
#   mkrepo NAME          -> fresh git repo in /tmp/t36-repro/NAME, cd there
#   cfg HOSTS ADDRS NETS -> renamer.yaml (YAML flow mappings) + allowlist current: ["**"]
#   commit               -> git add -A && commit
#   run_all              -> sweep --commit, verify --strict, audit; prints rc of each
set -u
RENAMER_VENV=${RENAMER_VENV:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.venv}
export PATH="$RENAMER_VENV/bin:$PATH"
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
mkrepo() { D=/tmp/t36-repro/$1; rm -rf "$D"; mkdir -p "$D"; cd "$D"; git init -q -b main .; }
cfg() {
  mkdir -p allowlists
  cat > renamer.yaml <<EOC
version: 1
name: t36
cutover: 2026-01-01
renames:
  hosts: ${1:-"{}"}
  addresses: ${2:-"{}"}
  networks: ${3:-"{}"}
allowlist: allowlists/a.yaml
EOC
  cat > allowlists/a.yaml <<EOC
version: 1
extends: [records-common]
current: ["**"]
dated:
  filenames: true
  sections: ['^#{1,6}\s+\[?(?P<date>\d{4}-\d{2}-\d{2})']
EOC
}
commit() { git add -A && git commit -qm "${1:-state}"; }
run_all() {
  echo "== sweep --commit"; renamer --color never sweep --commit; echo "rc(sweep)=$?"
  echo "== verify"; renamer --color never verify >/dev/null 2>&1; echo "rc(verify)=$?"
  echo "== verify --strict"; renamer --color never verify --strict; echo "rc(verify --strict)=$?"
  echo "== diff of the sweep"; git --no-pager show --stat --format=%s HEAD | cat; git --no-pager diff HEAD~1 HEAD -- . ':!renamer.yaml' | cat
}
